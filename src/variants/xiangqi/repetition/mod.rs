//! Repetition: the judges of a cycle of moves under each code, and what
//! they share — the walk through a span of moves that follows each piece.
//! `asian.rs`: the Asian (WXF/AXF) rules, perpetual check and chase;
//! `chinese/`: the Chinese code, each move's nature (`chinese/probe/`: the
//! questions it asks of a position).

mod asian;
pub(super) mod chinese;

pub use asian::judge_cycle;
pub(super) use asian::judge_span;

use super::board::*;
use super::position::{Move, Position};
use crate::variants::{Color, Conduct, Reason, RepetitionReport, Verdict};

/// One move of a span, as a judge sees it.
pub(super) struct Step<'a> {
    /// The position before the move.
    pub(super) before: &'a Position,
    /// The move.
    pub(super) m: Move,
    /// The position after it.
    pub(super) after: &'a Position,
    /// The position before the opponent's last move, if the game has one.
    pub(super) earlier: Option<&'a Position>,
}

impl<'a> Step<'a> {
    /// The move of ply `j` of a game whose positions are `positions` (one
    /// more than its `moves`).
    pub(super) fn at(positions: &'a [Position], moves: &[Move], j: usize) -> Step<'a> {
        Step {
            before: &positions[j],
            m: moves[j],
            after: &positions[j + 1],
            earlier: j.checked_sub(1).map(|i| &positions[i]),
        }
    }
}

/// A repeated span of a game: the moves from ply `from` to the last of
/// `occurrences`, the plies at which the repeated position stood.
pub(super) struct Span<'a> {
    positions: &'a [Position],
    moves: &'a [Move],
    from: usize,
    occurrences: Vec<usize>,
}

impl<'a> Span<'a> {
    /// The repetition of the last of `positions`, which stood at the plies
    /// `occurrences` (three or more): the whole span from the first of the
    /// last three (rule 32).
    pub(super) fn of_occurrences(
        positions: &'a [Position],
        moves: &'a [Move],
        occurrences: &[usize],
    ) -> Span<'a> {
        let from = occurrences[occurrences.len() - 3];
        let occurrences = occurrences.to_vec();
        Span {
            positions,
            moves,
            from,
            occurrences,
        }
    }

    /// The cycle from `positions[from]` to the last position, which stand on
    /// the same placement: the search's view of a repetition (it stops at
    /// the second occurrence).
    pub(super) fn cycle(positions: &'a [Position], moves: &'a [Move], from: usize) -> Span<'a> {
        let last = positions.len() - 1;
        debug_assert!(positions[from].same_placement(&positions[last]));
        let occurrences = vec![from, last];
        Span {
            positions,
            moves,
            from,
            occurrences,
        }
    }

    /// The ply of the last occurrence, where the span ends.
    fn last(&self) -> usize {
        *self.occurrences.last().expect("occurrences")
    }

    /// The verdict on the span: `in_breach` loses for `reason` (nobody:
    /// drawn), with each side's `conduct` in the report.
    pub(super) fn verdict(
        self,
        reason: Reason,
        in_breach: Option<Color>,
        conduct: [Conduct; 2],
    ) -> Verdict {
        Verdict {
            reason,
            winner: in_breach.map(|c| !c),
            repetition: Some(Box::new(RepetitionReport {
                cycle: (self.from, self.last()),
                occurrences: self.occurrences,
                conduct,
                in_breach,
            })),
        }
    }

    /// Walks the span's moves, following each piece, and hands each move to
    /// `judge` with the pieces named as they stand after it. Answers each
    /// side's judgements in order, and the pieces as they stand at the end
    /// (to say where a piece named in the span stands).
    pub(super) fn walk<T>(
        &self,
        mut judge: impl FnMut(Step<'a>, &Pieces) -> T,
    ) -> ([Vec<T>; 2], Pieces) {
        let (positions, moves) = (self.positions, self.moves);
        let mut ids = Pieces::on(&positions[self.from]);
        let mut judged: [Vec<T>; 2] = [Vec::new(), Vec::new()];
        for j in self.from..self.last() {
            let step = Step::at(positions, moves, j);
            let s = step.before.side().index();
            ids.play(step.m);
            judged[s].push(judge(step, &ids));
        }
        (judged, ids)
    }
}

/// Each piece followed through a span of moves by a name of its own (the
/// point it stood on at the start), so that "the same piece" is exact.
pub(super) struct Pieces([u8; POINTS]);

impl Pieces {
    /// The pieces of `pos`, each named by its point.
    pub(super) fn on(pos: &Position) -> Pieces {
        let mut ids = [u8::MAX; POINTS];
        for s in 0..POINTS as Sq {
            if pos.piece_at(s) != EMPTY {
                ids[s as usize] = s;
            }
        }
        Pieces(ids)
    }

    /// Follows the move `m`.
    pub(super) fn play(&mut self, m: Move) {
        self.0[m.to as usize] = self.0[m.from as usize];
        self.0[m.from as usize] = u8::MAX;
    }

    /// The name of the piece on `s`.
    pub(super) fn at(&self, s: Sq) -> u8 {
        self.0[s as usize]
    }

    /// Where the piece named `id` stands now, if it is still on the board.
    pub(super) fn point(&self, id: u8) -> Option<Sq> {
        self.0.iter().position(|&x| x == id).map(|p| p as Sq)
    }
}
