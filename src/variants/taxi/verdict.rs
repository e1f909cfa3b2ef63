//! The end of a Taxi chess game: the one verdict the adjudication and the
//! search both ask, with the precedence of `docs/rules/taxi.md`.

use super::{Position, MAX_BALANCE};
use crate::variants::{Reason, Repeats, Verdict};

impl Position {
    /// Whether some move would be legal but for its price.
    pub fn priced_out(&self) -> bool {
        let mut rich = *self;
        rich.set_balance(self.side(), MAX_BALANCE);
        rich.count_legal() > 0
    }

    /// Whether neither side can ever mate: no pawns, rooks or queens, and at
    /// most one minor piece in all, or only bishops all on one colour of square.
    pub fn is_dead_position(&self) -> bool {
        use super::Kind;
        let heavy = self.by_kind[Kind::Pawn as usize]
            | self.by_kind[Kind::Rook as usize]
            | self.by_kind[Kind::Queen as usize];
        if heavy != 0 {
            return false;
        }
        let knights = self.by_kind[Kind::Knight as usize];
        let bishops = self.by_kind[Kind::Bishop as usize];
        if (knights | bishops).count_ones() <= 1 {
            return true;
        }
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        knights == 0 && (bishops & DARK == 0 || bishops & !DARK == 0)
    }
}

/// No legal move: in check it loses (bankruptcy when the escapes are only
/// too dear), otherwise stalemate draws. Then the fivefold repetition, the
/// 75-move rule and dead positions draw automatically.
pub fn verdict(positions: &[Position], has_legal_move: bool, repeats: &Repeats) -> Option<Verdict> {
    let pos = positions.last().expect("a game has a position");
    let us = pos.side();
    if !has_legal_move {
        if pos.in_check() {
            let reason = if pos.priced_out() {
                Reason::Bankruptcy
            } else {
                Reason::Checkmate
            };
            return Some(Verdict::win(!us, reason));
        }
        return Some(Verdict::draw(Reason::Stalemate));
    }
    match repeats {
        Repeats::Occurrences(at) if at.len() >= 5 => {
            return Some(Verdict::draw(Reason::FivefoldRepetition))
        }
        // The search: a repetition will be claimed by the side it suits.
        Repeats::Cycle { .. } => return Some(Verdict::draw(Reason::ThreefoldRepetition)),
        _ => {}
    }
    if pos.halfmove >= 150 {
        return Some(Verdict::draw(Reason::SeventyFiveMoves));
    }
    if pos.is_dead_position() {
        return Some(Verdict::draw(Reason::InsufficientMaterial));
    }
    None
}

/// The draws that may be claimed: threefold repetition (balances included)
/// and fifty moves.
pub fn claimable(pos: &Position, occurrences: usize) -> Vec<Reason> {
    let mut out = Vec::new();
    if occurrences >= 3 {
        out.push(Reason::ThreefoldRepetition);
    }
    if pos.halfmove >= 100 {
        out.push(Reason::FiftyMoves);
    }
    out
}
