//! Tamerlane chess: the 11x10 board with citadels. The rules this service
//! implements are stated in `docs/rules/tamerlane.md`.

pub mod board;
mod fen;
mod legal;
mod notation;
mod position;
mod rules;
mod verdict;
mod why;

#[cfg(test)]
mod tests;

pub use board::{parse_sq, sq, sq_name, Sq, L2, Z9};
pub use notation::Notation;
pub use position::{Move, Position, Special};
pub use rules::{RepetitionRule, Rules, Setup, FEMININE_FEN, START_FEN, THIRD_FEN};
pub use why::{Geometry, Why};

use board::*;

use super::{
    Color, FenError, MoveError, MoveNotations, NotationInfo, NotationName, Played, Reason, Repeats,
    Side, Variant, VariantId, VariantInfo, Verdict,
};

/// The Tamerlane chess position, the type that implements [`Variant`].
pub type Tamerlane = Position;

impl Position {
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

    /// The same position with the other side to move (a pass, for the
    /// search's null-move pruning).
    fn pass(&self) -> Position {
        let mut p = *self;
        p.flip_side();
        p
    }

    fn verdict(played: Played<Self>, has_legal_move: bool, repeats: &Repeats) -> Option<Verdict> {
        verdict::verdict(played.positions, played.rules, has_legal_move, repeats)
    }
}
