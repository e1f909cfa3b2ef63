//! Board geometry: 110 squares `rank * 11 + file` (a1 = 0, k10 = 109) plus
//! the citadels l2 (110, White's) and z9 (111, Black's); piece codes; and the
//! leaper tables.

use std::sync::LazyLock;

use crate::variants::Color;

/// Files a to k.
pub const FILES: i32 = 11;
/// Ranks 1 to 10.
pub const RANKS: i32 = 10;
/// The 110 board squares plus the two citadels.
pub const SQUARES: usize = 112;
/// A square: `0..110` on the board (file + 11 x rank), then the two citadels.
pub type Sq = u8;
/// White's citadel, beside k2; the first point that is not a board square.
pub const L2: Sq = 110;
/// Black's citadel, beside a9.
pub const Z9: Sq = 111;
/// The board squares proper, `a1` to `k10`: every square below the citadels.
pub const BOARD_SQUARES: Sq = L2;

/// Whether `s` is a citadel rather than a board square.
#[inline]
pub const fn is_citadel(s: Sq) -> bool {
    s >= L2
}

/// The square at (file, rank), if on the board.
#[inline]
pub fn sq(file: i32, rank: i32) -> Option<Sq> {
    if (0..FILES).contains(&file) && (0..RANKS).contains(&rank) {
        Some((rank * FILES + file) as Sq)
    } else {
        None
    }
}

/// (file, rank) of a board square; the citadels lie beside the board.
#[inline]
pub fn coords(s: Sq) -> (i32, i32) {
    match s {
        L2 => (11, 1),
        Z9 => (-1, 8),
        _ => (s as i32 % FILES, s as i32 / FILES),
    }
}

/// A square's name: `a1` … `k10`, `L2` and `Z9` for the citadels.
pub fn sq_name(s: Sq) -> String {
    match s {
        L2 => "l2".to_owned(),
        Z9 => "z9".to_owned(),
        _ => {
            let (f, r) = coords(s);
            format!("{}{}", (b'a' + f as u8) as char, r + 1)
        }
    }
}

/// Reads a square's name.
pub fn parse_sq(t: &str) -> Option<Sq> {
    match t {
        "l2" => return Some(L2),
        "z9" => return Some(Z9),
        _ => {}
    }
    let b = t.as_bytes();
    let f = *b.first()?;
    if !(b'a'..=b'k').contains(&f) || t.len() < 2 || t[1..].starts_with('0') {
        return None;
    }
    let r: i32 = t[1..].parse().ok()?;
    sq((f - b'a') as i32, r - 1)
}

/// The three board squares next to a citadel.
pub fn gates(citadel: Sq) -> [Sq; 3] {
    match citadel {
        L2 => [10, 21, 32],
        _ => [77, 88, 99],
    }
}

/// `c`'s own citadel: White's `L2` (beside k2), Black's `Z9` (beside a9).
pub fn own_citadel(c: Color) -> Sq {
    match c {
        Color::White => L2,
        Color::Black => Z9,
    }
}

/// Piece kinds. Pawns are `PAWN + type`, the type being the index of what
/// they promote to in `PAWN_TYPES`.
pub const SHAH: u8 = 0;
/// Ferz: one step diagonally.
pub const FERZ: u8 = 1;
/// Wazir: one step orthogonally.
pub const WAZIR: u8 = 2;
/// Giraffe: one diagonal step, then at least three straight.
pub const GIRAFFE: u8 = 3;
/// Talia (picket): a bishop that must move at least two squares.
pub const TALIA: u8 = 4;
/// Faras (knight).
pub const FARAS: u8 = 5;
/// Rukh (rook).
pub const RUKH: u8 = 6;
/// Pil (elephant): leaps two squares diagonally.
pub const PIL: u8 = 7;
/// Jamal (camel): a (3, 1) leaper.
pub const JAMAL: u8 = 8;
/// Dabbaba (war engine): leaps two squares orthogonally.
pub const DABBABA: u8 = 9;
/// Prince: a royal that moves like the shah.
pub const PRINCE: u8 = 10;
/// Adventitious king: a royal that moves like the shah.
pub const ADVENTITIOUS: u8 = 11;
/// The first pawn kind; the pawn of each piece is `PAWN` + its kind.
pub const PAWN: u8 = 12;
/// Pawn types in the order of their letters: the pawn of the shah ... the pawn of pawns.
pub const PAWN_TYPES: [char; 11] = ['K', 'F', 'W', 'G', 'T', 'N', 'R', 'E', 'C', 'D', 'P'];
/// The pawn of the shah.
pub const PAWN_OF_SHAH: u8 = PAWN;
/// The pawn of pawns.
pub const PAWN_OF_PAWNS: u8 = PAWN + 10;
/// FEN letters of the piece kinds, shah first.
pub const PIECE_LETTERS: [char; 12] = ['K', 'F', 'W', 'G', 'T', 'N', 'R', 'E', 'C', 'D', 'S', 'A'];

/// A square's content: `EMPTY`, or `kind | color << 5`.
pub const EMPTY: u8 = 0xFF;

/// A board byte: `c`'s piece of `kind`.
#[inline]
pub const fn code(c: Color, kind: u8) -> u8 {
    kind | ((c as u8) << 5)
}

/// The kind of a board byte.
#[inline]
pub const fn kind_of(code: u8) -> u8 {
    code & 0x1F
}

/// The colour of a board byte.
#[inline]
pub const fn color_of(code: u8) -> Color {
    Color::black_if(code & 0x20 != 0)
}

/// Whether a kind is royal (shah, prince, adventitious king).
#[inline]
pub const fn is_royal(kind: u8) -> bool {
    matches!(kind, SHAH | PRINCE | ADVENTITIOUS)
}

/// Whether a kind is one of the pawns.
#[inline]
pub const fn is_pawn(kind: u8) -> bool {
    kind >= PAWN
}

/// Shah 3 > Prince 2 > Adventitious king 1.
pub const fn royal_rank(kind: u8) -> u8 {
    match kind {
        SHAH => 3,
        PRINCE => 2,
        ADVENTITIOUS => 1,
        _ => 0,
    }
}

/// What a pawn becomes on its far rank; `None` for the pawn of pawns.
pub fn promotion(kind: u8) -> Option<u8> {
    match kind {
        PAWN_OF_SHAH => Some(PRINCE),
        PAWN_OF_PAWNS => None,
        k => Some(k - PAWN),
    }
}

/// A kind's name, as the docs spell it.
pub fn kind_name(kind: u8) -> String {
    match kind {
        SHAH => "shah".to_owned(),
        FERZ => "ferz".to_owned(),
        WAZIR => "wazir".to_owned(),
        GIRAFFE => "giraffe".to_owned(),
        TALIA => "talia".to_owned(),
        FARAS => "faras".to_owned(),
        RUKH => "rukh".to_owned(),
        PIL => "pil".to_owned(),
        JAMAL => "jamal".to_owned(),
        DABBABA => "dabbaba".to_owned(),
        PRINCE => "prince".to_owned(),
        ADVENTITIOUS => "adventitious king".to_owned(),
        PAWN_OF_PAWNS => "pawn of pawns".to_owned(),
        k => format!("pawn of the {}", kind_name(k - PAWN)),
    }
}

/// The eight steps of a king.
pub const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
/// The four diagonal steps.
pub const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The four orthogonal steps.
pub const ORTHOGONALS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The eight leaps of an (a, b) leaper, in the order the tables list them.
const fn leaper(a: i32, b: i32) -> [(i32, i32); 8] {
    [
        (a, b),
        (b, a),
        (-a, b),
        (-b, a),
        (a, -b),
        (b, -a),
        (-a, -b),
        (-b, -a),
    ]
}
const KNIGHT: [(i32, i32); 8] = leaper(1, 2);
const CAMEL: [(i32, i32); 8] = leaper(1, 3);
const ELEPHANT: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
const DABBABA_STEPS: [(i32, i32); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];

/// For each leaper kind and board square, its target squares on the board.
pub struct Leaps {
    /// By kind, then square: the target squares.
    pub table: Vec<Vec<Vec<Sq>>>,
}

/// The leap tables, made on first use.
pub static LEAPS: LazyLock<Leaps> = LazyLock::new(|| {
    let shapes: [&[(i32, i32)]; 12] = [
        &KING_STEPS,
        &DIAGONALS,
        &ORTHOGONALS,
        &[],
        &[],
        &KNIGHT,
        &[],
        &ELEPHANT,
        &CAMEL,
        &DABBABA_STEPS,
        &KING_STEPS,
        &KING_STEPS,
    ];
    let table = shapes
        .iter()
        .map(|deltas| {
            (0..BOARD_SQUARES)
                .map(|s| {
                    let (f, r) = coords(s);
                    deltas
                        .iter()
                        .filter_map(|&(dx, dy)| sq(f + dx, r + dy))
                        .collect()
                })
                .collect()
        })
        .collect();
    Leaps { table }
});

/// Where a leaper of `kind` on `s` may land.
#[inline]
pub fn leaps(kind: u8, s: Sq) -> &'static [Sq] {
    &LEAPS.table[kind as usize][s as usize]
}
