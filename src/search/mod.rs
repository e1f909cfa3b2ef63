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

pub mod eval;
mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::variants::{Game, Repeats, Variant, Verdict};
use tt::Bound;
pub use tt::Table;

/// A score of a won game, less the plies it takes.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = 31_000;
/// Reverse futility pruning: a node this close to the leaves whose
/// evaluation exceeds beta by this much per ply is not searched.
const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// See [`REVERSE_FUTILITY_DEPTH`].
const REVERSE_FUTILITY_MARGIN: i32 = 130;
/// Futility pruning: below this reduced depth a quiet move is pruned when
/// the evaluation plus `FUTILITY_BASE` and `FUTILITY_MARGIN` per ply stays
/// below alpha.
const FUTILITY_DEPTH: i32 = 6;
/// See [`FUTILITY_DEPTH`].
const FUTILITY_BASE: i32 = 150;
/// See [`FUTILITY_DEPTH`].
const FUTILITY_MARGIN: i32 = 110;
/// Singular extensions are tried from this depth.
const SINGULAR_DEPTH: i32 = 8;
/// Late-move pruning applies up to this depth.
const LATE_MOVE_PRUNING_DEPTH: i32 = 8;
/// The deepest remaining depth at which moves that lose material in the
/// static exchange are pruned.
const SEE_PRUNING_DEPTH: i32 = 6;
/// A capture is pruned when it loses more than this per ply of depth.
const SEE_CAPTURE_MARGIN: i32 = 120;
/// A quiet move is pruned when it loses more than this times depth squared.
const SEE_QUIET_MARGIN: i32 = 25;
/// No piece slot: before the root, or a null move.
const NO_SLOT: usize = usize::MAX;
/// History values stay within plus or minus this.
const HISTORY_LIMIT: i32 = 16_384;
/// Half the width of the first aspiration window at the root.
const ASPIRATION: i32 = 30;
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
}

/// One principal variation.
#[derive(Clone, Debug)]
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
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

impl<M> SearchResult<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
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
    let table = Table::new(table_entries.min(table_budget(limits)));
    search_with_table(game, limits, control, &table, progress)
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
    let helper_limits = Limits {
        multipv: 1,
        ..Limits::default()
    };
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

struct Searcher<'a, V: Evaluate> {
    rules: &'a V::Rules,
    /// The game's positions, then the search's, one per ply.
    path: Vec<V>,
    /// `moves[i]` leads from `path[i]` to `path[i + 1]`.
    moves: Vec<V::Move>,
    hashes: Vec<u64>,
    /// Indices in `path` of positions reached by a null move: repetitions
    /// are not looked for across them.
    barriers: Vec<usize>,
    table: &'a Table,
    killers: Vec<[Option<V::Move>; 2]>,
    /// Quiet moves' success by side, from and to (with gravity: bounded by
    /// `HISTORY_LIMIT`).
    history: Vec<i32>,
    /// The quiet reply that last refuted a move, by that move's piece slot.
    counters: Vec<Option<V::Move>>,
    /// Quiet moves' success after a given move one or two plies before, by
    /// the two moves' piece slots.
    continuation: Vec<i16>,
    /// The piece slot of the move played at each ply of the search (index
    /// `ply + 2`; `NO_SLOT` for the root's past and null moves).
    slots: Vec<usize>,
    /// The quiet moves searched at each ply, for the history's malus.
    quiets: Vec<Vec<V::Move>>,
    /// The static evaluation at each ply of the search (`NO_EVAL` in check).
    evals: Vec<i32>,
    pv: Vec<Vec<V::Move>>,
    lists: Vec<Vec<V::Move>>,
    keys: Vec<Vec<i32>>,
    nodes: u64,
    start: Instant,
    deadline: Option<Instant>,
    optimum: Option<Duration>,
    node_limit: Option<u64>,
    /// The score of the best root move found so far in this iteration.
    root_score: i32,
    max_depth: u32,
    multipv: usize,
    control: &'a Control,
    stopped: bool,
    /// Limits other than an outside stop apply only once an iteration is done.
    may_stop: bool,
    /// The move left out at each ply by a singular-extension search.
    skipped: Vec<Option<V::Move>>,
    /// The first iteration's depth (helper threads start deeper).
    first_depth: u32,
    /// Root moves left out while the second and later lines are searched.
    excluded: Vec<V::Move>,
}

impl<'a, V: Evaluate> Searcher<'a, V> {
    fn new(
        game: &'a Game<V>,
        limits: &Limits,
        control: &'a Control,
        table: &'a Table,
    ) -> Searcher<'a, V> {
        let start = Instant::now();
        let path: Vec<V> = game.positions().to_vec();
        let hashes = path.iter().map(|p| p.hash_key()).collect();
        Searcher {
            rules: game.rules(),
            path,
            moves: game.moves().to_vec(),
            hashes,
            barriers: Vec::new(),
            table,
            killers: vec![[None, None]; MAX_PLY + 2],
            history: vec![0; V::MOVE_SLOTS * 2],
            counters: vec![None; V::PIECE_SLOTS],
            continuation: vec![0; V::PIECE_SLOTS * V::PIECE_SLOTS],
            slots: vec![NO_SLOT; MAX_PLY + 4],
            quiets: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            evals: vec![tt::NO_EVAL; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            keys: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            nodes: 0,
            start,
            deadline: limits.movetime.map(|t| start + t),
            optimum: limits.optimum,
            node_limit: limits.nodes,
            root_score: 0,
            max_depth: limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
            multipv: limits.multipv.max(1),
            control,
            stopped: false,
            may_stop: false,
            excluded: Vec::new(),
            first_depth: 1,
            skipped: vec![None; MAX_PLY + 2],
        }
    }

    fn run(
        &mut self,
        root_moves: &[V::Move],
        mut progress: Option<Progress<'_, V::Move>>,
    ) -> SearchResult<V::Move> {
        let mut result = SearchResult {
            best_move: root_moves[0],
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        let wanted = self.multipv.min(root_moves.len());
        // Iterations since the best move last changed.
        let mut stable = 0u32;
        for depth in self.first_depth..=self.max_depth {
            let mut lines: Vec<Line<V::Move>> = Vec::new();
            self.excluded.clear();
            for line in 0..wanted {
                // Aspiration: the first line of a deep iteration is searched
                // in a window around the last score, widened on failure.
                let previous = result.lines.first().filter(|_| line == 0 && depth >= 5);
                let (mut alpha, mut beta, mut delta) = match previous {
                    Some(l) if internal(l.score).abs() < MATE_BOUND => {
                        let s = internal(l.score);
                        (s - ASPIRATION, s + ASPIRATION, ASPIRATION)
                    }
                    _ => (-INFINITY, INFINITY, 0),
                };
                let score = loop {
                    let score = self.node(depth as i32, alpha, beta, 0, true);
                    if self.stopped || delta == 0 || (score > alpha && score < beta) {
                        break score;
                    }
                    delta *= 2;
                    if score <= alpha {
                        alpha = if delta > 500 {
                            -INFINITY
                        } else {
                            score - delta
                        };
                    } else {
                        beta = if delta > 500 { INFINITY } else { score + delta };
                    }
                };
                if self.stopped {
                    break;
                }
                let moves = self.pv[0].clone();
                let Some(&best) = moves.first() else { break };
                self.excluded.push(best);
                lines.push(Line {
                    moves,
                    score: Score::from_internal(score),
                    depth,
                });
            }
            // Lines are sorted best first; a later line can come out better
            // than an earlier one only through the table, so sort to be sure.
            lines.sort_by_key(|l| std::cmp::Reverse(internal(l.score)));
            if lines.is_empty() && !self.stopped {
                // Cannot happen with scores inside the window; never panic.
                break;
            }
            if self.stopped {
                // Only a complete iteration counts, unless there is nothing
                // else (an outside stop during the first one), or a root
                // move of the unfinished one has already proved better than
                // the last best: then it is played, with the depth completed.
                if result.lines.is_empty() && !lines.is_empty() {
                    result.best_move = lines[0].moves[0];
                    result.lines = lines;
                    result.depth = depth;
                } else if wanted == 1 && lines.is_empty() && !self.pv[0].is_empty() {
                    if let Some(last) = result.lines.first_mut() {
                        if self.pv[0][0] != last.moves[0] {
                            last.moves = self.pv[0].clone();
                            last.score = Score::from_internal(self.root_score);
                            result.best_move = last.moves[0];
                        }
                    }
                }
                break;
            }
            if result.lines.first().map(|l| l.moves[0]) == Some(lines[0].moves[0]) {
                stable += 1;
            } else {
                stable = 0;
            }
            result.best_move = lines[0].moves[0];
            result.lines = lines;
            result.depth = depth;
            result.nodes = self.nodes;
            result.elapsed = self.start.elapsed();
            self.may_stop = true;
            if let Some(report) = progress.as_mut() {
                report(&result);
            }
            // A forced result within the depth searched cannot change.
            if wanted == 1 {
                if let Score::Mate(n) = result.lines[0].score {
                    if (n.unsigned_abs() * 2) <= depth {
                        break;
                    }
                }
            }
            // With a time to aim at: no new iteration once it is used up,
            // sooner when the best move has held for several iterations,
            // later while it keeps changing.
            if let Some(optimum) = self.optimum {
                let percent = match stable {
                    0 => 150,
                    1 => 110,
                    2..=3 => 80,
                    _ => 55,
                };
                if self.start.elapsed() * 100 > optimum * percent {
                    break;
                }
            }
            if self.node_limit.is_some_and(|n| self.nodes >= n) {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        self.control.nodes.store(self.nodes, Ordering::Relaxed);
        result
    }

    /// The static evaluation, kept clear of the scores of won games.
    #[inline]
    fn eval(&self) -> i32 {
        self.pos()
            .evaluate(self.rules)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    #[inline]
    fn pos(&self) -> &V {
        self.path.last().expect("the path holds the root")
    }

    fn push(&mut self, mv: V::Move) {
        let mut child = self.pos().clone();
        child.make_move(mv);
        self.hashes.push(child.hash_key());
        self.path.push(child);
        self.moves.push(mv);
    }

    fn push_null(&mut self, child: V, placeholder: V::Move) {
        self.hashes.push(child.hash_key());
        self.path.push(child);
        self.moves.push(placeholder);
        self.barriers.push(self.path.len() - 1);
    }

    fn pop(&mut self) {
        let index = self.path.len() - 1;
        if self.barriers.last() == Some(&index) {
            self.barriers.pop();
        }
        self.path.pop();
        self.hashes.pop();
        self.moves.pop();
    }

    /// Counts a node and decides whether to stop.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.may_stop && self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            self.control.nodes.store(self.nodes, Ordering::Relaxed);
            if self.control.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            if self.may_stop && self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = true;
            }
        }
    }

    /// An earlier position of the path (same side to move) equal to the
    /// current one, within the reversible plies and after the last null move.
    fn find_repetition(&self) -> Option<usize> {
        let last = self.path.len() - 1;
        let reversible = self.pos().reversible_plies();
        let mut lower = last.saturating_sub(reversible);
        if let Some(&b) = self.barriers.last() {
            lower = lower.max(b);
        }
        let key = self.hashes[last];
        let mut i = last.checked_sub(4)?;
        loop {
            if i < lower {
                return None;
            }
            if self.hashes[i] == key {
                return Some(i);
            }
            i = i.checked_sub(2)?;
        }
    }

    /// The score of a verdict for the side to move, `ply` plies from the root.
    fn verdict_score(&self, verdict: &Verdict, ply: usize) -> i32 {
        match verdict.winner {
            None => 0,
            Some(w) if w == self.pos().side_to_move() => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
        }
    }

    /// The variant's verdict on the current position, with what the search
    /// knows; a draw that may be claimed (fifty moves in Taxi chess) counts
    /// as a draw: the side it suits will claim it.
    fn verdict(&self, has_legal_move: bool, repeats: &Repeats) -> Option<Verdict> {
        V::verdict(&self.path, &self.moves, self.rules, has_legal_move, repeats).or_else(|| {
            let claimable = V::claimable_draws(&self.path, 1);
            claimable.first().map(|&r| Verdict::draw(r))
        })
    }

    /// The score where the game has ended (`has_legal_move` as known), if it has.
    fn ended(&self, has_legal_move: bool, repeats: &Repeats, ply: usize) -> Option<i32> {
        self.verdict(has_legal_move, repeats)
            .map(|v| self.verdict_score(&v, ply))
    }

    fn node(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize, pv_node: bool) -> i32 {
        self.pv[ply].clear();
        if ply > 0 {
            self.count_node();
            if self.stopped {
                return 0;
            }
            if let Some(earlier) = self.find_repetition() {
                let here = self.path.last().expect("the path holds the root");
                let has_moves = here.count_legal_moves(&mut self.lists[ply]) > 0;
                let repeats = Repeats::Cycle { from: earlier };
                if let Some(score) = self.ended(has_moves, &repeats, ply) {
                    return score;
                }
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(alpha, beta, ply, 0);
        }
        if ply > 0 {
            if let Some(score) = self.ended(true, &Repeats::None, ply) {
                // Ended, unless there is no legal move at all: that verdict
                // comes first.
                let here = self.path.last().expect("the path holds the root");
                let has_moves = here.count_legal_moves(&mut self.lists[ply]) > 0;
                return if has_moves {
                    score
                } else {
                    self.ended(false, &Repeats::None, ply).unwrap_or(0)
                };
            }
        }
        // The table may settle the node before any move is generated (not
        // in a search that leaves a move out: that is another question).
        let singular_search = self.skipped[ply].is_some();
        let entry = if singular_search {
            None
        } else {
            self.table.probe(self.hashes[self.path.len() - 1])
        };
        if let Some(e) = entry {
            if !pv_node && ply > 0 && e.depth >= depth {
                let score = tt::score_from_table(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        self.with_moves(
            ply,
            |pos, list| pos.legal_moves(list),
            |s, list, keys| s.node_with_moves(depth, alpha, beta, ply, pv_node, entry, list, keys),
        )
    }

    /// Runs `work` with the ply's move list (filled by `fill`) and key
    /// buffer, which are lent out and put back so that no node allocates.
    fn with_moves(
        &mut self,
        ply: usize,
        fill: impl FnOnce(&V, &mut Vec<V::Move>),
        work: impl FnOnce(&mut Self, &mut Vec<V::Move>, &mut Vec<i32>) -> i32,
    ) -> i32 {
        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        fill(self.pos(), &mut list);
        let score = work(self, &mut list, &mut keys);
        self.lists[ply] = list;
        self.keys[ply] = keys;
        score
    }

    #[allow(clippy::too_many_arguments)]
    fn node_with_moves(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        entry: Option<tt::Entry>,
        list: &mut [V::Move],
        keys: &mut Vec<i32>,
    ) -> i32 {
        if list.is_empty() {
            return self.ended(false, &Repeats::None, ply).unwrap_or(0);
        }
        let singular_search = self.skipped[ply].is_some();
        if ply > 0 {
            // Mate-distance pruning.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = self.hashes[self.path.len() - 1];
        let tt_move = entry
            .filter(|e| e.mv != 0)
            .and_then(|e| list.iter().copied().find(|&m| V::move_signature(m) == e.mv));
        let in_check = self.pos().in_check();
        // The static evaluation (the table's copy if it has one), and the
        // value pruning decisions use: the table's score where its bound
        // says the static evaluation is too pessimistic or optimistic.
        let static_eval = if in_check {
            tt::NO_EVAL
        } else {
            match entry {
                Some(e) if e.eval != tt::NO_EVAL => e.eval,
                _ => self.eval(),
            }
        };
        let eval = match entry {
            Some(e) if !in_check && e.score.abs() < MATE_BOUND => match e.bound {
                Bound::Exact => e.score,
                Bound::Lower if e.score > static_eval => e.score,
                Bound::Upper if e.score < static_eval => e.score,
                _ => static_eval,
            },
            _ if in_check => -INFINITY,
            _ => static_eval,
        };
        self.evals[ply] = static_eval;
        // Whether the position is better for the side to move than two
        // plies ago: then pruning is more cautious and reductions smaller.
        let improving = !in_check
            && (ply < 2 || self.evals[ply - 2] == tt::NO_EVAL || static_eval > self.evals[ply - 2]);
        // Without a table move, this node is less likely to matter: search
        // it a ply shallower (the table will have a move next time).
        if tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        // Reverse futility: far above beta near the leaves, a quiet position
        // will not fall below it.
        if !pv_node
            && !in_check
            && ply > 0
            && depth <= REVERSE_FUTILITY_DEPTH
            && beta.abs() < MATE_BOUND
            && eval - REVERSE_FUTILITY_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return eval;
        }

        // Null move: if passing still holds beta, a real move will too.
        if !pv_node
            && !in_check
            && !singular_search
            && depth >= 3
            && ply > 0
            && eval >= beta
            && beta.abs() < MATE_BOUND
        {
            if let Some(child) = self.pos().null_move() {
                let r = 2 + depth / 4;
                self.slots[ply + 2] = NO_SLOT;
                self.push_null(child, list[0]);
                let score = -self.node(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score > MATE_BOUND { beta } else { score };
                }
            }
        }

        // Order: table move, captures by promise, killers, the counter-move,
        // then quiet moves by their histories.
        let side = self.pos().side_to_move().index();
        let (prev1, prev2) = (self.slots[ply + 1], self.slots[ply]);
        let counter = if prev1 == NO_SLOT {
            None
        } else {
            self.counters[prev1]
        };
        keys.clear();
        for &mv in list.iter() {
            let k = if Some(mv) == tt_move {
                1 << 30
            } else if let Some(v) = self.pos().capture_value(mv) {
                if self.pos().see_ge(mv, 0) {
                    (1 << 26) + v
                } else {
                    v - (1 << 22)
                }
            } else if Some(mv) == self.killers[ply][0] {
                1 << 25
            } else if Some(mv) == self.killers[ply][1] {
                (1 << 25) - 1
            } else if Some(mv) == counter {
                (1 << 25) - 2
            } else {
                self.quiet_score(side, mv, prev1, prev2)
            };
            keys.push(k);
        }

        self.quiets[ply].clear();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        for i in 0..list.len() {
            let mv = pick_best(list, keys, i);
            if (ply == 0 && self.excluded.contains(&mv)) || self.skipped[ply] == Some(mv) {
                continue;
            }
            // Singular extension: when the table's move is much better than
            // every other move (a search without it, at half the depth,
            // fails low against the table's score less a margin), it is
            // searched a ply deeper. If even without it the node fails
            // high, it fails high (multi-cut).
            let mut singular = false;
            if Some(mv) == tt_move && ply > 0 && depth >= SINGULAR_DEPTH && !singular_search {
                if let Some(e) = entry.filter(|e| {
                    e.bound != Bound::Upper && e.depth >= depth - 3 && e.score.abs() < MATE_BOUND
                }) {
                    let singular_beta = tt::score_from_table(e.score, ply) - 2 * depth;
                    self.skipped[ply] = Some(mv);
                    let value = self.node(
                        (depth - 1) / 2,
                        singular_beta - 1,
                        singular_beta,
                        ply,
                        false,
                    );
                    self.skipped[ply] = None;
                    if self.stopped {
                        return 0;
                    }
                    if value < singular_beta {
                        singular = true;
                    } else if singular_beta >= beta {
                        return singular_beta;
                    }
                }
            }
            // Quiet: no capture at all. (A losing capture sorts below the
            // killers but is still a capture: never pruned, reduced or
            // remembered as a quiet move.)
            let quiet = self.pos().capture_value(mv).is_none();
            // Quiet moves other than the table move, the killers and the
            // counter-move may be pruned and reduced.
            let late_quiet = quiet && keys[i] < (1 << 25) - 2;
            // Near the leaves, a move that loses material by the exchanges
            // on its destination is not searched (a capture that loses more
            // than a minor piece a ply, a quiet move that loses its piece).
            if searched > 0
                && !pv_node
                && !in_check
                && depth <= SEE_PRUNING_DEPTH
                && best > -MATE_BOUND
                && keys[i] < (1 << 25) - 2
            {
                let threshold = if quiet {
                    -SEE_QUIET_MARGIN * depth * depth
                } else {
                    -SEE_CAPTURE_MARGIN * depth
                };
                if !self.pos().see_ge(mv, threshold) {
                    continue;
                }
            }
            let slot = self.pos().piece_slot(mv);
            self.slots[ply + 2] = slot;
            self.push(mv);
            let gives_check = self.pos().in_check();
            // Late-move and futility pruning of quiet moves near the leaves
            // (never of a move that gives check): after enough moves, or
            // when even a good gain at the depth the move would be reduced
            // to leaves the evaluation below alpha.
            if late_quiet
                && !gives_check
                && searched > 0
                && !pv_node
                && !in_check
                && best > -MATE_BOUND
            {
                let lmr_depth = (depth - 1 - late_move_reduction(depth, searched)).max(0);
                let late = depth <= LATE_MOVE_PRUNING_DEPTH
                    && searched >= late_move_count(depth, improving);
                let futile = lmr_depth < FUTILITY_DEPTH
                    && eval + FUTILITY_BASE + FUTILITY_MARGIN * lmr_depth <= alpha;
                if late || futile {
                    self.pop();
                    continue;
                }
            }
            // A check extends the search unless it gives material away.
            let extension = i32::from(
                ply < MAX_PLY / 2
                    && (singular || (gives_check && self.path[self.path.len() - 2].see_ge(mv, 0))),
            );
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                -self.node(new_depth, -beta, -alpha, ply + 1, pv_node)
            } else {
                let reduction =
                    if depth >= 3 && searched >= 2 && late_quiet && !in_check && !gives_check {
                        // Less for moves that have done well, more for the rest.
                        (late_move_reduction(depth, searched) - i32::from(pv_node)
                            + i32::from(!improving)
                            - keys[i] / HISTORY_LIMIT)
                            .clamp(0, depth - 2)
                    } else {
                        0
                    };
                let mut s = -self.node(new_depth - reduction, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && reduction > 0 {
                    s = -self.node(new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.node(new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if quiet {
                self.quiets[ply].push(mv);
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if ply == 0 {
                        self.root_score = score;
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(ply, depth, side, mv, prev1, prev2);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Every root move excluded: cannot happen with multipv capped.
            return -INFINITY;
        }
        // Results with moves left out are not the position's value.
        if (ply != 0 || self.excluded.is_empty()) && !singular_search {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.table.store(
                key,
                best_move.map_or(0, V::move_signature),
                tt::score_to_table(best, ply),
                static_eval,
                depth,
                bound,
            );
        }
        best
    }

    /// A quiet move's ordering score: its history and its continuation
    /// histories after the last two moves.
    #[inline]
    fn quiet_score(&self, side: usize, mv: V::Move, prev1: usize, prev2: usize) -> i32 {
        let mut score = self.history[side * V::MOVE_SLOTS + V::move_slot(mv)];
        let slot = self.pos().piece_slot(mv);
        for prev in [prev1, prev2] {
            if prev != NO_SLOT {
                score += i32::from(self.continuation[prev * V::PIECE_SLOTS + slot]);
            }
        }
        score
    }

    /// After a quiet move `best` refuted the node: it becomes a killer and
    /// the counter-move, its histories rise, and those of the quiet moves
    /// searched before it fall.
    fn reward_quiet(
        &mut self,
        ply: usize,
        depth: i32,
        side: usize,
        best: V::Move,
        prev1: usize,
        prev2: usize,
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        if prev1 != NO_SLOT {
            self.counters[prev1] = Some(best);
        }
        let bonus = (16 * depth * depth + 64 * depth - 64).min(1_800);
        let quiets = std::mem::take(&mut self.quiets[ply]);
        for &mv in &quiets {
            let b = if mv == best { bonus } else { -bonus };
            let h = &mut self.history[side * V::MOVE_SLOTS + V::move_slot(mv)];
            *h += b - *h * b.abs() / HISTORY_LIMIT;
            let slot = self.pos().piece_slot(mv);
            for prev in [prev1, prev2] {
                if prev != NO_SLOT {
                    let c = &mut self.continuation[prev * V::PIECE_SLOTS + slot];
                    let v = i32::from(*c);
                    *c = (v + b - v * b.abs() / HISTORY_LIMIT) as i16;
                }
            }
        }
        self.quiets[ply] = quiets;
    }

    fn quiesce(&mut self, alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        self.count_node();
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        if let Some(score) = self.ended(true, &Repeats::None, ply) {
            return score;
        }
        // Any stored result settles a quiescence node if its bound allows.
        let entry = self.table.probe(self.hashes[self.path.len() - 1]);
        if let Some(e) = entry {
            let score = tt::score_from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        // In check (near the horizon), every evasion, so that mates are seen;
        // otherwise captures only, after the side to move may stand pat
        // (before any move is generated: most quiescence nodes end there).
        let evasions = qdepth < 3 && self.pos().in_check();
        let mut static_eval = tt::NO_EVAL;
        if !evasions {
            static_eval = match entry {
                Some(e) if e.eval != tt::NO_EVAL => e.eval,
                _ => self.eval(),
            };
            if static_eval >= beta || ply >= MAX_PLY {
                return static_eval;
            }
        }
        self.with_moves(
            ply,
            |pos, list| {
                if evasions {
                    pos.legal_moves(list)
                } else {
                    pos.captures(list)
                }
            },
            |s, list, keys| {
                s.quiesce_with_moves(alpha, beta, ply, qdepth, static_eval, entry, list, keys)
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn quiesce_with_moves(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        static_eval: i32,
        entry: Option<tt::Entry>,
        list: &mut Vec<V::Move>,
        keys: &mut Vec<i32>,
    ) -> i32 {
        // Standing pat was judged before the moves were generated: without
        // a static evaluation, the side is in check and evades.
        let evasions = static_eval == tt::NO_EVAL;
        if evasions && list.is_empty() {
            return self.ended(false, &Repeats::None, ply).unwrap_or(0);
        }
        let key = self.hashes[self.path.len() - 1];
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        if !evasions {
            alpha = alpha.max(static_eval);
            best = static_eval;
        }
        let tt_move = entry.map_or(0, |e| e.mv);
        // Captures (or, in check, every evasion), most promising first.
        keys.clear();
        let mut n = 0;
        for i in 0..list.len() {
            let mv = list[i];
            let value = self.pos().capture_value(mv);
            if evasions || (value.is_some() && self.pos().see_ge(mv, 0)) {
                list[n] = mv;
                keys.push(if tt_move != 0 && V::move_signature(mv) == tt_move {
                    1 << 30
                } else {
                    value.unwrap_or(-1)
                });
                n += 1;
            }
        }
        list.truncate(n);
        for i in 0..n {
            let mv = pick_best(list, keys, i);
            self.push(mv);
            let score = -self.quiesce(-beta, -alpha, ply + 1, qdepth + 1);
            self.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            key,
            best_move.map_or(0, V::move_signature),
            tt::score_to_table(best, ply),
            static_eval,
            0,
            bound,
        );
        best
    }
}

/// After how many moves the quiet moves left are pruned at `depth`.
fn late_move_count(depth: i32, improving: bool) -> usize {
    ((4 + depth * depth) * (1 + i32::from(improving)) / 2) as usize
}

/// How many plies a late quiet move is reduced by, growing with the
/// logarithms of the depth and of the move's place in the order.
fn late_move_reduction(depth: i32, searched: usize) -> i32 {
    static TABLE: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        t
    });
    i32::from(TABLE[(depth as usize).min(63)][searched.min(63)])
}

fn internal(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -(MATE - 2 * -n),
    }
}

/// Selection sort, one step: moves the move with the highest key among
/// `list[i..]` to `list[i]` (with its key) and returns it.
fn pick_best<M: Copy>(list: &mut [M], keys: &mut [i32], i: usize) -> M {
    let mut j = i;
    for k in i + 1..list.len() {
        if keys[k] > keys[j] {
            j = k;
        }
    }
    list.swap(i, j);
    keys.swap(i, j);
    list[i]
}

#[cfg(test)]
mod tests;
