//! `POST /v1/variants/{variant}/review`: a game reviewed move by move,
//! each side's accuracy, as JSON, streamed, or as an evaluation graph.

use std::sync::Arc;

use actix_web::http::header;
use actix_web::{post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::responses::{AdjudicateResponse, ScoreDoc, WdlDoc};
use crate::api::state::AppState;
use crate::api::wire::{Balances, Evaluation, Moves, ReviewFormat};
use crate::dispatch::{Playable, Visitor};
use crate::search;
use crate::search::review::MoveClass;
use crate::search::Limits;
use crate::variants::Side;
use crate::variants::{Color, Game, NotationName, VariantId};
use std::time::Duration;

game_request! {
    /// A game to review, and how long to search each of its positions.
    #[schema(example = json!({
        "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"],
        "movetime_ms": 50
    }))]
    pub struct ReviewRequest {
        /// Search each position this long, in milliseconds (default 100;
        /// at most the server's `--max-movetime-ms`; the whole review at
        /// most `--max-review-secs`).
        #[schema(minimum = 1, example = 50)]
        pub movetime_ms: Option<u64>,
        /// Search each position about this many nodes (at most the
        /// server's `--max-nodes`).
        #[schema(minimum = 1, example = 100000)]
        pub nodes: Option<u64>,
        /// Search each position this many plies deep (at most the server's
        /// `--max-depth`).
        #[schema(minimum = 1, example = 8)]
        pub depth: Option<u32>,
        /// `json` (the default) or `svg` (the evaluation graph); `Accept:
        /// image/svg+xml` asks for the graph too, `Accept:
        /// application/x-ndjson` for one line per ply as it goes.
        pub format: Option<ReviewFormat>,
    }
    pgn: [
        /// A whole game record in PGN, instead of `fen` and `moves` (see
        /// `PositionRequest.pgn`).
    ],
}

/// One reviewed ply (scores from the mover's point of view).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "ply": 3, "side": "red", "move": "h0g2", "best_move": "h0g2",
    "score_before": {"cp": 42}, "score_after": {"cp": 38},
    "wdl_before": {"win": 171, "draw": 750, "loss": 79},
    "win_loss": 0.4, "class": "best"
}))]
pub struct ReviewPly {
    /// The ply, from 1.
    pub ply: usize,
    /// Who moved.
    pub side: Side,
    /// The move played, in `notation`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The engine's choice in the position before it, in `notation`.
    pub best_move: String,
    /// The position before the move, searched.
    pub score_before: ScoreDoc,
    /// The position after it, searched (or its result, if the game ended
    /// there: a win is `{"mate": 1}`).
    pub score_after: ScoreDoc,
    /// The mover's chances before the move.
    pub wdl_before: WdlDoc,
    /// Win-percentage points the move gave away (the expected score, win +
    /// draw / 2, before less after; 0 when it gained), to 0.1.
    pub win_loss: f64,
    /// The move's class.
    pub class: MoveClass,
}

/// One side's figures in a review.
#[derive(Debug, Serialize, ToSchema)]
pub struct SideReview {
    /// The side.
    pub side: Side,
    /// The mean of its moves' accuracies (each `103.1668 e^(−0.04354
    /// win_loss) − 3.1669`, within 0-100), to 0.1; absent without a move.
    pub accuracy: Option<f64>,
    /// Its moves classed `inaccuracy`.
    pub inaccuracies: usize,
    /// Its moves classed `mistake`.
    pub mistakes: usize,
    /// Its moves classed `blunder`.
    pub blunders: usize,
    /// Its moves classed `missed_win`.
    pub missed_wins: usize,
}

/// The per-move budget a review ran with, after defaults and caps.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewLimits {
    /// Time for each position, in milliseconds.
    pub movetime_ms: u64,
    /// Nodes for each position, if set.
    pub nodes: Option<u64>,
    /// Depth for each position, if set.
    pub depth: Option<u32>,
    /// The evaluation the searches scored positions with (the variant's
    /// network where it has one).
    pub evaluation: Evaluation,
}

/// A game reviewed: every move weighed, each side's accuracy, and the
/// game's verdict by the rules.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "plies": [{"ply": 1, "side": "red", "move": "h2e2", "best_move": "h2e2",
               "score_before": {"cp": 30}, "score_after": {"cp": 28},
               "wdl_before": {"win": 150, "draw": 760, "loss": 90},
               "win_loss": 0.2, "class": "best"}],
    "sides": [
        {"side": "red", "accuracy": 99.4, "inaccuracies": 0, "mistakes": 0, "blunders": 0, "missed_wins": 0},
        {"side": "black", "accuracy": null, "inaccuracies": 0, "mistakes": 0, "blunders": 0, "missed_wins": 0}
    ],
    "complete": true,
    "limits": {"movetime_ms": 50, "nodes": null, "depth": null, "evaluation": "nnue"},
    "result": {"variant": "xiangqi", "status": "ongoing", "result": "*"}
}))]
pub struct ReviewResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// One entry per ply, in order.
    pub plies: Vec<ReviewPly>,
    /// Each side's accuracy and counts, first mover first.
    pub sides: Vec<SideReview>,
    /// False when the review stopped before the last ply (the server cut
    /// it short); the plies then are those reviewed.
    pub complete: bool,
    /// The per-move budget used.
    pub limits: ReviewLimits,
    /// The game's verdict by our rules: what `adjudicate` answers.
    pub result: AdjudicateResponse,
}

/// Reviews a game: every position searched, each move weighed by the win
/// chances it gave away and classed, each side's accuracy, and the game's
/// verdict by our rules.
///
/// Send the game as `adjudicate` takes it (`fen` and `moves`, or `pgn`) and
/// a budget for each position (`movetime_ms`, 100 ms by default; or
/// `nodes`, `depth`). Each ply gets `best_move`, `score_before` and
/// `score_after` (the mover's view), `wdl_before`, `win_loss` (the
/// win-percentage points the move gave away: its expected score, win +
/// draw / 2, before less after) and `class`: `best` (the engine's choice,
/// giving away under 5 points),
/// `good` (under 5 points), `inaccuracy` (5 or more), `mistake` (10 or
/// more), `blunder` (15 or more), `missed_win` (a won position, 80 % or
/// more, left for one of 60 % or less). A side's `accuracy` is the mean of
/// its moves' `103.1668 e^(−0.04354 win_loss) − 3.1669` (0-100). A record
/// with an illegal move gets the problem `adjudicate` gives.
///
/// The review runs in the engine pool like `analyze` (503 `engine_busy`
/// when every slot stays taken, 429 `too_many_searches` past the client's
/// share) and is bounded: the per-position time times
/// the positions stays within the server's `--max-review-secs`, and a game
/// of more than `--max-review-plies` plies is refused. With `Accept:
/// application/x-ndjson` it streams one `ReviewPly` line per ply as it goes,
/// then the `ReviewResponse`, and stops when the client hangs up; with
/// `Accept: image/svg+xml` (or `"format": "svg"`) it answers the
/// evaluation graph: the first mover's expected score after each ply, its
/// inaccuracies, mistakes and blunders marked.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/review",
    tag = "engine",
    params(VariantPath),
    request_body(content = ReviewRequest, examples(
        ("opening" = (summary = "Six plies, 50 ms a position", value = json!({
            "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"],
            "movetime_ms": 50
        }))),
        ("blunder" = (summary = "Red leaves its chariot to be taken (ply 1), depth 6", value = json!({
            "fen": "4k4/9/9/9/R8/7r1/9/9/9/3K5 w - - 0 1",
            "moves": ["a5h5", "h4h5"],
            "depth": 6
        }))),
        ("graph" = (summary = "The evaluation graph of a record (SVG)", value = json!({
            "pgn": "[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 *",
            "movetime_ms": 50,
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

/// One reviewed ply, written for the wire.
fn review_ply<V: Playable>(
    game: &Game<V>,
    notation: V::Notation,
    p: &search::review::PlyReview<V::Move>,
) -> ReviewPly {
    let before = &game.positions()[p.ply - 1];
    ReviewPly {
        ply: p.ply,
        side: V::side(p.mover),
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
        class: p.class,
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
            search::review::review(&job_game, end, &limits, control, &table, &mut on_ply)
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
                    side: V::side(c),
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

/// The default time for each position of a review, in milliseconds.
const REVIEW_MOVETIME_MS: u64 = 100;

/// A review's per-move limits against the server's caps, for `plies` plies.
fn review_limits<V: Playable>(
    req: &ReviewRequest,
    config: &EngineConfig,
    plies: usize,
) -> Result<(Limits, ReviewLimits), ApiError> {
    let positions = plies as u64 + 1;
    let max_ms = config.max_movetime.as_millis() as u64;
    let total_ms = config.max_review.as_millis() as u64;
    in_range(&budget(config, req.depth, req.movetime_ms, req.nodes))?;
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
    let limits = Limits {
        depth: req.depth,
        movetime: Some(Duration::from_millis(movetime)),
        nodes: req.nodes,
        multipv: 1,
        optimum: None,
        threads: config.search_threads,
        network: network::<V>(None, false)?,
    };
    let applied = ReviewLimits {
        movetime_ms: movetime,
        nodes: req.nodes,
        depth: req.depth,
        evaluation: evaluation_of(&limits),
    };
    Ok((limits, applied))
}
