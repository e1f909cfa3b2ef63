//! Handlers: read the request, call the rules core, shape the answer.

use actix_web::{web, HttpRequest, HttpResponse};

use super::error::{ApiError, Problem, ProblemDetails};
use super::types::*;
use crate::variants::tamerlane::Tamerlane;
use crate::variants::taxi::Taxi;
use crate::variants::xiangqi::Xiangqi;
use crate::variants::{Conduct, Game, Outcome, SetupError, Variant, VariantId, VariantInfo};

/// The longest `moves` record a request may carry.
pub const MAX_MOVES: usize = 10_000;

/// Runs a generic function for the variant named in the path.
macro_rules! for_variant {
    ($id:expr, $f:ident ( $($arg:expr),* )) => {
        match $id {
            VariantId::Xiangqi => $f::<Xiangqi>($($arg),*),
            VariantId::Taxi => $f::<Taxi>($($arg),*),
            VariantId::Tamerlane => $f::<Tamerlane>($($arg),*),
        }
    };
}

/// Runs a request's work, turning a panic (a bug: the tests hunt for them)
/// into a logged 500 problem instead of a dropped connection.
fn guarded<T>(work: impl FnOnce() -> Result<T, ApiError>) -> Result<T, ApiError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        tracing::error!(panic = %what, "a request panicked");
        Err(ApiError::new(
            Problem::Internal,
            "the service failed on this request; the failure has been logged",
        ))
    })
}

fn variant_id(name: &str) -> Result<VariantId, ApiError> {
    VariantId::parse(name).ok_or_else(|| {
        let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
        ApiError::unknown_variant(name, &known)
    })
}

fn details(info: VariantInfo) -> VariantDetails {
    VariantDetails {
        id: info.id.as_str().to_owned(),
        name: info.name.to_owned(),
        description: info.description.to_owned(),
        files: info.files,
        ranks: info.ranks,
        start_fen: info.start_fen.to_owned(),
        sides: info.sides.iter().map(|s| (*s).to_owned()).collect(),
        notations: info
            .notations
            .into_iter()
            .map(|n| NotationDoc {
                name: n.name.to_owned(),
                description: n.description.to_owned(),
                example: n.example.to_owned(),
            })
            .collect(),
        rule_options: info
            .rule_options
            .into_iter()
            .map(|o| RuleOption {
                name: o.name.to_owned(),
                r#type: o.kind.to_owned(),
                default: o.default,
                description: o.description.to_owned(),
            })
            .collect(),
    }
}

fn variant_details<V: Variant>() -> VariantDetails {
    details(V::info())
}

fn notation<V: Variant>(name: Option<&str>) -> Result<V::Notation, ApiError> {
    match name {
        None => Ok(V::Notation::default()),
        Some(n) => V::parse_notation(n).ok_or_else(|| {
            let known: Vec<&str> = V::info().notations.iter().map(|n| n.name).collect();
            ApiError::new(
                Problem::InvalidNotation,
                format!(
                    "notation: '{n}' is not a notation of {}; use one of: {}",
                    V::ID,
                    known.join(", ")
                ),
            )
            .field("notation")
        }),
    }
}

/// Builds the game of a request: rules, start position, and every move checked.
fn replay<V: Variant>(
    fen: Option<&str>,
    balances: Option<&Balances>,
    moves: &[String],
    rules: Option<&serde_json::Value>,
    notation: V::Notation,
) -> Result<Game<V>, ApiError> {
    if moves.len() > MAX_MOVES {
        return Err(ApiError::new(
            Problem::TooManyMoves,
            format!(
                "moves: {} moves were sent; at most {MAX_MOVES} are accepted",
                moves.len()
            ),
        )
        .field("moves"));
    }
    let rules = V::parse_rules(rules).map_err(ApiError::invalid_rules)?;
    let start =
        V::setup(fen, &rules, balances.map(|b| [b.white, b.black])).map_err(|e| match e {
            SetupError::Fen(e) => ApiError::invalid_fen(e),
            SetupError::Balances(e) => {
                ApiError::new(Problem::InvalidBalances, format!("balances: {e}")).field("balances")
            }
        })?;
    let mut game = Game::<V>::new(start, rules);
    game.play_all(moves, notation)
        .map_err(|e| ApiError::from_play(e, V::SIDES))?;
    Ok(game)
}

fn status(
    outcome: &Outcome,
    claimable: Vec<(crate::variants::Reason, String)>,
    sides: [&str; 2],
) -> GameStatus {
    GameStatus {
        status: match outcome {
            Outcome::Ongoing => "ongoing",
            Outcome::Decisive { .. } => "decisive",
            Outcome::Drawn { .. } => "drawn",
        }
        .to_owned(),
        result: outcome.result().to_owned(),
        winner: outcome.winner().map(|c| sides[c.index()].to_owned()),
        reason: outcome.reason().map(|r| r.code().to_owned()),
        explanation: outcome.explanation().to_owned(),
        claimable_draws: claimable
            .into_iter()
            .map(|(reason, explanation)| ClaimableDraw {
                reason: reason.code().to_owned(),
                explanation,
            })
            .collect(),
        repetition: outcome.repetition().map(|r| RepetitionDoc {
            occurrences: r.occurrences.clone(),
            cycle: PlyRange {
                from_ply: r.cycle.0,
                to_ply: r.cycle.1,
            },
            in_breach: r.in_breach.map(|c| sides[c.index()].to_owned()),
            sides: r
                .conduct
                .iter()
                .enumerate()
                .map(|(i, c)| SideConduct {
                    side: sides[i].to_owned(),
                    conduct: c.code().to_owned(),
                    chased: match c {
                        Conduct::PerpetualChase { square, piece } => Some(ChasedPiece {
                            square: square.clone(),
                            piece: piece.clone(),
                        }),
                        _ => None,
                    },
                })
                .collect(),
        }),
    }
}

fn summary<V: Variant>(game: &Game<V>, outcome: &Outcome) -> PositionSummary {
    let pos = game.current();
    PositionSummary {
        fen: pos.to_fen(),
        side_to_move: V::SIDES[pos.side_to_move().index()].to_owned(),
        in_check: pos.in_check(),
        plies: game.moves().len(),
        balances: pos
            .balances()
            .map(|[white, black]| Balances { white, black }),
        status: status(
            outcome,
            if outcome.is_ongoing() {
                V::claimable_draws(game)
            } else {
                Vec::new()
            },
            V::SIDES,
        ),
    }
}

fn legal_move<V: Variant>(game: &Game<V>, mv: V::Move, notation: V::Notation) -> LegalMove {
    let pos = game.current();
    let d = pos.describe_move(mv, notation);
    let verdict = V::history_verdict_after(game, mv);
    let mover = pos.side_to_move();
    let repetition = verdict.as_ref().and_then(|o| {
        Some(RepetitionMark {
            outcome: match o.winner() {
                Some(w) if w == mover => "win",
                Some(_) => "loss",
                None => "draw",
            }
            .to_owned(),
            reason: o.reason()?.code().to_owned(),
        })
    });
    let mut out = LegalMove {
        mv: d.wire,
        iccs: None,
        fairy: None,
        wxf: None,
        chinese: None,
        uci: None,
        san: None,
        cost: d.cost,
        capture: d.capture,
        check: d.gives_check,
        forbidden_repetition: repetition.as_ref().is_some_and(|r| r.outcome == "loss"),
        repetition,
    };
    for (name, text) in d.others {
        match name {
            "iccs" => out.iccs = Some(text),
            "fairy" => out.fairy = Some(text),
            "wxf" => out.wxf = Some(text),
            "chinese" => out.chinese = Some(text),
            "uci" => out.uci = Some(text),
            "san" => out.san = Some(text),
            _ => {}
        }
    }
    out
}

fn legal_moves_for<V: Variant>(req: PositionRequest) -> Result<LegalMovesResponse, ApiError> {
    let notation = notation::<V>(req.notation.as_deref())?;
    let game = replay::<V>(
        req.fen.as_deref(),
        req.balances.as_ref(),
        &req.moves,
        req.rules.as_ref(),
        notation,
    )?;
    let pos = game.current();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let outcome = V::adjudicate(&game, !moves.is_empty());
    if !outcome.is_ongoing() {
        moves.clear();
    }
    Ok(LegalMovesResponse {
        variant: V::ID.as_str().to_owned(),
        position: summary(&game, &outcome),
        legal_moves: moves
            .into_iter()
            .map(|m| legal_move(&game, m, notation))
            .collect(),
    })
}

fn validate_for<V: Variant>(req: ValidateRequest) -> Result<ValidateResponse, ApiError> {
    let notation = notation::<V>(req.notation.as_deref())?;
    let mut game = replay::<V>(
        req.fen.as_deref(),
        req.balances.as_ref(),
        &req.moves,
        req.rules.as_ref(),
        notation,
    )?;
    let outcome = game.outcome();
    let refuse = |reason: String, code: &str| ValidateResponse {
        variant: V::ID.as_str().to_owned(),
        legal: false,
        mv: req.mv.clone(),
        reason: Some(reason),
        reason_code: Some(code.to_owned()),
        details: None,
        position_after: None,
    };
    if !outcome.is_ongoing() {
        return Ok(refuse(
            format!(
                "the game is over ({}): {}",
                outcome.result(),
                outcome.explanation()
            ),
            "game_over",
        ));
    }
    match game.current().parse_move(&req.mv, notation) {
        Ok(mv) => {
            let details = legal_move(&game, mv, notation);
            game.play(mv);
            let after = game.outcome();
            Ok(ValidateResponse {
                variant: V::ID.as_str().to_owned(),
                legal: true,
                mv: req.mv.clone(),
                reason: None,
                reason_code: None,
                details: Some(details),
                position_after: Some(summary(&game, &after)),
            })
        }
        Err(e) if e.is_syntax() => {
            Err(ApiError::new(Problem::InvalidMove, format!("move: {}", e.message)).field("move"))
        }
        Err(e) => Ok(refuse(e.message, e.code)),
    }
}

fn adjudicate_for<V: Variant>(req: PositionRequest) -> Result<AdjudicateResponse, ApiError> {
    let notation = notation::<V>(req.notation.as_deref())?;
    let game = replay::<V>(
        req.fen.as_deref(),
        req.balances.as_ref(),
        &req.moves,
        req.rules.as_ref(),
        notation,
    )?;
    let outcome = game.outcome();
    Ok(AdjudicateResponse {
        variant: V::ID.as_str().to_owned(),
        position: summary(&game, &outcome),
    })
}

/// List the supported variants.
#[utoipa::path(
    get,
    path = "/v1/variants",
    tag = "variants",
    responses((status = 200, description = "Every supported variant", body = VariantList))
)]
pub async fn list_variants() -> web::Json<VariantList> {
    web::Json(VariantList {
        variants: VariantId::ALL
            .iter()
            .map(|&id| for_variant!(id, variant_details()))
            .collect(),
    })
}

/// Describe one variant: board, start position, notations and rule options.
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}",
    tag = "variants",
    params(("variant" = String, Path, description = "The variant: `xiangqi`, `taxi` or `tamerlane`", example = "xiangqi")),
    responses(
        (status = 200, description = "The variant", body = VariantDetails),
        (status = 404, description = "Unknown variant", body = ProblemDetails, content_type = "application/problem+json")
    )
)]
pub async fn get_variant(
    variant: web::Path<String>,
) -> Result<web::Json<VariantDetails>, ApiError> {
    let id = variant_id(&variant)?;
    Ok(web::Json(for_variant!(id, variant_details())))
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
    params(("variant" = String, Path, description = "The variant: `xiangqi`, `taxi` or `tamerlane`", example = "xiangqi")),
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
        })))
    )),
    responses(
        (status = 200, description = "The position and its legal moves", body = LegalMovesResponse),
        (status = 400, description = "Malformed JSON", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 413, description = "Body over 1 MiB", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 422, description = "Bad FEN, rules, notation or an illegal move in `moves`", body = ProblemDetails, content_type = "application/problem+json")
    )
)]
pub async fn legal_moves(
    variant: web::Path<String>,
    body: web::Json<PositionRequest>,
) -> Result<web::Json<LegalMovesResponse>, ApiError> {
    let id = variant_id(&variant)?;
    Ok(web::Json(guarded(|| {
        for_variant!(id, legal_moves_for(body.into_inner()))
    })?))
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
    params(("variant" = String, Path, description = "The variant: `xiangqi`, `taxi` or `tamerlane`", example = "xiangqi")),
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
        })))
    )),
    responses(
        (status = 200, description = "The verdict on the move", body = ValidateResponse),
        (status = 400, description = "Malformed JSON", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 413, description = "Body over 1 MiB", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 422, description = "Bad FEN, rules or notation, an illegal move in `moves`, or an unreadable `move`", body = ProblemDetails, content_type = "application/problem+json")
    )
)]
pub async fn validate(
    variant: web::Path<String>,
    body: web::Json<ValidateRequest>,
) -> Result<web::Json<ValidateResponse>, ApiError> {
    let id = variant_id(&variant)?;
    Ok(web::Json(guarded(|| {
        for_variant!(id, validate_for(body.into_inner()))
    })?))
}

/// The result of a game: ongoing, decisive or drawn, with the reason.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/adjudicate",
    tag = "rules",
    params(("variant" = String, Path, description = "The variant: `xiangqi`, `taxi` or `tamerlane`", example = "xiangqi")),
    request_body(content = PositionRequest, examples(
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
        ("perpetual check" = (summary = "Red checks with every move of the cycle and loses", value = json!({
            "fen": "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
            "moves": ["a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8"]
        }))),
        ("perpetual chase" = (summary = "A red cannon chases the black chariot and loses", value = json!({
            "fen": "4k4/9/r8/9/NN7/9/9/C8/9/3K5 b - - 0 1",
            "moves": ["a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2", "b7a7", "b2a2"]
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
        })))
    )),
    responses(
        (status = 200, description = "The result", body = AdjudicateResponse),
        (status = 400, description = "Malformed JSON", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 413, description = "Body over 1 MiB", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 422, description = "Bad FEN, rules or notation, or an illegal move in `moves`", body = ProblemDetails, content_type = "application/problem+json")
    )
)]
pub async fn adjudicate(
    variant: web::Path<String>,
    body: web::Json<PositionRequest>,
) -> Result<web::Json<AdjudicateResponse>, ApiError> {
    let id = variant_id(&variant)?;
    Ok(web::Json(guarded(|| {
        for_variant!(id, adjudicate_for(body.into_inner()))
    })?))
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, body = Health)))]
pub async fn healthz() -> web::Json<Health> {
    web::Json(Health {
        status: "ok".to_owned(),
    })
}

/// Readiness: the service takes requests.
#[utoipa::path(get, path = "/readyz", tag = "operations", responses((status = 200, body = Health), (status = 503, body = Health)))]
pub async fn readyz(state: web::Data<super::AppState>) -> HttpResponse {
    if state.is_ready() {
        HttpResponse::Ok().json(Health {
            status: "ready".to_owned(),
        })
    } else {
        HttpResponse::ServiceUnavailable().json(Health {
            status: "shutting_down".to_owned(),
        })
    }
}

pub async fn not_found(req: HttpRequest) -> HttpResponse {
    actix_web::ResponseError::error_response(&ApiError::new(
        Problem::NotFound,
        format!("there is no resource at {}", req.path()),
    ))
}

pub async fn method_not_allowed(req: HttpRequest) -> HttpResponse {
    actix_web::ResponseError::error_response(&ApiError::new(
        Problem::MethodNotAllowed,
        format!("{} is not allowed on {}", req.method(), req.path()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_problem() {
        let err = guarded::<()>(|| panic!("a bug")).unwrap_err();
        assert_eq!(err.problem, Problem::Internal);
        assert_eq!(err.body().status, 500);
        assert_eq!(err.body().code, "internal");
        assert_eq!(guarded(|| Ok::<_, ApiError>(7)).unwrap(), 7);
    }
}
