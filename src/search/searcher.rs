//! The search's state and its driver: iterative deepening with aspiration
//! windows, the path of positions, repetitions and verdicts at a node.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::params::*;
use super::*;
use crate::tablebase::{Distance, Entry};
use crate::variants::{Played, Repeats, Verdict};

pub(super) struct Searcher<'a, V: Evaluate> {
    pub(super) rules: &'a V::Rules,
    /// The game's positions, then the search's, one per ply.
    pub(super) path: Vec<V>,
    /// `moves[i]` leads from `path[i]` to `path[i + 1]`.
    pub(super) moves: Vec<V::Move>,
    pub(super) hashes: Vec<u64>,
    /// Whether the side to move is in check in each position of `path`,
    /// once asked (the parent asks whether its move gives check, the child
    /// whether it must evade: one answer for both).
    pub(super) checks: Vec<Option<bool>>,
    /// Indices in `path` of positions reached by a null move: repetitions
    /// are not looked for across them.
    pub(super) barriers: Vec<usize>,
    pub(super) table: &'a Table,
    pub(super) killers: Vec<[Option<V::Move>; 2]>,
    /// Quiet moves' success by side, from and to (with gravity: bounded by
    /// `HISTORY_LIMIT`).
    pub(super) history: Vec<i32>,
    /// The quiet reply that last refuted a move, by that move's piece slot.
    pub(super) counters: Vec<Option<V::Move>>,
    /// Quiet moves' success after a given move one or two plies before, by
    /// the two moves' piece slots.
    pub(super) continuation: Vec<i16>,
    /// The piece slot of the move played at each ply of the search (index
    /// `ply + 2`; `NO_SLOT` for the root's past and null moves).
    pub(super) slots: Vec<usize>,
    /// Captures' success by the moving piece and its destination (the
    /// piece slot), with gravity: orders captures of equal promise.
    pub(super) capture_history: Vec<i16>,
    /// The quiet moves searched at each ply, for the history's malus.
    pub(super) quiets: Vec<Vec<V::Move>>,
    /// The captures searched at each ply, for the capture history's malus.
    pub(super) captures_tried: Vec<Vec<V::Move>>,
    /// The static evaluation at each ply of the search (`NO_EVAL` in check).
    pub(super) evals: Vec<i32>,
    pub(super) pv: Vec<Vec<V::Move>>,
    pub(super) lists: Vec<Vec<V::Move>>,
    pub(super) keys: Vec<Vec<i32>>,
    pub(super) nodes: u64,
    /// Where the nodes went.
    pub(super) stats: SearchStats,
    pub(super) start: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) optimum: Option<Duration>,
    pub(super) node_limit: Option<u64>,
    /// The score of the best root move found so far in this iteration.
    pub(super) root_score: i32,
    pub(super) max_depth: u32,
    pub(super) multipv: usize,
    pub(super) control: &'a Control,
    pub(super) stopped: bool,
    /// Limits other than an outside stop apply only once an iteration is done.
    pub(super) may_stop: bool,
    /// The move left out at each ply by a singular-extension search.
    pub(super) skipped: Vec<Option<V::Move>>,
    /// The first iteration's depth (helper threads start deeper).
    pub(super) first_depth: u32,
    /// The network, when the search evaluates with one.
    pub(super) network: Option<Arc<Network>>,
    /// The network's frame of each ply of the search (index: ply, the root
    /// 0), computed when a position is evaluated, from the last one
    /// computed on its path: a child that is never evaluated (a move
    /// pruned once made, a node the table settles) costs no update.
    pub(super) frames: Vec<V::Frame>,
    /// `frames[..=ready]` are those of the current path's positions.
    pub(super) ready: usize,
    /// The index in `path` of the root.
    pub(super) root: usize,
    /// Root moves left out while the second and later lines are searched.
    pub(super) excluded: Vec<V::Move>,
    /// The root moves to choose among, when not every legal move
    /// (`searchmoves`); empty: every legal move.
    pub(super) root_only: Vec<V::Move>,
    /// Whether nodes inside the endgame tables take the tables' result.
    pub(super) tablebases: bool,
}

/// The histories one search leaves for the next on the same table (a game
/// played move by move: a UCI session, a match), as Stockfish keeps its
/// own from one move to the next: the quiet moves' history, the
/// counter-moves and the continuation histories. Killers are the search's
/// own (they belong to plies of one tree).
pub(super) struct Histories<M> {
    pub(super) history: Vec<i32>,
    pub(super) counters: Vec<Option<M>>,
    pub(super) continuation: Vec<i16>,
    pub(super) captures: Vec<i16>,
}

impl<M: Copy> Histories<M> {
    /// Empty histories for a variant with these numbers of slots.
    pub(super) fn new(move_slots: usize, piece_slots: usize) -> Histories<M> {
        Histories {
            history: vec![0; move_slots * 2],
            counters: vec![None; piece_slots],
            continuation: vec![0; piece_slots * piece_slots],
            captures: vec![0; piece_slots],
        }
    }
}

impl<'a, V: Evaluate> Searcher<'a, V> {
    /// A search of `game`'s current position, starting from `histories`
    /// (those an earlier search kept) or from empty ones.
    pub(super) fn new(
        game: &'a Game<V>,
        limits: &Limits,
        control: &'a Control,
        table: &'a Table,
        histories: Option<Histories<V::Move>>,
    ) -> Searcher<'a, V> {
        let start = Instant::now();
        let path: Vec<V> = game.positions().to_vec();
        let hashes = path.iter().map(|p| p.hash_key()).collect();
        let checks = vec![None; path.len()];
        let network = limits.network.clone().filter(|_| V::HAS_NETWORK);
        let kept = histories.unwrap_or_else(|| Histories::new(V::MOVE_SLOTS, V::PIECE_SLOTS));
        let mut frames = Vec::new();
        if let Some(net) = &network {
            frames = vec![V::Frame::default(); MAX_PLY + 4];
            game.current().refresh_frame(net, &mut frames[0]);
        }
        Searcher {
            rules: game.rules(),
            path,
            moves: game.moves().to_vec(),
            hashes,
            checks,
            barriers: Vec::new(),
            table,
            killers: vec![[None, None]; MAX_PLY + 2],
            history: kept.history,
            counters: kept.counters,
            continuation: kept.continuation,
            capture_history: kept.captures,
            slots: vec![NO_SLOT; MAX_PLY + 4],
            quiets: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            captures_tried: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(16)).collect(),
            evals: vec![tt::NO_EVAL; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            keys: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            nodes: 0,
            stats: SearchStats::default(),
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
            root_only: Vec::new(),
            first_depth: 1,
            tablebases: limits.tablebases,
            skipped: vec![None; MAX_PLY + 2],
            network,
            frames,
            ready: 0,
            root: game.positions().len() - 1,
        }
    }

    pub(super) fn run(
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
            stats: SearchStats::default(),
        };
        let wanted = self.multipv.min(root_moves.len());
        self.root_only.clear();
        let root = self.path.last().expect("a game has a position");
        if root_moves.len() < root.count_legal_moves(&mut Vec::new()) {
            self.root_only = root_moves.to_vec();
        }
        // Iterations since the best move last changed.
        let mut stable = 0u32;
        // The first line's score after each completed iteration.
        let mut scores: Vec<i32> = Vec::new();
        for depth in self.first_depth..=self.max_depth {
            let mut lines: Vec<Line<V::Move>> = Vec::new();
            self.excluded.clear();
            // The upper end of the root's last window.
            let mut window_beta = INFINITY;
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
                    window_beta = beta;
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
                // A complete iteration counts, and of the unfinished one
                // what it has searched to the end: with nothing else (an
                // outside stop during the first one), all of it; with one
                // line, the best line so far when a root move has beaten
                // the window's alpha: with a score inside the window it
                // was searched in full at this depth, and it is the answer
                // with this depth (Stockfish's and Pikafish's last `info
                // depth` names the unfinished iteration even when nothing
                // of it was searched; ours does not); with a score at or
                // above beta (a bound), only when its move is not the last
                // best, with the depth completed. With several lines,
                // those the unfinished iteration did complete (the best
                // first) come before the older lines of the other moves,
                // each with its own depth: a search's answer grows with
                // its nodes, not only with whole iterations.
                if result.lines.is_empty() && !lines.is_empty() {
                    result.best_move = lines[0].moves[0];
                    result.lines = lines;
                    result.depth = depth;
                } else if wanted > 1 && !lines.is_empty() {
                    let older = std::mem::take(&mut result.lines);
                    result.best_move = lines[0].moves[0];
                    for line in older {
                        if !lines.iter().any(|l| l.moves[0] == line.moves[0]) {
                            lines.push(line);
                        }
                    }
                    lines.truncate(wanted);
                    result.lines = lines;
                } else if wanted == 1 && lines.is_empty() && !self.pv[0].is_empty() {
                    if let Some(last) = result.lines.first_mut() {
                        let exact = self.root_score < window_beta;
                        if exact || self.pv[0][0] != last.moves[0] {
                            last.moves = self.pv[0].clone();
                            last.score = Score::from_internal(self.root_score);
                            result.best_move = last.moves[0];
                            if exact {
                                last.depth = depth;
                                result.depth = depth;
                            }
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
            scores.push(internal(lines[0].score));
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
            // later while it keeps changing, and later while the score
            // falls (a threat found late wants time to meet it).
            if let Some(optimum) = self.optimum {
                let percent = match stable {
                    0 => 150,
                    1 => 110,
                    2..=3 => 80,
                    _ => 55,
                };
                let percent = percent * falling_percent(&scores) / 100;
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
        result.stats = self.stats;
        self.control.nodes.store(self.nodes, Ordering::Relaxed);
        result
    }

    /// The static evaluation, kept clear of the scores of won games.
    #[inline]
    pub(super) fn eval(&mut self) -> i32 {
        self.sync_frames();
        let pos = self.pos();
        let v = match &self.network {
            Some(net) => pos.evaluate_frame(
                self.rules,
                net,
                &self.frames[self.path.len() - 1 - self.root],
            ),
            None => pos.evaluate(self.rules),
        };
        // In the unit tests, every frame made move by move is checked
        // against one computed from the position.
        #[cfg(test)]
        if let Some(net) = &self.network {
            let mut fresh = V::Frame::default();
            pos.refresh_frame(net, &mut fresh);
            assert_eq!(
                v,
                pos.evaluate_frame(self.rules, net, &fresh),
                "{}",
                pos.to_fen()
            );
        }
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Brings the frames up to the current position, each from its
    /// parent's (a pass, marked in `barriers`, changes only the turn).
    fn sync_frames(&mut self) {
        let Some(net) = &self.network else {
            return;
        };
        let ply = self.path.len() - 1 - self.root;
        while self.ready < ply {
            let k = self.ready;
            let at = self.root + k;
            let mv = (!self.barriers.contains(&(at + 1))).then(|| self.moves[at]);
            let (done, next) = self.frames.split_at_mut(k + 1);
            self.path[at].update_frame(net, mv, &done[k], &mut next[0]);
            self.ready += 1;
        }
    }

    #[inline]
    pub(super) fn pos(&self) -> &V {
        self.path.last().expect("the path holds the root")
    }

    /// Whether the side to move is in check (asked once a position).
    #[inline]
    pub(super) fn in_check(&mut self) -> bool {
        let last = self.checks.len() - 1;
        match self.checks[last] {
            Some(known) => known,
            None => {
                let known = self.pos().in_check();
                self.checks[last] = Some(known);
                known
            }
        }
    }

    pub(super) fn push(&mut self, mv: V::Move) {
        let mut child = self.pos().clone();
        child.make_move(mv);
        let key = child.hash_key();
        self.table.prefetch(key);
        self.hashes.push(key);
        self.checks.push(None);
        self.path.push(child);
        self.moves.push(mv);
    }

    pub(super) fn push_null(&mut self, child: V, placeholder: V::Move) {
        self.hashes.push(child.hash_key());
        self.checks.push(None);
        self.path.push(child);
        self.moves.push(placeholder);
        self.barriers.push(self.path.len() - 1);
    }

    pub(super) fn pop(&mut self) {
        let index = self.path.len() - 1;
        if self.barriers.last() == Some(&index) {
            self.barriers.pop();
        }
        self.path.pop();
        self.hashes.pop();
        self.checks.pop();
        self.moves.pop();
        self.ready = self.ready.min(self.path.len() - 1 - self.root);
    }

    /// Counts a node and decides whether to stop.
    #[inline]
    pub(super) fn count_node(&mut self) {
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
    pub(super) fn find_repetition(&self) -> Option<usize> {
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
    pub(super) fn verdict_score(&self, verdict: &Verdict, ply: usize) -> i32 {
        match verdict.winner {
            None => 0,
            Some(w) if w == self.pos().side_to_move() => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
        }
    }

    /// The variant's verdict on the current position, with what the search
    /// knows; a draw that may be claimed (fifty moves in Taxi chess) counts
    /// as a draw: the side it suits will claim it.
    pub(super) fn verdict(&self, has_legal_move: bool, repeats: &Repeats) -> Option<Verdict> {
        let played = Played {
            positions: &self.path,
            moves: &self.moves,
            rules: self.rules,
        };
        V::verdict(played, has_legal_move, repeats).or_else(|| {
            let claimable = V::claimable_draws(&self.path, 1);
            claimable.first().map(|&r| Verdict::draw(r))
        })
    }

    /// The endgame tables' score of the current position, `ply` plies from
    /// the root, when the tables hold it and the rules cannot change its
    /// result: a mate at its exact distance, a win the perpetual-check rule
    /// decides just below the mates, a draw 0 ([`table_value`]).
    pub(super) fn table_score(&self, ply: usize) -> Option<i32> {
        if !self.tablebases {
            return None;
        }
        let entry = self.pos().probe_under(self.rules)?;
        // The rules' own endings come first (a mate is in the tables too).
        if entry != Entry::Loss(Distance::Mate(0)) {
            if let Some(score) = self.ended(true, &Repeats::None, ply) {
                return Some(score);
            }
        }
        table_value(entry, ply)
    }

    /// The score where the game has ended (`has_legal_move` as known), if it has.
    pub(super) fn ended(&self, has_legal_move: bool, repeats: &Repeats, ply: usize) -> Option<i32> {
        self.verdict(has_legal_move, repeats)
            .map(|v| self.verdict_score(&v, ply))
    }
}

/// How much of the aimed time to use, in percent, after the first line's
/// score went through `scores` (one per completed iteration): more when it
/// fell over the last iteration and over the last three, up to 150 (100
/// while it holds or rises). Mate scores count as their bound, so that a
/// mate found against the mover counts as a large fall.
fn falling_percent(scores: &[i32]) -> u32 {
    let Some(&now) = scores.last() else {
        return 100;
    };
    let clamp = |s: i32| s.clamp(-MATE_BOUND, MATE_BOUND);
    let back = |n: usize| scores.len().checked_sub(n + 1).map_or(now, |i| scores[i]);
    let drop_one = clamp(back(1)) - clamp(now);
    let drop_three = clamp(back(3)) - clamp(now);
    (100 + drop_one.max(0) + drop_three.max(0) / 2).min(150) as u32
}

/// Selection sort, one step: moves the move with the highest key among
/// `list[i..]` to `list[i]` (with its key) and returns it. Stable: the
/// moves passed over keep their order (the first of equal keys comes
/// first), so the order of the moves is the keys' alone, and a pass that
/// drops some of the moves not yet picked leaves the others' order as it
/// was.
pub(super) fn pick_best<M: Copy>(list: &mut [M], keys: &mut [i32], i: usize) -> M {
    let mut j = i;
    for k in i + 1..list.len() {
        if keys[k] > keys[j] {
            j = k;
        }
    }
    if j != i {
        list[i..=j].rotate_right(1);
        keys[i..=j].rotate_right(1);
    }
    list[i]
}

#[cfg(test)]
mod tests {
    use super::falling_percent;
    use crate::search::MATE;

    #[test]
    fn a_falling_score_earns_more_time_and_a_rising_one_no_less() {
        assert_eq!(falling_percent(&[]), 100);
        assert_eq!(falling_percent(&[40]), 100);
        assert_eq!(falling_percent(&[40, 40, 40, 40]), 100);
        // 30 down over the last iteration and over the last three.
        assert_eq!(falling_percent(&[40, 40, 40, 10]), 145);
        // Down 20 over three iterations (10 more), up 10 over the last.
        assert_eq!(falling_percent(&[40, 30, 10, 20]), 110);
        assert_eq!(falling_percent(&[0, 0, 0, 25]), 100);
        // Bounded; a mate found against the mover counts in full.
        assert_eq!(falling_percent(&[50, 50, 50, -400]), 150);
        assert_eq!(falling_percent(&[0, 0, 0, -MATE + 10]), 150);
        assert_eq!(falling_percent(&[0, 0, 0, MATE - 10]), 100);
    }
}
