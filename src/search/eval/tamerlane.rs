//! Tamerlane chess: material, advancement and centralisation, mobility (the
//! squares each piece may move to), the royals and the citadels. A second or
//! third royal is worth a great deal: while a side has two, none of them can
//! be mated. A side that is losing on material wants its highest royal near
//! the enemy citadel (entering it draws); the other side wants it far away.
//! Results: no legal move loses, the citadel draw, the bare-king rule, the
//! move limit and repetitions.

use crate::search::Evaluate;
use crate::variants::tamerlane::board::*;
use crate::variants::tamerlane::{Move, Position, Rules, Special};
use crate::variants::{Color, Variant};

/// The worth of a non-royal piece kind (pawns are valued apart).
pub const fn value(kind: u8) -> i32 {
    match kind {
        FERZ => 150,
        WAZIR => 150,
        GIRAFFE => 650,
        TALIA => 350,
        FARAS => 320,
        RUKH => 600,
        PIL => 180,
        JAMAL => 280,
        DABBABA => 180,
        PAWN_OF_PAWNS => 150,
        k if k >= PAWN => 100,
        _ => 0,
    }
}

/// What losing a piece of `kind` costs: its value, a royal's that of a
/// spare royal.
fn worth(kind: u8) -> i32 {
    if is_royal(kind) {
        SPARE_ROYAL
    } else {
        value(kind)
    }
}

/// Each royal beyond the first.
const SPARE_ROYAL: i32 = 450;
/// Material lead from which the citadel draw counts.
const CITADEL_MARGIN: i32 = 250;

fn chebyshev(a: Sq, b: Sq) -> i32 {
    let (af, ar) = coords(a);
    let (bf, br) = coords(b);
    (af - bf).abs().max((ar - br).abs())
}

/// Mobility of a piece kind: centipawns per square it may move to, and the
/// number of squares it counts from.
const fn mobility(kind: u8) -> (i32, i32) {
    match kind {
        RUKH => (2, 8),
        GIRAFFE | TALIA => (2, 6),
        FARAS | JAMAL => (4, 4),
        _ => (3, 2),
    }
}

impl Evaluate for Position {
    type Frame = ();

    const WDL: crate::search::wdl::WdlModel = super::wdl_models::TAMERLANE;
    const LADDER: &'static crate::search::level::Ladder = &crate::search::level::TAMERLANE;

    fn material(&self) -> i32 {
        let mut sum = 0;
        for s in 0..SQUARES as Sq {
            let p = self.at(s);
            if p != EMPTY && !is_royal(kind_of(p)) {
                sum += value(kind_of(p));
            }
        }
        (sum + 50) / 100
    }

    const MOVE_SLOTS: usize = SQUARES * SQUARES;
    const PIECE_SLOTS: usize = 16 * SQUARES;

    /// Pieces in eight classes a side (royals, ferz and wazir, giraffe,
    /// talia, faras and jamal, rukh, pil and dabbaba, pawns), so that the
    /// continuation table stays small.
    #[inline]
    fn piece_slot(&self, mv: Move) -> usize {
        let code = self.at(mv.from);
        let class = match kind_of(code) {
            SHAH | PRINCE | ADVENTITIOUS => 0,
            FERZ | WAZIR => 1,
            GIRAFFE => 2,
            TALIA => 3,
            FARAS | JAMAL => 4,
            RUKH => 5,
            PIL | DABBABA => 6,
            _ => 7,
        };
        let colour = usize::from(code != EMPTY && color_of(code) == Color::Black);
        (colour * 8 + class) * SQUARES + mv.to as usize
    }

    #[inline]
    fn move_signature(mv: Move) -> u16 {
        let base = mv.from as u32 * SQUARES as u32 + mv.to as u32;
        let special = match mv.special {
            Special::None => 0,
            Special::Relocate => 1,
            Special::Exchange => 2,
            Special::CitadelExchange(s) => 3 + 4 * (s as u32 + 1),
        };
        ((base * 4 + (special & 3) + (special >> 2) * 50_177) % 65_521 + 1) as u16
    }

    #[inline]
    fn move_slot(mv: Move) -> usize {
        mv.from as usize * SQUARES + mv.to as usize
    }

    fn evaluate(&self, _rules: &Rules) -> i32 {
        let mut material = [0i32; 2];
        let mut placement = [0i32; 2];
        let mut royals = [0i32; 2];
        for s in 0..SQUARES as Sq {
            let p = self.at(s);
            if p == EMPTY {
                continue;
            }
            let c = color_of(p);
            let kind = kind_of(p);
            let i = c.index();
            if is_royal(kind) {
                royals[i] += 1;
                continue;
            }
            material[i] += value(kind);
            if is_citadel(s) {
                continue;
            }
            let (file, rank) = coords(s);
            let advance = if c == Color::White { rank } else { 9 - rank };
            let centre = 5 - (file - 5).abs();
            if !is_pawn(kind) {
                let (weight, mean) = mobility(kind);
                placement[i] += weight * (self.target_count(s) as i32 - mean);
            }
            placement[i] += if is_pawn(kind) {
                if self.dormant(s) {
                    0
                } else {
                    (advance - 2).max(0) * 6 + centre
                }
            } else {
                match kind {
                    RUKH | GIRAFFE | TALIA => centre,
                    _ => 2 * centre + 2 * (4 - (advance - 4).abs()).max(0),
                }
            };
        }
        let mut score = [0i32; 2];
        for c in [Color::White, Color::Black] {
            let i = c.index();
            score[i] = material[i] + placement[i] + (royals[i] - 1).max(0) * SPARE_ROYAL;
        }
        // The citadel: the side behind on material heads for the enemy's.
        let lead = material[0] - material[1];
        for c in [Color::White, Color::Black] {
            let behind = if c == Color::White { -lead } else { lead };
            if behind < CITADEL_MARGIN {
                continue;
            }
            if let Some(royal) = self.top_royal(c) {
                let citadel = own_citadel(!c);
                let near = gates(citadel)
                    .iter()
                    .map(|&g| chebyshev(royal, g))
                    .min()
                    .unwrap_or(10);
                // Entering draws: near the gates, a share of the deficit is
                // as good as won back (and as good as lost by the other side).
                let share = match near {
                    0 => 60,
                    1 => 45,
                    2 => 30,
                    3 => 15,
                    4 => 6,
                    _ => 0,
                };
                score[c.index()] += behind * share / 100;
            }
        }
        super::for_side(score, self.side())
    }

    #[inline]
    fn capture_value(&self, mv: Move) -> Option<i32> {
        if mv.special != Special::None || is_citadel(mv.to) {
            return None;
        }
        let victim = self.at(mv.to);
        if victim == EMPTY || color_of(victim) == self.side() {
            return None;
        }
        let attacker = value(kind_of(self.at(mv.from)));
        Some(worth(kind_of(victim)) * 8 - attacker / 10)
    }

    /// A two-move exchange: the capture, then a recapture by whatever
    /// attacks the destination (a defended destination costs the mover).
    /// Cheaper than playing the exchanges out in this variant, whose
    /// attackers are many and irregular; x-rays and pins are not seen.
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        if mv.special != Special::None || is_citadel(mv.to) {
            return 0 >= threshold;
        }
        let victim = self.at(mv.to);
        let gain = if victim == EMPTY || color_of(victim) == self.side() {
            0
        } else {
            worth(kind_of(victim))
        };
        if gain < threshold {
            return false;
        }
        let mover = worth(kind_of(self.at(mv.from)));
        gain - mover >= threshold || !self.attacked(mv.to, !self.side())
    }

    fn null_move(&self) -> Option<Position> {
        self.has_non_royals(self.side()).then(|| self.pass())
    }
}
