//! Handlers: read the request, call the rules core, shape the answer.

use std::sync::Arc;
use std::time::Duration;

use actix_web::{web, HttpRequest, HttpResponse};

use super::engine::{EnginePool, Peer, StopOnDrop};
use super::error::{ApiError, BodyErrors, Problem, ProblemDetails};
use super::types::*;
use crate::diagram::{Draw, Options as DiagramOptions};
use crate::search::{self, Control, Evaluate, Limits, Score};
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

/// The game a request describes, and the notation its moves are written in.
fn game_of<V: Variant>(req: &impl PositionFields) -> Result<(Game<V>, V::Notation), ApiError> {
    let notation = notation::<V>(req.notation())?;
    let game = replay::<V>(
        req.fen(),
        req.balances(),
        req.moves(),
        req.rules(),
        notation,
    )?;
    Ok((game, notation))
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
    let (game, notation) = game_of::<V>(&req)?;
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
    let (mut game, notation) = game_of::<V>(&req)?;
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
    let (game, _) = game_of::<V>(&req)?;
    let outcome = game.outcome();
    Ok(AdjudicateResponse {
        variant: V::ID.as_str().to_owned(),
        position: summary(&game, &outcome),
    })
}

/// Reads a request's search limits against the server's caps.
fn search_limits(
    req: &AnalyzeRequest,
    config: &super::engine::EngineConfig,
) -> Result<(Limits, AppliedLimits), ApiError> {
    let bad = |field: &str, message: String| {
        ApiError::new(Problem::InvalidLimits, format!("{field}: {message}")).field(field)
    };
    if let Some(d) = req.depth {
        if d == 0 || d > config.max_depth {
            return Err(bad(
                "depth",
                format!("{d} is out of range; use 1 to {}", config.max_depth),
            ));
        }
    }
    let max_ms = config.max_movetime.as_millis() as u64;
    if let Some(t) = req.movetime_ms {
        if t == 0 || t > max_ms {
            return Err(bad(
                "movetime_ms",
                format!("{t} is out of range; use 1 to {max_ms}"),
            ));
        }
    }
    if let Some(n) = req.nodes {
        if n == 0 || n > config.max_nodes {
            return Err(bad(
                "nodes",
                format!("{n} is out of range; use 1 to {}", config.max_nodes),
            ));
        }
    }
    let multipv = req.multipv.unwrap_or(1);
    if !(1..=5).contains(&multipv) {
        return Err(bad(
            "multipv",
            format!("{multipv} is out of range; use 1 to 5"),
        ));
    }
    let unlimited = req.depth.is_none() && req.movetime_ms.is_none() && req.nodes.is_none();
    // Time always has a bound: the request's, the default, or the cap.
    let movetime = match (req.movetime_ms, unlimited) {
        (Some(t), _) => Duration::from_millis(t),
        (None, true) => config.default_movetime.min(config.max_movetime),
        (None, false) => config.max_movetime,
    };
    let depth = req.depth.unwrap_or(config.max_depth);
    let nodes = req.nodes;
    Ok((
        Limits {
            depth: Some(depth),
            movetime: Some(movetime),
            nodes,
            multipv,
        },
        AppliedLimits {
            depth,
            movetime_ms: movetime.as_millis() as u64,
            nodes,
            multipv,
        },
    ))
}

fn score_doc(score: Score) -> ScoreDoc {
    match score {
        Score::Cp(v) => ScoreDoc {
            cp: Some(v),
            mate: None,
        },
        Score::Mate(n) => ScoreDoc {
            cp: None,
            mate: Some(n),
        },
    }
}

async fn analyze_for<V: Evaluate>(
    req: AnalyzeRequest,
    pool: Arc<EnginePool>,
    peer: Option<Arc<Peer>>,
) -> Result<AnalyzeResponse, ApiError> {
    let (game, notation, limits, applied, summary) = guarded(|| {
        let (game, notation) = game_of::<V>(&req)?;
        let (limits, applied) = search_limits(&req, &pool.config)?;
        let outcome = game.outcome();
        if !outcome.is_ongoing() {
            return Err(ApiError::new(
                Problem::GameEnded,
                format!(
                    "the game is over ({}): {}",
                    outcome.result(),
                    outcome.explanation()
                ),
            )
            .with("result", outcome.result()));
        }
        let summary = summary(&game, &outcome);
        Ok((game, notation, limits, applied, summary))
    })?;
    if pool.is_cut() {
        return Err(ApiError::new(
            Problem::EngineBusy,
            "the server is shutting down; retry on another instance",
        ));
    }
    let permit = pool.try_acquire().ok_or_else(|| {
        ApiError::new(
            Problem::EngineBusy,
            format!(
                "all {} search threads are busy; retry in a second",
                pool.config.max_searches
            ),
        )
    })?;
    let control = Control::default();
    let stop = control.stop.clone();
    let _stop_when_dropped = StopOnDrop(control.stop.clone());
    let (tx, rx) = tokio::sync::oneshot::channel();
    let entries = search::table_entries(pool.config.hash_mb);
    let worker_pool = pool.clone();
    let spawned = std::thread::Builder::new()
        .name("arbiter-search".to_owned())
        .spawn(move || {
            let result = guarded(|| {
                let found = search::search(&game, &limits, &control, entries, None);
                Ok(found.map(|r| {
                    let start = game.current();
                    AnalyzeResponse {
                        variant: V::ID.as_str().to_owned(),
                        position: summary,
                        best_move: start.move_to_string(r.best_move, notation),
                        lines: r
                            .lines
                            .iter()
                            .map(|l| AnalysisLine {
                                moves: search::line_text(start, &l.moves, notation),
                                score: score_doc(l.score),
                                depth: l.depth,
                            })
                            .collect(),
                        depth: r.depth,
                        nodes: r.nodes,
                        nps: r.nps(),
                        time_ms: r.elapsed.as_millis() as u64,
                        limits: applied,
                    }
                }))
            });
            worker_pool.record(&control);
            // Free the slot before answering, so the client's next search
            // finds it free.
            drop(permit);
            let _ = tx.send(result);
        });
    if spawned.is_err() {
        return Err(ApiError::new(
            Problem::EngineBusy,
            "no search thread could be started; retry in a second",
        ));
    }
    // Wait for the search, looking every 100 ms whether the client is gone.
    let mut rx = rx;
    let answer = loop {
        match actix_web::rt::time::timeout(Duration::from_millis(100), &mut rx).await {
            Ok(answer) => break answer,
            Err(_) => {
                if peer.as_ref().is_some_and(|p| p.is_gone()) {
                    tracing::info!("client disconnected: search stopped");
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                if pool.is_cut() {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }
    };
    match answer {
        Ok(Ok(Some(response))) => Ok(response),
        Ok(Ok(None)) => Err(ApiError::new(
            Problem::GameEnded,
            "the side to move has no legal move",
        )),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ApiError::new(
            Problem::Internal,
            "the search ended without an answer; the failure has been logged",
        )),
    }
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
        BodyErrors
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
        BodyErrors
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
        BodyErrors
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

/// What an engine would play: the best move and lines with scores.
///
/// The search obeys the variant's results: stalemate wins in Xiangqi and
/// Tamerlane chess, citadel entry draws, and in Xiangqi a perpetual check or
/// chase loses (the request's `moves` count as history). Scores are from the
/// side to move. Set at most how deep (`depth`), how long (`movetime_ms`) or
/// how many nodes (`nodes`) to search; the first limit reached ends it. With
/// none, the server's default time applies; every search is bounded by the
/// server's caps. When every search thread is busy the answer is 503
/// `engine_busy` with `Retry-After`, at once. A client that disconnects stops
/// its search.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/analyze",
    tag = "engine",
    params(("variant" = String, Path, description = "The variant: `xiangqi`, `taxi` or `tamerlane`", example = "xiangqi")),
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
        ("taxi: start" = (summary = "Taxi chess (set the path to taxi): 200 ms, SAN", value = json!({
            "movetime_ms": 200,
            "notation": "san"
        }))),
        ("tamerlane: start" = (summary = "Tamerlane chess (path tamerlane): 50,000 nodes", value = json!({
            "nodes": 50000
        })))
    )),
    responses(
        (status = 200, description = "The engine's choice", body = AnalyzeResponse),
        BodyErrors,
        (status = 503, description = "Every search thread is busy (with `Retry-After`)", body = ProblemDetails, content_type = "application/problem+json")
    )
)]
pub async fn analyze(
    variant: web::Path<String>,
    body: web::Json<AnalyzeRequest>,
    state: web::Data<super::AppState>,
    http: HttpRequest,
) -> Result<web::Json<AnalyzeResponse>, ApiError> {
    let id = variant_id(&variant)?;
    let pool = state.engine.clone();
    let peer = http.conn_data::<Arc<Peer>>().cloned();
    let req = body.into_inner();
    let response = match id {
        VariantId::Xiangqi => analyze_for::<Xiangqi>(req, pool, peer).await,
        VariantId::Taxi => analyze_for::<Taxi>(req, pool, peer).await,
        VariantId::Tamerlane => analyze_for::<Tamerlane>(req, pool, peer).await,
    }?;
    Ok(web::Json(response))
}

fn diagram_for<V: Draw>(
    req: &impl PositionFields,
    opts: &DiagramOptions,
) -> Result<String, ApiError> {
    let (game, _) = game_of::<V>(req)?;
    Ok(V::diagram(&game, opts))
}

fn svg_response(svg: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/svg+xml")
        // The picture depends on the request alone.
        .insert_header((
            actix_web::http::header::CACHE_CONTROL,
            "public, max-age=86400",
        ))
        .body(svg)
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
        ("variant" = String, Path, description = "The variant: `xiangqi`, `taxi` or `tamerlane`", example = "xiangqi"),
        DiagramQuery
    ),
    responses(
        (status = 200, description = "The SVG", content_type = "image/svg+xml", body = String),
        (status = 404, description = "Unknown variant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 422, description = "Bad FEN, rules, notation or query, or an illegal move in `moves`", body = ProblemDetails, content_type = "application/problem+json")
    )
)]
pub async fn diagram_get(
    variant: web::Path<String>,
    query: web::Query<DiagramQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = variant_id(&variant)?;
    let q = query.into_inner();
    let moves: Vec<String> = q
        .moves
        .as_deref()
        .unwrap_or("")
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .collect();
    let rules: Option<serde_json::Value> = match q.rules.as_deref() {
        None => None,
        Some(text) => Some(serde_json::from_str(text).map_err(|e| {
            ApiError::new(
                Problem::InvalidRules,
                format!("rules: not a JSON object: {e}"),
            )
            .field("rules")
        })?),
    };
    let opts = diagram_options(q.flip, q.coordinates, q.highlight);
    let req = DiagramRequest {
        fen: q.fen,
        moves,
        rules,
        notation: q.notation,
        balances: None,
        flip: q.flip,
        coordinates: q.coordinates,
        highlight: q.highlight,
    };
    let svg = guarded(|| for_variant!(id, diagram_for(&req, &opts)))?;
    Ok(svg_response(svg))
}

/// The same picture, for a position sent as JSON.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/diagram",
    tag = "pictures",
    params(("variant" = String, Path, description = "The variant: `xiangqi`, `taxi` or `tamerlane`", example = "xiangqi")),
    request_body(content = DiagramRequest, examples(
        ("after moves" = (summary = "After two moves, last move marked", value = json!({"moves": ["h2e2", "h9g7"]}))),
        ("check, flipped" = (summary = "A check, from Black's side", value = json!({
            "fen": "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1",
            "flip": true
        }))),
        ("taxi: balances" = (summary = "Taxi chess (set the path to taxi): both balances shown", value = json!({
            "moves": ["e2e4", "e7e5", "g1f3"]
        }))),
        ("tamerlane: start" = (summary = "Tamerlane chess (path tamerlane): the board, both citadels and the legend", value = json!({})))
    )),
    responses(
        (status = 200, description = "The SVG", content_type = "image/svg+xml", body = String),
        BodyErrors
    )
)]
pub async fn diagram_post(
    variant: web::Path<String>,
    body: web::Json<DiagramRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = variant_id(&variant)?;
    let req = body.into_inner();
    let opts = diagram_options(req.flip, req.coordinates, req.highlight);
    let svg = guarded(|| for_variant!(id, diagram_for(&req, &opts)))?;
    Ok(svg_response(svg))
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

/// Prometheus metrics in the OpenMetrics text format: requests and latency
/// per route and status, searches running, queued and rejected, nodes searched.
#[utoipa::path(get, path = "/metrics", tag = "operations", responses(
    (status = 200, description = "The metrics", content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8", body = String)
))]
pub async fn metrics(state: web::Data<super::AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .body(state.metrics.render())
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
