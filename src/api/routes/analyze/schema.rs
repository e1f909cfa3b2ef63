//! The request and the answers of `…/analyze`, as the OpenAPI document shows them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::limits::AppliedLimits;
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::responses::{PositionSummary, RepetitionMark, ScoreDoc, WdlDoc};
use crate::api::wire::{Balances, Evaluation, Moves};
use crate::variants::{NotationName, VariantId};

game_request! {
    /// A position to analyse, and how long or deep to search it.
    #[schema(example = json!({
        "moves": ["h2e2", "h9g7"],
        "movetime_ms": 500,
        "multipv": 2
    }))]
    pub struct AnalyzeRequest {
        /// Search this many plies deep (at most the server's `--max-depth`).
        #[schema(minimum = 1, example = 8)]
        pub depth: Option<u32>,
        /// Search this long, in milliseconds (at most the server's
        /// `--max-movetime-ms`). With no limit at all the server's default applies
        /// (1,000 ms unless configured).
        #[schema(minimum = 1, example = 1000)]
        pub movetime_ms: Option<u64>,
        /// Search about this many nodes (at most the server's `--max-nodes`).
        #[schema(minimum = 1, example = 1000000)]
        pub nodes: Option<u64>,
        /// How many best lines to report, 1-5 (default 1).
        #[schema(minimum = 1, maximum = 5, example = 1)]
        pub multipv: Option<usize>,
        /// Score every legal move (of those `searchmoves` and `exclude`
        /// leave): one line per move, best first, within the time given
        /// (default false; `multipv` is then not needed).
        pub all_moves: Option<bool>,
        /// Choose only among these moves of the position (in `notation`).
        #[schema(example = json!(["h2e2", "b2e2"]))]
        pub searchmoves: Option<Vec<String>>,
        /// Leave these moves of the position out (in `notation`).
        #[schema(example = json!(["h0g2"]))]
        pub exclude: Option<Vec<String>>,
        /// Also say what the opponent would play were it its move (default
        /// false): a fifth of the time and nodes goes to that search.
        pub threat: Option<bool>,
        /// Play at this level, 1 (weakest) to 20 (full strength, the
        /// default): a weaker level searches fewer nodes and chooses its
        /// `best_move` among the moves it found nearly as good as its best
        /// (never one that loses by the rules while another does not).
        /// Each variant has its own levels, each scoring 55-80 % against
        /// the one below (the docs' tables give their approximate Elo).
        #[schema(minimum = 1, maximum = 20, example = 8)]
        pub level: Option<u32>,
        /// The seed of a level's choice: the same seed, position and limits
        /// give the same move (default: a new seed each request, given in
        /// the answer's `limits`).
        #[schema(example = 42)]
        pub seed: Option<u64>,
        /// `nnue` (the variant's network: Xiangqi's, the default there) or
        /// `hce` (the hand-written evaluation: the default for the other
        /// variants, and the only one a `level` below 20 plays with).
        #[schema(example = "nnue")]
        pub evaluation: Option<Evaluation>,
    }
    moves: [
        /// Moves played from `fen`; they count for the repetition rules of the
        /// search too.
    ],
}

/// One principal variation.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisLine {
    /// The line's first move, in `notation`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The moves of the line, from the analysed position, in `notation`.
    pub moves: Vec<String>,
    /// The line's score, from the side to move's point of view.
    pub score: ScoreDoc,
    /// The chances the score stands for.
    pub wdl: WdlDoc,
    /// The depth (plies, before extensions) at which the line was found.
    pub depth: u32,
    /// Whether the first move would complete a repetition that the mover
    /// loses by (as `legal-moves` marks it).
    pub forbidden_repetition: bool,
    /// Present when the first move would make a position stand for the
    /// third time: what the repetition rules would then rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionMark>,
}

/// What the opponent would play were it its move.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"move": "h7h0", "score": {"cp": 310}}))]
pub struct ThreatDoc {
    /// The opponent's move, in `notation`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score, from the opponent's point of view.
    pub score: ScoreDoc,
}

/// What the engine would play, and why.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "position": {
        "fen": "4k4/9/9/9/9/9/9/9/R8/1R1K4p w - - 0 1",
        "side_to_move": "red",
        "in_check": false,
        "plies": 0,
        "status": "ongoing",
        "result": "*",
        "winner": null,
        "reason": null,
        "explanation": "the game is in progress",
        "claimable_draws": []
    },
    "best_move": "b0b8",
    "lines": [{"move": "b0b8", "moves": ["b0b8", "e9f9", "a1a9"], "score": {"mate": 2},
               "wdl": {"win": 1000, "draw": 0, "loss": 0}, "depth": 4,
               "forbidden_repetition": false}],
    "source": "search",
    "depth": 4,
    "nodes": 544,
    "nps": 412000,
    "time_ms": 2,
    "limits": {"depth": 5, "movetime_ms": 10000, "nodes": null, "multipv": 1, "evaluation": "nnue"}
}))]
pub struct AnalyzeResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// The analysed position.
    pub position: PositionSummary,
    /// The move the engine would play, in `notation` (with a `level`, the
    /// level's choice: one of the lines' first moves).
    pub best_move: String,
    /// The best lines, best first (`multipv` of them, or fewer when there are
    /// fewer legal moves; with `all_moves`, one per move searched; with a
    /// `level`, at least the moves the level weighs: every move up to level
    /// 7, then four, three, two).
    pub lines: Vec<AnalysisLine>,
    /// With `threat`: what the opponent would play were it its move; absent
    /// when not asked or when the side to move is in check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<ThreatDoc>,
    /// Where the answer comes from: `search`, or `tablebase` (the
    /// position is in the endgame tables: every line's score is exact,
    /// `depth`, `nodes` and `nps` are 0).
    pub source: AnalysisSource,
    /// The depth of the first line's search: the deepest iteration
    /// completed, or the unfinished one after it when that one had
    /// searched its best line so far in full.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Wall time of the search, in milliseconds.
    pub time_ms: u64,
    /// The limits the search ran under, after defaults and caps.
    pub limits: AppliedLimits,
}

/// Where an analysis comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnalysisSource {
    /// The engine's search.
    Search,
    /// The endgame tables (Xiangqi): exact.
    Tablebase,
}

/// A completed depth of a streamed analysis (one NDJSON line).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "depth": 6,
    "nodes": 10240,
    "time_ms": 21,
    "lines": [{"move": "h2e2", "moves": ["h2e2", "h9g7", "h0g2"], "score": {"cp": 41},
               "wdl": {"win": 180, "draw": 689, "loss": 131}, "depth": 6,
               "forbidden_repetition": false}]
}))]
pub struct AnalyzeProgress {
    /// The depth just completed.
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began, in milliseconds.
    pub time_ms: u64,
    /// The best lines at this depth, best first.
    pub lines: Vec<AnalysisLine>,
}
