//! The Taxi chess position: bitboards plus a mailbox, both balances, and a
//! legal move generator where checks and pins count only when the attacker
//! can pay for the capture ("affordable threats"). The legality here is ours.

use cozy_chess::{get_bishop_rays, get_rook_rays};

use super::board::*;
use crate::variants::Color;

/// A Taxi chess position: the chess position plus both balances and the
/// income, with the incremental key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) by_kind: [u64; 6],
    pub(super) by_color: [u64; 2],
    pub(super) board: [u8; 64],
    pub(super) side: Color,
    pub(super) castling: u8,
    /// The en-passant target square after a double step, or `NO_SQ`.
    pub(super) ep: Sq,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    /// Each side's balance before its next income.
    pub(super) balance: [u32; 2],
    /// Income per turn (a rule option, carried with the position).
    pub(super) income: u32,
    /// The Zobrist key of everything but the en-passant square, kept up
    /// to date by every change.
    pub(super) hash: u64,
    /// The en-passant square's part of the key: its key where an
    /// en-passant capture is legal, else 0 (positions that differ only in
    /// an unusable en-passant square are the same position).
    pub(super) ep_hash: u64,
}

/// Zobrist keys of the pieces (by board byte) on the squares.
static PIECE_KEYS: [[u64; 64]; 12] = crate::variants::zobrist::table(0x7A3C_0DE5_11E2_95B1);
/// Keys of the castling rights (by their four bits) and of the en-passant file.
static RIGHTS_KEYS: [[u64; 16]; 2] = crate::variants::zobrist::table(0x1F83_D9AB_FB41_BD6B);
/// The key of Black to move.
const SIDE_KEY: u64 = 0x5BE0_CD19_137E_2179;

/// The key of a side's balance.
#[inline]
fn balance_key(c: Color, balance: u32) -> u64 {
    crate::variants::zobrist::of_value(u64::from(balance), 0x9B05_688C_2B3E_6C1F ^ c as u64)
}

/// The key of an en-passant square (only its file matters).
#[inline]
fn ep_key(ep: Sq) -> u64 {
    if ep == NO_SQ {
        0
    } else {
        RIGHTS_KEYS[1][file_of(ep) as usize]
    }
}

/// The most that any single move can cost (7 steps, 4 removal, 2 promotion).
const MAX_COST: u32 = 13;

impl Position {
    pub(super) fn empty(side: Color, income: u32) -> Position {
        Position {
            by_kind: [0; 6],
            by_color: [0; 2],
            board: [EMPTY; 64],
            side,
            castling: 0,
            ep: NO_SQ,
            halfmove: 0,
            fullmove: 1,
            balance: [0; 2],
            income,
            hash: if side == Color::Black { SIDE_KEY } else { 0 }
                ^ RIGHTS_KEYS[0][0]
                ^ balance_key(Color::White, 0)
                ^ balance_key(Color::Black, 0),
            ep_hash: 0,
        }
    }

    /// The Zobrist key computed from scratch (the incremental one must
    /// always equal it).
    pub fn zobrist(&self) -> u64 {
        let ep = if self.ep_capture_legal() {
            ep_key(self.ep)
        } else {
            0
        };
        self.zobrist_without_ep() ^ ep
    }

    /// The key's part kept incrementally: all but the en-passant square.
    pub(super) fn zobrist_without_ep(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            SIDE_KEY
        } else {
            0
        };
        for (s, &p) in self.board.iter().enumerate() {
            if p != EMPTY {
                h ^= PIECE_KEYS[p as usize][s];
            }
        }
        h ^ RIGHTS_KEYS[0][self.castling as usize]
            ^ balance_key(Color::White, self.balance[0])
            ^ balance_key(Color::Black, self.balance[1])
    }

    /// Sets a side's balance, keeping the key.
    pub(super) fn set_balance(&mut self, c: Color, balance: u32) {
        let i = c.index();
        self.hash ^= balance_key(c, self.balance[i]) ^ balance_key(c, balance);
        self.balance[i] = balance;
    }

    /// Sets the castling rights, keeping the key.
    pub(super) fn set_castling(&mut self, rights: u8) {
        self.hash ^= RIGHTS_KEYS[0][self.castling as usize] ^ RIGHTS_KEYS[0][rights as usize];
        self.castling = rights;
    }

    /// Sets the en-passant square and its part of the key (call once
    /// the rest of the position is set: legality decides).
    pub(super) fn set_ep(&mut self, ep: Sq) {
        self.ep = ep;
        // A legal capture needs a pawn of the side to move beside the
        // double-stepped pawn: rare, so the full test runs rarely.
        let capturable = ep != NO_SQ
            && pawn_attacks(!self.side, ep) & self.pieces(self.side, Kind::Pawn) != 0
            && self.ep_capture_legal();
        self.ep_hash = if capturable { ep_key(ep) } else { 0 };
    }

    /// Hands the move to the other side, keeping the key.
    pub(super) fn flip_side(&mut self) {
        self.side = !self.side;
        self.hash ^= SIDE_KEY;
    }

    /// The piece on a square, if any.
    #[inline]
    pub fn piece_at(&self, s: Sq) -> Option<(Color, Kind)> {
        let p = self.board[s as usize];
        (p != EMPTY).then(|| {
            (
                if p < 6 { Color::White } else { Color::Black },
                Kind::from_index(p % 6),
            )
        })
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// Both balances before their next income, White first.
    pub fn balances(&self) -> [u32; 2] {
        self.balance
    }

    /// The income each side receives before its move.
    pub fn income(&self) -> u32 {
        self.income
    }

    /// What `c` may spend on its next move: balance plus income.
    #[inline]
    pub fn budget(&self, c: Color) -> u32 {
        self.balance[c.index()].saturating_add(self.income)
    }

    #[inline]
    pub(super) fn pieces(&self, c: Color, k: Kind) -> u64 {
        self.by_color[c.index()] & self.by_kind[k as usize]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// Where `c`'s king stands.
    #[inline]
    pub fn king(&self, c: Color) -> Sq {
        self.pieces(c, Kind::King).trailing_zeros() as Sq
    }

    #[inline]
    pub(super) fn put(&mut self, s: Sq, c: Color, k: Kind) {
        let p = c as u8 * 6 + k as u8;
        self.board[s as usize] = p;
        self.by_kind[k as usize] |= 1 << s;
        self.by_color[c.index()] |= 1 << s;
        self.hash ^= PIECE_KEYS[p as usize][s as usize];
    }

    #[inline]
    fn take(&mut self, s: Sq) {
        let p = self.board[s as usize];
        if p != EMPTY {
            self.by_kind[(p % 6) as usize] &= !(1 << s);
            self.by_color[(p / 6) as usize] &= !(1 << s);
            self.board[s as usize] = EMPTY;
            self.hash ^= PIECE_KEYS[p as usize][s as usize];
        }
    }

    /// Pieces of `by` that could take on `s` on their next turn and pay the
    /// travel: the affordable threats. `occ` is the occupancy to look through.
    #[inline]
    pub fn threats_to(&self, s: Sq, by: Color, occ: u64) -> u64 {
        let budget = self.budget(by);
        if budget == 0 {
            return 0;
        }
        let mut a = (pawn_attacks(!by, s) & self.pieces(by, Kind::Pawn))
            | (king_attacks(s) & self.pieces(by, Kind::King));
        if budget >= 2 {
            a |= knight_attacks(s) & self.pieces(by, Kind::Knight);
        }
        let queens = self.pieces(by, Kind::Queen);
        let sliders = (bishop_attacks(s, occ) & (self.pieces(by, Kind::Bishop) | queens))
            | (rook_attacks(s, occ) & (self.pieces(by, Kind::Rook) | queens));
        if budget >= 7 {
            a |= sliders;
        } else {
            for x in bits(sliders) {
                if distance(x, s) <= budget {
                    a |= 1 << x;
                }
            }
        }
        a
    }

    /// Whether the side to move is in check: its king is under an affordable threat.
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side;
        self.threats_to(self.king(us), !us, self.occupied()) != 0
    }

    /// Whether `c`'s king is under an affordable threat.
    #[inline]
    pub fn king_threatened(&self, c: Color) -> bool {
        self.threats_to(self.king(c), !c, self.occupied()) != 0
    }

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
                let attacks = match kind {
                    Kind::Knight => knight_attacks(from),
                    Kind::Bishop => bishop_attacks(from, occ),
                    Kind::Rook => rook_attacks(from, occ),
                    _ => bishop_attacks(from, occ) | rook_attacks(from, occ),
                };
                let targets = attacks & !ours & target_mask & pin_line(from);
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

    /// Whether playing `m` (pseudo-legal) leaves the mover's king threatened.
    pub fn leaves_king_threatened(&self, m: Move) -> bool {
        let mut after = *self;
        let us = self.side;
        after.make(m);
        after.king_threatened(us)
    }

    /// Plays a move (legal, or at least pseudo-legal for tests of legality).
    pub fn make(&mut self, m: Move) {
        let us = self.side;
        let (_, kind) = self.piece_at(m.from).expect("a move starts on a piece");
        let capture = self.board[m.to as usize] != EMPTY || m.flag == Flag::EnPassant;
        match m.flag {
            Flag::EnPassant => {
                let captured = if us == Color::White {
                    m.to - 8
                } else {
                    m.to + 8
                };
                self.take(captured);
            }
            _ => self.take(m.to),
        }
        self.take(m.from);
        self.put(m.to, us, m.promo.unwrap_or(kind));
        if m.flag == Flag::Castle {
            let rank = rank_of(m.from) * 8;
            let (rf, rt) = if file_of(m.to) == 6 {
                (rank + 7, rank + 5)
            } else {
                (rank, rank + 3)
            };
            self.take(rf);
            self.put(rt, us, Kind::Rook);
        }
        // Castling rights: lost when the king or a rook leaves, or a rook is taken.
        let mut rights = self.castling;
        for s in [m.from, m.to] {
            rights &= match s {
                4 => !(WHITE_KING_SIDE | WHITE_QUEEN_SIDE),
                7 => !WHITE_KING_SIDE,
                0 => !WHITE_QUEEN_SIDE,
                60 => !(BLACK_KING_SIDE | BLACK_QUEEN_SIDE),
                63 => !BLACK_KING_SIDE,
                56 => !BLACK_QUEEN_SIDE,
                _ => 0xFF,
            };
        }
        if rights != self.castling {
            self.set_castling(rights);
        }
        self.halfmove = if kind == Kind::Pawn || capture {
            0
        } else {
            self.halfmove + 1
        };
        if us == Color::Black {
            self.fullmove += 1;
        }
        let paid = self.balance[us.index()]
            .saturating_add(self.income)
            .saturating_sub(m.cost);
        self.set_balance(us, paid);
        self.flip_side();
        self.set_ep(if m.flag == Flag::DoublePush {
            (m.from + m.to) / 2
        } else {
            NO_SQ
        });
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
            let targets = match kind {
                Kind::Pawn => 0,
                Kind::Knight => knight_attacks(from),
                Kind::Bishop => bishop_attacks(from, occ),
                Kind::Rook => rook_attacks(from, occ),
                Kind::Queen => bishop_attacks(from, occ) | rook_attacks(from, occ),
                Kind::King => king_attacks(from),
            } & !ours;
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

    /// Gives the side to move an unlimited budget (tests of the counting path).
    #[doc(hidden)]
    pub fn make_rich_for_test(&mut self) {
        self.set_balance(self.side, super::MAX_BALANCE);
    }

    /// Whether an en-passant capture is legal here (for repetition).
    pub fn ep_capture_legal(&self) -> bool {
        if self.ep == NO_SQ {
            return false;
        }
        let mut moves = Vec::new();
        self.legal(&mut moves);
        moves.iter().any(|m| m.flag == Flag::EnPassant)
    }
}
