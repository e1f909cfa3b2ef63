//! The legal moves of a Xiangqi position, without make/unmake: only a
//! move that could expose the general is tested (`exposures`, and in check
//! `evasions`), with [`Position::attacked_after`]'s one test.

use super::attacks::{outward, soldier_posts};
use super::bitboards::*;
use super::board::*;
use super::position::{push_moves, Move, Position};
use crate::variants::Color;

/// The three nearest pieces each way along a point's file and rank (up,
/// down, right, left), and the empty points before the nearest.
type Nearest = [([Option<Sq>; 3], u128); 4];

impl Position {
    /// Whether the side to move would leave its own general attacked (or
    /// facing the other general) by playing the pseudo-legal move `m`.
    #[inline]
    pub fn leaves_general_attacked(&self, m: Move) -> bool {
        let us = self.side;
        let k = self.generals[us.index()];
        if m.from == k {
            self.attacked_after(us, m.to, m.from, m.to)
        } else {
            self.attacked_after(us, k, m.from, m.to)
        }
    }

    /// Whether the legal move `m` checks the other general (asked without
    /// making the move).
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        self.checks_after(m.from, m.to)
    }

    /// Every legal move of the side to move.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        self.each_legal::<false>(|from, targets| {
            push_moves(out, from, targets);
            true
        });
    }

    /// The legal moves of the side to move that leave or reach a point of
    /// `points`, in [`Position::legal`]'s order (only those are tested).
    pub fn legal_touching(&self, points: u128, out: &mut Vec<Move>) {
        out.clear();
        self.each_legal_within::<false>(points, |from, targets| {
            push_moves(out, from, targets);
            true
        });
    }

    /// Whether the side to move has a legal move: [`Position::legal`]
    /// stopped at the first piece that can move (a mate test asks no more).
    pub fn has_legal(&self) -> bool {
        let mut any = false;
        self.each_legal::<false>(|_, targets| {
            any = targets != 0;
            !any
        });
        any
    }

    /// How many legal moves the side to move has (the same as
    /// [`Position::legal`] lists, without listing them).
    pub fn count_legal(&self) -> usize {
        let mut n = 0;
        self.each_legal::<false>(|_, targets| {
            n += targets.count_ones() as usize;
            true
        });
        n
    }

    /// Whether `m` is legal: a move of the side to move's piece by its
    /// movement rules that leaves its general safe (reading a coordinate
    /// move needs no more).
    pub fn is_legal(&self, m: Move) -> bool {
        let p = self.board[m.from as usize];
        p != EMPTY
            && color_of(p) == self.side
            && self.targets(m.from) & bit(m.to) != 0
            && !self.leaves_general_attacked(m)
    }

    /// Every legal capture of the side to move (for the search's quiescence).
    pub fn legal_captures(&self, out: &mut Vec<Move>) {
        out.clear();
        self.each_legal::<true>(|from, targets| {
            push_moves(out, from, targets);
            true
        });
    }

    /// Calls `sink(from, targets)` with the legal targets of each piece of
    /// the side to move (pieces in increasing order; a piece may come with
    /// no target), until it returns false; with `CAPTURES`, only the
    /// targets that take.
    ///
    /// Only a move that could expose the general is tested: a move of the
    /// general, and a move of a piece that [`Position::exposures`] names
    /// (or, in check, every move that [`Position::evasions`] lets through).
    /// A piece landing between the general and an enemy cannon with nothing
    /// between them screens the cannon: never legal.
    #[inline]
    fn each_legal<const CAPTURES: bool>(&self, sink: impl FnMut(Sq, u128) -> bool) {
        self.each_legal_within::<CAPTURES>(u128::MAX, sink);
    }

    /// [`Position::each_legal`] for the moves that leave or reach a point
    /// of `points`: a piece elsewhere comes with its targets there only.
    #[inline]
    fn each_legal_within<const CAPTURES: bool>(
        &self,
        points: u128,
        mut sink: impl FnMut(Sq, u128) -> bool,
    ) {
        let us = self.side;
        let k = self.generals[us.index()];
        let wanted = if CAPTURES {
            self.by_color[(!us).index()]
        } else {
            u128::MAX
        };
        let check = self.general_attacked(us);
        let (free, tested, allowed) = if check {
            // Pieces that may unscreen a checking cannon try every target;
            // the others only targets that take or block a checker.
            let (unscreen, resolve) = self.evasions(us);
            (0, unscreen, resolve)
        } else {
            let (vacate, land) = self.exposures(us);
            (!vacate, vacate, !land)
        };
        let mut bb = self.by_color[us.index()];
        while bb != 0 {
            let from = bb.trailing_zeros() as Sq;
            bb &= bb - 1;
            let mut targets = self.targets(from) & wanted;
            if bit(from) & points == 0 {
                targets &= points;
            }
            let legal = if from == k {
                self.safe(us, from, targets, true)
            } else if bit(from) & tested != 0 {
                self.safe(us, from, targets, false)
            } else if bit(from) & free != 0 {
                targets & allowed
            } else {
                self.safe(us, from, targets & allowed, false)
            };
            if !sink(from, legal) {
                return;
            }
        }
    }

    /// The targets of the piece of `us` on `from` after which its general
    /// is not attacked (`general`: the piece is the general).
    #[inline]
    fn safe(&self, us: Color, from: Sq, mut targets: u128, general: bool) -> u128 {
        let k = self.generals[us.index()];
        let mut out = targets;
        while targets != 0 {
            let to = targets.trailing_zeros() as Sq;
            targets &= targets - 1;
            let king = if general { to } else { k };
            if self.attacked_after(us, king, from, to) {
                out &= !bit(to);
            }
        }
        out
    }

    /// The three nearest pieces from `s` each way along its file and rank
    /// (up, down, right, left), and the empty points before the nearest.
    #[inline]
    fn nearest_on_lines(&self, s: Sq) -> Nearest {
        let (f, r) = (file_of(s), rank_of(s));
        [
            nearest3(self.files[f] as u32, r, true, |x| sq(f, x)),
            nearest3(self.files[f] as u32, r, false, |x| sq(f, x)),
            nearest3(self.ranks[r] as u32, f, true, |x| sq(x, r)),
            nearest3(self.ranks[r] as u32, f, false, |x| sq(x, r)),
        ]
    }

    /// What stands on the lines of the general of `us`: its point, the
    /// enemy, the enemy's chariot, cannon and general (as pieces), and the
    /// three nearest pieces each way along the general's file and rank.
    #[inline]
    fn general_lines(&self, us: Color) -> (Sq, Color, [Piece; 3], Nearest) {
        let k = self.generals[us.index()];
        let them = !us;
        let liners = [Kind::Chariot, Kind::Cannon, Kind::General].map(|kind| piece(them, kind));
        (k, them, liners, self.nearest_on_lines(k))
    }

    /// What could end a check on the general of `us`: the points whose
    /// piece, leaving, unscreens a checking cannon; and the points where a
    /// piece, landing, takes a checking piece or stands in its way (on the
    /// line to the general, or on a checking horse's leg). A move of
    /// another piece that does none of these leaves every check standing.
    fn evasions(&self, us: Color) -> (u128, u128) {
        let (k, them, [chariot, cannon, general], lines) = self.general_lines(us);
        let mut unscreen = 0u128;
        let mut resolve = 0u128;
        for (dir, ([b1, b2, _], before_b1)) in lines.into_iter().enumerate() {
            let Some(s1) = b1 else {
                continue;
            };
            let p1 = self.board[s1 as usize];
            if p1 == chariot || (dir < 2 && p1 == general) {
                resolve |= before_b1 | 1 << s1;
            }
            if let Some(s2) = b2 {
                if self.board[s2 as usize] == cannon {
                    unscreen |= 1 << s1;
                    resolve |= before_b1 | 1 << s2 | between(s1, s2);
                }
            }
        }
        let horse = piece(them, Kind::Horse);
        let h = &HORSE_ATTACKS[k as usize];
        for i in 0..h.count as usize {
            if self.board[h.to[i] as usize] == horse && self.board[h.via[i] as usize] == EMPTY {
                resolve |= 1 << h.to[i] | 1 << h.via[i];
            }
        }
        let soldier = piece(them, Kind::Soldier);
        for p in soldier_posts(k, them).into_iter().flatten() {
            if self.board[p as usize] == soldier {
                resolve |= 1 << p;
            }
        }
        (unscreen, resolve)
    }

    /// Where a move of `us` (not in check, not by the general) could
    /// expose its general: the points whose piece, leaving, could open a
    /// line to an enemy chariot, general or cannon or free a horse's leg;
    /// and the empty points where a piece, landing, would become a cannon's
    /// screen. Every other move is legal: after it, a line holds the same
    /// pieces or more, no enemy horse's leg is freed, and no piece appears
    /// that did not stand there.
    fn exposures(&self, us: Color) -> (u128, u128) {
        let (k, them, [chariot, cannon, general], lines) = self.general_lines(us);
        let mut vacate = 0u128;
        let mut land = 0u128;
        for (dir, ([b1, b2, b3], before_b1)) in lines.into_iter().enumerate() {
            let at = |b: Option<Sq>| b.map_or(EMPTY, |s| self.board[s as usize]);
            let (p1, p2, p3) = (at(b1), at(b2), at(b3));
            if let Some(s1) = b1 {
                // Leaving the first point opens the line to the second
                // piece (a chariot, or the general on the file) or leaves
                // the second as the only screen of a cannon behind it.
                if p2 == chariot || (dir < 2 && p2 == general) || p3 == cannon {
                    vacate |= 1 << s1;
                }
                if let Some(s2) = b2 {
                    if p3 == cannon {
                        vacate |= 1 << s2;
                    }
                }
                // Landing before an enemy cannon makes a screen.
                if p1 == cannon {
                    land |= before_b1;
                }
            }
        }
        // The legs of enemy horses a knight's move from the general.
        let horse = piece(them, Kind::Horse);
        let h = &HORSE_ATTACKS[k as usize];
        for i in 0..h.count as usize {
            if self.board[h.to[i] as usize] == horse {
                vacate |= bit(h.via[i]);
            }
        }
        (vacate, land)
    }
}

/// The points strictly between two points of one file or rank.
#[inline]
fn between(a: Sq, b: Sq) -> u128 {
    let (lo, hi) = (a.min(b) as usize, a.max(b) as usize);
    let step = if file_of(a) == file_of(b) { FILES } else { 1 };
    let mut out = 0u128;
    let mut x = lo + step;
    while x < hi {
        out |= 1 << x;
        x += step;
    }
    out
}

/// The three nearest pieces from index `at` of an occupancy word (up or
/// down), as points via `point`, and the points strictly between `at` and
/// the nearest (none when there is no piece that way).
#[inline]
fn nearest3(
    word: u32,
    at: usize,
    upward: bool,
    point: impl Fn(usize) -> Sq,
) -> ([Option<Sq>; 3], u128) {
    let mut found = outward(word, at, upward).map(&point);
    let out = [found.next(), found.next(), found.next()];
    let before = out[0].map_or(0, |nearest| between(point(at), nearest));
    (out, before)
}
