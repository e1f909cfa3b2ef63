//! `POST /v1/variants/{variant}/adjudicate/batch`: up to 1,000 games at
//! once, sent as JSON or as a file of records in any format a Chinese or
//! chess site exports; one answer per game, in order, or streamed.

use actix_web::dev::Payload;
use actix_web::{post, web, FromRequest, HttpMessage, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::answers::{adjudged, ndjson};
use crate::api::error::{guarded, ApiError, BodyErrors, Problem, ProblemDetails, VariantError};
use crate::api::extract::{
    bytes_of, config_of, is_json, query_notation, query_pairs, read_body, unknown_parameter,
    VariantPath,
};
use crate::api::media::{accepts, ndjson_response, NDJSON};
use crate::api::record;
use crate::api::replay::{self, replay_from, Extent};
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::responses::AdjudicateResponse;
use crate::api::wire::{Balances, GameId, Moves, Tags};
use crate::dispatch::{Playable, Visitor};
use crate::pgn::{self, RecordFormat};
use crate::prose;
use crate::variants::{NotationName, VariantId};
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

game_request! {
    /// One game of a batch: as `adjudicate` takes it, with an id.
    pub struct BatchGame {
        /// The caller's name for the game, echoed in its result.
        pub id: Option<GameId>,
    }
    pgn: [
        /// A whole game record in PGN, instead of `fen` and `moves` (as in
        /// `adjudicate`).
    ],
    moves: [
        /// The moves played from `fen`, in `notation`.
    ],
    rules: [
        /// The variant's rule options; the standard rules when absent.
    ],
    notation: [
        /// How the moves are written.
    ],
    balances: [
        /// Taxi chess: both balances.
    ],
}

/// Games to adjudicate at once: `games`, or a PGN file of many games in
/// `pgn` (a PGN body, `Content-Type: application/x-chess-pgn`, does the
/// same, with `rules` and `notation` in the query).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"games": [
    {"id": "g1", "moves": ["h2e2", "h9g7"]},
    {"id": "g2", "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]},
    {"id": "g3", "moves": ["h2h8"]}
]}))]
pub struct BatchRequest {
    /// The games, 1 to 1,000.
    pub games: Option<Vec<BatchGame>>,
    /// A file of 1 to 1,000 games in PGN, as databases and sites export
    /// them, instead of `games`: a game begins at a tag line after another
    /// game's moves. Each game answers with its tags echoed and the line
    /// it begins on; a damaged game gets its problem and the others go on.
    #[schema(example = json!("[Event \"a\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 *\n\n[Event \"b\"]\n[Format \"WXF\"]\n\n1. P7+1 *\n"))]
    pub pgn: Option<String>,
    /// Rule options for every game that sets none (the variant's
    /// `XiangqiRules`, `TaxiRules` or `TamerlaneRules`).
    #[schema(value_type = Option<AnyRules>)]
    pub rules: Option<serde_json::Value>,
    /// The notation of every game that names none (a game of `pgn` with a
    /// `[Format]` tag reads that).
    pub notation: Option<NotationName>,
}

/// One game's answer in a batch: its result or its problem.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchResult {
    /// The game's place in the request, from 0.
    pub index: usize,
    /// The game's id, as sent.
    pub id: Option<GameId>,
    /// For a game of a PGN file: the line of the file it begins on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// For a game sent as PGN: its tags, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Tags>,
    /// For a game of a record: the kind of record it was read as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<RecordFormat>,
    /// The result, when the game could be read and replayed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<AdjudicateResponse>,
    /// The problem with this game (the same problem `adjudicate` would
    /// answer), when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ProblemDetails>,
}

/// Every game's answer, in the order sent.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "games": 2,
    "errors": 1,
    "results": [
        {"index": 0, "id": "g1", "result": {"variant": "xiangqi", "status": "ongoing", "result": "*"}},
        {"index": 1, "id": "g2", "error": {
            "type": "urn:arbiter:problem:illegal-move", "title": "A move of the game is illegal",
            "status": 422, "detail": "move 0 ('h2h8'): the cannon's path is blocked at h7", "code": "illegal_move",
            "field": "moves[0]", "move_index": 0, "move": "h2h8"
        }}
    ]
}))]
pub struct BatchResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// How many games were sent.
    pub games: usize,
    /// How many of them have a problem instead of a result.
    pub errors: usize,
    /// For a file of records (a PGN, DhtmlXQ, dpxq, PlayOK, compact or
    /// XQF body, or `pgn`): the kind of record it was read as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<RecordFormat>,
    /// For a file sent as the body: the encoding its text was read in
    /// (`UTF-8`, `gb18030`, `Big5`), named by its charset or found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// One per game, in the order sent.
    pub results: Vec<BatchResult>,
}

/// The largest batch body accepted (8 MiB).
const MAX_BATCH_BYTES: usize = 8 << 20;

/// Adjudicates up to 1,000 games at once, one answer per game in order.
///
/// Send `games` (each as `adjudicate` takes it: `fen` and `moves`, or
/// `pgn`, with an `id` echoed back), or a file of many games: as `pgn` in
/// a JSON body, or as the body itself with `Content-Type:
/// application/x-chess-pgn`, with `rules` and `notation` as query
/// parameters. The file's kind is found from its body and named in
/// `format`: PGN (xqbase.com's trailer kept as a warning), DhtmlXQ (UBB)
/// blocks, dpxq's plain text, PlayOK's WXF file, compact text; an XQF file
/// (`Content-Type: application/x-xqf`, or its `XQ` signature) gives its
/// main line. A text body is in the `charset` named, else UTF-8, GB18030
/// (GBK) or Big5 as its bytes show, named in `encoding`. A game of a
/// record answers with its tags and format; a game of a file, with the
/// line it begins on. A game that cannot
/// be read or replayed gets its `error` (the problem `adjudicate` would
/// answer) and the others go on. With `Accept: application/x-ndjson` each
/// game's answer is one line, sent as soon as it is known. The body may be
/// up to 8 MiB.
#[utoipa::path(
    tag = "rules",
    params(
        VariantPath,
        ("rules" = Option<String>, Query, description = "With a PGN body: the rule options of every game, as a JSON object", example = r#"{"repetition_ends_game":false}"#),
        ("notation" = Option<NotationName>, Query, description = "With a PGN body: the notation of every game without a [Format] tag")
    ),
    request_body(content(
        (BatchRequest = "application/json", examples(
            ("mixed" = (summary = "An ongoing game, a mate, an illegal move and a PGN record", value = json!({"games": [
                {"id": "g1", "moves": ["h2e2", "h9g7"]},
                {"id": "g2", "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]},
                {"id": "g3", "moves": ["h2h8"]},
                {"id": 4, "pgn": "[Format \"WXF\"]\n[Result \"*\"]\n\n1. C2.5 H8+7 *"}
            ]}))),
            ("a PGN file" = (summary = "Two games of a PGN file, over the board", value = json!({
                "pgn": "[Event \"Club\"]\n[Red \"Zhang\"]\n[Black \"Li\"]\n\n1. Ｃ２＝５Ｈ８＋７ 2. Ｈ２＋３Ｒ９＝８\n\n[Event \"Club\"]\n[Red \"Li\"]\n[Black \"Zhang\"]\n\n1. 炮二平五 马８进７\n",
                "rules": {"repetition_ends_game": false}
            })))
        )),
        (String = "application/x-chess-pgn", examples(
            ("PGN" = (summary = "Two games of a PGN file", value = json!("[Event \"a\"]\n\n1. C2.5 H8+7 *\n\n[Event \"b\"]\n\n1. P7+1 *\n"))),
            ("DhtmlXQ" = (summary = "A DhtmlXQ (UBB) block, as dpxq.com embeds a game", value = json!("[DhtmlXQ]\n[DhtmlXQ_title]中炮对屏风马[/DhtmlXQ_title]\n[DhtmlXQ_red]甲[/DhtmlXQ_red]\n[DhtmlXQ_black]乙[/DhtmlXQ_black]\n[DhtmlXQ_result]红胜[/DhtmlXQ_result]\n[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n"))),
            ("dpxq text" = (summary = "dpxq.com's plain text", value = json!("标题: 甲 先胜 乙\n红方: 甲\n黑方: 乙\n结果: 红方胜\n\n  1.炮二平五      马８进７\n  2.马二进三      车９平８\n"))),
            ("PlayOK WXF" = (summary = "PlayOK's WXF file", value = json!("FORMAT  WXF\nRED     tmt ; 1137 ;;\nBLACK   hu ; 1177 ;;\nRESULT  *\nSTART{\n 1. C8.5 c2.5   2. H8+7 h2+3\n}END\n"))),
            ("compact text" = (summary = "Moves and numbers written together", value = json!("1.炮二平五马8进72.马二进三车9平8")))
        )),
        (String = "application/x-xqf")
    )),
    responses(
        (status = 200, description = "Every game's answer, in order: one JSON document, or (asked for) one NDJSON line per game", content(
            (BatchResponse = "application/json"),
            (BatchResult = "application/x-ndjson")
        )),
        VariantError,
        BodyErrors
    )
)]
#[post("/v1/variants/{variant}/adjudicate/batch")]
pub async fn adjudicate_batch(
    path: web::Path<VariantPath>,
    body: BatchBody<MAX_BATCH_BYTES>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let mut file: Option<(RecordFormat, Option<&'static str>)> = None;
    let (items, rules, notation, field) = match body {
        BatchBody::Json(req) => match (req.games, req.pgn) {
            (Some(games), None) => {
                // The batch's rules and notation, for every game without its own.
                let items = games
                    .into_iter()
                    .map(|mut g| {
                        g.rules = g.rules.or_else(|| req.rules.clone());
                        g.notation = g.notation.or(req.notation);
                        BatchItem::Game(g)
                    })
                    .collect();
                (items, None, None, "games")
            }
            (None, Some(text)) => {
                let records = crate::pgn::read_file(&text);
                file = Some((records.format, None));
                (items_of(records), req.rules, req.notation, "pgn")
            }
            _ => {
                return Err(ApiError::new(
                    Problem::InvalidRequest,
                    "send the games either as 'games' or as one PGN file in 'pgn'",
                )
                .field("games"))
            }
        },
        BatchBody::Pgn {
            records,
            rules,
            notation,
        } => {
            file = Some((records.format, records.encoding));
            (items_of(records), rules, notation, "pgn")
        }
    };
    if items.is_empty() || items.len() > MAX_BATCH {
        return Err(ApiError::new(
            Problem::TooManyGames,
            format!(
                "{field}: {} games were sent; send 1 to {MAX_BATCH}",
                items.len()
            ),
        )
        .field(field));
    }
    let id = path.variant;
    if accepts(&http, NDJSON) {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        actix_web::rt::task::spawn_blocking(move || {
            id.visit(Batch {
                items,
                rules,
                notation,
                sink: |item: BatchResult| tx.send(ndjson(&item)).is_ok(),
            })
        });
        return Ok(ndjson_response(rx));
    }
    let results = web::block(move || {
        let mut out = Vec::new();
        id.visit(Batch {
            items,
            rules,
            notation,
            sink: |item| {
                out.push(item);
                true
            },
        });
        out
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "a batch's thread failed");
        crate::api::error::internal()
    })?;
    let errors = results.iter().filter(|r| r.error.is_some()).count();
    Ok(HttpResponse::Ok().json(BatchResponse {
        variant: id,
        games: results.len(),
        errors,
        format: file.map(|(f, _)| f),
        encoding: file.and_then(|(_, e)| e).map(str::to_owned),
        results,
    }))
}

/// The games of a file of records, each read on its own.
fn items_of(records: crate::pgn::Records) -> Vec<BatchItem> {
    records.games.into_iter().map(BatchItem::Record).collect()
}

/// The most games a batch may hold.
const MAX_BATCH: usize = 1_000;

/// One game of a batch, as it came.
pub enum BatchItem {
    /// A game of `games`.
    Game(BatchGame),
    /// A game of a PGN file (the body, or `pgn`), already read: the line
    /// it begins on, and the record or why it cannot be read.
    Record(pgn::GameText),
}

/// `POST …/adjudicate/batch`: each game in turn, its answer given to
/// `sink` as soon as it is known; stops early when `sink` says so (the
/// client has gone).
pub struct Batch<F> {
    /// The games.
    pub items: Vec<BatchItem>,
    /// Rule options of the games of a PGN file.
    pub rules: Option<serde_json::Value>,
    /// The notation of the games of a PGN file that name none.
    pub notation: Option<NotationName>,
    /// Takes each game's answer; false: stop.
    pub sink: F,
}

impl<F: FnMut(BatchResult) -> bool> Visitor for Batch<F> {
    type Output = ();
    fn visit<V: Playable>(mut self) {
        for (index, item) in self.items.into_iter().enumerate() {
            let (id, line) = match &item {
                BatchItem::Game(g) => (g.id.clone(), None),
                BatchItem::Record(t) => (None, Some(t.first_line)),
            };
            let mut tags = None;
            let format = match &item {
                BatchItem::Record(t) => {
                    Some(t.record.as_ref().map_or(RecordFormat::Pgn, |r| r.format))
                }
                BatchItem::Game(_) => None,
            };
            let answer = guarded(|| {
                let (source, rules) = match &item {
                    BatchItem::Game(g) => (replay::source_of::<V>(g)?, g.rules.as_ref()),
                    BatchItem::Record(text) => {
                        let record = text
                            .record
                            .clone()
                            .map_err(|e| record::invalid(prose::pgn_error(&e)))?;
                        (
                            replay::from_record::<V>(record, None, self.notation)?,
                            self.rules.as_ref(),
                        )
                    }
                };
                tags = source.record.as_ref().map(|r| Tags(r.tags.clone()));
                Ok(adjudged(&replay_from(source, rules, Extent::PastTheEnd)?))
            });
            let (result, error) = match answer {
                Ok(r) => (Some(r), None),
                Err(e) => (None, Some(e.body().clone())),
            };
            let item = BatchResult {
                index,
                id,
                line,
                tags,
                format,
                result,
                error,
            };
            if !(self.sink)(item) {
                break;
            }
        }
    }
}

/// The media types of a PGN body.
const PGN_TYPES: [&str; 2] = ["application/x-chess-pgn", "application/vnd.chess-pgn"];

/// The media type of an XQF file (XQStudio's binary records).
const XQF_TYPE: &str = "application/x-xqf";

/// A batch's body: JSON, or a file of records (`Content-Type:
/// application/x-chess-pgn`, or `application/x-xqf`) with `rules` and
/// `notation` in the query. A text file is in the `charset` its type
/// names; without one, UTF-8, GB18030 (GBK) or Big5 as its bytes show
/// (`pgn::decode`); its format (PGN, DhtmlXQ, dpxq text, PlayOK WXF,
/// compact text) is found from its body, and XQF from its signature.
pub enum BatchBody<const LIMIT: usize> {
    /// A JSON body.
    Json(BatchRequest),
    /// A file of records.
    Pgn {
        /// The file's games, its format and encoding.
        records: pgn::Records,
        /// The `rules` query parameter, read as JSON.
        rules: Option<Value>,
        /// The `notation` query parameter.
        notation: Option<NotationName>,
    },
}

impl<const LIMIT: usize> FromRequest for BatchBody<LIMIT> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json = is_json(req);
        let mime = req.mime_type().ok().flatten();
        let xqf = mime.as_ref().is_some_and(|m| m.essence_str() == XQF_TYPE);
        let pgn = xqf
            || mime
                .as_ref()
                .is_some_and(|m| PGN_TYPES.contains(&m.essence_str()));
        let charset = mime
            .as_ref()
            .and_then(|m| m.get_param("charset"))
            .map(|c| c.as_str().to_owned());
        let config = config_of(req);
        let query = req.query_string().to_owned();
        let payload = web::Payload::from_request(req, payload);
        Box::pin(async move {
            if !json && !pgn {
                return Err(ApiError::new(
                    Problem::UnsupportedMediaType,
                    "send the body as JSON with 'Content-Type: application/json', a file of records (PGN, DhtmlXQ, dpxq, PlayOK WXF) with 'Content-Type: application/x-chess-pgn', or an XQF file with 'Content-Type: application/x-xqf'",
                ));
            }
            let bytes = bytes_of(payload, LIMIT).await?;
            if json {
                if !query.is_empty() {
                    return Err(ApiError::new(
                        Problem::InvalidRequest,
                        "a JSON batch takes its rules and notation in the body, not the query",
                    ));
                }
                return read_body(&bytes, &config).map(BatchBody::Json);
            }
            let records = pgn::read_bytes(&bytes, xqf, charset.as_deref()).map_err(|e| {
                let detail = match &e {
                    pgn::BytesError::Decode(e) => prose::decode_error(e),
                    pgn::BytesError::Xqf(e) => prose::xqf_error(e),
                };
                ApiError::new(Problem::InvalidPgn, format!("pgn: {detail}")).field("pgn")
            })?;
            let (rules, notation) = read_batch_query(&query)?;
            Ok(BatchBody::Pgn {
                records,
                rules,
                notation,
            })
        })
    }
}

/// The query of a PGN batch: `rules` (a JSON object) and `notation`.
fn read_batch_query(query: &str) -> Result<(Option<Value>, Option<NotationName>), ApiError> {
    let (mut rules, mut notation) = (None, None);
    for (name, value) in query_pairs(query)? {
        match name.as_str() {
            "rules" => {
                rules = Some(serde_json::from_str(&value).map_err(|_| {
                    ApiError::new(
                        Problem::InvalidRules,
                        format!("'rules' must be a JSON object of rule options, like {{\"repetition_ends_game\":false}}; got \"{value}\""),
                    )
                    .field("rules")
                })?)
            }
            "notation" => notation = Some(query_notation(value)?),
            _ => return Err(unknown_parameter(&name, "a PGN batch", "rules, notation")),
        }
    }
    Ok((rules, notation))
}
