//! `POST /v1/variants/{variant}/validate`: whether one move is legal in a
//! position, and why not.

use actix_web::{post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::answers::{legal_moves_of, summary};
use crate::api::error::{guarded, ApiError, BodyErrors, Problem, VariantError};
use crate::api::extract::{Body, VariantPath};
use crate::api::replay::{game_of, refusal, Replayed};
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::responses::{LegalMove, PositionSummary};
use crate::api::wire::{Balances, Moves};
use crate::dispatch::{Playable, Visitor};
use crate::variants::{NotationName, Outcome, Refusal, VariantId};

game_request! {
    /// A position and one more move to check.
    #[schema(example = json!({
        "moves": ["h2e2", "h9g7"],
        "move": "b0c2"
    }))]
    pub struct ValidateRequest {
        /// The move to check, in the position after `moves`.
        #[serde(rename = "move")]
        pub mv: String,
    }
}

/// Whether one move is legal, and why not.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "legal": false,
    "move": "b0c2",
    "reason": "the horse's leg at b1 is blocked",
    "reason_code": "blocked"
}))]
pub struct ValidateResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// Whether the move is legal.
    pub legal: bool,
    /// The move as sent.
    #[serde(rename = "move")]
    pub mv: String,
    /// Why the move is illegal, for a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the move is illegal, as a stable code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<Refusal>,
    /// When the move is illegal as written but legal in another notation of
    /// the variant: that notation (send it as `notation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation_hint: Option<NotationName>,
    /// The move in every notation, when legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<LegalMove>,
    /// The position after the move, when legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_after: Option<PositionSummary>,
}

/// Whether one move is legal in a position, and why not.
///
/// A well-formed move answers 200: `legal: true` with the position after it,
/// or `legal: false` with a `reason` and a stable `reason_code`. A move that
/// cannot be read at all is a 422.
#[utoipa::path(
    tag = "rules",
    params(VariantPath),
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
    path: web::Path<VariantPath>,
    body: Body<ValidateRequest>,
) -> Result<web::Json<ValidateResponse>, ApiError> {
    Ok(web::Json(path.variant.visit(Validate(body.0))?))
}

/// `POST …/validate`.
pub struct Validate(pub ValidateRequest);

impl Visitor for Validate {
    type Output = Result<ValidateResponse, ApiError>;
    fn visit<V: Playable>(self) -> Self::Output {
        guarded(|| {
            let req = self.0;
            let Replayed {
                mut game,
                notation,
                record,
                ..
            } = game_of::<V>(&req)?;
            let refuse =
                |reason: String, code: Refusal, hint: Option<NotationName>| ValidateResponse {
                    variant: V::ID,
                    legal: false,
                    mv: req.mv.clone(),
                    reason: Some(reason),
                    reason_code: Some(code),
                    notation_hint: hint,
                    details: None,
                    position_after: None,
                };
            let outcome = game.outcome();
            if let Outcome::Ended(v) = &outcome {
                return Ok(refuse(
                    format!(
                        "the game is over ({}): {}",
                        outcome.result(),
                        V::explain(&game, v)
                    ),
                    Refusal::GameOver,
                    None,
                ));
            }
            match game.current().parse_move(&req.mv, notation) {
                Ok(mv) => {
                    let details = legal_moves_of(&game, &[mv], notation).pop();
                    game.play(mv);
                    let after = game.outcome();
                    Ok(ValidateResponse {
                        variant: V::ID,
                        legal: true,
                        mv: req.mv.clone(),
                        reason: None,
                        reason_code: None,
                        notation_hint: None,
                        details,
                        position_after: Some(summary(&game, &after, record.as_ref(), notation)),
                    })
                }
                Err(e) => {
                    let (message, hint) = refusal(game.current(), &e, &req.mv, notation);
                    if e.is_syntax() {
                        let mut err =
                            ApiError::new(Problem::InvalidMove, format!("move: {message}"))
                                .field("move");
                        err.reason_code = Some(e.code());
                        err.notation_hint = hint;
                        Err(err)
                    } else {
                        Ok(refuse(message, e.code(), hint))
                    }
                }
            }
        })
    }
}
