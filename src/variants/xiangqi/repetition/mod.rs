//! Repetition: the judges of a cycle of moves under each code, and what
//! they share — the walk through a span of moves that follows each piece.
//! `asian.rs`: the Asian (WXF/AXF) rules, perpetual check and chase;
//! `chinese/`: the Chinese code, each move's nature (`chinese/probe/`: the
//! questions it asks of a position).

mod asian;
pub(super) mod chinese;

pub use asian::judge_cycle;
pub(super) use asian::judge_span_from;

use super::board::*;
use super::position::{Move, Position};

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

/// Walks the moves from ply `from` to ply `last` (`pos(i)` and `mv(i)` give
/// the game's positions and moves), following each piece, and hands each
/// move to `judge` with the pieces named as they stand after it. Answers
/// each side's judgements in order, and the pieces as they stand at the end
/// (to say where a piece named in the span stands).
pub(super) fn walk_span<'a, T>(
    pos: impl Fn(usize) -> &'a Position,
    mv: impl Fn(usize) -> Move,
    from: usize,
    last: usize,
    mut judge: impl FnMut(Step<'a>, &Pieces) -> T,
) -> ([Vec<T>; 2], Pieces) {
    let mut ids = Pieces::on(pos(from));
    let mut judged: [Vec<T>; 2] = [Vec::new(), Vec::new()];
    for j in from..last {
        let step = Step {
            before: pos(j),
            m: mv(j),
            after: pos(j + 1),
            earlier: j.checked_sub(1).map(&pos),
        };
        let s = step.before.side().index();
        ids.play(step.m);
        judged[s].push(judge(step, &ids));
    }
    (judged, ids)
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
