//! The end of a Xiangqi game: the one verdict the adjudication and the
//! search both ask, with the precedence of `docs/rules/xiangqi.md`.

use super::repetition::{judge_cycle, judge_span_from};
use super::{Move, Position, RepetitionRule, Rules};
use crate::variants::{Reason, Repeats, Verdict};

/// No legal move loses (checkmate or stalemate); then a repetition verdict;
/// then insufficient material; then the move limit.
pub fn verdict(
    positions: &[Position],
    moves: &[Move],
    rules: &Rules,
    has_legal_move: bool,
    repeats: &Repeats,
) -> Option<Verdict> {
    let pos = positions.last().expect("a game has a position");
    let us = pos.side();
    if !has_legal_move {
        let reason = if pos.general_attacked(us) {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        return Some(Verdict::win(!us, reason));
    }
    match (rules.repetition, repeats) {
        (RepetitionRule::Asian, Repeats::Occurrences(at)) if at.len() >= 3 => {
            return Some(judge_span_from(positions, moves, at));
        }
        (RepetitionRule::Asian, Repeats::Cycle { from }) => {
            return Some(judge_cycle(positions, moves, *from));
        }
        // Without repetition rules the search still scores a cycle as a
        // draw: playing it again changes nothing.
        (RepetitionRule::None, Repeats::Cycle { .. }) => {
            return Some(Verdict::draw(Reason::Repetition))
        }
        _ => {}
    }
    if !pos.has_mating_material() {
        return Some(Verdict::draw(Reason::InsufficientMaterial));
    }
    let limit = rules.move_limit_plies;
    if limit > 0 && pos.halfmove_clock() >= limit {
        return Some(Verdict::draw(Reason::MoveLimit));
    }
    None
}
