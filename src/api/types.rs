//! Request and response bodies, with their OpenAPI schemas and examples.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A position: a start FEN and the moves played since.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "moves": ["h2e2", "h9g7"]
}))]
pub struct PositionRequest {
    /// The start position as FEN; the variant's start position when absent.
    pub fen: Option<String>,
    /// Moves played from `fen`, oldest first, written in `notation`.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Rule options of the variant; `GET /v1/variants/{variant}` lists them with their defaults.
    #[schema(value_type = Option<Object>)]
    pub rules: Option<serde_json::Value>,
    /// How moves are written in this request and its answer; `GET /v1/variants/{variant}`
    /// lists the notations. Default: the variant's coordinate notation (`iccs`
    /// for Xiangqi, `uci` for Taxi chess).
    pub notation: Option<String>,
    /// Taxi chess: both balances, instead of (or agreeing with) the FEN's seventh field.
    pub balances: Option<Balances>,
}

/// Both sides' balances in units (Taxi chess), before their next income.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Balances {
    #[schema(example = 16)]
    pub white: u32,
    #[schema(example = 16)]
    pub black: u32,
}

/// A draw a player may claim now.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimableDraw {
    /// `threefold_repetition` or `fifty_moves`.
    #[schema(example = "threefold_repetition")]
    pub reason: String,
    pub explanation: String,
}

/// A position and one more move to check.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "moves": ["h2e2", "h9g7"],
    "move": "b0c2"
}))]
pub struct ValidateRequest {
    /// The start position as FEN; the variant's start position when absent.
    pub fen: Option<String>,
    /// Moves played from `fen`, oldest first, written in `notation`.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The move to check, in the position after `moves`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Rule options of the variant.
    #[schema(value_type = Option<Object>)]
    pub rules: Option<serde_json::Value>,
    /// How moves are written in this request and its answer.
    pub notation: Option<String>,
    /// Taxi chess: both balances, instead of (or agreeing with) the FEN's seventh field.
    pub balances: Option<Balances>,
}

/// Whether the game goes on, and if not, how it ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameStatus {
    /// `ongoing`, `decisive` or `drawn`.
    #[schema(example = "ongoing")]
    pub status: String,
    /// `1-0` (first player wins), `0-1`, `1/2-1/2` or `*` (ongoing).
    #[schema(example = "*")]
    pub result: String,
    /// The winning side, when decisive.
    pub winner: Option<String>,
    /// Stable code of how the game ended: `checkmate`, `stalemate`,
    /// `move_limit`, `insufficient_material`, `perpetual_check`,
    /// `perpetual_chase`, `repetition`, `bankruptcy`, `fivefold_repetition`,
    /// `seventy_five_moves`.
    pub reason: Option<String>,
    /// One sentence saying what happened.
    #[schema(example = "the game is in progress")]
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
    pub in_breach: Option<String>,
    /// How each side played in the cycle, first mover first.
    pub sides: Vec<SideConduct>,
}

/// A half-open range of plies.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlyRange {
    #[schema(example = 6)]
    pub from_ply: usize,
    #[schema(example = 10)]
    pub to_ply: usize,
}

/// One side's conduct in a repetition cycle.
#[derive(Debug, Serialize, ToSchema)]
pub struct SideConduct {
    #[schema(example = "red")]
    pub side: String,
    /// `perpetual_check`, `perpetual_chase` or `allowed`.
    #[schema(example = "perpetual_chase")]
    pub conduct: String,
    /// For a perpetual chase: the chased piece as it stands at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chased: Option<ChasedPiece>,
}

/// A chased piece.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChasedPiece {
    #[schema(example = "b7")]
    pub square: String,
    #[schema(example = "Black chariot")]
    pub piece: String,
}

/// What a move would bring about by completing a repetition.
#[derive(Debug, Serialize, ToSchema)]
pub struct RepetitionMark {
    /// The result for the side making the move: `win`, `draw` or `loss`.
    #[schema(example = "loss")]
    pub outcome: String,
    /// `perpetual_check`, `perpetual_chase` or `repetition`.
    #[schema(example = "perpetual_check")]
    pub reason: String,
}

/// A position reached by the request's moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionSummary {
    /// The position as FEN.
    pub fen: String,
    /// The side to move (`red` or `black` in Xiangqi).
    #[schema(example = "red")]
    pub side_to_move: String,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Plies played from the start FEN.
    pub plies: usize,
    /// Taxi chess: both balances before their next income.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balances: Option<Balances>,
    #[serde(flatten)]
    pub status: GameStatus,
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
    #[schema(example = "e2e4")]
    pub uci: Option<String>,
    /// Standard algebraic notation (Taxi chess).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "e4")]
    pub san: Option<String>,
    /// What the move costs in units (Taxi chess): travel + removal + promotion.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 2)]
    pub cost: Option<u32>,
    /// Whether the move captures.
    pub capture: bool,
    /// Whether the move gives check.
    pub check: bool,
    /// Whether the move would complete a repetition that the mover loses by
    /// (a perpetual check or chase): play it and you lose.
    pub forbidden_repetition: bool,
    /// Present when the move would make a position stand for the third time:
    /// what the repetition rules would then rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionMark>,
}

/// The legal moves of a position.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMovesResponse {
    /// The variant.
    #[schema(example = "xiangqi")]
    pub variant: String,
    #[serde(flatten)]
    pub position: PositionSummary,
    /// Every legal move; empty when the game has ended.
    pub legal_moves: Vec<LegalMove>,
}

/// Whether one move is legal, and why not.
#[derive(Debug, Serialize, ToSchema)]
pub struct ValidateResponse {
    /// The variant.
    #[schema(example = "xiangqi")]
    pub variant: String,
    /// Whether the move is legal.
    pub legal: bool,
    /// The move as sent.
    #[serde(rename = "move")]
    pub mv: String,
    /// Why the move is illegal, for a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "the horse's leg at b1 is blocked")]
    pub reason: Option<String>,
    /// Why the move is illegal, as a stable code: `no_piece`, `not_your_piece`,
    /// `null_move`, `own_piece`, `bad_geometry`, `leaves_palace`, `crosses_river`,
    /// `blocked`, `cannon_screen`, `not_crossed`, `self_check`, `flying_general`,
    /// `no_such_move`, `game_over`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "blocked")]
    pub reason_code: Option<String>,
    /// The move in every notation, when legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<LegalMove>,
    /// The position after the move, when legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_after: Option<PositionSummary>,
}

/// The result of a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdjudicateResponse {
    /// The variant.
    #[schema(example = "xiangqi")]
    pub variant: String,
    #[serde(flatten)]
    pub position: PositionSummary,
}

/// A rule option of a variant.
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleOption {
    #[schema(example = "move_limit_plies")]
    pub name: String,
    /// JSON type of the value.
    #[schema(example = "integer")]
    pub r#type: String,
    /// The value used when the request does not set it (of `type`).
    #[schema(value_type = serde_json::Value)]
    pub default: serde_json::Value,
    pub description: String,
}

/// A move notation a variant reads and writes.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotationDoc {
    #[schema(example = "iccs")]
    pub name: String,
    pub description: String,
    #[schema(example = "h2e2")]
    pub example: String,
}

/// What the service knows about a variant.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantDetails {
    #[schema(example = "xiangqi")]
    pub id: String,
    #[schema(example = "Xiangqi")]
    pub name: String,
    pub description: String,
    /// Board width.
    #[schema(example = 9)]
    pub files: u8,
    /// Board height.
    #[schema(example = 10)]
    pub ranks: u8,
    pub start_fen: String,
    /// The sides, first mover first.
    pub sides: Vec<String>,
    /// Notations for moves; the first is the default.
    pub notations: Vec<NotationDoc>,
    /// Options a request may set in `rules`.
    pub rule_options: Vec<RuleOption>,
}

/// The supported variants.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantList {
    pub variants: Vec<VariantDetails>,
}

/// Liveness or readiness.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: String,
}

/// A position to analyse, and how long or deep to search it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "moves": ["h2e2", "h9g7"],
    "movetime_ms": 500,
    "multipv": 2
}))]
pub struct AnalyzeRequest {
    /// The start position as FEN; the variant's start position when absent.
    pub fen: Option<String>,
    /// Moves played from `fen`, oldest first, written in `notation`. They
    /// count for the repetition rules of the search too.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Rule options of the variant.
    #[schema(value_type = Option<Object>)]
    pub rules: Option<serde_json::Value>,
    /// How moves are written in this request and its answer.
    pub notation: Option<String>,
    /// Taxi chess: both balances, instead of (or agreeing with) the FEN's seventh field.
    pub balances: Option<Balances>,
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
}

/// A score from the side to move: exactly one of `cp` and `mate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreDoc {
    /// Centipawns (a pawn is 100; a Xiangqi soldier before the river is 30).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 35)]
    pub cp: Option<i32>,
    /// Moves to a won end of the game as UCI counts them: 1 when the best
    /// move wins at once (checkmate, a stalemate that wins, a repetition
    /// verdict); negative when the side to move is the one losing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

/// One principal variation.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisLine {
    /// The moves of the line, from the analysed position, in `notation`.
    #[schema(example = json!(["h9g7", "h0g2"]))]
    pub moves: Vec<String>,
    pub score: ScoreDoc,
    /// The depth (plies, before extensions) at which the line was found.
    #[schema(example = 9)]
    pub depth: u32,
}

/// The limits the search ran under, after defaults and caps.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppliedLimits {
    pub depth: u32,
    pub movetime_ms: u64,
    pub nodes: Option<u64>,
    pub multipv: usize,
}

/// What the engine would play, and why.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalyzeResponse {
    #[schema(example = "xiangqi")]
    pub variant: String,
    /// The analysed position.
    pub position: PositionSummary,
    /// The move the engine would play, in `notation`.
    #[schema(example = "h9g7")]
    pub best_move: String,
    /// The best lines, best first (`multipv` of them, or fewer when there are
    /// fewer legal moves).
    pub lines: Vec<AnalysisLine>,
    /// The deepest iteration completed.
    #[schema(example = 9)]
    pub depth: u32,
    /// Nodes searched.
    #[schema(example = 812345)]
    pub nodes: u64,
    /// Nodes per second.
    #[schema(example = 1200000)]
    pub nps: u64,
    /// Wall time of the search, in milliseconds.
    #[schema(example = 680)]
    pub time_ms: u64,
    pub limits: AppliedLimits,
}

/// A position to draw (`POST …/diagram`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"moves": ["h2e2", "h9g7"], "flip": false}))]
pub struct DiagramRequest {
    /// The start position as FEN; the variant's start position when absent.
    pub fen: Option<String>,
    /// Moves played from `fen`, oldest first, written in `notation`.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Rule options of the variant.
    #[schema(value_type = Option<Object>)]
    pub rules: Option<serde_json::Value>,
    /// How `moves` are written.
    pub notation: Option<String>,
    /// Taxi chess: both balances, instead of (or agreeing with) the FEN's seventh field.
    pub balances: Option<Balances>,
    /// Draw the board from the second player's side (default false).
    pub flip: Option<bool>,
    /// Label files and ranks (default true).
    pub coordinates: Option<bool>,
    /// Mark the last move and a general or king in check (default true).
    pub highlight: Option<bool>,
}

/// A position to draw, as query parameters (`GET …/diagram.svg`).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DiagramQuery {
    /// The start position as FEN; the variant's start position when absent.
    pub fen: Option<String>,
    /// Moves played from `fen`, separated by commas or spaces.
    #[param(example = "h2e2,h9g7")]
    pub moves: Option<String>,
    /// Rule options as a JSON object, e.g. `{"setup":"feminine"}`.
    pub rules: Option<String>,
    /// How `moves` are written.
    pub notation: Option<String>,
    /// Draw the board from the second player's side (default false).
    pub flip: Option<bool>,
    /// Label files and ranks (default true).
    pub coordinates: Option<bool>,
    /// Mark the last move and a general or king in check (default true).
    pub highlight: Option<bool>,
}

/// The fields that say which game a request is about.
pub trait PositionFields {
    fn fen(&self) -> Option<&str>;
    fn moves(&self) -> &[String];
    fn rules(&self) -> Option<&serde_json::Value>;
    fn notation(&self) -> Option<&str>;
    fn balances(&self) -> Option<&Balances>;
}

macro_rules! position_fields {
    ($($t:ty),*) => {$(
        impl PositionFields for $t {
            fn fen(&self) -> Option<&str> {
                self.fen.as_deref()
            }
            fn moves(&self) -> &[String] {
                &self.moves
            }
            fn rules(&self) -> Option<&serde_json::Value> {
                self.rules.as_ref()
            }
            fn notation(&self) -> Option<&str> {
                self.notation.as_deref()
            }
            fn balances(&self) -> Option<&Balances> {
                self.balances.as_ref()
            }
        }
    )*};
}

position_fields!(
    PositionRequest,
    ValidateRequest,
    AnalyzeRequest,
    DiagramRequest
);
