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
//!
//! Xiangqi's search takes the result of the endgame tables at every node
//! they hold (the built-in set; `setoption name UseTablebases value false`
//! switches that off). `setoption name EgtbPath value <dir>` adds the
//! tables of a directory (`arbiter tablebase generate --out <dir>`), once
//! and before the first search: the tables of a process are set up once.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

use crate::search::analysis::MAX_MULTIPV;
use crate::search::eval::nnue;
use crate::search::level::{Level, ELO_ANCHOR};
use crate::search::{self, Control};
use crate::variants::xiangqi::RepetitionRule;
use crate::variants::VariantId;

mod go;
mod options;
mod session;
#[cfg(test)]
mod tests;

pub use crate::search::time::clock_budget;
use go::*;
use options::*;
use session::*;
pub use session::{protocol_notation, Tables};

/// Writes one line of the protocol and flushes it.
fn say_to<W: Write>(out: &Mutex<W>, line: &str) {
    let mut o = out.lock().expect("output lock");
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) -> std::io::Result<()> {
    let out = Arc::new(Mutex::new(output));
    let say = |line: &str| say_to(&out, line);
    let mut s = Session::new();
    // The rule option `tablebase_adjudication` asks the tables.
    crate::tablebase::adjudicate_with_installed();
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
                say("option name UseTablebases type check default true");
                say("option name EgtbPath type string default <empty>");
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
                limits.tablebases = s.use_tablebases;
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
