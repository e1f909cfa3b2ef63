//! The rules core: one module per variant, all behind the [`Variant`] trait.
//!
//! Nothing in here knows about HTTP. The API layer, the CLI and the search all
//! talk to a variant through [`Variant`] and the small common types below.

use std::fmt;
use std::hash::Hash;

pub mod game;
pub mod tamerlane;
pub mod taxi;
pub mod xiangqi;

pub use game::{Game, PlayError};

/// The two sides. `White` is the side that moves first (Red in Xiangqi).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

/// Identifies a variant on the wire (`/v1/variants/{variant}`) and in the CLI.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::Display,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum VariantId {
    Xiangqi,
    Taxi,
    Tamerlane,
}

impl VariantId {
    /// Every variant, in the order the service lists them.
    pub const ALL: &'static [VariantId] = <VariantId as strum::VariantArray>::VARIANTS;

    /// The name on the wire: `xiangqi`, `taxi`, `tamerlane`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Reads a name on the wire.
    pub fn parse(name: &str) -> Option<VariantId> {
        name.parse().ok()
    }
}

/// The name of a move notation on the wire (`notation`). Each variant reads
/// a few of them; [`Variant::parse_notation`] says which.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum NotationName {
    /// Xiangqi: ICCS coordinates, ranks 0-9 (`h2e2`); the default.
    Iccs,
    /// Xiangqi: the same as `iccs` (UCCI engines speak ICCS).
    Ucci,
    /// Xiangqi: Fairy-Stockfish's coordinates, ranks 1-10 (`h3e3`).
    Fairy,
    /// Taxi chess: UCI coordinates (`e2e4`), the default. In Xiangqi the same
    /// as `fairy` (the UCI coordinates of Fairy-Stockfish and pyffish).
    Uci,
    /// Xiangqi: WXF notation (`C2.5`).
    Wxf,
    /// Xiangqi: Chinese notation (`炮二平五`).
    Chinese,
    /// Taxi chess: standard algebraic notation (`Nf3`).
    San,
    /// Tamerlane chess: coordinates (`b2c4`, `a10@e5`, `f2~d5`); the default.
    Coordinate,
}

impl NotationName {
    /// The name on the wire, e.g. `iccs`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A move notation a variant reads and writes.
#[derive(Clone, Debug)]
pub struct NotationInfo {
    pub name: NotationName,
    /// Other names for the same notation.
    pub aliases: &'static [NotationName],
    pub description: &'static str,
    pub example: &'static str,
}

/// What a variant says about itself.
#[derive(Clone, Debug)]
pub struct VariantInfo {
    pub id: VariantId,
    pub name: &'static str,
    pub description: &'static str,
    pub files: u8,
    pub ranks: u8,
    pub start_fen: &'static str,
    /// Names of the sides, first mover first (e.g. `["red", "black"]`).
    pub sides: [&'static str; 2],
    /// The notations, the default first.
    pub notations: Vec<NotationInfo>,
}

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct FenError {
    pub message: String,
}

impl FenError {
    pub fn new(message: impl Into<String>) -> FenError {
        FenError {
            message: message.into(),
        }
    }
}

/// Why a move was refused, as a stable code (`reason_code` on the wire).
///
/// One list for every variant; each variant uses the codes that apply to it.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Refusal {
    /// The move cannot be read in the notation (a syntax error, not a rule).
    BadNotation,
    /// There is no piece on the move's first point or square.
    NoPiece,
    /// The piece belongs to the side not to move.
    NotYourPiece,
    /// The move does not go anywhere.
    NullMove,
    /// The destination holds one of the mover's own pieces.
    OwnPiece,
    /// The piece does not move that way.
    BadGeometry,
    /// Xiangqi: a general or advisor would leave its palace.
    LeavesPalace,
    /// Xiangqi: an elephant would cross the river.
    CrossesRiver,
    /// A leg, eye or path on the way is occupied.
    Blocked,
    /// Xiangqi: a cannon capture without exactly one screen.
    CannonScreen,
    /// Xiangqi: a soldier moves sideways before crossing the river.
    NotCrossed,
    /// The move leaves the mover's general, king or last royal attacked.
    SelfCheck,
    /// Xiangqi: the generals would face each other on an open file.
    FlyingGeneral,
    /// No legal move is written that way (WXF, Chinese, SAN input).
    NoSuchMove,
    /// The game is over: no move is legal.
    GameOver,
    /// Taxi chess: the mover cannot pay for the move.
    InsufficientFunds,
    /// Taxi chess: castling out of or through a threatened square.
    CastlingThroughThreat,
    /// Taxi chess: the castling right is lost or the way is not clear.
    CastlingNotAllowed,
    /// Taxi chess: a pawn reaching the last rank must name its promotion.
    PromotionRequired,
    /// Taxi chess: a promotion where none is possible.
    BadPromotion,
    /// Tamerlane chess: a citadel rule is broken.
    Citadel,
    /// Tamerlane chess: a dormant pawn of pawns cannot move.
    Dormant,
    /// Tamerlane chess: a dormant pawn of pawns cannot be captured.
    Immune,
    /// Tamerlane chess: a pawn of pawns' relocation breaks its rule.
    BadRelocation,
    /// Tamerlane chess: a shah's exchange breaks its rule.
    BadExchange,
    /// Tamerlane chess: the exchange has been used.
    ExchangeUsed,
    /// Tamerlane chess: the exchange is not allowed in this position.
    ExchangeNotAllowed,
    /// Tamerlane chess: a pawn of pawns' second arrival is barred by a royal.
    SecondArrivalBarred,
    /// Illegal for a reason none of the other codes names.
    Illegal,
}

impl Refusal {
    /// The code on the wire, e.g. `blocked`.
    pub fn code(self) -> &'static str {
        self.into()
    }
}

/// Why a move was refused: a stable [`Refusal`] code and a sentence a person
/// can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct MoveError {
    pub code: Refusal,
    pub message: String,
}

impl MoveError {
    pub fn new(code: Refusal, message: impl Into<String>) -> MoveError {
        MoveError {
            code,
            message: message.into(),
        }
    }

    /// The move string could not be read at all (as opposed to: read, but illegal).
    pub fn is_syntax(&self) -> bool {
        self.code == Refusal::BadNotation
    }

    /// The move cannot be read in its notation.
    pub fn syntax(message: impl Into<String>) -> MoveError {
        MoveError::new(Refusal::BadNotation, message)
    }

    /// The refusals every variant shares, worded alike everywhere.
    pub fn no_piece(square: &str) -> MoveError {
        MoveError::new(Refusal::NoPiece, format!("there is no piece on {square}"))
    }

    pub fn not_your_piece(square: &str, owner: &str, to_move: &str) -> MoveError {
        MoveError::new(
            Refusal::NotYourPiece,
            format!("the piece on {square} is {owner}'s, and it is {to_move} to move"),
        )
    }

    /// `place` is what the board is made of: "square", or "point" in Xiangqi.
    pub fn null_move(place: &str) -> MoveError {
        MoveError::new(
            Refusal::NullMove,
            format!("a move must go to another {place}"),
        )
    }

    pub fn own_piece(square: &str, side: &str, piece: &str) -> MoveError {
        MoveError::new(
            Refusal::OwnPiece,
            format!("{square} is occupied by {side}'s own {piece}"),
        )
    }
}

/// What a warning is about (`code` of a warning on the wire).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum WarningCode {
    /// A composed position: a piece stands where no game can bring it (a
    /// Xiangqi soldier behind its starting rank). The rules handle it.
    UnreachablePlacement,
}

/// A remark on an accepted position: it is played by the rules, but
/// something about it deserves to be said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub code: WarningCode,
    pub message: String,
}

/// Why the start of a game was refused: its FEN, or its separate balances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    Fen(FenError),
    Balances(String),
}

/// Why a rule set was refused: the option at fault and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {message}")]
pub struct RulesError {
    /// The rule option, e.g. `start_money`.
    pub option: &'static str,
    pub message: String,
}

/// Stable codes for the reason a game ended (`reason` on the wire).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss in
    /// Xiangqi and Tamerlane chess, a draw in Taxi chess).
    Stalemate,
    /// Too many plies without a capture (or pawn move).
    MoveLimit,
    /// Neither side can win.
    InsufficientMaterial,
    /// A side lost by checking with every move of a repetition cycle.
    PerpetualCheck,
    /// A side lost by chasing the same piece with every move of a repetition cycle.
    PerpetualChase,
    /// A repetition that neither side, or both, caused by forbidden means: drawn.
    Repetition,
    /// Taxi chess: in check and unable to pay for any move out of it.
    Bankruptcy,
    /// Taxi chess: the same position (balances included) a third time; a claimable draw.
    ThreefoldRepetition,
    /// Taxi chess: the same position a fifth time; drawn automatically.
    FivefoldRepetition,
    /// Taxi chess: 100 plies without capture or pawn move; a claimable draw.
    FiftyMoves,
    /// Taxi chess: 150 plies without capture or pawn move; drawn automatically.
    SeventyFiveMoves,
    /// Tamerlane chess: a royal stands in the enemy citadel; drawn.
    Citadel,
    /// Tamerlane chess (option): a side with nothing but royals left.
    BareKing,
}

impl Reason {
    /// The code on the wire, e.g. `checkmate`.
    pub fn code(self) -> &'static str {
        self.into()
    }
}

/// A piece chased with every move of a repetition, as it stands at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChasedPiece {
    /// Its point or square, e.g. `a7`.
    pub square: String,
    /// What it is, e.g. `Black chariot`.
    pub piece: String,
}

/// How one side played in a repetition cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conduct {
    /// Every move of the side in the cycle gave check.
    PerpetualCheck,
    /// Every move of the side chased the same piece (check moves included):
    /// every such piece, in board order.
    PerpetualChase { chased: Vec<ChasedPiece> },
    /// Neither.
    Allowed,
}

impl Conduct {
    pub fn code(&self) -> &'static str {
        match self {
            Conduct::PerpetualCheck => "perpetual_check",
            Conduct::PerpetualChase { .. } => "perpetual_chase",
            Conduct::Allowed => "allowed",
        }
    }
}

/// What a repetition verdict looked at and found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionReport {
    /// Plies (0 = the start position) at which the repeated position stood.
    pub occurrences: Vec<usize>,
    /// The span judged, from the first of the last three occurrences to the
    /// last: the moves `moves[from..to]`.
    pub cycle: (usize, usize),
    /// The conduct of each side in the cycle, first mover first.
    pub conduct: [Conduct; 2],
    /// The side that broke the rules, if exactly one did.
    pub in_breach: Option<Color>,
}

/// A game's result as PGN writes it.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
    strum::Display,
)]
pub enum GameResult {
    /// The first mover (White, or Red in Xiangqi) won.
    #[serde(rename = "1-0")]
    #[strum(serialize = "1-0")]
    FirstWins,
    /// The second mover (Black) won.
    #[serde(rename = "0-1")]
    #[strum(serialize = "0-1")]
    SecondWins,
    /// Drawn.
    #[serde(rename = "1/2-1/2")]
    #[strum(serialize = "1/2-1/2")]
    Draw,
    /// The game goes on.
    #[serde(rename = "*")]
    #[strum(serialize = "*")]
    Ongoing,
}

/// The state of a game: still going, won, or drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Decisive {
        winner: Color,
        reason: Reason,
        explanation: String,
        repetition: Option<Box<RepetitionReport>>,
    },
    Drawn {
        reason: Reason,
        explanation: String,
        repetition: Option<Box<RepetitionReport>>,
    },
}

impl Outcome {
    pub fn is_ongoing(&self) -> bool {
        matches!(self, Outcome::Ongoing)
    }

    pub fn reason(&self) -> Option<Reason> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Decisive { reason, .. } | Outcome::Drawn { reason, .. } => Some(*reason),
        }
    }

    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(*winner),
            _ => None,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(&self) -> GameResult {
        match self {
            Outcome::Ongoing => GameResult::Ongoing,
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => GameResult::FirstWins,
            Outcome::Decisive {
                winner: Color::Black,
                ..
            } => GameResult::SecondWins,
            Outcome::Drawn { .. } => GameResult::Draw,
        }
    }

    pub fn repetition(&self) -> Option<&RepetitionReport> {
        match self {
            Outcome::Decisive { repetition, .. } | Outcome::Drawn { repetition, .. } => {
                repetition.as_deref()
            }
            Outcome::Ongoing => None,
        }
    }

    pub fn explanation(&self) -> &str {
        match self {
            Outcome::Ongoing => "the game is in progress",
            Outcome::Decisive { explanation, .. } | Outcome::Drawn { explanation, .. } => {
                explanation
            }
        }
    }
}

/// Every notation of one move that a variant can write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNotations {
    /// The move in the notation the request asked for (the wire form).
    pub wire: String,
    /// Named alternative notations, e.g. `("iccs", "h2e2")`, `("wxf", "C2.5")`.
    pub others: Vec<(&'static str, String)>,
    pub capture: bool,
    pub gives_check: bool,
    /// What the move costs, in variants with money.
    pub cost: Option<u32>,
}

/// One chess variant: its position type, moves, rules and notation.
///
/// Implemented by the position type of each variant. The API, the CLI and the
/// search use nothing but this trait, so a new variant is a new module.
pub trait Variant: Clone + Send + Sync + Sized + 'static {
    /// A move, small and `Copy`.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// What `make_move` returns so that `unmake_move` can restore the position.
    type Undo: Copy;
    /// The rule options a request may set (`rules` in JSON). Its schema
    /// documents every option (type, default and meaning); `Default` gives the
    /// standard rules.
    type Rules: Clone
        + fmt::Debug
        + Default
        + serde::Serialize
        + serde::de::DeserializeOwned
        + utoipa::ToSchema
        + Send
        + Sync
        + 'static;
    /// How moves are written on input and output (`notation` in JSON).
    type Notation: Copy + fmt::Debug + Default + Send + Sync + 'static;

    const ID: VariantId;
    /// Names of the sides on the wire, first mover first (e.g. `["red", "black"]`).
    const SIDES: [&'static str; 2];

    fn info() -> VariantInfo;

    /// Checks rule option values beyond their types.
    fn check_rules(_rules: &Self::Rules) -> Result<(), RulesError> {
        Ok(())
    }

    /// The notation a name stands for in this variant, if it has it.
    fn notation(name: NotationName) -> Option<Self::Notation>;

    fn start_position(rules: &Self::Rules) -> Self;
    fn from_fen(fen: &str, rules: &Self::Rules) -> Result<Self, FenError>;
    fn to_fen(&self) -> String;

    fn side_to_move(&self) -> Color;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// A hash of everything that makes two positions the same for repetition.
    fn hash_key(&self) -> u64;

    /// Fills `out` (cleared first) with every legal move, ignoring whether the
    /// game has already ended by a rule that needs history.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// How many legal moves there are; a variant may count faster than it lists.
    fn count_legal_moves(&self, scratch: &mut Vec<Self::Move>) -> usize {
        self.legal_moves(scratch);
        scratch.len()
    }
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// Reads a move and checks it is legal here, explaining a refusal.
    fn parse_move(&self, text: &str, notation: Self::Notation) -> Result<Self::Move, MoveError>;
    /// All notations of a legal move in this position.
    fn describe_move(&self, mv: Self::Move, notation: Self::Notation) -> MoveNotations;
    /// The move in the given coordinate notation only (cheap).
    fn move_to_string(&self, mv: Self::Move, notation: Self::Notation) -> String;

    /// Both balances, in variants with money (first mover first).
    fn balances(&self) -> Option<[u32; 2]> {
        None
    }

    /// Remarks on this position as a start: what the rules handle but no
    /// game reaches (composed positions).
    fn warnings(&self) -> Vec<Warning> {
        Vec::new()
    }

    /// The start of a request's game: `fen` (or the start position) with the
    /// request's separate `balances`, in variants with money. The position is
    /// validated once, with the balances it will really have.
    fn setup(
        fen: Option<&str>,
        rules: &Self::Rules,
        balances: Option<[u32; 2]>,
    ) -> Result<Self, SetupError> {
        if balances.is_some() {
            return Err(SetupError::Balances(format!(
                "{} has no money, so it takes no balances",
                Self::ID
            )));
        }
        match fen {
            Some(f) => Self::from_fen(f, rules).map_err(SetupError::Fen),
            None => Ok(Self::start_position(rules)),
        }
    }

    /// Draws that a player may claim now (the game goes on unless claimed).
    fn claimable_draws(_game: &Game<Self>) -> Vec<(Reason, String)> {
        Vec::new()
    }

    /// What playing the legal move `mv` would bring about through a rule that
    /// needs the game's history (Xiangqi's repetition verdicts), if anything.
    fn history_verdict_after(_game: &Game<Self>, _mv: Self::Move) -> Option<Outcome> {
        None
    }

    /// The result of the game whose positions are `game.positions()`, given
    /// whether the side to move has a legal move (the caller usually knows).
    fn adjudicate(game: &Game<Self>, has_legal_move: bool) -> Outcome;
}

/// Counts the leaf nodes of the legal move tree to `depth` (bulk-counted at
/// the last ply). The truth test of a move generator.
pub fn perft<V: Variant>(pos: &mut V, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<V::Move>> =
        (0..depth.max(1)).map(|_| Vec::with_capacity(128)).collect();
    perft_inner(pos, depth, &mut buffers)
}

fn perft_inner<V: Variant>(pos: &mut V, depth: u32, buffers: &mut [Vec<V::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.count_legal_moves(moves) as u64;
    }
    pos.legal_moves(moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        nodes += perft_inner(pos, depth - 1, rest);
        pos.unmake_move(mv, undo);
    }
    nodes
}

/// Perft split by first move: `(move, leaves)` in generation order.
pub fn perft_divide<V: Variant>(
    pos: &mut V,
    depth: u32,
    notation: V::Notation,
) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let name = pos.move_to_string(mv, notation);
            let undo = pos.make_move(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move(mv, undo);
            (name, n)
        })
        .collect()
}
