//! Taxi chess: FIDE chess where every step costs money. The rules this
//! service implements are stated in `docs/rules/taxi.md`.

mod board;
mod fen;
mod legal;
mod notation;
mod position;
mod rules;
mod verdict;
mod why;

#[cfg(test)]
mod notation_tests;
#[cfg(test)]
mod tests;

pub use board::{
    distance, file_of, king_attacks, pawns_attacks, piece_attacks, rank_of, removal, sq_name, Flag,
    Kind, Move, Sq, FILE_A, FILE_H,
};
pub use fen::START_FEN;
pub use notation::{Notation, San};
pub use position::{Position, MAX_BALANCE};
pub use rules::Rules;
pub use why::{Cost, Why};

use super::{
    Color, FenError, MoveError, MoveNotations, NotationInfo, NotationName, Played, Reason, Repeats,
    RulesError, SetupError, Side, Variant, VariantId, VariantInfo, Verdict,
};

/// The Taxi chess position, the type that implements [`Variant`].
pub type Taxi = Position;

impl Position {
    /// Whether two positions are the same for repetition: placement, side to
    /// move, castling rights, both balances, and the en-passant square only
    /// where an en-passant capture is legal (affordable included).
    pub fn same_for_repetition(&self, other: &Position) -> bool {
        self.side == other.side
            && self.by_color == other.by_color
            && self.by_kind == other.by_kind
            && self.castling == other.castling
            && self.balance == other.balance
            && self.effective_ep() == other.effective_ep()
    }

    /// The en-passant square where a capture there is legal: what the key
    /// already knows (`set_ep` decided it), so no move generation here.
    fn effective_ep(&self) -> Sq {
        if self.ep_hash != 0 {
            self.ep
        } else {
            board::NO_SQ
        }
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The squares of `c`'s pieces of `kind`.
    pub fn bitboard(&self, c: Color, kind: Kind) -> u64 {
        self.by_kind[kind as usize] & self.by_color[c.index()]
    }

    /// The squares of `c`'s pieces.
    pub fn color_bitboard(&self, c: Color) -> u64 {
        self.by_color[c.index()]
    }

    /// Reads a UCI move: a legal move, or why not.
    fn read_uci(&self, text: &str) -> Result<Move, MoveError<Why>> {
        let (from, to, promo) = notation::parse_uci(text).ok_or(MoveError::Unreadable)?;
        let mut legal = Vec::new();
        self.legal(&mut legal);
        legal
            .iter()
            .find(|m| m.from == from && m.to == to && m.promo == promo)
            .copied()
            .ok_or_else(|| MoveError::Illegal(self.why(from, to, promo)))
    }
}

impl Variant for Position {
    type Move = Move;
    type Undo = Position;
    type Rules = Rules;
    type Notation = Notation;
    type Why = Why;

    const ID: VariantId = VariantId::Taxi;
    const SIDES: [Side; 2] = [Side::White, Side::Black];

    fn info() -> VariantInfo {
        VariantInfo {
            id: VariantId::Taxi,
            files: 8,
            ranks: 8,
            start_fen: START_FEN,
            notations: vec![
                NotationInfo {
                    name: NotationName::Uci,
                    aliases: &[],
                    example: "e2e4",
                },
                NotationInfo {
                    name: NotationName::San,
                    aliases: &[],
                    example: "Nf3",
                },
            ],
        }
    }

    fn check_rules(rules: &Rules) -> Result<(), RulesError> {
        for (option, value, max) in [
            ("start_money", rules.start_money, MAX_BALANCE),
            ("income", rules.income, 1_000_000),
        ] {
            if value > max {
                return Err(RulesError {
                    option,
                    value: value.into(),
                    max: max.into(),
                });
            }
        }
        Ok(())
    }

    fn repetition_ends_game(rules: &Rules) -> bool {
        rules.repetition_ends_game
    }

    fn notation(name: NotationName) -> Option<Notation> {
        match name {
            NotationName::Uci => Some(Notation::Uci),
            NotationName::San => Some(Notation::San),
            _ => None,
        }
    }

    fn start_position(rules: &Rules) -> Position {
        // The six FIDE fields; the balances are the rules' `start_money`.
        let chess_fields = START_FEN.rsplit_once(' ').expect("seven fields").0;
        fen::parse(chess_fields, rules.start_money, rules.income)
            .expect("the start FEN is valid")
            .0
    }

    fn from_fen(text: &str, rules: &Rules) -> Result<Position, FenError> {
        fen::parse(text, rules.start_money, rules.income).map(|(p, _)| p)
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
        Position::in_check(self)
    }

    fn hash_key(&self) -> u64 {
        self.hash ^ self.ep_hash
    }

    fn same_position(&self, other: &Position) -> bool {
        self.same_for_repetition(other)
    }

    fn reversible_plies(&self) -> usize {
        self.halfmove as usize
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal(out)
    }

    fn count_legal_moves(&self, _scratch: &mut Vec<Move>) -> usize {
        self.count_legal()
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Position {
        let undo = *self;
        self.make(mv);
        undo
    }

    #[inline]
    fn unmake_move(&mut self, _mv: Move, undo: Position) {
        *self = undo;
    }

    fn parse_move(&self, text: &str, notation: Notation) -> Result<Move, MoveError<Why>> {
        match notation {
            Notation::Uci => self.read_uci(text),
            Notation::San => {
                let san = San::read(text).ok_or(MoveError::Unreadable)?;
                let mut legal = Vec::new();
                self.legal(&mut legal);
                let mut found = legal.iter().filter(|&&m| san.names(self, m));
                match (found.next(), found.next()) {
                    (Some(&m), None) => Ok(m),
                    // An ambiguous text.
                    (Some(_), Some(_)) => Err(MoveError::Illegal(Why::NoSuchMove)),
                    // Nothing: say why, as for the coordinates meant.
                    (None, _) => Err(MoveError::Illegal(self.why_san(&san))),
                }
            }
        }
    }

    fn describe_moves(&self, moves: &[Move], notation: Notation) -> Vec<MoveNotations> {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        moves
            .iter()
            .map(|&mv| {
                let san = notation::san_among(self, mv, &legal);
                let uci = notation::uci(mv);
                MoveNotations {
                    wire: match notation {
                        Notation::Uci => uci.clone(),
                        Notation::San => san.clone(),
                    },
                    capture: self.piece_at(mv.to).is_some() || mv.flag == Flag::EnPassant,
                    gives_check: san.ends_with(['+', '#']),
                    written: vec![(NotationName::Uci, uci), (NotationName::San, san)],
                    cost: Some(mv.cost),
                }
            })
            .collect()
    }

    fn write_move(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Uci => notation::uci(mv),
            Notation::San => {
                let mut legal = Vec::new();
                self.legal(&mut legal);
                notation::san_among(self, mv, &legal)
            }
        }
    }

    fn balances(&self) -> Option<[u32; 2]> {
        Some(self.balance)
    }

    fn setup(
        fen: Option<&str>,
        rules: &Rules,
        balances: Option<[u32; 2]>,
    ) -> Result<Position, SetupError> {
        let text = fen.unwrap_or_else(|| START_FEN.rsplit_once(' ').expect("seven fields").0);
        fen::parse_with(text, rules.start_money, rules.income, balances)
    }

    /// The same position with the other side to move and no en-passant
    /// square (a pass, for the search's null-move pruning).
    fn pass(&self) -> Position {
        let mut p = *self;
        p.flip_side();
        p.set_ep(board::NO_SQ);
        p
    }

    fn verdict(played: Played<Self>, has_legal_move: bool, repeats: &Repeats) -> Option<Verdict> {
        verdict::verdict(played.positions, has_legal_move, repeats)
    }

    fn claimable_draws(positions: &[Position], occurrences: usize) -> Vec<Reason> {
        verdict::claimable(positions.last().expect("a position"), occurrences)
    }
}
