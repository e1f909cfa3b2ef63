//! One game-tree search for every variant: iterative deepening, alpha-beta
//! with principal variation search, a transposition table, quiescence on
//! captures, killer and history move ordering, null-move pruning where the
//! variant allows a pass, late-move reductions and check extensions.
//!
//! The search is generic over [`Evaluate`], which each variant implements
//! next to its evaluation in `eval/`. It obeys every variant's results: a side
//! without a legal move gets what its rules give (a loss in Xiangqi and
//! Tamerlane, a draw or loss in Taxi chess), drawn positions score zero, and a
//! repetition is judged by the variant (Xiangqi's perpetual check and chase
//! lose).

pub mod analysis;
mod answer;
pub mod bench;
mod entry;
pub mod eval;
mod history;
pub mod level;
mod nodes;
mod params;
mod quiesce;
pub mod review;
mod searcher;
pub mod time;
mod tt;
pub mod wdl;

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Duration;

use crate::tablebase::Endgames;
use crate::variants::{Game, Variant};
pub(crate) use answer::internal;
pub use answer::{
    table_value, Line, Score, SearchResult, SearchStats, MATE, MATE_BOUND, TABLE_WIN,
};
pub use entry::{search, search_among, search_with_table, table_entries, table_for};
pub use eval::nnue::Network;
pub use tt::Table;

/// The deepest ply the search ever reaches (extensions included).
pub const MAX_PLY: usize = 96;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 64;

/// What the search needs from a variant beyond [`Variant`]: an evaluation
/// and its move ordering. The rules that end a game are the variant's one
/// [`Variant::verdict`], asked at every node.
pub trait Evaluate: Variant + Endgames {
    /// How many distinct values [`Evaluate::move_slot`] returns.
    const MOVE_SLOTS: usize;
    /// A small number for a move (e.g. from × squares + to), for the history
    /// table.
    fn move_slot(mv: Self::Move) -> usize;
    /// A number from 1 to 65,535 that tells the move from the other legal
    /// moves of its position (the transposition table keeps this, not the
    /// move). Two moves of one position may share it only rarely: the
    /// table's move is an ordering hint, looked up among the legal moves.
    fn move_signature(mv: Self::Move) -> u16;
    /// How many distinct values [`Evaluate::piece_slot`] returns.
    const PIECE_SLOTS: usize;
    /// A small number for the moving piece and its destination (piece ×
    /// squares + to), for the counter-move and continuation histories.
    fn piece_slot(&self, mv: Self::Move) -> usize;
    /// The static evaluation in centipawns, from the side to move.
    fn evaluate(&self, rules: &Self::Rules) -> i32;
    /// For a capture, how much it promises (victim's worth first, then the
    /// cheapest attacker first), used to order and to select quiescence moves.
    /// `None` for a quiet move.
    fn capture_value(&self, mv: Self::Move) -> Option<i32>;
    /// Static exchange evaluation: whether the move wins at least
    /// `threshold` centipawns of material once every capture and recapture
    /// on its destination, least valuable piece first, is played out (each
    /// side may stop when it likes). A quiet move wins 0 unless the moved
    /// piece is lost. Without a variant's own exchange rules every move wins
    /// exactly 0.
    fn see_ge(&self, _mv: Self::Move, threshold: i32) -> bool {
        0 >= threshold
    }
    /// Whether the legal move `mv` checks the other side (the search asks
    /// before making a move it may prune). By default, by making it.
    fn gives_check(&self, mv: Self::Move) -> bool {
        let mut after = self.clone();
        after.make_move(mv);
        after.in_check()
    }
    /// Fills `out` with the legal captures (the quiescence search's moves).
    fn captures(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
        out.retain(|&m| self.capture_value(m).is_some());
    }
    /// The position after a pass, where null-move pruning is sound enough.
    fn null_move(&self) -> Option<Self>;
    /// The material on the board, both sides together, in pawns (the
    /// evaluation's piece values over 100; generals, kings and royals not
    /// counted): the win/draw/loss model's measure of the game's stage.
    fn material(&self) -> i32;
    /// The variant's win/draw/loss model ([`wdl`]), fitted on the engine's
    /// own games.
    const WDL: wdl::WdlModel;
    /// The variant's playing levels, calibrated on its own games.
    const LADDER: &'static level::Ladder;
    /// What a network evaluation keeps for each ply of the search beside
    /// the position (its hidden sums); `()` for a variant without one.
    type Frame: Default + Clone + Send;
    /// Whether the variant evaluates with a network when [`Limits::network`]
    /// gives one (Xiangqi's); the others ignore it.
    const HAS_NETWORK: bool = false;
    /// The network the variant evaluates with unless told otherwise (the
    /// shipped one, embedded in the binary); `None`: the hand-written
    /// evaluation only.
    fn shipped_network() -> Option<Arc<Network>> {
        None
    }
    /// The root's frame, computed from the position.
    fn refresh_frame(&self, _net: &Network, _frame: &mut Self::Frame) {}
    /// The frame of the position after `mv` (`None`: a pass) is played in
    /// `self`, from `self`'s frame.
    fn update_frame(
        &self,
        _net: &Network,
        _mv: Option<Self::Move>,
        _parent: &Self::Frame,
        _child: &mut Self::Frame,
    ) {
    }
    /// The network's evaluation in centipawns, from the side to move, given
    /// the position's frame.
    fn evaluate_frame(&self, rules: &Self::Rules, _net: &Network, _frame: &Self::Frame) -> i32 {
        self.evaluate(rules)
    }
}

/// How long or deep to search. Unset limits do not apply; with none set the
/// caller decides a default.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this iteration depth.
    pub depth: Option<u32>,
    /// Never search longer than this (the hard limit).
    pub movetime: Option<Duration>,
    /// The time a search aims at (a game clock's share for this move): no
    /// new iteration starts once it is used up, less when the best move has
    /// stayed the same for several iterations, more when it keeps changing.
    /// Without it the search uses all of `movetime`.
    pub optimum: Option<Duration>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Lines to report (the best `multipv` root moves), at least 1.
    pub multipv: usize,
    /// Threads searching together (Lazy SMP); 0 or 1: one.
    pub threads: usize,
    /// The network to evaluate with, for a variant that has one
    /// ([`Evaluate::HAS_NETWORK`]: Xiangqi); `None`: the hand-written
    /// evaluation.
    pub network: Option<Arc<Network>>,
    /// Whether positions inside the endgame tables ([`Endgames`]) take
    /// the tables' result instead of being searched.
    pub tablebases: bool,
}

/// Ways to stop a search from outside, and a node counter the caller can read.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// Raise to stop the search; it answers with what it has found.
    pub stop: Arc<AtomicBool>,
    /// Nodes searched so far, shared for progress reports.
    pub nodes: Arc<AtomicU64>,
}

/// A line's moves written one after another from `start`.
pub fn line_text<V: Variant>(start: &V, moves: &[V::Move], notation: V::Notation) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let text = pos.write_move(m, notation);
            pos.make_move(m);
            text
        })
        .collect()
}

/// Called after each completed iteration (for UCI `info` lines).
pub type Progress<'a, M> = &'a mut dyn FnMut(&SearchResult<M>);

#[cfg(test)]
mod iteration_tests;
#[cfg(all(test, feature = "training"))]
mod network_tests;
#[cfg(test)]
pub(crate) mod tests;
