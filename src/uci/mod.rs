//! `arbiter uci`: the engine over the UCI protocol (and UCCI for Xiangqi), so
//! that GUIs, bot frameworks and match runners can use it.
//!
//! The variant is chosen with `setoption name UCI_Variant value <variant>`
//! (default `xiangqi`). Moves are written as the variant's UCI coordinates:
//! Fairy-Stockfish's `a1`-`i10` for Xiangqi under UCI, ICCS `a0`-`i9` under
//! UCCI, `e2e4`/`e7e8q` for Taxi chess and the service's coordinate notation
//! for Tamerlane chess. A Taxi FEN carries the balances as its seventh field.
//!
//! `Skill Level` (1-20, default 20: full strength) plays at one of the
//! service's levels (`search::level`); with `UCI_LimitStrength` on,
//! `UCI_Elo` chooses the highest level whose calibrated Elo it reaches in
//! the variant played (each variant's ladder has its own Elo; `UCI_Elo`'s
//! top is the highest of them).
//!
//! Every rule option of the variant chosen is set with `setoption name Rules
//! value <JSON object>`, as the service's `rules` (`{"repetition":
//! "chinese", "repetition_ends_game": false}` for Xiangqi); the options are
//! checked as the service checks them and kept per variant, and the search
//! plays by them. `setoption name Repetition value <code>` (`asian`, the
//! default, `chinese` or `none`) sets Xiangqi's `repetition` alone, whatever
//! the variant chosen.
//!
//! Xiangqi's search evaluates with the shipped network
//! (`search::eval::nnue::SHIPPED_NAME`, embedded in the binary) unless
//! `setoption name Evaluation value hce` chooses the hand-written evaluation
//! (which `Skill Level` and `UCI_Elo` below the full strength always play
//! with: the levels were calibrated with it). `setoption name EvalFile
//! value <path>` evaluates with another network file written by
//! `examples/train_nnue.rs` (a damaged or foreign file is refused with the
//! reason in an `info string`); an empty value goes back to the shipped
//! one. The other variants have no network and ignore both.

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use std::collections::HashMap;

use crate::dispatch::{Playable, Visitor};
use crate::prose;
use crate::search::analysis::{analyse, Request, MAX_MULTIPV};
use crate::search::eval::nnue;
use crate::search::level::{Level, ELO_ANCHOR};
use crate::search::{self, Control, Evaluate, Limits, Network, Score, SearchResult, Table};
use crate::variants::xiangqi::RepetitionRule;
use crate::variants::{Game, NotationName, Variant, VariantId};

mod go;
mod options;
#[cfg(test)]
mod tests;

pub use crate::search::time::clock_budget;
use crate::search::time::Clock;
use go::*;
use options::*;

/// The most search threads the `Threads` option takes.
const MAX_THREADS: usize = 256;

/// The session's transposition tables, one per variant, kept from one `go`
/// to the next until `ucinewgame`, a new `Hash` or other rules.
#[derive(Default)]
pub struct Tables(Mutex<HashMap<VariantId, Table>>);

impl Tables {
    fn clear(&self) {
        self.0.lock().expect("table lock").clear();
    }

    /// Runs `work` with the table of variant `V`, made when first needed.
    fn with<V: Evaluate, T>(&self, entries: usize, work: impl FnOnce(&Table) -> T) -> T {
        let mut tables = self.0.lock().expect("table lock");
        let table = tables.entry(V::ID).or_insert_with(|| Table::new(entries));
        work(table)
    }

    /// Makes the table of `variant` now if it has none (at `isready`, which
    /// no clock times), so that the first `go` of a game does not pay for
    /// it.
    fn prepare(&self, variant: VariantId, entries: usize) {
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

/// Writes one line of the protocol and flushes it.
fn say_to<W: Write>(out: &Mutex<W>, line: &str) {
    let mut o = out.lock().expect("output lock");
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

struct Session {
    variant: VariantId,
    ucci: bool,
    hash_mb: usize,
    multipv: usize,
    /// Search threads (the `Threads` option).
    threads: usize,
    /// Each variant's rule options (the `Rules` option; `Repetition` sets
    /// Xiangqi's `repetition`).
    rules: HashMap<VariantId, serde_json::Map<String, serde_json::Value>>,
    /// Whether `info` lines carry `wdl` (the `UCI_ShowWDL` option).
    show_wdl: bool,
    /// The playing level (the `Skill Level` option, 1-20).
    skill: Level,
    /// Whether `UCI_Elo` chooses the level (the `UCI_LimitStrength` option).
    limit_strength: bool,
    /// The Elo to play at when `limit_strength` (the `UCI_Elo` option).
    elo: u32,
    /// Whether Xiangqi evaluates with a network (the `Evaluation` option:
    /// `nnue`, the default, or `hce`).
    nnue: bool,
    /// The Xiangqi network to evaluate with (the `EvalFile` option); `None`:
    /// the shipped one.
    network: Option<Arc<Network>>,
    /// The last `position` command's words, replayed on `go`.
    position: Vec<String>,
    running: Option<(Control, thread::JoinHandle<()>)>,
    tables: Arc<Tables>,
}

impl Session {
    /// A session before any option is set.
    fn new() -> Session {
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
            position: vec!["startpos".to_owned()],
            running: None,
            tables: Arc::new(Tables::default()),
        }
    }
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) -> std::io::Result<()> {
    let out = Arc::new(Mutex::new(output));
    let say = |line: &str| say_to(&out, line);
    let mut s = Session::new();
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            continue;
        };
        match command {
            "uci" | "ucci" => {
                s.ucci = command == "ucci";
                say(&format!("id name arbiter {}", env!("CARGO_PKG_VERSION")));
                say("id author the arbiter developers");
                let vars: String = VariantId::ALL.iter().map(|v| format!(" var {v}")).collect();
                say(&format!(
                    "option name UCI_Variant type combo default {}{vars}",
                    VariantId::ALL[0]
                ));
                say("option name Hash type spin default 16 min 1 max 1024");
                say(&format!(
                    "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
                ));
                say("option name UCI_ShowWDL type check default false");
                say(&format!(
                    "option name Skill Level type spin default {full} min {} max {full}",
                    Level::MIN,
                    full = Level::FULL
                ));
                say("option name UCI_LimitStrength type check default false");
                say(&format!(
                    "option name UCI_Elo type spin default {max} min {} max {max}",
                    ELO_ANCHOR,
                    max = full_elo()
                ));
                say(&format!(
                    "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
                ));
                let codes: String = RepetitionRule::ALL
                    .iter()
                    .map(|r| format!(" var {}", r.as_str()))
                    .collect();
                say(&format!(
                    "option name Repetition type combo default {}{codes}",
                    RepetitionRule::default().as_str()
                ));
                say("option name Rules type string default {}");
                say("option name Evaluation type combo default nnue var nnue var hce");
                say("option name EvalFile type string default <empty>");
                say(if s.ucci { "ucciok" } else { "uciok" });
            }
            "isready" => {
                // Not while a search runs (it holds the tables).
                if s.running.as_ref().is_none_or(|(_, h)| h.is_finished()) {
                    s.tables
                        .prepare(s.variant, search::table_entries(s.hash_mb));
                }
                say("readyok");
            }
            "setoption" => set_option(&mut s, &words, &say),
            "ucinewgame" => {
                stop(&mut s);
                s.position = vec!["startpos".to_owned()];
                s.tables.clear();
            }
            "position" => {
                stop(&mut s);
                s.position = words[1..].iter().map(|w| w.to_string()).collect();
            }
            "go" => {
                let received = Instant::now();
                stop(&mut s);
                let control = Control::default();
                let (mut limits, clock) = go_limits(&words, s.multipv);
                limits.threads = s.threads;
                limits.network = s
                    .nnue
                    .then(|| s.network.clone().unwrap_or_else(nnue::shipped));
                let position = s.position.clone();
                let (variant, ucci) = (s.variant, s.ucci);
                let rules = s.rules.get(&variant).cloned().unwrap_or_default();
                let show_wdl = s.show_wdl;
                let strength = if s.limit_strength {
                    Strength::Elo(s.elo)
                } else {
                    Strength::Skill(s.skill)
                };
                let searchmoves = searchmoves_of(&words);
                let entries = search::table_entries(s.hash_mb);
                let out = out.clone();
                let c = control.clone();
                let tables = s.tables.clone();
                let handle = thread::spawn(move || {
                    let say = |line: &str| say_to(&out, line);
                    let go = Go {
                        position: &position,
                        ucci,
                        rules: &rules,
                        show_wdl,
                        strength,
                        searchmoves: &searchmoves,
                        limits,
                        clock: &clock,
                        control: &c,
                        received,
                        entries,
                        tables: &tables,
                        say: &say,
                    };
                    variant.visit(go);
                });
                s.running = Some((control, handle));
            }
            "stop" => stop(&mut s),
            "quit" => {
                stop(&mut s);
                return Ok(());
            }
            _ => say(&format!("info string unknown command: {command}")),
        }
    }
    // End of input: let a running search finish, as a pipe's reader expects.
    if let Some((_, handle)) = s.running.take() {
        let _ = handle.join();
    }
    Ok(())
}

fn stop(s: &mut Session) {
    if let Some((control, handle)) = s.running.take() {
        control.stop.store(true, Ordering::Relaxed);
        let _ = handle.join();
    }
}
