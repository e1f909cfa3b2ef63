//! The HTTP API: thin handlers over the rules core, an OpenAPI document
//! generated from the code, and Swagger UI.

pub mod engine;
pub mod error;
pub mod extract;
pub mod handlers;
pub mod metrics;
pub mod observe;
pub mod record;
pub mod types;
pub mod work;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::ServiceResponse;
use actix_web::http::{header, StatusCode};
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer, ResponseError};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use error::{ApiError, Problem};

/// The largest request body accepted (1 MiB).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// The document's head: what the routes do not say themselves.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "arbiter",
        description = "A stateless rules service for Xiangqi, Taxi chess and Tamerlane chess: legal moves, move validation with reasons, adjudication, engine analysis and diagrams. Every error is `application/problem+json` (RFC 9457) with a stable `type` and `code`."
    ),
    components(schemas(error::ProblemDetails, types::Side)),
    tags(
        (name = "variants", description = "What the service supports"),
        (name = "rules", description = "Legal moves, validation and adjudication"),
        (name = "engine", description = "What an engine would play"),
        (name = "pictures", description = "SVG diagrams of positions"),
        (name = "operations", description = "Probes for operators")
    )
)]
pub struct ApiDoc;

/// Every documented route, each registered once with its OpenAPI entry.
fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(handlers::list_variants)
        .service(handlers::get_variant)
        .service(handlers::legal_moves)
        .service(handlers::validate)
        .service(handlers::adjudicate)
        .service(handlers::adjudicate_batch)
        .service(handlers::analyze)
        .service(handlers::diagram_get)
        .service(handlers::diagram_post)
        .service(handlers::healthz)
        .service(handlers::readyz)
        .service(handlers::metrics);
}

/// The OpenAPI document, as served and as checked in at `openapi/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes)
        .split_for_parts()
        .1
}

/// The OpenAPI document as pretty JSON.
pub fn openapi_json() -> String {
    openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}

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

/// An error answered by something other than our handlers (the CORS layer
/// refusing a preflight, say), rendered as a problem like every other error.
fn as_problem<B>(res: ServiceResponse<B>) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|ct| ct.as_bytes().starts_with(b"application/problem+json"));
    let problem = match res.status() {
        _ if is_problem => None,
        StatusCode::BAD_REQUEST if res.request().headers().contains_key(header::ORIGIN) => {
            let (req, res) = res.into_parts();
            let refused = cors_refusal(&req, res.error().map(|e| e.to_string()));
            let mut answer = refused.error_response();
            for (name, value) in res.headers() {
                if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
                    answer.headers_mut().insert(name.clone(), value.clone());
                }
            }
            return Ok(ErrorHandlerResponse::Response(
                ServiceResponse::new(req, answer).map_into_right_body(),
            ));
        }
        StatusCode::NOT_FOUND => Some(Problem::NotFound),
        StatusCode::METHOD_NOT_ALLOWED => Some(Problem::MethodNotAllowed),
        StatusCode::INTERNAL_SERVER_ERROR => Some(Problem::Internal),
        _ => None,
    };
    let Some(problem) = problem else {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    };
    let detail = res
        .response()
        .error()
        .map(|e| e.to_string())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| problem.title().to_owned());
    let (req, res) = res.into_parts();
    let mut answer = ApiError::new(problem, detail).error_response();
    for (name, value) in res.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, answer).map_into_right_body(),
    ))
}

/// The methods of each documented path, read off the OpenAPI document: what
/// a request to a known path with another method is told (`Allow`).
struct Routes(Vec<(actix_web::dev::ResourceDef, String)>);

impl Routes {
    fn of(doc: &utoipa::openapi::OpenApi) -> Routes {
        Routes(
            doc.paths
                .paths
                .iter()
                .map(|(path, item)| {
                    let mut methods = Vec::new();
                    if item.get.is_some() {
                        methods.extend(["GET", "HEAD"]);
                    }
                    if item.post.is_some() {
                        methods.push("POST");
                    }
                    (
                        actix_web::dev::ResourceDef::new(path.as_str()),
                        methods.join(", "),
                    )
                })
                .collect(),
        )
    }
}

/// The origins of `--cors-origins`, for the words of a refusal.
struct CorsOrigins(Vec<String>);

/// A cross-origin request refused: which origin, what the server allows,
/// and the setting that would let it in; logged, since the page's owner
/// sees only a failed fetch in the browser.
fn cors_refusal(req: &HttpRequest, why: Option<String>) -> ApiError {
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .unwrap_or("(unreadable)");
    let configured = req
        .app_data::<web::Data<CorsOrigins>>()
        .map(|c| c.0.clone())
        .unwrap_or_default();
    let why = why.unwrap_or_default();
    let detail = if configured.is_empty() {
        format!(
            "the page at origin '{origin}' may not call this API: cross-origin calls are off, because the server was started without --cors-origins; start it with --cors-origins {origin} (or ARBITER_CORS_ORIGINS={origin}) to allow it"
        )
    } else if why.contains("Origin") {
        format!(
            "the page at origin '{origin}' may not call this API: --cors-origins allows only {}; add '{origin}' to --cors-origins (or ARBITER_CORS_ORIGINS) to allow it",
            configured.join(", ")
        )
    } else {
        let asked = |name: header::HeaderName| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned()
        };
        format!(
            "the preflight from '{origin}' asks for method '{}' and headers '{}'; this API allows the methods {} and the headers {}",
            asked(header::ACCESS_CONTROL_REQUEST_METHOD),
            asked(header::ACCESS_CONTROL_REQUEST_HEADERS),
            CORS_METHODS.join(", "),
            cors_headers().map(|h| h.to_string()).join(", ")
        )
    };
    tracing::warn!(
        origin,
        configured = %configured.join(","),
        path = req.path(),
        "a cross-origin request was refused"
    );
    ApiError::new(Problem::CorsRefused, detail)
}

/// No route took the request: a refused CORS preflight when CORS is off;
/// 405 with `Allow` for a known path, else 404.
async fn no_route(req: HttpRequest, routes: web::Data<Routes>) -> HttpResponse {
    let preflight = req.method() == actix_web::http::Method::OPTIONS
        && req.headers().contains_key(header::ORIGIN)
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if preflight {
        return cors_refusal(&req, None).error_response();
    }
    match routes.0.iter().find(|(def, _)| def.is_match(req.path())) {
        Some((_, allow)) => {
            let mut res = ApiError::new(
                Problem::MethodNotAllowed,
                format!(
                    "{} is not allowed on {}; allowed: {allow}",
                    req.method(),
                    req.path()
                ),
            )
            .error_response();
            if let Ok(value) = header::HeaderValue::from_str(allow) {
                res.headers_mut().insert(header::ALLOW, value);
            }
            res
        }
        None => ApiError::new(
            Problem::NotFound,
            format!("there is no resource at {}", req.path()),
        )
        .error_response(),
    }
}

/// An unknown variant in the path.
fn bad_variant(_: actix_web::error::PathError, req: &HttpRequest) -> actix_web::Error {
    ApiError::unknown_variant(req.match_info().get("variant").unwrap_or_default()).into()
}

/// The methods a cross-origin page may use.
const CORS_METHODS: [&str; 4] = ["GET", "HEAD", "POST", "OPTIONS"];

/// The request headers a cross-origin page may send.
fn cors_headers() -> [header::HeaderName; 3] {
    [header::CONTENT_TYPE, header::ACCEPT, observe::REQUEST_ID]
}

/// The CORS policy of `--cors-origins`: none, every origin, or a list.
fn cors(origins: &[String]) -> actix_cors::Cors {
    let mut cors = actix_cors::Cors::default()
        .allowed_methods(CORS_METHODS)
        .allowed_headers(cors_headers())
        .expose_headers([observe::REQUEST_ID, header::RETRY_AFTER])
        .max_age(3600);
    for origin in origins {
        cors = if origin == "*" {
            cors.allow_any_origin().send_wildcard()
        } else {
            cors.allowed_origin(origin)
        };
    }
    cors
}

/// The whole application: documented routes, Swagger UI, the root redirect,
/// problems for 404 and 405, CORS and the request observer.
pub fn app(
    state: Arc<AppState>,
    cors_origins: &[String],
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let (app, doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .app_data(web::Data::from(state))
        .app_data(web::PathConfig::default().error_handler(bad_variant))
        .configure(routes)
        .split_for_parts();
    app.app_data(web::Data::new(Routes::of(&doc)))
        .app_data(web::Data::new(CorsOrigins(cors_origins.to_vec())))
        .service(
            web::resource("/")
                .route(web::get().to(|| async {
                    HttpResponse::Found()
                        .insert_header((header::LOCATION, "/swagger-ui/"))
                        .finish()
                }))
                .route(web::head().to(|| async {
                    HttpResponse::Found()
                        .insert_header((header::LOCATION, "/swagger-ui/"))
                        .finish()
                })),
        )
        .service(web::resource("/swagger-ui").route(web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header((header::LOCATION, "/swagger-ui/"))
                .finish()
        })))
        .service(SwaggerUi::new("/swagger-ui/{_:.*}").url("/api-docs/openapi.json", doc))
        .default_service(web::to(no_route))
        .wrap(actix_web::middleware::Condition::new(
            !cors_origins.is_empty(),
            cors(cors_origins),
        ))
        .wrap(ErrorHandlers::new().default_handler(as_problem))
        .wrap(actix_web::middleware::from_fn(observe::observe))
}

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
    /// already answers 503 and requests are still served.
    #[arg(long, env = "ARBITER_DRAIN_SECS", default_value_t = defaults::DRAIN_SECS)]
    pub drain_secs: u64,
    /// Searches (`/analyze`) that may run at once; more are refused with 503
    /// (default: half the CPU cores, at least 1).
    #[arg(long, env = "ARBITER_MAX_SEARCHES")]
    pub max_searches: Option<usize>,
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
            default_movetime_ms: defaults::DEFAULT_MOVETIME_MS,
            max_movetime_ms: defaults::MAX_MOVETIME_MS,
            max_depth: defaults::MAX_DEPTH,
            max_nodes: defaults::MAX_NODES,
            hash_mb: defaults::HASH_MB,
            search_threads: defaults::SEARCH_THREADS,
            log: defaults::LOG.to_owned(),
            log_format: LogFormat::Text,
            cors_origins: Vec::new(),
        }
    }
}

/// The defaults of `arbiter serve`, written once: the command line's
/// defaults, [`ServeArgs::default`] and [`engine::EngineConfig::default`]
/// all read them.
pub mod defaults {
    /// Address to listen on.
    pub const BIND: &str = "0.0.0.0:8080";
    /// Seconds a client has to send a request.
    pub const REQUEST_TIMEOUT_SECS: u64 = 10;
    /// Seconds given to running requests at shutdown.
    pub const SHUTDOWN_TIMEOUT_SECS: u64 = 10;
    /// Seconds of draining before the listener closes.
    pub const DRAIN_SECS: u64 = 0;
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
    /// The log filter.
    pub const LOG: &str = "info";
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
