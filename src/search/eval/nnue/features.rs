//! The network's inputs for Xiangqi: a piece of a kind on a point, seen
//! from one side. Each side sees the board from its own end (Black's view
//! turns the ranks over) and its own pieces as "ours": 2 × 7 × 90 = 1,260
//! inputs, of which a position sets one per piece for each side.

use crate::variants::xiangqi::board::{color_of, file_of, rank_of, sq, Piece, Sq, POINTS};
use crate::variants::xiangqi::{Move, Position};
use crate::variants::Color;

/// How many inputs the network has.
pub const INPUTS: usize = 2 * 7 * POINTS;

/// The most pieces a position has (16 a side).
pub const MAX_ACTIVE: usize = 32;

/// The input for piece `p` on point `s` from `view`'s side.
#[inline]
pub fn feature(view: Color, p: Piece, s: Sq) -> usize {
    let kind = (p & 7) as usize - 1;
    let theirs = usize::from(color_of(p) != view);
    let point = match view {
        Color::White => s as usize,
        Color::Black => (9 - rank_of(s)) * 9 + file_of(s),
    };
    (theirs * 7 + kind) * POINTS + point
}

/// A point reflected left to right (Xiangqi's rules are the same both ways).
#[inline]
pub fn mirror(s: Sq) -> Sq {
    sq(8 - file_of(s), rank_of(s))
}

/// The pieces of a position as `(point, piece)`, Red's first.
pub fn pieces(pos: &Position) -> impl Iterator<Item = (Sq, Piece)> + '_ {
    pos.pieces(Color::White)
        .chain(pos.pieces(Color::Black))
        .map(move |s| (s, pos.piece_at(s)))
}

/// The inputs a move changes, for both views: what leaves (the mover from
/// its point, a captured piece from its point) and what arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    /// The piece that moves.
    pub moved: Piece,
    /// The piece taken, if any.
    pub captured: Option<Piece>,
    /// The move.
    pub mv: Move,
}

impl Delta {
    /// The change `mv` makes to `before` (the position it is played in).
    #[inline]
    pub fn of(before: &Position, mv: Move) -> Delta {
        let captured = before.piece_at(mv.to);
        Delta {
            moved: before.piece_at(mv.from),
            captured: (captured != 0).then_some(captured),
            mv,
        }
    }

    /// The inputs added and removed for `view`: `(added, removed, how many removed)`.
    #[inline]
    pub fn inputs(&self, view: Color) -> (usize, [usize; 2], usize) {
        let added = feature(view, self.moved, self.mv.to);
        let from = feature(view, self.moved, self.mv.from);
        match self.captured {
            Some(c) => (added, [from, feature(view, c, self.mv.to)], 2),
            None => (added, [from, 0], 1),
        }
    }
}
