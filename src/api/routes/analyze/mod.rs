//! `POST /v1/variants/{variant}/analyze`: what an engine would play, with
//! lines, scores and win/draw/loss chances; streamed by depth on request.

use std::sync::Arc;
use std::time::Duration;

use actix_web::{post, web, HttpRequest, HttpResponse};

use crate::api::answers::{ndjson, repetition_mark, score_doc, summary};
use crate::api::engine::{EngineConfig, EnginePool, Peer, Report};
use crate::api::error::{guarded, ApiError, BodyErrors, BusyError, Problem, VariantError};
use crate::api::extract::{Body, VariantPath};
use crate::api::fair::{self, ClientKey};
use crate::api::limits::{budget, in_range, network, refused, AppliedLimits};
use crate::api::media::{accepts, ndjson_response, Lines, NDJSON};
use crate::api::replay::Replayed;
use crate::api::replay::{game_of, game_over, move_list};
use crate::api::responses::{PositionSummary, WdlDoc};
use crate::api::state::AppState;
use crate::api::wire::MoverOutcome;
use crate::dispatch::{Playable, Visitor};
use crate::search::analysis::{Request, MAX_MULTIPV};
use crate::search::level::Level;
use crate::search::{self, Evaluate, Limits, Score};
use crate::variants::{Game, Outcome, Variant};

mod schema;

pub use schema::*;

impl AnalyzeRequest {
    /// The analysis the request asks for, its limits read against the
    /// server's caps: the engine's policy (a level's nodes and evaluation,
    /// the most lines) is the analysis's own ([`Request::playing`]).
    fn analysis<V: Playable>(&self, config: &EngineConfig) -> Result<Request<V::Move>, ApiError> {
        let mut checks = budget(config, self.depth, self.movetime_ms, self.nodes).to_vec();
        checks.push((
            "multipv",
            self.multipv.map(|m| m as u64),
            MAX_MULTIPV as u64,
        ));
        checks.push(("level", self.level.map(u64::from), u64::from(Level::FULL)));
        in_range(&checks)?;
        let level = self.level.and_then(|n| Level::new(n as u8));
        let weaker = level.is_some_and(|l| !l.is_full());
        let unlimited = self.depth.is_none() && self.movetime_ms.is_none() && self.nodes.is_none();
        // Time always has a bound: the request's, the default, or the cap.
        let movetime = match (self.movetime_ms, unlimited) {
            (Some(t), _) => Duration::from_millis(t),
            (None, true) => config.default_movetime.min(config.max_movetime),
            (None, false) => config.max_movetime,
        };
        let limits = Limits {
            depth: Some(self.depth.unwrap_or(config.max_depth)),
            movetime: Some(movetime),
            nodes: self.nodes,
            multipv: self.multipv.unwrap_or(1),
            optimum: None,
            threads: config.search_threads,
            network: network::<V>(self.evaluation, weaker)?,
            tablebases: true,
        };
        let seed = self.seed.unwrap_or_else(|| fastrand::u64(..));
        Ok(Request::playing::<V>(limits, level, seed))
    }
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
/// In a Xiangqi position the endgame tables hold (at the full strength, and
/// where the rules cannot change their result) the answer comes from the
/// tables, not a search: `source: "tablebase"`, every line's score exact (a
/// mate in moves; a draw `cp: 0`; a win by the perpetual-check rule just
/// below the mates), its chances certain, its line the tables' best moves;
/// `depth`, `nodes` and `nps` 0. Elsewhere the search takes the tables'
/// result wherever it meets a table position.
///
/// With `Accept: application/x-ndjson` the search streams: one line per
/// completed depth (`AnalyzeProgress`: depth, nodes, time and lines), then
/// the final answer (`AnalyzeResponse`, the only line with `best_move`) or,
/// if the search failed, a problem.
#[utoipa::path(
    tag = "engine",
    params(VariantPath),
    request_body(content = AnalyzeRequest, examples(
        ("start" = (summary = "The start position, 300 ms", value = json!({"movetime_ms": 300}))),
        ("mate in two" = (summary = "Two chariots mate in two", value = json!({
            "fen": "4k4/9/9/9/9/9/9/9/R8/1R1K4p w - - 0 1",
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
        ("endgame table" = (summary = "A horse against an advisor: answered from the endgame tables, every move exact", value = json!({
            "fen": "4k4/4a4/9/9/9/9/9/9/9/3K2N2 w - - 0 1",
            "all_moves": true
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
    path: web::Path<VariantPath>,
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
    let id = path.variant;
    if accepts(&http, NDJSON) {
        return Ok(ndjson_response(id.visit(AnalyzeStream(analyze)).await?));
    }
    Ok(HttpResponse::Ok().json(id.visit(analyze).await?))
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
        Box::pin(analyzed::<V>(self))
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
        let mut request = req.analysis::<V>(&pool.config)?;
        request.root = root_of(&game, notation, req)?;
        request.all_moves = req.all_moves.unwrap_or(false);
        request.threat = req.threat.unwrap_or(false);
        let applied = AppliedLimits::of(&request);
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
        let summary = summary(&game, &outcome, record.as_ref(), notation);
        Ok(Prepared {
            game,
            notation,
            request,
            applied,
            summary,
        })
    })
}

async fn analyzed<V: Playable>(a: Analyze) -> Result<AnalyzeResponse, ApiError> {
    let p = match from_tables(prepare::<V>(&a.req, &a.pool)?) {
        Ok(answer) => return Ok(answer),
        Err(p) => *p,
    };
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
    let p = match from_tables(prepare::<V>(&a.req, &a.pool)?) {
        Ok(answer) => {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            let _ = tx.send(ndjson(&answer));
            return Ok(rx);
        }
        Err(p) => *p,
    };
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

/// The chances a score stands for in `pos` ([`search::wdl`]).
fn wdl_doc<V: Evaluate>(pos: &V, score: Score) -> WdlDoc {
    V::WDL.wdl(score, pos.material()).into()
}

/// The lines of a search of the game's position, written in `notation`,
/// each with its chances and its first move's repetition marks.
fn lines_doc<V: Evaluate>(
    game: &Game<V>,
    lines: &[search::Line<V::Move>],
    notation: V::Notation,
) -> Vec<AnalysisLine> {
    let start = game.current();
    let mover = start.side_to_move();
    lines
        .iter()
        .filter(|l| !l.moves.is_empty())
        .map(|l| {
            let repetition = repetition_mark(game, mover, l.moves[0]);
            AnalysisLine {
                mv: start.write_move(l.moves[0], notation),
                moves: search::line_text(start, &l.moves, notation),
                score: score_doc(l.score),
                wdl: wdl_doc(start, l.score),
                depth: l.depth,
                forbidden_repetition: repetition
                    .as_ref()
                    .is_some_and(|r| r.outcome == MoverOutcome::Loss),
                repetition,
            }
        })
        .collect()
}

/// The answer of a finished analysis of the game's position.
fn analysis<V: Evaluate>(
    game: &Game<V>,
    notation: V::Notation,
    summary: PositionSummary,
    applied: AppliedLimits,
    found: Option<search::analysis::Analysis<V::Move>>,
) -> Result<AnalyzeResponse, ApiError> {
    let found = found.ok_or_else(|| {
        ApiError::new(
            Problem::GameEnded,
            "the side to move has no legal move to search",
        )
    })?;
    let (start, r) = (game.current(), &found.result);
    let threat = found.threat.map(|t| ThreatDoc {
        mv: start.pass().write_move(t.mv, notation),
        score: score_doc(t.score),
    });
    Ok(AnalyzeResponse {
        variant: V::ID,
        position: summary,
        best_move: start.write_move(r.best_move, notation),
        lines: lines_doc(game, &r.lines, notation),
        threat,
        source: AnalysisSource::Search,
        depth: r.depth,
        nodes: r.nodes,
        nps: r.nps(),
        time_ms: r.elapsed.as_millis() as u64,
        limits: applied,
    })
}

/// The answer from the endgame tables, when they hold the position and
/// the request's rules cannot change what they say (`None`: search): at
/// the full strength only (a level plays by its search). Every root move
/// is scored exactly (a move that completes a repetition by the rules'
/// verdict on it), best first; each line follows the tables' best moves.
fn from_tables<V: Playable>(p: Prepared<V>) -> Result<AnalyzeResponse, Box<Prepared<V>>> {
    match table_lines(&p) {
        Some((lines, threat)) => Ok(AnalyzeResponse {
            variant: V::ID,
            best_move: lines[0].mv.clone(),
            position: p.summary,
            lines,
            threat,
            source: AnalysisSource::Tablebase,
            depth: 0,
            nodes: 0,
            nps: 0,
            time_ms: 0,
            limits: p.applied,
        }),
        None => Err(Box::new(p)),
    }
}

/// The lines (at least one) and the threat of [`from_tables`].
fn table_lines<V: Playable>(p: &Prepared<V>) -> Option<(Vec<AnalysisLine>, Option<ThreatDoc>)> {
    let request = &p.request;
    if request.level().is_some() {
        return None;
    }
    let start = p.game.current();
    let rules = p.game.rules();
    start.probe_under(rules)?;
    let probed = start.probe_tables()?;
    let mover = start.side_to_move();
    let mut scored = Vec::with_capacity(probed.moves.len());
    for m in &probed.moves {
        if request
            .root
            .as_ref()
            .is_some_and(|root| !root.contains(&m.mv))
        {
            continue;
        }
        let mut after = start.clone();
        after.make_move(m.mv);
        // The move's value for the mover: the rules' verdict where the
        // move completes a repetition, else the tables' (one ply down).
        let value = match p.game.repetition_verdict_after(m.mv) {
            Some(v) => match v.winner {
                None => 0,
                Some(w) if w == mover => search::MATE - 1,
                Some(_) => -(search::MATE - 1),
            },
            None => -search::table_value(after.probe_under(rules)?, 1)?,
        };
        scored.push((value, m.mv, after));
    }
    // Stable: among equal values, the tables' order.
    scored.sort_by_key(|(value, ..)| std::cmp::Reverse(*value));
    let wanted = if request.all_moves {
        scored.len()
    } else {
        request.limits().multipv
    };
    let lines: Vec<AnalysisLine> = scored
        .iter()
        .take(wanted)
        .map(|(value, mv, after)| {
            let mut moves = vec![*mv];
            let plies = if *value == 0 {
                TABLE_DRAW_LINE
            } else {
                TABLE_LINE
            };
            moves.extend(after.table_line(plies));
            let score = Score::from_internal(*value);
            let repetition = repetition_mark(&p.game, mover, *mv);
            AnalysisLine {
                mv: start.write_move(*mv, p.notation),
                moves: search::line_text(start, &moves, p.notation),
                score: score_doc(score),
                wdl: exact_wdl(*value),
                depth: 0,
                forbidden_repetition: repetition
                    .as_ref()
                    .is_some_and(|r| r.outcome == MoverOutcome::Loss),
                repetition,
            }
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    let threat = (request.threat && !start.in_check())
        .then(|| start.pass())
        .and_then(|passed| {
            // The entry of a probed move is already the mover's.
            let best = passed.probe_tables()?.moves.into_iter().next()?;
            Some(ThreatDoc {
                mv: passed.write_move(best.mv, p.notation),
                score: score_doc(Score::from_internal(search::table_value(best.entry, 0)?)),
            })
        });
    Some((lines, threat))
}

/// The longest line a table answer writes out past its first move: to the
/// mate (at most this), a few moves of a draw ([`TABLE_DRAW_LINE`]).
const TABLE_LINE: usize = 40;
/// See [`TABLE_LINE`].
const TABLE_DRAW_LINE: usize = 8;

/// The chances of an exact value: certain.
fn exact_wdl(value: i32) -> WdlDoc {
    let (win, draw, loss) = match value.signum() {
        1 => (1000, 0, 0),
        0 => (0, 1000, 0),
        _ => (0, 0, 1000),
    };
    WdlDoc { win, draw, loss }
}
