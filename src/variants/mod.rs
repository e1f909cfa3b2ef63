//! The rules core: one module per variant, all behind the [`Variant`] trait.
//!
//! Nothing in here knows about HTTP, JSON or English: results are typed
//! ([`Verdict`], [`Refusal`] and each variant's [`Variant::Why`]), and the
//! API renders them in words. The API, the CLI and the search all talk to a
//! variant through [`Variant`] and the small common types below; see
//! `docs/architecture.md`.

use std::fmt;
use std::hash::Hash;

pub(crate) mod bits;
pub mod game;
mod perft;
mod placement;
pub mod spelling;
pub mod tamerlane;
pub mod taxi;
pub mod xiangqi;
mod zobrist;

mod vocabulary;

pub use game::{Game, PlayError, RepetitionEvent};
pub use perft::{perft, perft_divide};
pub use vocabulary::{
    Color, GameResult, Nature, NotationName, Pattern, Reason, Refusal, Side, VariantId, WarningCode,
};

/// What the variants' tests look at in a refused move: its code, and the
/// words the API gives it.
#[cfg(test)]
pub(crate) mod shared_tests;

/// `true`: the default of options that are on unless switched off.
pub(crate) fn yes() -> bool {
    true
}

/// 100 plies: the default move limit of Xiangqi and Tamerlane chess.
pub(crate) fn hundred_plies() -> u32 {
    100
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
    /// Chinese rules: each chase as (chaser, chased), points as they stand
    /// at the end of the cycle, in board order (empty under the Asian
    /// rules, which name the chased pieces only).
    pub chases: Vec<(u8, u8)>,
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
            chases: Vec::new(),
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

    /// `loser` has no legal move and loses: checkmated when in check,
    /// else stalemated (Xiangqi's and Tamerlane chess's rule).
    pub fn no_legal_move(loser: Color, in_check: bool) -> Verdict {
        let reason = if in_check {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Verdict::win(!loser, reason)
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

/// A game as played so far, as a verdict reads it: every position from the
/// start, the moves between them, and the rules.
#[derive(Debug)]
pub struct Played<'a, V: Variant> {
    /// Every position from the start; the last is the current one.
    pub positions: &'a [V],
    /// The moves between them.
    pub moves: &'a [V::Move],
    /// The rules.
    pub rules: &'a V::Rules,
}

impl<V: Variant> Clone for Played<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: Variant> Copy for Played<'_, V> {}

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
pub trait Variant: Clone + fmt::Debug + Send + Sync + Sized + 'static {
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

    /// The sides' names, first mover first: `[Red, Black]` in Xiangqi.
    const SIDES: [Side; 2];

    /// The name of `color` in this variant.
    fn side(color: Color) -> Side {
        Self::SIDES[color as usize]
    }

    /// What the variant states about itself.
    fn info() -> VariantInfo;

    /// Whether a repetition verdict ends the game under these rules (the
    /// `repetition_ends_game` option, true by default), or is recorded as
    /// an event while the game goes on, as over the board, where the
    /// arbiter tells the offender to change and play continues.
    fn repetition_ends_game(rules: &Self::Rules) -> bool;

    /// Switches off the rule behind `reason` (a move limit, a repetition
    /// rule, ...), for a game that an outside referee plays on where this
    /// rule would have ended it (a GUI refereeing a UCI engine by other
    /// rules): the search then plays as it would without the rule.
    fn waive(_rules: &mut Self::Rules, _reason: Reason) {}

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
    /// Whether there is a legal move; a variant may stop at the first.
    fn has_legal_move(&self, scratch: &mut Vec<Self::Move>) -> bool {
        self.count_legal_moves(scratch) > 0
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

    /// The position with the turn passed to the other side, nothing else
    /// changed but what a move would reset (Taxi chess's en-passant
    /// square): the search's null move, and where the opponent's threat is
    /// searched.
    fn pass(&self) -> Self;

    /// The one verdict of the rules on the last position of `played`, with
    /// the variant's precedence, or `None` while the game goes on.
    /// `has_legal_move` says whether the side to move has one (a caller that
    /// has not looked may pass `true`); `repeats` what the history says. The
    /// adjudication and the search both ask this.
    fn verdict(
        played: Played<'_, Self>,
        has_legal_move: bool,
        repeats: &Repeats,
    ) -> Option<Verdict>;

    /// Draws that a player may claim now (the game goes on unless claimed):
    /// the reasons, given how often the last position has stood.
    fn claimable_draws(_positions: &[Self], _occurrences: usize) -> Vec<Reason> {
        Vec::new()
    }
}
