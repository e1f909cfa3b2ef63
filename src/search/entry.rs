//! Starting a search: the entry points (a position, a kept table, a
//! choice among root moves), the helper threads of Lazy SMP, and a table
//! no bigger than the search can fill.

use std::sync::atomic::Ordering;

use super::searcher::Searcher;
use super::{tt, Control, Evaluate, Limits, Progress, SearchResult, Table};
use crate::variants::Game;

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
/// learned helps the next (the table's entries, and the main thread's
/// move-ordering histories, kept with the table).
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
        let mut s = Searcher::<V>::new(game, limits, control, table, table.take_kept());
        let result = s.run(&root_moves, progress);
        s.keep_histories();
        return Some(result);
    }
    let helper_control = Control::default();
    let helper_limits = helper_limits(limits);
    let (mut result, helper_nodes) = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=helpers)
            .map(|i| {
                let (control, limits, root_moves) = (&helper_control, &helper_limits, &root_moves);
                scope.spawn(move || {
                    let mut s = Searcher::<V>::new(game, limits, control, table, None);
                    s.first_depth = 1 + (i as u32 % 2);
                    s.run(root_moves, None).nodes
                })
            })
            .collect();
        let mut main = Searcher::<V>::new(game, limits, control, table, table.take_kept());
        let result = main.run(&root_moves, progress);
        main.keep_histories();
        helper_control.stop.store(true, Ordering::Relaxed);
        let helper_nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (result, helper_nodes)
    });
    result.nodes += helper_nodes;
    Some(result)
}

/// What a helper thread searches with: no limits of its own (the main
/// thread stops it), one line, and the main thread's evaluation.
pub(super) fn helper_limits(limits: &Limits) -> Limits {
    Limits {
        multipv: 1,
        network: limits.network.clone(),
        tablebases: limits.tablebases,
        ..Limits::default()
    }
}

/// Table entries in `mb` MiB: a table of that many entries takes `mb`
/// MiB ([`tt::ENTRY_BYTES`] each; a power of two of them when `mb` is one).
pub fn table_entries(mb: usize) -> usize {
    mb.saturating_mul(1 << 20) / tt::ENTRY_BYTES
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
