//! `POST /v1/variants/{variant}/legal-moves`: the legal moves of a
//! position, each in every notation with its marks, and the game's status.

use actix_web::http::header::ContentType;
use actix_web::{post, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::answers::{legal_moves_of, summary};
use crate::api::error::{guarded, ApiError, BodyErrors, VariantError};
use crate::api::extract::{Body, VariantPath};
use crate::api::replay::game_of;
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::responses::{write_legal_moves, LegalMove, PositionSummary};
use crate::api::wire::{Balances, Moves};
use crate::dispatch::{Playable, Visitor};
use crate::variants::{NotationName, Outcome, VariantId};

game_request! {
    /// A position: a start FEN and the moves played since.
    #[schema(example = json!({
        "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "moves": ["h2e2", "h9g7"]
    }))]
    pub struct PositionRequest {}
    notation: [
        /// How moves are written in this request and its answer; `GET
        /// /v1/variants/{variant}` lists each variant's notations. Default: the
        /// variant's first (`iccs` for Xiangqi, `uci` for Taxi chess,
        /// `coordinate` for Tamerlane chess).
    ],
}

/// The legal moves of a position.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "fen": "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "side_to_move": "red",
    "in_check": false,
    "plies": 2,
    "status": "ongoing",
    "result": "*",
    "winner": null,
    "reason": null,
    "explanation": "the game is in progress",
    "claimable_draws": [],
    "legal_moves": [
        {"move": "a0a1", "iccs": "a0a1", "fairy": "a1a2", "wxf": "R9+1", "chinese": "车九进一",
         "capture": false, "check": false, "forbidden_repetition": false},
        {"move": "a0a2", "iccs": "a0a2", "fairy": "a1a3", "wxf": "R9+2", "chinese": "车九进二",
         "capture": false, "check": false, "forbidden_repetition": false}
    ]
}))]
pub struct LegalMovesResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// The position after the request's moves.
    #[serde(flatten)]
    pub position: PositionSummary,
    /// Every legal move; empty when the game has ended.
    pub legal_moves: Vec<LegalMove>,
}

impl LegalMovesResponse {
    /// The answer's JSON: the bytes serde writes for it (a test holds them
    /// to it), the list of moves written by [`write_legal_moves`].
    pub fn to_json(&self) -> Vec<u8> {
        #[derive(Serialize)]
        struct Head<'a> {
            variant: VariantId,
            #[serde(flatten)]
            position: &'a PositionSummary,
        }
        let head = Head {
            variant: self.variant,
            position: &self.position,
        };
        let mut out = Vec::with_capacity(1024 + 128 * self.legal_moves.len());
        serde_json::to_writer(&mut out, &head).expect("a position summary is always JSON");
        // `{…}` without its closing brace, and the list after it.
        out.pop();
        out.extend_from_slice(b",\"legal_moves\":");
        write_legal_moves(&mut out, &self.legal_moves);
        out.push(b'}');
        out
    }
}

/// The legal moves of a position, with the game's status.
///
/// The position is `fen` (default: the start position) after `moves`. Every
/// move of the record is checked; the first illegal one is a 422 naming its
/// index. When the game has ended, `legal_moves` is empty and the status says why.
#[utoipa::path(
    tag = "rules",
    params(VariantPath),
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
    path: web::Path<VariantPath>,
    body: Body<PositionRequest>,
) -> Result<HttpResponse, ApiError> {
    let answer = path.variant.visit(LegalMoves(body.0))?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(answer.to_json()))
}

/// `POST …/legal-moves`.
pub struct LegalMoves(pub PositionRequest);

impl Visitor for LegalMoves {
    type Output = Result<LegalMovesResponse, ApiError>;
    fn visit<V: Playable>(self) -> Self::Output {
        guarded(|| {
            let r = game_of::<V>(&self.0)?;
            let mut moves = Vec::new();
            r.game.current().legal_moves(&mut moves);
            let outcome: Outcome = r.game.verdict(!moves.is_empty()).into();
            if !outcome.is_ongoing() {
                moves.clear();
            }
            Ok(LegalMovesResponse {
                variant: V::ID,
                position: summary(&r.game, &outcome, r.record.as_ref(), r.notation),
                legal_moves: legal_moves_of(&r.game, &moves, r.notation),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::responses::{RepetitionMark, Written};
    use crate::api::wire::MoverOutcome;
    use crate::variants::Reason;

    fn answer(variant: VariantId, request: serde_json::Value) -> LegalMovesResponse {
        let request: PositionRequest = serde_json::from_value(request).unwrap();
        variant.visit(LegalMoves(request)).unwrap()
    }

    /// The answer's own JSON writer gives serde's bytes: every notation,
    /// Taxi's costs, a repetition mark, an ended game, and strings that
    /// need escapes.
    #[test]
    fn the_answer_is_the_json_serde_writes() {
        let mut answers = vec![
            answer(VariantId::Xiangqi, serde_json::json!({})),
            answer(
                VariantId::Xiangqi,
                serde_json::json!({"moves": ["炮二平五", "马８进７"], "notation": "chinese"}),
            ),
            answer(
                VariantId::Xiangqi,
                serde_json::json!({
                    "fen": "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
                    "moves": ["a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"]
                }),
            ),
            answer(
                VariantId::Xiangqi,
                serde_json::json!({
                    "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]
                }),
            ),
            answer(
                VariantId::Taxi,
                serde_json::json!({"moves": ["e2e4", "e7e5"]}),
            ),
            answer(VariantId::Tamerlane, serde_json::json!({})),
        ];
        assert!(answers[2]
            .legal_moves
            .iter()
            .any(|m| m.repetition.is_some()));
        assert!(answers[3].legal_moves.is_empty());
        assert!(answers[4].legal_moves.iter().all(|m| m.cost.is_some()));
        answers[0].legal_moves.push(LegalMove {
            mv: "a\"b\\c\u{1}d\u{7f}é车/".to_owned(),
            written: Written(vec![(NotationName::Wxf, "\n\t\"".to_owned())]),
            cost: Some(u32::MAX),
            capture: true,
            check: true,
            forbidden_repetition: true,
            repetition: Some(RepetitionMark {
                outcome: MoverOutcome::Loss,
                reason: Reason::PerpetualCheck,
            }),
        });
        for a in &answers {
            assert_eq!(
                String::from_utf8(a.to_json()).unwrap(),
                serde_json::to_string(a).unwrap()
            );
        }
    }
}
