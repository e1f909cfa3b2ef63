//! Response bodies, with their OpenAPI schemas and examples: what the
//! endpoints answer, built in [`super::answers`].

use serde::Serialize;
use utoipa::ToSchema;

use super::error::ProblemDetails;
use super::wire::{
    Balances, ConductCode, Evaluation, GameId, HealthStatus, MoveClassCode, MoverOutcome,
    OptionType, Side, Status, Tags,
};
use crate::pgn::RecordFormat;
use crate::variants::{
    GameResult, Nature, NotationName, Pattern, Reason, Refusal, VariantId, WarningCode,
};

/// A draw a player may claim now.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimableDraw {
    /// `threefold_repetition` or `fifty_moves`.
    pub reason: Reason,
    /// The claim, in words.
    pub explanation: String,
}

/// Whether the game goes on, and if not, how it ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameStatus {
    /// Whether the game goes on, was won, or was drawn.
    pub status: Status,
    /// `1-0` (the first player wins), `0-1`, `1/2-1/2` or `*` (ongoing).
    pub result: GameResult,
    /// The winning side, when decisive.
    pub winner: Option<Side>,
    /// How the game ended, when it has.
    pub reason: Option<Reason>,
    /// One sentence saying what happened.
    pub explanation: String,
    /// Draws that may be claimed now (Taxi chess: threefold repetition, 50
    /// moves); the game goes on unless one is claimed. Automatic draws
    /// (fivefold, 75 moves) end the game instead.
    pub claimable_draws: Vec<ClaimableDraw>,
    /// For a repetition verdict: what was judged and found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionDoc>,
}

/// A repetition verdict's grounds.
#[derive(Debug, Serialize, ToSchema)]
pub struct RepetitionDoc {
    /// Plies (0 = the start FEN) at which the repeated position stood.
    #[schema(example = json!([2, 6, 10]))]
    pub occurrences: Vec<usize>,
    /// The cycle judged: the moves with indices `from_ply` to `to_ply - 1`
    /// of `moves` (between the last two occurrences).
    pub cycle: PlyRange,
    /// The side that broke the rules, if exactly one did.
    pub in_breach: Option<Side>,
    /// How each side played in the cycle, first mover first.
    pub sides: Vec<SideConduct>,
}

/// A half-open range of plies.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlyRange {
    /// The first ply of the range.
    #[schema(example = 6)]
    pub from_ply: usize,
    /// The ply after the last one of the range.
    #[schema(example = 10)]
    pub to_ply: usize,
}

/// One side's conduct in a repetition cycle.
#[derive(Debug, Serialize, ToSchema)]
pub struct SideConduct {
    /// The side.
    pub side: Side,
    /// What the side did throughout the repetition, in short.
    pub conduct: ConductCode,
    /// The pattern the rules name (`perpetual_mate_threat`,
    /// `one_check_one_chase`, …; under the Asian rules only
    /// `perpetual_check`, `perpetual_chase` and `allowed`).
    pub pattern: Pattern,
    /// The pattern's name in the Chinese rule book (长将, 长杀, 长捉, 一将一捉, …).
    #[schema(example = "长捉")]
    pub term: String,
    /// The nature of each of the side's moves in the cycle, in order.
    pub natures: Vec<Nature>,
    /// The pieces chased, as they stand at the end: under the Asian rules
    /// every piece chased with every move of a perpetual chase; under the
    /// Chinese rules every piece a forbidden side's chases went after (in
    /// board order).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chased: Vec<ChasedPiece>,
    /// Chinese rules: some chase of the side needed two pieces or more (a
    /// joint chase, 联合捉, or an under-protected piece, 少根子), which
    /// outranks single chases when both sides are forbidden.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub joint_chase: bool,
}

/// A chased piece.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChasedPiece {
    /// Where the chased piece stands, in the request's notation.
    #[schema(example = "b7")]
    pub square: String,
    /// The chased piece, in words.
    #[schema(example = "Black chariot")]
    pub piece: String,
}

/// What a move would bring about by completing a repetition.
#[derive(Debug, Serialize, ToSchema)]
pub struct RepetitionMark {
    /// The result for the side making the move.
    pub outcome: MoverOutcome,
    /// `perpetual_check`, `perpetual_chase`, `repetition` or
    /// `early_repetition`; under the Chinese rules also
    /// `perpetual_mate_threat` and `forbidden_repetition`, and
    /// `nine_forbidden_moves` when the move also completes the ninth
    /// forbidden move. Only moves that make a position stand again are
    /// marked: a ninth forbidden move that repeats nothing is not (adjudicate
    /// rules it once played).
    pub reason: Reason,
}

/// A position reached by the request's moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionSummary {
    /// The position as FEN.
    pub fen: String,
    /// The side to move.
    pub side_to_move: Side,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Plies played from the start FEN.
    pub plies: usize,
    /// Taxi chess: both balances before their next income.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balances: Option<Balances>,
    /// Whether the game goes on, and if not, how it ended.
    #[serde(flatten)]
    pub status: GameStatus,
    /// Repetition rulings that the game played past, in order: only under
    /// rules with `repetition_ends_game: false` (over-the-board records,
    /// where the offender is told to change and play goes on). A cycle
    /// played on is ruled at every ply; each run of such plies is one
    /// event, at its first ply. Absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repetition_events: Vec<RepetitionEventDoc>,
    /// Remarks on the request that the rules handle: a composed start
    /// position no game reaches, a damaged tag line of a `pgn` record read
    /// leniently; absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<WarningDoc>,
    /// For a game sent as a record (`pgn`): the kind of record it was
    /// read as (`pgn`, `dhtmlxq`, `dpxq_text`, `playok_wxf`, `compact`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_format: Option<RecordFormat>,
}

/// A repetition ruling the game played past.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "ply": 66,
    "result": "1-0",
    "winner": "red",
    "reason": "perpetual_check",
    "explanation": "the position stood for the third time; Black gave check with every move of the repetition (plies 59-66): perpetual check loses, Red wins",
    "repetition": {"occurrences": [58, 62, 66], "cycle": {"from_ply": 58, "to_ply": 66}, "in_breach": "black",
                   "sides": [{"side": "red", "conduct": "allowed"}, {"side": "black", "conduct": "perpetual_check"}]}
}))]
pub struct RepetitionEventDoc {
    /// The ply at which the ruling was due (0 = the start FEN): the
    /// position after that many moves.
    pub ply: usize,
    /// What the ruling would have made the result.
    pub result: GameResult,
    /// The side the ruling favoured, if decisive.
    pub winner: Option<Side>,
    /// `perpetual_check`, `perpetual_chase`, `repetition`, ….
    pub reason: Reason,
    /// The ruling in a sentence.
    pub explanation: String,
    /// The ruling's grounds, as `repetition` gives them for a game that ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionDoc>,
}

/// A remark on an accepted position.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarningDoc {
    /// What kind of remark.
    pub code: WarningCode,
    /// What the remark is, for a person.
    pub message: String,
}

/// One legal move in every notation the variant writes.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMove {
    /// The move in the request's notation.
    #[serde(rename = "move")]
    #[schema(example = "h2e2")]
    pub mv: String,
    /// ICCS/UCCI coordinates, ranks 0-9 (Xiangqi).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "h2e2")]
    pub iccs: Option<String>,
    /// Fairy-Stockfish coordinates, ranks 1-10 (Xiangqi).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "h3e3")]
    pub fairy: Option<String>,
    /// WXF notation (Xiangqi).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "C2.5")]
    pub wxf: Option<String>,
    /// Chinese notation (Xiangqi).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "炮二平五")]
    pub chinese: Option<String>,
    /// UCI coordinates (Taxi chess).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uci: Option<String>,
    /// Standard algebraic notation (Taxi chess).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
    /// What the move costs in units (Taxi chess): travel + removal + promotion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<u32>,
    /// Whether the move captures.
    pub capture: bool,
    /// Whether the move gives check.
    pub check: bool,
    /// Whether the move would complete a repetition that the mover loses by
    /// under the request's repetition code (a perpetual check or chase; under
    /// `chinese` also perpetual mate threats and every mix of checks, mate
    /// threats and chases): play it and you lose.
    pub forbidden_repetition: bool,
    /// Present when the move would make a position stand for the third time:
    /// what the repetition rules would then rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionMark>,
}

/// The legal moves of a position.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "fen": "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "side_to_move": "red",
    "in_check": false,
    "plies": 2,
    "status": "ongoing",
    "result": "*",
    "winner": null,
    "reason": null,
    "explanation": "the game is in progress",
    "claimable_draws": [],
    "legal_moves": [
        {"move": "a0a1", "iccs": "a0a1", "fairy": "a1a2", "wxf": "R9+1", "chinese": "车九进一",
         "capture": false, "check": false, "forbidden_repetition": false},
        {"move": "a0a2", "iccs": "a0a2", "fairy": "a1a3", "wxf": "R9+2", "chinese": "车九进二",
         "capture": false, "check": false, "forbidden_repetition": false}
    ]
}))]
pub struct LegalMovesResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// The position after the request's moves.
    #[serde(flatten)]
    pub position: PositionSummary,
    /// Every legal move; empty when the game has ended.
    pub legal_moves: Vec<LegalMove>,
}

/// Whether one move is legal, and why not.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "legal": false,
    "move": "b0c2",
    "reason": "the horse's leg at b1 is blocked",
    "reason_code": "blocked"
}))]
pub struct ValidateResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// Whether the move is legal.
    pub legal: bool,
    /// The move as sent.
    #[serde(rename = "move")]
    pub mv: String,
    /// Why the move is illegal, for a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the move is illegal, as a stable code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<Refusal>,
    /// When the move is illegal as written but legal in another notation of
    /// the variant: that notation (send it as `notation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation_hint: Option<NotationName>,
    /// The move in every notation, when legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<LegalMove>,
    /// The position after the move, when legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_after: Option<PositionSummary>,
}

/// The result of a game.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "fen": "R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 1 1",
    "side_to_move": "black",
    "in_check": true,
    "plies": 1,
    "status": "decisive",
    "result": "1-0",
    "winner": "red",
    "reason": "checkmate",
    "explanation": "Black is checkmated: Red wins",
    "claimable_draws": [],
    "ended_at_ply": 1,
    "moves_after_end": 0,
    "recorded_result": null,
    "recorded_result_agrees": null
}))]
pub struct AdjudicateResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// When the game has ended: the ply at which it ended (the position
    /// described is the one at that ply).
    pub ended_at_ply: Option<usize>,
    /// How many moves of the record followed the end of the game (each was
    /// still checked for legality); 0 when the record stops at the end.
    pub moves_after_end: usize,
    /// For a `pgn` record: the result it states (its `[Result]` tag, else
    /// its termination marker); null otherwise.
    pub recorded_result: Option<GameResult>,
    /// For a `pgn` record that states a result: whether it is `result`.
    /// A decisive record of a game the moves leave going on is usually a
    /// resignation or a loss on time, which no move shows.
    pub recorded_result_agrees: Option<bool>,
    /// The position where the game ended (or the last position, if it goes on).
    #[serde(flatten)]
    pub position: PositionSummary,
}

/// A rule option of a variant, as `GET /v1/variants/{variant}` lists it
/// (read off the variant's rules schema: XiangqiRules, TaxiRules, TamerlaneRules).
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleOption {
    /// The option's name in `rules`.
    #[schema(example = "move_limit_plies")]
    pub name: String,
    /// JSON type of the value.
    pub r#type: OptionType,
    /// The values a string option takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// The value used when the request does not set it (of `type`).
    #[schema(value_type = serde_json::Value, example = 100)]
    pub default: serde_json::Value,
    /// What the option does.
    pub description: String,
}

/// A move notation a variant reads and writes.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotationDoc {
    /// Its name in `notation`.
    pub name: NotationName,
    /// Other names accepted for the same notation.
    pub aliases: Vec<NotationName>,
    /// What the notation is.
    pub description: String,
    /// A move written in it.
    #[schema(example = "h2e2")]
    pub example: String,
}

/// What the service knows about a variant.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantDetails {
    /// The name in paths: `/v1/variants/{id}`.
    pub id: VariantId,
    /// The variant's name in words.
    #[schema(example = "Xiangqi")]
    pub name: String,
    /// What the variant is.
    pub description: String,
    /// Board width.
    #[schema(example = 9)]
    pub files: u8,
    /// Board height.
    #[schema(example = 10)]
    pub ranks: u8,
    /// The standard start position.
    pub start_fen: String,
    /// The sides, first mover first.
    pub sides: Vec<Side>,
    /// Notations for moves; the first is the default.
    pub notations: Vec<NotationDoc>,
    /// Options a request may set in `rules`.
    pub rule_options: Vec<RuleOption>,
}

/// The supported variants.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantList {
    /// Every variant, in a stable order.
    pub variants: Vec<VariantDetails>,
}

/// Liveness or readiness.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or why not.
    pub status: HealthStatus,
}

/// A score from the side to move: exactly one of `cp` and `mate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreDoc {
    /// Centipawns (a pawn is 100; a Xiangqi soldier before the river is 30).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Moves to a won end of the game as UCI counts them: 1 when the best
    /// move wins at once (checkmate, a stalemate that wins, a repetition
    /// verdict); negative when the side to move is the one losing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

/// Win, draw and loss chances in per mille, from the side to move's point
/// of view, summing to 1000: the engine's model of how games with this
/// score and this much material on the board end (fitted on its own games;
/// `docs/engine.md`). A mate found is 1000 (or 0).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"win": 412, "draw": 371, "loss": 217}))]
pub struct WdlDoc {
    /// The side to move wins.
    pub win: u32,
    /// A draw.
    pub draw: u32,
    /// The side to move loses.
    pub loss: u32,
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

/// The limits the search ran under, after defaults and caps.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppliedLimits {
    /// The deepest iteration allowed.
    pub depth: u32,
    /// The time allowed, in milliseconds.
    pub movetime_ms: u64,
    /// The node limit, if one was set.
    pub nodes: Option<u64>,
    /// How many lines were asked for.
    pub multipv: usize,
    /// The playing level, when one below the full strength was asked for
    /// (its node limit is in `nodes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// The seed of the level's choice, to replay it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The evaluation the search scored positions with.
    pub evaluation: Evaluation,
}

/// What the engine would play, and why.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "position": {
        "fen": "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1",
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
    /// The deepest iteration completed.
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

/// One game's answer in a batch: its result or its problem.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchResult {
    /// The game's place in the request, from 0.
    pub index: usize,
    /// The game's id, as sent.
    pub id: Option<GameId>,
    /// For a game of a PGN file: the line of the file it begins on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// For a game sent as PGN: its tags, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Tags>,
    /// For a game of a record: the kind of record it was read as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<RecordFormat>,
    /// The result, when the game could be read and replayed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<AdjudicateResponse>,
    /// The problem with this game (the same problem `adjudicate` would
    /// answer), when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ProblemDetails>,
}

/// Every game's answer, in the order sent.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "games": 2,
    "errors": 1,
    "results": [
        {"index": 0, "id": "g1", "result": {"variant": "xiangqi", "status": "ongoing", "result": "*"}},
        {"index": 1, "id": "g2", "error": {
            "type": "urn:arbiter:problem:illegal-move", "title": "A move of the game is illegal",
            "status": 422, "detail": "move 0 ('h2h8'): the cannon's path is blocked at h7", "code": "illegal_move",
            "field": "moves[0]", "move_index": 0, "move": "h2h8"
        }}
    ]
}))]
pub struct BatchResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// How many games were sent.
    pub games: usize,
    /// How many of them have a problem instead of a result.
    pub errors: usize,
    /// For a file of records (a PGN, DhtmlXQ, dpxq, PlayOK, compact or
    /// XQF body, or `pgn`): the kind of record it was read as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<RecordFormat>,
    /// For a file sent as the body: the encoding its text was read in
    /// (`UTF-8`, `gb18030`, `Big5`), named by its charset or found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// One per game, in the order sent.
    pub results: Vec<BatchResult>,
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
    pub class: MoveClassCode,
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
