//! The Tamerlane position, its FEN, attacks, moves and legality.

use super::board::*;
use crate::variants::{Color, FenError};

/// The special kinds of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    None,
    /// A dormant pawn of pawns lifted to `to` (`<from>@<to>`).
    Relocate,
    /// The shah changes places with the friendly piece on `to` (`<shah>~<to>`).
    Exchange,
    /// The shah enters the enemy citadel `to` and changes places with the
    /// prince or adventitious king on the given square (`<from><citadel>~<sq>`).
    CitadelExchange(Sq),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Sq,
    pub to: Sq,
    pub special: Special,
}

impl Move {
    pub const fn normal(from: Sq, to: Sq) -> Move {
        Move {
            from,
            to,
            special: Special::None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) board: [u8; SQUARES],
    pub(super) side: Color,
    /// Exchange rights still unused.
    pub(super) exchange: [bool; 2],
    /// Pawn-of-pawns arrivals on the far rank (0, 1 or 2).
    pub(super) arrivals: [u8; 2],
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    /// Where a second arrival goes (the shah's pawn's start), per side; set
    /// by the request's setup, not recorded in FEN.
    pub(super) second_arrival: [Sq; 2],
}

fn err(m: impl Into<String>) -> FenError {
    FenError::new(m)
}

fn last_rank(c: Color) -> i32 {
    if c == Color::White {
        9
    } else {
        0
    }
}

impl Position {
    #[inline]
    pub fn at(&self, s: Sq) -> u8 {
        self.board[s as usize]
    }

    pub fn side(&self) -> Color {
        self.side
    }

    /// A pawn of pawns on its own last rank: immobile, immune, attacks nothing.
    #[inline]
    pub fn dormant(&self, s: Sq) -> bool {
        let p = self.board[s as usize];
        p != EMPTY
            && kind_of(p) == PAWN_OF_PAWNS
            && s < 110
            && coords(s).1 == last_rank(color_of(p))
    }

    pub fn royals(&self, c: Color) -> impl Iterator<Item = Sq> + '_ {
        (0..SQUARES as Sq).filter(move |&s| {
            let p = self.board[s as usize];
            p != EMPTY && color_of(p) == c && is_royal(kind_of(p))
        })
    }

    /// The highest-ranking royal of `c` (citadels included).
    pub fn top_royal(&self, c: Color) -> Option<Sq> {
        self.royals(c)
            .max_by_key(|&s| royal_rank(kind_of(self.board[s as usize])))
    }

    /// The game is drawn when a side's highest-ranking royal stands in the enemy citadel.
    pub fn citadel_draw(&self) -> Option<Color> {
        if self.board[L2 as usize] == EMPTY && self.board[Z9 as usize] == EMPTY {
            return None;
        }
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.top_royal(c) == Some(own_citadel(!c)))
    }

    /// Whether a piece of `by` attacks the board square `s` (citadels never are).
    pub fn attacked(&self, s: Sq, by: Color) -> bool {
        if s >= 110 {
            return false;
        }
        let has = |t: Sq, kinds: &[u8]| {
            let p = self.board[t as usize];
            p != EMPTY && color_of(p) == by && kinds.contains(&kind_of(p))
        };
        // Leapers and steppers: their moves are symmetric.
        for (kind, kinds) in [
            (SHAH, &[SHAH, PRINCE, ADVENTITIOUS][..]),
            (FERZ, &[FERZ][..]),
            (WAZIR, &[WAZIR][..]),
            (FARAS, &[FARAS][..]),
            (PIL, &[PIL][..]),
            (JAMAL, &[JAMAL][..]),
            (DABBABA, &[DABBABA][..]),
        ] {
            if leaps(kind, s).iter().any(|&t| has(t, kinds)) {
                return true;
            }
        }
        // A royal in a citadel attacks the citadel's gates.
        for c in [L2, Z9] {
            if gates(c).contains(&s) && has(c, &[SHAH, PRINCE, ADVENTITIOUS]) {
                return true;
            }
        }
        // Pawns (not dormant) attack one square diagonally forward.
        let (f, r) = coords(s);
        let back = if by == Color::White { -1 } else { 1 };
        for dx in [-1, 1] {
            if let Some(t) = sq(f + dx, r + back) {
                let p = self.board[t as usize];
                if p != EMPTY && color_of(p) == by && is_pawn(kind_of(p)) && !self.dormant(t) {
                    return true;
                }
            }
        }
        // Rukh along ranks and files; talia along diagonals, at least two away.
        for (dx, dy) in ORTHOGONALS {
            let mut n = 1;
            while let Some(t) = sq(f + dx * n, r + dy * n) {
                if self.board[t as usize] != EMPTY {
                    if has(t, &[RUKH]) {
                        return true;
                    }
                    break;
                }
                n += 1;
            }
        }
        for (dx, dy) in DIAGONALS {
            let mut n = 1;
            while let Some(t) = sq(f + dx * n, r + dy * n) {
                if self.board[t as usize] != EMPTY {
                    if n >= 2 && has(t, &[TALIA]) {
                        return true;
                    }
                    break;
                }
                n += 1;
            }
        }
        // Giraffe: it reaches `s` going straight along `u` for n >= 3 squares
        // from a bend point d (empty), which it reached by one diagonal step.
        for (ux, uy) in ORTHOGONALS {
            let mut n = 1;
            while let Some(d) = sq(f - ux * n, r - uy * n) {
                if self.board[d as usize] != EMPTY {
                    break;
                }
                if n >= 3 {
                    let (df, dr) = coords(d);
                    // The giraffe's diagonal step continued along u: it came from d - u ± perp.
                    for w in [-1, 1] {
                        let g = if ux != 0 {
                            sq(df - ux, dr + w)
                        } else {
                            sq(df + w, dr - uy)
                        };
                        if let Some(g) = g {
                            if has(g, &[GIRAFFE]) {
                                return true;
                            }
                        }
                    }
                }
                n += 1;
            }
        }
        false
    }

    /// The royal of `c` when it has exactly one (else `None`).
    pub fn single_royal(&self, c: Color) -> Option<Sq> {
        let mut it = self.royals(c);
        let first = it.next()?;
        it.next().is_none().then_some(first)
    }

    /// Whether `c` has exactly one royal and it stands attacked.
    pub fn in_check_of(&self, c: Color) -> bool {
        self.single_royal(c).is_some_and(|s| self.attacked(s, !c))
    }

    /// Movement targets of the piece on `from` (normal moves), whether or not
    /// they leave the own royal attacked.
    pub fn targets(&self, from: Sq, out: &mut Vec<Sq>) {
        let p = self.board[from as usize];
        if p == EMPTY || self.dormant(from) {
            return;
        }
        let us = color_of(p);
        let kind = kind_of(p);
        let (f, r) = coords(from);
        let land = |t: Sq| {
            let q = self.board[t as usize];
            q == EMPTY || (color_of(q) != us && !self.dormant(t))
        };
        match kind {
            SHAH | PRINCE | ADVENTITIOUS if from >= 110 => {
                out.extend(gates(from).into_iter().filter(|&t| land(t)))
            }
            SHAH | FERZ | WAZIR | FARAS | PIL | JAMAL | DABBABA | PRINCE | ADVENTITIOUS => {
                out.extend(leaps(kind, from).iter().copied().filter(|&t| land(t)))
            }
            RUKH | TALIA => {
                let (dirs, min) = if kind == RUKH {
                    (ORTHOGONALS, 1)
                } else {
                    (DIAGONALS, 2)
                };
                for (dx, dy) in dirs {
                    let mut n = 1;
                    while let Some(t) = sq(f + dx * n, r + dy * n) {
                        if n >= min && land(t) {
                            out.push(t);
                        }
                        if self.board[t as usize] != EMPTY {
                            break;
                        }
                        n += 1;
                    }
                }
            }
            GIRAFFE => {
                for (dx, dy) in DIAGONALS {
                    let Some(d) = sq(f + dx, r + dy) else {
                        continue;
                    };
                    if self.board[d as usize] != EMPTY {
                        continue;
                    }
                    for (ox, oy) in [(dx, 0), (0, dy)] {
                        let mut n = 1;
                        while let Some(t) = sq(f + dx + ox * n, r + dy + oy * n) {
                            if n >= 3 && land(t) {
                                out.push(t);
                            }
                            if self.board[t as usize] != EMPTY {
                                break;
                            }
                            n += 1;
                        }
                    }
                }
            }
            _ => {
                // Pawns: one step forward, captures one step diagonally forward.
                let fwd = if us == Color::White { 1 } else { -1 };
                if let Some(t) = sq(f, r + fwd) {
                    if self.board[t as usize] == EMPTY {
                        out.push(t);
                    }
                }
                for dx in [-1, 1] {
                    if let Some(t) = sq(f + dx, r + fwd) {
                        let q = self.board[t as usize];
                        if q != EMPTY && color_of(q) != us && !self.dormant(t) {
                            out.push(t);
                        }
                    }
                }
            }
        }
        // Royals step into an empty citadel from one of its gates: the enemy
        // one only as the highest-ranking royal on the board, their own one
        // only as the adventitious king.
        if is_royal(kind) && from < 110 {
            for c in [L2, Z9] {
                if gates(c).contains(&from)
                    && self.board[c as usize] == EMPTY
                    && self.may_enter(us, kind, c)
                {
                    out.push(c);
                }
            }
        }
    }

    pub(super) fn may_enter(&self, us: Color, kind: u8, citadel: Sq) -> bool {
        if citadel == own_citadel(us) {
            kind == ADVENTITIOUS
        } else {
            self.royals(us)
                .filter(|&s| s < 110)
                .all(|s| royal_rank(kind_of(self.board[s as usize])) <= royal_rank(kind))
        }
    }

    /// Whether a pawn of pawns moving onto its last rank is barred: its
    /// second arrival would land on a royal.
    fn second_arrival_barred(&self, from: Sq, to: Sq) -> bool {
        let p = self.board[from as usize];
        let us = color_of(p);
        kind_of(p) == PAWN_OF_PAWNS
            && to < 110
            && coords(to).1 == last_rank(us)
            && self.arrivals[us.index()] == 1
            && {
                let q = self.board[self.second_arrival[us.index()] as usize];
                q != EMPTY && is_royal(kind_of(q))
            }
    }

    /// Plays a move (the caller knows it is at least pseudo-legal).
    pub fn make(&mut self, m: Move) {
        let p = self.board[m.from as usize];
        let us = color_of(p);
        let kind = kind_of(p);
        let mut removal = false;
        match m.special {
            Special::Exchange => {
                self.board.swap(m.from as usize, m.to as usize);
                self.exchange[us.index()] = false;
            }
            Special::CitadelExchange(partner) => {
                self.board[m.to as usize] = self.board[partner as usize];
                self.board[partner as usize] = p;
                self.board[m.from as usize] = EMPTY;
                self.exchange[us.index()] = false;
            }
            Special::Relocate => {
                removal = self.board[m.to as usize] != EMPTY;
                self.board[m.to as usize] = p;
                self.board[m.from as usize] = EMPTY;
            }
            Special::None => {
                removal = self.board[m.to as usize] != EMPTY;
                self.board[m.from as usize] = EMPTY;
                let arriving = is_pawn(kind) && m.to < 110 && coords(m.to).1 == last_rank(us);
                if !arriving {
                    self.board[m.to as usize] = p;
                } else if let Some(k) = promotion(kind) {
                    self.board[m.to as usize] = code(us, k);
                } else {
                    let i = us.index();
                    match self.arrivals[i] {
                        0 => {
                            self.board[m.to as usize] = p;
                            self.arrivals[i] = 1;
                        }
                        1 => {
                            // Second arrival: straight to the shah's pawn's start square.
                            self.board[m.to as usize] = EMPTY;
                            let home = self.second_arrival[i] as usize;
                            removal |= self.board[home] != EMPTY;
                            self.board[home] = p;
                            self.arrivals[i] = 2;
                        }
                        _ => self.board[m.to as usize] = code(us, ADVENTITIOUS),
                    }
                }
            }
        }
        self.halfmove = if removal || is_pawn(kind) {
            0
        } else {
            self.halfmove + 1
        };
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = !us;
    }

    /// Every legal move: none when the game is drawn by a citadel.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.citadel_draw().is_some() {
            return;
        }
        let us = self.side;
        let mut targets = Vec::with_capacity(48);
        let royal = self.single_royal(us);
        let several_royals = royal.is_none();
        for from in 0..SQUARES as Sq {
            let p = self.board[from as usize];
            if p == EMPTY || color_of(p) != us {
                continue;
            }
            if self.dormant(from) {
                self.relocations(from, out);
                continue;
            }
            targets.clear();
            self.targets(from, &mut targets);
            for &to in &targets {
                if self.second_arrival_barred(from, to) {
                    continue;
                }
                let m = Move::normal(from, to);
                // With two or more royals no check rules apply (a move never
                // lowers the count). With one, follow it: only a move of the
                // royal itself moves it, and a pawn reaching its last rank may
                // add a royal, so that case asks the full question.
                let legal = several_royals || {
                    let mut after = *self;
                    after.make(m);
                    let arriving = is_pawn(kind_of(p))
                        && to < 110
                        && coords(to).1 == if us == Color::White { 9 } else { 0 };
                    if arriving {
                        !after.in_check_of(us)
                    } else {
                        let r = if Some(from) == royal {
                            to
                        } else {
                            royal.expect("one royal")
                        };
                        !after.attacked(r, !us)
                    }
                };
                if legal {
                    out.push(m);
                }
            }
        }
        self.exchanges(out);
    }

    /// Relocations of the dormant pawn of pawns on `from`.
    fn relocations(&self, from: Sq, out: &mut Vec<Move>) {
        let us = self.side;
        let fwd = if us == Color::White { 1 } else { -1 };
        for to in 0..110u8 {
            if to == from {
                continue;
            }
            let q = self.board[to as usize];
            if q != EMPTY && (is_royal(kind_of(q)) || (color_of(q) != us && self.dormant(to))) {
                continue;
            }
            let (f, r) = coords(to);
            if r == last_rank(us) {
                continue; // it would be dormant again and attack nothing
            }
            let victims: Vec<Sq> = [-1, 1]
                .into_iter()
                .filter_map(|dx| sq(f + dx, r + fwd))
                .filter(|&t| {
                    let v = self.board[t as usize];
                    v != EMPTY && color_of(v) != us && !self.dormant(t)
                })
                .collect();
            if victims.is_empty() {
                continue;
            }
            let m = Move {
                from,
                to,
                special: Special::Relocate,
            };
            let mut after = *self;
            after.make(m);
            if after.in_check_of(us) {
                continue;
            }
            let fork = victims.len() >= 2;
            let trapped = || {
                let mut replies = Vec::new();
                after.legal(&mut replies);
                victims
                    .iter()
                    .any(|&v| !replies.iter().any(|m| m.from == v))
            };
            if fork || trapped() {
                out.push(m);
            }
        }
    }

    /// The exchange (once per game): when the shah is the only royal and
    /// attacked, or when nothing else is legal; and the citadel form.
    fn exchanges(&self, out: &mut Vec<Move>) {
        let us = self.side;
        if !self.exchange[us.index()] {
            return;
        }
        let Some(shah) = self
            .royals(us)
            .find(|&s| kind_of(self.board[s as usize]) == SHAH)
        else {
            return;
        };
        if shah >= 110 {
            return;
        }
        // "No other legal move": nothing was listed before the exchanges.
        let no_other = out.is_empty();
        // Citadel form: the shah steps into the enemy citadel and a prince or
        // adventitious king on the board takes its place there.
        let enemy = own_citadel(!us);
        if gates(enemy).contains(&shah) && self.board[enemy as usize] == EMPTY {
            for partner in self.royals(us).filter(|&s| s < 110 && s != shah) {
                out.push(Move {
                    from: shah,
                    to: enemy,
                    special: Special::CitadelExchange(partner),
                });
            }
        }
        let only_royal_attacked = self.single_royal(us) == Some(shah) && self.attacked(shah, !us);
        if !(only_royal_attacked || no_other) {
            return;
        }
        for partner in 0..110u8 {
            let q = self.board[partner as usize];
            if q == EMPTY || color_of(q) != us || is_royal(kind_of(q)) || self.dormant(partner) {
                continue;
            }
            // A pawn may not be put on its last rank.
            if is_pawn(kind_of(q)) && coords(shah).1 == last_rank(us) {
                continue;
            }
            let m = Move {
                from: shah,
                to: partner,
                special: Special::Exchange,
            };
            let mut after = *self;
            after.make(m);
            if !after.attacked(partner, !us) {
                out.push(m);
            }
        }
    }
}

/// FEN in and out, exactly as the rules document writes it.
impl Position {
    pub fn from_fen(fen: &str, second_arrival: [Sq; 2]) -> Result<Position, FenError> {
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
            board: [EMPTY; SQUARES],
            side,
            exchange: [false; 2],
            arrivals: [0; 2],
            halfmove: 0,
            fullmove: 1,
            second_arrival,
        };
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 10 {
            return Err(err(format!(
                "the board must have 10 ranks separated by '/', found {}",
                rows.len()
            )));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as i32;
            let chars: Vec<char> = row.chars().collect();
            let mut file = 0i32;
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                if let Some(d) = c.to_digit(10) {
                    let mut n = d as i32;
                    if let Some(d2) = chars.get(j + 1).and_then(|c| c.to_digit(10)) {
                        n = n * 10 + d2 as i32;
                        j += 1;
                    }
                    if n == 0 || n > 11 {
                        return Err(err(format!(
                            "rank {} ('{row}'): '{n}' is not a count of empty squares (1-11)",
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
                    let t = *chars.get(j + 1).ok_or_else(|| {
                        err(format!(
                            "rank {} ('{row}'): a pawn needs its type letter after 'P'",
                            rank + 1
                        ))
                    })?;
                    if t.is_ascii_uppercase() != c.is_ascii_uppercase() {
                        return Err(err(format!(
                            "rank {} ('{row}'): a pawn's two letters must be of one case",
                            rank + 1
                        )));
                    }
                    j += 1;
                    let i = PAWN_TYPES.iter().position(|&l| l == t.to_ascii_uppercase()).ok_or_else(|| {
                        err(format!("rank {} ('{row}'): '{t}' after 'P' is not a pawn type (K F W G T N R E C D P)", rank + 1))
                    })?;
                    PAWN + i as u8
                } else {
                    PIECE_LETTERS
                        .iter()
                        .position(|&l| l == c.to_ascii_uppercase())
                        .ok_or_else(|| {
                            err(format!(
                                "rank {} ('{row}'): '{c}' is not a Tamerlane piece letter",
                                rank + 1
                            ))
                        })? as u8
                };
                let s = sq(file, rank).ok_or_else(|| {
                    err(format!(
                        "rank {} ('{row}') has more than 11 squares",
                        rank + 1
                    ))
                })?;
                if is_pawn(kind) && kind != PAWN_OF_PAWNS && rank == last_rank(color) {
                    return Err(err(format!(
                        "an unpromoted {} cannot stand on its last rank ({})",
                        kind_name(kind),
                        sq_name(s)
                    )));
                }
                pos.board[s as usize] = code(color, kind);
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
            let mut it = text.chars();
            let (Some(c), None) = (it.next(), it.next()) else {
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
                'K' => SHAH,
                'S' => PRINCE,
                'A' => ADVENTITIOUS,
                _ => {
                    return Err(err(format!(
                        "only a royal (K, S or A) may stand in a citadel, not '{c}'"
                    )))
                }
            };
            if citadel == own_citadel(color) && kind != ADVENTITIOUS {
                return Err(err(format!(
                    "only the adventitious king may stand in its own citadel ({})",
                    sq_name(citadel)
                )));
            }
            pos.board[citadel as usize] = code(color, kind);
        }
        pos.exchange = match fields[3] {
            "Kk" => [true, true],
            "K" => [true, false],
            "k" => [false, true],
            "-" => [false, false],
            o => {
                return Err(err(format!(
                    "exchange rights are 'Kk', 'K', 'k' or '-', not '{o}'"
                )))
            }
        };
        let arr: Vec<Option<u8>> = fields[4]
            .split('/')
            .map(|t| t.parse().ok().filter(|&n: &u8| n <= 2))
            .collect();
        match arr.as_slice() {
            [Some(w), Some(b)] => pos.arrivals = [*w, *b],
            _ => {
                return Err(err(format!(
                    "pawn-of-pawns arrivals are '<W>/<B>' with 0, 1 or 2, not '{}'",
                    fields[4]
                )))
            }
        }
        pos.halfmove = fields[5].parse().map_err(|_| {
            err(format!(
                "the halfmove clock must be a whole number, not '{}'",
                fields[5]
            ))
        })?;
        pos.fullmove = fields[6]
            .parse()
            .ok()
            .filter(|&n: &u32| (1..=1_000_000).contains(&n))
            .ok_or_else(|| {
                err(format!(
                    "the move number must be a whole number from 1, not '{}'",
                    fields[6]
                ))
            })?;
        for c in [Color::White, Color::Black] {
            let name = if c == Color::White { "White" } else { "Black" };
            if pos.royals(c).next().is_none() {
                return Err(err(format!(
                    "{name} has no royal (shah, prince or adventitious king)"
                )));
            }
            if pos
                .royals(c)
                .filter(|&s| kind_of(pos.board[s as usize]) == SHAH)
                .count()
                > 1
            {
                return Err(err(format!("{name} has two shahs")));
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
        let mut out = String::with_capacity(120);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let p = self.board[sq(file, rank).expect("on the board") as usize];
                if p == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                let kind = kind_of(p);
                let letters = if is_pawn(kind) {
                    format!("P{}", PAWN_TYPES[(kind - PAWN) as usize])
                } else {
                    PIECE_LETTERS[kind as usize].to_string()
                };
                out.push_str(&if color_of(p) == Color::White {
                    letters
                } else {
                    letters.to_ascii_lowercase()
                });
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let cit = |s: Sq| {
            let p = self.board[s as usize];
            if p == EMPTY {
                "-".to_owned()
            } else {
                let l = PIECE_LETTERS[kind_of(p) as usize];
                (if color_of(p) == Color::White {
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
}
