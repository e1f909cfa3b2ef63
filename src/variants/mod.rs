//! The rules core: one module per variant, all behind the [`Variant`] trait.
//!
//! Nothing in here knows about HTTP, JSON or English: results are typed
//! ([`Verdict`], [`Refusal`] and each variant's [`Variant::Why`]), and the
//! API renders them in words. The API, the CLI and the search all talk to a
//! variant through [`Variant`] and the small common types below; see
//! `docs/architecture.md`.

use std::fmt;

use serde::{Deserialize, Serialize};
use std::hash::Hash;
use strum::{Display, EnumString, IntoStaticStr, VariantArray};
use utoipa::ToSchema;

pub mod game;
pub mod spelling;
pub mod tamerlane;
pub mod taxi;
pub mod xiangqi;
mod zobrist;

pub use game::{Game, PlayError, RepetitionEvent};

/// What the variants' tests look at in a refused move: its code, and the
/// words the API gives it.
#[cfg(test)]
pub(crate) mod testing {
    use super::Refusal;
    use crate::api::prose::{self, Prose};

    /// A refused move: its code and its words.
    #[derive(Debug)]
    pub struct Refused {
        pub code: Refusal,
        pub message: String,
    }

    impl Refused {
        /// Whether the text was no move at all.
        pub fn is_syntax(&self) -> bool {
            self.code == Refusal::BadNotation
        }
    }

    /// Reads `text` in `pos`, which must refuse it.
    pub fn refused<V: Prose>(pos: &V, text: &str, notation: V::Notation) -> Refused {
        let e = pos
            .parse_move(text, notation)
            .expect_err("the move must be refused");
        Refused {
            code: e.code(),
            message: prose::move_error(pos, &e, text, notation),
        }
    }
}

/// `true`: the default of options that are on unless switched off.
pub(crate) fn yes() -> bool {
    true
}

/// The two sides. `White` is the side that moves first (Red in Xiangqi).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first mover: White, or Red in Xiangqi.
    White = 0,
    /// The second mover.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-side arrays.
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
    Serialize,
    Deserialize,
    ToSchema,
    IntoStaticStr,
    EnumString,
    Display,
    VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum VariantId {
    /// Chinese chess.
    Xiangqi,
    /// FIDE chess where every step costs money.
    Taxi,
    /// The 11x10 game with citadels.
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
/// a few of them; [`Variant::notation`] says which. Names are read in any
/// case (`ICCS`, as PGN's `[Format]` writes it, is `iccs`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema, IntoStaticStr, VariantArray,
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

    /// Reads a name in any case.
    pub fn parse(name: &str) -> Option<NotationName> {
        NotationName::VARIANTS
            .iter()
            .find(|n| n.as_str().eq_ignore_ascii_case(name.trim()))
            .copied()
    }
}

impl<'de> Deserialize<'de> for NotationName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<NotationName, D::Error> {
        let name = String::deserialize(d)?;
        NotationName::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("no notation is named '{name}'")))
    }
}

/// A move notation a variant reads and writes.
#[derive(Clone, Debug)]
pub struct NotationInfo {
    /// Its name on the wire.
    pub name: NotationName,
    /// Other names for the same notation.
    pub aliases: &'static [NotationName],
    /// A move of the start position in it.
    pub example: &'static str,
}

/// The facts a variant states about itself (its words are the API's).
#[derive(Clone, Debug)]
pub struct VariantInfo {
    /// Which variant.
    pub id: VariantId,
    /// Board width.
    pub files: u8,
    /// Board height.
    pub ranks: u8,
    /// The standard start position.
    pub start_fen: &'static str,
    /// The notations, the default first.
    pub notations: Vec<NotationInfo>,
}

/// Why a FEN was refused: a parser's diagnostic, naming the field or rank
/// at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct FenError {
    /// What is wrong, for a person.
    pub message: String,
}

impl FenError {
    /// A diagnostic.
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
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema, IntoStaticStr, VariantArray,
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

/// A variant's reason for refusing a move, with the details a person needs
/// (points, pieces, costs); the API puts it in words.
pub trait Why: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The stable code of the refusal.
    fn code(&self) -> Refusal;
}

/// Why a move text was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError<W> {
    /// The text is not a move in the notation at all.
    Unreadable,
    /// It reads as a move, and the rules refuse it.
    Illegal(W),
}

impl<W: Why> MoveError<W> {
    /// The stable code: `bad_notation`, or the refusal's.
    pub fn code(&self) -> Refusal {
        match self {
            MoveError::Unreadable => Refusal::BadNotation,
            MoveError::Illegal(why) => why.code(),
        }
    }

    /// The move string could not be read at all (as opposed to: read, but illegal).
    pub fn is_syntax(&self) -> bool {
        matches!(self, MoveError::Unreadable)
    }
}

/// What a warning is about (`code` of a warning on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema, IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum WarningCode {
    /// A composed position: a piece stands where no game can bring it (a
    /// Xiangqi soldier behind its starting rank). The rules handle it.
    UnreachablePlacement,
    /// A game record's tag line that is not `[Name "value"]` (an unescaped
    /// quote, a missing bracket), read leniently; the moves are judged.
    DamagedTag,
}

/// A remark on an accepted position: it is played by the rules, but
/// something about it deserves to be said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What the remark is about.
    pub code: WarningCode,
    /// The point or square concerned, in the variant's numbering.
    pub square: u8,
}

/// Why balances sent beside a FEN were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BalancesError {
    /// The variant has no money.
    NoMoney,
    /// A balance is over the largest one.
    TooLarge {
        /// The largest balance.
        max: u32,
    },
    /// The FEN's seventh field says otherwise.
    Disagree {
        /// What the request sent, first mover first.
        sent: [u32; 2],
        /// What the FEN says.
        fen: [u32; 2],
    },
}

/// Why the start of a game was refused: its FEN, or its separate balances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The FEN.
    Fen(FenError),
    /// The balances.
    Balances(BalancesError),
}

/// Why a rule set was refused: an option over its largest value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {value} is more than {max}")]
pub struct RulesError {
    /// The rule option, e.g. `start_money`.
    pub option: &'static str,
    /// The value sent.
    pub value: u64,
    /// The largest value allowed.
    pub max: u64,
}

/// Stable codes for the reason a game ended (`reason` on the wire).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema, IntoStaticStr, VariantArray,
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
    /// A side lost by chasing with every move of a repetition cycle (the
    /// same piece, under the Asian rules).
    PerpetualChase,
    /// Chinese rules: a side lost by threatening mate with every move of a
    /// repetition cycle (长杀).
    PerpetualMateThreat,
    /// Chinese rules: a side lost by a forbidden mix of checks, mate threats
    /// and chases in a repetition cycle (一将一捉, 一杀一捉, …).
    ForbiddenRepetition,
    /// Chinese rules: a side lost by nine forbidden moves in a row over three
    /// points or more, repeated or not.
    NineForbiddenMoves,
    /// Tournament option: a repetition that would be drawn came before the
    /// move from which a repetition may draw; Red, who had to change, loses.
    EarlyRepetition,
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

    /// Whether a repetition of positions brought it about.
    pub fn is_repetition(self) -> bool {
        matches!(
            self,
            Reason::PerpetualCheck
                | Reason::PerpetualChase
                | Reason::PerpetualMateThreat
                | Reason::ForbiddenRepetition
                | Reason::NineForbiddenMoves
                | Reason::EarlyRepetition
                | Reason::Repetition
                | Reason::ThreefoldRepetition
                | Reason::FivefoldRepetition
        )
    }
}

/// What one move of a repetition cycle is, in the terms of the rules: the
/// heaviest it is (check, then mate threat, then chase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema, IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Nature {
    /// The move gives check (将).
    Check,
    /// The move threatens mate by a check or a chain of checks (杀; the
    /// Chinese rules).
    MateThreat,
    /// The move chases: after it the mover could win material (捉).
    Chase,
    /// Anything else (闲), offers of exchange and blocks included.
    Idle,
}

/// How one side played in a repetition cycle: the pattern the rules name.
/// Under the Asian rules only `perpetual_check`, `perpetual_chase` and
/// `allowed` occur; the Chinese rules forbid every mix of checks, mate
/// threats and chases.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Pattern {
    /// Every move gave check (长将).
    PerpetualCheck,
    /// Every move threatened mate (长杀; forbidden under the Chinese rules).
    PerpetualMateThreat,
    /// Every move chased (长捉).
    PerpetualChase,
    /// Checks and mate threats, nothing else (一将一杀).
    OneCheckOneMateThreat,
    /// Checks and chases, nothing else (一将一捉).
    OneCheckOneChase,
    /// Mate threats and chases, nothing else (一杀一捉).
    OneMateThreatOneChase,
    /// Checks, mate threats and chases, nothing else (将杀捉).
    CheckMateThreatAndChase,
    /// Not forbidden: some move was idle (Chinese rules), or no perpetual
    /// check or chase of one piece (Asian rules).
    Allowed,
}

impl Pattern {
    /// The Chinese rules' pattern of a side's moves: forbidden when every
    /// move is a check, mate threat or chase, named by which of them occur.
    pub fn of(natures: &[Nature]) -> Pattern {
        let has = |n: Nature| natures.contains(&n);
        if natures.is_empty() || has(Nature::Idle) {
            return Pattern::Allowed;
        }
        match (
            has(Nature::Check),
            has(Nature::MateThreat),
            has(Nature::Chase),
        ) {
            (true, false, false) => Pattern::PerpetualCheck,
            (false, true, false) => Pattern::PerpetualMateThreat,
            (false, false, true) => Pattern::PerpetualChase,
            (true, true, false) => Pattern::OneCheckOneMateThreat,
            (true, false, true) => Pattern::OneCheckOneChase,
            (false, true, true) => Pattern::OneMateThreatOneChase,
            _ => Pattern::CheckMateThreatAndChase,
        }
    }

    /// Whether the pattern is forbidden (the side must change).
    pub fn is_forbidden(self) -> bool {
        self != Pattern::Allowed
    }

    /// The pattern's name in the Chinese rule book: 长将, 长杀, 一将一捉, ….
    pub fn chinese_term(self) -> &'static str {
        match self {
            Pattern::PerpetualCheck => "长将",
            Pattern::PerpetualMateThreat => "长杀",
            Pattern::PerpetualChase => "长捉",
            Pattern::OneCheckOneMateThreat => "一将一杀",
            Pattern::OneCheckOneChase => "一将一捉",
            Pattern::OneMateThreatOneChase => "一杀一捉",
            Pattern::CheckMateThreatAndChase => "将杀捉",
            Pattern::Allowed => "允许着法",
        }
    }

    /// The code on the wire, e.g. `perpetual_check`.
    pub fn code(self) -> &'static str {
        self.into()
    }
}

/// How one side played in a repetition cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conduct {
    /// The pattern the rules name.
    pub pattern: Pattern,
    /// The nature of each of the side's moves in the cycle, in order.
    pub natures: Vec<Nature>,
    /// The pieces chased, as they stand at the end of the cycle, in board
    /// order: under the Asian rules the pieces chased by every move of a
    /// perpetual chase; under the Chinese rules every piece a chase of the
    /// side went after.
    pub chased: Vec<u8>,
    /// Chinese rules: some chase of the side needed two pieces or more (a
    /// joint chase, 联合捉, or a chase of an under-protected piece, 少根子),
    /// which outranks a side whose chases are all single.
    pub joint: bool,
}

impl Conduct {
    /// A side that did nothing forbidden, with its moves' natures.
    pub fn allowed(natures: Vec<Nature>) -> Conduct {
        Conduct {
            pattern: Pattern::Allowed,
            natures,
            chased: Vec::new(),
            joint: false,
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
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, IntoStaticStr, Display, VariantArray,
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

impl GameResult {
    /// The result as PGN writes it, e.g. `1-0`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// A name a program can use for it (`first_wins`): generated clients
    /// name their enum members after these (`x-enum-varnames`), since
    /// `1-0` is no identifier.
    pub fn identifier(self) -> &'static str {
        match self {
            GameResult::FirstWins => "first_wins",
            GameResult::SecondWins => "second_wins",
            GameResult::Draw => "draw",
            GameResult::Ongoing => "ongoing",
        }
    }
}

impl utoipa::PartialSchema for GameResult {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::extensions::ExtensionsBuilder;
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        let all = <GameResult as VariantArray>::VARIANTS;
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A game's result as PGN writes it: `1-0` (the first mover, White or Red, won), `0-1`, `1/2-1/2`, `*` (going on).",
            ))
            .enum_values(Some(all.iter().map(|r| r.as_str())))
            .extensions(Some(
                ExtensionsBuilder::new()
                    .add(
                        "x-enum-varnames",
                        all.iter().map(|r| r.identifier()).collect::<Vec<_>>(),
                    )
                    .build(),
            ))
            .into()
    }
}

impl ToSchema for GameResult {}

/// How a game ended: why, and who won (nobody in a draw). No prose: the API
/// explains it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Why the game ended.
    pub reason: Reason,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// For a repetition verdict: what was judged and found.
    pub repetition: Option<Box<RepetitionReport>>,
}

impl Verdict {
    /// `winner` wins by `reason`.
    pub fn win(winner: Color, reason: Reason) -> Verdict {
        Verdict {
            reason,
            winner: Some(winner),
            repetition: None,
        }
    }

    /// Drawn by `reason`.
    pub fn draw(reason: Reason) -> Verdict {
        Verdict {
            reason,
            winner: None,
            repetition: None,
        }
    }
}

/// The state of a game: still going, or ended by a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The game has ended.
    Ended(Verdict),
}

impl From<Option<Verdict>> for Outcome {
    fn from(v: Option<Verdict>) -> Outcome {
        v.map_or(Outcome::Ongoing, Outcome::Ended)
    }
}

impl Outcome {
    /// Whether the game goes on.
    pub fn is_ongoing(&self) -> bool {
        matches!(self, Outcome::Ongoing)
    }

    /// The verdict, if the game has ended.
    pub fn verdict(&self) -> Option<&Verdict> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Ended(v) => Some(v),
        }
    }

    /// Whether the game ended in a draw.
    pub fn is_draw(&self) -> bool {
        self.verdict().is_some_and(|v| v.winner.is_none())
    }

    /// Why the game ended.
    pub fn reason(&self) -> Option<Reason> {
        self.verdict().map(|v| v.reason)
    }

    /// The winner, when decisive.
    pub fn winner(&self) -> Option<Color> {
        self.verdict().and_then(|v| v.winner)
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(&self) -> GameResult {
        match self.verdict() {
            None => GameResult::Ongoing,
            Some(Verdict {
                winner: Some(Color::White),
                ..
            }) => GameResult::FirstWins,
            Some(Verdict {
                winner: Some(Color::Black),
                ..
            }) => GameResult::SecondWins,
            Some(_) => GameResult::Draw,
        }
    }

    /// For a repetition verdict: what was judged and found.
    pub fn repetition(&self) -> Option<&RepetitionReport> {
        self.verdict().and_then(|v| v.repetition.as_deref())
    }
}

/// What the history says about the last position, for a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repeats {
    /// Nothing (or nothing looked for).
    None,
    /// The plies at which the last position stood, itself included, in
    /// order (adjudication: every occurrence since the last irreversible move).
    Occurrences(Vec<usize>),
    /// The last position repeats the one at ply `from`: the search's view,
    /// which judges a repetition at its second occurrence as if the cycle
    /// were played again.
    Cycle {
        /// The ply of the earlier occurrence.
        from: usize,
    },
}

/// Every notation of one move that a variant can write, and what it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNotations {
    /// The move in the notation the request asked for.
    pub wire: String,
    /// The move in each notation the variant writes, e.g. `(Iccs, "h2e2")`,
    /// `(Wxf, "C2.5")`.
    pub written: Vec<(NotationName, String)>,
    /// Whether it captures.
    pub capture: bool,
    /// Whether it gives check.
    pub gives_check: bool,
    /// What the move costs, in variants with money.
    pub cost: Option<u32>,
}

/// One chess variant: its position type, moves, rules and notation.
///
/// Implemented by the position type of each variant. The API, the CLI and the
/// search use nothing but this trait, so a new variant is a new module (and
/// one line in [`crate::dispatch`]).
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
        + PartialEq
        + serde::Serialize
        + serde::de::DeserializeOwned
        + utoipa::ToSchema
        + Send
        + Sync
        + 'static;
    /// How moves are written on input and output (`notation` in JSON).
    type Notation: Copy + fmt::Debug + Default + PartialEq + Send + Sync + 'static;
    /// Why a move is refused, with the variant's details.
    type Why: Why;

    /// Which variant this is.
    const ID: VariantId;

    /// What the variant states about itself.
    fn info() -> VariantInfo;

    /// Whether a repetition verdict ends the game under these rules (the
    /// `repetition_ends_game` option, true by default), or is recorded as
    /// an event while the game goes on, as over the board, where the
    /// arbiter tells the offender to change and play continues.
    fn repetition_ends_game(rules: &Self::Rules) -> bool;

    /// Checks rule option values beyond their types.
    fn check_rules(_rules: &Self::Rules) -> Result<(), RulesError> {
        Ok(())
    }

    /// The notation a name stands for in this variant, if it has it.
    fn notation(name: NotationName) -> Option<Self::Notation>;

    /// The standard start position under these rules.
    fn start_position(rules: &Self::Rules) -> Self;
    /// Reads a FEN; positions that break the rules are refused.
    fn from_fen(fen: &str, rules: &Self::Rules) -> Result<Self, FenError>;
    /// Writes the FEN.
    fn to_fen(&self) -> String;

    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The number of the full move about to be played (1 at the start; it
    /// grows after the second mover's move), as the FEN's sixth field.
    fn fullmove_number(&self) -> u32;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// The position's Zobrist key, kept up to date move by move: equal for
    /// positions that are the same for repetition (a key may also tell apart
    /// positions that are the same, where that cannot matter).
    fn hash_key(&self) -> u64;
    /// Whether two positions are the same for the repetition rules.
    fn same_position(&self, other: &Self) -> bool;
    /// Plies since the last move that cannot be undone (a capture, a pawn
    /// move): no earlier position can repeat.
    fn reversible_plies(&self) -> usize;

    /// Fills `out` (cleared first) with every legal move, ignoring whether the
    /// game has already ended by a rule that needs history.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// How many legal moves there are; a variant may count faster than it lists.
    fn count_legal_moves(&self, scratch: &mut Vec<Self::Move>) -> usize {
        self.legal_moves(scratch);
        scratch.len()
    }
    /// Plays a legal move.
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the move `make_move` played.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// Reads a move: a legal move, or why not. Legality is looked up among
    /// the legal moves; only a refusal is explained.
    fn parse_move(
        &self,
        text: &str,
        notation: Self::Notation,
    ) -> Result<Self::Move, MoveError<Self::Why>>;
    /// The moves in one token of a game record: usually the token itself;
    /// a notation whose moves have a fixed length may be exported with a
    /// move pair written together (Xiangqi's WXF `C2.5H8+7`).
    fn split_record_token(text: &str, _notation: Self::Notation) -> Vec<String> {
        vec![text.to_owned()]
    }

    /// Every notation of each of `moves` (legal here), with what it does.
    fn describe_moves(&self, moves: &[Self::Move], notation: Self::Notation) -> Vec<MoveNotations>;
    /// The move in the given notation.
    fn write_move(&self, mv: Self::Move, notation: Self::Notation) -> String;

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
            return Err(SetupError::Balances(BalancesError::NoMoney));
        }
        match fen {
            Some(f) => Self::from_fen(f, rules).map_err(SetupError::Fen),
            None => Ok(Self::start_position(rules)),
        }
    }

    /// The one verdict of the rules on the last of `positions` (reached by
    /// `moves`), with the variant's precedence, or `None` while the game goes
    /// on. `has_legal_move` says whether the side to move has one (a caller
    /// that has not looked may pass `true`); `repeats` what the history says.
    /// The adjudication and the search both ask this.
    fn verdict(
        positions: &[Self],
        moves: &[Self::Move],
        rules: &Self::Rules,
        has_legal_move: bool,
        repeats: &Repeats,
    ) -> Option<Verdict>;

    /// Draws that a player may claim now (the game goes on unless claimed):
    /// the reasons, given how often the last position has stood.
    fn claimable_draws(_positions: &[Self], _occurrences: usize) -> Vec<Reason> {
        Vec::new()
    }
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
            let name = pos.write_move(mv, notation);
            let undo = pos.make_move(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move(mv, undo);
            (name, n)
        })
        .collect()
}
