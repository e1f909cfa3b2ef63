//! Tamerlane chess (work in progress, not yet served by the API): board
//! geometry, every piece's movement, the FEN of the rules document, royal-aware
//! legality, citadel entry and perft. Still to come before the variant is
//! served: the exchange, the pawn of pawns' relocation and arrivals beyond
//! the first, adjudication and the optional rules (see the open issue).

#[cfg(test)]
mod tests;

use crate::variants::{Color, FenError};

pub const FILES: i32 = 11;
pub const RANKS: i32 = 10;
/// 110 board squares, then the two citadels.
pub const SQUARES: usize = 112;
pub type Sq = u8;
/// White's citadel, beside k2.
pub const L2: Sq = 110;
/// Black's citadel, beside a9.
pub const Z9: Sq = 111;

pub const START_FEN: &str = "e1c1d1d1c1e/rntgwkfgtnr/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/RNTGFKWGTNR/E1C1D1D1C1E w -/- Kk 0/0 0 1";

/// The pieces; a pawn carries the kind it promotes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Shah,
    Ferz,
    Wazir,
    Giraffe,
    Talia,
    Faras,
    Rukh,
    Pil,
    Jamal,
    Dabbaba,
    Prince,
    Adventitious,
    /// A pawn of the given kind (`Pawn(Kind::Pawn(..))` is never used:
    /// the pawn of pawns is `PawnOfPawns`).
    PawnOf(PawnType),
}

/// The eleven pawn types, by the letter after `P` in FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PawnType {
    Shah,
    Ferz,
    Wazir,
    Giraffe,
    Talia,
    Faras,
    Rukh,
    Pil,
    Jamal,
    Dabbaba,
    Pawns,
}

impl PawnType {
    const ALL: [PawnType; 11] = [
        PawnType::Shah,
        PawnType::Ferz,
        PawnType::Wazir,
        PawnType::Giraffe,
        PawnType::Talia,
        PawnType::Faras,
        PawnType::Rukh,
        PawnType::Pil,
        PawnType::Jamal,
        PawnType::Dabbaba,
        PawnType::Pawns,
    ];

    fn letter(self) -> char {
        match self {
            PawnType::Shah => 'K',
            PawnType::Ferz => 'F',
            PawnType::Wazir => 'W',
            PawnType::Giraffe => 'G',
            PawnType::Talia => 'T',
            PawnType::Faras => 'N',
            PawnType::Rukh => 'R',
            PawnType::Pil => 'E',
            PawnType::Jamal => 'C',
            PawnType::Dabbaba => 'D',
            PawnType::Pawns => 'P',
        }
    }

    fn from_letter(c: char) -> Option<PawnType> {
        PawnType::ALL
            .iter()
            .copied()
            .find(|p| p.letter() == c.to_ascii_uppercase())
    }

    /// What the pawn becomes on the far rank (the pawn of pawns is special).
    fn promotes_to(self) -> Option<Kind> {
        Some(match self {
            PawnType::Shah => Kind::Prince,
            PawnType::Ferz => Kind::Ferz,
            PawnType::Wazir => Kind::Wazir,
            PawnType::Giraffe => Kind::Giraffe,
            PawnType::Talia => Kind::Talia,
            PawnType::Faras => Kind::Faras,
            PawnType::Rukh => Kind::Rukh,
            PawnType::Pil => Kind::Pil,
            PawnType::Jamal => Kind::Jamal,
            PawnType::Dabbaba => Kind::Dabbaba,
            PawnType::Pawns => return None,
        })
    }
}

impl Kind {
    const PIECES: [Kind; 12] = [
        Kind::Shah,
        Kind::Ferz,
        Kind::Wazir,
        Kind::Giraffe,
        Kind::Talia,
        Kind::Faras,
        Kind::Rukh,
        Kind::Pil,
        Kind::Jamal,
        Kind::Dabbaba,
        Kind::Prince,
        Kind::Adventitious,
    ];

    fn letter(self) -> char {
        match self {
            Kind::Shah => 'K',
            Kind::Ferz => 'F',
            Kind::Wazir => 'W',
            Kind::Giraffe => 'G',
            Kind::Talia => 'T',
            Kind::Faras => 'N',
            Kind::Rukh => 'R',
            Kind::Pil => 'E',
            Kind::Jamal => 'C',
            Kind::Dabbaba => 'D',
            Kind::Prince => 'S',
            Kind::Adventitious => 'A',
            Kind::PawnOf(_) => 'P',
        }
    }

    pub fn is_royal(self) -> bool {
        matches!(self, Kind::Shah | Kind::Prince | Kind::Adventitious)
    }

    /// Shah > Prince > Adventitious king.
    fn royal_rank(self) -> u8 {
        match self {
            Kind::Shah => 3,
            Kind::Prince => 2,
            Kind::Adventitious => 1,
            _ => 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

#[inline]
pub fn sq(file: i32, rank: i32) -> Option<Sq> {
    (0..FILES).contains(&file).then_some(())?;
    (0..RANKS).contains(&rank).then_some(())?;
    Some((rank * FILES + file) as Sq)
}

#[inline]
fn coords(s: Sq) -> (i32, i32) {
    match s {
        L2 => (11, 1),
        Z9 => (-1, 8),
        _ => (s as i32 % FILES, s as i32 / FILES),
    }
}

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

pub fn parse_sq(t: &str) -> Option<Sq> {
    match t {
        "l2" => return Some(L2),
        "z9" => return Some(Z9),
        _ => {}
    }
    let b = t.as_bytes();
    let f = *b.first()?;
    if !(b'a'..=b'k').contains(&f) {
        return None;
    }
    let r: i32 = t[1..].parse().ok()?;
    if t[1..].starts_with('0') {
        return None;
    }
    sq((f - b'a') as i32, r - 1)
}

/// The three board squares next to a citadel.
fn citadel_gates(c: Sq) -> [Sq; 3] {
    match c {
        L2 => [10, 21, 32], // k1, k2, k3
        _ => [77, 88, 99],  // a8, a9, a10
    }
}

fn own_citadel(c: Color) -> Sq {
    if c == Color::White {
        L2
    } else {
        Z9
    }
}

/// A move: normal (with any promotion implied by the pawn type), a pawn of
/// pawns' relocation (`@`), or an exchange (`~`, with the partner's square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Sq,
    pub to: Sq,
    pub kind: MoveKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
    side: Color,
    /// Exchange rights still unused.
    exchange: [bool; 2],
    /// Pawn-of-pawns arrivals on the far rank so far.
    arrivals: [u8; 2],
    halfmove: u32,
    fullmove: u32,
}

fn err(m: impl Into<String>) -> FenError {
    FenError::new(m)
}

impl Position {
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    pub fn piece_at(&self, s: Sq) -> Option<Piece> {
        self.board[s as usize]
    }

    pub fn side(&self) -> Color {
        self.side
    }

    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 7 {
            return Err(err(format!(
                "a Tamerlane FEN has 7 fields, this one has {}",
                fields.len()
            )));
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            o => {
                return Err(err(format!(
                    "the side to move must be 'w' or 'b', not '{o}'"
                )))
            }
        };
        let mut pos = Position {
            board: [None; SQUARES],
            side,
            exchange: [false; 2],
            arrivals: [0; 2],
            halfmove: 0,
            fullmove: 1,
        };
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 10 {
            return Err(err(format!(
                "the board must have 10 ranks, found {}",
                rows.len()
            )));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as i32;
            let mut file = 0i32;
            let chars: Vec<char> = row.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                if c.is_ascii_digit() {
                    let mut n = c.to_digit(10).unwrap_or(0) as i32;
                    if j + 1 < chars.len() && chars[j + 1].is_ascii_digit() {
                        n = n * 10 + chars[j + 1].to_digit(10).unwrap_or(0) as i32;
                        j += 1;
                    }
                    if n == 0 || n > 11 {
                        return Err(err(format!(
                            "rank {} ('{row}'): bad count of empty squares",
                            rank + 1
                        )));
                    }
                    file += n;
                    j += 1;
                    continue;
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let kind = if c.eq_ignore_ascii_case(&'P') {
                    let t = chars.get(j + 1).copied().ok_or_else(|| {
                        err(format!("rank {} ('{row}'): 'P' without its type", rank + 1))
                    })?;
                    if t.is_ascii_uppercase() != c.is_ascii_uppercase() {
                        return Err(err(format!(
                            "rank {} ('{row}'): a pawn's two letters must have one case",
                            rank + 1
                        )));
                    }
                    j += 1;
                    Kind::PawnOf(PawnType::from_letter(t).ok_or_else(|| {
                        err(format!(
                            "rank {} ('{row}'): '{t}' after 'P' is not a pawn type (KFWGTNRECDP)",
                            rank + 1
                        ))
                    })?)
                } else {
                    *Kind::PIECES
                        .iter()
                        .find(|k| k.letter() == c.to_ascii_uppercase())
                        .ok_or_else(|| {
                            err(format!(
                                "rank {} ('{row}'): '{c}' is not a Tamerlane piece letter",
                                rank + 1
                            ))
                        })?
                };
                let s = sq(file, rank).ok_or_else(|| {
                    err(format!(
                        "rank {} ('{row}') has more than 11 squares",
                        rank + 1
                    ))
                })?;
                let last = if color == Color::White { 9 } else { 0 };
                if let Kind::PawnOf(t) = kind {
                    if rank == last && t != PawnType::Pawns {
                        return Err(err(format!(
                            "an unpromoted pawn of type {} cannot stand on its last rank ({})",
                            t.letter(),
                            sq_name(s)
                        )));
                    }
                }
                pos.board[s as usize] = Some(Piece { color, kind });
                file += 1;
                j += 1;
            }
            if file != FILES {
                return Err(err(format!(
                    "rank {} ('{row}') has {file} squares, not 11",
                    rank + 1
                )));
            }
        }
        // Citadels: "<l2>/<z9>", a royal's letter or '-'.
        let cit: Vec<&str> = fields[2].split('/').collect();
        if cit.len() != 2 {
            return Err(err(format!(
                "the citadel field is '<l2>/<z9>', not '{}'",
                fields[2]
            )));
        }
        for (text, citadel) in [(cit[0], L2), (cit[1], Z9)] {
            if text == "-" {
                continue;
            }
            let mut ch = text.chars();
            let (Some(c), None) = (ch.next(), ch.next()) else {
                return Err(err(format!(
                    "a citadel holds one royal letter or '-', not '{text}'"
                )));
            };
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let kind = match c.to_ascii_uppercase() {
                'K' => Kind::Shah,
                'S' => Kind::Prince,
                'A' => Kind::Adventitious,
                _ => {
                    return Err(err(format!(
                        "only a royal (K, S, A) may stand in a citadel, not '{c}'"
                    )))
                }
            };
            let own = own_citadel(color) == citadel;
            if own && kind != Kind::Adventitious {
                return Err(err(format!(
                    "only the adventitious king may stand in its own citadel ({})",
                    sq_name(citadel)
                )));
            }
            pos.board[citadel as usize] = Some(Piece { color, kind });
        }
        pos.exchange = match fields[3] {
            "-" => [false, false],
            "K" => [true, false],
            "k" => [false, true],
            "Kk" => [true, true],
            o => {
                return Err(err(format!(
                    "exchange rights are 'Kk', 'K', 'k' or '-', not '{o}'"
                )))
            }
        };
        let arr: Vec<&str> = fields[4].split('/').collect();
        let parse_arr = |t: &str| t.parse::<u8>().ok().filter(|&n| n <= 2);
        match arr.as_slice() {
            [w, b] => match (parse_arr(w), parse_arr(b)) {
                (Some(w), Some(b)) => pos.arrivals = [w, b],
                _ => {
                    return Err(err(format!(
                        "pawn-of-pawns arrivals are '<W>/<B>' with 0, 1 or 2, not '{}'",
                        fields[4]
                    )))
                }
            },
            _ => {
                return Err(err(format!(
                    "pawn-of-pawns arrivals are '<W>/<B>', not '{}'",
                    fields[4]
                )))
            }
        }
        pos.halfmove = fields[5]
            .parse()
            .map_err(|_| err(format!("bad halfmove clock '{}'", fields[5])))?;
        pos.fullmove = fields[6]
            .parse()
            .ok()
            .filter(|&n: &u32| n >= 1)
            .ok_or_else(|| err(format!("bad move number '{}'", fields[6])))?;
        for c in [Color::White, Color::Black] {
            let royals = pos.royals(c);
            if royals.is_empty() {
                return Err(err(format!("{c:?} has no royal piece")));
            }
            if royals
                .iter()
                .filter(|&&s| pos.board[s as usize].map(|p| p.kind) == Some(Kind::Shah))
                .count()
                > 1
            {
                return Err(err(format!("{c:?} has two shahs")));
            }
        }
        if pos.in_check_of(!side) {
            return Err(err(
                "the side not to move has its only royal attacked; such a position cannot arise",
            ));
        }
        Ok(pos)
    }

    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let s = sq(file, rank).expect("on the board");
                match self.board[s as usize] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let mut text = p.kind.letter().to_string();
                        if let Kind::PawnOf(t) = p.kind {
                            text.push(t.letter());
                        }
                        out.push_str(&if p.color == Color::White {
                            text
                        } else {
                            text.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let cit = |s: Sq| match self.board[s as usize] {
            None => "-".to_owned(),
            Some(p) => {
                let l = p.kind.letter();
                (if p.color == Color::White {
                    l
                } else {
                    l.to_ascii_lowercase()
                })
                .to_string()
            }
        };
        let ex = match self.exchange {
            [true, true] => "Kk",
            [true, false] => "K",
            [false, true] => "k",
            [false, false] => "-",
        };
        format!(
            "{out} {} {}/{} {ex} {}/{} {} {}",
            if self.side == Color::White { 'w' } else { 'b' },
            cit(L2),
            cit(Z9),
            self.arrivals[0],
            self.arrivals[1],
            self.halfmove,
            self.fullmove
        )
    }

    /// Squares (board and citadels) holding royals of `c`.
    pub fn royals(&self, c: Color) -> Vec<Sq> {
        (0..SQUARES as Sq)
            .filter(
                |&s| matches!(self.board[s as usize], Some(p) if p.color == c && p.kind.is_royal()),
            )
            .collect()
    }

    /// A dormant pawn of pawns: on its own last rank.
    fn dormant(&self, s: Sq) -> bool {
        match self.board[s as usize] {
            Some(Piece {
                color,
                kind: Kind::PawnOf(PawnType::Pawns),
            }) if s < 110 => coords(s).1 == if color == Color::White { 9 } else { 0 },
            _ => false,
        }
    }

    /// Targets of the piece on `from` by movement (captures and quiet moves),
    /// citadels excluded. Dormant pawns of pawns do nothing.
    fn targets(&self, from: Sq, out: &mut Vec<Sq>) {
        let Some(p) = self.board[from as usize] else {
            return;
        };
        let (f, r) = coords(from);
        let us = p.color;
        let free = |s: Sq| self.board[s as usize].is_none();
        // May land: empty, or an enemy that is not in a citadel and not a dormant pawn of pawns.
        let land = |s: Sq| match self.board[s as usize] {
            None => true,
            Some(q) => q.color != us && !self.dormant(s),
        };
        let leap = |out: &mut Vec<Sq>, deltas: &[(i32, i32)]| {
            for &(dx, dy) in deltas {
                if let Some(t) = sq(f + dx, r + dy) {
                    if land(t) {
                        out.push(t);
                    }
                }
            }
        };
        const KING: [(i32, i32); 8] = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ];
        const FERZ: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        const WAZIR: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const KNIGHT: [(i32, i32); 8] = [
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ];
        const CAMEL: [(i32, i32); 8] = [
            (1, 3),
            (3, 1),
            (-1, 3),
            (-3, 1),
            (1, -3),
            (3, -1),
            (-1, -3),
            (-3, -1),
        ];
        const ELEPHANT: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
        const DABBABA: [(i32, i32); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];
        match p.kind {
            Kind::Shah | Kind::Prince | Kind::Adventitious => {
                if from >= 110 {
                    // A royal in a citadel steps out to one of its three gates.
                    for t in citadel_gates(from) {
                        if land(t) {
                            out.push(t);
                        }
                    }
                } else {
                    leap(out, &KING);
                }
            }
            Kind::Ferz => leap(out, &FERZ),
            Kind::Wazir => leap(out, &WAZIR),
            Kind::Faras => leap(out, &KNIGHT),
            Kind::Jamal => leap(out, &CAMEL),
            Kind::Pil => leap(out, &ELEPHANT),
            Kind::Dabbaba => leap(out, &DABBABA),
            Kind::Rukh => {
                for (dx, dy) in WAZIR {
                    let mut n = 1;
                    while let Some(t) = sq(f + dx * n, r + dy * n) {
                        if land(t) {
                            out.push(t);
                        }
                        if !free(t) {
                            break;
                        }
                        n += 1;
                    }
                }
            }
            Kind::Talia => {
                // A bishop that must go at least two squares; the first may block.
                for (dx, dy) in FERZ {
                    let mut n = 1;
                    while let Some(t) = sq(f + dx * n, r + dy * n) {
                        if n >= 2 && land(t) {
                            out.push(t);
                        }
                        if !free(t) {
                            break;
                        }
                        n += 1;
                    }
                }
            }
            Kind::Giraffe => {
                // One diagonal step to an empty square, then at least three
                // squares straight outward, every square passed empty.
                for (dx, dy) in FERZ {
                    let Some(d) = sq(f + dx, r + dy) else {
                        continue;
                    };
                    if !free(d) {
                        continue;
                    }
                    for (ox, oy) in [(dx, 0), (0, dy)] {
                        let mut n = 1;
                        while let Some(t) = sq(f + dx + ox * n, r + dy + oy * n) {
                            if n >= 3 && land(t) {
                                out.push(t);
                            }
                            if !free(t) {
                                break;
                            }
                            n += 1;
                        }
                    }
                }
            }
            Kind::PawnOf(_) => {
                if self.dormant(from) {
                    return;
                }
                let fwd = if us == Color::White { 1 } else { -1 };
                if let Some(t) = sq(f, r + fwd) {
                    if free(t) {
                        out.push(t);
                    }
                }
                for dx in [-1, 1] {
                    if let Some(t) = sq(f + dx, r + fwd) {
                        if matches!(self.board[t as usize], Some(q) if q.color != us) && land(t) {
                            out.push(t);
                        }
                    }
                }
            }
        }
        // Royals may step into citadels from a gate.
        if p.kind.is_royal() && from < 110 {
            for c in [L2, Z9] {
                if citadel_gates(c).contains(&from) && self.board[c as usize].is_none() {
                    let enemy_citadel = c != own_citadel(us);
                    let allowed = if enemy_citadel {
                        // Only the highest-ranking royal on the board.
                        self.royals(us).iter().filter(|&&s| s < 110).all(|&s| {
                            self.board[s as usize].map_or(0, |q| q.kind.royal_rank())
                                <= p.kind.royal_rank()
                        })
                    } else {
                        p.kind == Kind::Adventitious
                    };
                    if allowed {
                        out.push(c);
                    }
                }
            }
        }
    }

    /// Whether a piece of `by` attacks `s` (citadels are never attacked).
    fn attacked_by(&self, s: Sq, by: Color) -> bool {
        if s >= 110 {
            return false;
        }
        let mut t = Vec::with_capacity(32);
        (0..SQUARES as Sq).any(|a| {
            matches!(self.board[a as usize], Some(p) if p.color == by) && {
                t.clear();
                self.targets(a, &mut t);
                // Pawns attack diagonally even onto empty squares; others by their targets.
                match self.board[a as usize].map(|p| p.kind) {
                    Some(Kind::PawnOf(_)) => {
                        !self.dormant(a) && {
                            let (f, r) = coords(a);
                            let fwd = if by == Color::White { 1 } else { -1 };
                            [-1, 1].iter().any(|dx| sq(f + dx, r + fwd) == Some(s))
                        }
                    }
                    _ => t.contains(&s) || self.attacks_through_occupant(a, s),
                }
            }
        })
    }

    /// Whether the piece on `a` would reach `s` if `s` held an enemy piece
    /// (targets list only landings on empty or enemy squares).
    fn attacks_through_occupant(&self, a: Sq, s: Sq) -> bool {
        let Some(p) = self.board[a as usize] else {
            return false;
        };
        if !matches!(self.board[s as usize], Some(q) if q.color == p.color) {
            return false;
        }
        let mut probe = self.clone();
        probe.board[s as usize] = Some(Piece {
            color: !p.color,
            kind: Kind::Ferz,
        });
        let mut t = Vec::new();
        probe.targets(a, &mut t);
        t.contains(&s)
    }

    /// Whether `c` has exactly one royal and it stands attacked.
    pub fn in_check_of(&self, c: Color) -> bool {
        let royals = self.royals(c);
        royals.len() == 1 && self.attacked_by(royals[0], !c)
    }

    pub fn in_check(&self) -> bool {
        self.in_check_of(self.side)
    }

    /// Plays a normal move: captures, promotion by pawn type, and the pawn
    /// of pawns' first arrival (it stays, dormant).
    pub fn make(&mut self, m: Move) {
        let p = self.board[m.from as usize].expect("a move starts on a piece");
        let captured = self.board[m.to as usize].is_some();
        self.board[m.from as usize] = None;
        let last = if p.color == Color::White { 9 } else { 0 };
        let mut placed = p;
        if let Kind::PawnOf(t) = p.kind {
            if m.to < 110 && coords(m.to).1 == last {
                match t.promotes_to() {
                    Some(k) => placed.kind = k,
                    None => {
                        let i = p.color.index();
                        if self.arrivals[i] == 0 {
                            self.arrivals[i] = 1;
                        }
                    }
                }
            }
        }
        self.board[m.to as usize] = Some(placed);
        self.halfmove = if captured || matches!(p.kind, Kind::PawnOf(_)) {
            0
        } else {
            self.halfmove + 1
        };
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
    }

    /// Legal normal moves: a side with one royal may not leave it attacked.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        let us = self.side;
        let mut targets = Vec::with_capacity(40);
        for from in 0..SQUARES as Sq {
            if !matches!(self.board[from as usize], Some(p) if p.color == us) {
                continue;
            }
            targets.clear();
            self.targets(from, &mut targets);
            for &to in &targets {
                // Pawns of pawns beyond their first arrival need the rules still to come.
                if let Some(Piece {
                    kind: Kind::PawnOf(PawnType::Pawns),
                    color,
                }) = self.board[from as usize]
                {
                    let last = if color == Color::White { 9 } else { 0 };
                    if to < 110 && coords(to).1 == last && self.arrivals[color.index()] > 0 {
                        continue;
                    }
                }
                let m = Move {
                    from,
                    to,
                    kind: MoveKind::Normal,
                };
                let mut after = self.clone();
                after.make(m);
                if !after.in_check_of(us) {
                    out.push(m);
                }
            }
        }
    }
}

/// Leaf count of the legal move tree.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut moves = Vec::new();
    pos.legal(&mut moves);
    if depth <= 1 {
        return if depth == 0 { 1 } else { moves.len() as u64 };
    }
    moves
        .iter()
        .map(|&m| {
            let mut next = pos.clone();
            next.make(m);
            perft(&next, depth - 1)
        })
        .sum()
}
