//! Media types: which one a request asks for (`Accept`), and NDJSON
//! answers streamed as their lines come.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};

/// The PGN media type.
pub const PGN: &str = "application/x-chess-pgn";

/// The NDJSON media type.
pub const NDJSON: &str = "application/x-ndjson";

/// The SVG media type.
pub const SVG: &str = "image/svg+xml";

/// Whether the request's `Accept` header names `media`.
pub fn accepts(http: &HttpRequest, media: &str) -> bool {
    http.headers()
        .get_all(header::ACCEPT)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|m| {
            m.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case(media))
        })
}

/// An NDJSON answer whose lines are sent as they come; when the client
/// goes away, the lines' sender finds out at its next line.
pub fn ndjson_response(rx: Lines) -> HttpResponse {
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|line| {
            (
                Ok::<_, std::convert::Infallible>(web::Bytes::from(line)),
                rx,
            )
        })
    });
    HttpResponse::Ok()
        .content_type(NDJSON)
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .streaming(stream)
}

/// The lines of a streamed analysis, as they come.
pub type Lines = tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>;
