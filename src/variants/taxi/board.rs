//! The Taxi chess board: squares `0..64` (a1 = 0, h1 = 7, a8 = 56), piece
//! kinds, moves, and the geometry of attacks and prices. Attack geometry
//! comes from the `cozy-chess` crate (magic bitboards).

use cozy_chess::{
    get_between_rays, get_bishop_moves, get_king_moves, get_knight_moves, get_line_rays,
    get_rook_moves, BitBoard, Square,
};

pub(super) use crate::variants::bits::bits;
use crate::variants::Color;

/// A square, `0..64`: a1 = 0, h1 = 7, a8 = 56.
pub type Sq = u8;

/// A chess piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Kind {
    /// Every kind, by index.
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];

    /// The kind with this index.
    pub fn from_index(i: u8) -> Kind {
        Kind::ALL[i as usize]
    }

    /// The kind's FEN letter, upper case.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
        }
    }

    /// The kind of a FEN or SAN letter (either case).
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'N' => Kind::Knight,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'Q' => Kind::Queen,
            'K' => Kind::King,
            _ => return None,
        })
    }

    /// The kind's English name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Knight => "knight",
            Kind::Bishop => "bishop",
            Kind::Rook => "rook",
            Kind::Queen => "queen",
            Kind::King => "king",
        }
    }
}

/// What kind of move, beyond from and to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flag {
    /// Any other move.
    Normal,
    /// A pawn's two-square first move.
    DoublePush,
    /// An en-passant capture.
    EnPassant,
    /// Castling (the king's move).
    Castle,
}

/// A move with its price. `promo` is the piece a pawn becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// From.
    pub from: Sq,
    /// To.
    pub to: Sq,
    /// What a pawn becomes.
    pub promo: Option<Kind>,
    /// What is special about the move.
    pub flag: Flag,
    /// What the move costs: travel, removal and promotion.
    pub cost: u32,
}

pub const NO_SQ: Sq = 64;
pub(super) const EMPTY: u8 = 12;

pub const WHITE_KING_SIDE: u8 = 1;
pub const WHITE_QUEEN_SIDE: u8 = 2;
pub const BLACK_KING_SIDE: u8 = 4;
pub const BLACK_QUEEN_SIDE: u8 = 8;

/// The file, `0..8` (a = 0).
#[inline]
pub const fn file_of(s: Sq) -> u8 {
    s & 7
}

/// The rank, `0..8` (rank 1 = 0).
#[inline]
pub const fn rank_of(s: Sq) -> u8 {
    s >> 3
}

/// The square's name: `e4`.
pub fn sq_name(s: Sq) -> String {
    format!("{}{}", (b'a' + file_of(s)) as char, rank_of(s) + 1)
}

#[inline]
pub(super) fn csq(s: Sq) -> Square {
    Square::index(s as usize)
}

/// Squares a rook on `s` attacks through the occupancy `occ`.
#[inline]
pub fn rook_attacks(s: Sq, occ: u64) -> u64 {
    get_rook_moves(csq(s), BitBoard(occ)).0
}

/// Squares a bishop on `s` attacks through the occupancy `occ`.
#[inline]
pub fn bishop_attacks(s: Sq, occ: u64) -> u64 {
    get_bishop_moves(csq(s), BitBoard(occ)).0
}

/// Squares a knight on `s` attacks.
#[inline]
pub fn knight_attacks(s: Sq) -> u64 {
    get_knight_moves(csq(s)).0
}

/// Squares a king on `s` attacks.
#[inline]
pub fn king_attacks(s: Sq) -> u64 {
    get_king_moves(csq(s)).0
}

#[inline]
pub(super) fn between(a: Sq, b: Sq) -> u64 {
    get_between_rays(csq(a), csq(b)).0
}

#[inline]
pub(super) fn line(a: Sq, b: Sq) -> u64 {
    get_line_rays(csq(a), csq(b)).0
}

/// The a-file's squares; shifted left by a file number, that file's.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file's squares.
pub const FILE_H: u64 = FILE_A << 7;

/// Squares a pawn of `c` on `s` attacks.
#[inline]
pub fn pawn_attacks(c: Color, s: Sq) -> u64 {
    pawns_attacks(c, 1u64 << s)
}

/// Squares the pawns of `c` on the squares of `pawns` attack.
#[inline]
pub fn pawns_attacks(c: Color, pawns: u64) -> u64 {
    match c {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

/// Squares a piece of `kind` on `s` attacks through the occupancy `occ`;
/// none for a pawn, whose attacks depend on its colour ([`pawn_attacks`]).
#[inline]
pub fn piece_attacks(kind: Kind, s: Sq, occ: u64) -> u64 {
    match kind {
        Kind::Pawn => 0,
        Kind::Knight => knight_attacks(s),
        Kind::Bishop => bishop_attacks(s, occ),
        Kind::Rook => rook_attacks(s, occ),
        Kind::Queen => bishop_attacks(s, occ) | rook_attacks(s, occ),
        Kind::King => king_attacks(s),
    }
}

/// Steps from `a` to `b` as a king walks them: max(|dx|, |dy|).
#[inline]
pub fn distance(a: Sq, b: Sq) -> u32 {
    (file_of(a).abs_diff(file_of(b))).max(rank_of(a).abs_diff(rank_of(b))) as u32
}

/// The price of carrying a captured piece off the board from `s`.
#[inline]
pub fn removal(s: Sq) -> u32 {
    let (f, r) = (file_of(s) as u32, rank_of(s) as u32);
    (f + 1).min(8 - f).min(r + 1).min(8 - r)
}

/// The travel cost of a piece of `kind` going from `from` to `to` by its
/// normal movement: knights 2, everything else one unit per step.
#[inline]
pub fn travel(kind: Kind, from: Sq, to: Sq) -> u32 {
    if kind == Kind::Knight {
        2
    } else {
        distance(from, to)
    }
}
