//! The HTTP API: thin handlers over the rules core, an OpenAPI document
//! generated from the code, and Swagger UI.

pub mod engine;
pub mod error;
pub mod handlers;
pub mod metrics;
pub mod observe;
pub mod types;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix_web::error::JsonPayloadError;
use actix_web::{web, App, HttpRequest, HttpServer};
use utoipa::OpenApi;
use utoipa_swagger_ui::SwaggerUi;

use error::{ApiError, Problem, ProblemDetails};

/// The largest request body accepted (1 MiB).
pub const MAX_BODY_BYTES: usize = 1 << 20;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "arbiter",
        description = "A stateless rules service for Xiangqi, Taxi chess and Tamerlane chess: legal moves, move validation with reasons, and adjudication. Every error is `application/problem+json` (RFC 9457) with a stable `type` and `code`."
    ),
    paths(
        handlers::list_variants,
        handlers::get_variant,
        handlers::legal_moves,
        handlers::validate,
        handlers::adjudicate,
        handlers::analyze,
        handlers::diagram_get,
        handlers::diagram_post,
        handlers::healthz,
        handlers::readyz,
        handlers::metrics
    ),
    components(schemas(ProblemDetails)),
    tags(
        (name = "variants", description = "What the service supports"),
        (name = "rules", description = "Legal moves, validation and adjudication"),
        (name = "engine", description = "What an engine would play"),
        (name = "pictures", description = "SVG diagrams of positions"),
        (name = "operations", description = "Probes for operators")
    )
)]
pub struct ApiDoc;

/// The OpenAPI document, as served and as checked in at `openapi/openapi.json`.
pub fn openapi_json() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}

/// Shared state of a running server.
#[derive(Debug)]
pub struct AppState {
    shutting_down: AtomicBool,
    pub engine: Arc<engine::EnginePool>,
    pub metrics: metrics::Metrics,
}

impl Default for AppState {
    fn default() -> AppState {
        AppState::new(engine::EngineConfig::default())
    }
}

impl AppState {
    pub fn new(config: engine::EngineConfig) -> AppState {
        let engine = Arc::new(engine::EnginePool::new(config));
        AppState {
            shutting_down: AtomicBool::new(false),
            metrics: metrics::Metrics::new(engine.clone()),
            engine,
        }
    }

    pub fn is_ready(&self) -> bool {
        !self.shutting_down.load(Ordering::Relaxed)
    }

    pub fn set_shutting_down(&self) {
        self.shutting_down.store(true, Ordering::Relaxed);
    }
}

fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let api = match &err {
        JsonPayloadError::Overflow { limit }
        | JsonPayloadError::OverflowKnownLength { limit, .. } => ApiError::new(
            Problem::PayloadTooLarge,
            format!("the body is larger than the limit of {limit} bytes"),
        ),
        JsonPayloadError::ContentType => ApiError::new(
            Problem::UnsupportedMediaType,
            "send the body as JSON with 'Content-Type: application/json'",
        ),
        JsonPayloadError::Deserialize(e) if e.is_data() => ApiError::new(
            Problem::InvalidRequest,
            format!("the body does not fit the schema: {e}"),
        ),
        JsonPayloadError::Deserialize(e) => ApiError::new(
            Problem::MalformedJson,
            format!("the body is not valid JSON: {e}"),
        ),
        other => ApiError::new(
            Problem::MalformedJson,
            format!("the body could not be read: {other}"),
        ),
    };
    api.into()
}

/// Registers every route of the service; used by `serve` and by the tests.
pub fn configure(state: Arc<AppState>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg: &mut web::ServiceConfig| {
        let not_allowed = || web::to(handlers::method_not_allowed);
        cfg.app_data(web::Data::from(state))
            .app_data(web::QueryConfig::default().error_handler(|err, _req| {
                ApiError::new(
                    Problem::InvalidRequest,
                    format!("the query string does not fit: {err}"),
                )
                .into()
            }))
            .app_data(
                web::JsonConfig::default()
                    .limit(MAX_BODY_BYTES)
                    .error_handler(json_error),
            )
            .service(
                web::resource("/healthz")
                    .route(web::get().to(handlers::healthz))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/metrics")
                    .route(web::get().to(handlers::metrics))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/readyz")
                    .route(web::get().to(handlers::readyz))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/v1/variants")
                    .route(web::get().to(handlers::list_variants))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/v1/variants/{variant}")
                    .route(web::get().to(handlers::get_variant))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/v1/variants/{variant}/legal-moves")
                    .route(web::post().to(handlers::legal_moves))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/v1/variants/{variant}/validate")
                    .route(web::post().to(handlers::validate))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/v1/variants/{variant}/adjudicate")
                    .route(web::post().to(handlers::adjudicate))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/v1/variants/{variant}/analyze")
                    .route(web::post().to(handlers::analyze))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/v1/variants/{variant}/diagram.svg")
                    .route(web::get().to(handlers::diagram_get))
                    .default_service(not_allowed()),
            )
            .service(
                web::resource("/v1/variants/{variant}/diagram")
                    .route(web::post().to(handlers::diagram_post))
                    .default_service(not_allowed()),
            )
            .service(web::resource("/swagger-ui").route(web::get().to(|| async {
                actix_web::HttpResponse::PermanentRedirect()
                    .insert_header((actix_web::http::header::LOCATION, "/swagger-ui/"))
                    .finish()
            })))
            .service(
                SwaggerUi::new("/swagger-ui/{_:.*}")
                    .url("/api-docs/openapi.json", ApiDoc::openapi()),
            )
            .default_service(web::to(handlers::not_found));
    }
}

/// `arbiter serve` options.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ARBITER_BIND", default_value = "0.0.0.0:8080")]
    pub bind: String,
    /// Worker threads (default: one per CPU core).
    #[arg(long, env = "ARBITER_WORKERS")]
    pub workers: Option<usize>,
    /// Seconds a client has to send a request's head and body.
    #[arg(long, env = "ARBITER_REQUEST_TIMEOUT_SECS", default_value_t = 10)]
    pub request_timeout_secs: u64,
    /// Seconds given to running requests once the listener has closed on
    /// SIGTERM; searches still running a second before are cut short.
    #[arg(long, env = "ARBITER_SHUTDOWN_TIMEOUT_SECS", default_value_t = 10)]
    pub shutdown_timeout_secs: u64,
    /// Seconds between SIGTERM and closing the listener, while `/readyz`
    /// already answers 503 and requests are still served.
    #[arg(long, env = "ARBITER_DRAIN_SECS", default_value_t = 0)]
    pub drain_secs: u64,
    /// Searches (`/analyze`) that may run at once; more are refused with 503
    /// (default: half the CPU cores, at least 1).
    #[arg(long, env = "ARBITER_MAX_SEARCHES")]
    pub max_searches: Option<usize>,
    /// Search time when a request sets no limit, in milliseconds.
    #[arg(long, env = "ARBITER_DEFAULT_MOVETIME_MS", default_value_t = 1000)]
    pub default_movetime_ms: u64,
    /// The longest search, in milliseconds, whatever a request asks.
    #[arg(long, env = "ARBITER_MAX_MOVETIME_MS", default_value_t = 10_000)]
    pub max_movetime_ms: u64,
    /// The deepest search a request may ask for, in plies.
    #[arg(long, env = "ARBITER_MAX_DEPTH", default_value_t = 64)]
    pub max_depth: u32,
    /// The most nodes a request may ask for.
    #[arg(long, env = "ARBITER_MAX_NODES", default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// Transposition table of each search, in MiB.
    #[arg(long, env = "ARBITER_HASH_MB", default_value_t = 16)]
    pub hash_mb: usize,
    /// What to log, in tracing's filter syntax (e.g. `info`, `warn,arbiter=debug`).
    #[arg(long, env = "ARBITER_LOG", default_value = "info")]
    pub log: String,
    /// Log lines as text or as JSON objects.
    #[arg(long, env = "ARBITER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl ServeArgs {
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
        }
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

pub fn init_tracing(filter: &str, format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|e| {
        eprintln!("arbiter: bad log filter {filter:?} ({e}); using info");
        EnvFilter::new("info")
    });
    let json = format == LogFormat::Json;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
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
    let mut server = HttpServer::new(move || {
        App::new()
            .wrap(actix_web::middleware::from_fn(observe::observe))
            .configure(configure(state.clone()))
    })
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
    fn default() -> ServeArgs {
        ServeArgs {
            bind: "0.0.0.0:8080".to_owned(),
            workers: None,
            request_timeout_secs: 10,
            shutdown_timeout_secs: 10,
            drain_secs: 0,
            max_searches: None,
            default_movetime_ms: 1000,
            max_movetime_ms: 10_000,
            max_depth: 64,
            max_nodes: 100_000_000,
            hash_mb: 16,
            log: "info".to_owned(),
            log_format: LogFormat::Text,
        }
    }
}

/// Runs the service until SIGTERM or SIGINT, then shuts down gracefully:
/// readiness turns false at once (`/readyz` answers 503) while requests are
/// still served for `--drain-secs`, so a load balancer can take the instance
/// out; then the listener closes, running requests get up to
/// `--shutdown-timeout-secs`, and searches still running one second before
/// that deadline are cut short (they answer with what they found). Exit 0.
pub fn serve(args: ServeArgs) -> std::io::Result<()> {
    init_tracing(&args.log, args.log_format);
    let listener = std::net::TcpListener::bind(args.bind.as_str()).map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot listen on '{}': {e}", args.bind))
    })?;
    tracing::info!(addr = %listener.local_addr()?, "arbiter listening");
    actix_web::rt::System::new().block_on(async move {
        let state = Arc::new(AppState::new(args.engine_config()));
        let server = server(listener, &args, state.clone())?;
        let handle = server.handle();
        let drain = Duration::from_secs(args.drain_secs);
        let grace = Duration::from_secs(args.shutdown_timeout_secs);
        actix_web::rt::spawn(async move {
            let signal = wait_for_signal().await;
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
