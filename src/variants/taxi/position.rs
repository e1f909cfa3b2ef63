//! The Taxi chess position: bitboards plus a mailbox, both balances, the
//! incremental key, make, and the affordable threats (an attacker counts
//! only when it can pay for the capture) on which check and legality rest.
//! The legality here is ours; the moves are generated in `legal.rs`.

use super::board::*;
use crate::variants::Color;

/// The largest balance accepted.
pub const MAX_BALANCE: u32 = 1_000_000_000;

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
pub(super) const MAX_COST: u32 = 13;

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

    /// Gives the side to move an unlimited budget (tests of the counting path).
    #[doc(hidden)]
    pub fn make_rich_for_test(&mut self) {
        self.set_balance(self.side, MAX_BALANCE);
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
