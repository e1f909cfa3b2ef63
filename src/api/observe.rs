//! One middleware for what an operator sees of each request: the request ID
//! (taken from `X-Request-Id` when the client sends a sane one, made up
//! otherwise, and echoed in the response), a tracing span around the request,
//! one log line when it is answered, and the metrics.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{web, Error};
use tracing::Instrument;

use super::state::AppState;

/// The header carrying a request's id: the client's if it sent one, else ours.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// A client's ID is kept when it is 1-128 visible ASCII characters.
fn acceptable(value: &HeaderValue) -> Option<String> {
    let s = value.to_str().ok()?;
    (!s.is_empty() && s.len() <= 128 && s.bytes().all(|b| b.is_ascii_graphic()))
        .then(|| s.to_owned())
}

/// A new request ID: a version 4 UUID from this thread's fast generator
/// (an ID must be unique, not secret: the system's random source was a
/// system call on every request).
fn new_request_id() -> String {
    uuid::Builder::from_random_bytes(fastrand::u128(..).to_le_bytes())
        .into_uuid()
        .to_string()
}

/// The most paths a worker thread remembers the route of.
const ROUTES_KEPT: usize = 256;

thread_local! {
    /// The route (the metrics' label) of each path lately asked on this
    /// worker thread: actix finds it by matching the path against the
    /// routes again, `{variant}`'s regular expressions and all, which
    /// cost a small request a few per cent of its time.
    static ROUTES: std::cell::RefCell<std::collections::HashMap<String, std::rc::Rc<str>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The route pattern `req`'s path matches (it depends on the path alone),
/// or `unmatched`; remembered for [`ROUTES_KEPT`] paths, forgotten all at
/// once when more come (paths are the clients' to choose).
fn route_of(req: &ServiceRequest) -> std::rc::Rc<str> {
    ROUTES.with(|routes| {
        if let Some(route) = routes.borrow().get(req.path()) {
            return route.clone();
        }
        let route: std::rc::Rc<str> = req
            .match_pattern()
            .unwrap_or_else(|| "unmatched".to_owned())
            .into();
        let mut routes = routes.borrow_mut();
        if routes.len() >= ROUTES_KEPT {
            routes.clear();
        }
        routes.insert(req.path().to_owned(), route.clone());
        route
    })
}

/// Middleware: gives each request an id and a span, logs its answer and
/// records it in the metrics.
pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let id = req
        .headers()
        .get(&REQUEST_ID)
        .and_then(acceptable)
        .unwrap_or_else(new_request_id);
    let method = req.method().as_str().to_owned();
    let route = route_of(&req);
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let span = tracing::info_span!(
        "request",
        request_id = %id,
        method = %method,
        route = %route,
        path = %req.path(),
    );
    let start = Instant::now();
    let result = next.call(req).instrument(span.clone()).await;
    let seconds = start.elapsed().as_secs_f64();
    let mut res = result?;
    let status = res.status();
    if let Ok(value) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID, value);
    }
    if let Some(state) = state {
        state
            .metrics
            .observe(&method, &route, status.as_u16(), seconds);
    }
    let _entered = span.enter();
    // Whole microseconds: exact enough, and no float noise in the logs.
    let us = start.elapsed().as_micros() as u64;
    // A full search pool (503) is the service working as designed.
    if status.is_server_error() && status != actix_web::http::StatusCode::SERVICE_UNAVAILABLE {
        let detail = res
            .response()
            .error()
            .map(|e| e.to_string())
            .unwrap_or_default();
        tracing::error!(status = status.as_u16(), us, %detail, "answered");
    } else {
        tracing::info!(status = status.as_u16(), us, "answered");
    }
    Ok(res)
}
