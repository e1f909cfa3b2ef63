//! The bounded pool of search threads behind `/analyze` and `/review`: a
//! search takes a slot at once, or waits for one in order of arrival up to
//! `--search-wait-ms`, or is turned away with 503 and `Retry-After`, so a
//! burst of searches never queues without end or starves the cheap
//! endpoints. With `--max-searches-per-client` one client may have only so
//! many searches running or waiting; more are answered 429 at once, so a
//! client flooding the pool cannot hold every slot. Each search runs on its
//! own thread; a client that goes away stops its search.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::fair::{ClientKey, Hold};
use crate::search::analysis::{Analysis, Request};
use crate::search::{self, Control, Evaluate, SearchResult};
use crate::variants::Game;

/// Why a search was not run to an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Every slot is taken (and stayed taken for the wait allowed): retry
    /// shortly.
    Busy,
    /// The client has as many searches running or waiting as one may.
    ClientBusy,
    /// The client went away while its search waited for a thread.
    ClientGone,
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
    /// Searches one client may have running or waiting at once; `None`:
    /// as many as the pool holds.
    pub max_searches_per_client: Option<usize>,
    /// How long a search waits for a slot before it is refused; zero:
    /// refused at once when every slot is taken.
    pub search_wait: Duration,
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
    /// Searches waiting for a slot now.
    pub waiting: AtomicUsize,
    /// Searches refused because every thread was busy.
    pub rejected: AtomicU64,
    /// Searches refused because their client had its share under way.
    pub refused_client: AtomicU64,
    /// Searches that ran to their limits.
    pub completed: AtomicU64,
    /// Searches stopped early: the client went away or the server is stopping.
    pub cancelled: AtomicU64,
    /// Nodes searched by all searches since the start.
    pub nodes: AtomicU64,
}

/// The searches of one server: admission (a slot at once, or after a
/// bounded wait in order of arrival; each client's share), the threads, the
/// stop flags and the counters.
#[derive(Debug)]
pub struct EnginePool {
    /// The limits every search runs under.
    pub config: EngineConfig,
    /// The counters `/metrics` reads.
    pub stats: EngineStats,
    /// Set when the server is about to give up on running requests: every
    /// search stops and answers with what it has.
    cut: AtomicBool,
    /// The slots; waiters are served first come, first served.
    slots: Arc<tokio::sync::Semaphore>,
    /// Each client's searches running or waiting (none: no entry).
    clients: Mutex<HashMap<ClientKey, usize>>,
    /// Refusals for a client's share, answered after their `Retry-After`.
    held: Hold,
}

impl Default for EnginePool {
    fn default() -> EnginePool {
        EnginePool::new(EngineConfig::default())
    }
}

/// A search slot, with its share of its client's; dropping it frees both.
pub struct Permit {
    pool: Arc<EnginePool>,
    _slot: tokio::sync::OwnedSemaphorePermit,
    _share: Option<Share>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.pool.stats.running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One of a client's searches running or waiting; dropping it gives it back.
struct Share {
    pool: Arc<EnginePool>,
    client: ClientKey,
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut clients = self.pool.clients.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = clients.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                clients.remove(&self.client);
            }
        }
    }
}

/// Counts a waiting search while it waits.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl EnginePool {
    /// A pool with no search running.
    pub fn new(config: EngineConfig) -> EnginePool {
        let slots = Arc::new(tokio::sync::Semaphore::new(config.max_searches.max(1)));
        EnginePool {
            config,
            stats: EngineStats::default(),
            cut: AtomicBool::new(false),
            slots,
            clients: Mutex::new(HashMap::new()),
            held: Hold::default(),
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

    /// A slot for a search of `client`: at once if one is free, else the
    /// first to free up within `--search-wait-ms` (waiters in order of
    /// arrival; a waiting search whose client behind `peer` goes away
    /// gives up its place, looked at every 100 ms). Refused when the server
    /// is stopping, and (after a second) when the client already has its
    /// share of searches running or waiting.
    pub async fn admit(
        self: &Arc<Self>,
        client: Option<ClientKey>,
        peer: Option<&Peer>,
    ) -> Result<Permit, Refused> {
        if self.is_cut() {
            return Err(Refused::ShuttingDown);
        }
        let share = match (client, self.config.max_searches_per_client) {
            (Some(client), Some(cap)) => match self.share(client, cap) {
                Ok(share) => Some(share),
                Err(refused) => {
                    self.held.refusal(Duration::from_secs(1)).await;
                    return Err(refused);
                }
            },
            _ => None,
        };
        let slot = match self.slots.clone().try_acquire_owned() {
            Ok(slot) => Some(slot),
            Err(_) if self.config.search_wait.is_zero() => None,
            Err(_) => {
                self.stats.waiting.fetch_add(1, Ordering::AcqRel);
                let _waiting = Waiting(&self.stats.waiting);
                let deadline = std::time::Instant::now() + self.config.search_wait;
                // One place in the queue, kept while the client is looked at.
                let acquire = self.slots.clone().acquire_owned();
                let mut acquire = std::pin::pin!(acquire);
                loop {
                    let left = deadline.saturating_duration_since(std::time::Instant::now());
                    let tick = left.min(Duration::from_millis(100));
                    match actix_web::rt::time::timeout(tick, acquire.as_mut()).await {
                        Ok(slot) => break slot.ok(),
                        Err(_) if peer.is_some_and(|p| p.is_gone()) => {
                            self.stats.cancelled.fetch_add(1, Ordering::Relaxed);
                            return Err(Refused::ClientGone);
                        }
                        Err(_) if left <= tick => break None,
                        Err(_) => {}
                    }
                }
            }
        };
        let Some(slot) = slot else {
            self.stats.rejected.fetch_add(1, Ordering::Relaxed);
            return Err(Refused::Busy);
        };
        if self.is_cut() {
            return Err(Refused::ShuttingDown);
        }
        self.stats.running.fetch_add(1, Ordering::AcqRel);
        Ok(Permit {
            pool: self.clone(),
            _slot: slot,
            _share: share,
        })
    }

    /// One more search of `client`, if it has fewer than `cap` under way.
    fn share(self: &Arc<Self>, client: ClientKey, cap: usize) -> Result<Share, Refused> {
        let mut clients = self.clients.lock().unwrap_or_else(|p| p.into_inner());
        let n = clients.entry(client).or_insert(0);
        if *n >= cap.max(1) {
            drop(clients);
            self.stats.refused_client.fetch_add(1, Ordering::Relaxed);
            return Err(Refused::ClientBusy);
        }
        *n += 1;
        Ok(Share {
            pool: self.clone(),
            client,
        })
    }

    /// Searches `game` in the slot of `permit`, on a thread of its own,
    /// `progress` told of each completed depth (on the search's thread).
    /// [`Running::finish`] awaits the answer: it comes when the search ends
    /// at its limits, when the server cuts searches short, or as soon as
    /// the client behind `peer` goes away (looked at every 100 ms). `None`:
    /// the side to move has no legal move.
    pub fn start<V: Evaluate>(
        self: &Arc<Self>,
        permit: Permit,
        game: Game<V>,
        request: Request<V::Move>,
        peer: Option<Arc<Peer>>,
        mut progress: Option<Report<V::Move>>,
    ) -> Result<Running<Option<Analysis<V::Move>>>, Refused> {
        let entries = search::table_entries(self.config.hash_mb);
        self.start_job(permit, peer, move |control| {
            let report = progress
                .as_mut()
                .map(|p| p.as_mut() as search::Progress<'_, V::Move>);
            let table = search::table_for(request.limits(), entries);
            search::analysis::analyse(&game, &request, control, &table, report)
        })
    }

    /// Runs `job` in the slot of `permit`, on a thread of its own, as a
    /// search (a game review's searches, one after another); `job` is told
    /// through its [`Control`] to stop when the client goes away or the
    /// server cuts searches short.
    pub fn start_job<T: Send + 'static>(
        self: &Arc<Self>,
        permit: Permit,
        peer: Option<Arc<Peer>>,
        job: impl FnOnce(&Control) -> T + Send + 'static,
    ) -> Result<Running<T>, Refused> {
        let control = Control::default();
        let stop = control.stop.clone();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let pool = self.clone();
        std::thread::Builder::new()
            .name("arbiter-search".to_owned())
            .spawn(move || {
                // The rules endpoints first: a search (and the helper
                // threads it starts, which inherit this) gets the CPU time
                // they leave (on Linux: nice 19).
                if let Err(e) = thread_priority::set_current_thread_priority(
                    thread_priority::ThreadPriority::Min,
                ) {
                    tracing::debug!(error = %e, "search thread priority unchanged");
                }
                let found =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&control)));
                pool.record(&control);
                // Free the slot (and the client's share) before answering,
                // so the client's next search finds it free.
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

    fn pool(max: usize, per_client: Option<usize>, wait_ms: u64) -> Arc<EnginePool> {
        Arc::new(EnginePool::new(EngineConfig {
            max_searches: max,
            max_searches_per_client: per_client,
            search_wait: Duration::from_millis(wait_ms),
            ..EngineConfig::default()
        }))
    }

    #[actix_rt::test]
    async fn slots_are_bounded_and_returned() {
        let pool = pool(2, None, 0);
        let a = pool.admit(None, None).await.expect("first slot");
        let b = pool.admit(None, None).await.expect("second slot");
        assert_eq!(pool.admit(None, None).await.err(), Some(Refused::Busy));
        assert_eq!(pool.stats.rejected.load(Ordering::Relaxed), 1);
        drop(a);
        let c = pool.admit(None, None).await.expect("a freed slot");
        assert_eq!(pool.stats.running.load(Ordering::Relaxed), 2);
        drop((b, c));
        assert_eq!(pool.stats.running.load(Ordering::Relaxed), 0);
    }

    #[actix_rt::test]
    async fn a_client_gets_its_share_and_no_more() {
        let pool = pool(2, Some(1), 0);
        let (a, b) = (ClientKey::for_tests(1), ClientKey::for_tests(2));
        let first = pool.admit(Some(a), None).await.expect("a's search");
        assert_eq!(
            pool.admit(Some(a), None).await.err(),
            Some(Refused::ClientBusy)
        );
        assert_eq!(pool.stats.refused_client.load(Ordering::Relaxed), 1);
        let other = pool
            .admit(Some(b), None)
            .await
            .expect("b's search, beside a's");
        drop(first);
        let again = pool.admit(Some(a), None).await.expect("a's share is back");
        drop((other, again));
        assert!(
            pool.clients.lock().unwrap().is_empty(),
            "no client left over"
        );
    }

    #[actix_rt::test]
    async fn a_waiting_search_gets_the_next_free_slot_in_turn() {
        let pool = pool(1, Some(1), 2_000);
        let (a, b, c) = (
            ClientKey::for_tests(1),
            ClientKey::for_tests(2),
            ClientKey::for_tests(3),
        );
        let held = pool.admit(Some(a), None).await.unwrap();
        let (p1, p2) = (pool.clone(), pool.clone());
        let first = actix_rt::spawn(async move { p1.admit(Some(b), None).await.map(|_| "b") });
        actix_rt::time::sleep(Duration::from_millis(20)).await;
        let second = actix_rt::spawn(async move { p2.admit(Some(c), None).await.map(|_| "c") });
        actix_rt::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(pool.stats.waiting.load(Ordering::Relaxed), 2);
        // A client already waiting has its share under way.
        assert_eq!(
            pool.admit(Some(b), None).await.err(),
            Some(Refused::ClientBusy)
        );
        drop(held);
        assert_eq!(first.await.unwrap(), Ok("b"), "first come, first served");
        assert_eq!(second.await.unwrap(), Ok("c"));
        assert_eq!(pool.stats.waiting.load(Ordering::Relaxed), 0);
    }

    #[actix_rt::test]
    async fn a_wait_is_bounded() {
        let pool = pool(1, None, 50);
        let _held = pool.admit(None, None).await.unwrap();
        let start = std::time::Instant::now();
        assert_eq!(pool.admit(None, None).await.err(), Some(Refused::Busy));
        assert!(start.elapsed() >= Duration::from_millis(50));
        assert_eq!(pool.stats.waiting.load(Ordering::Relaxed), 0);
    }
}
