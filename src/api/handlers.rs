//! The routes: each reads its request, picks the variant with one visitor
//! of [`super::endpoints`], and answers. Each is registered once, with its OpenAPI
//! entry (see `api::routes`).

use std::sync::Arc;

use actix_web::http::header;
use actix_web::{post, route, web, HttpRequest, HttpResponse};

use super::answers::ndjson;
use super::endpoints::{
    self, Adjudged, Adjudicate, Analyze, AnalyzeStream, Batch, BatchItem, Describe, Diagram,
    LegalMoves, Lines, Review, Reviewed, Validate, MAX_BATCH,
};
use super::engine::Peer;
use super::error::{ApiError, BodyErrors, BusyError, Problem, QueryErrors, VariantError};
use super::extract::{read_query, BatchBody, Body};
use super::fair;
use super::requests::*;
use super::responses::*;
use super::state::AppState;
use super::wire::*;
use crate::diagram::Options as DiagramOptions;
use crate::pgn::RecordFormat;
use crate::variants::{NotationName, VariantId};

/// List the supported variants.
#[utoipa::path(
    get,
    path = "/v1/variants",
    tag = "variants",
    responses((status = 200, description = "Every supported variant", body = VariantList))
)]
#[route("/v1/variants", method = "GET", method = "HEAD")]
pub async fn list_variants() -> web::Json<VariantList> {
    web::Json(VariantList {
        variants: endpoints::variants(),
    })
}

/// Describe one variant: board, start position, notations and rule options.
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}",
    tag = "variants",
    params(("variant" = VariantId, Path, description = "The variant", example = "xiangqi")),
    responses(
        (status = 200, description = "The variant", body = VariantDetails),
        VariantError
    )
)]
#[route("/v1/variants/{variant}", method = "GET", method = "HEAD")]
pub async fn get_variant(
    variant: web::Path<VariantId>,
) -> Result<web::Json<VariantDetails>, ApiError> {
    Ok(web::Json(variant.into_inner().visit(Describe)))
}

/// The legal moves of a position, with the game's status.
///
/// The position is `fen` (default: the start position) after `moves`. Every
/// move of the record is checked; the first illegal one is a 422 naming its
/// index. When the game has ended, `legal_moves` is empty and the status says why.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/legal-moves",
    tag = "rules",
    params(("variant" = VariantId, Path, description = "The variant", example = "xiangqi")),
    request_body(content = PositionRequest, examples(
        ("start" = (summary = "The start position", value = json!({}))),
        ("after moves" = (summary = "After two moves", value = json!({"moves": ["h2e2", "h9g7"]}))),
        ("from FEN" = (summary = "A position from FEN, moves in WXF", value = json!({
            "fen": "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "notation": "wxf"
        }))),
        ("forbidden repetition" = (summary = "a9a8 would complete a perpetual check: marked", value = json!({
            "fen": "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
            "moves": ["a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"]
        }))),
        ("taxi: start" = (summary = "Taxi chess (set the path to taxi): every move with its cost and SAN", value = json!({
            "moves": ["e2e4", "e7e5"]
        }))),
        ("taxi: the seed's example" = (summary = "Taxi chess (path taxi): balances as JSON, moves in SAN", value = json!({
            "fen": "8/8/8/8/r7/1K1R4/8/k7 w - - 0 1",
            "balances": {"white": 0, "black": 0},
            "moves": ["Rd1", "Rb4+"],
            "notation": "san"
        }))),
        ("tamerlane: start" = (summary = "Tamerlane chess (set the path to tamerlane): the 24 first moves", value = json!({}))),
        ("tamerlane: feminine" = (summary = "Tamerlane chess (path tamerlane): the feminine array", value = json!({
            "rules": {"setup": "feminine"}
        }))),
        ("pgn: Chinese record" = (summary = "A game record in Chinese notation instead of fen and moves", value = json!({
            "pgn": "[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 {a comment} 车９平８ *"
        })))
    )),
    responses(
        (status = 200, description = "The position and its legal moves", body = LegalMovesResponse),
        VariantError,
        BodyErrors
    )
)]
#[post("/v1/variants/{variant}/legal-moves")]
pub async fn legal_moves(
    variant: web::Path<VariantId>,
    body: Body<PositionRequest>,
) -> Result<web::Json<LegalMovesResponse>, ApiError> {
    Ok(web::Json(variant.into_inner().visit(LegalMoves(body.0))?))
}

/// Whether one move is legal in a position, and why not.
///
/// A well-formed move answers 200: `legal: true` with the position after it,
/// or `legal: false` with a `reason` and a stable `reason_code`. A move that
/// cannot be read at all is a 422.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/validate",
    tag = "rules",
    params(("variant" = VariantId, Path, description = "The variant", example = "xiangqi")),
    request_body(content = ValidateRequest, examples(
        ("legal" = (summary = "A legal move", value = json!({"moves": ["h2e2"], "move": "h9g7"}))),
        ("blocked horse" = (summary = "A horse whose leg is blocked", value = json!({
            "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1N7/R1BAKABNR w - - 0 1",
            "move": "b1c3"
        }))),
        ("flying general" = (summary = "The generals would face each other", value = json!({
            "fen": "4k4/9/9/9/9/9/p8/9/4A4/4K4 w - - 0 1",
            "move": "e1d2"
        }))),
        ("taxi: too dear" = (summary = "Taxi chess (path taxi): Kxb4 costs 3, White has 2", value = json!({
            "fen": "8/8/8/8/1r6/1K6/8/k2R4 w - - 0 2 0/1",
            "move": "b3b4"
        }))),
        ("tamerlane: giraffe" = (summary = "Tamerlane chess (path tamerlane): the giraffe's diagonal square is occupied", value = json!({
            "fen": "11/10k/11/11/11/11/11/2PP8/1G9/10K w -/- - 0/0 0 1",
            "move": "b2c6"
        }))),
        ("pgn" = (summary = "A move after a WXF record", value = json!({
            "pgn": "[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 *",
            "move": "R9.8"
        })))
    )),
    responses(
        (status = 200, description = "The verdict on the move", body = ValidateResponse),
        VariantError,
        BodyErrors
    )
)]
#[post("/v1/variants/{variant}/validate")]
pub async fn validate(
    variant: web::Path<VariantId>,
    body: Body<ValidateRequest>,
) -> Result<web::Json<ValidateResponse>, ApiError> {
    Ok(web::Json(variant.into_inner().visit(Validate(body.0))?))
}

/// The result of a game: ongoing, decisive or drawn, with the reason.
///
/// The game is `fen` and `moves`, or a whole `pgn` record; for a record
/// that states a result, `recorded_result` and `recorded_result_agrees`
/// compare it with ours. With `"format": "pgn"` (or `Accept:
/// application/x-chess-pgn`) the answer is the game as PGN, the verdict in
/// `[Result]` and `[Termination]` and its explanation as a comment.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/adjudicate",
    tag = "rules",
    params(("variant" = VariantId, Path, description = "The variant", example = "xiangqi")),
    request_body(content = AdjudicateRequest, examples(
        ("checkmate" = (summary = "A game ending in checkmate", value = json!({
            "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "moves": ["a0a9"]
        }))),
        ("stalemate" = (summary = "Stalemate loses in Xiangqi", value = json!({
            "fen": "3k5/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1",
            "moves": ["e7e8"]
        }))),
        ("move limit" = (summary = "100 plies without capture", value = json!({
            "fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 99 60",
            "moves": ["a1a2"]
        }))),
        ("perpetual check" = (summary = "Red checks with every move of the repetition and loses", value = json!({
            "fen": "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
            "moves": ["a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8"]
        }))),
        ("perpetual chase" = (summary = "A red cannon chases the black chariot and loses", value = json!({
            "fen": "4k4/9/r8/9/NN7/9/9/C8/9/3K5 b - - 0 1",
            "moves": ["a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2", "b7a7", "b2a2"]
        }))),
        ("perpetual mate threat (Chinese rules)" = (summary = "Chinese rules (the rule book's 图7): Red threatens mate with every move (长杀) and loses; the Asian rules would rule Black's chariot a perpetual chaser", value = json!({
            "fen": "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1",
            "moves": ["i0h0", "i8h8", "h0i0", "h8i8", "i0h0", "i8h8", "h0i0", "h8i8"],
            "rules": {"repetition": "chinese"}
        }))),
        ("taxi: bankruptcy" = (summary = "Taxi chess (path taxi): in check, and Kxb2 is too dear", value = json!({
            "fen": "7k/8/8/8/8/8/1q6/K7 w - - 0 1 0/0"
        }))),
        ("taxi: threefold claimable" = (summary = "Taxi chess (path taxi): a claimable threefold repetition", value = json!({
            "moves": ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]
        }))),
        ("tamerlane: citadel" = (summary = "Tamerlane chess (path tamerlane): the shah enters the enemy citadel: drawn", value = json!({
            "fen": "11/K10/11/11/11/11/11/11/11/10k w -/- - 0/0 0 1",
            "moves": ["a9z9"]
        }))),
        ("pgn: WXF record" = (summary = "A Xiangqi record in WXF with comments and a variation; its [Result] is checked", value = json!({
            "pgn": "[Event \"Club game\"]\n[Format \"WXF\"]\n[Result \"1-0\"]\n\n1. C2.5 H8+7 {the usual reply} 2. H2+3 (2. P7+1) R9.8 3. R1.2 *"
        }))),
        ("pgn: answer as PGN" = (summary = "Checkmate, answered as PGN with [Result] and [Termination]", value = json!({
            "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "moves": ["a0a9"],
            "format": "pgn"
        }))),
        ("taxi: SAN record" = (summary = "Taxi chess (path taxi): a chess PGN in SAN with balances in a tag", value = json!({
            "pgn": "[Event \"Casual\"]\n[Balances \"16/16\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 {developing} 3. Bb5 *"
        })))
    )),
    responses(
        (status = 200, description = "The result, as JSON or (asked for) as PGN", content(
            (AdjudicateResponse = "application/json"),
            (String = "application/x-chess-pgn", example = json!("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Variant \"Xiangqi\"]\n[SetUp \"1\"]\n[FEN \"3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1\"]\n[Format \"ICCS\"]\n[Termination \"checkmate\"]\n\n1. a0a9 {Black is checkmated: Red wins} 1-0\n"))
        )),
        VariantError,
        BodyErrors
    )
)]
#[post("/v1/variants/{variant}/adjudicate")]
pub async fn adjudicate(
    variant: web::Path<VariantId>,
    body: Body<AdjudicateRequest>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let pgn = match body.0.format {
        Some(format) => format == OutputFormat::Pgn,
        None => accepts(&http, PGN),
    };
    let req = body.0;
    match variant.into_inner().visit(Adjudicate { req, pgn })? {
        Adjudged::Json(r) => Ok(HttpResponse::Ok().json(r)),
        Adjudged::Pgn(text) => Ok(HttpResponse::Ok()
            .content_type(format!("{PGN}; charset=utf-8"))
            .body(text)),
    }
}

/// The PGN media type.
const PGN: &str = "application/x-chess-pgn";
/// The NDJSON media type.
const NDJSON: &str = "application/x-ndjson";
/// The largest batch body accepted (8 MiB).
const MAX_BATCH_BYTES: usize = 8 << 20;

/// Whether the request's `Accept` header names `media`.
fn accepts(http: &HttpRequest, media: &str) -> bool {
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
fn ndjson_response(rx: Lines) -> HttpResponse {
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
    post,
    path = "/v1/variants/{variant}/adjudicate/batch",
    tag = "rules",
    params(
        ("variant" = VariantId, Path, description = "The variant", example = "xiangqi"),
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
    variant: web::Path<VariantId>,
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
    let id = variant.into_inner();
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
        super::error::internal()
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

/// What an engine would play: the best move and lines with scores.
///
/// The search obeys the variant's results: stalemate wins in Xiangqi and
/// Tamerlane chess, citadel entry draws, and in Xiangqi a repetition that
/// the request's `rules.repetition` forbids loses (a perpetual check or
/// chase; under `chinese` also perpetual mate threats and their mixes; the
/// request's `moves` count as history). Scores are from the
/// side to move. Set at most how deep (`depth`), how long (`movetime_ms`) or
/// how many nodes (`nodes`) to search; the first limit reached ends it. With
/// none, the server's default time applies; every search is bounded by the
/// server's caps. When every search thread is busy the search waits for
/// one up to the server's `--search-wait-ms` (by default not at all), then
/// the answer is 503 `engine_busy` with `Retry-After`; a client with its
/// share of searches under way (`--max-searches-per-client`) is answered
/// 429 `too_many_searches`. A client that disconnects stops its search.
///
/// Every line carries `wdl`, the win/draw/loss chances its score stands
/// for (per mille, from the engine's model fitted on its own games), and
/// the repetition marks of its first move, as `legal-moves` gives them.
/// `all_moves` scores every legal move, best first; `searchmoves` and
/// `exclude` restrict the moves searched; `threat` adds what the opponent
/// would play were it its move. `level` (1-20) plays weaker for bots that
/// face people: fewer nodes and a choice among the nearly best moves
/// (`best_move` is the level's choice, `limits` give its nodes and seed).
///
/// With `Accept: application/x-ndjson` the search streams: one line per
/// completed depth (`AnalyzeProgress`: depth, nodes, time and lines), then
/// the final answer (`AnalyzeResponse`, the only line with `best_move`) or,
/// if the search failed, a problem.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/analyze",
    tag = "engine",
    params(("variant" = VariantId, Path, description = "The variant", example = "xiangqi")),
    request_body(content = AnalyzeRequest, examples(
        ("start" = (summary = "The start position, 300 ms", value = json!({"movetime_ms": 300}))),
        ("mate in two" = (summary = "Two chariots mate in two", value = json!({
            "fen": "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1",
            "depth": 5
        }))),
        ("two lines" = (summary = "The two best replies, to depth 6", value = json!({
            "moves": ["h2e2"],
            "depth": 6,
            "multipv": 2
        }))),
        ("every move" = (summary = "Every legal move scored, best first, with win/draw/loss chances and repetition marks", value = json!({
            "moves": ["h2e2", "h9g7"],
            "depth": 4,
            "all_moves": true
        }))),
        ("threat, some moves" = (summary = "What Black threatens, and the best of three moves", value = json!({
            "fen": "3k5/9/9/9/R7r/9/9/9/7r1/4K4 w - - 0 1",
            "depth": 5,
            "threat": true,
            "searchmoves": ["a5a0", "a5i5", "e0f0"]
        }))),
        ("level 6" = (summary = "A bot at level 6 of 20, its choice reproducible by the seed", value = json!({
            "moves": ["h2e2", "h9g7"],
            "level": 6,
            "seed": 42
        }))),
        ("taxi: start" = (summary = "Taxi chess (set the path to taxi): 200 ms, SAN", value = json!({
            "movetime_ms": 200,
            "notation": "san"
        }))),
        ("tamerlane: start" = (summary = "Tamerlane chess (path tamerlane): 50,000 nodes", value = json!({
            "nodes": 50000
        }))),
        ("pgn" = (summary = "After a record in ICCS as Xiangqi databases write it, depth 6 (send Accept: application/x-ndjson to see each depth)", value = json!({
            "pgn": "[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 *",
            "depth": 6
        })))
    )),
    responses(
        (status = 200, description = "The engine's choice; or (asked for) one NDJSON line per completed depth, then the answer", content(
            (AnalyzeResponse = "application/json"),
            (AnalyzeProgress = "application/x-ndjson")
        )),
        VariantError,
        BodyErrors,
        BusyError
    )
)]
#[post("/v1/variants/{variant}/analyze")]
pub async fn analyze(
    variant: web::Path<VariantId>,
    body: Body<AnalyzeRequest>,
    state: web::Data<AppState>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let analyze = Analyze {
        req: body.0,
        pool: state.engine.clone(),
        peer: http.conn_data::<Arc<Peer>>().cloned(),
        client: fair::client_key(&http),
    };
    let id = variant.into_inner();
    if accepts(&http, NDJSON) {
        return Ok(ndjson_response(id.visit(AnalyzeStream(analyze)).await?));
    }
    Ok(HttpResponse::Ok().json(id.visit(analyze).await?))
}

/// Reviews a game: every position searched, each move weighed by the win
/// chances it gave away and classed, each side's accuracy, and the game's
/// verdict by our rules.
///
/// Send the game as `adjudicate` takes it (`fen` and `moves`, or `pgn`) and
/// a budget for each position (`movetime_ms`, 100 ms by default; or
/// `nodes`, `depth`). Each ply gets `best_move`, `score_before` and
/// `score_after` (the mover's view), `wdl_before`, `win_loss` (the
/// win-percentage points the move gave away: its expected score, win +
/// draw / 2, before less after) and `class`: `best` (the engine's choice,
/// giving away under 5 points),
/// `good` (under 5 points), `inaccuracy` (5 or more), `mistake` (10 or
/// more), `blunder` (15 or more), `missed_win` (a won position, 80 % or
/// more, left for one of 60 % or less). A side's `accuracy` is the mean of
/// its moves' `103.1668 e^(−0.04354 win_loss) − 3.1669` (0-100). A record
/// with an illegal move gets the problem `adjudicate` gives.
///
/// The review runs in the engine pool like `analyze` (503 `engine_busy`
/// when every slot stays taken, 429 `too_many_searches` past the client's
/// share) and is bounded: the per-position time times
/// the positions stays within the server's `--max-review-secs`, and a game
/// of more than `--max-review-plies` plies is refused. With `Accept:
/// application/x-ndjson` it streams one `ReviewPly` line per ply as it goes,
/// then the `ReviewResponse`, and stops when the client hangs up; with
/// `Accept: image/svg+xml` (or `"format": "svg"`) it answers the
/// evaluation graph: the first mover's expected score after each ply, its
/// inaccuracies, mistakes and blunders marked.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/review",
    tag = "engine",
    params(("variant" = VariantId, Path, description = "The variant", example = "xiangqi")),
    request_body(content = ReviewRequest, examples(
        ("opening" = (summary = "Six plies, 50 ms a position", value = json!({
            "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"],
            "movetime_ms": 50
        }))),
        ("blunder" = (summary = "Red leaves its chariot to be taken (ply 1), depth 6", value = json!({
            "fen": "4k4/9/9/9/R8/7r1/9/9/9/3K5 w - - 0 1",
            "moves": ["a5h5", "h4h5"],
            "depth": 6
        }))),
        ("graph" = (summary = "The evaluation graph of a record (SVG)", value = json!({
            "pgn": "[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 *",
            "movetime_ms": 50,
            "format": "svg"
        })))
    )),
    responses(
        (status = 200, description = "The review; or (asked for) one NDJSON line per ply, then the review; or the evaluation graph", content(
            (ReviewResponse = "application/json"),
            (ReviewPly = "application/x-ndjson"),
            (String = "image/svg+xml")
        )),
        VariantError,
        BodyErrors,
        BusyError
    )
)]
#[post("/v1/variants/{variant}/review")]
pub async fn review(
    variant: web::Path<VariantId>,
    body: Body<ReviewRequest>,
    state: web::Data<AppState>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let req = body.0;
    let svg = match req.format {
        Some(ReviewFormat::Svg) => true,
        Some(ReviewFormat::Json) => false,
        None => accepts(&http, SVG),
    };
    let stream = !svg && accepts(&http, NDJSON);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let review = Review {
        req,
        pool: state.engine.clone(),
        peer: http.conn_data::<Arc<Peer>>().cloned(),
        client: fair::client_key(&http),
        lines: stream.then(|| tx.clone()),
        svg,
    };
    let reviewing = variant.into_inner().visit(review).await?;
    if stream {
        actix_web::rt::spawn(async move {
            let last = match reviewing.await {
                Ok(Reviewed::Json(done)) => ndjson(&done),
                Ok(Reviewed::Svg(_)) => return,
                Err(e) => ndjson(e.body()),
            };
            let _ = tx.send(last);
        });
        return Ok(ndjson_response(rx));
    }
    match reviewing.await? {
        Reviewed::Json(done) => Ok(HttpResponse::Ok().json(done)),
        Reviewed::Svg(picture) => Ok(HttpResponse::Ok()
            .content_type(SVG)
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .body(picture)),
    }
}

/// The SVG media type.
const SVG: &str = "image/svg+xml";
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
        ("variant" = VariantId, Path, description = "The variant", example = "xiangqi"),
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
    variant: web::Path<VariantId>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = variant.into_inner();
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
    post,
    path = "/v1/variants/{variant}/diagram",
    tag = "pictures",
    params(("variant" = VariantId, Path, description = "The variant", example = "xiangqi")),
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
    variant: web::Path<VariantId>,
    body: Body<DiagramRequest>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = variant.into_inner();
    let req = body.0;
    let opts = diagram_options(req.flip, req.coordinates, req.highlight);
    let svg = id.visit(Diagram {
        req: &req,
        options: opts,
    })?;
    Ok(svg_response(svg, &http))
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
