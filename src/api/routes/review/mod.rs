//! `POST /v1/variants/{variant}/review`: a game reviewed move by move,
//! each side's accuracy, as JSON, streamed, or as an evaluation graph.

use std::sync::Arc;

use actix_web::http::header;
use actix_web::{post, web, HttpRequest, HttpResponse};

use crate::api::answers::{adjudged, ndjson, score_doc};
use crate::api::engine::EngineConfig;
use crate::api::engine::EnginePool;
use crate::api::engine::Peer;
use crate::api::error::{guarded, ApiError, BodyErrors, BusyError, Problem, VariantError};
use crate::api::extract::{Body, VariantPath};
use crate::api::fair::{self, ClientKey};
use crate::api::limits::{budget, evaluation_of, in_range, network, refused};
use crate::api::media::{accepts, ndjson_response, NDJSON, SVG};
use crate::api::replay::{replay, Extent};
use crate::api::responses::{AdjudicateResponse, RepetitionEventDoc};
use crate::api::state::AppState;
use crate::api::wire::ReviewFormat;
use crate::dispatch::{Playable, Visitor};
use crate::search;
use crate::search::review::{
    deep_positions, verify_positions, Budget, MoveClass, PlyReview, DEEP_DEPTH, DEEP_FACTOR,
    DEFAULT_NODES, VERIFY_DEPTH, VERIFY_FACTOR,
};
use crate::search::Limits;
use crate::variants::{Color, Game};
use std::time::Duration;

mod schema;

pub use schema::*;

/// Reviews a game: every position searched, the doubtful plies searched
/// again deeper, each move weighed by the win chances it gave away and
/// classed, each side's accuracy, and the game's verdict by our rules.
///
/// Send the game as `adjudicate` takes it (`fen` and `moves`, or `pgn`) and,
/// if you like, a budget for each position (`nodes`, 23,000 by default;
/// `depth`; or `movetime_ms`, which the machine's load makes unrepeatable).
/// The review goes in three passes. The first searches every position. Then
/// each ply in doubt (the move lost 4 points or more by the first pass, or
/// the reply seemed to gain as much: the position after it was misjudged)
/// has its two positions searched again with ten times the budget, the
/// most doubtful first, round after round, until no ply is in doubt or a
/// third of the game's positions (at least 16) were searched again; such
/// plies say `verified`. The third pass searches the plies still in doubt
/// and not yet marked a mistake or worse with four times the second's
/// budget again, until one in 25 of the game's positions (at least 4) were
/// searched a third time. Counted in nodes or depth, the same request
/// gives the same answer. A Xiangqi position the endgame tables hold is
/// judged by the tables, not searched: their best move and exact score,
/// settled (so a move that keeps a table win is never marked, and one that
/// lets it go is a `missed_win` or a `blunder`); the searches of the other
/// positions probe the tables too.
///
/// Each ply gets `best_move`, `score_before` and `score_after` (the
/// mover's view), `wdl_before`, `win_loss` (the win-percentage points the
/// move gave away: its expected score, win + draw / 2, before less after)
/// and `class`: `best` (the engine's own choice, whatever the search after
/// it shows), `good` (under 5 points), `inaccuracy` (5 or more), `mistake`
/// (10 or more), `blunder` (15 or more), `missed_win` (a won position, 80 %
/// or more, left for one of 60 % or less); a marked move carries the
/// engine's better line (`best_line`). The move that ends the game is
/// scored as the end: `ended` (`win`, `draw`, `loss`) and `score_after`
/// `{"mate": 0}` or `{"cp": 0}`. A record played on past a repetition
/// ruling (`repetition_ends_game: false`) is reviewed to its last move, the
/// ruling on its ply (`ruling`). A side's `accuracy` is the mean of its
/// moves' `103.1668 e^(−0.04354 win_loss) − 3.1669` (0-100). A record with
/// an illegal move gets the problem `adjudicate` gives.
///
/// The review runs in the engine pool like `analyze` (503 `engine_busy`
/// when every slot stays taken, 429 `too_many_searches` past the client's
/// share), its searches on the slot's share of the cores, and is bounded:
/// a game of more than `--max-review-plies` plies is refused, a
/// `movetime_ms` whose first pass would outlast `--max-review-secs` too, and
/// the whole review stops at that bound (`complete: false` when the first
/// pass did not finish). With `Accept: application/x-ndjson` it streams one
/// `ReviewPly` line per ply as the first pass has it, the ply again when
/// verification changes it (the last line of a ply stands), then the
/// `ReviewResponse`, and stops when the client hangs up; with `Accept:
/// image/svg+xml` (or `"format": "svg"`) it answers the evaluation graph:
/// the first mover's expected score after each ply, the sides named, move
/// numbers along the bottom, the inaccuracies, mistakes and blunders marked
/// (each mark's tooltip names the move and its class) and a legend.
#[utoipa::path(
    tag = "engine",
    params(VariantPath),
    request_body(content = ReviewRequest, examples(
        ("opening" = (summary = "Six plies, 20,000 nodes a position", value = json!({
            "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"],
            "nodes": 20000
        }))),
        ("blunder" = (summary = "Red leaves its chariot to be taken (ply 1), depth 6", value = json!({
            "fen": "4k4/9/9/9/R8/7r1/9/9/9/3K5 w - - 0 1",
            "moves": ["a5h5", "h4h5"],
            "depth": 6
        }))),
        ("graph" = (summary = "The evaluation graph of a record (SVG)", value = json!({
            "pgn": "[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 *",
            "nodes": 20000,
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
    path: web::Path<VariantPath>,
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
    let reviewing = path.variant.visit(review).await?;
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

/// One reviewed ply, written for the wire; `rulings` are the game's
/// repetition events.
fn review_ply<V: Playable>(
    game: &Game<V>,
    notation: V::Notation,
    rulings: &[RepetitionEventDoc],
    p: &PlyReview<V::Move>,
) -> ReviewPly {
    let before = &game.positions()[p.ply - 1];
    let best_line =
        (!p.best_line.is_empty()).then(|| search::line_text(before, &p.best_line, notation));
    ReviewPly {
        ply: p.ply,
        side: V::side(p.mover),
        mv: before.write_move(p.mv, notation),
        best_move: before.write_move(p.best, notation),
        best_line,
        score_before: score_doc(p.score_before),
        score_after: score_doc(p.score_after),
        ended: p.ended,
        ruling: rulings.iter().find(|r| r.ply == p.ply).cloned(),
        wdl_before: p.wdl_before.into(),
        win_loss: (p.win_loss * 10.0).round() / 10.0,
        class: p.class,
        verified: p.verified,
    }
}

async fn start_review<V: Playable>(r: Review) -> Result<Reviewing, ApiError> {
    let (replayed, mut budget, applied) = guarded(|| {
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
        let (budget, applied) = review_budget::<V>(&r.req, &r.pool.config, plies)?;
        Ok((replayed, budget, applied))
    })?;
    let verdict = adjudged(&replayed);
    let permit = r
        .pool
        .admit(r.client, r.peer.as_deref())
        .await
        .map_err(|e| refused(e, &r.pool))?;
    let game = replayed.game;
    let notation = replayed.notation;
    // Every move the game played (a record's moves after the game's end
    // are not its moves), to its end.
    let end = game.moves().len();
    let rulings: Arc<[RepetitionEventDoc]> = verdict.position.repetition_events.clone().into();
    let (job_game, lines, job_rulings) = (game.clone(), r.lines.clone(), rulings.clone());
    let max_review = r.pool.config.max_review;
    let running = r
        .pool
        .start_job(permit, r.peer, move |control| {
            budget.deadline = Some(std::time::Instant::now() + max_review);
            let mut on_ply = |p: &PlyReview<V::Move>| {
                if let Some(tx) = &lines {
                    let _ = tx.send(ndjson(&review_ply(&job_game, notation, &job_rulings, p)));
                }
            };
            search::review::review(&job_game, end, &budget, control, &mut on_ply)
        })
        .map_err(|e| refused(e, &r.pool))?;
    let (pool, svg) = (r.pool.clone(), r.svg);
    Ok(Box::pin(async move {
        let reviewed = running.finish().await.map_err(|e| refused(e, &pool))?;
        if svg {
            return Ok(Reviewed::Svg(graph(
                &game,
                notation,
                &reviewed.plies,
                &verdict,
            )));
        }
        let plies = &reviewed.plies;
        let sides = [Color::White, Color::Black]
            .into_iter()
            .map(|c| {
                let own = plies.iter().filter(|p| p.mover == c);
                let count = |k: MoveClass| own.clone().filter(|p| p.class == k).count();
                SideReview {
                    side: V::side(c),
                    accuracy: search::review::accuracy(plies, c).map(|a| (a * 10.0).round() / 10.0),
                    inaccuracies: count(MoveClass::Inaccuracy),
                    mistakes: count(MoveClass::Mistake),
                    blunders: count(MoveClass::Blunder),
                    missed_wins: count(MoveClass::MissedWin),
                }
            })
            .collect();
        let mut limits = applied;
        limits.repeatable &= reviewed.complete && !reviewed.timed_out;
        Ok(Reviewed::Json(Box::new(ReviewResponse {
            variant: V::ID,
            complete: reviewed.complete,
            verified_plies: plies.iter().filter(|p| p.verified).map(|p| p.ply).collect(),
            plies: plies
                .iter()
                .map(|p| review_ply(&game, notation, &rulings, p))
                .collect(),
            sides,
            limits,
            result: verdict,
        })))
    }))
}

/// The evaluation graph of the reviewed plies.
fn graph<V: Playable>(
    game: &Game<V>,
    notation: V::Notation,
    plies: &[PlyReview<V::Move>],
    verdict: &AdjudicateResponse,
) -> String {
    use crate::diagram::graph::{evaluation_graph, Graph, GraphPly, Mark};
    // The first mover's expected score at each position.
    let first = |p: &PlyReview<V::Move>, e: f64| {
        if p.mover == Color::White {
            e / 100.0
        } else {
            1.0 - e / 100.0
        }
    };
    let mut points: Vec<f64> = plies
        .first()
        .map(|p| first(p, p.expected_before))
        .into_iter()
        .collect();
    points.extend(plies.iter().map(|p| first(p, p.expected_after)));
    let marks: Vec<GraphPly> = plies
        .iter()
        .map(|p| {
            let before = &game.positions()[p.ply - 1];
            GraphPly {
                number: before.fullmove_number(),
                first_mover: p.mover == Color::White,
                text: before.write_move(p.mv, notation),
                mark: match p.class {
                    MoveClass::Inaccuracy => Mark::Inaccuracy,
                    MoveClass::Mistake => Mark::Mistake,
                    MoveClass::Blunder | MoveClass::MissedWin => Mark::Blunder,
                    MoveClass::Best | MoveClass::Good => Mark::None,
                },
                // The class as the wire names it (its serde name).
                class: serde_json::to_value(p.class)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
            }
        })
        .collect();
    let title = format!(
        "{} game review: {} plies, result {}",
        V::NAME,
        plies.len(),
        verdict.position.status.result
    );
    evaluation_graph(&Graph {
        title: &title,
        sides: [V::side_name(Color::White), V::side_name(Color::Black)],
        points: &points,
        plies: &marks,
        legend: ["inaccuracy", "mistake", "blunder or missed win"],
    })
}

/// A review's budget against the server's caps, for `plies` plies: the
/// first pass's limits, the second's, and the workers (the slot's share
/// of the cores, at least `--search-threads`).
fn review_budget<V: Playable>(
    req: &ReviewRequest,
    config: &EngineConfig,
    plies: usize,
) -> Result<(Budget, ReviewLimits), ApiError> {
    let positions = plies as u64 + 1;
    let max_ms = config.max_movetime.as_millis() as u64;
    let total_ms = config.max_review.as_millis() as u64;
    in_range(&budget(config, req.depth, req.movetime_ms, req.nodes))?;
    // The first pass is bounded: a time a position that, times the
    // positions, stays within the server's maximum.
    let share = (total_ms / positions).max(1);
    if let Some(t) = req.movetime_ms {
        if t.saturating_mul(positions) > total_ms {
            return Err(ApiError::new(
                Problem::InvalidLimits,
                format!(
                    "movetime_ms: {t} ms a position for {positions} positions is more than the \
                     server's {total_ms} ms for a review; use at most {share}"
                ),
            )
            .field("movetime_ms"));
        }
    }
    let nodes = match (req.movetime_ms, req.nodes, req.depth) {
        (None, None, None) => Some(DEFAULT_NODES.min(config.max_nodes)),
        (_, n, _) => n,
    };
    let first = PassLimits {
        movetime_ms: req.movetime_ms,
        nodes,
        depth: req.depth,
    };
    // Each later pass: `factor` times the pass before in time or nodes,
    // `plies` deeper, within the server's bounds.
    let deeper = |pass: &PassLimits, factor: u64, plies: u32| PassLimits {
        movetime_ms: pass
            .movetime_ms
            .map(|t| t.saturating_mul(factor).min(max_ms)),
        nodes: pass
            .nodes
            .map(|n| n.saturating_mul(factor).min(config.max_nodes)),
        depth: pass.depth.map(|d| (d + plies).min(config.max_depth)),
    };
    let verify = deeper(&first, VERIFY_FACTOR, VERIFY_DEPTH);
    let deep = deeper(&verify, DEEP_FACTOR, DEEP_DEPTH);
    let network = network::<V>(None, false)?;
    // A search without a clock of its own stops at the server's bounds.
    let limits = |pass: &PassLimits, guard: u64| Limits {
        depth: pass.depth,
        movetime: Some(Duration::from_millis(pass.movetime_ms.unwrap_or(guard))),
        nodes: pass.nodes,
        multipv: 1,
        optimum: None,
        threads: 1,
        network: network.clone(),
        tablebases: true,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let budget = Budget {
        first: limits(&first, share.min(max_ms)),
        verify: limits(&verify, max_ms),
        verify_positions: verify_positions(positions as usize),
        deep: limits(&deep, max_ms),
        deep_positions: deep_positions(positions as usize),
        workers: (cores / config.max_searches.max(1)).max(config.search_threads),
        table_entries: search::table_entries(config.hash_mb),
        deadline: None,
    };
    let applied = ReviewLimits {
        evaluation: evaluation_of(&budget.first),
        verify_positions: budget.verify_positions,
        deep_positions: budget.deep_positions,
        repeatable: req.movetime_ms.is_none(),
        first,
        verify,
        deep,
    };
    Ok((budget, applied))
}
