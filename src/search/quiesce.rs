//! The quiescence search: captures (in check near the horizon, every
//! evasion) until the position is quiet, after the side to move may stand pat.

use super::nodes::settled;
use super::params::*;
use super::searcher::{pick_best, Searcher};
use super::*;
use crate::variants::Repeats;

impl<'a, V: Evaluate> Searcher<'a, V> {
    pub(super) fn quiesce(&mut self, alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        // At `qdepth` 0 the main search has entered (and counted) this
        // position already: a position is counted once.
        if qdepth > 0 {
            self.count_node();
        }
        self.stats.quiescence_nodes += 1;
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        if let Some(score) = self.ended(true, &Repeats::None, ply) {
            return score;
        }
        // Any stored result settles a quiescence node if its bound allows.
        let entry = self.table.probe(self.hashes[self.path.len() - 1]);
        if let Some(score) = entry.and_then(|e| settled(&e, ply, alpha, beta)) {
            return score;
        }
        // In check (near the horizon), every evasion, so that mates are seen;
        // otherwise captures only, after the side to move may stand pat
        // (before any move is generated: most quiescence nodes end there).
        let evasions = qdepth < 3 && self.in_check();
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
    pub(super) fn quiesce_with_moves(
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
        // Deep in the quiescence search, only captures that win material:
        // even trades open one after another would make the tree explode.
        let threshold = i32::from(qdepth >= QUIESCENCE_TRADES_DEPTH);
        for i in 0..list.len() {
            let mv = list[i];
            let value = self.pos().capture_value(mv);
            if evasions || (value.is_some() && self.pos().see_ge(mv, threshold)) {
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
        let window = (original_alpha, beta);
        self.store(key, best, window, best_move, ply, static_eval, 0);
        best
    }
}
