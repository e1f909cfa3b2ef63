//! The perpetual-check rule inside a table (the Asian rules: a side that
//! checks for ever loses), found as a greatest fixed point over the
//! positions the mates left unresolved.
//!
//! For a side X, the set S is the largest set of unresolved positions
//! with X to move such that every move of X from a position of S
//! - leads to a position the other side wins (by mate or by the rule), or
//! - checks, into an unresolved position from which the other side has a
//!   move that does not check back and returns into S.
//!
//! From S, X can only check for ever (or lose sooner), and the other side
//! can keep it so without checking itself: X loses. When both sides would
//! be checking for ever, neither is to blame and the position stays drawn
//! (the other side's way back must be a quiet move). Chases are not
//! judged here: a draw that rests on a perpetual chase is left a draw,
//! and marked as one (`chase.rs`).

use super::work::{answers_into, candidates, largest_closed, Work};
use crate::variants::Color;

/// Every position the rule decides now: X to move, X loses.
pub(super) fn perpetual_checkers(work: &Work<'_>) -> Vec<(Color, u64)> {
    let mut out = Vec::new();
    for side in [Color::White, Color::Black] {
        out.extend(set_of(work, side).into_iter().map(|i| (side, i)));
    }
    out
}

/// S for `side` (see the module's words).
fn set_of(work: &Work<'_>, side: Color) -> Vec<u64> {
    let them = !side;
    // The candidates: every move loses or checks into an unresolved
    // position; each kept with those positions.
    let set = candidates(
        work,
        side,
        |e| e.draw,
        |_, _, after| after.general_attacked(them),
    );
    largest_closed(set, |c, set| {
        answers_into(work, them, c, set, |_, _, after| {
            !after.general_attacked(side)
        })
    })
    .into_keys()
    .collect()
}
