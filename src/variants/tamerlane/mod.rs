//! Tamerlane chess: the 11x10 board with citadels. The rules this service
//! implements are stated in `docs/rules/tamerlane.md`.

pub mod board;
mod fen;
mod legal;
mod notation;
mod position;
mod verdict;
mod why;

#[cfg(test)]
mod tests;

pub use board::{parse_sq, sq, sq_name, Sq, L2, Z9};
pub use notation::Notation;
pub use position::{Move, Position, Special};
pub use why::{Geometry, Why};

use board::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    Color, FenError, MoveError, MoveNotations, NotationInfo, NotationName, Reason, Repeats, Side,
    Variant, VariantId, VariantInfo, Verdict,
};

/// The standard start position (the citadels empty).
pub const START_FEN: &str = "e1c1d1d1c1e/rntgwkfgtnr/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/RNTGFKWGTNR/E1C1D1D1C1E w -/- Kk 0/0 0 1";
/// The start position of the "feminine" arrangement.
pub const FEMININE_FEN: &str = "e1c1wkf1c1e/rntgdpkdgtnr/prpnptpgpw1pfpepcpdpp/11/11/11/11/PPPDPCPEPF1PWPGPTPNPR/RNTGDPKDGTNR/E1C1FKW1C1E w -/- Kk 0/0 0 1";
/// The start position of the third arrangement.
pub const THIRD_FEN: &str = "e1c1wkf1c1e/rndtgpkgtdnr/prpnptpgpw1pfpepcpdpp/11/11/11/11/PPPDPCPEPF1PWPGPTPNPR/RNDTGPKGTDNR/E1C1FKW1C1E w -/- Kk 0/0 0 1";

/// The named start arrays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = TamerlaneSetup)]
pub enum Setup {
    /// The common "masculine" array: shahs on f2/f9, shah's pawns on f3/f8.
    #[default]
    Standard,
    /// The "feminine" array: shahs on f1/f10, shah's pawns on f2/f9.
    Feminine,
    /// The third array of the seed: shahs on f1/f10, shah's pawns on f2/f9.
    Third,
}

impl Setup {
    fn fen(self) -> &'static str {
        match self {
            Setup::Standard => START_FEN,
            Setup::Feminine => FEMININE_FEN,
            Setup::Third => THIRD_FEN,
        }
    }

    /// Where a pawn of pawns' second arrival goes: the shah's pawn's start.
    fn second_arrival(self) -> [Sq; 2] {
        match self {
            Setup::Standard => [sq(5, 2).expect("f3"), sq(5, 7).expect("f8")],
            Setup::Feminine | Setup::Third => [sq(5, 1).expect("f2"), sq(5, 8).expect("f9")],
        }
    }
}

/// Which repetition rule applies in Tamerlane chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = TamerlaneRepetition)]
pub enum RepetitionRule {
    /// The third occurrence of a position draws.
    #[default]
    Threefold,
    /// No repetition rule (the historical game).
    None,
}

/// The rule options of Tamerlane chess (`rules` with the path `tamerlane`).
///
/// By default the game ends as modern implementations of historical games
/// end it: the third occurrence of a position draws, and so do 100 plies
/// without a capture or a pawn move. `{"repetition": "none",
/// "move_limit_plies": 0}` gives the purely historical game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TamerlaneRules)]
pub struct Rules {
    /// The start array: `standard`, `feminine` or `third`; it also decides
    /// where a pawn of pawns' second arrival goes (f3/f8, or f2/f9).
    #[serde(default)]
    #[schema(default = "standard")]
    pub setup: Setup,
    /// A side left with nothing but royals loses if the other side has more;
    /// both bare: drawn.
    #[serde(default)]
    #[schema(default = false)]
    pub bare_king: bool,
    /// Repetition rules: `threefold` (the third occurrence of a position,
    /// with the same side to move, exchange rights and pawn-of-pawns
    /// arrivals, is a draw) or `none`.
    #[serde(default)]
    #[schema(default = "threefold")]
    pub repetition: RepetitionRule,
    /// Plies without a capture or pawn move after which the game is drawn;
    /// 0 means no limit.
    #[serde(default = "default_move_limit")]
    #[schema(default = 100, minimum = 0, maximum = 4294967295_u64)]
    pub move_limit_plies: u32,
    /// Whether a repetition verdict ends the game (true: live play). False
    /// for over-the-board records: a ruling is reported in
    /// `repetition_events` and the game goes on; it ends by repetition only
    /// where the record ends at a ruling.
    #[serde(default = "crate::variants::yes")]
    #[schema(default = true)]
    pub repetition_ends_game: bool,
}

fn default_move_limit() -> u32 {
    100
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            setup: Setup::Standard,
            bare_king: false,
            repetition: RepetitionRule::Threefold,
            move_limit_plies: default_move_limit(),
            repetition_ends_game: true,
        }
    }
}

/// The Tamerlane chess position, the type that implements [`Variant`].
pub type Tamerlane = Position;

impl Position {
    /// The same position with the other side to move (a pass, for the
    /// search's null-move pruning).
    pub fn null_move(&self) -> Position {
        let mut p = *self;
        p.flip_side();
        p
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
}

impl Variant for Position {
    type Move = Move;
    type Undo = Position;
    type Rules = Rules;
    type Notation = Notation;
    type Why = Why;

    const ID: VariantId = VariantId::Tamerlane;
    const SIDES: [Side; 2] = [Side::White, Side::Black];

    fn info() -> VariantInfo {
        VariantInfo {
            id: VariantId::Tamerlane,
            files: 11,
            ranks: 10,
            start_fen: START_FEN,
            notations: vec![NotationInfo {
                name: NotationName::Coordinate,
                aliases: &[],
                example: "b2c4",
            }],
        }
    }

    fn repetition_ends_game(rules: &Rules) -> bool {
        rules.repetition_ends_game
    }

    fn waive(rules: &mut Rules, reason: Reason) {
        match reason {
            Reason::MoveLimit => rules.move_limit_plies = 0,
            Reason::Repetition => rules.repetition = RepetitionRule::None,
            Reason::BareKing => rules.bare_king = false,
            _ => {}
        }
    }

    fn notation(name: NotationName) -> Option<Notation> {
        (name == NotationName::Coordinate).then_some(Notation)
    }

    fn start_position(rules: &Rules) -> Position {
        fen::parse(rules.setup.fen(), rules.setup.second_arrival())
            .expect("the setup FENs are valid")
    }

    fn from_fen(text: &str, rules: &Rules) -> Result<Position, FenError> {
        fen::parse(text, rules.setup.second_arrival())
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }
    fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    fn in_check(&self) -> bool {
        self.in_check_of(self.side)
    }

    fn hash_key(&self) -> u64 {
        self.hash
    }

    fn same_position(&self, other: &Position) -> bool {
        // Placement, side to move, rights and arrivals (not the counters).
        self.hash == other.hash
            && self.board == other.board
            && self.side == other.side
            && self.exchange == other.exchange
            && self.arrivals == other.arrivals
    }

    fn reversible_plies(&self) -> usize {
        self.halfmove as usize
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal(out)
    }

    fn make_move(&mut self, mv: Move) -> Position {
        let undo = *self;
        self.make(mv);
        undo
    }

    fn unmake_move(&mut self, _mv: Move, undo: Position) {
        *self = undo;
    }

    fn parse_move(&self, text: &str, _notation: Notation) -> Result<Move, MoveError<Why>> {
        let m = notation::read(text).ok_or(MoveError::Unreadable)?;
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if legal.contains(&m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(self.why(m)))
        }
    }

    fn describe_moves(&self, moves: &[Move], _notation: Notation) -> Vec<MoveNotations> {
        moves
            .iter()
            .map(|&mv| {
                let mut after = *self;
                after.play(mv);
                let text = notation::write(mv);
                MoveNotations {
                    wire: text.clone(),
                    written: vec![(NotationName::Coordinate, text)],
                    capture: matches!(mv.special, Special::None | Special::Relocate)
                        && self.at(mv.to) != EMPTY,
                    gives_check: after.in_check_of(after.side),
                    cost: None,
                }
            })
            .collect()
    }

    fn write_move(&self, mv: Move, _notation: Notation) -> String {
        notation::write(mv)
    }

    fn verdict(
        positions: &[Position],
        _moves: &[Move],
        rules: &Rules,
        has_legal_move: bool,
        repeats: &Repeats,
    ) -> Option<Verdict> {
        verdict::verdict(positions, rules, has_legal_move, repeats)
    }
}
