//! Who attacks what in a Xiangqi position: the one legality test
//! (`attacked_after`: is the general attacked once a piece has moved), the
//! attackers of a point, and the least valuable attacker through an
//! exchange played out on one point (the search's exchange test).

use super::bitboards::*;
use super::board::*;
use super::position::Position;
use crate::variants::Color;

impl Position {
    /// The nearest and second-nearest occupied points from `s` in the four
    /// orthogonal directions (up, down, right, left): where a chariot's
    /// line ends and what a cannon could take.
    #[inline]
    pub fn line_blockers(&self, s: Sq) -> [(Option<Sq>, Option<Sq>); 4] {
        blockers(&self.files, &self.ranks, s)
    }

    /// Whether the general of `us` is attacked, the facing generals included.
    #[inline]
    pub fn general_attacked(&self, us: Color) -> bool {
        let k = self.generals[us.index()];
        self.attacked_after(us, k, k, k)
    }

    /// Whether a general of `us` on `k` is attacked once `us`'s piece on
    /// `from` has gone to `to` (taking whatever stood there): the one
    /// legality test. `from == to == k` asks of the position as it stands;
    /// a general's own move passes its destination as `k`.
    #[inline]
    pub(super) fn attacked_after(&self, us: Color, k: Sq, from: Sq, to: Sq) -> bool {
        let them = !us;
        // A piece of `them` stands on `s` after the move: the moving piece
        // is ours, so only `to` changes hands.
        let kept = !bit(to);
        self.attacked_by(them, k, from, to, |kind| {
            self.by_piece[piece(them, kind) as usize] & kept
        })
    }

    /// Whether the other general on `k` is attacked once the side to
    /// move's piece on `from` has gone to `to` (the move `from`-`to`, legal):
    /// [`Position::attacked_after`] with the moving piece on the attacking
    /// side, so that a search can ask before it makes the move.
    #[inline]
    pub(super) fn checks_after(&self, from: Sq, to: Sq) -> bool {
        let us = self.side;
        let k = self.generals[(!us).index()];
        let moved = self.board[from as usize];
        // The other general is not attacked before the move (the position
        // is legal), so only a move that touches its file or rank (a line
        // opened, closed or taken), a horse's leg on it, or that brings a
        // soldier or horse within reach of it can attack it: most moves
        // are told apart here.
        let touched = bit(from) | bit(to);
        let lines = (FILE_A << file_of(k)) | (RANK_0 << (rank_of(k) * FILES));
        let reach = match kind_of(moved) {
            Some(Kind::Soldier) => SOLDIER_ATTACKERS[us.index()][k as usize],
            Some(Kind::Horse) => HORSE_REACH[k as usize],
            _ => 0,
        };
        if touched & (lines | HORSE_ATTACK_LEGS[k as usize]) == 0 && bit(to) & reach == 0 {
            return false;
        }
        // The attacker's pieces of a kind after the move (a capture takes
        // a piece of the other side only).
        self.attacked_by(us, k, from, to, |kind| {
            let p = piece(us, kind);
            let b = self.by_piece[p as usize];
            if p == moved {
                (b & !bit(from)) | bit(to)
            } else {
                b
            }
        })
    }

    /// Whether the pieces of `attacker` (`by`: their points of a kind once
    /// the piece on `from` has gone to `to`) attack `k`.
    #[inline(always)]
    fn attacked_by(
        &self,
        attacker: Color,
        k: Sq,
        from: Sq,
        to: Sq,
        by: impl Fn(Kind) -> u128,
    ) -> bool {
        if by(Kind::Soldier) & SOLDIER_ATTACKERS[attacker.index()][k as usize] != 0 {
            return true;
        }
        let horses = by(Kind::Horse) & HORSE_REACH[k as usize];
        if horses != 0 {
            let h = &HORSE_ATTACKS[k as usize];
            for i in 0..h.count as usize {
                let leg = h.via[i];
                let leg_free = leg == from || (leg != to && self.board[leg as usize] == EMPTY);
                if horses & bit(h.to[i]) != 0 && leg_free {
                    return true;
                }
            }
        }
        self.line_attack(
            k,
            from,
            to,
            by(Kind::Chariot),
            by(Kind::Cannon),
            by(Kind::General),
        )
    }

    /// Whether `chariots` (or `general`, along the file) slide to `k`, or
    /// `cannons` hop to it, once the piece on `from` has gone to `to`.
    #[inline(always)]
    fn line_attack(
        &self,
        k: Sq,
        from: Sq,
        to: Sq,
        chariots: u128,
        cannons: u128,
        general: u128,
    ) -> bool {
        let (f, r) = (file_of(k), rank_of(k));
        let file = FILE_A << f;
        let rank = RANK_0 << (r * FILES);
        if (chariots | cannons) & (file | rank) == 0 && general & file == 0 {
            return false;
        }
        // Occupancy of the general's file and rank after the move.
        let (mut fo, mut ro) = (self.files[f] as usize, self.ranks[r] as usize);
        let (ff, fr, tf, tr) = (file_of(from), rank_of(from), file_of(to), rank_of(to));
        if ff == f {
            fo &= !(1 << fr);
        }
        if fr == r {
            ro &= !(1 << ff);
        }
        if tf == f {
            fo |= 1 << tr;
        }
        if tr == r {
            ro |= 1 << tf;
        }
        let [slide_f, hop_f] = FILE_LINES[r][fo];
        let [slide_r, hop_r] = RANK_LINES[f][ro];
        let slide = (FILE_SPREAD[slide_f as usize] << f) | ((slide_r as u128) << (r * FILES));
        let hop = (FILE_SPREAD[hop_f as usize] << f) | ((hop_r as u128) << (r * FILES));
        slide & (chariots | (general & file)) != 0 || hop & cannons != 0
    }

    /// Every point holding a piece of `by` that attacks `s` (could capture a
    /// piece of the other colour standing there), in increasing order. A
    /// general attacks its orthogonal neighbours in the palace, and the other
    /// general along an open file.
    pub fn attackers(&self, s: Sq, by: Color) -> Vec<Sq> {
        let mut out = Vec::new();
        let target_is_general = kind_of(self.board[s as usize]) == Some(Kind::General);
        for (dir, (first, second)) in self.line_blockers(s).into_iter().enumerate() {
            if let Some(a) = first {
                let p = self.board[a as usize];
                let facing = p == piece(by, Kind::General) && dir < 2 && target_is_general;
                if p == piece(by, Kind::Chariot) || facing {
                    out.push(a);
                }
            }
            if let Some(c) = second {
                if self.board[c as usize] == piece(by, Kind::Cannon) {
                    out.push(c);
                }
            }
        }
        // Step movers; their tables are symmetric, so look from `s` outwards.
        let steppers: [(&[Steps; POINTS], Kind); 4] = [
            (&GENERAL_MOVES, Kind::General),
            (&ADVISOR_MOVES, Kind::Advisor),
            (&ELEPHANT_MOVES, Kind::Elephant),
            (&HORSE_ATTACKS, Kind::Horse),
        ];
        for (table, kind) in steppers {
            let t = &table[s as usize];
            for i in 0..t.count as usize {
                let blocked = matches!(kind, Kind::Elephant | Kind::Horse)
                    && self.board[t.via[i] as usize] != EMPTY;
                if self.board[t.to[i] as usize] == piece(by, kind) && !blocked {
                    out.push(t.to[i]);
                }
            }
        }
        let soldier = piece(by, Kind::Soldier);
        out.extend(
            soldier_posts(s, by)
                .into_iter()
                .flatten()
                .filter(|&p| self.board[p as usize] == soldier),
        );
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The least valuable piece of `by` attacking `s` (soldier, advisor,
    /// elephant, horse, cannon, chariot, general: the order of their
    /// worth), pins ignored; `None` when nothing of `by` attacks `s`. For
    /// exchanges on a point that does not hold a general (the facing rule
    /// is not an attack here).
    pub fn least_attacker(&self, s: Sq, by: Color) -> Option<(Sq, Kind)> {
        self.least_attacker_in(s, by, &self.standing())
    }

    /// Every piece of the position still standing: where an exchange on one
    /// point starts (see [`Position::least_attacker_in`]).
    #[inline]
    pub fn standing(&self) -> Standing {
        Standing {
            all: self.by_color[0] | self.by_color[1],
            files: self.files,
            ranks: self.ranks,
        }
    }

    /// [`Position::least_attacker`] once the pieces that have already taken
    /// on `s` have left their points: only the pieces in `standing` attack,
    /// and only they block lines, legs and eyes. Ties within a kind go the
    /// same way as in the position itself (soldier from behind first, then
    /// the tables' order; lines up, down, right, left).
    pub fn least_attacker_in(&self, s: Sq, by: Color, standing: &Standing) -> Option<(Sq, Kind)> {
        let all = standing.all;
        let mine = |kind: Kind| self.by_piece[piece(by, kind) as usize] & all;
        let soldiers = mine(Kind::Soldier);
        if soldiers & SOLDIER_ATTACKERS[by.index()][s as usize] != 0 {
            for p in soldier_posts(s, by).into_iter().flatten() {
                if soldiers & bit(p) != 0 {
                    return Some((p, Kind::Soldier));
                }
            }
        }
        let steppers: [(&[Steps; POINTS], u128, Kind, bool); 3] = [
            (&ADVISOR_MOVES, ADVISOR_BB[s as usize], Kind::Advisor, false),
            (
                &ELEPHANT_MOVES,
                ELEPHANT_BB[s as usize][0],
                Kind::Elephant,
                true,
            ),
            (&HORSE_ATTACKS, HORSE_REACH[s as usize], Kind::Horse, true),
        ];
        for (table, reach, kind, legged) in steppers {
            let ours = mine(kind);
            if ours & reach == 0 {
                continue;
            }
            let t = &table[s as usize];
            for i in 0..t.count as usize {
                if ours & bit(t.to[i]) != 0 && (!legged || all & bit(t.via[i]) == 0) {
                    return Some((t.to[i], kind));
                }
            }
        }
        let lines = blockers(&standing.files, &standing.ranks, s);
        let cannons = mine(Kind::Cannon);
        if cannons != 0 {
            for (_, second) in lines {
                if let Some(c) = second.filter(|&c| cannons & bit(c) != 0) {
                    return Some((c, Kind::Cannon));
                }
            }
        }
        let chariots = mine(Kind::Chariot);
        if chariots != 0 {
            for (first, _) in lines {
                if let Some(a) = first.filter(|&a| chariots & bit(a) != 0) {
                    return Some((a, Kind::Chariot));
                }
            }
        }
        let general = mine(Kind::General) & GENERAL_BB[s as usize];
        (general != 0).then(|| (general.trailing_zeros() as Sq, Kind::General))
    }
}

/// The pieces still standing while an exchange on one point is played
/// out: each piece that takes on the point leaves the point it stood on
/// (see [`Position::least_attacker_in`]).
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    all: u128,
    files: [u16; FILES],
    ranks: [u16; RANKS],
}

impl Standing {
    /// The piece on `s` has left it.
    #[inline]
    pub fn remove(&mut self, s: Sq) {
        let (f, r) = (file_of(s), rank_of(s));
        self.all &= !bit(s);
        self.files[f] &= !(1 << r);
        self.ranks[r] &= !(1 << f);
    }
}

/// The nearest and second-nearest occupied points from `s` in the four
/// orthogonal directions (up, down, right, left), read off the occupancy
/// words of its file (bit = rank) and rank (bit = file).
#[inline]
fn blockers(files: &[u16; FILES], ranks: &[u16; RANKS], s: Sq) -> [(Option<Sq>, Option<Sq>); 4] {
    let (f, r) = (file_of(s), rank_of(s));
    let on_file = |x| sq(f, x);
    let on_rank = |x| sq(x, r);
    [
        nearest2(files[f], r, true, on_file),
        nearest2(files[f], r, false, on_file),
        nearest2(ranks[r], f, true, on_rank),
        nearest2(ranks[r], f, false, on_rank),
    ]
}

/// The two nearest pieces from index `at` of an occupancy word (up or
/// down), as points via `point`.
#[inline]
fn nearest2(
    word: u16,
    at: usize,
    upward: bool,
    point: impl Fn(usize) -> Sq,
) -> (Option<Sq>, Option<Sq>) {
    let mut found = outward(word as u32, at, upward).map(point);
    (found.next(), found.next())
}

/// The occupied indices of a file's or rank's occupancy word beyond index
/// `at`, nearest first, going up (increasing indices) or down.
#[inline]
pub(super) fn outward(word: u32, at: usize, upward: bool) -> impl Iterator<Item = usize> {
    let mut m = if upward {
        word >> (at + 1) << (at + 1)
    } else {
        word & ((1u32 << at) - 1)
    };
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let x = if upward {
                m.trailing_zeros() as usize
            } else {
                31 - m.leading_zeros() as usize
            };
            m &= !(1 << x);
            x
        })
    })
}

/// The points from which a soldier of `by` attacks `s`: behind it as the
/// soldier marches, and beside it once `s` is across the river for `by`.
#[inline]
pub(super) fn soldier_posts(s: Sq, by: Color) -> [Option<Sq>; 3] {
    let f = file_of(s);
    let r = rank_of(s);
    let behind = match by {
        Color::White => r.checked_sub(1),
        Color::Black => (r + 1 < RANKS).then_some(r + 1),
    };
    let crossed = !own_side(s, by);
    [
        behind.map(|rb| sq(f, rb)),
        (crossed && f > 0).then(|| sq(f - 1, r)),
        (crossed && f + 1 < FILES).then(|| sq(f + 1, r)),
    ]
}
