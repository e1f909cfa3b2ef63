//! A game's review: every position searched, each move weighed by the
//! win chances it gave away ([`super::wdl`]), classed, and each side's
//! accuracy (`POST …/review`; thresholds and formula in `docs/engine.md`).

use super::{search_with_table, Control, Evaluate, Limits, Score};
use crate::variants::{Color, Game};

mod class;
pub use class::*;

/// Win-percentage points of doubt from which the first pass's judgment of
/// a ply is searched again: the move lost this much by the first pass, or
/// the opponent's reply seemed to gain this much (a swing: the position
/// after the move was misjudged).
pub const DOUBT: f64 = 4.0;

/// Positions searched one after another with one table, in the first
/// pass: a fixed split of the game, so that the answer does not depend on
/// how many workers share the chunks. A chunk is searched backward, from
/// its last position to its first (as blunder checks do): the position
/// after a move is searched before the position before it, whose search
/// then finds what the played move leads to in the table.
const CHUNK: usize = 4;

/// The first pass's nodes a position by default: the 30,000 of the
/// figures in `docs/engine.md` counted the way the search counts them now
/// (each position once; the figures counted a horizon position twice).
pub const DEFAULT_NODES: u64 = 23_000;
/// How much more a doubtful ply's positions get in the second pass, in
/// nodes or time.
pub const VERIFY_FACTOR: u64 = 10;
/// How much deeper, in plies, when the budget is a depth.
pub const VERIFY_DEPTH: u32 = 4;
/// How much more again the third pass gives a ply that verification left
/// in doubt, in nodes or time.
pub const DEEP_FACTOR: u64 = 4;
/// How much deeper again, in plies, when the budget is a depth.
pub const DEEP_DEPTH: u32 = 2;

/// The most positions of a game of `positions` searched a second time: a
/// third of them, at least 16.
pub fn verify_positions(positions: usize) -> usize {
    (positions / 3).max(16)
}

/// The most positions of a game of `positions` searched a third time: one
/// in 25, at least 4.
pub fn deep_positions(positions: usize) -> usize {
    (positions / 25).max(4)
}

/// Which of the review's passes judged a position: each searches deeper
/// than the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pass {
    /// The first search of every position.
    First,
    /// The second, of a doubtful ply's positions.
    Verify,
    /// The third, of a ply still in doubt after the second.
    Deep,
}

/// What a review searches with.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Each position's first search.
    pub first: Limits,
    /// The second, deeper search of a doubtful ply's positions.
    pub verify: Limits,
    /// The most positions searched a second time.
    pub verify_positions: usize,
    /// The third, deeper again, of a ply the second left in doubt.
    pub deep: Limits,
    /// The most positions searched a third time.
    pub deep_positions: usize,
    /// Searches running at once (each on one thread).
    pub workers: usize,
    /// Transposition table entries of each worker, at most.
    pub table_entries: usize,
    /// When the whole review must stop (the server's bound): the first
    /// pass is then cut short, and verification ends.
    pub deadline: Option<std::time::Instant>,
}

impl Budget {
    /// The budget in nodes, `nodes` a position first,
    /// [`VERIFY_FACTOR`] times as many to verify and [`DEEP_FACTOR`] times
    /// that for the third pass, for a game of
    /// `positions`, with the variant's own evaluation (`network`), no time
    /// bound.
    pub fn in_nodes(
        nodes: u64,
        positions: usize,
        workers: usize,
        network: Option<std::sync::Arc<super::Network>>,
    ) -> Budget {
        let limits = |nodes: u64| Limits {
            nodes: Some(nodes),
            multipv: 1,
            threads: 1,
            network: network.clone(),
            ..Limits::default()
        };
        Budget {
            first: limits(nodes),
            verify: limits(nodes.saturating_mul(VERIFY_FACTOR)),
            verify_positions: verify_positions(positions),
            deep: limits(nodes.saturating_mul(VERIFY_FACTOR * DEEP_FACTOR)),
            deep_positions: deep_positions(positions),
            workers,
            table_entries: super::table_entries(16),
            deadline: None,
        }
    }
}

/// A finished review.
#[derive(Clone, Debug)]
pub struct Reviewed<M> {
    /// The plies reviewed, in order.
    pub plies: Vec<PlyReview<M>>,
    /// False when the first pass did not reach the last ply (stopped, or
    /// the time bound ran out).
    pub complete: bool,
    /// Whether the time bound ran out (the first pass cut short, or the
    /// second ended early): the review then depends on the clock.
    pub timed_out: bool,
}

/// A position's judgment: its search, or the game's end.
#[derive(Clone, Debug)]
enum Judged<M> {
    Searched {
        best: M,
        /// Other moves exactly as good as `best` (the tables know them;
        /// a search does not).
        equals: Vec<M>,
        score: Score,
        line: Vec<M>,
        /// The pass that searched it (the tables' judgment counts as the
        /// last: no search improves on it).
        pass: Pass,
    },
    Ended {
        winner: Option<Color>,
    },
}

impl<M> Judged<M> {
    /// The deepest pass this judgment stands for.
    fn pass(&self) -> Pass {
        match self {
            Judged::Searched { pass, .. } => *pass,
            Judged::Ended { .. } => Pass::Deep,
        }
    }
}

/// Reviews the first `plies` moves of `game` from its start (a record may
/// go on past a repetition ruling, or past the game's end, which is not
/// reviewed).
///
/// Three passes: every position is searched under `budget.first` (chunks
/// of [`CHUNK`] positions with a table each, each chunk backward, on
/// `budget.workers` threads); then the plies in doubt (see [`DOUBT`]), the
/// most doubtful first, have their two positions searched again under
/// `budget.verify` (the position after the move first), round after
/// round, until none is left in doubt or `budget.verify_positions` is
/// spent; then the plies still in doubt the same way under `budget.deep`,
/// until `budget.deep_positions` is spent. Every search has a table of its
/// own sequence and runs on one thread, so that, under limits in nodes or depth, the same game gives
/// the same review. `on_ply` is told of each ply once the first pass has
/// it, in order, and again when verification changes it. Stops early, with
/// what is done, when `control` is told to stop.
pub fn review<V: Evaluate>(
    game: &Game<V>,
    plies: usize,
    budget: &Budget,
    control: &Control,
    on_ply: &mut dyn FnMut(&PlyReview<V::Move>),
) -> Reviewed<V::Move> {
    let n = plies.min(game.moves().len());
    let mut judged: Vec<Option<Judged<V::Move>>> = vec![None; n + 1];
    if n == game.moves().len() {
        if let Some(v) = game.outcome().verdict() {
            judged[n] = Some(Judged::Ended { winner: v.winner });
        }
    }
    if budget.first.tablebases {
        // Positions inside the endgame tables are judged by them, exactly.
        for (i, slot) in judged.iter_mut().enumerate() {
            if slot.is_none() {
                *slot = from_tables(&game.positions()[i], game.rules());
            }
        }
    }
    let total = std::sync::atomic::AtomicU64::new(0);
    let past = || {
        control.stop.load(std::sync::atomic::Ordering::Relaxed)
            || budget
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
    };

    // The first pass, chunk by chunk; plies told in order as they are ready.
    let chunks: Vec<Vec<usize>> = (0..=n)
        .filter(|&i| judged[i].is_none())
        .collect::<Vec<_>>()
        .chunks(CHUNK)
        .map(|c| c.iter().rev().copied().collect())
        .collect();
    let mut told = 0;
    run_jobs(
        game,
        &chunks,
        Pass::First,
        budget,
        control,
        &total,
        &past,
        |i, j| {
            judged[i] = Some(j);
            while told < n && judged[told].is_some() && judged[told + 1].is_some() {
                told += 1;
                if let Some(p) = ply_review(game, &judged, told) {
                    on_ply(&p);
                }
            }
        },
    );
    let complete = judged.iter().all(Option::is_some);
    let reviewed = judged
        .iter()
        .take_while(|j| j.is_some())
        .count()
        .saturating_sub(1);

    // Verification, then the third pass, while there is doubt and budget.
    if complete {
        for (pass, positions) in [
            (Pass::Verify, budget.verify_positions),
            (Pass::Deep, budget.deep_positions),
        ] {
            deepen(
                game,
                &mut judged,
                pass,
                positions,
                budget,
                control,
                &total,
                &past,
                &mut *on_ply,
            );
        }
    }
    control.nodes.store(
        total.load(std::sync::atomic::Ordering::Relaxed),
        std::sync::atomic::Ordering::Relaxed,
    );
    Reviewed {
        plies: (1..=reviewed)
            .filter_map(|k| ply_review(game, &judged, k))
            .collect(),
        complete,
        timed_out: budget
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d),
    }
}

/// One pass after the first: while `positions` last and time is left,
/// the plies in doubt (see [`DOUBT`]) that `pass` has not yet searched
/// (in the third pass, those not already marked a mistake or worse),
/// the most doubtful first, have their two positions searched under
/// `pass`'s limits (the position after the move first), round after round.
/// A ply is told again when one of its positions was searched again.
#[allow(clippy::too_many_arguments)]
fn deepen<V: Evaluate>(
    game: &Game<V>,
    judged: &mut [Option<Judged<V::Move>>],
    pass: Pass,
    positions: usize,
    budget: &Budget,
    control: &Control,
    total: &std::sync::atomic::AtomicU64,
    past: &(dyn Fn() -> bool + Sync),
    on_ply: &mut dyn FnMut(&PlyReview<V::Move>),
) {
    let n = judged.len() - 1;
    let open = |j: &Option<Judged<V::Move>>| j.as_ref().is_some_and(|j| j.pass() < pass);
    let mut left = positions;
    while left > 0 && !past() {
        let current: Vec<_> = (1..=n)
            .filter_map(|k| ply_review(game, judged, k))
            .collect();
        let mut doubtful: Vec<(f64, usize)> = current
            .iter()
            .enumerate()
            .filter(|(_, p)| open(&judged[p.ply - 1]) || open(&judged[p.ply]))
            // The third pass is for the moves still in doubt but unmarked:
            // a mistake the second pass confirmed is not searched again.
            .filter(|(_, p)| pass == Pass::Verify || !p.class.is_mistake_or_worse())
            .map(|(i, p)| {
                let loss = p.expected_before - p.expected_after;
                let swing = current
                    .get(i + 1)
                    .map_or(0.0, |r| r.expected_after - r.expected_before);
                (loss.max(swing), p.ply)
            })
            .filter(|&(doubt, _)| doubt >= DOUBT)
            .collect();
        if doubtful.is_empty() {
            break;
        }
        doubtful.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut jobs: Vec<Vec<usize>> = Vec::new();
        let mut taken = std::collections::BTreeSet::new();
        for &(_, k) in &doubtful {
            if jobs.len() == budget.workers.max(1) * 2 || left == 0 {
                break;
            }
            let job: Vec<usize> = [k, k - 1]
                .into_iter()
                .filter(|&i| open(&judged[i]) && !taken.contains(&i))
                .take(left)
                .collect();
            left -= job.len();
            taken.extend(job.iter().copied());
            if !job.is_empty() {
                jobs.push(job);
            }
        }
        if jobs.is_empty() {
            break;
        }
        run_jobs(game, &jobs, pass, budget, control, total, past, |i, j| {
            judged[i] = Some(j);
        });
        let mut again: Vec<usize> = taken.iter().flat_map(|&i| [i, i + 1]).collect();
        again.sort_unstable();
        again.dedup();
        for k in again.into_iter().filter(|&k| (1..=n).contains(&k)) {
            if let Some(p) = ply_review(game, judged, k) {
                on_ply(&p);
            }
        }
    }
}

/// The endgame tables' judgment of a position, when they hold it and the
/// rules cannot change what they say: their best move, exact score and
/// line, settled (no search can improve on it).
fn from_tables<V: Evaluate>(pos: &V, rules: &V::Rules) -> Option<Judged<V::Move>> {
    let entry = pos.probe_under(rules)?;
    let score = Score::from_internal(super::table_value(entry, 0)?);
    let probed = pos.probe_tables()?;
    let equals = probed
        .moves
        .iter()
        .skip(1)
        .take_while(|m| m.entry == probed.moves[0].entry)
        .map(|m| m.mv)
        .collect();
    let line = pos.table_line(BEST_LINE_PLIES);
    Some(Judged::Searched {
        best: *line.first()?,
        equals,
        score,
        line,
        pass: Pass::Deep,
    })
}

/// Runs `jobs` (each a list of positions, by index, searched in order
/// with one fresh table, which also carries the move-ordering histories
/// from one search of the job to the next) on `budget.workers` threads
/// under the limits of `pass` (`budget.first`, `verify` or `deep`); `done`
/// is told of each position's judgment on the calling thread. A job whose turn
/// comes after `past()` is skipped.
#[allow(clippy::too_many_arguments)]
fn run_jobs<V: Evaluate>(
    game: &Game<V>,
    jobs: &[Vec<usize>],
    pass: Pass,
    budget: &Budget,
    control: &Control,
    total: &std::sync::atomic::AtomicU64,
    past: &(dyn Fn() -> bool + Sync),
    mut done: impl FnMut(usize, Judged<V::Move>),
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let limits = Limits {
        threads: 1,
        multipv: 1,
        ..match pass {
            Pass::First => &budget.first,
            Pass::Verify => &budget.verify,
            Pass::Deep => &budget.deep,
        }
        .clone()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..budget.workers.clamp(1, jobs.len().max(1)) {
            let (tx, next, limits) = (tx.clone(), &next, &limits);
            scope.spawn(move || loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(j) else { break };
                if past() {
                    break;
                }
                let table = super::table_for(limits, budget.table_entries);
                // The game is replayed once a job, up to its first position
                // (a job may run backward); each position's game is that
                // prefix played on by the few moves of the job.
                let mut base = Game::new(game.positions()[0].clone(), game.rules().clone());
                let replay = |g: &mut Game<V>, to: usize| {
                    while g.moves().len() < to {
                        g.play(game.moves()[g.moves().len()]);
                    }
                };
                replay(&mut base, job.iter().copied().min().unwrap_or(0));
                for &i in job {
                    if past() {
                        break;
                    }
                    let mut prefix = base.clone();
                    replay(&mut prefix, i);
                    let own = Control {
                        stop: control.stop.clone(),
                        nodes: Default::default(),
                    };
                    let Some(r) = search_with_table(&prefix, limits, &own, &table, None) else {
                        break;
                    };
                    total.fetch_add(r.nodes, Ordering::Relaxed);
                    let line = r.lines.first().map(|l| l.moves.clone()).unwrap_or_default();
                    let judged = Judged::Searched {
                        best: r.best_move,
                        equals: Vec::new(),
                        score: r.lines.first().map_or(Score::Cp(0), |l| l.score),
                        line,
                        pass,
                    };
                    if tx.send((i, judged)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for (i, j) in rx {
            done(i, j);
        }
    });
}

/// Ply `k` (from 1) as the judgments of its two positions give it, once
/// both are there.
fn ply_review<V: Evaluate>(
    game: &Game<V>,
    judged: &[Option<Judged<V::Move>>],
    k: usize,
) -> Option<PlyReview<V::Move>> {
    let Some(Judged::Searched {
        best,
        equals,
        score: before,
        line,
        pass: before_pass,
    }) = &judged[k - 1]
    else {
        return None;
    };
    let after = judged.get(k)?.as_ref()?;
    let pos = &game.positions()[k - 1];
    let mover = pos.side_to_move();
    let mv = game.moves()[k - 1];
    let wdl_before = V::WDL.wdl(*before, pos.material());
    let expected_before = 100.0 * wdl_before.expected();
    let (score_after, ended, expected_after) = match after {
        Judged::Ended { winner } => match winner {
            Some(w) if *w == mover => (Score::Mate(0), Some(Ending::Win), 100.0),
            Some(_) => (Score::Mate(0), Some(Ending::Loss), 0.0),
            None => (Score::Cp(0), Some(Ending::Draw), 50.0),
        },
        Judged::Searched { score, .. } => {
            let s = negate(*score);
            let e = 100.0 * V::WDL.wdl(s, game.positions()[k].material()).expected();
            (s, None, e)
        }
    };
    // A move the tables rank with the best is the best (and shown as it).
    let is_best = mv == *best || equals.contains(&mv);
    let best = if is_best { &mv } else { best };
    let class = classify(is_best, expected_before, expected_after);
    let marked = !matches!(class, MoveClass::Best | MoveClass::Good);
    Some(PlyReview {
        ply: k,
        mover,
        mv,
        best: *best,
        best_line: if marked {
            line.iter().take(BEST_LINE_PLIES).copied().collect()
        } else {
            Vec::new()
        },
        score_before: *before,
        score_after,
        ended,
        wdl_before,
        expected_before,
        expected_after,
        win_loss: if is_best {
            0.0
        } else {
            (expected_before - expected_after).max(0.0)
        },
        class,
        verified: *before_pass >= Pass::Verify && after.pass() >= Pass::Verify,
    })
}

/// A score from the other side's view.
fn negate(s: Score) -> Score {
    match s {
        Score::Cp(v) => Score::Cp(-v),
        Score::Mate(n) => Score::Mate(-n),
    }
}

#[cfg(test)]
mod tests;
