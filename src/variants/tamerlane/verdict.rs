//! The end of a Tamerlane chess game: the one verdict the adjudication and
//! the search both ask, with the precedence of `docs/rules/tamerlane.md`.

use super::board::{is_royal, kind_of, EMPTY, SQUARES};
use super::{Position, RepetitionRule, Rules};
use crate::variants::{Color, Reason, Repeats, Verdict};

impl Position {
    /// Whether `c` has a piece or pawn that is not royal.
    pub fn has_non_royals(&self, c: Color) -> bool {
        (0..SQUARES as u8).any(|s| {
            let p = self.at(s);
            p != EMPTY && super::board::color_of(p) == c && !is_royal(kind_of(p))
        })
    }
}

/// The citadel draw first; then no legal move loses; then the bare king
/// (option); then the third occurrence (option, on by default); then the
/// move limit (option, 100 plies by default).
pub fn verdict(
    positions: &[Position],
    rules: &Rules,
    has_legal_move: bool,
    repeats: &Repeats,
) -> Option<Verdict> {
    let pos = positions.last().expect("a game has a position");
    if pos.citadel_draw().is_some() {
        return Some(Verdict::draw(Reason::Citadel));
    }
    let us = pos.side();
    if !has_legal_move {
        return Some(Verdict::no_legal_move(us, pos.in_check_of(us)));
    }
    if rules.bare_king {
        match [
            !pos.has_non_royals(Color::White),
            !pos.has_non_royals(Color::Black),
        ] {
            [true, true] => return Some(Verdict::draw(Reason::BareKing)),
            [true, false] => return Some(Verdict::win(Color::Black, Reason::BareKing)),
            [false, true] => return Some(Verdict::win(Color::White, Reason::BareKing)),
            [false, false] => {}
        }
    }
    match repeats {
        Repeats::Occurrences(at)
            if rules.repetition == RepetitionRule::Threefold && at.len() >= 3 =>
        {
            return Some(Verdict::draw(Reason::Repetition))
        }
        // The search scores a cycle as a draw: playing it again changes nothing.
        Repeats::Cycle { .. } => return Some(Verdict::draw(Reason::Repetition)),
        _ => {}
    }
    if rules.move_limit_plies > 0 && pos.halfmove_clock() >= rules.move_limit_plies {
        return Some(Verdict::draw(Reason::MoveLimit));
    }
    None
}
