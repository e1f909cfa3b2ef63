//! The legal moves of a Taxi chess position: the fast generator (checks
//! and pins count only when the attacker can pay for the capture), the
//! moves by movement alone (where a refusal's explanation starts), and the
//! slow generator the tests hold the fast one to.

use cozy_chess::{get_bishop_rays, get_rook_rays};

use super::board::*;
use super::position::{Position, MAX_COST};
use crate::variants::Color;

impl Position {
    /// Every legal move, affordability included.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        self.generate::<false>(out);
    }

    /// How many legal moves there are (perft's last ply): when the mover can
    /// afford any move, the target sets are counted without building moves.
    pub fn count_legal(&self) -> usize {
        if self.budget(self.side) >= MAX_COST {
            self.generate::<true>(&mut Vec::new())
        } else {
            let mut moves = Vec::new();
            self.legal(&mut moves);
            moves.len()
        }
    }

    /// The legal move generator. With `COUNT` (only used when every move is
    /// affordable) it counts instead of pushing, and `out` stays empty.
    fn generate<const COUNT: bool>(&self, out: &mut Vec<Move>) -> usize {
        let us = self.side;
        let them = !us;
        let budget = self.budget(us);
        if budget == 0 {
            return 0;
        }
        let rich = budget >= MAX_COST;
        let mut count = 0usize;
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let k = self.king(us);
        let checkers = self.threats_to(k, them, occ);

        // Affordable pinners: their sliders on a line to our king whose
        // capture of the king would be affordable once the line opens.
        let their_budget = self.budget(them);
        let queens = self.pieces(them, Kind::Queen);
        let snipers = (get_rook_rays(csq(k)).0 & (self.pieces(them, Kind::Rook) | queens))
            | (get_bishop_rays(csq(k)).0 & (self.pieces(them, Kind::Bishop) | queens));
        // At most eight pins (one per direction): a small list, not a table.
        let mut pinned = 0u64;
        let mut pins = [(0u8, 0u64); 8];
        let mut n_pins = 0;
        for x in bits(snipers) {
            if distance(x, k) > their_budget {
                continue;
            }
            let b = between(x, k) & occ;
            if b.count_ones() == 1 && b & ours != 0 {
                pinned |= b;
                pins[n_pins] = (b.trailing_zeros() as u8, line(x, k));
                n_pins += 1;
            }
        }
        let pin_line = |s: Sq| -> u64 {
            if pinned & (1 << s) == 0 {
                u64::MAX
            } else {
                pins[..n_pins]
                    .iter()
                    .find(|p| p.0 == s)
                    .map_or(u64::MAX, |p| p.1)
            }
        };

        let push = |out: &mut Vec<Move>,
                    count: &mut usize,
                    from: Sq,
                    to: Sq,
                    promo: Option<Kind>,
                    flag: Flag,
                    cost: u32| {
            if rich || cost <= budget {
                if COUNT {
                    *count += 1;
                } else {
                    out.push(Move {
                        from,
                        to,
                        promo,
                        flag,
                        cost,
                    });
                }
            }
        };
        let capture_cost = |to: Sq| {
            if theirs & (1 << to) != 0 {
                removal(to)
            } else {
                0
            }
        };

        // King moves: the target must not be threatened once the king has left.
        let occ_without_king = occ & !(1 << k);
        for t in bits(king_attacks(k) & !ours) {
            if self.threats_to(t, them, occ_without_king) == 0 {
                push(
                    out,
                    &mut count,
                    k,
                    t,
                    None,
                    Flag::Normal,
                    1 + capture_cost(t),
                );
            }
        }
        let n_checks = checkers.count_ones();
        if n_checks >= 2 {
            return count;
        }
        let target_mask = if n_checks == 1 {
            let c = checkers.trailing_zeros() as Sq;
            checkers | between(c, k)
        } else {
            u64::MAX
        };

        // Knights and sliders. A pinned piece keeps to its pin line (a
        // pinned knight's targets never lie on it, so it cannot move).
        for kind in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen] {
            for from in bits(self.pieces(us, kind)) {
                let targets = piece_attacks(kind, from, occ) & !ours & target_mask & pin_line(from);
                if COUNT {
                    count += targets.count_ones() as usize;
                    continue;
                }
                for to in bits(targets) {
                    push(
                        out,
                        &mut count,
                        from,
                        to,
                        None,
                        Flag::Normal,
                        travel(kind, from, to) + capture_cost(to),
                    );
                }
            }
        }
        // Pawns.
        let (forward, start_rank, last_rank): (i8, u8, u8) = if us == Color::White {
            (8, 1, 7)
        } else {
            (-8, 6, 0)
        };
        for from in bits(self.pieces(us, Kind::Pawn)) {
            let allowed = target_mask & pin_line(from);
            let one = (from as i8 + forward) as Sq;
            let emit = |out: &mut Vec<Move>, count: &mut usize, to: Sq, base: u32| {
                if rank_of(to) == last_rank {
                    for promo in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                        push(out, count, from, to, Some(promo), Flag::Normal, base + 2);
                    }
                } else {
                    push(out, count, from, to, None, Flag::Normal, base);
                }
            };
            if occ & (1 << one) == 0 {
                if allowed & (1 << one) != 0 {
                    emit(out, &mut count, one, 1);
                }
                if rank_of(from) == start_rank {
                    let two = (one as i8 + forward) as Sq;
                    if occ & (1 << two) == 0 && allowed & (1 << two) != 0 {
                        push(out, &mut count, from, two, None, Flag::DoublePush, 2);
                    }
                }
            }
            for to in bits(pawn_attacks(us, from) & theirs & allowed) {
                emit(out, &mut count, to, 1 + removal(to));
            }
            if self.ep != NO_SQ && pawn_attacks(us, from) & (1 << self.ep) != 0 {
                let captured = (self.ep as i8 - forward) as Sq;
                let m = Move {
                    from,
                    to: self.ep,
                    promo: None,
                    flag: Flag::EnPassant,
                    cost: 1 + removal(captured),
                };
                // Rare and subtle (two pieces leave one rank): test by playing it.
                if !self.leaves_king_threatened(m) {
                    push(out, &mut count, m.from, m.to, None, Flag::EnPassant, m.cost);
                }
            }
        }
        // Castling: a flat price; the king's start, transit and target squares
        // must not be threatened (the rook's b-file square may be).
        if n_checks == 0 && self.castling != 0 {
            let (ks, qs, rank) = if us == Color::White {
                (WHITE_KING_SIDE, WHITE_QUEEN_SIDE, 0u8)
            } else {
                (BLACK_KING_SIDE, BLACK_QUEEN_SIDE, 56u8)
            };
            let e = rank + 4;
            let rook = self.pieces(us, Kind::Rook);
            if self.castling & ks != 0
                && k == e
                && rook & (1 << (rank + 7)) != 0
                && occ & ((1 << (rank + 5)) | (1 << (rank + 6))) == 0
                && self.threats_to(rank + 5, them, occ) == 0
                && self.threats_to(rank + 6, them, occ) == 0
            {
                push(out, &mut count, e, rank + 6, None, Flag::Castle, 4);
            }
            if self.castling & qs != 0
                && k == e
                && rook & (1 << rank) != 0
                && occ & ((1 << (rank + 1)) | (1 << (rank + 2)) | (1 << (rank + 3))) == 0
                && self.threats_to(rank + 3, them, occ) == 0
                && self.threats_to(rank + 2, them, occ) == 0
            {
                push(out, &mut count, e, rank + 2, None, Flag::Castle, 5);
            }
        }
        count
    }

    /// Pseudo-legal moves by movement alone, ignoring money and the king's
    /// safety (castling needs only its rights and empty squares): the
    /// starting point for explaining a refusal.
    pub fn movement_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let us = self.side;
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[(!us).index()];
        let capture_cost = |to: Sq| {
            if theirs & (1 << to) != 0 {
                removal(to)
            } else {
                0
            }
        };
        for from in bits(ours) {
            let (_, kind) = self.piece_at(from).expect("own piece");
            let targets = piece_attacks(kind, from, occ) & !ours;
            for to in bits(targets) {
                out.push(Move {
                    from,
                    to,
                    promo: None,
                    flag: Flag::Normal,
                    cost: travel(kind, from, to) + capture_cost(to),
                });
            }
            if kind == Kind::Pawn {
                let (forward, start_rank, last_rank): (i8, u8, u8) = if us == Color::White {
                    (8, 1, 7)
                } else {
                    (-8, 6, 0)
                };
                let one = (from as i8 + forward) as Sq;
                let emit = |to: Sq, base: u32, out: &mut Vec<Move>| {
                    if rank_of(to) == last_rank {
                        for promo in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                            out.push(Move {
                                from,
                                to,
                                promo: Some(promo),
                                flag: Flag::Normal,
                                cost: base + 2,
                            });
                        }
                    } else {
                        out.push(Move {
                            from,
                            to,
                            promo: None,
                            flag: Flag::Normal,
                            cost: base,
                        });
                    }
                };
                if occ & (1 << one) == 0 {
                    emit(one, 1, out);
                    let two = (one as i8 + forward) as Sq;
                    if rank_of(from) == start_rank && occ & (1 << two) == 0 {
                        out.push(Move {
                            from,
                            to: two,
                            promo: None,
                            flag: Flag::DoublePush,
                            cost: 2,
                        });
                    }
                }
                for to in bits(pawn_attacks(us, from) & theirs) {
                    emit(to, 1 + removal(to), out);
                }
                if self.ep != NO_SQ && pawn_attacks(us, from) & (1 << self.ep) != 0 {
                    let captured = (self.ep as i8 - forward) as Sq;
                    out.push(Move {
                        from,
                        to: self.ep,
                        promo: None,
                        flag: Flag::EnPassant,
                        cost: 1 + removal(captured),
                    });
                }
            }
        }
        let k = self.king(us);
        let rank = if us == Color::White { 0u8 } else { 56 };
        let (ks, qs) = if us == Color::White {
            (WHITE_KING_SIDE, WHITE_QUEEN_SIDE)
        } else {
            (BLACK_KING_SIDE, BLACK_QUEEN_SIDE)
        };
        if k == rank + 4 {
            if self.castling & ks != 0 && occ & ((1 << (rank + 5)) | (1 << (rank + 6))) == 0 {
                out.push(Move {
                    from: k,
                    to: rank + 6,
                    promo: None,
                    flag: Flag::Castle,
                    cost: 4,
                });
            }
            if self.castling & qs != 0
                && occ & ((1 << (rank + 1)) | (1 << (rank + 2)) | (1 << (rank + 3))) == 0
            {
                out.push(Move {
                    from: k,
                    to: rank + 2,
                    promo: None,
                    flag: Flag::Castle,
                    cost: 5,
                });
            }
        }
    }

    /// Legal moves the slow way: movement, price, then the king's safety by
    /// playing each move. Must agree with `legal` (a test says so).
    pub fn legal_slow(&self, out: &mut Vec<Move>) {
        let mut all = Vec::new();
        self.movement_moves(&mut all);
        let budget = self.budget(self.side);
        out.clear();
        for m in all {
            if m.cost > budget || self.leaves_king_threatened(m) {
                continue;
            }
            if m.flag == Flag::Castle {
                let them = !self.side;
                let occ = self.occupied();
                let transit = (m.from + m.to) / 2;
                if self.threats_to(m.from, them, occ) != 0
                    || self.threats_to(transit, them, occ) != 0
                {
                    continue;
                }
            }
            out.push(m);
        }
    }
}
