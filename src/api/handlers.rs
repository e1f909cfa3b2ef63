//! Handlers: read the request, call the rules core, shape the answer.

use std::sync::Arc;
use std::time::Duration;

use actix_web::{post, route, web, HttpRequest, HttpResponse};

use super::engine::{EnginePool, Peer, StopOnDrop};
use super::error::{
    hint_sentence, ApiError, BodyErrors, BusyError, Problem, QueryErrors, VariantError,
};
use super::extract::{notation_of, read_query, rule_options, rules_of, Body};
use super::types::*;
use crate::diagram::{Draw, Options as DiagramOptions};
use crate::search::{self, Control, Evaluate, Limits, Score};
use crate::variants::tamerlane::Tamerlane;
use crate::variants::taxi::Taxi;
use crate::variants::xiangqi::Xiangqi;
use crate::variants::{
    Color, Conduct, Game, NotationName, Outcome, PlayError, Reason, Refusal, SetupError, Variant,
    VariantId,
};

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

fn details<V: Variant>() -> VariantDetails {
    let info = V::info();
    VariantDetails {
        id: info.id,
        name: info.name.to_owned(),
        description: info.description.to_owned(),
        files: info.files,
        ranks: info.ranks,
        start_fen: info.start_fen.to_owned(),
        sides: vec![Side::of(V::ID, Color::White), Side::of(V::ID, Color::Black)],
        notations: info
            .notations
            .into_iter()
            .map(|n| NotationDoc {
                name: n.name,
                aliases: n.aliases.to_vec(),
                description: n.description.to_owned(),
                example: n.example.to_owned(),
            })
            .collect(),
        rule_options: rule_options::<V>()
            .into_iter()
            .map(|o| RuleOption {
                r#type: o.kind,
                values: (!o.values.is_empty()).then(|| o.values.clone()),
                name: o.name,
                default: o.default,
                description: o.description,
            })
            .collect(),
    }
}

/// Another notation of the variant in which `text` is a legal move here.
fn notation_hint<V: Variant>(pos: &V, text: &str, used: V::Notation) -> Option<NotationName> {
    V::info().notations.iter().map(|n| n.name).find(|&name| {
        V::notation(name).is_some_and(|other| {
            std::mem::discriminant(&other) != std::mem::discriminant(&used)
                && pos.parse_move(text, other).is_ok()
        })
    })
}

/// How a request's record may end.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Record {
    /// Every move before the end of the game (legal-moves, validate, analyze).
    ToTheEnd,
    /// Moves after the end are accepted and checked (adjudicate).
    PastTheEnd,
}

/// Builds the game of a request: rules, start position, and every move
/// checked. Also returns how many moves followed the end of the game.
fn replay<V: Variant>(
    req: &impl PositionFields,
    notation: V::Notation,
    record: Record,
) -> Result<(Game<V>, usize), ApiError> {
    let moves = req.moves();
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
    let rules = rules_of::<V>(req.rules())?;
    let balances = req.balances().map(|b| [b.white, b.black]);
    let start = V::setup(req.fen(), &rules, balances).map_err(|e| match e {
        SetupError::Fen(e) => ApiError::invalid_fen(e),
        SetupError::Balances(e) => {
            ApiError::new(Problem::InvalidBalances, format!("balances: {e}")).field("balances")
        }
    })?;
    let mut game = Game::<V>::new(start, rules);
    let played = match record {
        Record::ToTheEnd => game.play_all(moves, notation).map(|()| 0),
        Record::PastTheEnd => game.play_past_end(moves, notation),
    };
    played
        .map_err(|e| {
            let hint = match &e {
                PlayError::Illegal { index, text, .. } => {
                    // The board the move was refused on (past the end, the game
                    // stopped earlier).
                    let mut board = game.current().clone();
                    for t in &moves[game.moves().len()..*index] {
                        if let Ok(m) = board.parse_move(t, notation) {
                            board.make_move(m);
                        }
                    }
                    notation_hint(&board, text, notation)
                }
                PlayError::GameOver { .. } => None,
            };
            ApiError::from_play(e, V::ID, hint)
        })
        .map(|after_end| (game, after_end))
}

/// The game a request describes, and the notation its moves are written in.
fn game_of<V: Variant>(req: &impl PositionFields) -> Result<(Game<V>, V::Notation), ApiError> {
    let notation = notation_of::<V>(req.notation())?;
    let (game, _) = replay::<V>(req, notation, Record::ToTheEnd)?;
    Ok((game, notation))
}

fn status(variant: VariantId, outcome: &Outcome, claimable: Vec<(Reason, String)>) -> GameStatus {
    let side = |c: Color| Side::of(variant, c);
    GameStatus {
        status: match outcome {
            Outcome::Ongoing => Status::Ongoing,
            Outcome::Decisive { .. } => Status::Decisive,
            Outcome::Drawn { .. } => Status::Drawn,
        },
        result: outcome.result(),
        winner: outcome.winner().map(side),
        reason: outcome.reason(),
        explanation: outcome.explanation().to_owned(),
        claimable_draws: claimable
            .into_iter()
            .map(|(reason, explanation)| ClaimableDraw {
                reason,
                explanation,
            })
            .collect(),
        repetition: outcome.repetition().map(|r| RepetitionDoc {
            occurrences: r.occurrences.clone(),
            cycle: PlyRange {
                from_ply: r.cycle.0,
                to_ply: r.cycle.1,
            },
            in_breach: r.in_breach.map(side),
            sides: [Color::White, Color::Black]
                .into_iter()
                .zip(&r.conduct)
                .map(|(c, conduct)| SideConduct {
                    side: side(c),
                    conduct: match conduct {
                        Conduct::PerpetualCheck => ConductCode::PerpetualCheck,
                        Conduct::PerpetualChase { .. } => ConductCode::PerpetualChase,
                        Conduct::Allowed => ConductCode::Allowed,
                    },
                    chased: match conduct {
                        Conduct::PerpetualChase { chased } => chased
                            .iter()
                            .map(|p| ChasedPiece {
                                square: p.square.clone(),
                                piece: p.piece.clone(),
                            })
                            .collect(),
                        _ => Vec::new(),
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
        side_to_move: Side::of(V::ID, pos.side_to_move()),
        in_check: pos.in_check(),
        plies: game.moves().len(),
        balances: pos
            .balances()
            .map(|[white, black]| Balances { white, black }),
        status: status(
            V::ID,
            outcome,
            if outcome.is_ongoing() {
                V::claimable_draws(game)
            } else {
                Vec::new()
            },
        ),
        warnings: game.positions()[0]
            .warnings()
            .into_iter()
            .map(|w| WarningDoc {
                code: w.code,
                message: w.message,
            })
            .collect(),
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
                Some(w) if w == mover => MoverOutcome::Win,
                Some(_) => MoverOutcome::Loss,
                None => MoverOutcome::Draw,
            },
            reason: o.reason()?,
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
        forbidden_repetition: repetition
            .as_ref()
            .is_some_and(|r| r.outcome == MoverOutcome::Loss),
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
        variant: V::ID,
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
    let refuse = |reason: String, code: Refusal, hint: Option<NotationName>| ValidateResponse {
        variant: V::ID,
        legal: false,
        mv: req.mv.clone(),
        reason: Some(reason),
        reason_code: Some(code),
        notation_hint: hint,
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
            Refusal::GameOver,
            None,
        ));
    }
    match game.current().parse_move(&req.mv, notation) {
        Ok(mv) => {
            let details = legal_move(&game, mv, notation);
            game.play(mv);
            let after = game.outcome();
            Ok(ValidateResponse {
                variant: V::ID,
                legal: true,
                mv: req.mv.clone(),
                reason: None,
                reason_code: None,
                notation_hint: None,
                details: Some(details),
                position_after: Some(summary(&game, &after)),
            })
        }
        Err(e) => {
            let hint = notation_hint(game.current(), &req.mv, notation);
            let message = format!("{}{}", e.message, hint_sentence(&req.mv, hint));
            if e.is_syntax() {
                let mut err =
                    ApiError::new(Problem::InvalidMove, format!("move: {message}")).field("move");
                err.reason_code = Some(e.code);
                err.notation_hint = hint;
                Err(err)
            } else {
                Ok(refuse(message, e.code, hint))
            }
        }
    }
}

fn adjudicate_for<V: Variant>(req: PositionRequest) -> Result<AdjudicateResponse, ApiError> {
    let notation = notation_of::<V>(req.notation())?;
    let (game, moves_after_end) = replay::<V>(&req, notation, Record::PastTheEnd)?;
    let outcome = game.outcome();
    Ok(AdjudicateResponse {
        variant: V::ID,
        ended_at_ply: (!outcome.is_ongoing()).then(|| game.moves().len()),
        moves_after_end,
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
            .game(V::ID, &outcome));
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
                        variant: V::ID,
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
#[route("/v1/variants", method = "GET", method = "HEAD")]
pub async fn list_variants() -> web::Json<VariantList> {
    web::Json(VariantList {
        variants: VariantId::ALL
            .iter()
            .map(|&id| for_variant!(id, details()))
            .collect(),
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
    let id = variant.into_inner();
    Ok(web::Json(for_variant!(id, details())))
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
        })))
    )),
    responses(
        (status = 200, description = "The position and its legal moves", body = LegalMovesResponse),
        BodyErrors
    )
)]
#[post("/v1/variants/{variant}/legal-moves")]
pub async fn legal_moves(
    variant: web::Path<VariantId>,
    body: Body<PositionRequest>,
) -> Result<web::Json<LegalMovesResponse>, ApiError> {
    let id = variant.into_inner();
    Ok(web::Json(guarded(|| {
        for_variant!(id, legal_moves_for(body.0))
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
        })))
    )),
    responses(
        (status = 200, description = "The verdict on the move", body = ValidateResponse),
        BodyErrors
    )
)]
#[post("/v1/variants/{variant}/validate")]
pub async fn validate(
    variant: web::Path<VariantId>,
    body: Body<ValidateRequest>,
) -> Result<web::Json<ValidateResponse>, ApiError> {
    let id = variant.into_inner();
    Ok(web::Json(guarded(|| {
        for_variant!(id, validate_for(body.0))
    })?))
}

/// The result of a game: ongoing, decisive or drawn, with the reason.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/adjudicate",
    tag = "rules",
    params(("variant" = VariantId, Path, description = "The variant", example = "xiangqi")),
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
        ("perpetual check" = (summary = "Red checks with every move of the repetition and loses", value = json!({
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
#[post("/v1/variants/{variant}/adjudicate")]
pub async fn adjudicate(
    variant: web::Path<VariantId>,
    body: Body<PositionRequest>,
) -> Result<web::Json<AdjudicateResponse>, ApiError> {
    let id = variant.into_inner();
    Ok(web::Json(guarded(|| {
        for_variant!(id, adjudicate_for(body.0))
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
        BusyError
    )
)]
#[post("/v1/variants/{variant}/analyze")]
pub async fn analyze(
    variant: web::Path<VariantId>,
    body: Body<AnalyzeRequest>,
    state: web::Data<super::AppState>,
    http: HttpRequest,
) -> Result<web::Json<AnalyzeResponse>, ApiError> {
    let id = variant.into_inner();
    let pool = state.engine.clone();
    let peer = http.conn_data::<Arc<Peer>>().cloned();
    let req = body.0;
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
        ("variant" = VariantId, Path, description = "The variant", example = "xiangqi"),
        DiagramQuery
    ),
    responses(
        (status = 200, description = "The SVG", content_type = "image/svg+xml", body = String),
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
        moves: Moves(q.moves.unwrap_or_default()),
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
        ("tamerlane: start" = (summary = "Tamerlane chess (path tamerlane): the board, both citadels and the legend", value = json!({})))
    )),
    responses(
        (status = 200, description = "The SVG", content_type = "image/svg+xml", body = String),
        BodyErrors
    )
)]
#[post("/v1/variants/{variant}/diagram")]
pub async fn diagram_post(
    variant: web::Path<VariantId>,
    body: Body<DiagramRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = variant.into_inner();
    let req = body.0;
    let opts = diagram_options(req.flip, req.coordinates, req.highlight);
    let svg = guarded(|| for_variant!(id, diagram_for(&req, &opts)))?;
    Ok(svg_response(svg))
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
pub async fn readyz(state: web::Data<super::AppState>) -> HttpResponse {
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

/// Prometheus metrics in the OpenMetrics text format: requests and latency
/// per route and status, searches running, queued and rejected, nodes searched.
#[utoipa::path(get, path = "/metrics", tag = "operations", responses(
    (status = 200, description = "The metrics", content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8", body = String)
))]
#[route("/metrics", method = "GET", method = "HEAD")]
pub async fn metrics(state: web::Data<super::AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .body(state.metrics.render())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_problem() {
        let err = guarded::<()>(|| panic!("a bug")).unwrap_err();
        assert_eq!(err.problem(), Problem::Internal);
        assert_eq!(err.body().status, 500);
        assert_eq!(err.body().code.code(), "internal");
        assert_eq!(guarded(|| Ok::<_, ApiError>(7)).unwrap(), 7);
    }
}
