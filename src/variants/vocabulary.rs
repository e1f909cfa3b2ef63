//! The closed sets every variant and every front-end share: sides,
//! variants, notation names, refusal and ending codes, the natures and
//! patterns of repetitions, results and warnings. Their serde names and
//! `utoipa` schemas are derived here, so the OpenAPI document lists exactly
//! what the code can say.

use serde::{Deserialize, Serialize};
use strum::{Display, EnumString, IntoStaticStr, VariantArray};
use utoipa::ToSchema;

/// The two sides. `White` is the side that moves first (Red in Xiangqi).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first mover: White, or Red in Xiangqi.
    White = 0,
    /// The second mover.
    Black = 1,
}

/// A side of the board as the wire names it: `red` and `black` in Xiangqi,
/// `white` and `black` in Taxi and Tamerlane chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first mover in Xiangqi.
    Red,
    /// The first mover in Taxi and Tamerlane chess.
    White,
    /// The second mover in every variant.
    Black,
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

    /// Black if `black`, else White: a piece byte's colour bit read.
    #[inline]
    pub const fn black_if(black: bool) -> Color {
        if black {
            Color::Black
        } else {
            Color::White
        }
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

    /// The notation as PGN's `[Format]` tag names it: `ICCS`, `Fairy`,
    /// `WXF`, `Chinese`, `SAN`, `Coordinate` (read back in any case).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            NotationName::Iccs | NotationName::Ucci => "ICCS",
            NotationName::Fairy | NotationName::Uci => "Fairy",
            NotationName::Wxf => "WXF",
            NotationName::Chinese => "Chinese",
            NotationName::San => "SAN",
            NotationName::Coordinate => "Coordinate",
        }
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
    /// Two legal moves are written that way: a piece named by its file where
    /// two of its kind stand, and both can make the move (Xiangqi's WXF and
    /// Chinese input without a front/rear marker).
    Ambiguous,
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
    /// Text after a record's end that is no game (xqbase.com's and dpxq's
    /// trailers): not read.
    Trailer,
    /// A record with tags but no move: its game is the start position.
    NoMoves,
    /// A tag named twice in one record: the first value is kept.
    DuplicateTag,
    /// A record's variations (XQF branches) were skipped; the main line is
    /// read.
    VariationsSkipped,
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
    /// Xiangqi (option): the endgame tables call the position won with
    /// best play, and the rules let the tables end the game.
    TablebaseWin,
    /// Xiangqi (option): the endgame tables call the position drawn with
    /// best play, and the rules let the tables end the game.
    TablebaseDraw,
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
