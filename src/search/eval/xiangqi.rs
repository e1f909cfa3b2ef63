//! Xiangqi: a sum of weighted terms — piece on point, mobility, attacks on
//! the palace against its defenders, cannons on the general's file,
//! threatened and loose pieces, piece pairs, tempo — each with a middlegame
//! and an endgame weight, blended by how many chariots, horses and cannons
//! remain. The weights (`xiangqi_weights.rs`) are fitted to games with known
//! results by `examples/tune.rs` (Texel's method); [`terms`] is the one
//! place that says what each term counts, for the search and the tuner alike.

use super::nnue::features::Delta;
use super::nnue::{Accumulator, Network};
use crate::search::Evaluate;
use crate::variants::xiangqi::bitboards::{bit, FILE_A};
use crate::variants::xiangqi::board::{color_of, kind_of, own_side, piece, EMPTY, POINTS};
use crate::variants::xiangqi::{file_of, rank_of, sq, Kind, Move, Position, Rules, Sq};
use crate::variants::{Color, Variant};

/// Where each group of terms starts, and how many terms there are.
pub mod term {
    /// A piece on a point: kind (1-7, less one) × own rank (0-9) × file
    /// folded to the near side (0-4).
    pub const PST: usize = 0;
    /// Chariot mobility: points it can move to (0-17).
    pub const MOB_CHARIOT: usize = PST + 7 * 50;
    /// Horse mobility: points it can move to, legs free (0-8).
    pub const MOB_HORSE: usize = MOB_CHARIOT + 18;
    /// Cannon mobility: quiet moves and captures (0-17).
    pub const MOB_CANNON: usize = MOB_HORSE + 9;
    /// Pieces attacking the enemy palace (0-6 or more).
    pub const PALACE_ATTACKERS: usize = MOB_CANNON + 18;
    /// An attacker of the enemy palace by kind (chariot, horse, cannon,
    /// soldier) × the enemy's missing advisors and elephants (0-4).
    pub const ATTACK_VS_DEFENCE: usize = PALACE_ATTACKERS + 7;
    /// A cannon on the enemy general's file with no piece between (0) or
    /// two pieces between (1: a discovered threat waiting).
    pub const CANNON_ON_GENERAL: usize = ATTACK_VS_DEFENCE + 4 * 5;
    /// A piece attacked by a cheaper enemy piece: kind (advisor to
    /// soldier, less two) × whether its side is to move.
    pub const THREATENED: usize = CANNON_ON_GENERAL + 2;
    /// A piece attacked and not defended (and not already threatened by a
    /// cheaper piece): kind × whether its side is to move.
    pub const LOOSE: usize = THREATENED + 12;
    /// Both advisors.
    pub const ADVISOR_PAIR: usize = LOOSE + 12;
    /// Both elephants.
    pub const ELEPHANT_PAIR: usize = ADVISOR_PAIR + 1;
    /// Two soldiers across the river side by side.
    pub const SOLDIER_PAIR: usize = ELEPHANT_PAIR + 1;
    /// The side to move.
    pub const TEMPO: usize = SOLDIER_PAIR + 1;
    /// A piece pinned to its general (by kind, advisor to soldier, less
    /// two): an enemy chariot or the enemy general stands behind it on the
    /// general's file or rank.
    pub const PINNED: usize = TEMPO + 1;
    /// A horse near the enemy general: the distance in files (0-3 or more)
    /// × in ranks (0-3 or more).
    pub const HORSE_NEAR_GENERAL: usize = PINNED + 6;
    /// A chariot near the enemy general, likewise.
    pub const CHARIOT_NEAR_GENERAL: usize = HORSE_NEAR_GENERAL + 16;
    /// The general's file open to the enemy (no own piece ahead of it)
    /// while the enemy has a chariot: per enemy chariot.
    pub const OPEN_GENERAL_FILE: usize = CHARIOT_NEAR_GENERAL + 16;
    /// How many terms there are.
    pub const COUNT: usize = OPEN_GENERAL_FILE + 1;
}

/// The fitted weights: `[middlegame, endgame]` per term.
#[rustfmt::skip]
pub static WEIGHTS: [[i16; 2]; term::COUNT] = include!("xiangqi_weights.rs");

/// The phase at the start: six for a chariot, three for a horse or a cannon.
pub const FULL_PHASE: i32 = 48;

/// Where the terms go: added up with their weights in play, recorded by
/// the tuner.
pub trait Sink {
    /// `count` more of `term`, from Red's side (negative for Black's).
    fn add(&mut self, term: usize, count: i32);
}

/// The weighted sums, middlegame and endgame.
#[derive(Default)]
struct Sums {
    mg: i32,
    eg: i32,
}

impl Sink for Sums {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        let w = WEIGHTS[term];
        self.mg += i32::from(w[0]) * count;
        self.eg += i32::from(w[1]) * count;
    }
}

/// A side's rank counted from its own back rank.
#[inline]
fn own_rank(c: Color, rank: usize) -> usize {
    match c {
        Color::White => rank,
        Color::Black => 9 - rank,
    }
}

/// The piece-on-point term of a piece.
#[inline]
fn pst_term(kind: Kind, c: Color, s: Sq) -> usize {
    let f = file_of(s);
    let folded = f.min(8 - f);
    term::PST + (kind as usize - 1) * 50 + own_rank(c, rank_of(s)) * 5 + folded
}

/// The palace of each colour as a set of points.
const PALACES: [u128; 2] = {
    let mut p = [0u128; 2];
    let mut f = 3;
    while f <= 5 {
        let mut r = 0;
        while r <= 2 {
            p[0] |= 1u128 << sq(f, r);
            p[1] |= 1u128 << sq(f, 9 - r);
            r += 1;
        }
        f += 1;
    }
    p
};

/// What each side attacks, by the cheapest kind of attacker.
#[derive(Default)]
struct Attacks {
    /// Every point a piece of the side attacks (own pieces included: those
    /// it defends).
    all: u128,
    /// Points attacked by soldiers, advisors or elephants.
    cheap: u128,
    /// Points attacked by horses or cannons.
    minor: u128,
}

/// Counts every term of `pos` into `sink`; returns the phase (0 to
/// [`FULL_PHASE`]: 0 when no chariot, horse or cannon is left).
pub fn terms<S: Sink>(pos: &Position, sink: &mut S) -> i32 {
    let mut attacks = [Attacks::default(), Attacks::default()];
    let mut phase = 0;
    let mut palace_attackers = [0i32; 2];
    // Per side: attackers of the enemy palace by kind (chariot, horse,
    // cannon, soldier); defenders (advisors, elephants).
    let mut attackers_by_kind = [[0i32; 4]; 2];
    let mut defenders = [[0i32; 2]; 2];
    let mut soldiers_across = [0u128; 2];
    let mut chariots = [0i32; 2];
    for c in [Color::White, Color::Black] {
        let sign = if c == Color::White { 1 } else { -1 };
        let ci = c.index();
        let enemy_palace = PALACES[(!c).index()];
        let enemy_general = pos.general(!c);
        let own = pos.occupied_by(c);
        for s in pos.pieces(c) {
            let Some(kind) = kind_of(pos.piece_at(s)) else {
                continue;
            };
            sink.add(pst_term(kind, c, s), sign);
            // What it guards: every point it would take on, own pieces'
            // included (the cannon's reach is worked out below).
            let reach = pos.guards(s);
            match kind {
                Kind::General => attacks[ci].all |= reach,
                Kind::Advisor => {
                    defenders[ci][0] += 1;
                    attacks[ci].cheap |= reach;
                }
                Kind::Elephant => {
                    defenders[ci][1] += 1;
                    attacks[ci].cheap |= reach;
                }
                Kind::Soldier => {
                    if !own_side(s, c) {
                        soldiers_across[ci] |= bit(s);
                    }
                    attacks[ci].cheap |= reach;
                }
                Kind::Horse => {
                    phase += 3;
                    let mobility = (reach & !own).count_ones() as usize;
                    sink.add(term::MOB_HORSE + mobility, sign);
                    sink.add(term::HORSE_NEAR_GENERAL + nearness(s, enemy_general), sign);
                    attacks[ci].minor |= reach;
                }
                Kind::Chariot => {
                    phase += 6;
                    let mobility = (reach & !own).count_ones() as usize;
                    sink.add(term::MOB_CHARIOT + mobility.min(17), sign);
                    sink.add(
                        term::CHARIOT_NEAR_GENERAL + nearness(s, enemy_general),
                        sign,
                    );
                    chariots[ci] += 1;
                }
                Kind::Cannon => {
                    phase += 3;
                    // Quiet moves and captures.
                    let mobility = pos.targets(s).count_ones() as usize;
                    sink.add(term::MOB_CANNON + mobility.min(17), sign);
                    attacks[ci].minor |= reach;
                    if usize::from(enemy_general) < POINTS && file_of(s) == file_of(enemy_general) {
                        let between = pieces_between(pos, s, enemy_general);
                        match between {
                            0 => sink.add(term::CANNON_ON_GENERAL, sign),
                            2 => sink.add(term::CANNON_ON_GENERAL + 1, sign),
                            _ => {}
                        }
                    }
                }
            }
            attacks[ci].all |= reach;
            let attacker = match kind {
                Kind::Chariot => Some(0),
                Kind::Horse => Some(1),
                Kind::Cannon => Some(2),
                Kind::Soldier => Some(3),
                _ => None,
            };
            if let Some(k) = attacker.filter(|_| reach & enemy_palace != 0) {
                palace_attackers[ci] += 1;
                attackers_by_kind[ci][k] += 1;
            }
        }
    }
    let side = pos.side();
    for c in [Color::White, Color::Black] {
        let sign = if c == Color::White { 1 } else { -1 };
        let (ci, ei) = (c.index(), (!c).index());
        // Attacks on the enemy palace, against its defenders.
        sink.add(
            term::PALACE_ATTACKERS + palace_attackers[ci].min(6) as usize,
            sign,
        );
        let missing = (4 - defenders[ei][0] - defenders[ei][1]).clamp(0, 4) as usize;
        for (k, &n) in attackers_by_kind[ci].iter().enumerate() {
            if n > 0 {
                sink.add(term::ATTACK_VS_DEFENCE + k * 5 + missing, sign * n);
            }
        }
        if defenders[ci][0] == 2 {
            sink.add(term::ADVISOR_PAIR, sign);
        }
        if defenders[ci][1] == 2 {
            sink.add(term::ELEPHANT_PAIR, sign);
        }
        let across = soldiers_across[ci];
        // Side by side: a soldier with another on the next file, same rank
        // (the a-file's left neighbour would wrap, so mask it off).
        let pairs = across & (across >> 1) & !FILE_I_MASK;
        if pairs != 0 {
            sink.add(term::SOLDIER_PAIR, sign * pairs.count_ones() as i32);
        }
        // Threatened and loose pieces of `c`.
        let to_move = usize::from(c == side);
        let enemy = &attacks[ei];
        for s in pos.pieces(c) {
            let Some(kind) = kind_of(pos.piece_at(s)) else {
                continue;
            };
            if kind == Kind::General || enemy.all & bit(s) == 0 {
                continue;
            }
            let k = kind as usize - 2;
            let cheaper = match kind {
                Kind::Chariot => enemy.cheap | enemy.minor,
                Kind::Horse | Kind::Cannon => enemy.cheap,
                _ => 0,
            };
            if cheaper & bit(s) != 0 {
                sink.add(term::THREATENED + k * 2 + to_move, sign);
            } else if attacks[ci].all & bit(s) == 0 {
                sink.add(term::LOOSE + k * 2 + to_move, sign);
            }
        }
    }
    sink.add(term::TEMPO, if side == Color::White { 1 } else { -1 });
    for c in [Color::White, Color::Black] {
        let sign = if c == Color::White { 1 } else { -1 };
        let general = pos.general(c);
        if usize::from(general) >= POINTS {
            continue;
        }
        let enemy_chariot = piece(!c, Kind::Chariot);
        let enemy_general = piece(!c, Kind::General);
        let lines = pos.line_blockers(general);
        for (dir, (first, second)) in lines.into_iter().enumerate() {
            let (Some(p), Some(behind)) = (first, second) else {
                continue;
            };
            let pinned = pos.piece_at(p);
            let by = pos.piece_at(behind);
            if color_of(pinned) == c && (by == enemy_chariot || (dir < 2 && by == enemy_general)) {
                if let Some(kind) = kind_of(pinned) {
                    sink.add(term::PINNED + kind as usize - 2, sign);
                }
            }
        }
        // The general's file ahead of it: up for Red, down for Black.
        let ahead = if c == Color::White {
            lines[0].0
        } else {
            lines[1].0
        };
        let open = ahead.is_none_or(|p| color_of(pos.piece_at(p)) != c);
        let enemy_chariots = chariots[(!c).index()];
        if open && enemy_chariots > 0 {
            sink.add(term::OPEN_GENERAL_FILE, sign * enemy_chariots);
        }
    }
    phase.min(FULL_PHASE)
}

/// How near a piece on `s` is to a general on `g`: files apart (0-3 or
/// more) × 4 + ranks apart (0-3 or more); 15 without a general.
#[inline]
fn nearness(s: Sq, g: Sq) -> usize {
    if usize::from(g) >= POINTS {
        return 15;
    }
    file_of(s).abs_diff(file_of(g)).min(3) * 4 + rank_of(s).abs_diff(rank_of(g)).min(3)
}

/// Points on file i (the rightmost), where a shift by one wraps to the
/// next rank.
const FILE_I_MASK: u128 = FILE_A << 8;

/// Pieces strictly between two points of one file.
fn pieces_between(pos: &Position, a: Sq, b: Sq) -> usize {
    let f = file_of(a);
    let (lo, hi) = (rank_of(a).min(rank_of(b)), rank_of(a).max(rank_of(b)));
    (lo + 1..hi)
        .filter(|&r| pos.piece_at(sq(f, r)) != EMPTY)
        .count()
}

/// The evaluation from Red's side: the terms' middlegame and endgame sums
/// blended by the phase.
pub fn evaluate_red(pos: &Position) -> i32 {
    let mut sums = Sums::default();
    let phase = terms(pos, &mut sums);
    (sums.mg * phase + sums.eg * (FULL_PHASE - phase)) / FULL_PHASE
}

/// A piece's worth in exchanges and move ordering: a chariot 600, a
/// cannon 285, a horse 270, an advisor or elephant 120, a soldier 60.
pub const fn value(kind: Kind) -> i32 {
    match kind {
        Kind::General => 0,
        Kind::Advisor => 120,
        Kind::Elephant => 120,
        Kind::Horse => 270,
        Kind::Chariot => 600,
        Kind::Cannon => 285,
        Kind::Soldier => 60,
    }
}

/// A piece's worth in exchanges: its value, the general more than
/// everything.
const fn exchange_value(kind: Kind) -> i32 {
    match kind {
        Kind::General => 10_000,
        k => value(k),
    }
}

/// The static exchange test (see [`Evaluate::see_ge`]): the moves and
/// recaptures on the destination are played out on the occupancy (pieces
/// leave the points they took from), so cannon screens
/// that appear and vanish are seen; pins are not.
fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let victim = kind_of(pos.piece_at(mv.to)).map_or(0, exchange_value);
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    let Some(mover) = kind_of(pos.piece_at(mv.from)) else {
        return false;
    };
    swap = exchange_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    // Played out on the occupancy alone: each capture takes its piece off
    // the point it stood on, which may open a line behind it.
    let mut standing = pos.standing();
    standing.remove(mv.from);
    let mut side = !pos.side();
    // 1 while the side that made the move is ahead of the threshold.
    let mut res = 1;
    while let Some((from, kind)) = pos.least_attacker_in(mv.to, side, &standing) {
        res ^= 1;
        standing.remove(from);
        if kind == Kind::General {
            // The general takes only where nothing takes it back.
            if pos.least_attacker_in(mv.to, !side, &standing).is_some() {
                res ^= 1;
            }
            break;
        }
        swap = exchange_value(kind) - swap;
        if swap < res {
            break;
        }
        side = !side;
    }
    res == 1
}

impl Evaluate for Position {
    type Frame = Accumulator;
    const HAS_NETWORK: bool = true;

    fn shipped_network() -> Option<std::sync::Arc<Network>> {
        Some(super::nnue::shipped())
    }

    fn refresh_frame(&self, net: &Network, frame: &mut Accumulator) {
        net.refresh(self, frame);
    }

    #[inline]
    fn update_frame(
        &self,
        net: &Network,
        mv: Option<Move>,
        parent: &Accumulator,
        child: &mut Accumulator,
    ) {
        match mv {
            Some(mv) => net.update(parent, &Delta::of(self, mv), child),
            None => child.clone_from(parent),
        }
    }

    #[inline]
    fn evaluate_frame(&self, _rules: &Rules, net: &Network, frame: &Accumulator) -> i32 {
        net.evaluate(frame, self.side())
    }

    const WDL: crate::search::wdl::WdlModel = super::wdl_models::XIANGQI;
    const LADDER: &'static crate::search::level::Ladder = &crate::search::level::XIANGQI;

    fn material(&self) -> i32 {
        let mut sum = 0;
        for s in 0..POINTS as Sq {
            if let Some(kind) = kind_of(self.piece_at(s)) {
                sum += value(kind);
            }
        }
        (sum + 50) / 100
    }

    const MOVE_SLOTS: usize = POINTS * POINTS;
    const PIECE_SLOTS: usize = 16 * POINTS;

    #[inline]
    fn piece_slot(&self, mv: Move) -> usize {
        self.piece_at(mv.from) as usize * POINTS + mv.to as usize
    }

    #[inline]
    fn move_signature(mv: Move) -> u16 {
        (mv.from as u16 * POINTS as u16 + mv.to as u16) + 1
    }

    #[inline]
    fn move_slot(mv: Move) -> usize {
        mv.from as usize * POINTS + mv.to as usize
    }

    fn evaluate(&self, _rules: &Rules) -> i32 {
        let red = evaluate_red(self);
        match self.side() {
            Color::White => red,
            Color::Black => -red,
        }
    }

    #[inline]
    fn capture_value(&self, mv: Move) -> Option<i32> {
        let victim = kind_of(self.piece_at(mv.to))?;
        let attacker = kind_of(self.piece_at(mv.from)).map_or(0, value);
        Some(value(victim).max(40) * 8 - attacker / 10)
    }

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        see_ge(self, mv, threshold)
    }

    #[inline]
    fn gives_check(&self, mv: Move) -> bool {
        Position::gives_check(self, mv)
    }

    fn captures(&self, out: &mut Vec<Move>) {
        self.legal_captures(out);
    }

    fn null_move(&self) -> Option<Position> {
        let us = self.side();
        let majors = self
            .pieces(us)
            .filter(|&s| {
                matches!(
                    kind_of(self.piece_at(s)),
                    Some(Kind::Chariot | Kind::Horse | Kind::Cannon)
                )
            })
            .count();
        (majors > 0).then(|| self.pass())
    }
}
