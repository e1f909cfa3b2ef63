//! Xiangqi: material and piece-square values, from Red's side of the board
//! and mirrored for Black, with the variant's results (no legal move loses,
//! perpetual check or chase loses, insufficient material and the move limit
//! draw).

use crate::search::Evaluate;
use crate::variants::xiangqi::board::{color_of, kind_of};
use crate::variants::xiangqi::{file_of, rank_of, sq, Kind, Move, Position, Rules, Sq};
use crate::variants::Color;

pub const fn value(kind: Kind) -> i32 {
    match kind {
        Kind::General => 0,
        Kind::Advisor => 120,
        Kind::Elephant => 120,
        Kind::Horse => 270,
        Kind::Chariot => 600,
        Kind::Cannon => 285,
        Kind::Soldier => 30,
    }
}

/// What a piece adds on its point, beyond its base value. `rank` counts from
/// its own side's back rank (0) towards the enemy's (9).
fn placement(kind: Kind, file: usize, rank: usize) -> i32 {
    let centre = 4 - (file as i32 - 4).abs(); // 0 at the edge, 4 in the middle
    match kind {
        Kind::Soldier => match rank {
            0..=2 => 0,
            3 => 0,
            4 => 5,
            5 => 40 + 2 * centre,
            6 => 60 + 5 * centre,
            7 => 70 + 6 * centre,
            8 => 65 + 4 * centre,
            _ => 20, // on the last rank it can only go sideways
        },
        Kind::Horse => {
            let forward = match rank {
                0 => -15,
                1 | 2 => 0,
                3 | 4 => 10,
                5..=7 => 25,
                8 => 15,
                _ => 0,
            };
            forward + 4 * centre - if file == 0 || file == 8 { 15 } else { 0 }
        }
        Kind::Cannon => {
            let mut v = if file == 4 { 12 } else { 0 };
            if rank >= 5 {
                v += 5;
            }
            if rank == 9 || rank == 7 {
                v += 5;
            }
            v
        }
        Kind::Chariot => {
            let mut v = match rank {
                0 => 0,
                1..=4 => 8,
                5..=8 => 20,
                _ => 10,
            };
            if rank == 0 && (file == 0 || file == 8) {
                v -= 10;
            }
            v + centre
        }
        Kind::General => -10 * rank as i32,
        Kind::Advisor | Kind::Elephant => 0,
    }
}

/// A piece's worth in exchanges: its base value, a soldier across the
/// river as much as a weak minor piece, the general more than everything.
const fn exchange_value(kind: Kind) -> i32 {
    match kind {
        Kind::General => 10_000,
        Kind::Soldier => 60,
        k => value(k),
    }
}

/// The static exchange test (see [`Evaluate::see_ge`]): the moves and
/// recaptures on the destination are played on a copy, so cannon screens
/// that appear and vanish are seen; pins are not.
fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let victim = kind_of(pos.piece_at(mv.to)).map_or(0, exchange_value);
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    let Some(mover) = kind_of(pos.piece_at(mv.from)) else {
        return false;
    };
    swap = exchange_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut p = pos.clone();
    p.make(mv);
    // 1 while the side that made the move is ahead of the threshold.
    let mut res = 1;
    loop {
        let Some((from, kind)) = p.least_attacker(mv.to, p.side()) else {
            break;
        };
        res ^= 1;
        if kind == Kind::General {
            // The general takes only where nothing takes it back.
            p.make(Move::new(from, mv.to));
            if p.least_attacker(mv.to, p.side()).is_some() {
                res ^= 1;
            }
            break;
        }
        swap = exchange_value(kind) - swap;
        if swap < res {
            break;
        }
        p.make(Move::new(from, mv.to));
    }
    res == 1
}

const STEPS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The piece at (file, rank), if on the board: `None` off the board,
/// `Some(0)` for an empty point.
#[inline]
fn at(pos: &Position, f: i32, r: i32) -> Option<u8> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some(pos.piece_at(sq(f as usize, r as usize)))
    } else {
        None
    }
}

/// Mobility and line terms that piece-square tables cannot see.
fn activity(pos: &Position, s: Sq, kind: Kind, c: Color, enemy_general: Sq) -> i32 {
    let (f, r) = (file_of(s) as i32, rank_of(s) as i32);
    match kind {
        Kind::Chariot => {
            let mut reach = 0;
            for (df, dr) in STEPS {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(p) = at(pos, x, y) {
                    if p != 0 {
                        if color_of(p) != c {
                            reach += 1;
                        }
                        break;
                    }
                    reach += 1;
                    x += df;
                    y += dr;
                }
            }
            reach * 5
        }
        Kind::Horse => {
            let mut reach = 0;
            for (df, dr) in STEPS {
                // The leg must be free; then the two squares beyond it.
                if at(pos, f + df, r + dr) != Some(0) {
                    continue;
                }
                for side in [-1, 1] {
                    let (x, y) = if df == 0 {
                        (f + side, r + 2 * dr)
                    } else {
                        (f + 2 * df, r + side)
                    };
                    if let Some(p) = at(pos, x, y) {
                        if p == 0 || color_of(p) != c {
                            reach += 1;
                        }
                    }
                }
            }
            reach * 8 - if reach <= 1 { 25 } else { 0 }
        }
        // On the enemy general's file with exactly one screen between.
        Kind::Cannon if file_of(enemy_general) as i32 == f => {
            let (lo, hi) = if rank_of(enemy_general) as i32 > r {
                (r + 1, rank_of(enemy_general) as i32)
            } else {
                (rank_of(enemy_general) as i32 + 1, r)
            };
            let screens = (lo..hi).filter(|&y| at(pos, f, y) != Some(0)).count();
            match screens {
                1 => 35,
                0 => 10,
                _ => 0,
            }
        }
        _ => 0,
    }
}

fn own_rank(c: Color, rank: usize) -> usize {
    match c {
        Color::White => rank,
        Color::Black => 9 - rank,
    }
}

impl Evaluate for Position {
    const MOVE_SLOTS: usize = 90 * 90;
    const PIECE_SLOTS: usize = 16 * 90;

    #[inline]
    fn piece_slot(&self, mv: Move) -> usize {
        self.piece_at(mv.from) as usize * 90 + mv.to as usize
    }

    #[inline]
    fn move_slot(mv: Move) -> usize {
        mv.from as usize * 90 + mv.to as usize
    }

    fn evaluate(&self, _rules: &Rules) -> i32 {
        let mut score = [0i32; 2];
        let mut defenders = [0i32; 2];
        let mut attackers = [0i32; 2];
        for c in [Color::White, Color::Black] {
            for s in self.pieces(c) {
                let Some(kind) = kind_of(self.piece_at(s)) else {
                    continue;
                };
                let rank = own_rank(c, rank_of(s));
                score[c.index()] += value(kind)
                    + placement(kind, file_of(s), rank)
                    + activity(self, s, kind, c, self.general(!c));
                match kind {
                    Kind::Advisor | Kind::Elephant => defenders[c.index()] += 1,
                    Kind::Chariot | Kind::Horse | Kind::Cannon => attackers[c.index()] += 1,
                    Kind::Soldier if rank >= 5 => attackers[c.index()] += 1,
                    _ => {}
                }
            }
        }
        // Missing defenders matter as much as the enemy has attackers.
        for c in [Color::White, Color::Black] {
            let missing = 4 - defenders[c.index()].min(4);
            score[c.index()] -= missing * attackers[(!c).index()] * 8;
        }
        super::for_side(score, self.side())
    }

    #[inline]
    fn capture_value(&self, mv: Move) -> Option<i32> {
        let victim = kind_of(self.piece_at(mv.to))?;
        let attacker = kind_of(self.piece_at(mv.from)).map_or(0, value);
        Some(value(victim).max(40) * 8 - attacker / 10)
    }

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        see_ge(self, mv, threshold)
    }

    fn captures(&self, out: &mut Vec<Move>) {
        self.legal_captures(out);
    }

    fn null_move(&self) -> Option<Position> {
        let us = self.side();
        let majors = self
            .pieces(us)
            .filter(|&s| {
                matches!(
                    kind_of(self.piece_at(s)),
                    Some(Kind::Chariot | Kind::Horse | Kind::Cannon)
                )
            })
            .count();
        (majors > 0).then(|| Position::null_move(self))
    }
}
