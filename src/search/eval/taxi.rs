//! Taxi chess: material, piece-square values, money and the price of removal,
//! then activity: mobility (squares no enemy pawn guards), the bishop pair,
//! rooks on open files, the pawn structure (isolated, doubled and passed
//! pawns) and pressure on the enemy king's squares.
//! Money is worth most while it is scarce: the first coins pay for escapes
//! and captures, a large bank adds little. A piece in the middle of the board
//! costs up to 4 to carry off, so it is a little safer there. Results: mate
//! (and mate by bankruptcy) loses, stalemate, the 50/75-move rules, dead
//! positions and repetitions draw.

use crate::search::Evaluate;
use crate::variants::bits::bits;
use crate::variants::taxi::{king_attacks, pawns_attacks, piece_attacks, Sq, FILE_A, FILE_H};
use crate::variants::taxi::{removal, Flag, Kind, Move, Position, Rules};
use crate::variants::{Color, Variant};

pub const fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn => 100,
        Kind::Knight => 320,
        Kind::Bishop => 330,
        Kind::Rook => 500,
        Kind::Queen => 900,
        Kind::King => 0,
    }
}

/// What a balance is worth, in centipawns.
pub fn money(balance: u32) -> i32 {
    // Beyond a hundred coins money buys nothing more.
    let b = balance.min(100) as i32;
    let first = b.min(10);
    let second = (b - 10).clamp(0, 20);
    let rest = (b - 30).max(0);
    first * 15 + second * 6 + rest * 2
}

/// Each coin of a removal is this many centipawns to the side that must pay.
const REMOVAL_COIN: i32 = 4;

fn placement(kind: Kind, file: i32, rank: i32, endgame: bool) -> i32 {
    let file_centre = 3 - ((2 * file - 7).abs() / 2);
    let rank_centre = 3 - ((2 * rank - 7).abs() / 2);
    match kind {
        Kind::Pawn => {
            let advance = rank - 1;
            advance * if endgame { 12 } else { 5 } + if (3..=4).contains(&file) { 8 } else { 0 }
        }
        Kind::Knight => 6 * (file_centre + rank_centre) - 20,
        Kind::Bishop => 4 * (file_centre + rank_centre) - 8,
        Kind::Rook => {
            if rank == 6 {
                15
            } else {
                0
            }
        }
        Kind::Queen => 2 * (file_centre + rank_centre),
        Kind::King => {
            if endgame {
                8 * (file_centre + rank_centre) - 20
            } else {
                -12 * rank + if file <= 2 || file >= 6 { 10 } else { 0 }
            }
        }
    }
}

/// A piece's worth in exchanges: its value, the king more than everything.
const fn exchange_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 10_000,
        k => value(k),
    }
}

/// The static exchange test (see [`Evaluate::see_ge`]) on bitboards:
/// captures on the destination, least valuable piece first, with the
/// pieces behind a capturer joining in; each side's threats are the
/// captures it can pay the travel for. Pins and the price of removal are
/// not counted.
fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.flag == Flag::Castle {
        return 0 >= threshold;
    }
    let victim = if mv.flag == Flag::EnPassant {
        value(Kind::Pawn)
    } else {
        pos.piece_at(mv.to).map_or(0, |(_, k)| value(k))
    };
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    let Some((_, mover)) = pos.piece_at(mv.from) else {
        return false;
    };
    swap = exchange_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ (1u64 << mv.from) ^ (1u64 << mv.to);
    if mv.flag == Flag::EnPassant {
        let taken = if pos.side() == Color::White {
            mv.to - 8
        } else {
            mv.to + 8
        };
        occ ^= 1u64 << taken;
    }
    let threats = |occ: u64| {
        pos.threats_to(mv.to, Color::White, occ) | pos.threats_to(mv.to, Color::Black, occ)
    };
    let mut attackers = threats(occ);
    let mut stm = pos.side();
    // 1 while the side that made the move is ahead of the threshold.
    let mut res = 1;
    'exchanges: loop {
        stm = !stm;
        attackers &= occ;
        let mine = attackers & pos.color_bitboard(stm);
        if mine == 0 {
            break;
        }
        res ^= 1;
        // Least valuable first.
        for kind in Kind::ALL {
            let bb = mine & pos.bitboard(stm, kind);
            if bb == 0 {
                continue;
            }
            if kind == Kind::King {
                // The king takes only where nothing takes it back.
                if attackers & pos.color_bitboard(!stm) != 0 {
                    res ^= 1;
                }
                break 'exchanges;
            }
            swap = value(kind) - swap;
            if swap < res {
                break 'exchanges;
            }
            occ ^= bb & bb.wrapping_neg();
            attackers |= threats(occ);
            continue 'exchanges;
        }
        break;
    }
    res == 1
}

/// The files next to `file` and `file` itself, as a mask.
fn file_band(file: u8) -> u64 {
    let f = FILE_A << file;
    f | ((f << 1) & !FILE_A) | ((f >> 1) & !FILE_H)
}

/// Squares ahead of `s` for `c` (ranks beyond it).
fn ahead(c: Color, s: Sq) -> u64 {
    let rank = u32::from(s >> 3);
    match c {
        Color::White => u64::MAX.checked_shl((rank + 1) * 8).unwrap_or(0),
        Color::Black => (1u64 << (rank * 8)) - 1,
    }
}

/// Passed pawns by relative rank (2nd to 7th).
const PASSED: [i32; 8] = [0, 5, 10, 18, 30, 50, 80, 0];
/// Mobility, per square a piece can go to that no enemy pawn guards.
const MOBILITY: [(i32, i32); 4] = [(4, 4), (4, 6), (2, 7), (1, 13)];
/// King attack units per attacker kind (knight, bishop, rook, queen).
const ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

/// What the pieces of `c` do beyond standing on their squares: mobility,
/// the bishop pair, rooks on open files, the pawn structure and the
/// safety of the enemy king (as threats to `c`'s gain).
fn activity(pos: &Position, c: Color, endgame: bool) -> i32 {
    let them = !c;
    let occ = pos.occupied();
    let own = pos.color_bitboard(c);
    let my_pawns = pos.bitboard(c, Kind::Pawn);
    let their_pawns = pos.bitboard(them, Kind::Pawn);
    let safe = !own & !pawns_attacks(them, their_pawns);
    let their_king = pos.king(them);
    let zone = king_attacks(their_king) | (1u64 << their_king);
    let mut total = 0;
    let mut units = 0;
    let mut attackers = 0;
    for (i, kind) in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .into_iter()
        .enumerate()
    {
        for s in bits(pos.bitboard(c, kind)) {
            let reach = piece_attacks(kind, s, occ);
            let (weight, mean) = MOBILITY[i];
            total += weight * ((reach & safe).count_ones() as i32 - mean);
            let hits = (reach & zone).count_ones() as i32;
            if hits > 0 {
                attackers += 1;
                units += hits * ATTACK_UNITS[i];
            }
            if kind == Kind::Rook {
                let file = FILE_A << (s & 7);
                if file & my_pawns == 0 {
                    total += if file & their_pawns == 0 { 20 } else { 10 };
                }
            }
        }
    }
    if pos.bitboard(c, Kind::Bishop).count_ones() >= 2 {
        total += 30;
    }
    if attackers >= 2 && !endgame {
        total += (units * units / 4).min(250);
    }
    for s in bits(my_pawns) {
        let file = s & 7;
        let band = file_band(file);
        let same = FILE_A << file;
        let front = ahead(c, s);
        if (band & !same) & my_pawns == 0 {
            total -= 12;
        }
        if (same & front) & my_pawns != 0 {
            total -= 12;
        }
        if band & front & their_pawns == 0 {
            let rank = if c == Color::White {
                s >> 3
            } else {
                7 - (s >> 3)
            };
            let bonus = PASSED[rank as usize];
            total += if endgame { bonus * 3 / 2 } else { bonus };
        }
    }
    total
}

impl Evaluate for Position {
    type Frame = ();

    const WDL: crate::search::wdl::WdlModel = super::wdl_models::TAXI;
    const LADDER: &'static crate::search::level::Ladder = &crate::search::level::TAXI;

    fn material(&self) -> i32 {
        let mut sum = 0;
        for c in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                sum += self.bitboard(c, kind).count_ones() as i32 * value(kind);
            }
        }
        (sum + 50) / 100
    }

    const MOVE_SLOTS: usize = 64 * 64;
    const PIECE_SLOTS: usize = 12 * 64;

    #[inline]
    fn piece_slot(&self, mv: Move) -> usize {
        let piece = self
            .piece_at(mv.from)
            .map_or(0, |(c, k)| c.index() * 6 + k as usize);
        piece * 64 + mv.to as usize
    }

    #[inline]
    fn move_signature(mv: Move) -> u16 {
        let promo = mv.promo.map_or(0, |k| k as u16);
        (mv.from as u16 * 64 + mv.to as u16) * 6 + promo + 1
    }

    #[inline]
    fn move_slot(mv: Move) -> usize {
        mv.from as usize * 64 + mv.to as usize
    }

    fn evaluate(&self, _rules: &Rules) -> i32 {
        let heavy: u32 = [Color::White, Color::Black]
            .into_iter()
            .map(|c| {
                self.bitboard(c, Kind::Queen).count_ones() * 4
                    + self.bitboard(c, Kind::Rook).count_ones() * 2
                    + (self.bitboard(c, Kind::Knight) | self.bitboard(c, Kind::Bishop)).count_ones()
            })
            .sum();
        let endgame = heavy <= 8;
        let mut score = [0i32; 2];
        for c in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                let mut bb = self.bitboard(c, kind);
                while bb != 0 {
                    let s = bb.trailing_zeros() as u8;
                    bb &= bb - 1;
                    let (file, rank) = ((s & 7) as i32, (s >> 3) as i32);
                    let rank = if c == Color::White { rank } else { 7 - rank };
                    score[c.index()] += value(kind) + placement(kind, file, rank, endgame);
                    if kind != Kind::King {
                        score[c.index()] += removal(s) as i32 * REMOVAL_COIN;
                    }
                }
            }
            score[c.index()] += money(self.balances()[c.index()]);
            score[c.index()] += activity(self, c, endgame);
        }
        super::for_side(score, self.side())
    }

    #[inline]
    fn capture_value(&self, mv: Move) -> Option<i32> {
        let victim = match mv.flag {
            crate::variants::taxi::Flag::EnPassant => Kind::Pawn,
            _ => {
                let (c, k) = self.piece_at(mv.to)?;
                if c == self.side() {
                    return None; // castling is written king takes rook in some notations
                }
                k
            }
        };
        let attacker = self.piece_at(mv.from).map_or(0, |(_, k)| value(k));
        Some(value(victim) * 8 - attacker / 10 - mv.cost as i32)
    }

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        see_ge(self, mv, threshold)
    }

    fn null_move(&self) -> Option<Position> {
        let us = self.side();
        let pieces = self.bitboard(us, Kind::Knight)
            | self.bitboard(us, Kind::Bishop)
            | self.bitboard(us, Kind::Rook)
            | self.bitboard(us, Kind::Queen);
        (pieces != 0).then(|| self.pass())
    }
}
