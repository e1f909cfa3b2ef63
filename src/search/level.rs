//! Playing levels for bots that face people (`/analyze`'s `level`, UCI's
//! `Skill Level` and `UCI_LimitStrength`/`UCI_Elo`).
//!
//! A level below the full strength plays as a weaker player does, not as a
//! strong one that now and then throws a piece away: it searches fewer
//! nodes (so it misses what lies deeper), and it chooses among the moves
//! it found nearly as good as its best, the nearer the likelier, in a
//! margin that narrows level by level. It never plays a move that loses by
//! the rules at once (a forbidden repetition) while it has another, nor a
//! move it has seen to be mated while it has one that is not.
//!
//! The levels were calibrated by matches of each level against the one
//! below, in each variant apart (`docs/engine.md`, "Levels"): each
//! variant has its own [`Ladder`] ([`super::Evaluate::LADDER`]), with the
//! Elo its matches measured. They were measured when the search counted
//! a horizon position twice (once entering it, once in the quiescence
//! search); since it counts each position once, each ladder's nodes are
//! the calibrated ones times the count's ratio over the same trees (`arbiter
//! bench`: Xiangqi 0.76, Taxi chess 0.79, Tamerlane chess 0.72), so that
//! each level searches what it searched when it was measured.

use super::{internal, Line, MATE_BOUND};
use crate::variants::{Color, Game, Variant};

/// A playing level, 1 (weakest) to [`Level::FULL`] (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: u8 = 1;
    /// The full strength: the search as asked, nothing held back.
    pub const FULL: u8 = 20;

    /// The full strength.
    pub const fn full() -> Level {
        Level(Level::FULL)
    }

    /// The level `n`, if it is one (1 to 20).
    pub fn new(n: u8) -> Option<Level> {
        (Level::MIN..=Level::FULL).contains(&n).then_some(Level(n))
    }

    /// The level's number.
    pub fn get(self) -> u8 {
        self.0
    }

    /// Whether this is the full strength.
    pub fn is_full(self) -> bool {
        self.0 == Level::FULL
    }
}

/// What a level below the full strength searches and weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The most nodes a move's search may take (1: one ply and the
    /// captures after it).
    pub nodes: u64,
    /// The margin in centipawns within which a move counts as nearly the
    /// best.
    pub margin: i32,
    /// How many of the best moves the search looks at and the level weighs
    /// ([`ALL`]: every move).
    pub lines: usize,
}

impl Step {
    /// A search's node limit at this step: the lower of `nodes` and the
    /// step's own.
    pub fn cap_nodes(self, nodes: Option<u64>) -> u64 {
        nodes.map_or(self.nodes, |n| n.min(self.nodes))
    }
}

/// Every legal move.
pub const ALL: usize = usize::MAX;

/// A variant's playing levels ([`super::Evaluate::LADDER`]): what each
/// level below the full strength does, and the Elo its calibration matches
/// measured (`docs/engine.md`, "Levels").
#[derive(Debug)]
pub struct Ladder {
    /// Levels 1 to 19.
    pub steps: [Step; 19],
    /// Each level's approximate Elo, 1 to 20: the sums of the calibration
    /// matches' differences from level 1 (anchored at [`ELO_ANCHOR`]) up;
    /// the full strength at the calibration's budget.
    pub elo: [u32; 20],
}

impl Ladder {
    /// What `level` does (`None` at full strength: the search as asked).
    pub fn step(&self, level: Level) -> Option<Step> {
        self.steps.get(usize::from(level.0) - 1).copied()
    }

    /// A search's node limit under `level`: the lower of `nodes` and the
    /// level's own.
    pub fn cap_nodes(&self, level: Level, nodes: Option<u64>) -> Option<u64> {
        match self.step(level) {
            Some(s) => Some(s.cap_nodes(nodes)),
            None => nodes,
        }
    }

    /// The level's approximate Elo.
    pub fn elo(&self, level: Level) -> u32 {
        self.elo[usize::from(level.0) - 1]
    }

    /// The highest level whose Elo is at most `elo` (level 1 below the
    /// ladder).
    pub fn level_for_elo(&self, elo: u32) -> Level {
        let n = self.elo.iter().take_while(|&&e| e <= elo).count().max(1);
        Level(n as u8)
    }
}

/// The Elo given to level 1 in every variant; the ladder above it is
/// measured.
pub const ELO_ANCHOR: u32 = 800;

const fn step(nodes: u64, margin: i32, lines: usize) -> Step {
    Step {
        nodes,
        margin,
        lines,
    }
}

/// Xiangqi's levels: 1-7 one ply, every move weighed, the margin narrowing;
/// 8-19 from 610 to 16,000 nodes, their best 4, 3 or 2 lines weighed.
pub const XIANGQI: Ladder = Ladder {
    steps: [
        step(1, 600, ALL),
        step(1, 500, ALL),
        step(1, 360, ALL),
        step(1, 260, ALL),
        step(1, 190, ALL),
        step(1, 140, ALL),
        step(1, 100, ALL),
        step(610, 80, 4),
        step(840, 64, 4),
        step(1_180, 51, 4),
        step(1_670, 41, 4),
        step(2_280, 33, 4),
        step(3_190, 26, 4),
        step(4_480, 20, 4),
        step(6_310, 15, 4),
        step(7_140, 11, 3),
        step(10_600, 8, 3),
        step(10_600, 5, 2),
        step(16_000, 3, 2),
    ],
    elo: [
        800, 910, 1070, 1210, 1370, 1530, 1630, 1740, 1800, 1870, 2010, 2120, 2190, 2260, 2390,
        2470, 2600, 2660, 2770, 2880,
    ],
};

/// Taxi chess's levels: 1-8 one ply, every move weighed, the margin
/// narrowing; 9-19 from 280 to 16,600 nodes, their best two lines weighed
/// (each ply, each line and each centipawn of a one-ply margin is worth
/// more in chess tactics than in Xiangqi).
pub const TAXI: Ladder = Ladder {
    steps: [
        step(1, 340, ALL),
        step(1, 290, ALL),
        step(1, 220, ALL),
        step(1, 160, ALL),
        step(1, 130, ALL),
        step(1, 85, ALL),
        step(1, 35, ALL),
        step(1, 12, ALL),
        step(280, 6, 2),
        step(440, 5, 2),
        step(630, 4, 2),
        step(850, 4, 2),
        step(1_220, 3, 2),
        step(1_770, 3, 2),
        step(2_570, 2, 2),
        step(3_730, 2, 2),
        step(5_930, 2, 2),
        step(9_480, 1, 2),
        step(16_600, 1, 2),
    ],
    elo: [
        800, 910, 1060, 1210, 1320, 1490, 1640, 1780, 1860, 1940, 2020, 2110, 2250, 2370, 2470,
        2590, 2720, 2880, 3030, 3190,
    ],
};

/// Tamerlane chess's levels: 1-10 one ply, every move weighed, the margin
/// narrowing from 1,000 centipawns (weak players seldom convert, so the
/// margins are wide); 11-19 from 430 to 15,100 nodes, their best 4, 3 or 2
/// lines weighed.
pub const TAMERLANE: Ladder = Ladder {
    steps: [
        step(1, 1000, ALL),
        step(1, 620, ALL),
        step(1, 550, ALL),
        step(1, 480, ALL),
        step(1, 370, ALL),
        step(1, 330, ALL),
        step(1, 290, ALL),
        step(1, 220, ALL),
        step(1, 150, ALL),
        step(1, 60, ALL),
        step(430, 30, 4),
        step(880, 18, 4),
        step(1_250, 14, 4),
        step(1_790, 10, 3),
        step(2_550, 8, 3),
        step(3_640, 6, 3),
        step(5_200, 4, 2),
        step(7_420, 3, 2),
        step(15_100, 1, 2),
    ],
    elo: [
        800, 980, 1080, 1140, 1270, 1390, 1510, 1590, 1730, 1820, 1900, 2020, 2090, 2140, 2220,
        2270, 2400, 2470, 2620, 2680,
    ],
};

/// Chooses the move a level plays from its search's `lines` (best first)
/// in the current position of `game`, with `rng` deciding among the moves
/// nearly as good as the best. `None` when there is no line.
pub fn choose<V: Variant>(
    game: &Game<V>,
    lines: &[Line<V::Move>],
    step: Step,
    rng: &mut fastrand::Rng,
) -> Option<V::Move> {
    let first = lines.iter().find(|l| !l.moves.is_empty())?.moves[0];
    let mover = game.current().side_to_move();
    // Never a move that loses by the rules at once, while there is another.
    let lawful: Vec<(V::Move, i32)> = lines
        .iter()
        .filter(|l| !l.moves.is_empty())
        .filter(|l| !loses_at_once(game, mover, l.moves[0]))
        .map(|l| (l.moves[0], internal(l.score)))
        .collect();
    let Some(best) = lawful.iter().map(|&(_, s)| s).max() else {
        return Some(first);
    };
    let margin = step.margin;
    // A mate found is played; a line seen to be mated is not, while another
    // is not; the rest within the margin, the nearer the best the likelier.
    let candidates: Vec<(V::Move, i32)> = lawful
        .into_iter()
        .filter(|&(_, s)| {
            if best > MATE_BOUND || s < -MATE_BOUND {
                s == best
            } else {
                s >= best - margin
            }
        })
        .collect();
    if candidates.len() == 1 || margin == 0 {
        return candidates
            .iter()
            .find(|&&(_, s)| s == best)
            .map(|&(m, _)| m);
    }
    // Weights fall off linearly to a quarter at the margin's edge.
    let weights: Vec<u64> = candidates
        .iter()
        .map(|&(_, s)| {
            let behind = i64::from(best - s);
            let margin = i64::from(margin);
            (4 * margin - 3 * behind).max(1) as u64
        })
        .collect();
    let total: u64 = weights.iter().sum();
    let mut pick = rng.u64(0..total);
    for (&(mv, _), &w) in candidates.iter().zip(&weights) {
        if pick < w {
            return Some(mv);
        }
        pick -= w;
    }
    Some(candidates[0].0)
}

/// Whether `mv` ends the game at once with `mover` losing (a forbidden
/// repetition, or any other rule's loss).
fn loses_at_once<V: Variant>(game: &Game<V>, mover: Color, mv: V::Move) -> bool {
    let mut after = game.clone();
    after.play(mv);
    after.outcome().winner().is_some_and(|w| w != mover)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;
    use crate::variants::xiangqi::Xiangqi;

    /// The start position and four of its moves, as lines with `scores`.
    fn lines(scores: [Score; 4]) -> (Game<Xiangqi>, Vec<Line<<Xiangqi as Variant>::Move>>) {
        let game = Game::<Xiangqi>::from_fen(None, Default::default()).unwrap();
        let mut moves = Vec::new();
        game.current().legal_moves(&mut moves);
        let lines = scores
            .iter()
            .zip(&moves)
            .map(|(&score, &mv)| Line {
                moves: vec![mv],
                score,
                depth: 1,
            })
            .collect();
        (game, lines)
    }

    fn chosen(level: u8, scores: [Score; 4]) -> std::collections::BTreeMap<usize, u32> {
        let (game, lines) = lines(scores);
        let mut rng = fastrand::Rng::with_seed(7);
        let mut seen = std::collections::BTreeMap::new();
        for _ in 0..400 {
            let step = XIANGQI.step(Level::new(level).unwrap()).unwrap();
            let mv = choose(&game, &lines, step, &mut rng).unwrap();
            let i = lines.iter().position(|l| l.moves[0] == mv).unwrap();
            *seen.entry(i).or_insert(0) += 1;
        }
        seen
    }

    #[test]
    fn a_level_chooses_among_the_nearly_best_the_nearer_the_likelier() {
        use Score::{Cp, Mate};
        // Level 1: every line within its margin but the mated one.
        let seen = chosen(1, [Cp(50), Cp(40), Cp(-400), Mate(-2)]);
        assert_eq!(
            seen.keys().copied().collect::<Vec<_>>(),
            [0, 1, 2],
            "{seen:?}"
        );
        assert!(seen[&0] > seen[&2] && seen[&1] > seen[&2], "{seen:?}");
        // Level 19: only what is within a few centipawns.
        let seen = chosen(19, [Cp(50), Cp(40), Cp(-400), Mate(-2)]);
        assert_eq!(seen.keys().copied().collect::<Vec<_>>(), [0], "{seen:?}");
        // A mate seen is always played.
        let seen = chosen(1, [Mate(3), Cp(900), Cp(800), Cp(0)]);
        assert_eq!(seen.keys().copied().collect::<Vec<_>>(), [0], "{seen:?}");
        // Mated everywhere: the best of it.
        let seen = chosen(1, [Mate(-5), Mate(-2), Mate(-1), Mate(-1)]);
        assert_eq!(seen.keys().copied().collect::<Vec<_>>(), [0], "{seen:?}");
        // The same seed, the same choice.
        let (game, lines) = lines([Cp(0), Cp(0), Cp(0), Cp(0)]);
        let step = XIANGQI.step(Level::new(3).unwrap()).unwrap();
        let pick = |seed| choose(&game, &lines, step, &mut fastrand::Rng::with_seed(seed));
        assert!((0..20).all(|seed| pick(seed) == pick(seed)));
        assert!(
            (0..20)
                .map(pick)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
                > 1
        );
    }

    #[test]
    fn levels_are_one_to_twenty_each_stronger() {
        assert!(Level::new(0).is_none());
        assert!(Level::new(21).is_none());
        assert!(Level::new(20).is_some_and(Level::is_full));
        for ladder in [&XIANGQI, &TAXI, &TAMERLANE] {
            assert_eq!(ladder.step(Level::full()), None);
            let mut last = step(0, i32::MAX, ALL);
            for n in 1..20 {
                let now = ladder.step(Level::new(n).unwrap()).unwrap();
                assert!(
                    now.nodes >= last.nodes
                        && (now.margin < last.margin || now.nodes > last.nodes)
                        && now.margin > 0,
                    "level {n} against {}",
                    n - 1
                );
                last = now;
            }
            assert_eq!(ladder.elo[0], ELO_ANCHOR);
            assert!(ladder.elo.windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn elo_maps_back_to_its_level() {
        for ladder in [&XIANGQI, &TAXI, &TAMERLANE] {
            for n in 1..=20 {
                let l = Level::new(n).unwrap();
                assert_eq!(ladder.level_for_elo(ladder.elo(l)), l);
            }
            assert_eq!(ladder.level_for_elo(0), Level::new(1).unwrap());
            assert_eq!(ladder.level_for_elo(u32::MAX), Level::full());
        }
    }
}
