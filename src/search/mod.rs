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
pub mod eval;
mod history;
pub mod level;
mod nodes;
mod params;
pub mod review;
mod searcher;
pub mod time;
mod tt;
pub mod wdl;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::variants::{Game, Variant};
pub(crate) use answer::internal;
pub use answer::{Line, Score, SearchResult, MATE, MATE_BOUND};
pub use eval::nnue::Network;
use searcher::Searcher;
pub use tt::Table;

/// The deepest ply the search ever reaches (extensions included).
pub const MAX_PLY: usize = 96;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 64;

/// What the search needs from a variant beyond [`Variant`]: an evaluation
/// and its move ordering. The rules that end a game are the variant's one
/// [`Variant::verdict`], asked at every node.
pub trait Evaluate: Variant {
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
    /// The position with the turn passed to the other side, nothing else
    /// changed (the opponent's threat is searched there).
    fn pass(&self) -> Self;
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

/// Searches the current position of `game` (whose history feeds the
/// repetition rules). `None` when the side to move has no legal move.
pub fn search<V: Evaluate>(
    game: &Game<V>,
    limits: &Limits,
    control: &Control,
    table_entries: usize,
    progress: Option<Progress<'_, V::Move>>,
) -> Option<SearchResult<V::Move>> {
    let table = table_for(limits, table_entries);
    search_with_table(game, limits, control, &table, progress)
}

/// A table of at most `table_entries` entries for a search under
/// `limits`: no bigger than such a search can fill.
pub fn table_for(limits: &Limits, table_entries: usize) -> Table {
    Table::new(table_entries.min(table_budget(limits)))
}

/// As [`search`], with a transposition table kept by the caller from one
/// search to the next (a UCI session, a match): what one move's search
/// learned helps the next.
///
/// With `limits.threads` above one, helper threads search the same
/// position at the same time, sharing the table (Lazy SMP): every other
/// helper starts an iteration deeper, so that they fill the table ahead of
/// the main thread. The main thread's result is the answer; the helpers
/// stop when it does, and their nodes are counted in the result.
pub fn search_with_table<V: Evaluate>(
    game: &Game<V>,
    limits: &Limits,
    control: &Control,
    table: &Table,
    progress: Option<Progress<'_, V::Move>>,
) -> Option<SearchResult<V::Move>> {
    let mut root_moves = Vec::new();
    game.current().legal_moves(&mut root_moves);
    search_among(game, root_moves, limits, control, table, progress)
}

/// As [`search_with_table`], choosing only among `root_moves` (legal moves
/// of the current position: UCI's `searchmoves`, `/analyze`'s
/// `searchmoves` and `exclude`). `None` when there are none.
pub fn search_among<V: Evaluate>(
    game: &Game<V>,
    root_moves: Vec<V::Move>,
    limits: &Limits,
    control: &Control,
    table: &Table,
    progress: Option<Progress<'_, V::Move>>,
) -> Option<SearchResult<V::Move>> {
    if root_moves.is_empty() {
        return None;
    }
    table.new_search();
    let helpers = limits.threads.max(1) - 1;
    if helpers == 0 {
        let mut s = Searcher::<V>::new(game, limits, control, table);
        return Some(s.run(&root_moves, progress));
    }
    let helper_control = Control::default();
    let helper_limits = helper_limits(limits);
    let (mut result, helper_nodes) = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=helpers)
            .map(|i| {
                let (control, limits, root_moves) = (&helper_control, &helper_limits, &root_moves);
                scope.spawn(move || {
                    let mut s = Searcher::<V>::new(game, limits, control, table);
                    s.first_depth = 1 + (i as u32 % 2);
                    s.run(root_moves, None).nodes
                })
            })
            .collect();
        let mut main = Searcher::<V>::new(game, limits, control, table);
        let result = main.run(&root_moves, progress);
        helper_control.stop.store(true, Ordering::Relaxed);
        let helper_nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (result, helper_nodes)
    });
    result.nodes += helper_nodes;
    Some(result)
}

/// What a helper thread searches with: no limits of its own (the main
/// thread stops it), one line, and the main thread's evaluation.
fn helper_limits(limits: &Limits) -> Limits {
    Limits {
        multipv: 1,
        network: limits.network.clone(),
        ..Limits::default()
    }
}

/// Table entries in `mb` MiB (an entry takes about 32 bytes).
pub fn table_entries(mb: usize) -> usize {
    mb.saturating_mul(1 << 20) / 32
}

/// How many table entries a search with these limits can fill, roughly:
/// no point in clearing 16 MiB for a search of a few thousand nodes.
fn table_budget(limits: &Limits) -> usize {
    let mut budget = usize::MAX;
    if let Some(n) = limits.nodes {
        budget = budget.min(n.saturating_mul(2) as usize);
    }
    if let Some(t) = limits.movetime {
        // A few million nodes a second at most.
        budget = budget.min((t.as_millis() as usize).saturating_mul(4_000));
    }
    if let Some(d) = limits.depth {
        if d <= 6 {
            budget = budget.min(1 << 16);
        }
    }
    budget
}

#[cfg(all(test, feature = "training"))]
mod network_tests;
#[cfg(test)]
pub(crate) mod tests;
