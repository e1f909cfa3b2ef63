//! The Tamerlane position, its FEN, attacks and moves (the legal ones:
//! [`super::legal`]).

use super::board::*;
use crate::variants::Color;

/// The special kinds of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// An ordinary move or capture.
    None,
    /// A dormant pawn of pawns lifted to `to` (`<from>@<to>`).
    Relocate,
    /// The shah changes places with the friendly piece on `to` (`<shah>~<to>`).
    Exchange,
    /// The shah enters the enemy citadel `to` and changes places with the
    /// prince or adventitious king on the given square (`<from><citadel>~<sq>`).
    CitadelExchange(Sq),
}

/// A Tamerlane move: two squares and what is special about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// From.
    pub from: Sq,
    /// To.
    pub to: Sq,
    /// What is special about it.
    pub special: Special,
}

impl Move {
    /// An ordinary move from `from` to `to`.
    pub const fn normal(from: Sq, to: Sq) -> Move {
        Move {
            from,
            to,
            special: Special::None,
        }
    }
}

/// A Tamerlane chess position: the board, the side to move, each side's
/// exchange right and pawn-of-pawns arrivals, and the incremental key.
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
    /// The Zobrist key, kept up to date by every move.
    pub(super) hash: u64,
}

/// Zobrist keys of the pieces (by code) on the squares (citadels included).
static PIECE_KEYS: [[u64; SQUARES]; 64] = crate::variants::zobrist::table(0x3C6E_F372_FE94_F82B);
/// Keys of the exchange rights (by their two bits) and of the arrivals
/// (White's count times 3 plus Black's).
static STATE_KEYS: [[u64; 9]; 2] = crate::variants::zobrist::table(0xA54F_F53A_5F1D_36F1);
/// The key of Black to move.
const SIDE_KEY: u64 = 0x510E_527F_ADE6_82D1;

/// The far rank of `c` (0-based).
pub(super) fn last_rank(c: Color) -> i32 {
    if c == Color::White {
        9
    } else {
        0
    }
}

impl Position {
    /// The piece key of a square's content (nothing for an empty square).
    #[inline]
    fn key(s: Sq, p: u8) -> u64 {
        if p == EMPTY {
            0
        } else {
            PIECE_KEYS[p as usize][s as usize]
        }
    }

    /// The keys of the side to move, the exchange rights and the arrivals.
    fn state_key(&self) -> u64 {
        let rights = usize::from(self.exchange[0]) | usize::from(self.exchange[1]) << 1;
        let arrivals = self.arrivals[0] as usize * 3 + self.arrivals[1] as usize;
        (if self.side == Color::Black {
            SIDE_KEY
        } else {
            0
        }) ^ STATE_KEYS[0][rights]
            ^ STATE_KEYS[1][arrivals]
    }

    /// The Zobrist key computed from scratch (the incremental one must
    /// always equal it).
    pub fn zobrist(&self) -> u64 {
        (0..SQUARES as Sq).fold(self.state_key(), |h, s| h ^ Self::key(s, self.at(s)))
    }

    /// Hands the move to the other side, keeping the key.
    pub(super) fn flip_side(&mut self) {
        self.side = !self.side;
        self.hash ^= SIDE_KEY;
    }

    /// The piece on a square (`EMPTY` for none).
    #[inline]
    pub fn at(&self, s: Sq) -> u8 {
        self.board[s as usize]
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// A pawn of pawns on its own last rank: immobile, immune, attacks nothing.
    #[inline]
    pub fn dormant(&self, s: Sq) -> bool {
        let p = self.board[s as usize];
        p != EMPTY
            && kind_of(p) == PAWN_OF_PAWNS
            && !is_citadel(s)
            && coords(s).1 == last_rank(color_of(p))
    }

    /// The squares of `c`'s royals (shah, prince, adventitious king).
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
        if is_citadel(s) {
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
        self.each_target(from, |t| out.push(t));
    }

    /// How many movement targets the piece on `from` has (see [`Position::targets`]).
    pub fn target_count(&self, from: Sq) -> u32 {
        let mut n = 0;
        self.each_target(from, |_| n += 1);
        n
    }

    /// Calls `out` with each movement target of the piece on `from`.
    fn each_target(&self, from: Sq, mut out: impl FnMut(Sq)) {
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
            SHAH | PRINCE | ADVENTITIOUS if is_citadel(from) => gates(from)
                .into_iter()
                .filter(|&t| land(t))
                .for_each(&mut out),
            SHAH | FERZ | WAZIR | FARAS | PIL | JAMAL | DABBABA | PRINCE | ADVENTITIOUS => {
                leaps(kind, from)
                    .iter()
                    .copied()
                    .filter(|&t| land(t))
                    .for_each(&mut out)
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
                            out(t);
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
                                out(t);
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
                        out(t);
                    }
                }
                for dx in [-1, 1] {
                    if let Some(t) = sq(f + dx, r + fwd) {
                        let q = self.board[t as usize];
                        if q != EMPTY && color_of(q) != us && !self.dormant(t) {
                            out(t);
                        }
                    }
                }
            }
        }
        // Royals step into an empty citadel from one of its gates: the enemy
        // one only as the highest-ranking royal on the board, their own one
        // only as the adventitious king.
        if is_royal(kind) && !is_citadel(from) {
            for c in [L2, Z9] {
                if gates(c).contains(&from)
                    && self.board[c as usize] == EMPTY
                    && self.may_enter(us, kind, c)
                {
                    out(c);
                }
            }
        }
    }

    pub(super) fn may_enter(&self, us: Color, kind: u8, citadel: Sq) -> bool {
        if citadel == own_citadel(us) {
            kind == ADVENTITIOUS
        } else {
            self.royals(us)
                .filter(|&s| !is_citadel(s))
                .all(|s| royal_rank(kind_of(self.board[s as usize])) <= royal_rank(kind))
        }
    }

    /// Whether a pawn of pawns moving onto its last rank is barred: its
    /// second arrival would land on a royal.
    pub(super) fn second_arrival_barred(&self, from: Sq, to: Sq) -> bool {
        let p = self.board[from as usize];
        let us = color_of(p);
        kind_of(p) == PAWN_OF_PAWNS
            && !is_citadel(to)
            && coords(to).1 == last_rank(us)
            && self.arrivals[us.index()] == 1
            && {
                let q = self.board[self.second_arrival[us.index()] as usize];
                q != EMPTY && is_royal(kind_of(q))
            }
    }

    /// Plays a move (the caller knows it is at least pseudo-legal), keeping
    /// the key: the squares a move can change are its own, an exchange
    /// partner's and the second arrival's square.
    pub fn make(&mut self, m: Move) {
        let touched = [
            m.from,
            m.to,
            match m.special {
                Special::CitadelExchange(partner) => partner,
                _ => self.second_arrival[self.side.index()],
            },
        ];
        let before = touched.map(|s| self.board[s as usize]);
        let state = self.state_key();
        self.play(m);
        let mut hash = self.hash ^ state ^ self.state_key();
        for (i, &s) in touched.iter().enumerate() {
            if touched[..i].contains(&s) {
                continue;
            }
            hash ^= Self::key(s, before[i]) ^ Self::key(s, self.board[s as usize]);
        }
        self.hash = hash;
    }

    /// Plays a move on the board and the counters, leaving the key stale:
    /// for legality probes, whose positions are never hashed.
    pub(super) fn play(&mut self, m: Move) {
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
                let arriving =
                    is_pawn(kind) && !is_citadel(m.to) && coords(m.to).1 == last_rank(us);
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
}
