//! `arbiter serve`: its options, logging, the HTTP server and the graceful
//! shutdown on SIGTERM.

use std::sync::Arc;
use std::time::Duration;

use actix_web::HttpServer;

use super::state::AppState;
use super::{app, defaults, engine, fair};

/// `arbiter serve` options.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ARBITER_BIND", default_value = defaults::BIND)]
    pub bind: String,
    /// Worker threads (default: one per CPU core).
    #[arg(long, env = "ARBITER_WORKERS")]
    pub workers: Option<usize>,
    /// Seconds a client has to send a request's head and body.
    #[arg(long, env = "ARBITER_REQUEST_TIMEOUT_SECS", default_value_t = defaults::REQUEST_TIMEOUT_SECS)]
    pub request_timeout_secs: u64,
    /// Seconds given to running requests once the listener has closed on
    /// SIGTERM; searches still running a second before are cut short.
    #[arg(long, env = "ARBITER_SHUTDOWN_TIMEOUT_SECS", default_value_t = defaults::SHUTDOWN_TIMEOUT_SECS)]
    pub shutdown_timeout_secs: u64,
    /// Seconds between SIGTERM and closing the listener, while `/readyz`
    /// already answers 503 and requests are still served; longer than a
    /// load balancer's check interval times its fall count. SIGINT (Ctrl-C)
    /// does not drain.
    #[arg(long, env = "ARBITER_DRAIN_SECS", default_value_t = defaults::DRAIN_SECS)]
    pub drain_secs: u64,
    /// Searches (`/analyze`, `/review`) that may run at once; more wait
    /// for `--search-wait-ms`, then are refused with 503 (default: half the
    /// CPU cores, at least 1).
    #[arg(long, env = "ARBITER_MAX_SEARCHES")]
    pub max_searches: Option<usize>,
    /// How long a search waits for a free search thread, in order of
    /// arrival, before it is refused with 503 `engine_busy`, in
    /// milliseconds (default: 2000 with `--max-searches-per-client`, else
    /// 0: refused at once).
    #[arg(long, env = "ARBITER_SEARCH_WAIT_MS")]
    pub search_wait_ms: Option<u64>,
    /// Searches one client may have running or waiting at once; more are
    /// answered 429 `too_many_searches`, so that one client cannot hold
    /// every search thread (default: no cap).
    #[arg(long, env = "ARBITER_MAX_SEARCHES_PER_CLIENT")]
    pub max_searches_per_client: Option<std::num::NonZeroUsize>,
    /// Requests a second each client may make (every route but the
    /// probes); more are answered 429 `rate_limited` with `Retry-After`,
    /// and every answer carries the `RateLimit` and `RateLimit-Policy`
    /// headers (default: no limit).
    #[arg(long, env = "ARBITER_RATE_LIMIT")]
    pub rate_limit: Option<std::num::NonZeroU32>,
    /// The most requests a client may make at once, after a quiet spell
    /// (the bucket `--rate-limit` refills; default: one second's worth).
    #[arg(long, env = "ARBITER_RATE_BURST", requires = "rate_limit")]
    pub rate_burst: Option<std::num::NonZeroU32>,
    /// The request header naming the client for the per-client limits,
    /// e.g. `X-Forwarded-For` behind a balancer that appends it (its last
    /// value counts: the address the balancer saw), or a header your
    /// gateway sets to the caller's account. Trusted as it comes: name one
    /// only if every request passes the proxy that sets it. Default, and
    /// for a request without it: the peer's address (an IPv6 peer by its
    /// /64).
    #[arg(long, env = "ARBITER_CLIENT_KEY_HEADER")]
    pub client_key_header: Option<actix_web::http::header::HeaderName>,
    /// Search time when a request sets no limit, in milliseconds.
    #[arg(long, env = "ARBITER_DEFAULT_MOVETIME_MS", default_value_t = defaults::DEFAULT_MOVETIME_MS)]
    pub default_movetime_ms: u64,
    /// The longest search, in milliseconds, whatever a request asks.
    #[arg(long, env = "ARBITER_MAX_MOVETIME_MS", default_value_t = defaults::MAX_MOVETIME_MS)]
    pub max_movetime_ms: u64,
    /// The deepest search a request may ask for, in plies.
    #[arg(long, env = "ARBITER_MAX_DEPTH", default_value_t = defaults::MAX_DEPTH)]
    pub max_depth: u32,
    /// The most nodes a request may ask for.
    #[arg(long, env = "ARBITER_MAX_NODES", default_value_t = defaults::MAX_NODES)]
    pub max_nodes: u64,
    /// Transposition table of each search, in MiB.
    #[arg(long, env = "ARBITER_HASH_MB", default_value_t = defaults::HASH_MB)]
    pub hash_mb: usize,
    /// Threads of each search (Lazy SMP sharing one table); each search
    /// still counts once against `--max-searches`.
    #[arg(long, env = "ARBITER_SEARCH_THREADS", default_value_t = defaults::SEARCH_THREADS)]
    pub search_threads: usize,
    /// The longest game review (`/review`), all its searches together, in
    /// seconds.
    #[arg(long, env = "ARBITER_MAX_REVIEW_SECS", default_value_t = defaults::MAX_REVIEW_SECS)]
    pub max_review_secs: u64,
    /// The most plies a game review takes.
    #[arg(long, env = "ARBITER_MAX_REVIEW_PLIES", default_value_t = defaults::MAX_REVIEW_PLIES)]
    pub max_review_plies: usize,
    /// A directory of Xiangqi endgame tables (`*.xtb`, made by `arbiter
    /// tablebase generate`) to probe besides the built-in default set.
    #[arg(long, env = "ARBITER_TABLEBASES")]
    pub tablebases: Option<std::path::PathBuf>,
    /// What to log, in tracing's filter syntax (e.g. `info`, `warn,arbiter=debug`).
    #[arg(long, env = "ARBITER_LOG", default_value = defaults::LOG)]
    pub log: String,
    /// Log lines as text or as JSON objects.
    #[arg(long, env = "ARBITER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Origins that browsers may call the API from (CORS), comma-separated,
    /// e.g. `https://example.org,http://localhost:3000`, or `*` for any.
    /// Default: none (no CORS headers; cross-origin browser calls fail).
    #[arg(long, env = "ARBITER_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
}

impl ServeArgs {
    /// The search limits these options give, clamped to what the engine allows.
    pub fn engine_config(&self) -> engine::EngineConfig {
        engine::EngineConfig {
            max_searches: self
                .max_searches
                .unwrap_or_else(engine::default_max_searches)
                .max(1),
            default_movetime: Duration::from_millis(self.default_movetime_ms.max(1)),
            max_movetime: Duration::from_millis(self.max_movetime_ms.max(1)),
            max_depth: self.max_depth.clamp(1, crate::search::MAX_DEPTH),
            max_nodes: self.max_nodes.max(1),
            hash_mb: self.hash_mb.clamp(1, 4096),
            search_threads: self.search_threads.clamp(1, defaults::MAX_SEARCH_THREADS),
            max_review: Duration::from_secs(self.max_review_secs.max(1)),
            max_review_plies: self.max_review_plies.max(1),
            max_searches_per_client: self.max_searches_per_client.map(|n| n.get()),
            search_wait: Duration::from_millis(self.search_wait_ms.unwrap_or(
                if self.max_searches_per_client.is_some() {
                    defaults::SEARCH_WAIT_MS
                } else {
                    0
                },
            )),
        }
    }

    /// The fair shares these options give.
    pub fn fair_config(&self) -> fair::FairConfig {
        fair::FairConfig {
            rate: self.rate_limit.map(|per_second| fair::Rate {
                per_second,
                burst: self.rate_burst.unwrap_or(per_second),
            }),
            key_header: self.client_key_header.clone(),
        }
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line.
    Json,
}

/// Installs the log subscriber: `filter` in `tracing`'s syntax (a bad one
/// falls back to `info`), colour only at a terminal.
pub fn init_tracing(filter: &str, format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|e| {
        eprintln!("arbiter: bad log filter {filter:?} ({e}); using info");
        EnvFilter::new("info")
    });
    let json = format == LogFormat::Json;
    // Colour only for a person at a terminal: a file or a log collector
    // gets plain lines.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// The server with every route and middleware, on an already bound listener.
/// `serve` runs it; the tests run it on an ephemeral port.
pub fn server(
    listener: std::net::TcpListener,
    args: &ServeArgs,
    state: Arc<AppState>,
) -> std::io::Result<actix_web::dev::Server> {
    let origins: Vec<String> = args
        .cors_origins
        .iter()
        .map(|o| o.trim().trim_end_matches('/').to_owned())
        .filter(|o| !o.is_empty())
        .collect();
    let mut server = HttpServer::new(move || app(state.clone(), &origins))
        .on_connect(|conn, extensions| {
            if let Some(peer) = engine::Peer::of(conn) {
                extensions.insert(peer);
            }
        })
        .client_request_timeout(Duration::from_secs(args.request_timeout_secs))
        .shutdown_timeout(args.shutdown_timeout_secs)
        // `serve` handles the signals itself, to drain first (see there).
        .disable_signals();
    if let Some(w) = args.workers {
        server = server.workers(w.max(1));
    }
    Ok(server.listen(listener)?.run())
}

impl Default for ServeArgs {
    /// What `arbiter serve` runs with when given nothing.
    fn default() -> ServeArgs {
        ServeArgs {
            bind: defaults::BIND.to_owned(),
            workers: None,
            request_timeout_secs: defaults::REQUEST_TIMEOUT_SECS,
            shutdown_timeout_secs: defaults::SHUTDOWN_TIMEOUT_SECS,
            drain_secs: defaults::DRAIN_SECS,
            max_searches: None,
            search_wait_ms: None,
            max_searches_per_client: None,
            rate_limit: None,
            rate_burst: None,
            client_key_header: None,
            default_movetime_ms: defaults::DEFAULT_MOVETIME_MS,
            max_movetime_ms: defaults::MAX_MOVETIME_MS,
            max_depth: defaults::MAX_DEPTH,
            max_nodes: defaults::MAX_NODES,
            hash_mb: defaults::HASH_MB,
            search_threads: defaults::SEARCH_THREADS,
            max_review_secs: defaults::MAX_REVIEW_SECS,
            max_review_plies: defaults::MAX_REVIEW_PLIES,
            tablebases: None,
            log: defaults::LOG.to_owned(),
            log_format: LogFormat::Text,
            cors_origins: Vec::new(),
        }
    }
}

impl Default for engine::EngineConfig {
    /// The limits of `arbiter serve` run without options.
    fn default() -> engine::EngineConfig {
        ServeArgs::default().engine_config()
    }
}

/// Runs the service until SIGTERM or SIGINT, then shuts down gracefully:
/// readiness turns false at once (`/readyz` answers 503) while requests are
/// still served for `--drain-secs` (after SIGTERM only: SIGINT is a person
/// at a terminal, not an orchestrator), so a load balancer can take the
/// instance out; then the listener closes, running requests get up to
/// `--shutdown-timeout-secs`, and searches still running one second before
/// that deadline are cut short (they answer with what they found). Exit 0.
pub fn serve(args: ServeArgs) -> std::io::Result<()> {
    init_tracing(&args.log, args.log_format);
    let listener = std::net::TcpListener::bind(args.bind.as_str()).map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot listen on '{}': {e}", args.bind))
    })?;
    if let Some(dir) = &args.tablebases {
        // The first call of the process: it always sets the tables up.
        crate::tablebase::install(dir)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()))?;
        tracing::info!(
            dir = %dir.display(),
            tables = crate::tablebase::installed().materials().len(),
            "endgame tables"
        );
    }
    tracing::info!(addr = %listener.local_addr()?, "arbiter listening");
    actix_web::rt::System::new().block_on(async move {
        let state = Arc::new(AppState::new(args.engine_config(), args.fair_config()));
        let server = server(listener, &args, state.clone())?;
        let handle = server.handle();
        let drain = Duration::from_secs(args.drain_secs);
        let grace = Duration::from_secs(args.shutdown_timeout_secs);
        actix_web::rt::spawn(async move {
            let signal = wait_for_signal().await;
            let drain = if signal == "SIGTERM" {
                drain
            } else {
                Duration::ZERO
            };
            tracing::info!(signal, ?drain, "shutting down: readiness is false");
            state.set_shutting_down();
            actix_web::rt::time::sleep(drain).await;
            tracing::info!("draining done: no new connections");
            // Cut searches one second before the server gives up on them.
            let engine = state.engine.clone();
            actix_web::rt::spawn(async move {
                actix_web::rt::time::sleep(grace.saturating_sub(Duration::from_secs(1))).await;
                engine.cut_all();
            });
            handle.stop(true).await;
        });
        server.await?;
        tracing::info!("stopped");
        Ok(())
    })
}

async fn wait_for_signal() -> &'static str {
    use actix_web::rt::signal::ctrl_c;
    use actix_web::rt::signal::unix::{signal, SignalKind};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => tokio::select! {
            _ = ctrl_c() => "SIGINT",
            _ = term.recv() => "SIGTERM",
        },
        Err(_) => {
            let _ = ctrl_c().await;
            "SIGINT"
        }
    }
}
