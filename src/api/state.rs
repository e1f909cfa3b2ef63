//! What a running server shares between its workers: readiness, the
//! search pool, fair shares and the metrics.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::{engine, fair, metrics};

/// Shared state of a running server.
#[derive(Debug)]
pub struct AppState {
    shutting_down: AtomicBool,
    /// The search pool.
    pub engine: Arc<engine::EnginePool>,
    /// Fair shares between clients.
    pub fair: Arc<fair::Fairness>,
    /// The metrics registry.
    pub metrics: metrics::Metrics,
}

impl Default for AppState {
    fn default() -> AppState {
        AppState::new(engine::EngineConfig::default(), fair::FairConfig::default())
    }
}

impl AppState {
    /// The state of a server with these search limits and fair shares,
    /// ready to serve.
    pub fn new(config: engine::EngineConfig, fair: fair::FairConfig) -> AppState {
        // The rule option `tablebase_adjudication` asks the tables.
        crate::tablebase::adjudicate_with_installed();
        let engine = Arc::new(engine::EnginePool::new(config));
        let fair = Arc::new(fair::Fairness::new(fair));
        AppState {
            shutting_down: AtomicBool::new(false),
            metrics: metrics::Metrics::new(engine.clone(), fair.clone()),
            engine,
            fair,
        }
    }

    /// Whether `/readyz` says ready (false once shutdown has begun).
    pub fn is_ready(&self) -> bool {
        !self.shutting_down.load(Ordering::Relaxed)
    }

    /// Marks the server as shutting down: `/readyz` answers 503 from now on.
    pub fn set_shutting_down(&self) {
        self.shutting_down.store(true, Ordering::Relaxed);
    }
}
