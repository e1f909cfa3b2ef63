//! `/healthz`, `/readyz` and `/metrics`: probes for operators.

use actix_web::{route, web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::media::accepts;
use crate::api::state::AppState;
use crate::api::wire::HealthStatus;

/// Liveness or readiness.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or why not.
    pub status: HealthStatus,
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses(
    (status = 200, description = "The process answers", body = Health, example = json!({"status": "ok"}))
))]
#[route("/healthz", method = "GET", method = "HEAD")]
pub async fn healthz() -> web::Json<Health> {
    web::Json(Health {
        status: HealthStatus::Ok,
    })
}

/// Readiness: the service takes requests.
#[utoipa::path(get, path = "/readyz", tag = "operations", responses(
    (status = 200, description = "Ready for requests", body = Health, example = json!({"status": "ready"})),
    (status = 503, description = "Draining before a shutdown: send requests elsewhere", body = Health, example = json!({"status": "shutting_down"}))
))]
#[route("/readyz", method = "GET", method = "HEAD")]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    if state.is_ready() {
        HttpResponse::Ok().json(Health {
            status: HealthStatus::Ready,
        })
    } else {
        HttpResponse::ServiceUnavailable().json(Health {
            status: HealthStatus::ShuttingDown,
        })
    }
}

/// Prometheus metrics: requests and latency per route and status, searches
/// running and rejected, nodes searched. In Prometheus's text format
/// (0.0.4), or in OpenMetrics when `Accept` names
/// `application/openmetrics-text` (as Prometheus asks).
#[utoipa::path(get, path = "/metrics", tag = "operations", responses(
    (status = 200, description = "The metrics", content(
        (String = "text/plain; version=0.0.4; charset=utf-8"),
        (String = "application/openmetrics-text; version=1.0.0; charset=utf-8")
    ))
))]
#[route("/metrics", method = "GET", method = "HEAD")]
pub async fn metrics(state: web::Data<AppState>, http: HttpRequest) -> HttpResponse {
    if accepts(&http, "application/openmetrics-text") {
        HttpResponse::Ok()
            .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
            .body(state.metrics.render())
    } else {
        HttpResponse::Ok()
            .content_type("text/plain; version=0.0.4; charset=utf-8")
            .body(state.metrics.render_classic())
    }
}
