//! What a running server shares between its workers: readiness, the
//! search pool and the metrics.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::{engine, metrics};

/// Shared state of a running server.
#[derive(Debug)]
pub struct AppState {
    shutting_down: AtomicBool,
    /// The search pool.
    pub engine: Arc<engine::EnginePool>,
    /// The metrics registry.
    pub metrics: metrics::Metrics,
}

impl Default for AppState {
    fn default() -> AppState {
        AppState::new(engine::EngineConfig::default())
    }
}

impl AppState {
    /// The state of a server with these search limits, ready to serve.
    pub fn new(config: engine::EngineConfig) -> AppState {
        let engine = Arc::new(engine::EnginePool::new(config));
        AppState {
            shutting_down: AtomicBool::new(false),
            metrics: metrics::Metrics::new(engine.clone()),
            engine,
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
