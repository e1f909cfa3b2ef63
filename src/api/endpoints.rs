//! What each endpoint does, once for every variant: the routes in
//! [`super::handlers`] pick the variant with one [`Visitor`] each; the
//! visitor replays the request's game ([`super::replay`]), asks the rules
//! core or the engine, and shapes the answer ([`super::answers`]).

use std::sync::Arc;
use std::time::Duration;

use super::answers::*;
use super::engine::{EngineConfig, EnginePool, Peer, Refused, Report};
use super::error::{guarded, internal, ApiError, Problem};
use super::fair::ClientKey;
use super::record;
use super::replay::{self, game_of, game_over, refusal, replay, replay_from, Extent, Replayed};
use super::requests::*;
use super::responses::*;
use super::wire::{Evaluation, MoveClassCode, Side, Tags};
use crate::diagram::Options as DiagramOptions;
use crate::dispatch::{Playable, Visitor};
use crate::pgn::{self, RecordFormat};
use crate::prose;
use crate::search::analysis::Request;
use crate::search::level::Level;
use crate::search::{self, Limits, Network};
use crate::variants::{Color, Game, NotationName, Outcome, Refusal, Variant, VariantId};

/// What `GET /v1/variants/{variant}` says about a variant.
pub struct Describe;

impl Visitor for Describe {
    type Output = VariantDetails;
    fn visit<V: Playable>(self) -> VariantDetails {
        variant_details::<V>()
    }
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

/// Each limit a request sets, (field, value, most allowed), must lie
/// within 1 and its most.
fn in_range(limits: &[(&str, Option<u64>, u64)]) -> Result<(), ApiError> {
    for &(field, value, max) in limits {
        if let Some(v) = value.filter(|&v| v == 0 || v > max) {
            return Err(ApiError::new(
                Problem::InvalidLimits,
                format!("{field}: {v} is out of range; use 1 to {max}"),
            )
            .field(field));
        }
    }
    Ok(())
}

/// The evaluation a search runs with: the one asked for, else the
/// variant's network where it has one. A level below the full strength
/// plays with the hand-written evaluation it was calibrated with.
fn evaluation<V: Playable>(
    asked: Option<Evaluation>,
    level: bool,
) -> Result<(Option<Arc<Network>>, Evaluation), ApiError> {
    let refuse = |why: String| {
        Err(ApiError::new(Problem::InvalidLimits, format!("evaluation: {why}")).field("evaluation"))
    };
    match (asked, V::shipped_network()) {
        (Some(Evaluation::Nnue), _) if level => refuse(
            "the levels below 20 were calibrated with the hand-written evaluation; \
             use hce or leave it out"
                .to_owned(),
        ),
        (Some(Evaluation::Nnue), None) => {
            refuse(format!("{} has no network; use hce or leave it out", V::ID))
        }
        (Some(Evaluation::Hce), _) | (None, None) => Ok((None, Evaluation::Hce)),
        (None, Some(_)) if level => Ok((None, Evaluation::Hce)),
        (_, Some(net)) => Ok((Some(net), Evaluation::Nnue)),
    }
}

/// Reads a request's search limits against the server's caps.
fn search_limits<V: Playable>(
    req: &AnalyzeRequest,
    config: &EngineConfig,
) -> Result<(Limits, AppliedLimits, Option<Level>, u64), ApiError> {
    let max_ms = config.max_movetime.as_millis() as u64;
    in_range(&[
        (
            "depth",
            req.depth.map(u64::from),
            u64::from(config.max_depth),
        ),
        ("movetime_ms", req.movetime_ms, max_ms),
        ("nodes", req.nodes, config.max_nodes),
        ("multipv", req.multipv.map(|m| m as u64), 5),
        ("level", req.level.map(u64::from), u64::from(Level::FULL)),
    ])?;
    let multipv = req.multipv.unwrap_or(1);
    // A level below the full strength searches at most its nodes.
    let level = req
        .level
        .and_then(|n| Level::new(n as u8))
        .filter(|l| !l.is_full());
    let seed = level.map(|_| req.seed.unwrap_or_else(|| fastrand::u64(..)));
    let unlimited = req.depth.is_none() && req.movetime_ms.is_none() && req.nodes.is_none();
    // Time always has a bound: the request's, the default, or the cap.
    let movetime = match (req.movetime_ms, unlimited) {
        (Some(t), _) => Duration::from_millis(t),
        (None, true) => config.default_movetime.min(config.max_movetime),
        (None, false) => config.max_movetime,
    };
    let depth = req.depth.unwrap_or(config.max_depth);
    let nodes = level.map_or(req.nodes, |l| V::LADDER.cap_nodes(l, req.nodes));
    let (network, evaluation) = evaluation::<V>(req.evaluation, level.is_some())?;
    Ok((
        Limits {
            depth: Some(depth),
            movetime: Some(movetime),
            nodes,
            multipv,
            optimum: None,
            threads: config.search_threads,
            network,
        },
        AppliedLimits {
            depth,
            movetime_ms: movetime.as_millis() as u64,
            nodes,
            multipv,
            level: level.map(|l| u32::from(l.get())),
            seed,
            evaluation,
        },
        level,
        seed.unwrap_or(0),
    ))
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
    /// Who asked (for the client's share of the search slots).
    pub client: Option<ClientKey>,
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
    request: Request<V::Move>,
    applied: AppliedLimits,
    summary: PositionSummary,
}

/// The moves of a request's list (`searchmoves`, `exclude`) as moves of
/// the game's position: each must be legal there.
fn move_list<V: Playable>(
    game: &Game<V>,
    notation: V::Notation,
    field: &str,
    texts: &[String],
) -> Result<Vec<V::Move>, ApiError> {
    let pos = game.current();
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            pos.parse_move(text, notation).map_err(|error| {
                let (why, hint) = refusal(pos, &error, text, notation);
                let problem = if error.is_syntax() {
                    Problem::InvalidMove
                } else {
                    Problem::IllegalMove
                };
                let mut err = ApiError::new(problem, format!("{field}[{i}] ('{text}'): {why}"))
                    .field(format!("{field}[{i}]"));
                err.move_index = Some(i);
                err.reason_code = Some(error.code());
                err.notation_hint = hint;
                err.move_text = Some(text.clone());
                err
            })
        })
        .collect()
}

/// The root moves a request leaves to search: `searchmoves` (or every
/// legal move) less `exclude`; `None` when that is every legal move.
fn root_of<V: Playable>(
    game: &Game<V>,
    notation: V::Notation,
    req: &AnalyzeRequest,
) -> Result<Option<Vec<V::Move>>, ApiError> {
    if req.searchmoves.is_none() && req.exclude.is_none() {
        return Ok(None);
    }
    let mut root = match &req.searchmoves {
        Some(texts) => move_list(game, notation, "searchmoves", texts)?,
        None => {
            let mut all = Vec::new();
            game.current().legal_moves(&mut all);
            all
        }
    };
    if let Some(texts) = &req.exclude {
        let excluded = move_list(game, notation, "exclude", texts)?;
        root.retain(|m| !excluded.contains(m));
    }
    if root.is_empty() {
        let field = if req.exclude.is_some() {
            "exclude"
        } else {
            "searchmoves"
        };
        return Err(ApiError::new(
            Problem::InvalidLimits,
            format!("{field}: no move is left to search"),
        )
        .field(field));
    }
    Ok(Some(root))
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
        let (limits, applied, level, seed) = search_limits::<V>(req, &pool.config)?;
        let root = root_of(&game, notation, req)?;
        let request = Request {
            limits,
            root,
            all_moves: req.all_moves.unwrap_or(false),
            threat: req.threat.unwrap_or(false),
            level,
            seed,
        };
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
            request,
            applied,
            summary,
        })
    })
}

/// The problem of a search that was not run to an answer.
fn refused(refused: Refused, pool: &EnginePool) -> ApiError {
    let config = &pool.config;
    match refused {
        Refused::Busy if config.search_wait.is_zero() => ApiError::new(
            Problem::EngineBusy,
            format!(
                "all {} search threads are busy; retry in a second",
                config.max_searches
            ),
        ),
        Refused::Busy => ApiError::new(
            Problem::EngineBusy,
            format!(
                "all {} search threads stayed busy for {} ms; retry in a second",
                config.max_searches,
                config.search_wait.as_millis()
            ),
        ),
        Refused::ClientBusy => {
            let cap = config.max_searches_per_client.unwrap_or(0);
            ApiError::new(
                Problem::TooManySearches,
                format!(
                    "this client already has {cap} search{} running or waiting, as many as one client may (the server's --max-searches-per-client); retry when one has ended",
                    if cap == 1 { "" } else { "es" }
                ),
            )
        }
        Refused::ClientGone => ApiError::new(
            Problem::EngineBusy,
            "the client went away while its search waited for a thread",
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

async fn analyze<V: Playable>(a: Analyze) -> Result<AnalyzeResponse, ApiError> {
    let p = prepare::<V>(&a.req, &a.pool)?;
    let game = p.game.clone();
    let pool = &a.pool;
    let permit = pool
        .admit(a.client, a.peer.as_deref())
        .await
        .map_err(|r| refused(r, pool))?;
    let found = pool
        .start(permit, p.game, p.request, a.peer, None)
        .map_err(|r| refused(r, pool))?
        .finish()
        .await
        .map_err(|r| refused(r, pool))?;
    analysis(&game, p.notation, p.summary, p.applied, found)
}

/// The lines of a streamed analysis, as they come.
pub type Lines = tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>;

/// A streamed analysis once its search is admitted, to await.
pub type Streaming = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Lines, ApiError>>>>;

/// `POST …/analyze` with `Accept: application/x-ndjson`: the request is
/// read and the search admitted before the answer starts (its problems are
/// answered as usual); then one line per completed depth
/// ([`AnalyzeProgress`]) and the final answer ([`AnalyzeResponse`], or a
/// problem) as the last line.
pub struct AnalyzeStream(pub Analyze);

impl Visitor for AnalyzeStream {
    type Output = Streaming;
    fn visit<V: Playable>(self) -> Streaming {
        Box::pin(analyze_stream::<V>(self.0))
    }
}

async fn analyze_stream<V: Playable>(a: Analyze) -> Result<Lines, ApiError> {
    let p = prepare::<V>(&a.req, &a.pool)?;
    let permit = a
        .pool
        .admit(a.client, a.peer.as_deref())
        .await
        .map_err(|r| refused(r, &a.pool))?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let game = p.game.clone();
    let notation = p.notation;
    let (progress_tx, from) = (tx.clone(), game.clone());
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
        .start(permit, p.game, p.request, a.peer, Some(report))
        .map_err(|r| refused(r, &a.pool))?;
    let (summary, applied, pool) = (p.summary, p.applied, a.pool);
    actix_web::rt::spawn(async move {
        let answer = running
            .finish()
            .await
            .map_err(|r| refused(r, &pool))
            .and_then(|found| analysis(&game, notation, summary, applied, found));
        let _ = tx.send(match answer {
            Ok(done) => ndjson(&done),
            Err(e) => ndjson(e.body()),
        });
    });
    Ok(rx)
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

/// The default time for each position of a review, in milliseconds.
pub const REVIEW_MOVETIME_MS: u64 = 100;

/// `POST …/review`: the game read at once (its problems answered as
/// adjudicate answers them), then reviewed on the pool.
pub struct Review {
    /// The request.
    pub req: ReviewRequest,
    /// The search pool.
    pub pool: Arc<EnginePool>,
    /// The client's connection, to notice it going away.
    pub peer: Option<Arc<Peer>>,
    /// Who asked (for the client's share of the search slots).
    pub client: Option<ClientKey>,
    /// Where each ply goes as it is reviewed (a streamed review).
    pub lines: Option<tokio::sync::mpsc::UnboundedSender<Vec<u8>>>,
    /// Answer with the evaluation graph instead of JSON.
    pub svg: bool,
}

/// A finished review: JSON, or the evaluation graph.
pub enum Reviewed {
    /// The review.
    Json(Box<ReviewResponse>),
    /// The evaluation graph (SVG).
    Svg(String),
}

/// A review, to await.
pub type Reviewing =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Reviewed, ApiError>>>>;

/// A review once its search is admitted (or its problem), to await.
pub type Admitting =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Reviewing, ApiError>>>>;

impl Visitor for Review {
    type Output = Admitting;
    fn visit<V: Playable>(self) -> Self::Output {
        Box::pin(start_review::<V>(self))
    }
}

/// A review's per-move limits against the server's caps, for `plies` plies.
fn review_limits<V: Playable>(
    req: &ReviewRequest,
    config: &EngineConfig,
    plies: usize,
) -> Result<(Limits, ReviewLimits), ApiError> {
    let positions = plies as u64 + 1;
    let max_ms = config.max_movetime.as_millis() as u64;
    let total_ms = config.max_review.as_millis() as u64;
    in_range(&[
        (
            "depth",
            req.depth.map(u64::from),
            u64::from(config.max_depth),
        ),
        ("movetime_ms", req.movetime_ms, max_ms),
        ("nodes", req.nodes, config.max_nodes),
    ])?;
    // The whole review is bounded: a time a position that, times the
    // positions, stays within the server's maximum.
    let share = (total_ms / positions).max(1);
    let movetime = match req.movetime_ms {
        Some(t) if t.saturating_mul(positions) > total_ms => {
            return Err(ApiError::new(
                Problem::InvalidLimits,
                format!(
                    "movetime_ms: {t} ms a position for {positions} positions is more than the \
                     server's {total_ms} ms for a review; use at most {share}"
                ),
            )
            .field("movetime_ms"));
        }
        Some(t) => t,
        None if req.nodes.is_some() || req.depth.is_some() => share.min(max_ms),
        None => REVIEW_MOVETIME_MS.min(share),
    };
    let (network, evaluation) = evaluation::<V>(None, false)?;
    Ok((
        Limits {
            depth: req.depth,
            movetime: Some(Duration::from_millis(movetime)),
            nodes: req.nodes,
            multipv: 1,
            optimum: None,
            threads: config.search_threads,
            network,
        },
        ReviewLimits {
            movetime_ms: movetime,
            nodes: req.nodes,
            depth: req.depth,
            evaluation,
        },
    ))
}

/// One reviewed ply, written for the wire.
fn review_ply<V: Playable>(
    game: &Game<V>,
    notation: V::Notation,
    p: &search::review::PlyReview<V::Move>,
) -> ReviewPly {
    use search::review::MoveClass;
    let before = &game.positions()[p.ply - 1];
    ReviewPly {
        ply: p.ply,
        side: Side::of(V::ID, p.mover),
        mv: before.write_move(p.mv, notation),
        best_move: before.write_move(p.best, notation),
        score_before: score_doc(p.score_before),
        score_after: score_doc(p.score_after),
        wdl_before: WdlDoc {
            win: p.wdl_before.win,
            draw: p.wdl_before.draw,
            loss: p.wdl_before.loss,
        },
        win_loss: (p.win_loss * 10.0).round() / 10.0,
        class: match p.class {
            MoveClass::Best => MoveClassCode::Best,
            MoveClass::Good => MoveClassCode::Good,
            MoveClass::Inaccuracy => MoveClassCode::Inaccuracy,
            MoveClass::Mistake => MoveClassCode::Mistake,
            MoveClass::Blunder => MoveClassCode::Blunder,
            MoveClass::MissedWin => MoveClassCode::MissedWin,
        },
    }
}

async fn start_review<V: Playable>(r: Review) -> Result<Reviewing, ApiError> {
    let (replayed, limits, applied) = guarded(|| {
        let replayed = replay::<V>(&r.req, Extent::PastTheEnd)?;
        let plies = replayed.game.moves().len();
        let max = r.pool.config.max_review_plies;
        if plies > max {
            let field = if r.req.pgn.is_some() { "pgn" } else { "moves" };
            return Err(ApiError::new(
                Problem::TooManyMoves,
                format!("{field}: {plies} plies is more than a review takes; at most {max}"),
            )
            .field(field));
        }
        let (limits, applied) = review_limits::<V>(&r.req, &r.pool.config, plies)?;
        Ok((replayed, limits, applied))
    })?;
    let verdict = adjudged(&replayed);
    let permit = r
        .pool
        .admit(r.client, r.peer.as_deref())
        .await
        .map_err(|e| refused(e, &r.pool))?;
    let game = replayed.game;
    let notation = replayed.notation;
    // The plies up to the game's end are reviewed.
    let end = verdict.ended_at_ply.unwrap_or(game.moves().len());
    let entries = search::table_entries(r.pool.config.hash_mb);
    let (job_game, lines) = (game.clone(), r.lines.clone());
    let running = r
        .pool
        .start_job(permit, r.peer, move |control| {
            let table = search::table_for(&limits, entries);
            let mut on_ply = |p: &search::review::PlyReview<V::Move>| {
                if let Some(tx) = &lines {
                    let _ = tx.send(ndjson(&review_ply(&job_game, notation, p)));
                }
            };
            let mut upto = Game::new(job_game.positions()[0].clone(), job_game.rules().clone());
            for &m in &job_game.moves()[..end] {
                upto.play(m);
            }
            search::review::review(&upto, &limits, control, &table, &mut on_ply)
        })
        .map_err(|e| refused(e, &r.pool))?;
    let (pool, svg) = (r.pool.clone(), r.svg);
    Ok(Box::pin(async move {
        let reviewed = running.finish().await.map_err(|e| refused(e, &pool))?;
        if svg {
            use crate::diagram::graph::{evaluation_graph, Mark};
            use search::review::MoveClass;
            // The first mover's expected score at each position.
            let first = |p: &search::review::PlyReview<V::Move>, e: f64| {
                if p.mover == Color::White {
                    e / 100.0
                } else {
                    1.0 - e / 100.0
                }
            };
            let mut points: Vec<f64> = reviewed
                .first()
                .map(|p| first(p, p.expected_before))
                .into_iter()
                .collect();
            points.extend(reviewed.iter().map(|p| first(p, p.expected_after)));
            let marks: Vec<Mark> = reviewed
                .iter()
                .map(|p| match p.class {
                    MoveClass::Inaccuracy => Mark::Inaccuracy,
                    MoveClass::Mistake => Mark::Mistake,
                    MoveClass::Blunder | MoveClass::MissedWin => Mark::Blunder,
                    _ => Mark::None,
                })
                .collect();
            let title = format!(
                "{} game review: {} plies, result {}",
                V::NAME,
                reviewed.len(),
                verdict.position.status.result
            );
            return Ok(Reviewed::Svg(evaluation_graph(&points, &marks, &title)));
        }
        let sides = [Color::White, Color::Black]
            .into_iter()
            .map(|c| {
                let own = reviewed.iter().filter(|p| p.mover == c);
                let count =
                    |k: search::review::MoveClass| own.clone().filter(|p| p.class == k).count();
                SideReview {
                    side: Side::of(V::ID, c),
                    accuracy: search::review::accuracy(&reviewed, c)
                        .map(|a| (a * 10.0).round() / 10.0),
                    inaccuracies: count(search::review::MoveClass::Inaccuracy),
                    mistakes: count(search::review::MoveClass::Mistake),
                    blunders: count(search::review::MoveClass::Blunder),
                    missed_wins: count(search::review::MoveClass::MissedWin),
                }
            })
            .collect();
        Ok(Reviewed::Json(Box::new(ReviewResponse {
            variant: V::ID,
            complete: reviewed.len() == end,
            plies: reviewed
                .iter()
                .map(|p| review_ply(&game, notation, p))
                .collect(),
            sides,
            limits: applied,
            result: verdict,
        })))
    }))
}
