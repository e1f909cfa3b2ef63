//! What a search answers: scores (and the mate bounds the search keeps
//! them in), its lines, its result.

use std::time::Duration;

use crate::tablebase::{Distance, Entry};

/// A score of a won game, less the plies it takes.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The score of a win the endgame tables give by the perpetual-check rule
/// (no mate to count to), less the plies to it: above every evaluation,
/// below every mate.
pub const TABLE_WIN: i32 = MATE_BOUND - 1_000;

/// The search's value of what the endgame tables say of a position `ply`
/// plies from the root, for its side to move: a mate at its exact
/// distance, a win by the perpetual-check rule below the mates
/// ([`TABLE_WIN`]), a draw 0; `None` for a position no game reaches.
pub fn table_value(entry: Entry, ply: usize) -> Option<i32> {
    let ply = ply as i32;
    Some(match entry {
        Entry::Draw(_) => 0,
        Entry::Win(Distance::Mate(n)) => MATE - ply - i32::from(n),
        Entry::Loss(Distance::Mate(n)) => -(MATE - ply - i32::from(n)),
        Entry::Win(Distance::Rule(n)) => TABLE_WIN - ply - i32::from(n),
        Entry::Loss(Distance::Rule(n)) => -(TABLE_WIN - ply - i32::from(n)),
        Entry::Illegal => return None,
    })
}

/// A score from the side to move: centipawns, or moves to mate as UCI counts
/// them (positive: the side to move mates; negative: it is mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (a hundredth of a pawn, or of a soldier in Xiangqi).
    Cp(i32),
    /// Moves to mate: positive when the side to move mates, negative when it is mated.
    Mate(i32),
}

impl Score {
    /// The score for a value of the search (mate values turned into moves to mate).
    pub fn from_internal(v: i32) -> Score {
        if v > MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v < -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// One principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<M> {
    /// The moves of the line, from the searched position.
    pub moves: Vec<M>,
    /// Its score, for the side to move.
    pub score: Score,
    /// The iteration depth that found it.
    pub depth: u32,
}

/// What a finished search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play: the first of the first line.
    pub best_move: M,
    /// The best lines, best first (`multipv` of them at most).
    pub lines: Vec<Line<M>>,
    /// The depth of the first line's search: the deepest completed
    /// iteration, or the unfinished one after it when that one had searched
    /// its best line so far in full (one line asked; see `Searcher::run`).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// Where the nodes went (of the main thread).
    pub stats: SearchStats,
}

/// Counts of what the tree did, for measuring the search against others:
/// how often a node failed high, and on which move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes of the main search (not quiescence) that searched a move and
    /// failed high.
    pub cutoffs: u64,
    /// Of those, the ones whose first move searched failed high: the share
    /// is the move ordering's quality.
    pub first_move_cutoffs: u64,
    /// Quiescence nodes (included in the result's `nodes`).
    pub quiescence_nodes: u64,
}

impl SearchStats {
    /// The share of cut-offs on the first move, in per mille.
    pub fn first_move_per_mille(&self) -> u64 {
        self.first_move_cutoffs * 1000 / self.cutoffs.max(1)
    }
}

impl std::ops::AddAssign for SearchStats {
    fn add_assign(&mut self, other: SearchStats) {
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.quiescence_nodes += other.quiescence_nodes;
    }
}

impl std::iter::Sum for SearchStats {
    fn sum<I: Iterator<Item = SearchStats>>(iter: I) -> SearchStats {
        iter.fold(SearchStats::default(), |mut total, s| {
            total += s;
            total
        })
    }
}

impl<M> SearchResult<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

impl Score {
    /// Centipawns, a mate as ±100,000 (for data and match records).
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) => 100_000 * n.signum(),
        }
    }
}

/// A score as the search holds it (moves to mate as plies from `MATE`).
pub(crate) fn internal(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -(MATE - 2 * -n),
    }
}
