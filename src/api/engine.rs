//! The bounded pool of search threads behind `/analyze`: a request either
//! gets a slot at once or is turned away with 503 and `Retry-After`, so a
//! burst of searches never queues behind itself or starves the cheap
//! endpoints. Each search runs on its own thread; a client that goes away
//! stops its search.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::search::analysis::{Analysis, Request};
use crate::search::{self, Control, Evaluate, SearchResult};
use crate::variants::Game;

/// Why a search was not run to an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Every slot is taken: retry shortly.
    Busy,
    /// The server is stopping.
    ShuttingDown,
    /// No thread could be started.
    NoThread,
    /// The search failed (a bug; it has been logged).
    Failed,
}

/// Limits fixed when the server starts.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Searches that may run at once.
    pub max_searches: usize,
    /// The search time when a request sets no limit.
    pub default_movetime: Duration,
    /// The longest search, whatever the request asks.
    pub max_movetime: Duration,
    /// The deepest search a request may ask for, in plies.
    pub max_depth: u32,
    /// The most nodes a request may ask for.
    pub max_nodes: u64,
    /// Transposition table size of each search.
    pub hash_mb: usize,
    /// Threads of each search.
    pub search_threads: usize,
    /// The longest review of a game, all its searches together.
    pub max_review: Duration,
    /// The most plies a review takes.
    pub max_review_plies: usize,
}

/// Half the cores (at least one), so searches leave room for everything else.
pub fn default_max_searches() -> usize {
    std::thread::available_parallelism()
        .map(|n| (n.get() / 2).max(1))
        .unwrap_or(1)
}

/// The pool's counters (read by `/metrics`).
#[derive(Debug, Default)]
pub struct EngineStats {
    /// Searches running now.
    pub running: AtomicUsize,
    /// Searches refused because every thread was busy.
    pub rejected: AtomicU64,
    /// Searches that ran to their limits.
    pub completed: AtomicU64,
    /// Searches stopped early: the client went away or the server is stopping.
    pub cancelled: AtomicU64,
    /// Nodes searched by all searches since the start.
    pub nodes: AtomicU64,
}

/// The searches of one server: admission (a full pool refuses at once), the
/// threads, the stop flags and the counters.
#[derive(Debug, Default)]
pub struct EnginePool {
    /// The limits every search runs under.
    pub config: EngineConfig,
    /// The counters `/metrics` reads.
    pub stats: EngineStats,
    /// Set when the server is about to give up on running requests: every
    /// search stops and answers with what it has.
    cut: AtomicBool,
}

/// A search slot; dropping it frees the slot.
pub struct Permit {
    pool: Arc<EnginePool>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.pool.stats.running.fetch_sub(1, Ordering::AcqRel);
    }
}

impl EnginePool {
    /// A pool with no search running.
    pub fn new(config: EngineConfig) -> EnginePool {
        EnginePool {
            config,
            stats: EngineStats::default(),
            cut: AtomicBool::new(false),
        }
    }

    /// Stops every running search (they answer with what they found) and
    /// refuses new ones.
    pub fn cut_all(&self) {
        self.cut.store(true, Ordering::Relaxed);
    }

    /// Whether searches are being cut short (the server is stopping).
    pub fn is_cut(&self) -> bool {
        self.cut.load(Ordering::Relaxed)
    }

    /// Counts a finished search: its nodes, and whether it ran to its
    /// limits or was stopped.
    fn record(&self, control: &Control) {
        let s = &self.stats;
        s.nodes
            .fetch_add(control.nodes.load(Ordering::Relaxed), Ordering::Relaxed);
        if control.stop.load(Ordering::Relaxed) {
            s.cancelled.fetch_add(1, Ordering::Relaxed);
        } else {
            s.completed.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Searches `game` on a thread of its own if a slot is free now (never
    /// waiting for one). The answer comes when the search ends: at its
    /// limits, when the server cuts searches short, or as soon as the client
    /// behind `peer` goes away (looked at every 100 ms). `None`: the side to
    /// move has no legal move.
    pub async fn search<V: Evaluate>(
        self: &Arc<Self>,
        game: Game<V>,
        request: Request<V::Move>,
        peer: Option<Arc<Peer>>,
    ) -> Result<Option<Analysis<V::Move>>, Refused> {
        self.start(game, request, peer, None)?.finish().await
    }

    /// Starts a search as [`EnginePool::search`] does, `progress` told of
    /// each completed depth (on the search's thread); refused at once when
    /// no slot is free. [`Running::finish`] awaits its answer.
    pub fn start<V: Evaluate>(
        self: &Arc<Self>,
        game: Game<V>,
        request: Request<V::Move>,
        peer: Option<Arc<Peer>>,
        mut progress: Option<Report<V::Move>>,
    ) -> Result<Running<Option<Analysis<V::Move>>>, Refused> {
        let entries = search::table_entries(self.config.hash_mb);
        self.start_job(peer, move |control| {
            let report = progress
                .as_mut()
                .map(|p| p.as_mut() as search::Progress<'_, V::Move>);
            let table = search::table_for(&request.limits, entries);
            search::analysis::analyse(&game, &request, control, &table, report)
        })
    }

    /// Runs `job` in a slot of its own, on a thread of its own, as a
    /// search (a game review's searches, one after another): refused at
    /// once when no slot is free; `job` is told through its [`Control`] to
    /// stop when the client goes away or the server cuts searches short.
    pub fn start_job<T: Send + 'static>(
        self: &Arc<Self>,
        peer: Option<Arc<Peer>>,
        job: impl FnOnce(&Control) -> T + Send + 'static,
    ) -> Result<Running<T>, Refused> {
        if self.is_cut() {
            return Err(Refused::ShuttingDown);
        }
        let permit = self.try_acquire().ok_or(Refused::Busy)?;
        let control = Control::default();
        let stop = control.stop.clone();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let pool = self.clone();
        std::thread::Builder::new()
            .name("arbiter-search".to_owned())
            .spawn(move || {
                let found =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&control)));
                pool.record(&control);
                // Free the slot before answering, so the client's next
                // search finds it free.
                drop(permit);
                let _ = tx.send(found);
            })
            .map_err(|_| Refused::NoThread)?;
        Ok(Running {
            pool: self.clone(),
            stop,
            rx,
            peer,
        })
    }

    /// A slot if one is free now; never waits.
    pub fn try_acquire(self: &Arc<Self>) -> Option<Permit> {
        let max = self.config.max_searches.max(1);
        let taken = self
            .stats
            .running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            });
        match taken {
            Ok(_) => Some(Permit { pool: self.clone() }),
            Err(_) => {
                self.stats.rejected.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }
}

/// Told of each completed depth of a search, on the search's thread.
pub type Report<M> = Box<dyn FnMut(&SearchResult<M>) + Send>;

/// What a search thread sends back: its answer, or its panic.
type Found<T> = std::thread::Result<T>;

/// A search under way; dropping it stops the search.
pub struct Running<T> {
    pool: Arc<EnginePool>,
    stop: Arc<AtomicBool>,
    rx: tokio::sync::oneshot::Receiver<Found<T>>,
    peer: Option<Arc<Peer>>,
}

impl<T> Running<T> {
    /// The search's answer, when it ends (see [`EnginePool::search`]).
    pub async fn finish(mut self) -> Result<T, Refused> {
        loop {
            match actix_web::rt::time::timeout(Duration::from_millis(100), &mut self.rx).await {
                Ok(Ok(Ok(found))) => return Ok(found),
                Ok(Ok(Err(panic))) => {
                    let what = super::error::panic_message(&*panic);
                    tracing::error!(panic = %what, "a search panicked");
                    return Err(Refused::Failed);
                }
                Ok(Err(_)) => return Err(Refused::Failed),
                Err(_) => {
                    if self.peer.as_ref().is_some_and(|p| p.is_gone()) {
                        tracing::info!("client disconnected: search stopped");
                        self.stop.store(true, Ordering::Relaxed);
                    }
                    if self.pool.is_cut() {
                        self.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }
}

impl<M> Drop for Running<M> {
    fn drop(&mut self) {
        // Unless finished (then the thread is done), a dropped search stops.
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A second handle on a client's connection, taken when it connects, so a
/// long request can notice that the client has gone (actix-web does not drop
/// a handler's future when its client disconnects).
#[derive(Debug)]
pub struct Peer(socket2::Socket);

impl Peer {
    /// The handle for a new connection (registered with `on_connect`).
    pub fn of(conn: &dyn std::any::Any) -> Option<Arc<Peer>> {
        let tcp = conn.downcast_ref::<actix_web::rt::net::TcpStream>()?;
        socket2::SockRef::from(tcp)
            .try_clone()
            .ok()
            .map(|s| Arc::new(Peer(s)))
    }

    /// Whether the client has closed its side (or the connection broke). The
    /// socket is non-blocking, like the server's own handle on it.
    pub fn is_gone(&self) -> bool {
        let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 1];
        match self.0.peek(&mut buf) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => {
                e.kind() != std::io::ErrorKind::WouldBlock
                    && e.kind() != std::io::ErrorKind::Interrupted
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_bounded_and_returned() {
        let pool = Arc::new(EnginePool::new(EngineConfig {
            max_searches: 2,
            ..EngineConfig::default()
        }));
        let a = pool.try_acquire().expect("first slot");
        let b = pool.try_acquire().expect("second slot");
        assert!(pool.try_acquire().is_none());
        assert_eq!(pool.stats.rejected.load(Ordering::Relaxed), 1);
        drop(a);
        let c = pool.try_acquire().expect("a freed slot");
        assert_eq!(pool.stats.running.load(Ordering::Relaxed), 2);
        drop((b, c));
        assert_eq!(pool.stats.running.load(Ordering::Relaxed), 0);
    }
}
