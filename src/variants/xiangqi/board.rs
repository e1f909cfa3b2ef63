//! Board geometry: points, pieces and the precomputed move tables.
//!
//! Points are numbered `rank * 9 + file`, file 0 (`a`) on Red's left and rank
//! 0 on Red's side, exactly as ICCS writes them (`a0` = 0, `i9` = 89).

use crate::variants::Color;

/// Files a to i.
pub const FILES: usize = 9;
/// Ranks 0 to 9.
pub const RANKS: usize = 10;
/// The 90 points.
pub const POINTS: usize = FILES * RANKS;

/// A point of the board, `0..90`.
pub type Sq = u8;

/// The point at (file, rank).
#[inline]
pub const fn sq(file: usize, rank: usize) -> Sq {
    (rank * FILES + file) as Sq
}

/// A point's file, `0..9` (a = 0).
#[inline]
pub const fn file_of(s: Sq) -> usize {
    s as usize % FILES
}

/// A point's rank, `0..10` (Red's back rank = 0).
#[inline]
pub const fn rank_of(s: Sq) -> usize {
    s as usize / FILES
}

/// The file and rank of the point numbered `s`, signed, for the step
/// tables built at compile time (a step may lead off the board).
pub const fn signed_file_rank(s: usize) -> (i32, i32) {
    ((s % FILES) as i32, (s / FILES) as i32)
}

/// `a0`..`i9`.
pub fn sq_name(s: Sq) -> String {
    format!("{}{}", (b'a' + file_of(s) as u8) as char, rank_of(s))
}

/// The kinds of piece, numbered so that a piece byte is `kind | color << 3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// General (king).
    General = 1,
    /// Advisor.
    Advisor = 2,
    /// Elephant.
    Elephant = 3,
    /// Horse.
    Horse = 4,
    /// Chariot.
    Chariot = 5,
    /// Cannon.
    Cannon = 6,
    /// Soldier.
    Soldier = 7,
}

impl Kind {
    /// The kind with this index (1 to 7).
    pub const fn from_index(i: u8) -> Option<Kind> {
        match i {
            1 => Some(Kind::General),
            2 => Some(Kind::Advisor),
            3 => Some(Kind::Elephant),
            4 => Some(Kind::Horse),
            5 => Some(Kind::Chariot),
            6 => Some(Kind::Cannon),
            7 => Some(Kind::Soldier),
            _ => None,
        }
    }

    /// The FEN letter (uppercase), as Fairy-Stockfish and Pikafish write it.
    pub const fn fen_char(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// Reads a FEN letter, either case; `E` and `H` are accepted aliases.
    pub fn from_fen_char(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }

    /// The WXF letter.
    pub const fn wxf_char(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'E',
            Kind::Horse => 'H',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// The kind a WXF letter names (`K A E H R C P`), if any.
    pub const fn from_wxf(letter: char) -> Option<Kind> {
        Some(match letter {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'E' => Kind::Elephant,
            'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }

    /// The kind's English name, for FEN errors and the API's sentences.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::General => "general",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Chariot => "chariot",
            Kind::Cannon => "cannon",
            Kind::Soldier => "soldier",
        }
    }

    /// How many of this kind a side starts with (and so may have at most).
    pub const fn max_count(self) -> u8 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }
}

/// A piece byte: `0` is an empty point, else `kind | color << 3`.
pub type Piece = u8;
/// No piece.
pub const EMPTY: Piece = 0;

/// The board byte of `color`'s piece of `kind`.
#[inline]
pub const fn piece(color: Color, kind: Kind) -> Piece {
    kind as u8 | ((color as u8) << 3)
}

/// The kind of a board byte, `None` for an empty point.
#[inline]
pub const fn kind_of(p: Piece) -> Option<Kind> {
    Kind::from_index(p & 7)
}

/// The colour of a board byte (of a piece).
#[inline]
pub const fn color_of(p: Piece) -> Color {
    Color::black_if(p & 8 != 0)
}

/// A side's name for the FEN parser's messages.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "Red",
        Color::Black => "Black",
    }
}

/// "Red chariot" and the like, for the FEN parser's messages.
pub fn piece_label(p: Piece) -> String {
    match kind_of(p) {
        Some(k) => format!("{} {}", color_name(color_of(p)), k.name()),
        None => "nothing".to_owned(),
    }
}

/// Whether a point is in the palace of `color`.
#[inline]
pub const fn in_palace(s: Sq, color: Color) -> bool {
    let f = file_of(s);
    let r = rank_of(s);
    if f < 3 || f > 5 {
        return false;
    }
    match color {
        Color::White => r <= 2,
        Color::Black => r >= 7,
    }
}

/// Whether a point is on `color`'s own side of the river.
#[inline]
pub const fn own_side(s: Sq, color: Color) -> bool {
    match color {
        Color::White => rank_of(s) <= 4,
        Color::Black => rank_of(s) >= 5,
    }
}

/// Up to eight `(target, blocking point)` pairs, `count` of them valid.
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    /// How many pairs are valid.
    pub count: u8,
    /// The targets.
    pub to: [Sq; 8],
    /// The point each target's move passes (the horse's leg, the elephant's eye).
    pub via: [Sq; 8],
}

const NO_STEPS: Steps = Steps {
    count: 0,
    to: [0; 8],
    via: [0; 8],
};

pub(super) const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < FILES as i32 && r >= 0 && r < RANKS as i32
}

const fn push(mut s: Steps, to: Sq, via: Sq) -> Steps {
    s.to[s.count as usize] = to;
    s.via[s.count as usize] = via;
    s.count += 1;
    s
}

pub(super) const HORSE_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// Horse moves: target and the leg point that blocks it.
pub static HORSE_MOVES: [Steps; POINTS] = horse_steps(false);

/// Horses that attack a point: `to` is the horse's point, `via` its leg,
/// which is always a diagonal neighbour of the attacked point.
pub static HORSE_ATTACKS: [Steps; POINTS] = horse_steps(true);

/// A horse's steps from each point (`inward` false: where a horse there
/// goes), or to it (`inward` true: where a horse that attacks it stands),
/// each with the leg: one orthogonal step from the horse along the long
/// side of its move.
const fn horse_steps(inward: bool) -> [Steps; POINTS] {
    let mut t = [NO_STEPS; POINTS];
    let mut s = 0;
    while s < POINTS {
        let (f, r) = signed_file_rank(s);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_DELTAS[i];
            let (tf, tr) = (f + df, r + dr);
            if on_board(tf, tr) {
                // The horse's point, and its step from there.
                let (hf, hr, sf, sr) = if inward {
                    (tf, tr, -df, -dr)
                } else {
                    (f, r, df, dr)
                };
                let (lf, lr) = if sr == 2 || sr == -2 {
                    (hf, hr + sr / 2)
                } else {
                    (hf + sf / 2, hr)
                };
                t[s] = push(
                    t[s],
                    sq(tf as usize, tr as usize),
                    sq(lf as usize, lr as usize),
                );
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Elephant moves: target and eye, never across the river.
pub static ELEPHANT_MOVES: [Steps; POINTS] = {
    let mut t = [NO_STEPS; POINTS];
    let mut s = 0;
    while s < POINTS {
        let (f, r) = signed_file_rank(s);
        let deltas = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
        let mut i = 0;
        while i < 4 {
            let (df, dr) = deltas[i];
            let tf = f + df;
            let tr = r + dr;
            if on_board(tf, tr) && (r <= 4) == (tr <= 4) {
                t[s] = push(
                    t[s],
                    sq(tf as usize, tr as usize),
                    sq((f + df / 2) as usize, (r + dr / 2) as usize),
                );
            }
            i += 1;
        }
        s += 1;
    }
    t
};

const fn palace_steps(diagonal: bool) -> [Steps; POINTS] {
    let mut t = [NO_STEPS; POINTS];
    let mut s = 0;
    while s < POINTS {
        let (f, r) = signed_file_rank(s);
        let red = in_palace(s as Sq, Color::White);
        let black = in_palace(s as Sq, Color::Black);
        if red || black {
            let deltas = if diagonal {
                [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            } else {
                [(1, 0), (-1, 0), (0, 1), (0, -1)]
            };
            let mut i = 0;
            while i < 4 {
                let (df, dr) = deltas[i];
                if on_board(f + df, r + dr) {
                    let to = sq((f + df) as usize, (r + dr) as usize);
                    let color = if red { Color::White } else { Color::Black };
                    if in_palace(to, color) {
                        t[s] = push(t[s], to, to);
                    }
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

/// Advisor moves inside either palace.
pub static ADVISOR_MOVES: [Steps; POINTS] = palace_steps(true);
/// General moves inside either palace.
pub static GENERAL_MOVES: [Steps; POINTS] = palace_steps(false);

/// Points where a piece of `kind` and `color` may stand at all: a general
/// or advisor in its palace points, an elephant on its seven points, a
/// soldier anywhere (behind its starting rank only in composed positions:
/// see [`reachable`]), the others anywhere.
pub fn may_stand(kind: Kind, color: Color, s: Sq) -> bool {
    let f = file_of(s);
    let rr = own_rank(color, s);
    match kind {
        Kind::General => in_palace(s, color),
        Kind::Advisor => in_palace(s, color) && (f + rr) % 2 == 1 && (f != 4 || rr == 1),
        Kind::Elephant => {
            matches!(
                (f, rr),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            )
        }
        Kind::Soldier | Kind::Horse | Kind::Chariot | Kind::Cannon => true,
    }
}

/// Whether a game can bring a piece of `kind` and `color` to `s`: a soldier
/// never stands behind its starting rank, nor beside it on its own side of
/// the river (it moves sideways only after crossing).
pub fn reachable(kind: Kind, color: Color, s: Sq) -> bool {
    let rr = own_rank(color, s);
    match kind {
        Kind::Soldier => rr >= 5 || (rr >= 3 && file_of(s).is_multiple_of(2)),
        _ => may_stand(kind, color, s),
    }
}

/// The rank of `s` counted from `color`'s own side (0 = its back rank).
const fn own_rank(color: Color, s: Sq) -> usize {
    match color {
        Color::White => rank_of(s),
        Color::Black => RANKS - 1 - rank_of(s),
    }
}

/// Zobrist keys of the pieces (by piece byte) on the points.
pub static ZOBRIST: [[u64; POINTS]; 16] = crate::variants::zobrist::table(0x5851_F42D_4C95_7F2D);

/// The Zobrist key of Black to move.
pub const ZOBRIST_SIDE: u64 = 0x2D35_8DCC_AA6C_78A5;
