//! What each endpoint does, once for every variant: build the request's game,
//! ask the rules core, and shape the typed answer (words from [`super::prose`]).
//! The routes in [`super::handlers`] pick the variant with one
//! [`crate::dispatch::Visitor`] each.

use std::sync::Arc;
use std::time::Duration;

use super::engine::{EngineConfig, EnginePool, Peer, Refused, Report};
use super::error::{guarded, hint_sentence, internal, ApiError, Problem};
use super::record;
use super::requests::*;
use super::responses::*;
use super::rules::{rule_options, rules_of};
use super::wire::*;
use crate::diagram::Options as DiagramOptions;
use crate::dispatch::{Playable, Visitor};
use crate::pgn;
use crate::prose::{self, Prose};
use crate::search::{self, Limits, Score};
use crate::variants::{
    Color, Game, NotationName, Outcome, Pattern, PlayError, Refusal, RepetitionReport, SetupError,
    Variant, VariantId, Verdict, WarningCode,
};

/// The longest `moves` record a request may carry.
pub const MAX_MOVES: usize = 10_000;

/// What `GET /v1/variants/{variant}` says about a variant.
pub struct Describe;

impl Visitor for Describe {
    type Output = VariantDetails;
    fn visit<V: Playable>(self) -> VariantDetails {
        let info = V::info();
        VariantDetails {
            id: info.id,
            name: V::NAME.to_owned(),
            description: V::DESCRIPTION.to_owned(),
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
                    description: V::notation_description(n.name).to_owned(),
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
}

/// Another notation of the variant in which `text` is a legal move here.
fn notation_hint<V: Variant>(pos: &V, text: &str, used: V::Notation) -> Option<NotationName> {
    V::info().notations.iter().map(|n| n.name).find(|&name| {
        V::notation(name).is_some_and(|other| other != used && pos.parse_move(text, other).is_ok())
    })
}

/// How a request's record may end.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extent {
    /// Every move before the end of the game (legal-moves, validate, analyze).
    ToTheEnd,
    /// Moves after the end are accepted and checked (adjudicate).
    PastTheEnd,
}

/// A game over: the verdict's words and figures on a problem.
fn game_over<V: Prose>(problem: Problem, detail: String, v: &Verdict) -> ApiError {
    ApiError::new(problem, detail).game(V::ID, &Outcome::Ended(v.clone()))
}

/// A request's game, replayed.
struct Replayed<V: Variant> {
    game: Game<V>,
    /// How many moves of the record followed the end of the game.
    after_end: usize,
    /// The notation the moves were read in (and the answer's).
    notation: V::Notation,
    /// The record, when the game came as PGN.
    record: Option<pgn::Record>,
}

/// Builds the game of a request: rules, start position (from `fen` or a
/// `pgn` record), and every move checked.
fn replay<V: Prose>(req: &impl PositionFields, extent: Extent) -> Result<Replayed<V>, ApiError> {
    replay_from(record::source_of::<V>(req)?, req.rules(), extent)
}

/// Builds a game from where it comes from and its `rules`, every move
/// checked.
fn replay_from<V: Prose>(
    mut source: record::Source<'_, V>,
    rules: Option<&serde_json::Value>,
    extent: Extent,
) -> Result<Replayed<V>, ApiError> {
    let from_pgn = source.record.is_some();
    if source.moves.len() > MAX_MOVES {
        return Err(ApiError::new(
            Problem::TooManyMoves,
            format!(
                "{}: {} moves were sent; at most {MAX_MOVES} are accepted",
                if from_pgn { "pgn" } else { "moves" },
                source.moves.len()
            ),
        )
        .field(if from_pgn { "pgn" } else { "moves" }));
    }
    let rules = rules_of::<V>(rules)?;
    let start = V::setup(source.fen.as_deref(), &rules, source.balances).map_err(|e| match e {
        SetupError::Fen(e) if from_pgn => ApiError::new(
            Problem::InvalidFen,
            format!("pgn: the [FEN] tag: {}", e.message),
        )
        .field("pgn"),
        SetupError::Fen(e) => ApiError::invalid_fen(e),
        SetupError::Balances(e) => ApiError::new(
            Problem::InvalidBalances,
            format!("balances: {}", prose::balances_error::<V>(&e)),
        )
        .field(if from_pgn { "pgn" } else { "balances" }),
    })?;
    let notation = source
        .notation
        .unwrap_or_else(|| record::detect(&start, source.moves.first().map(String::as_str)));
    if let Some(r) = &mut source.record {
        source.moves = record::split_moves::<V>(r, notation).into();
    }
    let moves = &source.moves;
    let mut game = Game::<V>::new(start, rules);
    let played = match extent {
        Extent::ToTheEnd => game.play_all(moves, notation).map(|()| 0),
        Extent::PastTheEnd => game.play_past_end(moves, notation),
    };
    // How an error names a move: by index, or as the record numbers it.
    let label = |index: usize, text: &str| match &source.record {
        Some(r) => record::move_label(r, &game.positions()[0], index, text),
        None => format!("move {index} ('{text}')"),
    };
    let field = |index: usize| {
        if from_pgn {
            "pgn".to_owned()
        } else {
            format!("moves[{index}]")
        }
    };
    let after_end = played.map_err(|e| match e {
        PlayError::Illegal {
            index,
            text,
            error,
            position: board,
        } => {
            let board = *board;
            let hint = notation_hint(&board, &text, notation);
            let problem = if error.is_syntax() {
                Problem::InvalidMove
            } else {
                Problem::IllegalMove
            };
            let why = prose::move_error(&board, &error, &text, notation);
            let mut err = ApiError::new(
                problem,
                format!(
                    "{}{}: {why}{}",
                    if from_pgn { "pgn: " } else { "" },
                    label(index, &text),
                    hint_sentence(&text, hint)
                ),
            )
            .field(field(index));
            err.move_index = Some(index);
            err.reason_code = Some(error.code());
            err.notation_hint = hint;
            err.move_text = Some(text);
            err
        }
        PlayError::GameOver {
            index,
            text,
            verdict,
        } => {
            let outcome = Outcome::Ended(verdict.clone());
            let mut err = game_over::<V>(
                Problem::GameOver,
                format!(
                    "{}{} was played after the game had ended ({}): {}",
                    if from_pgn { "pgn: " } else { "" },
                    label(index, &text),
                    outcome.result(),
                    V::explain(&game, &verdict)
                ),
                &verdict,
            )
            .field(field(index));
            err.move_index = Some(index);
            err.move_text = Some(text);
            err
        }
    })?;
    Ok(Replayed {
        game,
        after_end,
        notation,
        record: source.record,
    })
}

/// The game a request describes, every move before its end.
fn game_of<V: Prose>(req: &impl PositionFields) -> Result<Replayed<V>, ApiError> {
    replay::<V>(req, Extent::ToTheEnd)
}

fn status<V: Prose>(game: &Game<V>, outcome: &Outcome) -> GameStatus {
    let side = |c: Color| Side::of(V::ID, c);
    GameStatus {
        status: match outcome {
            Outcome::Ongoing => Status::Ongoing,
            Outcome::Ended(v) if v.winner.is_some() => Status::Decisive,
            Outcome::Ended(_) => Status::Drawn,
        },
        result: outcome.result(),
        winner: outcome.winner().map(side),
        reason: outcome.reason(),
        explanation: prose::outcome(game, outcome),
        claimable_draws: if outcome.is_ongoing() {
            game.claimable_draws()
                .into_iter()
                .map(|reason| ClaimableDraw {
                    reason,
                    explanation: V::claimable(game, reason),
                })
                .collect()
        } else {
            Vec::new()
        },
        repetition: outcome.repetition().map(|r| repetition_doc(game, r)),
    }
}

/// A repetition verdict's grounds, as the answer gives them.
fn repetition_doc<V: Prose>(game: &Game<V>, r: &RepetitionReport) -> RepetitionDoc {
    let side = |c: Color| Side::of(V::ID, c);
    RepetitionDoc {
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
                conduct: match conduct.pattern {
                    Pattern::PerpetualCheck => ConductCode::PerpetualCheck,
                    Pattern::PerpetualChase => ConductCode::PerpetualChase,
                    Pattern::Allowed => ConductCode::Allowed,
                    _ => ConductCode::Forbidden,
                },
                pattern: conduct.pattern,
                term: conduct.pattern.chinese_term().to_owned(),
                natures: conduct.natures.clone(),
                chased: conduct
                    .chased
                    .iter()
                    .map(|&s| {
                        let (square, piece) = V::chased(&game.positions()[r.cycle.1], s);
                        ChasedPiece { square, piece }
                    })
                    .collect(),
                joint_chase: conduct.joint,
            })
            .collect(),
    }
}

/// The position a request's game reached: its state, the repetition
/// rulings it played past, and remarks on the request (`record`: its
/// damaged tags).
fn summary<V: Prose>(
    game: &Game<V>,
    outcome: &Outcome,
    record: Option<&pgn::Record>,
) -> PositionSummary {
    let pos = game.current();
    let start = &game.positions()[0];
    let record_warnings = record
        .into_iter()
        .flat_map(|r| &r.warnings)
        .map(|w| WarningDoc {
            code: match w {
                pgn::PgnWarning::DamagedTag { .. } => WarningCode::DamagedTag,
            },
            message: prose::pgn_warning(w),
        });
    PositionSummary {
        fen: pos.to_fen(),
        side_to_move: Side::of(V::ID, pos.side_to_move()),
        in_check: pos.in_check(),
        plies: game.moves().len(),
        balances: pos
            .balances()
            .map(|[white, black]| Balances { white, black }),
        status: status(game, outcome),
        repetition_events: game
            .repetition_events()
            .iter()
            .map(|e| {
                let ruled = Outcome::Ended(e.verdict.clone());
                RepetitionEventDoc {
                    ply: e.ply,
                    result: ruled.result(),
                    winner: e.verdict.winner.map(|c| Side::of(V::ID, c)),
                    reason: e.verdict.reason,
                    explanation: V::explain(game, &e.verdict),
                    repetition: e
                        .verdict
                        .repetition
                        .as_deref()
                        .map(|r| repetition_doc(game, r)),
                }
            })
            .collect(),
        warnings: start
            .warnings()
            .iter()
            .map(|w| WarningDoc {
                code: w.code,
                message: V::warning(start, w),
            })
            .chain(record_warnings)
            .collect(),
    }
}

/// The legal moves `moves` of the game's position, every notation and mark.
fn legal_moves_of<V: Prose>(
    game: &Game<V>,
    moves: &[V::Move],
    notation: V::Notation,
) -> Vec<LegalMove> {
    let pos = game.current();
    let mover = pos.side_to_move();
    pos.describe_moves(moves, notation)
        .into_iter()
        .zip(moves)
        .map(|(d, &mv)| {
            let repetition = game.repetition_verdict_after(mv).map(|v| RepetitionMark {
                outcome: match v.winner {
                    Some(w) if w == mover => MoverOutcome::Win,
                    Some(_) => MoverOutcome::Loss,
                    None => MoverOutcome::Draw,
                },
                reason: v.reason,
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
            for (name, text) in d.written {
                let slot = match name {
                    NotationName::Iccs | NotationName::Ucci => &mut out.iccs,
                    NotationName::Fairy => &mut out.fairy,
                    NotationName::Wxf => &mut out.wxf,
                    NotationName::Chinese => &mut out.chinese,
                    NotationName::Uci => &mut out.uci,
                    NotationName::San => &mut out.san,
                    NotationName::Coordinate => continue,
                };
                *slot = Some(text);
            }
            out
        })
        .collect()
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
                position: summary(&r.game, &outcome, r.record.as_ref()),
                legal_moves: legal_moves_of(&r.game, &moves, r.notation),
            })
        })
    }
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
                        position_after: Some(summary(&game, &after, record.as_ref())),
                    })
                }
                Err(e) => {
                    let pos = game.current();
                    let hint = notation_hint(pos, &req.mv, notation);
                    let message = format!(
                        "{}{}",
                        prose::move_error(pos, &e, &req.mv, notation),
                        hint_sentence(&req.mv, hint)
                    );
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
            // Chess's PGN speaks SAN unless the request or record says otherwise.
            let said = self.req.notation.is_some()
                || r.record
                    .as_ref()
                    .is_some_and(|rec| rec.tag("Format").is_some());
            let notation = match V::notation(NotationName::San) {
                Some(san) if !said => san,
                _ => r.notation,
            };
            let outcome = r.game.outcome();
            let comment = prose::outcome(&r.game, &outcome);
            Ok(Adjudged::Pgn(record::write(
                &r.game,
                &outcome,
                notation,
                r.record.as_ref(),
                &comment,
            )))
        })
    }
}

/// The JSON result of a replayed game.
fn adjudged<V: Prose>(r: &Replayed<V>) -> AdjudicateResponse {
    let outcome = r.game.outcome();
    let recorded = r.record.as_ref().and_then(record::recorded_result);
    AdjudicateResponse {
        variant: V::ID,
        ended_at_ply: (!outcome.is_ongoing()).then(|| r.game.moves().len()),
        moves_after_end: r.after_end,
        recorded_result: recorded,
        recorded_result_agrees: recorded.map(|g| g == outcome.result()),
        position: summary(&r.game, &outcome, r.record.as_ref()),
    }
}

/// The most games a batch may hold.
pub const MAX_BATCH: usize = 1_000;

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
            let answer = guarded(|| {
                let (source, rules) = match &item {
                    BatchItem::Game(g) => (record::source_of::<V>(g)?, g.rules.as_ref()),
                    BatchItem::Record(text) => {
                        let record = text
                            .record
                            .clone()
                            .map_err(|e| record::invalid(prose::pgn_error(&e)))?;
                        (
                            record::from_record::<V>(record, None, self.notation)?,
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
                result,
                error,
            };
            if !(self.sink)(item) {
                break;
            }
        }
    }
}

/// Reads a request's search limits against the server's caps.
fn search_limits(
    req: &AnalyzeRequest,
    config: &EngineConfig,
) -> Result<(Limits, AppliedLimits), ApiError> {
    let out_of_range = |field: &str, value: u64, max: u64| {
        ApiError::new(
            Problem::InvalidLimits,
            format!("{field}: {value} is out of range; use 1 to {max}"),
        )
        .field(field)
    };
    let max_ms = config.max_movetime.as_millis() as u64;
    for (field, value, max) in [
        (
            "depth",
            req.depth.map(u64::from),
            u64::from(config.max_depth),
        ),
        ("movetime_ms", req.movetime_ms, max_ms),
        ("nodes", req.nodes, config.max_nodes),
        ("multipv", req.multipv.map(|m| m as u64), 5),
    ] {
        if let Some(v) = value.filter(|&v| v == 0 || v > max) {
            return Err(out_of_range(field, v, max));
        }
    }
    let multipv = req.multipv.unwrap_or(1);
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
            optimum: None,
            threads: config.search_threads,
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

/// `POST …/analyze`: validates the request at once, then searches on the
/// pool; the handler awaits the future this gives.
pub struct Analyze {
    /// The request.
    pub req: AnalyzeRequest,
    /// The search pool.
    pub pool: Arc<EnginePool>,
    /// The client's connection, to notice it going away.
    pub peer: Option<Arc<Peer>>,
}

/// The analysis of a request, to await.
pub type Analysis =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<AnalyzeResponse, ApiError>>>>;

impl Visitor for Analyze {
    type Output = Analysis;
    fn visit<V: Playable>(self) -> Analysis {
        Box::pin(analyze::<V>(self))
    }
}

/// A request's search, ready to start.
struct Prepared<V: Variant> {
    game: Game<V>,
    notation: V::Notation,
    limits: Limits,
    applied: AppliedLimits,
    summary: PositionSummary,
}

/// Reads an analysis request: its game (which must go on) and limits.
fn prepare<V: Playable>(req: &AnalyzeRequest, pool: &EnginePool) -> Result<Prepared<V>, ApiError> {
    guarded(|| {
        let Replayed {
            game,
            notation,
            record,
            ..
        } = game_of::<V>(req)?;
        let (limits, applied) = search_limits(req, &pool.config)?;
        let outcome = game.outcome();
        if let Outcome::Ended(v) = &outcome {
            return Err(game_over::<V>(
                Problem::GameEnded,
                format!(
                    "the game is over ({}): {}",
                    outcome.result(),
                    V::explain(&game, v)
                ),
                v,
            ));
        }
        let summary = summary(&game, &outcome, record.as_ref());
        Ok(Prepared {
            game,
            notation,
            limits,
            applied,
            summary,
        })
    })
}

/// The problem of a search that was not run to an answer.
fn refused(refused: Refused, pool: &EnginePool) -> ApiError {
    match refused {
        Refused::Busy => ApiError::new(
            Problem::EngineBusy,
            format!(
                "all {} search threads are busy; retry in a second",
                pool.config.max_searches
            ),
        ),
        Refused::ShuttingDown => ApiError::new(
            Problem::EngineBusy,
            "the server is shutting down; retry on another instance",
        ),
        Refused::NoThread => ApiError::new(
            Problem::EngineBusy,
            "no search thread could be started; retry in a second",
        ),
        Refused::Failed => internal(),
    }
}

/// The lines of a search, written from `start` in `notation`.
fn lines_doc<V: Variant>(
    start: &V,
    lines: &[search::Line<V::Move>],
    notation: V::Notation,
) -> Vec<AnalysisLine> {
    lines
        .iter()
        .map(|l| AnalysisLine {
            moves: search::line_text(start, &l.moves, notation),
            score: score_doc(l.score),
            depth: l.depth,
        })
        .collect()
}

/// The answer of a finished search.
fn analysis<V: Variant>(
    start: &V,
    notation: V::Notation,
    summary: PositionSummary,
    applied: AppliedLimits,
    found: Option<search::SearchResult<V::Move>>,
) -> Result<AnalyzeResponse, ApiError> {
    let r = found
        .ok_or_else(|| ApiError::new(Problem::GameEnded, "the side to move has no legal move"))?;
    Ok(AnalyzeResponse {
        variant: V::ID,
        position: summary,
        best_move: start.write_move(r.best_move, notation),
        lines: lines_doc(start, &r.lines, notation),
        depth: r.depth,
        nodes: r.nodes,
        nps: r.nps(),
        time_ms: r.elapsed.as_millis() as u64,
        limits: applied,
    })
}

async fn analyze<V: Playable>(a: Analyze) -> Result<AnalyzeResponse, ApiError> {
    let p = prepare::<V>(&a.req, &a.pool)?;
    let start = p.game.current().clone();
    let found = a
        .pool
        .search(p.game, p.limits, a.peer)
        .await
        .map_err(|r| refused(r, &a.pool))?;
    analysis(&start, p.notation, p.summary, p.applied, found)
}

/// One NDJSON line: the value's JSON and a newline.
pub fn ndjson<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut line = serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec());
    line.push(b'\n');
    line
}

/// The lines of a streamed analysis, as they come.
pub type Lines = tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>;

/// `POST …/analyze` with `Accept: application/x-ndjson`: the request is
/// read and the search admitted at once (its problems are answered as
/// usual); then one line per completed depth ([`AnalyzeProgress`]) and the
/// final answer ([`AnalyzeResponse`], or a problem) as the last line.
pub struct AnalyzeStream(pub Analyze);

impl Visitor for AnalyzeStream {
    type Output = Result<Lines, ApiError>;
    fn visit<V: Playable>(self) -> Self::Output {
        let a = self.0;
        let p = prepare::<V>(&a.req, &a.pool)?;
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let start = p.game.current().clone();
        let notation = p.notation;
        let (progress_tx, from) = (tx.clone(), start.clone());
        let report: Report<V::Move> = Box::new(move |r| {
            let line = AnalyzeProgress {
                depth: r.depth,
                nodes: r.nodes,
                time_ms: r.elapsed.as_millis() as u64,
                lines: lines_doc(&from, &r.lines, notation),
            };
            let _ = progress_tx.send(ndjson(&line));
        });
        let running = a
            .pool
            .start(p.game, p.limits, a.peer, Some(report))
            .map_err(|r| refused(r, &a.pool))?;
        let (summary, applied, pool) = (p.summary, p.applied, a.pool);
        actix_web::rt::spawn(async move {
            let answer = running
                .finish()
                .await
                .map_err(|r| refused(r, &pool))
                .and_then(|found| analysis(&start, notation, summary, applied, found));
            let _ = tx.send(match answer {
                Ok(done) => ndjson(&done),
                Err(e) => ndjson(e.body()),
            });
        });
        Ok(rx)
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

/// The variant named in a path, read by serde: kept here so the handlers
/// need not name the variants.
pub fn variants() -> Vec<VariantDetails> {
    VariantId::ALL
        .iter()
        .map(|&id| id.visit(Describe))
        .collect()
}
