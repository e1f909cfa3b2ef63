//! The request and the answer of `…/review`, as the OpenAPI document shows them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::responses::{AdjudicateResponse, RepetitionEventDoc, ScoreDoc, WdlDoc};
use crate::api::wire::{Balances, Evaluation, Moves, ReviewFormat};
use crate::search::review::{Ending, MoveClass};
use crate::variants::Side;
use crate::variants::{NotationName, VariantId};

game_request! {
    /// A game to review, and how long to search each of its positions.
    #[schema(example = json!({
        "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"],
        "nodes": 20000
    }))]
    pub struct ReviewRequest {
        /// Search each position of the first pass this long, in
        /// milliseconds, and a doubtful ply's positions ten times as long
        /// (at most the server's `--max-movetime-ms`; the first pass at
        /// most `--max-review-secs`). A search by the clock depends on the
        /// machine's load: the same request may then answer otherwise.
        /// Default: none, the budget is counted in nodes.
        #[schema(minimum = 1, example = 50)]
        pub movetime_ms: Option<u64>,
        /// Search each position of the first pass this many nodes, and a
        /// doubtful ply's positions ten times as many (at most the server's
        /// `--max-nodes`). Default 23,000 when no limit is given: the same
        /// request gives the same answer.
        #[schema(minimum = 1, example = 100000)]
        pub nodes: Option<u64>,
        /// Search each position of the first pass this many plies deep, and
        /// a doubtful ply's positions four plies deeper (at most the
        /// server's `--max-depth`).
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
    "win_loss": 0.0, "class": "best", "verified": false
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
    /// For a marked move (`inaccuracy` or worse): the engine's line from
    /// the position before it, its choice first, a few plies, in
    /// `notation`; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_line: Option<Vec<String>>,
    /// The position before the move, searched.
    pub score_before: ScoreDoc,
    /// The position after it, searched; when the move ended the game,
    /// `{"mate": 0}` for a win or a loss (`ended` says which) and
    /// `{"cp": 0}` for a draw.
    pub score_after: ScoreDoc,
    /// How the game ended with this move, for the mover (`win`, `draw`,
    /// `loss`); absent while it goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<Ending>,
    /// The repetition ruling this move brought, in a record played on past
    /// it (rules with `repetition_ends_game: false`): as `result`'s
    /// `repetition_events` give it; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<RepetitionEventDoc>,
    /// The mover's chances before the move.
    pub wdl_before: WdlDoc,
    /// Win-percentage points the move gave away (the expected score, win +
    /// draw / 2, before less after; 0 when it gained, and for the engine's
    /// own choice), to 0.1.
    pub win_loss: f64,
    /// The move's class.
    pub class: MoveClass,
    /// Whether the ply was in doubt after the first pass and both its
    /// positions were searched again, deeper (or the game's end settled the
    /// one after); or the endgame tables judged both (exactly).
    pub verified: bool,
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

/// One pass's budget for each position it searches.
#[derive(Debug, Serialize, ToSchema)]
pub struct PassLimits {
    /// Time, in milliseconds, if the search is bounded by the clock.
    pub movetime_ms: Option<u64>,
    /// Nodes, if set.
    pub nodes: Option<u64>,
    /// Depth, if set.
    pub depth: Option<u32>,
}

/// The budget a review ran with, after defaults and caps.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "first": {"movetime_ms": null, "nodes": 23000, "depth": null},
    "verify": {"movetime_ms": null, "nodes": 230000, "depth": null},
    "verify_positions": 16,
    "deep": {"movetime_ms": null, "nodes": 920000, "depth": null},
    "deep_positions": 4, "repeatable": true, "evaluation": "nnue"
}))]
pub struct ReviewLimits {
    /// Each position's first search.
    pub first: PassLimits,
    /// The second search of a doubtful ply's two positions.
    pub verify: PassLimits,
    /// The most positions searched a second time (a third of the game's,
    /// at least 16).
    pub verify_positions: usize,
    /// The third search of a ply the second left in doubt.
    pub deep: PassLimits,
    /// The most positions searched a third time (one in 25 of the game's,
    /// at least 4).
    pub deep_positions: usize,
    /// Whether the same request gives the same answer: true unless the
    /// searches run by the clock (`movetime_ms`), or the server's time
    /// bound (`--max-review-secs`) cut the review short.
    pub repeatable: bool,
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
               "win_loss": 0.0, "class": "best", "verified": false}],
    "sides": [
        {"side": "red", "accuracy": 100.0, "inaccuracies": 0, "mistakes": 0, "blunders": 0, "missed_wins": 0},
        {"side": "black", "accuracy": null, "inaccuracies": 0, "mistakes": 0, "blunders": 0, "missed_wins": 0}
    ],
    "verified_plies": [],
    "complete": true,
    "limits": {
        "first": {"movetime_ms": null, "nodes": 23000, "depth": null},
        "verify": {"movetime_ms": null, "nodes": 230000, "depth": null},
        "verify_positions": 16,
        "deep": {"movetime_ms": null, "nodes": 920000, "depth": null},
        "deep_positions": 4, "repeatable": true, "evaluation": "nnue"
    },
    "result": {"variant": "xiangqi", "status": "ongoing", "result": "*"}
}))]
pub struct ReviewResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// One entry per ply, in order: every move of the record up to the
    /// game's end (a record played on past a repetition ruling is reviewed
    /// to its last move, the ruling shown on its ply).
    pub plies: Vec<ReviewPly>,
    /// Each side's accuracy and counts, first mover first.
    pub sides: Vec<SideReview>,
    /// The plies whose judgment is settled, in order: searched again in
    /// the second pass, or judged by the endgame tables.
    pub verified_plies: Vec<usize>,
    /// False only when the server cut the review short (its time bound):
    /// the plies then are those reviewed.
    pub complete: bool,
    /// The budget used.
    pub limits: ReviewLimits,
    /// The game's verdict by our rules: what `adjudicate` answers.
    pub result: AdjudicateResponse,
}
