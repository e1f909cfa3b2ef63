//! The draws that may rest on the chase rules, marked after the mates and
//! the perpetual-check rule are done (the tables judge no chase: this
//! only says where a chase could change a draw).
//!
//! For a side X, the set S is the largest set of drawn positions with X
//! to move such that
//! - no capture of X leads into a draw X may keep without chasing, and
//! - every other move of X either leads to a position the other side
//!   wins, or checks or chases (a new attack on a piece the rules forbid
//!   chasing for ever, [`Position::chased_by`]) into a drawn position
//!   from which the other side has a quiet answer (no check, no chase) back
//!   into S, or a capture into a smaller table's draw where X must chase.
//!
//! From S, X keeps the draw only by checking or chasing for ever while the
//! other side answers quietly: each position of S is marked
//! [`Chase::Must`], and each drawn position with the other side to move
//! that has such an answer (a way into S) [`Chase::Forces`]. A chase is
//! as the Asian rules define it; the marks say *may*: whether a given
//! cycle is forbidden is the repetition judge's to say, on the game.

use std::collections::{BTreeMap, BTreeSet};

use super::entry::{CHASE_FORCES, CHASE_MUST, DRAW};
use super::work::{answers_into, candidates, largest_closed, Work};
use crate::variants::xiangqi::{Move, Position};
use crate::variants::Color;

/// Every mark: the side to move, the index, the code.
pub(super) fn marks(work: &Work<'_>) -> Vec<(Color, u64, u16)> {
    let mut out = Vec::new();
    for side in [Color::White, Color::Black] {
        let set = must_set(work, side);
        out.extend(
            forcing(work, !side, &set)
                .into_iter()
                .map(|i| (!side, i, CHASE_FORCES)),
        );
        out.extend(set.into_keys().map(|i| (side, i, CHASE_MUST)));
    }
    out
}

/// Whether the move `m`, played from `before` into `after`, chases.
fn chases(before: &Position, m: Move, after: &Position) -> bool {
    !Position::chased_by(before, m, after).is_empty()
}

/// S for `side` (see the module's words), each position with the
/// positions its checks and chases lead to.
fn must_set(work: &Work<'_>, side: Color) -> BTreeMap<u64, Vec<u64>> {
    let them = !side;
    let set = candidates(
        work,
        side,
        |e| e.free_draw,
        |before, m, after| after.general_attacked(them) || chases(before, m, after),
    );
    largest_closed(set, |c, set| answers_quietly(work, them, c, set))
}

/// Whether `side`, to move at `index` (a draw), can answer into `set`
/// quietly: a move that neither captures, checks nor chases, into `set`;
/// or a capture into a smaller table's draw where the other side must
/// chase.
fn answers_quietly(
    work: &Work<'_>,
    side: Color,
    index: u64,
    set: &BTreeMap<u64, Vec<u64>>,
) -> bool {
    if work.exits[side.index()]
        .get(&index)
        .is_some_and(|e| e.forcing)
    {
        return true;
    }
    answers_into(work, side, index, set, |before, m, after| {
        !after.general_attacked(!side) && !chases(before, m, after)
    })
}

/// The drawn positions with `side` to move that can answer into `set`
/// (the other side's S) quietly.
fn forcing(work: &Work<'_>, side: Color, set: &BTreeMap<u64, Vec<u64>>) -> BTreeSet<u64> {
    let s = side.index();
    let mut found: BTreeSet<u64> = work.exits[s]
        .iter()
        .filter(|(_, e)| e.forcing)
        .map(|(&i, _)| i)
        .collect();
    let mut preds = Vec::with_capacity(64);
    for &i in set.keys() {
        work.predecessors(!side, i, &mut preds);
        found.extend(preds.iter().copied());
    }
    found
        .into_iter()
        .filter(|&i| work.value[s][i as usize] == DRAW && answers_quietly(work, side, i, set))
        .collect()
}
