//! Move notations: ICCS/UCCI coordinates (`h2e2`), Fairy-Stockfish's
//! coordinates with ranks 1-10 (`h3e3`), WXF (`C2.5`) and Chinese (`炮二平五`).

use super::board::*;
use super::position::{Move, Position};
use crate::variants::spelling;
use crate::variants::{Color, NotationName};

/// How moves are written in a request and in its answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// ICCS/UCCI coordinates, ranks 0-9 from Red's side: `h2e2`.
    #[default]
    Iccs,
    /// Fairy-Stockfish's UCI coordinates, ranks 1-10: `h3e3`.
    Fairy,
    /// WXF/AXF notation: `C2.5`.
    Wxf,
    /// Chinese notation: `炮二平五`.
    Chinese,
}

impl Notation {
    /// The notation a wire name stands for: `ucci` is ICCS, and `uci` is
    /// Fairy-Stockfish's UCI coordinates.
    pub fn of(name: NotationName) -> Option<Notation> {
        Some(match name {
            NotationName::Iccs | NotationName::Ucci => Notation::Iccs,
            NotationName::Fairy | NotationName::Uci => Notation::Fairy,
            NotationName::Wxf => Notation::Wxf,
            NotationName::Chinese => Notation::Chinese,
            NotationName::San | NotationName::Coordinate => return None,
        })
    }
}

/// Appends a point in coordinates, ranks counted from `base` (0 for ICCS, 1 for Fairy).
fn push_coord(out: &mut String, s: Sq, base: usize) {
    out.push((b'a' + file_of(s) as u8) as char);
    let rank = rank_of(s) + base;
    if rank >= 10 {
        out.push('1');
    }
    out.push((b'0' + (rank % 10) as u8) as char);
}

pub fn coordinate_move(m: Move, base: usize) -> String {
    let mut out = String::with_capacity(6);
    push_coord(&mut out, m.from, base);
    push_coord(&mut out, m.to, base);
    out
}

/// Reads a coordinate move such as `h2e2` (ICCS, `base` 0) or `h3e3` /
/// `a10a9` (Fairy, `base` 1), in the spelling of [`spelling::coordinates`]
/// (`H2-E2`, full-width forms).
pub fn parse_coordinates(text: &str, base: usize) -> Option<(Sq, Sq)> {
    let t = spelling::coordinates(text);
    let bytes = t.as_bytes();
    let mut i = 0;
    let mut point = || -> Option<Sq> {
        let f = *bytes.get(i)?;
        if !(b'a'..=b'i').contains(&f) {
            return None;
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let digits = std::str::from_utf8(&bytes[start..i]).ok()?;
        if digits.is_empty() || digits.len() > 2 {
            return None;
        }
        let r: usize = digits.parse().ok()?;
        let r = r.checked_sub(base)?;
        (r < RANKS && (digits.len() == 1 || r + base == 10)).then(|| sq((f - b'a') as usize, r))
    };
    let from = point()?;
    let to = point()?;
    (i == bytes.len()).then_some((from, to))
}

/// File number as the mover counts it: 1-9 from the mover's right.
fn file_number(f: usize, c: Color) -> usize {
    match c {
        Color::White => FILES - f,
        Color::Black => f + 1,
    }
}

fn is_forward(from: Sq, to: Sq, c: Color) -> bool {
    match c {
        Color::White => rank_of(to) > rank_of(from),
        Color::Black => rank_of(to) < rank_of(from),
    }
}

/// Where the moving piece stands among same pieces on its file.
enum Designator {
    /// Alone on its file: written by its file number.
    File,
    /// Among others of its kind on its file.
    Tandem(Tandem),
}

/// A piece among `n` of its kind on its file, `index` from the front (most
/// advanced) one; `file_replaces_letter` when the side has such a file
/// twice, so that the file number stands where the piece's letter would.
struct Tandem {
    index: usize,
    n: usize,
    file_replaces_letter: bool,
}

struct Described {
    kind: Kind,
    color: Color,
    file: usize,
    designator: Designator,
    op: char,
    target: usize,
}

fn describe(pos: &Position, m: Move) -> Described {
    let p = pos.piece_at(m.from);
    let kind = kind_of(p).expect("a move starts on a piece");
    let color = color_of(p);
    let f = file_of(m.from);
    let designator = if matches!(kind, Kind::Advisor | Kind::Elephant | Kind::General) {
        // Their moves are never ambiguous by file, so WXF keeps the file number.
        Designator::File
    } else {
        // Same pieces on the file, counted front (most advanced) first.
        let ranks_front_first = |r: usize| {
            if color == Color::White {
                RANKS - 1 - r
            } else {
                r
            }
        };
        let mut n = 0;
        let mut index = 0;
        for i in 0..RANKS {
            let s = sq(f, ranks_front_first(i));
            if s == m.from {
                index = n;
            }
            n += usize::from(pos.piece_at(s) == p);
        }
        if n < 2 {
            Designator::File
        } else {
            let tandem_files = if kind == Kind::Soldier {
                (0..FILES)
                    .filter(|&ff| (0..RANKS).filter(|&r| pos.piece_at(sq(ff, r)) == p).count() >= 2)
                    .count()
            } else {
                1
            };
            Designator::Tandem(Tandem {
                index,
                n,
                file_replaces_letter: tandem_files >= 2,
            })
        }
    };
    let (op, target) = if rank_of(m.from) == rank_of(m.to) {
        ('.', file_number(file_of(m.to), color))
    } else {
        let op = if is_forward(m.from, m.to, color) {
            '+'
        } else {
            '-'
        };
        let target = if matches!(kind, Kind::Advisor | Kind::Elephant | Kind::Horse) {
            file_number(file_of(m.to), color)
        } else {
            rank_of(m.from).abs_diff(rank_of(m.to))
        };
        (op, target)
    };
    Described {
        kind,
        color,
        file: file_number(f, color),
        designator,
        op,
        target,
    }
}

/// The move in WXF notation, following the WXF rules for tandem pieces and
/// tandem soldiers (`R+.3`, `P3.4` for a middle soldier, `++.4`, `3+.4`).
pub fn wxf(pos: &Position, m: Move) -> String {
    write_wxf(&describe(pos, m))
}

/// Both WXF and Chinese notation, describing the move once.
pub fn wxf_and_chinese(pos: &Position, m: Move) -> (String, String) {
    let d = describe(pos, m);
    (write_wxf(&d), write_chinese(&d))
}

fn write_wxf(d: &Described) -> String {
    symbols_text(wxf_symbols(d))
}

/// A move's four symbols as text, allocated once (collecting chars grows
/// the string as it goes).
fn symbols_text(symbols: [char; 4]) -> String {
    let mut text = String::with_capacity(symbols.iter().map(|c| c.len_utf8()).sum());
    text.extend(symbols);
    text
}

/// The four symbols of a move in WXF.
fn wxf_symbols(d: &Described) -> [char; 4] {
    let letter = d.kind.wxf_char();
    let digit = |n: usize| char::from_digit(n as u32, 10).expect("1-9");
    let (first, second) = match d.designator {
        Designator::File => (letter, digit(d.file)),
        Designator::Tandem(ref t) => {
            let first = if t.file_replaces_letter {
                digit(d.file)
            } else {
                letter
            };
            let last = t.n - 1;
            match (t.n, t.index) {
                (2 | 3, 0) => (first, '+'),
                (2 | 3, i) if i == last => (first, '-'),
                (2 | 3, _) => (first, digit(d.file)),
                // Four or five soldiers on one file: `++`, `P+`, (`P3`), `P-`, `--`.
                (_, 0) => ('+', '+'),
                (_, i) if i == last => ('-', '-'),
                (_, 1) => (letter, '+'),
                (_, i) if i == last - 1 => (letter, '-'),
                _ => (letter, digit(d.file)),
            }
        }
    };
    [first, second, d.op, digit(d.target)]
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_NUMERALS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Each side's pieces in simplified characters, in the order of [`Kind`]
/// (general, advisor, elephant, horse, chariot, cannon, soldier).
const CHINESE_NAMES: [[char; 7]; 2] = [
    ['帅', '仕', '相', '马', '车', '炮', '兵'],
    ['将', '士', '象', '马', '车', '炮', '卒'],
];

fn chinese_name(kind: Kind, color: Color) -> char {
    CHINESE_NAMES[color.index()][kind as usize - 1]
}

/// The move in Chinese notation (simplified characters; Red's numbers in
/// Chinese numerals, Black's in full-width digits): `炮二平五`, `马８进７`.
pub fn chinese(pos: &Position, m: Move) -> String {
    write_chinese(&describe(pos, m))
}

fn write_chinese(d: &Described) -> String {
    symbols_text(chinese_symbols(d))
}

/// The four symbols of a move in Chinese notation.
fn chinese_symbols(d: &Described) -> [char; 4] {
    let numerals = if d.color == Color::White {
        RED_NUMERALS
    } else {
        BLACK_NUMERALS
    };
    let num = |n: usize| numerals[n - 1];
    let name = chinese_name(d.kind, d.color);
    let (first, second) = match d.designator {
        Designator::File => (name, num(d.file)),
        Designator::Tandem(ref t) => {
            let order = match (t.index, t.n) {
                (0, _) => '前',
                (i, n) if i == n - 1 => '后',
                (1, 3) => '中',
                (i, _) => RED_NUMERALS[i],
            };
            (
                order,
                if t.file_replaces_letter {
                    num(d.file)
                } else {
                    name
                },
            )
        }
    };
    let op = match d.op {
        '+' => '进',
        '-' => '退',
        _ => '平',
    };
    [first, second, op, num(d.target)]
}

/// A WXF or Chinese move as read: its four symbols in one folded form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    symbols: [char; 4],
    chinese: bool,
}

/// What a written move that no legal move matches would be: the piece it
/// names and where it would go, or only the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meant {
    /// The piece on `from` going to `to`.
    Move(Move),
    /// A `kind` alone on the mover's file `file` (1-9 from the mover's
    /// right), which the mover does not have there.
    Absent {
        /// The piece named.
        kind: Kind,
        /// The file named, as the mover counts.
        file: u8,
    },
    /// Nothing that can be told.
    Unknown,
}

impl Written {
    /// Reads WXF (`chinese` false) or Chinese text, folding the spellings
    /// people use (full-width forms, `=` for `.`, `N`/`B`/`G` for
    /// `H`/`E`/`K`, a tandem marker written before the piece letter,
    /// `+P+1`, as after it, `P++1`); `None` unless it has four symbols.
    pub fn read(text: &str, chinese: bool) -> Option<Written> {
        let folded = if chinese {
            normalize_chinese(text)
        } else {
            normalize_wxf(text)
        };
        let mut chars = folded.chars();
        let mut symbols = [chars.next()?, chars.next()?, chars.next()?, chars.next()?];
        if chars.next().is_some() {
            return None;
        }
        // `+P`: the front one, written marker first as sites such as
        // wxf.ca do; the same as `P+`. (`++` and `--`, the front and back of
        // four or five soldiers, stay.)
        if matches!(symbols[0], '+' | '-') && !matches!(symbols[1], '+' | '-') {
            symbols.swap(0, 1);
        }
        Some(Written { symbols, chinese })
    }

    /// Whether the legal move `m` is written this way here: the move is
    /// described and its symbols compared, not printed.
    pub fn names(&self, pos: &Position, m: Move) -> bool {
        self.matches(describe(pos, m))
    }

    /// Whether the move `m` is written this way when its piece is named by
    /// its file alone, as real records write a piece that shares its file
    /// with another of its kind (`车６退１` for one of two chariots on file
    /// 6): the reading by file that [`Written::names`] does not accept.
    pub fn names_by_file(&self, pos: &Position, m: Move) -> bool {
        let mut d = describe(pos, m);
        if matches!(d.designator, Designator::File) {
            return false;
        }
        d.designator = Designator::File;
        self.matches(d)
    }

    /// Whether the description `d` is written as these symbols.
    fn matches(&self, d: Described) -> bool {
        let mine = if self.chinese {
            fold(chinese_symbols(&d), normalize_chinese_char)
        } else {
            fold(wxf_symbols(&d), normalize_wxf_char)
        };
        mine == self.symbols
    }

    /// What the text means when no legal move is written so: the mover's
    /// piece it names and the point it would reach (so that the refusal
    /// can say why, as for coordinates), found by describing every
    /// from-to pair of the mover's pieces and keeping the one whose shape
    /// fits the piece.
    pub fn meant(&self, pos: &Position) -> Meant {
        let us = pos.side();
        let mut found: Option<Move> = None;
        for from in pos.pieces(us) {
            for to in 0..(FILES * RANKS) as Sq {
                let m = Move::new(from, to);
                if to == from || !(self.names(pos, m) || self.names_by_file(pos, m)) {
                    continue;
                }
                let kind = kind_of(pos.piece_at(from)).expect("a piece");
                if fits(kind, from, to) {
                    return Meant::Move(m);
                }
                found.get_or_insert(m);
            }
        }
        if let Some(m) = found {
            return Meant::Move(m);
        }
        let letter = normalize_wxf_char(self.symbols[0]);
        match (Kind::from_wxf(letter), self.symbols[1].to_digit(10)) {
            (Some(kind), Some(file @ 1..=9)) => Meant::Absent {
                kind,
                file: file as u8,
            },
            _ => Meant::Unknown,
        }
    }
}

/// Whether a piece of `kind` could step from `from` to `to` on an empty
/// board, its side and palace aside: the shape a written move implies.
fn fits(kind: Kind, from: Sq, to: Sq) -> bool {
    let df = file_of(from).abs_diff(file_of(to));
    let dr = rank_of(from).abs_diff(rank_of(to));
    match kind {
        Kind::Advisor => df == 1 && dr == 1,
        Kind::Elephant => df == 2 && dr == 2,
        Kind::Horse => (df == 1 && dr == 2) || (df == 2 && dr == 1),
        Kind::General | Kind::Soldier => df + dr == 1,
        Kind::Chariot | Kind::Cannon => (df == 0) != (dr == 0),
    }
}

/// A record's token that holds several WXF or Chinese moves written
/// together, as some sites export a move pair (`Ｃ２＝５Ｈ８＋７`,
/// `炮二平五马８进７`): the moves, four symbols each; `None` when the token
/// is not such a run.
pub fn split_run(text: &str) -> Option<Vec<String>> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() <= 4 || !chars.len().is_multiple_of(4) {
        return None;
    }
    Some(chars.chunks(4).map(|c| c.iter().collect()).collect())
}

fn fold(symbols: [char; 4], f: fn(char) -> char) -> [char; 4] {
    symbols.map(f)
}

/// A written move in one form: full-width forms narrowed, white space
/// dropped, each character folded by `fold`.
fn normalize(text: &str, fold: fn(char) -> char) -> String {
    text.chars()
        .map(spelling::narrow)
        .filter(|c| !c.is_whitespace())
        .map(fold)
        .collect()
}

/// Folds the spellings of WXF that people use into one form.
fn normalize_wxf(text: &str) -> String {
    normalize(text, normalize_wxf_char)
}

fn normalize_wxf_char(c: char) -> char {
    match c.to_ascii_uppercase() {
        '=' => '.',
        'N' => 'H',
        'B' => 'E',
        'G' => 'K',
        c => c,
    }
}

/// Folds Chinese notation (traditional or simplified characters, any digits)
/// into one form.
fn normalize_chinese(text: &str) -> String {
    normalize(text, normalize_chinese_char)
}

fn normalize_chinese_char(c: char) -> char {
    match c {
        '帅' | '帥' | '将' | '將' => 'K',
        '仕' | '士' => 'A',
        '相' | '象' => 'E',
        '马' | '馬' | '傌' => 'H',
        '车' | '車' | '俥' => 'R',
        '炮' | '砲' | '包' => 'C',
        '兵' | '卒' => 'P',
        '进' | '進' => '+',
        '退' => '-',
        '平' => '.',
        '後' => '后',
        c => {
            if let Some(i) = RED_NUMERALS.iter().position(|&n| n == c) {
                char::from_digit(i as u32 + 1, 10).expect("1-9")
            } else if let Some(i) = BLACK_NUMERALS.iter().position(|&n| n == c) {
                char::from_digit(i as u32 + 1, 10).expect("1-9")
            } else {
                c
            }
        }
    }
}
