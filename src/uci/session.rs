//! A UCI session: its options as set so far, the position to replay on
//! `go`, the running search, and its transposition tables kept from one
//! `go` to the next.

use crate::dispatch::{Playable, Visitor};
use crate::search::level::{Level, ELO_ANCHOR};
use crate::search::{Control, Evaluate, Network, Table};
use crate::variants::{NotationName, Variant, VariantId};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread;

/// The most search threads the `Threads` option takes.
pub(super) const MAX_THREADS: usize = 256;

/// The session's transposition tables, one per variant, kept from one `go`
/// to the next until `ucinewgame`, a new `Hash` or other rules.
#[derive(Default)]
pub struct Tables(Mutex<HashMap<VariantId, Table>>);

impl Tables {
    pub(super) fn clear(&self) {
        self.0.lock().expect("table lock").clear();
    }

    /// Runs `work` with the table of variant `V`, made when first needed.
    pub(super) fn with<V: Evaluate, T>(&self, entries: usize, work: impl FnOnce(&Table) -> T) -> T {
        let mut tables = self.0.lock().expect("table lock");
        let table = tables.entry(V::ID).or_insert_with(|| Table::new(entries));
        work(table)
    }

    /// Makes the table of `variant` now if it has none (at `isready`, which
    /// no clock times), so that the first `go` of a game does not pay for
    /// it.
    pub(super) fn prepare(&self, variant: VariantId, entries: usize) {
        let mut tables = self.0.lock().expect("table lock");
        tables.entry(variant).or_insert_with(|| Table::new(entries));
    }
}

/// The notation of moves under UCI (or UCCI, when `ucci`): the variant's
/// notation named `ucci` or `uci` (Xiangqi: ICCS under UCCI, Fairy-Stockfish's
/// coordinates under UCI), else its default.
pub fn protocol_notation<V: Variant>(ucci: bool) -> V::Notation {
    let asked = if ucci {
        NotationName::Ucci
    } else {
        NotationName::Uci
    };
    V::notation(asked)
        .or_else(|| V::notation(NotationName::Uci))
        .unwrap_or_default()
}

pub(super) struct Session {
    pub(super) variant: VariantId,
    pub(super) ucci: bool,
    pub(super) hash_mb: usize,
    pub(super) multipv: usize,
    /// Search threads (the `Threads` option).
    pub(super) threads: usize,
    /// Each variant's rule options (the `Rules` option; `Repetition` sets
    /// Xiangqi's `repetition`).
    pub(super) rules: HashMap<VariantId, serde_json::Map<String, serde_json::Value>>,
    /// Whether `info` lines carry `wdl` (the `UCI_ShowWDL` option).
    pub(super) show_wdl: bool,
    /// The playing level (the `Skill Level` option, 1-20).
    pub(super) skill: Level,
    /// Whether `UCI_Elo` chooses the level (the `UCI_LimitStrength` option).
    pub(super) limit_strength: bool,
    /// The Elo to play at when `limit_strength` (the `UCI_Elo` option).
    pub(super) elo: u32,
    /// Whether Xiangqi evaluates with a network (the `Evaluation` option:
    /// `nnue`, the default, or `hce`).
    pub(super) nnue: bool,
    /// The Xiangqi network to evaluate with (the `EvalFile` option); `None`:
    /// the shipped one.
    pub(super) network: Option<Arc<Network>>,
    /// Whether the search takes the endgame tables' results (the
    /// `UseTablebases` option).
    pub(super) use_tablebases: bool,
    /// The last `position` command's words, replayed on `go`.
    pub(super) position: Vec<String>,
    pub(super) running: Option<(Control, thread::JoinHandle<()>)>,
    pub(super) tables: Arc<Tables>,
}

impl Session {
    /// A session before any option is set.
    pub(super) fn new() -> Session {
        Session {
            variant: VariantId::Xiangqi,
            ucci: false,
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            rules: HashMap::new(),
            show_wdl: false,
            skill: Level::full(),
            limit_strength: false,
            elo: full_elo(),
            nnue: true,
            network: None,
            use_tablebases: true,
            position: vec!["startpos".to_owned()],
            running: None,
            tables: Arc::new(Tables::default()),
        }
    }
}

/// The highest Elo of the full strength on the variants' ladders
/// (`UCI_Elo`'s top).
pub(super) fn full_elo() -> u32 {
    struct FullElo;
    impl Visitor for FullElo {
        type Output = u32;
        fn visit<V: Playable>(self) -> u32 {
            V::LADDER.elo(Level::full())
        }
    }
    VariantId::ALL
        .iter()
        .map(|v| v.visit(FullElo))
        .max()
        .unwrap_or(ELO_ANCHOR)
}

/// Stops the session's running search, if any, and waits for it.
pub(super) fn stop(s: &mut Session) {
    if let Some((control, handle)) = s.running.take() {
        control.stop.store(true, Ordering::Relaxed);
        let _ = handle.join();
    }
}
