//! The tree: alpha-beta with principal variation search, pruning,
//! reductions and extensions (the quiescence search is in `quiesce`).

use super::params::*;
use super::searcher::{pick_best, Searcher};
use super::tt::Bound;
use super::*;
use crate::variants::Repeats;

impl<'a, V: Evaluate> Searcher<'a, V> {
    pub(super) fn node(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
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
        if ply > 0 && self.skipped[ply].is_none() {
            // Inside the endgame tables the result is known exactly (at
            // the horizon too: a capture into a table ending is resolved).
            if let Some(score) = self.table_score(ply) {
                return score;
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
                if let Some(score) = settled(&e, ply, alpha, beta) {
                    return score;
                }
            }
        }
        // What can settle the node before its moves are listed (every
        // early return first makes sure that the side to move has a legal
        // move: without one, the verdict comes first).
        let mut alpha = alpha;
        let mut beta = beta;
        let mut depth = depth;
        if ply > 0 {
            // Mate-distance pruning.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return self.unless_no_move(ply, alpha);
            }
        }
        let in_check = self.in_check();
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
        // it a ply shallower (the table will have a move next time). (The
        // table's entry is this position's: its move is a legal one.)
        if entry.is_none_or(|e| e.mv == 0) && depth >= 4 {
            depth -= 1;
        }

        // Reverse futility: far above beta near the leaves, a quiet position
        // will not fall below it.
        if !pv_node
            && !in_check
            && ply > 0
            && depth <= REVERSE_FUTILITY.depth
            && beta.abs() < MATE_BOUND
            && eval - REVERSE_FUTILITY.per_ply * (depth - i32::from(improving)) >= beta
        {
            return self.unless_no_move(ply, eval);
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
                if let Some(verdict) = self.no_move_verdict(ply) {
                    return verdict;
                }
                let r = 2 + depth / 4;
                self.slots[ply + 2] = NO_SLOT;
                // The move that led here stands for the pass in the path
                // (a barrier: nothing reads it as played).
                let placeholder = *self
                    .moves
                    .last()
                    .expect("a move led to a node past the root");
                self.push_null(child, placeholder);
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
        let prelude = Prelude {
            depth,
            alpha,
            beta,
            entry,
            in_check,
            static_eval,
            eval,
            improving,
        };
        self.with_moves(
            ply,
            |pos, list| pos.legal_moves(list),
            |s, list, keys| s.node_with_moves(&prelude, ply, pv_node, list, keys),
        )
    }

    /// `score`, unless the side to move has no legal move: then the rules'
    /// verdict on that.
    fn unless_no_move(&mut self, ply: usize, score: i32) -> i32 {
        self.no_move_verdict(ply).unwrap_or(score)
    }

    /// The rules' verdict when the side to move has no legal move (asked
    /// before a node returns without listing its moves).
    fn no_move_verdict(&mut self, ply: usize) -> Option<i32> {
        let here = self.path.last().expect("the path holds the root");
        if here.has_legal_move(&mut self.lists[ply]) {
            None
        } else {
            Some(self.ended(false, &Repeats::None, ply).unwrap_or(0))
        }
    }

    /// Runs `work` with the ply's move list (filled by `fill`) and key
    /// buffer, which are lent out and put back so that no node allocates.
    pub(super) fn with_moves(
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

    pub(super) fn node_with_moves(
        &mut self,
        prelude: &Prelude,
        ply: usize,
        pv_node: bool,
        list: &mut [V::Move],
        keys: &mut Vec<i32>,
    ) -> i32 {
        if list.is_empty() {
            return self.ended(false, &Repeats::None, ply).unwrap_or(0);
        }
        let Prelude {
            depth,
            mut alpha,
            beta,
            entry,
            in_check,
            static_eval,
            eval,
            improving,
        } = *prelude;
        let singular_search = self.skipped[ply].is_some();
        let key = self.hashes[self.path.len() - 1];
        let tt_move = entry
            .filter(|e| e.mv != 0)
            .and_then(|e| list.iter().copied().find(|&m| V::move_signature(m) == e.mv));

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
                let v = v + self.capture_score(mv) / CAPTURE_HISTORY_DIVISOR;
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
                LATE_QUIET_BELOW
            } else {
                self.quiet_score(side, mv, prev1, prev2)
            };
            keys.push(k);
        }

        self.quiets[ply].clear();
        self.captures_tried[ply].clear();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        // The moves still to be picked are `list[i..len]`: the tail of late
        // quiet moves is dropped at once when pruning starts (below).
        let mut len = list.len();
        let mut dropped = false;
        let mut next = 0;
        while next < len {
            let i = next;
            next += 1;
            let mv = pick_best(&mut list[..len], &mut keys[..len], i);
            if (ply == 0
                && (self.excluded.contains(&mv)
                    || (!self.root_only.is_empty() && !self.root_only.contains(&mv))))
                || self.skipped[ply] == Some(mv)
            {
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
            let late_quiet = quiet && keys[i] < LATE_QUIET_BELOW;
            // Late-move and futility pruning of quiet moves near the leaves
            // (never of a move that gives check, asked before the move is
            // made): after enough moves, or when even a good gain at the
            // depth the move would be reduced to leaves the evaluation
            // below alpha.
            if late_quiet && searched > 0 && !pv_node && !in_check && best > -MATE_BOUND {
                let lmr_depth = (depth - 1 - late_move_reduction(depth, searched)).max(0);
                let late = depth <= LATE_MOVE_PRUNING_DEPTH
                    && searched >= late_move_count(depth, improving);
                let futile = lmr_depth < FUTILITY.depth
                    && eval + FUTILITY.base + FUTILITY.per_ply * lmr_depth <= alpha;
                if (late || futile) && !self.pos().gives_check(mv) {
                    // Both stay true for the rest of this node (outside a
                    // PV node alpha moves only to cut off; `searched` only
                    // grows, and with it the reduction), so every late
                    // quiet move still to come that gives no check would
                    // be pruned too: drop them now rather than pick each.
                    if !dropped {
                        dropped = true;
                        len = i
                            + 1
                            + self.keep_unprunable(&mut list[i + 1..len], &mut keys[i + 1..len]);
                    }
                    continue;
                }
            }
            // Near the leaves, a move that loses material by the exchanges
            // on its destination is not searched (a capture that loses more
            // than a minor piece a ply, a quiet move that loses its piece).
            if searched > 0
                && !pv_node
                && !in_check
                && depth <= SEE_PRUNING.depth
                && best > -MATE_BOUND
                && keys[i] < LATE_QUIET_BELOW
                && !self.pos().see_ge(mv, SEE_PRUNING.threshold(quiet, depth))
            {
                continue;
            }
            let slot = self.pos().piece_slot(mv);
            self.slots[ply + 2] = slot;
            self.push(mv);
            let gives_check = self.in_check();
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
            } else {
                self.captures_tried[ply].push(mv);
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
                        self.stats.cutoffs += 1;
                        self.stats.first_move_cutoffs += u64::from(searched == 1);
                        if quiet {
                            self.reward_quiet(ply, depth, side, mv, prev1, prev2);
                        }
                        self.reward_captures(ply, depth, (!quiet).then_some(mv));
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
            let window = (original_alpha, beta);
            self.store(key, best, window, best_move, ply, static_eval, depth);
        }
        best
    }

    /// Keeps, in order, the moves of `list` (with their `keys`) that
    /// late-move and futility pruning cannot drop: all but the late quiet
    /// moves that give no check. Returns how many are kept.
    fn keep_unprunable(&self, list: &mut [V::Move], keys: &mut [i32]) -> usize {
        let mut kept = 0;
        for k in 0..list.len() {
            let mv = list[k];
            let late_quiet = keys[k] < LATE_QUIET_BELOW && self.pos().capture_value(mv).is_none();
            if !late_quiet || self.pos().gives_check(mv) {
                list[kept] = mv;
                keys[kept] = keys[k];
                kept += 1;
            }
        }
        kept
    }

    /// Keeps a node's result in the table: `best` with its bound (where it
    /// fell against the `(alpha, beta)` window the node was searched with)
    /// and the best move's signature.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn store(
        &self,
        key: u64,
        best: i32,
        (alpha, beta): (i32, i32),
        best_move: Option<V::Move>,
        ply: usize,
        static_eval: i32,
        depth: i32,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
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
}

/// What a node found before listing its moves, for the search of them.
#[derive(Clone, Copy)]
pub(super) struct Prelude {
    /// The depth left (less the internal iterative reduction).
    depth: i32,
    /// The window, narrowed by the mate distance.
    alpha: i32,
    beta: i32,
    /// The table's entry for the position.
    entry: Option<tt::Entry>,
    in_check: bool,
    /// The static evaluation (`NO_EVAL` in check).
    static_eval: i32,
    /// The value pruning decisions use.
    eval: i32,
    /// Better for the side to move than two plies before.
    improving: bool,
}

/// The stored score of `e`, when its bound settles a node searched with the
/// window `(alpha, beta)`.
#[inline]
pub(super) fn settled(e: &tt::Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let score = tt::score_from_table(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    cut.then_some(score)
}
