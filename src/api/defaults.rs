//! The defaults of `arbiter serve`, written once: the command line's
//! defaults, [`ServeArgs::default`] and [`engine::EngineConfig::default`]
//! all read them.

/// Address to listen on.
pub const BIND: &str = "0.0.0.0:8080";
/// Seconds a client has to send a request.
pub const REQUEST_TIMEOUT_SECS: u64 = 10;
/// Seconds given to running requests at shutdown.
pub const SHUTDOWN_TIMEOUT_SECS: u64 = 10;
/// Seconds of draining before the listener closes, after SIGTERM: longer
/// than a load balancer takes to see `/readyz` fail (its check interval
/// times its fall count: 0.5 s x 2 in `deploy/haproxy.cfg`), so that no
/// new connection meets a closed port.
pub const DRAIN_SECS: u64 = 2;
/// Search time when a request sets no limit, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;
/// The longest search, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 10_000;
/// The deepest search a request may ask for.
pub const MAX_DEPTH: u32 = crate::search::MAX_DEPTH;
/// The most nodes a request may ask for.
pub const MAX_NODES: u64 = 100_000_000;
/// Transposition table of each search, in MiB.
pub const HASH_MB: usize = 16;
/// Threads of each search.
pub const SEARCH_THREADS: usize = 1;
/// The most threads a search may be given.
pub const MAX_SEARCH_THREADS: usize = 256;
/// The longest game review, in seconds.
pub const MAX_REVIEW_SECS: u64 = 120;
/// The most plies a review takes.
pub const MAX_REVIEW_PLIES: usize = 1000;
/// The log filter.
pub const LOG: &str = "info";
/// With `--max-searches-per-client`: how long a search waits for a free
/// search thread, in milliseconds. A cap per client is fair only if the
/// others can wait their turn: with one search thread, a client that asks
/// again the moment its search ends would otherwise always find the thread
/// free before anyone else.
pub const SEARCH_WAIT_MS: u64 = 2000;
