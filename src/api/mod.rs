//! The HTTP API: thin handlers over the rules core, an OpenAPI document
//! generated from the code, and Swagger UI.

pub mod answers;
pub mod defaults;
pub mod engine;
pub mod error;
pub mod extract;
pub mod fair;
pub mod limits;
pub mod media;
pub mod metrics;
pub mod observe;
pub mod record;
pub mod replay;
pub mod requests;
pub mod responses;
pub mod routes;
pub mod rules;
pub mod server;
mod state;
pub mod wire;

pub use extract::MAX_BODY_BYTES;
pub use state::AppState;

use std::sync::Arc;

use actix_web::dev::ServiceResponse;
use actix_web::http::{header, StatusCode};
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{web, App, HttpRequest, HttpResponse, ResponseError};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use error::{ApiError, Problem};

/// The document's head: what the routes do not say themselves.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "arbiter",
        description = "A stateless rules service for Xiangqi, Taxi chess and Tamerlane chess: legal moves, move validation with reasons, adjudication, engine analysis and diagrams. Every error is `application/problem+json` (RFC 9457) with a stable `type` and `code`."
    ),
    components(schemas(error::ProblemDetails, crate::variants::Side)),
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
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut doc = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes::routes)
        .split_for_parts()
        .1;
    completed(&mut doc);
    doc
}

/// What the routes' annotations leave out, added to the document served
/// and to the one checked in alike: the 429 of `--rate-limit`, and a legal
/// move's field for each notation the variants write.
fn completed(doc: &mut utoipa::openapi::OpenApi) {
    limits_documented(doc);
    responses::Written::document(doc);
}

/// Adds the 429 of `--rate-limit` to every operation but the probes' (the
/// engine's routes document their own, which also covers
/// `too_many_searches`).
fn limits_documented(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::IntoResponses;
    let Some(limited) = error::RateLimitedError::responses().remove("429") else {
        return;
    };
    for item in doc.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
            &mut item.patch,
        ];
        for op in operations.into_iter().flatten() {
            let probe = op
                .tags
                .as_ref()
                .is_some_and(|t| t.iter().any(|t| t == "operations"));
            if !probe {
                op.responses
                    .responses
                    .entry("429".to_owned())
                    .or_insert_with(|| limited.clone());
            }
        }
    }
}

/// The OpenAPI document as pretty JSON.
pub fn openapi_json() -> String {
    openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
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
        .expose_headers([
            observe::REQUEST_ID,
            header::RETRY_AFTER,
            fair::RATELIMIT,
            fair::RATELIMIT_POLICY,
        ])
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
        .app_data(web::Data::from(state.fair.clone()))
        .app_data(web::Data::from(state))
        .app_data(web::PathConfig::default().error_handler(bad_variant))
        .configure(routes::routes)
        .split_for_parts();
    let mut doc = doc;
    completed(&mut doc);
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
        .wrap(actix_web::middleware::from_fn(fair::limit))
        .wrap(actix_web::middleware::Condition::new(
            !cors_origins.is_empty(),
            cors(cors_origins),
        ))
        .wrap(ErrorHandlers::new().default_handler(as_problem))
        .wrap(actix_web::middleware::from_fn(observe::observe))
}
