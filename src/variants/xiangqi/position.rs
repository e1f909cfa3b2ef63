//! The Xiangqi position: mailbox plus per-file and per-rank occupancy masks,
//! incremental Zobrist hash, make/unmake, and where each piece may go by
//! its movement rules. Who attacks what is in `attacks.rs`; the legal moves
//! in `legal.rs`.

use super::bitboards::*;
use super::board::*;
use crate::variants::bits::bits;
use crate::variants::Color;

/// A move: from and to point. Xiangqi has no other kind of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// From.
    pub from: Sq,
    /// To.
    pub to: Sq,
}

impl Move {
    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Sq, to: Sq) -> Move {
        Move { from, to }
    }
}

/// What `make` needs to remember for `unmake`.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// What stood on the destination.
    pub captured: Piece,
    /// The halfmove clock before the move.
    pub halfmove: u16,
}

/// A Xiangqi position: mailbox, file and rank occupancy, colour bitboards,
/// the generals' points and the incremental key.
#[derive(Clone, Debug)]
pub struct Position {
    pub(super) board: [Piece; POINTS],
    /// Bit `rank` set when (file, rank) is occupied.
    pub(super) files: [u16; FILES],
    /// Bit `file` set when (file, rank) is occupied.
    pub(super) ranks: [u16; RANKS],
    /// Bit `point` set for each piece of the colour.
    pub(super) by_color: [u128; 2],
    /// Bit `point` set for each piece, by piece byte.
    pub(super) by_piece: [u128; 16],
    pub(super) generals: [Sq; 2],
    pub(super) side: Color,
    /// Plies since the last capture.
    pub(super) halfmove: u16,
    pub(super) fullmove: u32,
    pub(super) hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}
impl Eq for Position {}

impl Position {
    /// An empty board, for building positions piece by piece.
    pub(super) fn empty(side: Color) -> Position {
        Position {
            board: [EMPTY; POINTS],
            files: [0; FILES],
            ranks: [0; RANKS],
            by_color: [0; 2],
            by_piece: [0; 16],
            generals: [u8::MAX; 2],
            side,
            halfmove: 0,
            fullmove: 1,
            hash: if side == Color::Black {
                ZOBRIST_SIDE
            } else {
                0
            },
        }
    }

    /// A position from its pieces (point and piece byte), with `side` to
    /// move, halfmove clock 0 and move number 1: the tablebases' way in. No
    /// check of legality beyond the board itself: `None` when two pieces
    /// share a point or a colour has no general or two.
    pub fn from_pieces(side: Color, pieces: &[(Sq, Piece)]) -> Option<Position> {
        let mut pos = Position::empty(side);
        let mut generals = [0u8; 2];
        for &(s, p) in pieces {
            if s as usize >= POINTS || pos.board[s as usize] != EMPTY || kind_of(p).is_none() {
                return None;
            }
            if kind_of(p) == Some(Kind::General) {
                generals[color_of(p).index()] += 1;
            }
            pos.put(s, p);
        }
        (generals == [1, 1]).then_some(pos)
    }

    /// The board byte on a point.
    #[inline]
    pub fn piece_at(&self, s: Sq) -> Piece {
        self.board[s as usize]
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Plies since the last capture.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// The FEN's move number.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Where `c`'s general stands.
    pub fn general(&self, c: Color) -> Sq {
        self.generals[c.index()]
    }

    /// The incremental Zobrist key.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The points holding a piece of `c`, as a bitboard (bit = point).
    #[inline]
    pub fn occupied_by(&self, c: Color) -> u128 {
        self.by_color[c.index()]
    }

    /// The points holding a piece of `c`, in increasing order.
    pub fn pieces(&self, c: Color) -> impl Iterator<Item = Sq> {
        bits(self.by_color[c.index()])
    }

    #[inline]
    pub(super) fn put(&mut self, s: Sq, p: Piece) {
        debug_assert_eq!(self.board[s as usize], EMPTY);
        self.board[s as usize] = p;
        self.files[file_of(s)] |= 1 << rank_of(s);
        self.ranks[rank_of(s)] |= 1 << file_of(s);
        self.by_color[color_of(p).index()] |= 1u128 << s;
        self.by_piece[p as usize] |= 1u128 << s;
        self.hash ^= ZOBRIST[p as usize][s as usize];
        if kind_of(p) == Some(Kind::General) {
            self.generals[color_of(p).index()] = s;
        }
    }

    #[inline]
    pub(super) fn remove(&mut self, s: Sq) -> Piece {
        let p = self.board[s as usize];
        self.board[s as usize] = EMPTY;
        self.files[file_of(s)] &= !(1 << rank_of(s));
        self.ranks[rank_of(s)] &= !(1 << file_of(s));
        self.by_color[color_of(p).index()] &= !(1u128 << s);
        self.by_piece[p as usize] &= !(1u128 << s);
        self.hash ^= ZOBRIST[p as usize][s as usize];
        p
    }

    /// Plays a pseudo-legal move (the caller knows it is legal).
    #[inline]
    pub fn make(&mut self, m: Move) -> Undo {
        let captured = self.board[m.to as usize];
        let undo = Undo {
            captured,
            halfmove: self.halfmove,
        };
        if captured != EMPTY {
            self.remove(m.to);
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        let p = self.remove(m.from);
        self.put(m.to, p);
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        self.hash ^= ZOBRIST_SIDE;
        undo
    }

    /// Takes back `m`, given what `make` returned.
    #[inline]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        self.side = !self.side;
        self.hash ^= ZOBRIST_SIDE;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let p = self.remove(m.to);
        self.put(m.from, p);
        if undo.captured != EMPTY {
            self.put(m.to, undo.captured);
        }
        self.halfmove = undo.halfmove;
    }

    /// Pseudo-legal moves of the piece on `from` (which belongs to the side to move).
    #[inline]
    pub(super) fn piece_moves(&self, from: Sq, out: &mut Vec<Move>) {
        push_moves(out, from, self.targets(from));
    }

    /// Where the piece on `from` may go by its movement rules: empty points
    /// and the other side's pieces it could take.
    #[inline]
    pub fn targets(&self, from: Sq) -> u128 {
        let p = self.board[from as usize];
        let us = color_of(p);
        let own = self.by_color[us.index()];
        if kind_of(p) == Some(Kind::Cannon) {
            let occ = self.by_color[0] | self.by_color[1];
            (self.lines(from, 0) & !occ) | (self.lines(from, 1) & self.by_color[(!us).index()])
        } else {
            self.guards(from) & !own
        }
    }

    /// The points the piece on `from` would take on if an enemy piece stood
    /// there, own pieces' points included (the points it guards); for a
    /// cannon, the pieces it could take or guards over a screen.
    #[inline]
    pub fn guards(&self, from: Sq) -> u128 {
        let p = self.board[from as usize];
        let occ = self.by_color[0] | self.by_color[1];
        let f = from as usize;
        match kind_of(p) {
            Some(Kind::General) => GENERAL_BB[f],
            Some(Kind::Advisor) => ADVISOR_BB[f],
            Some(Kind::Elephant) => ELEPHANT_BB[f][eyes(occ, from)],
            Some(Kind::Horse) => HORSE_BB[f][legs(occ, from)],
            Some(Kind::Soldier) => SOLDIER_BB[color_of(p).index()][f],
            Some(Kind::Chariot) => self.lines(from, 0),
            Some(Kind::Cannon) => self.beyond_screens(from),
            None => 0,
        }
    }

    /// The points a chariot (`which` 0: up to the first piece each way,
    /// that piece included) or a cannon's capture (`which` 1: the second
    /// piece each way) reaches from `s` along its file and rank.
    #[inline]
    fn lines(&self, s: Sq, which: usize) -> u128 {
        let (f, r) = (file_of(s), rank_of(s));
        let on_file = FILE_LINES[r][self.files[f] as usize][which];
        let on_rank = RANK_LINES[f][self.ranks[r] as usize][which];
        (FILE_SPREAD[on_file as usize] << f) | ((on_rank as u128) << (r * FILES))
    }

    /// What a cannon on `s` guards: along its file and rank, the points
    /// beyond the first piece (the screen) up to the next piece, that piece
    /// included. The reach with the screens taken away, less the reach
    /// with them.
    #[inline]
    fn beyond_screens(&self, s: Sq) -> u128 {
        let (f, r) = (file_of(s), rank_of(s));
        let (fo, ro) = (self.files[f] as usize, self.ranks[r] as usize);
        let near_f = FILE_LINES[r][fo][0] as usize;
        let near_r = RANK_LINES[f][ro][0] as usize;
        let far_f = FILE_LINES[r][fo & !(near_f & fo)][0] as usize & !near_f;
        let far_r = RANK_LINES[f][ro & !(near_r & ro)][0] as usize & !near_r;
        (FILE_SPREAD[far_f] << f) | ((far_r as u128) << (r * FILES))
    }
}

/// Appends a move from `from` to each point of `targets`.
#[inline]
pub(super) fn push_moves(out: &mut Vec<Move>, from: Sq, mut targets: u128) {
    while targets != 0 {
        let to = targets.trailing_zeros() as Sq;
        targets &= targets - 1;
        out.push(Move::new(from, to));
    }
}
