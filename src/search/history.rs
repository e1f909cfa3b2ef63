//! Move ordering's memory: killers, counter-moves, the history of quiet
//! moves, the continuation histories and the capture history, with
//! gravity and malus.

use super::params::HISTORY_LIMIT;
use super::searcher::{Histories, Searcher};
use super::Evaluate;

impl<'a, V: Evaluate> Searcher<'a, V> {
    /// Hands the histories to the table for the next search.
    pub(super) fn keep_histories(&mut self) {
        self.table.keep(Histories {
            history: std::mem::take(&mut self.history),
            counters: std::mem::take(&mut self.counters),
            continuation: std::mem::take(&mut self.continuation),
            captures: std::mem::take(&mut self.capture_history),
        });
    }

    /// A capture's history: how often the piece's capture on that point
    /// refuted its node.
    #[inline]
    pub(super) fn capture_score(&self, mv: V::Move) -> i32 {
        i32::from(self.capture_history[self.pos().piece_slot(mv)])
    }

    /// After a node fails high: the capture that refuted it (if it was
    /// one) rises in the capture history, and the captures searched
    /// before it fall.
    pub(super) fn reward_captures(&mut self, ply: usize, depth: i32, best: Option<V::Move>) {
        let bonus = bonus(depth);
        let tried = std::mem::take(&mut self.captures_tried[ply]);
        for &mv in &tried {
            let b = if Some(mv) == best { bonus } else { -bonus };
            let slot = self.pos().piece_slot(mv);
            gravity(&mut self.capture_history[slot], b);
        }
        self.captures_tried[ply] = tried;
    }

    /// A quiet move's ordering score: its history and its continuation
    /// histories after the last two moves.
    #[inline]
    pub(super) fn quiet_score(&self, side: usize, mv: V::Move, prev1: usize, prev2: usize) -> i32 {
        let mut score = self.history[side * V::MOVE_SLOTS + V::move_slot(mv)];
        let slot = self.pos().piece_slot(mv);
        for prev in [prev1, prev2] {
            if prev != super::params::NO_SLOT {
                score += i32::from(self.continuation[prev * V::PIECE_SLOTS + slot]);
            }
        }
        score
    }

    /// After a quiet move `best` refuted the node: it becomes a killer and
    /// the counter-move, its histories rise, and those of the quiet moves
    /// searched before it fall.
    pub(super) fn reward_quiet(
        &mut self,
        ply: usize,
        depth: i32,
        side: usize,
        best: V::Move,
        prev1: usize,
        prev2: usize,
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        if prev1 != super::params::NO_SLOT {
            self.counters[prev1] = Some(best);
        }
        let bonus = bonus(depth);
        let quiets = std::mem::take(&mut self.quiets[ply]);
        for &mv in &quiets {
            let b = if mv == best { bonus } else { -bonus };
            let h = &mut self.history[side * V::MOVE_SLOTS + V::move_slot(mv)];
            *h += b - *h * b.abs() / HISTORY_LIMIT;
            let slot = self.pos().piece_slot(mv);
            for prev in [prev1, prev2] {
                if prev != super::params::NO_SLOT {
                    gravity(&mut self.continuation[prev * V::PIECE_SLOTS + slot], b);
                }
            }
        }
        self.quiets[ply] = quiets;
    }
}

/// A history's reward (or, negated, its malus) for a node searched to
/// `depth`.
fn bonus(depth: i32) -> i32 {
    (16 * depth * depth + 64 * depth - 64).min(1_800)
}

/// Adds `b` to a 16-bit history with gravity: the nearer the entry is to
/// [`HISTORY_LIMIT`] in `b`'s direction, the less it moves.
fn gravity(entry: &mut i16, b: i32) {
    let v = i32::from(*entry);
    *entry = (v + b - v * b.abs() / HISTORY_LIMIT) as i16;
}
