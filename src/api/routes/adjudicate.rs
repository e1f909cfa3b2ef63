//! `POST /v1/variants/{variant}/adjudicate`: the result of a game, as JSON
//! or as the game written in PGN.

use actix_web::{post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::api::answers::adjudged;
use crate::api::error::{guarded, ApiError, BodyErrors, VariantError};
use crate::api::extract::{Body, VariantPath};
use crate::api::media::{accepts, PGN};
use crate::api::record;
use crate::api::replay::{replay, Extent};
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::responses::AdjudicateResponse;
use crate::api::wire::{Balances, Moves, OutputFormat};
use crate::dispatch::{Playable, Visitor};
use crate::prose;
use crate::variants::NotationName;

game_request! {
    /// A game to adjudicate: a start FEN and the moves played since, or a PGN
    /// record; and how to answer.
    #[schema(example = json!({
        "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        "moves": ["a0a9"]
    }))]
    pub struct AdjudicateRequest {
        /// `json` (the default) or `pgn`; `Accept: application/x-chess-pgn`
        /// asks for PGN too.
        pub format: Option<OutputFormat>,
    }
    pgn: [
        /// A whole game record in PGN, instead of `fen` and `moves` (see
        /// `PositionRequest.pgn`).
    ],
    notation: [
        /// How moves are written in this request and its answer. Default: the
        /// variant's first notation; for a `pgn` record, the record's.
    ],
}

/// The result of a game: ongoing, decisive or drawn, with the reason.
///
/// The game is `fen` and `moves`, or a whole `pgn` record; for a record
/// that states a result, `recorded_result` and `recorded_result_agrees`
/// compare it with ours. With `"format": "pgn"` (or `Accept:
/// application/x-chess-pgn`) the answer is the game as PGN, the verdict in
/// `[Result]` and `[Termination]` and its explanation as a comment.
#[utoipa::path(
    tag = "rules",
    params(VariantPath),
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
    path: web::Path<VariantPath>,
    body: Body<AdjudicateRequest>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let pgn = match body.0.format {
        Some(format) => format == OutputFormat::Pgn,
        None => accepts(&http, PGN),
    };
    let req = body.0;
    match path.variant.visit(Adjudicate { req, pgn })? {
        Adjudged::Json(r) => Ok(HttpResponse::Ok().json(r)),
        Adjudged::Pgn(text) => Ok(HttpResponse::Ok()
            .content_type(format!("{PGN}; charset=utf-8"))
            .body(text)),
    }
}

/// The answer of `adjudicate`: JSON, or the game as PGN.
pub enum Adjudged {
    /// The result.
    Json(Box<AdjudicateResponse>),
    /// The game written as PGN.
    Pgn(String),
}

/// `POST …/adjudicate`.
pub struct Adjudicate {
    /// The request.
    pub req: AdjudicateRequest,
    /// Whether to answer with PGN (`format` or `Accept` asked for it).
    pub pgn: bool,
}

impl Visitor for Adjudicate {
    type Output = Result<Adjudged, ApiError>;
    fn visit<V: Playable>(self) -> Self::Output {
        guarded(|| {
            let r = replay::<V>(&self.req, Extent::PastTheEnd)?;
            if !self.pgn {
                return Ok(Adjudged::Json(Box::new(adjudged(&r))));
            }
            let outcome = r.game.outcome();
            let comment = prose::outcome(&r.game, &outcome);
            Ok(Adjudged::Pgn(record::write(
                &r.game,
                &outcome,
                r.pgn_notation(),
                r.record.as_ref(),
                &comment,
            )))
        })
    }
}
