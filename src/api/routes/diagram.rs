//! `GET /v1/variants/{variant}/diagram.svg` and `POST …/diagram`: a
//! picture of a position, a self-contained SVG.

use actix_web::http::header;
use actix_web::{post, route, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::api::error::{guarded, ApiError, BodyErrors, Problem, QueryErrors, VariantError};
use crate::api::extract::{query_notation, query_pairs, unknown_parameter, Body, VariantPath};
use crate::api::media::{accepts, SVG};
use crate::api::replay::game_of;
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::wire::{Balances, Moves};
use crate::diagram::Options as DiagramOptions;
use crate::dispatch::{Playable, Visitor};
use crate::variants::NotationName;

game_request! {
    /// A position to draw (`POST …/diagram`).
    #[schema(example = json!({"moves": ["h2e2", "h9g7"], "flip": false}))]
    pub struct DiagramRequest {
        /// Draw the board from the second player's side (default false).
        pub flip: Option<bool>,
        /// Label files and ranks (default true).
        pub coordinates: Option<bool>,
        /// Mark the last move and a general or king in check (default true).
        pub highlight: Option<bool>,
    }
    notation: [
        /// How `moves` are written.
    ],
}

/// A position to draw, as query parameters (`GET …/diagram.svg`).
#[derive(Debug, Default, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DiagramQuery {
    /// The start position as FEN; the variant's start position when absent.
    pub fen: Option<String>,
    /// Moves played from `fen`, separated by commas or spaces.
    #[param(value_type = Option<String>, example = "h2e2,h9g7")]
    pub moves: Option<Vec<String>>,
    /// Rule options as a JSON object, e.g. `{"setup":"feminine"}`.
    pub rules: Option<String>,
    /// How `moves` are written.
    pub notation: Option<NotationName>,
    /// Draw the board from the second player's side (default false).
    pub flip: Option<bool>,
    /// Label files and ranks (default true).
    pub coordinates: Option<bool>,
    /// Mark the last move and a general or king in check (default true).
    pub highlight: Option<bool>,
}

/// A picture of a position: a self-contained SVG.
///
/// Xiangqi is drawn on its points with river, palaces and the traditional
/// characters; Tamerlane chess on its 11x10 board with both citadels and a
/// legend of every piece; Taxi chess with both balances. The last move and a
/// general or king in check are marked. Errors are problem+json, as
/// everywhere. Put the URL in an `<img src>`.
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}/diagram.svg",
    tag = "pictures",
    params(
        VariantPath,
        DiagramQuery
    ),
    responses(
        (status = 200, description = "The SVG; with `Accept: application/octet-stream` (and not SVG), the same document as a file to save", content(
            (String = "image/svg+xml"),
            (Vec<u8> = "application/octet-stream")
        )),
        VariantError,
        QueryErrors
    )
)]
#[route("/v1/variants/{variant}/diagram.svg", method = "GET", method = "HEAD")]
pub async fn diagram_get(
    path: web::Path<VariantPath>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = path.variant;
    let q = read_query(http.query_string())?;
    let rules: Option<serde_json::Value> = match q.rules.as_deref() {
        None => None,
        Some(text) => Some(serde_json::from_str(text).map_err(|_| {
            ApiError::new(
                Problem::InvalidRules,
                "'rules' must be a JSON object of rule options, like {\"setup\":\"feminine\"}",
            )
            .field("rules")
        })?),
    };
    let opts = diagram_options(q.flip, q.coordinates, q.highlight);
    let req = DiagramRequest {
        fen: q.fen,
        pgn: None,
        moves: Moves(q.moves.unwrap_or_default()),
        rules,
        notation: q.notation,
        balances: None,
        flip: q.flip,
        coordinates: q.coordinates,
        highlight: q.highlight,
    };
    let svg = id.visit(Diagram {
        req: &req,
        options: opts,
    })?;
    Ok(svg_response(svg, &http))
}

/// The same picture, for a position sent as JSON.
#[utoipa::path(
    tag = "pictures",
    params(VariantPath),
    request_body(content = DiagramRequest, examples(
        ("after moves" = (summary = "After two moves, last move marked", value = json!({"moves": ["h2e2", "h9g7"]}))),
        ("check, flipped" = (summary = "A check, from Black's side", value = json!({
            "fen": "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1",
            "flip": true
        }))),
        ("taxi: balances" = (summary = "Taxi chess (set the path to taxi): both balances shown", value = json!({
            "moves": ["e2e4", "e7e5", "g1f3"]
        }))),
        ("tamerlane: start" = (summary = "Tamerlane chess (path tamerlane): the board, both citadels and the legend", value = json!({}))),
        ("pgn" = (summary = "The position after a WXF record", value = json!({
            "pgn": "[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *"
        })))
    )),
    responses(
        (status = 200, description = "The SVG; with `Accept: application/octet-stream` (and not SVG), the same document as a file to save", content(
            (String = "image/svg+xml"),
            (Vec<u8> = "application/octet-stream")
        )),
        VariantError,
        BodyErrors
    )
)]
#[post("/v1/variants/{variant}/diagram")]
pub async fn diagram_post(
    path: web::Path<VariantPath>,
    body: Body<DiagramRequest>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = path.variant;
    let req = body.0;
    let opts = diagram_options(req.flip, req.coordinates, req.highlight);
    let svg = id.visit(Diagram {
        req: &req,
        options: opts,
    })?;
    Ok(svg_response(svg, &http))
}

/// Bytes to save, whatever they are.
const OCTET_STREAM: &str = "application/octet-stream";

/// A picture: SVG, or the same document as a file to save when the client
/// asks for `application/octet-stream` (as generated clients that read
/// pictures as bytes do) and not for SVG.
fn svg_response(svg: String, http: &HttpRequest) -> HttpResponse {
    let mut res = HttpResponse::Ok();
    // The picture depends on the request alone.
    res.insert_header((header::CACHE_CONTROL, "public, max-age=86400"));
    if accepts(http, OCTET_STREAM) && !accepts(http, SVG) {
        res.content_type(OCTET_STREAM).insert_header((
            header::CONTENT_DISPOSITION,
            "attachment; filename=\"diagram.svg\"",
        ));
    } else {
        res.content_type(SVG);
    }
    res.body(svg)
}

fn diagram_options(
    flip: Option<bool>,
    coordinates: Option<bool>,
    highlight: Option<bool>,
) -> DiagramOptions {
    DiagramOptions {
        flip: flip.unwrap_or(false),
        coordinates: coordinates.unwrap_or(true),
        highlight: highlight.unwrap_or(true),
    }
}

/// A diagram of a request's position.
pub struct Diagram<'a, R> {
    /// The request's position fields.
    pub req: &'a R,
    /// How to draw it.
    pub options: DiagramOptions,
}

impl<R: PositionFields> Visitor for Diagram<'_, R> {
    type Output = Result<String, ApiError>;
    fn visit<V: Playable>(self) -> Self::Output {
        guarded(|| {
            let r = game_of::<V>(self.req)?;
            Ok(V::diagram(&r.game, &self.options))
        })
    }
}

/// Reads the query of `GET …/diagram.svg`, refusing unknown parameters and
/// naming the one at fault.
fn read_query(query: &str) -> Result<DiagramQuery, ApiError> {
    const PARAMS: &str = "fen, moves, rules, notation, flip, coordinates, highlight";
    let mut q = DiagramQuery::default();
    for (name, value) in query_pairs(query)? {
        let flag = |value: &str| match value {
            "true" => Ok(Some(true)),
            "false" => Ok(Some(false)),
            other => Err(ApiError::new(
                Problem::InvalidRequest,
                format!("'{name}' must be true or false; got \"{other}\""),
            )
            .field(name.as_str())),
        };
        match name.as_str() {
            "fen" => q.fen = Some(value),
            "moves" => {
                q.moves = Some(
                    value
                        .split(|c: char| c == ',' || c.is_whitespace())
                        .filter(|m| !m.is_empty())
                        .map(str::to_owned)
                        .collect(),
                )
            }
            "rules" => q.rules = Some(value),
            "notation" => q.notation = Some(query_notation(value)?),
            "flip" => q.flip = flag(&value)?,
            "coordinates" => q.coordinates = flag(&value)?,
            "highlight" => q.highlight = flag(&value)?,
            _ => return Err(unknown_parameter(&name, "this request", PARAMS)),
        }
    }
    Ok(q)
}
