//! The Xiangqi position: mailbox plus per-file and per-rank occupancy masks,
//! incremental Zobrist hash, legal move generation and attack detection.

use super::board::*;
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
        let mut bb = self.by_color[c.index()];
        std::iter::from_fn(move || {
            if bb == 0 {
                None
            } else {
                let s = bb.trailing_zeros() as Sq;
                bb &= bb - 1;
                Some(s)
            }
        })
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

    /// The nearest and second-nearest occupied points from `s` in the four
    /// orthogonal directions (up, down, right, left): where a chariot's
    /// line ends and what a cannon could take.
    #[inline]
    pub fn line_blockers(&self, s: Sq) -> [(Option<Sq>, Option<Sq>); 4] {
        blockers(&self.files, &self.ranks, s)
    }

    /// Whether the general of `us` is attacked, the facing generals included.
    #[inline]
    pub fn general_attacked(&self, us: Color) -> bool {
        let k = self.generals[us.index()];
        self.attacked_after(us, k, k, k)
    }

    /// Whether a general of `us` on `k` is attacked once `us`'s piece on
    /// `from` has gone to `to` (taking whatever stood there): the one
    /// legality test. `from == to == k` asks of the position as it stands;
    /// a general's own move passes its destination as `k`.
    #[inline]
    fn attacked_after(&self, us: Color, k: Sq, from: Sq, to: Sq) -> bool {
        let them = !us;
        // A piece of `them` stands on `s` after the move: the moving piece
        // is ours, so only `to` changes hands.
        let kept = !bit(to);
        let by = |kind: Kind| self.by_piece[piece(them, kind) as usize] & kept;
        if by(Kind::Soldier) & SOLDIER_ATTACKERS[them.index()][k as usize] != 0 {
            return true;
        }
        let horses = by(Kind::Horse) & HORSE_REACH[k as usize];
        if horses != 0 {
            let h = &HORSE_ATTACKS[k as usize];
            for i in 0..h.count as usize {
                let leg = h.via[i];
                let leg_free = leg == from || (leg != to && self.board[leg as usize] == EMPTY);
                if horses & bit(h.to[i]) != 0 && leg_free {
                    return true;
                }
            }
        }
        let (f, r) = (file_of(k), rank_of(k));
        let chariots = by(Kind::Chariot);
        let cannons = by(Kind::Cannon);
        let general = by(Kind::General);
        let file = FILE_A << f;
        let rank = RANK_0 << (r * FILES);
        if (chariots | cannons) & (file | rank) == 0 && general & file == 0 {
            return false;
        }
        // Occupancy of the general's file and rank after the move.
        let (mut fo, mut ro) = (self.files[f] as usize, self.ranks[r] as usize);
        let (ff, fr, tf, tr) = (file_of(from), rank_of(from), file_of(to), rank_of(to));
        if ff == f {
            fo &= !(1 << fr);
        }
        if fr == r {
            ro &= !(1 << ff);
        }
        if tf == f {
            fo |= 1 << tr;
        }
        if tr == r {
            ro |= 1 << tf;
        }
        let [slide_f, hop_f] = FILE_LINES[r][fo];
        let [slide_r, hop_r] = RANK_LINES[f][ro];
        let slide = (FILE_SPREAD[slide_f as usize] << f) | ((slide_r as u128) << (r * FILES));
        let hop = (FILE_SPREAD[hop_f as usize] << f) | ((hop_r as u128) << (r * FILES));
        slide & (chariots | (general & file)) != 0 || hop & cannons != 0
    }

    /// Every point holding a piece of `by` that attacks `s` (could capture a
    /// piece of the other colour standing there), in increasing order. A
    /// general attacks its orthogonal neighbours in the palace, and the other
    /// general along an open file.
    pub fn attackers(&self, s: Sq, by: Color) -> Vec<Sq> {
        let mut out = Vec::new();
        let target_is_general = kind_of(self.board[s as usize]) == Some(Kind::General);
        for (dir, (first, second)) in self.line_blockers(s).into_iter().enumerate() {
            if let Some(a) = first {
                let p = self.board[a as usize];
                let facing = p == piece(by, Kind::General) && dir < 2 && target_is_general;
                if p == piece(by, Kind::Chariot) || facing {
                    out.push(a);
                }
            }
            if let Some(c) = second {
                if self.board[c as usize] == piece(by, Kind::Cannon) {
                    out.push(c);
                }
            }
        }
        // Step movers; their tables are symmetric, so look from `s` outwards.
        let steppers: [(&[Steps; POINTS], Kind); 4] = [
            (&GENERAL_MOVES, Kind::General),
            (&ADVISOR_MOVES, Kind::Advisor),
            (&ELEPHANT_MOVES, Kind::Elephant),
            (&HORSE_ATTACKS, Kind::Horse),
        ];
        for (table, kind) in steppers {
            let t = &table[s as usize];
            for i in 0..t.count as usize {
                let blocked = matches!(kind, Kind::Elephant | Kind::Horse)
                    && self.board[t.via[i] as usize] != EMPTY;
                if self.board[t.to[i] as usize] == piece(by, kind) && !blocked {
                    out.push(t.to[i]);
                }
            }
        }
        let soldier = piece(by, Kind::Soldier);
        out.extend(
            soldier_posts(s, by)
                .into_iter()
                .flatten()
                .filter(|&p| self.board[p as usize] == soldier),
        );
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The least valuable piece of `by` attacking `s` (soldier, advisor,
    /// elephant, horse, cannon, chariot, general: the order of their
    /// worth), pins ignored; `None` when nothing of `by` attacks `s`. For
    /// exchanges on a point that does not hold a general (the facing rule
    /// is not an attack here).
    pub fn least_attacker(&self, s: Sq, by: Color) -> Option<(Sq, Kind)> {
        self.least_attacker_in(s, by, &self.standing())
    }

    /// Every piece of the position still standing: where an exchange on one
    /// point starts (see [`Position::least_attacker_in`]).
    #[inline]
    pub fn standing(&self) -> Standing {
        Standing {
            all: self.by_color[0] | self.by_color[1],
            files: self.files,
            ranks: self.ranks,
        }
    }

    /// [`Position::least_attacker`] once the pieces that have already taken
    /// on `s` have left their points: only the pieces in `standing` attack,
    /// and only they block lines, legs and eyes. Ties within a kind go the
    /// same way as in the position itself (soldier from behind first, then
    /// the tables' order; lines up, down, right, left).
    pub fn least_attacker_in(&self, s: Sq, by: Color, standing: &Standing) -> Option<(Sq, Kind)> {
        let all = standing.all;
        let mine = |kind: Kind| self.by_piece[piece(by, kind) as usize] & all;
        let soldiers = mine(Kind::Soldier);
        if soldiers & SOLDIER_ATTACKERS[by.index()][s as usize] != 0 {
            for p in soldier_posts(s, by).into_iter().flatten() {
                if soldiers & bit(p) != 0 {
                    return Some((p, Kind::Soldier));
                }
            }
        }
        let steppers: [(&[Steps; POINTS], u128, Kind, bool); 3] = [
            (&ADVISOR_MOVES, ADVISOR_BB[s as usize], Kind::Advisor, false),
            (
                &ELEPHANT_MOVES,
                ELEPHANT_BB[s as usize][0],
                Kind::Elephant,
                true,
            ),
            (&HORSE_ATTACKS, HORSE_REACH[s as usize], Kind::Horse, true),
        ];
        for (table, reach, kind, legged) in steppers {
            let ours = mine(kind);
            if ours & reach == 0 {
                continue;
            }
            let t = &table[s as usize];
            for i in 0..t.count as usize {
                if ours & bit(t.to[i]) != 0 && (!legged || all & bit(t.via[i]) == 0) {
                    return Some((t.to[i], kind));
                }
            }
        }
        let lines = blockers(&standing.files, &standing.ranks, s);
        let cannons = mine(Kind::Cannon);
        if cannons != 0 {
            for (_, second) in lines {
                if let Some(c) = second.filter(|&c| cannons & bit(c) != 0) {
                    return Some((c, Kind::Cannon));
                }
            }
        }
        let chariots = mine(Kind::Chariot);
        if chariots != 0 {
            for (first, _) in lines {
                if let Some(a) = first.filter(|&a| chariots & bit(a) != 0) {
                    return Some((a, Kind::Chariot));
                }
            }
        }
        let general = mine(Kind::General) & GENERAL_BB[s as usize];
        (general != 0).then(|| (general.trailing_zeros() as Sq, Kind::General))
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

    /// Whether the side to move would leave its own general attacked (or
    /// facing the other general) by playing the pseudo-legal move `m`.
    #[inline]
    pub fn leaves_general_attacked(&self, m: Move) -> bool {
        let us = self.side;
        let k = self.generals[us.index()];
        if m.from == k {
            self.attacked_after(us, m.to, m.from, m.to)
        } else {
            self.attacked_after(us, k, m.from, m.to)
        }
    }

    /// Whether the legal move `m` checks the other general.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.make(m);
        after.general_attacked(after.side)
    }

    /// Every legal move of the side to move.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        self.each_legal::<false>(|from, targets| push_moves(out, from, targets));
    }

    /// How many legal moves the side to move has (the same as
    /// [`Position::legal`] lists, without listing them).
    pub fn count_legal(&self) -> usize {
        let mut n = 0;
        self.each_legal::<false>(|_, targets| n += targets.count_ones() as usize);
        n
    }

    /// Whether `m` is legal: a move of the side to move's piece by its
    /// movement rules that leaves its general safe (reading a coordinate
    /// move needs no more).
    pub fn is_legal(&self, m: Move) -> bool {
        let p = self.board[m.from as usize];
        p != EMPTY
            && color_of(p) == self.side
            && self.targets(m.from) & bit(m.to) != 0
            && !self.leaves_general_attacked(m)
    }

    /// Every legal capture of the side to move (for the search's quiescence).
    pub fn legal_captures(&self, out: &mut Vec<Move>) {
        out.clear();
        self.each_legal::<true>(|from, targets| push_moves(out, from, targets));
    }

    /// Calls `sink(from, targets)` with the legal targets of each piece of
    /// the side to move (pieces in increasing order; a piece may come with
    /// no target); with `CAPTURES`, only the targets that take.
    ///
    /// Only a move that could expose the general is tested: a move of the
    /// general, and a move of a piece that [`Position::exposures`] names
    /// (or, in check, every move that [`Position::evasions`] lets through).
    /// A piece landing between the general and an enemy cannon with nothing
    /// between them screens the cannon: never legal.
    #[inline]
    fn each_legal<const CAPTURES: bool>(&self, mut sink: impl FnMut(Sq, u128)) {
        let us = self.side;
        let k = self.generals[us.index()];
        let wanted = if CAPTURES {
            self.by_color[(!us).index()]
        } else {
            u128::MAX
        };
        let check = self.general_attacked(us);
        let (free, tested, allowed) = if check {
            // Pieces that may unscreen a checking cannon try every target;
            // the others only targets that take or block a checker.
            let (unscreen, resolve) = self.evasions(us);
            (0, unscreen, resolve)
        } else {
            let (vacate, land) = self.exposures(us);
            (!vacate, vacate, !land)
        };
        let mut bb = self.by_color[us.index()];
        while bb != 0 {
            let from = bb.trailing_zeros() as Sq;
            bb &= bb - 1;
            let targets = self.targets(from) & wanted;
            if from == k {
                sink(from, self.safe(us, from, targets, true));
            } else if bit(from) & tested != 0 {
                sink(from, self.safe(us, from, targets, false));
            } else if bit(from) & free != 0 {
                sink(from, targets & allowed);
            } else {
                sink(from, self.safe(us, from, targets & allowed, false));
            }
        }
    }

    /// The targets of the piece of `us` on `from` after which its general
    /// is not attacked (`general`: the piece is the general).
    #[inline]
    fn safe(&self, us: Color, from: Sq, mut targets: u128, general: bool) -> u128 {
        let k = self.generals[us.index()];
        let mut out = targets;
        while targets != 0 {
            let to = targets.trailing_zeros() as Sq;
            targets &= targets - 1;
            let king = if general { to } else { k };
            if self.attacked_after(us, king, from, to) {
                out &= !bit(to);
            }
        }
        out
    }

    /// The three nearest pieces from `s` each way along its file and rank
    /// (up, down, right, left), and the empty points before the nearest.
    #[inline]
    fn nearest_on_lines(&self, s: Sq) -> [([Option<Sq>; 3], u128); 4] {
        let (f, r) = (file_of(s), rank_of(s));
        [
            nearest3(self.files[f] as u32, r, true, |x| sq(f, x)),
            nearest3(self.files[f] as u32, r, false, |x| sq(f, x)),
            nearest3(self.ranks[r] as u32, f, true, |x| sq(x, r)),
            nearest3(self.ranks[r] as u32, f, false, |x| sq(x, r)),
        ]
    }

    /// What could end a check on the general of `us`: the points whose
    /// piece, leaving, unscreens a checking cannon; and the points where a
    /// piece, landing, takes a checking piece or stands in its way (on the
    /// line to the general, or on a checking horse's leg). A move of
    /// another piece that does none of these leaves every check standing.
    fn evasions(&self, us: Color) -> (u128, u128) {
        let k = self.generals[us.index()];
        let them = !us;
        let (chariot, cannon, general) = (
            piece(them, Kind::Chariot),
            piece(them, Kind::Cannon),
            piece(them, Kind::General),
        );
        let mut unscreen = 0u128;
        let mut resolve = 0u128;
        let lines = self.nearest_on_lines(k);
        for (dir, ([b1, b2, _], before_b1)) in lines.into_iter().enumerate() {
            let Some(s1) = b1 else {
                continue;
            };
            let p1 = self.board[s1 as usize];
            if p1 == chariot || (dir < 2 && p1 == general) {
                resolve |= before_b1 | 1 << s1;
            }
            if let Some(s2) = b2 {
                if self.board[s2 as usize] == cannon {
                    unscreen |= 1 << s1;
                    resolve |= before_b1 | 1 << s2 | between(s1, s2);
                }
            }
        }
        let horse = piece(them, Kind::Horse);
        let h = &HORSE_ATTACKS[k as usize];
        for i in 0..h.count as usize {
            if self.board[h.to[i] as usize] == horse && self.board[h.via[i] as usize] == EMPTY {
                resolve |= 1 << h.to[i] | 1 << h.via[i];
            }
        }
        let soldier = piece(them, Kind::Soldier);
        for p in soldier_posts(k, them).into_iter().flatten() {
            if self.board[p as usize] == soldier {
                resolve |= 1 << p;
            }
        }
        (unscreen, resolve)
    }

    /// Where a move of `us` (not in check, not by the general) could
    /// expose its general: the points whose piece, leaving, could open a
    /// line to an enemy chariot, general or cannon or free a horse's leg;
    /// and the empty points where a piece, landing, would become a cannon's
    /// screen. Every other move is legal: after it, a line holds the same
    /// pieces or more, no enemy horse's leg is freed, and no piece appears
    /// that did not stand there.
    fn exposures(&self, us: Color) -> (u128, u128) {
        let k = self.generals[us.index()];
        let them = !us;
        let (chariot, cannon, general) = (
            piece(them, Kind::Chariot),
            piece(them, Kind::Cannon),
            piece(them, Kind::General),
        );
        let mut vacate = 0u128;
        let mut land = 0u128;
        let lines = self.nearest_on_lines(k);
        for (dir, ([b1, b2, b3], before_b1)) in lines.into_iter().enumerate() {
            let at = |b: Option<Sq>| b.map_or(EMPTY, |s| self.board[s as usize]);
            let (p1, p2, p3) = (at(b1), at(b2), at(b3));
            if let Some(s1) = b1 {
                // Leaving the first point opens the line to the second
                // piece (a chariot, or the general on the file) or leaves
                // the second as the only screen of a cannon behind it.
                if p2 == chariot || (dir < 2 && p2 == general) || p3 == cannon {
                    vacate |= 1 << s1;
                }
                if let Some(s2) = b2 {
                    if p3 == cannon {
                        vacate |= 1 << s2;
                    }
                }
                // Landing before an enemy cannon makes a screen.
                if p1 == cannon {
                    land |= before_b1;
                }
            }
        }
        // The legs of enemy horses a knight's move from the general.
        let horse = piece(them, Kind::Horse);
        let h = &HORSE_ATTACKS[k as usize];
        for i in 0..h.count as usize {
            if self.board[h.to[i] as usize] == horse {
                vacate |= bit(h.via[i]);
            }
        }
        (vacate, land)
    }
}

/// Appends a move from `from` to each point of `targets`.
#[inline]
fn push_moves(out: &mut Vec<Move>, from: Sq, mut targets: u128) {
    while targets != 0 {
        let to = targets.trailing_zeros() as Sq;
        targets &= targets - 1;
        out.push(Move::new(from, to));
    }
}

/// The points strictly between two points of one file or rank.
#[inline]
fn between(a: Sq, b: Sq) -> u128 {
    let (lo, hi) = (a.min(b) as usize, a.max(b) as usize);
    let step = if file_of(a) == file_of(b) { FILES } else { 1 };
    let mut out = 0u128;
    let mut x = lo + step;
    while x < hi {
        out |= 1 << x;
        x += step;
    }
    out
}

/// The occupied indices of a file's or rank's occupancy word beyond index
/// `at`, nearest first, going up (increasing indices) or down.
#[inline]
fn outward(word: u32, at: usize, upward: bool) -> impl Iterator<Item = usize> {
    let mut m = if upward {
        word >> (at + 1) << (at + 1)
    } else {
        word & ((1u32 << at) - 1)
    };
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let x = if upward {
                m.trailing_zeros() as usize
            } else {
                31 - m.leading_zeros() as usize
            };
            m &= !(1 << x);
            x
        })
    })
}

/// The three nearest pieces from index `at` of an occupancy word (up or
/// down), as points via `point`, and the points strictly between `at` and
/// the nearest (none when there is no piece that way).
#[inline]
fn nearest3(
    word: u32,
    at: usize,
    upward: bool,
    point: impl Fn(usize) -> Sq,
) -> ([Option<Sq>; 3], u128) {
    let mut found = outward(word, at, upward).map(&point);
    let out = [found.next(), found.next(), found.next()];
    let before = out[0].map_or(0, |nearest| between(point(at), nearest));
    (out, before)
}

/// The pieces still standing while an exchange on one point is played
/// out: each piece that takes on the point leaves the point it stood on
/// (see [`Position::least_attacker_in`]).
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    all: u128,
    files: [u16; FILES],
    ranks: [u16; RANKS],
}

impl Standing {
    /// The piece on `s` has left it.
    #[inline]
    pub fn remove(&mut self, s: Sq) {
        let (f, r) = (file_of(s), rank_of(s));
        self.all &= !bit(s);
        self.files[f] &= !(1 << r);
        self.ranks[r] &= !(1 << f);
    }
}

/// The nearest and second-nearest occupied points from `s` in the four
/// orthogonal directions (up, down, right, left), read off the occupancy
/// words of its file (bit = rank) and rank (bit = file).
#[inline]
fn blockers(files: &[u16; FILES], ranks: &[u16; RANKS], s: Sq) -> [(Option<Sq>, Option<Sq>); 4] {
    let (f, r) = (file_of(s), rank_of(s));
    let on_file = |x| sq(f, x);
    let on_rank = |x| sq(x, r);
    [
        nearest2(files[f], r, true, on_file),
        nearest2(files[f], r, false, on_file),
        nearest2(ranks[r], f, true, on_rank),
        nearest2(ranks[r], f, false, on_rank),
    ]
}

/// The two nearest pieces from index `at` of an occupancy word (up or
/// down), as points via `point`.
#[inline]
fn nearest2(
    word: u16,
    at: usize,
    upward: bool,
    point: impl Fn(usize) -> Sq,
) -> (Option<Sq>, Option<Sq>) {
    let mut found = outward(word as u32, at, upward).map(point);
    (found.next(), found.next())
}

/// The points from which a soldier of `by` attacks `s`: behind it as the
/// soldier marches, and beside it once `s` is across the river for `by`.
#[inline]
fn soldier_posts(s: Sq, by: Color) -> [Option<Sq>; 3] {
    let f = file_of(s);
    let r = rank_of(s);
    let behind = match by {
        Color::White => r.checked_sub(1),
        Color::Black => (r + 1 < RANKS).then_some(r + 1),
    };
    let crossed = !own_side(s, by);
    [
        behind.map(|rb| sq(f, rb)),
        (crossed && f > 0).then(|| sq(f - 1, r)),
        (crossed && f + 1 < FILES).then(|| sq(f + 1, r)),
    ]
}
