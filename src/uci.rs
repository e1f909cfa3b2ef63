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
//! Xiangqi's repetition code is chosen with `setoption name Repetition value
//! <code>` (`asian`, the default, `chinese` or `none`: the values of the
//! service's `rules.repetition`); the search plays by it.
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

use std::any::Any;
use std::collections::HashMap;

use crate::dispatch::{Playable, Visitor};
use crate::prose;
use crate::search::analysis::{analyse, Request};
use crate::search::eval::nnue;
use crate::search::level::{Level, ELO_ANCHOR};
use crate::search::{self, Control, Evaluate, Limits, Network, Score, SearchResult, Table};
use crate::variants::xiangqi::{self, RepetitionRule};
use crate::variants::{Game, NotationName, Variant, VariantId};

/// The most search threads the `Threads` option takes.
const MAX_THREADS: usize = 256;

/// The session's transposition tables, one per variant, kept from one `go`
/// to the next until `ucinewgame`, a new `Hash` or another `Repetition`
/// code.
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

/// The clocks of a `go` command, turned into a search time once the side to
/// move is known.
#[derive(Clone, Debug, Default)]
struct Clock {
    time: [Option<u64>; 2],
    increment: [u64; 2],
    moves_to_go: Option<u64>,
    /// `go infinite`: search until `stop`, whatever the clocks say.
    infinite: bool,
}

impl Clock {
    /// The limits for the side to move: with its clock and no `movetime`,
    /// a share of its remaining time to aim at and a hard limit; depth 8
    /// when nothing at all was given.
    fn apply(&self, limits: &mut Limits, side: usize) {
        if self.infinite {
            return;
        }
        if limits.movetime.is_none() {
            if let Some((optimum, hard)) = self.budget(side) {
                limits.optimum = Some(optimum);
                limits.movetime = Some(hard);
            }
        }
        if limits.movetime.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
            limits.depth = Some(8);
        }
    }

    /// The side to move's time for this move ([`clock_budget`]).
    fn budget(&self, side: usize) -> Option<(Duration, Duration)> {
        let t = self.time[side]?;
        Some(clock_budget(t, self.increment[side], self.moves_to_go))
    }
}

/// A move's time on a clock of `time_ms` left and `increment_ms` a move:
/// what to aim at (the time over the moves to go, 30 if not given, plus
/// three quarters of the increment) and the most it may take (four times
/// that, never more than two fifths of the time left, always leaving 50 ms
/// for the GUI). What `go wtime … winc …` gives the search; the match tool
/// gives the in-process engine the same.
pub fn clock_budget(
    time_ms: u64,
    increment_ms: u64,
    moves_to_go: Option<u64>,
) -> (Duration, Duration) {
    let left = time_ms.saturating_sub(50).max(10);
    let optimum = (time_ms / moves_to_go.unwrap_or(30).max(1) + increment_ms * 3 / 4)
        .min(left / 2)
        .max(10);
    let hard = (optimum * 4).min(left * 2 / 5).max(optimum);
    (Duration::from_millis(optimum), Duration::from_millis(hard))
}

struct Session {
    variant: VariantId,
    ucci: bool,
    hash_mb: usize,
    multipv: usize,
    /// Search threads (the `Threads` option).
    threads: usize,
    /// Xiangqi's repetition code (the `Repetition` option).
    repetition: RepetitionRule,
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

/// Runs the protocol until `quit` or the end of input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) -> std::io::Result<()> {
    let out = Arc::new(Mutex::new(output));
    let say = |line: &str| say_to(&out, line);
    let mut s = Session {
        variant: VariantId::Xiangqi,
        ucci: false,
        hash_mb: 16,
        threads: 1,
        multipv: 1,
        repetition: RepetitionRule::default(),
        show_wdl: false,
        skill: Level::full(),
        limit_strength: false,
        elo: full_elo(),
        nnue: true,
        network: None,
        position: vec!["startpos".to_owned()],
        running: None,
        tables: Arc::new(Tables::default()),
    };
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
                say("option name MultiPV type spin default 1 min 1 max 5");
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
                let (variant, ucci, repetition) = (s.variant, s.ucci, s.repetition);
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
                        repetition,
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

fn set_option(s: &mut Session, words: &[&str], say: &impl Fn(&str)) {
    // setoption name <name...> [value <value...>]
    let text = words[1..].join(" ");
    let rest = text.strip_prefix("name ").unwrap_or(&text);
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (rest.trim(), ""),
    };
    match name.to_ascii_lowercase().as_str() {
        "uci_variant" => match VariantId::parse(&value.to_ascii_lowercase()) {
            Some(v) => {
                s.variant = v;
                s.position = vec!["startpos".to_owned()];
            }
            None => say(&format!("info string unknown variant: {value}")),
        },
        "hash" => match value.parse::<usize>() {
            Ok(mb) => {
                // A running search holds the tables.
                stop(s);
                s.hash_mb = mb.clamp(1, 1024);
                s.tables.clear();
            }
            Err(_) => say(&format!("info string bad Hash value: {value}")),
        },
        "threads" => match value.parse::<usize>() {
            Ok(n) => s.threads = n.clamp(1, MAX_THREADS),
            Err(_) => say(&format!("info string bad Threads value: {value}")),
        },
        "uci_showwdl" => match value.to_ascii_lowercase().as_str() {
            "true" => s.show_wdl = true,
            "false" => s.show_wdl = false,
            _ => say(&format!("info string bad UCI_ShowWDL value: {value}")),
        },
        "skill level" => match value.parse::<u8>().ok().and_then(Level::new) {
            Some(l) => s.skill = l,
            None => say(&format!(
                "info string bad Skill Level value: {value} (1 to {})",
                Level::FULL
            )),
        },
        "uci_limitstrength" => match value.to_ascii_lowercase().as_str() {
            "true" => s.limit_strength = true,
            "false" => s.limit_strength = false,
            _ => say(&format!("info string bad UCI_LimitStrength value: {value}")),
        },
        "uci_elo" => match value.parse::<u32>() {
            Ok(e) => s.elo = e.clamp(ELO_ANCHOR, full_elo()),
            Err(_) => say(&format!("info string bad UCI_Elo value: {value}")),
        },
        "multipv" => match value.parse::<usize>() {
            Ok(n) => s.multipv = n.clamp(1, 5),
            Err(_) => say(&format!("info string bad MultiPV value: {value}")),
        },
        "repetition" => match RepetitionRule::parse(&value.to_ascii_lowercase()) {
            Some(r) => {
                // Scores kept under one code are not the other's (and a
                // running search holds the tables).
                if r != s.repetition {
                    stop(s);
                    s.tables.clear();
                }
                s.repetition = r;
                if s.variant != VariantId::Xiangqi {
                    say(&format!(
                        "info string Repetition applies to xiangqi only (kept for when it is the variant; now {})",
                        s.variant.as_str()
                    ));
                }
            }
            None => {
                let codes: Vec<&str> = RepetitionRule::ALL.iter().map(|r| r.as_str()).collect();
                say(&format!(
                    "info string bad Repetition value: {value} (one of {})",
                    codes.join(", ")
                ))
            }
        },
        "evaluation" => match value {
            "nnue" | "hce" => {
                // Scores kept under one evaluation are not the other's.
                stop(s);
                s.tables.clear();
                s.nnue = value == "nnue";
            }
            _ => say(&format!(
                "info string bad Evaluation value: {value} (nnue or hce)"
            )),
        },
        "evalfile" => {
            // Scores and evaluations kept under one evaluation are not the
            // other's (and a running search holds the tables).
            stop(s);
            s.tables.clear();
            if value.is_empty() || value == "<empty>" {
                s.network = None;
                return;
            }
            match std::fs::read(value) {
                Ok(bytes) => match Network::from_bytes(&bytes) {
                    Ok(net) => {
                        say(&format!(
                            "info string EvalFile {value}: a Xiangqi network of {} hidden units",
                            net.hidden()
                        ));
                        s.network = Some(Arc::new(net));
                    }
                    Err(e) => say(&format!("info string EvalFile {value} refused: {e}")),
                },
                Err(e) => say(&format!("info string EvalFile {value} cannot be read: {e}")),
            }
        }
        _ => say(&format!("info string unknown option: {name}")),
    }
}

/// The limits of a `go` command, and its clocks (applied in [`Go::run`],
/// where the side to move is known).
/// The moves after `searchmoves` in a `go` command, up to the next
/// keyword.
fn searchmoves_of(words: &[&str]) -> Vec<String> {
    const KEYWORDS: &[&str] = &[
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "time",
        "increment",
        "infinite",
        "ponder",
        "mate",
    ];
    match words.iter().position(|&w| w == "searchmoves") {
        Some(i) => words[i + 1..]
            .iter()
            .take_while(|w| !KEYWORDS.contains(w))
            .map(|w| w.to_string())
            .collect(),
        None => Vec::new(),
    }
}

fn go_limits(words: &[&str], multipv: usize) -> (Limits, Clock) {
    let mut limits = Limits {
        multipv,
        ..Limits::default()
    };
    let mut clock = Clock::default();
    let number = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    for (i, &w) in words.iter().enumerate() {
        match w {
            "depth" => limits.depth = number(i).map(|d| d as u32),
            "nodes" => limits.nodes = number(i),
            "movetime" => limits.movetime = number(i).map(Duration::from_millis),
            "wtime" => clock.time[0] = number(i),
            "btime" => clock.time[1] = number(i),
            "winc" => clock.increment[0] = number(i).unwrap_or(0),
            "binc" => clock.increment[1] = number(i).unwrap_or(0),
            "movestogo" => clock.moves_to_go = number(i),
            // UCCI: go time <ms> increment <ms>, for the side to move.
            "time" => clock.time = [number(i); 2],
            "increment" => clock.increment = [number(i).unwrap_or(0); 2],
            "infinite" => clock.infinite = true,
            _ => {}
        }
    }
    (limits, clock)
}

/// The rules a search plays by: the variant's defaults, with the session's
/// repetition code for Xiangqi (the `Repetition` option; the other variants
/// have no such option).
fn session_rules<V: Variant>(repetition: RepetitionRule) -> V::Rules {
    let mut rules = V::Rules::default();
    if let Some(x) = (&mut rules as &mut dyn Any).downcast_mut::<xiangqi::Rules>() {
        x.repetition = repetition;
    }
    rules
}

/// Builds the game from the words after `position`, under `rules`. The GUI
/// referees: its moves are played even past the end our rules see, and a
/// rule that ended the game while moves remain is switched off
/// (`Variant::waive`).
fn build<V: Playable>(
    words: &[String],
    ucci: bool,
    mut rules: V::Rules,
) -> Result<Game<V>, String> {
    let mut legal = Vec::new();
    loop {
        let game = build_with::<V>(words, ucci, rules.clone())?;
        game.current().legal_moves(&mut legal);
        match game.verdict(!legal.is_empty()) {
            // Only a game ended with moves left is rebuilt, and only as
            // often as `waive` has a rule to switch off.
            Some(v) if !legal.is_empty() => {
                let before = rules.clone();
                V::waive(&mut rules, v.reason);
                if rules == before {
                    // Nothing to switch off: search the game as it stands.
                    return Ok(game);
                }
            }
            _ => return Ok(game),
        }
    }
}

/// The game from the words after `position`, under `rules`, every move
/// played whatever our verdict on the position before it.
fn build_with<V: Playable>(
    words: &[String],
    ucci: bool,
    rules: V::Rules,
) -> Result<Game<V>, String> {
    let moves_at = words.iter().position(|w| w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut game = match head.first().map(String::as_str) {
        Some("startpos") | None => Game::new(V::start_position(&rules), rules),
        Some("fen") => {
            let fen = head[1..].join(" ");
            Game::from_fen(Some(&fen), rules).map_err(|e| format!("bad FEN: {e}"))?
        }
        Some(other) => return Err(format!("expected startpos or fen, not {other}")),
    };
    if let Some(i) = moves_at {
        let notation = protocol_notation::<V>(ucci);
        for text in &words[i + 1..] {
            let mv = game
                .current()
                .parse_move(text, notation)
                .map_err(|e| format!("bad move {text}: {e:?}"))?;
            game.play(mv);
        }
    }
    Ok(game)
}

/// How strong a `go` plays: at a `Skill Level`, or at the level of the
/// variant's ladder that a `UCI_Elo` reaches.
#[derive(Clone, Copy)]
enum Strength {
    Skill(Level),
    Elo(u32),
}

/// One `go`, run on the search thread.
struct Go<'a> {
    position: &'a [String],
    ucci: bool,
    /// Xiangqi's repetition code.
    repetition: RepetitionRule,
    /// Whether `info` lines carry `wdl`.
    show_wdl: bool,
    /// The playing level.
    strength: Strength,
    /// `go searchmoves …`: the moves to choose among (empty: all).
    searchmoves: &'a [String],
    limits: Limits,
    clock: &'a Clock,
    control: &'a Control,
    /// When the `go` came: its time limits count from then.
    received: Instant,
    entries: usize,
    tables: &'a Tables,
    say: &'a dyn Fn(&str),
}

impl Visitor for Go<'_> {
    type Output = ();
    /// Searches and prints the `info` lines and the `bestmove`.
    fn visit<V: Playable>(mut self) {
        let say = self.say;
        let rules = session_rules::<V>(self.repetition);
        let game = match build::<V>(self.position, self.ucci, rules) {
            Ok(g) => g,
            Err(e) => {
                say(&format!("info string {e}"));
                say(&nobestmove(self.ucci));
                return;
            }
        };
        self.clock
            .apply(&mut self.limits, game.current().side_to_move().index());
        let notation = protocol_notation::<V>(self.ucci);
        let current = game.current().clone();
        let mut root = Vec::new();
        current.legal_moves(&mut root);
        if !self.searchmoves.is_empty() {
            let mut only = Vec::new();
            for text in self.searchmoves {
                match current.parse_move(text, notation) {
                    Ok(m) => only.push(m),
                    Err(_) => say(&format!(
                        "info string searchmoves: {text} is not legal here"
                    )),
                }
            }
            if !only.is_empty() {
                root.retain(|m| only.contains(m));
            }
        }
        let show_wdl = self.show_wdl;
        let mut report = |r: &SearchResult<V::Move>| {
            for (i, line) in r.lines.iter().enumerate() {
                let pv: Vec<String> = search::line_text(&current, &line.moves, notation);
                let wdl = if show_wdl {
                    let w = V::WDL.wdl(line.score, current.material());
                    format!(" wdl {} {} {}", w.win, w.draw, w.loss)
                } else {
                    String::new()
                };
                say(&format!(
                    "info depth {} multipv {} score {}{wdl} nodes {} nps {} time {} pv {}",
                    line.depth,
                    i + 1,
                    score_text(line.score),
                    r.nodes,
                    r.nps(),
                    r.elapsed.as_millis(),
                    pv.join(" ")
                ));
            }
        };
        let level = match self.strength {
            Strength::Skill(l) => l,
            Strength::Elo(e) => V::LADDER.level_for_elo(e),
        };
        let mut limits = self.limits.clone();
        if !level.is_full() {
            // The levels were calibrated with the hand-written evaluation.
            limits.network = None;
        }
        let request = Request {
            root: Some(root),
            level: Some(level),
            seed: fastrand::u64(..),
            ..Request::new(limits)
        };
        let received = self.received;
        let found = self.tables.with::<V, _>(self.entries, |table| {
            // The clock runs from the `go`: what it took to get here (the
            // game replayed, a table made) comes off the search's time.
            let mut request = request;
            let spent = received.elapsed();
            let rest = |t: Duration| t.saturating_sub(spent).max(Duration::from_millis(1));
            request.limits.movetime = request.limits.movetime.map(rest);
            request.limits.optimum = request.limits.optimum.map(rest);
            analyse(&game, &request, self.control, table, Some(&mut report))
        });
        match found.map(|a| a.result) {
            Some(r) => say(&format!(
                "bestmove {}",
                current.write_move(r.best_move, notation)
            )),
            None => {
                say(&format!(
                    "info string no legal move: {}",
                    prose::outcome(&game, &game.outcome())
                ));
                say(&nobestmove(self.ucci));
            }
        }
    }
}

/// The highest Elo of the full strength on the variants' ladders
/// (`UCI_Elo`'s top).
fn full_elo() -> u32 {
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

fn nobestmove(ucci: bool) -> String {
    if ucci {
        "nobestmove".to_owned()
    } else {
        "bestmove (none)".to_owned()
    }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{taxi::Taxi, xiangqi::Xiangqi};

    /// The `Repetition` option's values are the wire's names, and it sets
    /// Xiangqi's code only.
    #[test]
    fn the_repetition_option_sets_xiangqis_code() {
        for &code in RepetitionRule::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::json!(code.as_str())
            );
            assert_eq!(RepetitionRule::parse(code.as_str()), Some(code));
            let rules = session_rules::<Xiangqi>(code);
            assert_eq!(
                rules,
                xiangqi::Rules {
                    repetition: code,
                    ..xiangqi::Rules::default()
                }
            );
        }
        assert_eq!(
            session_rules::<Taxi>(RepetitionRule::Chinese),
            <Taxi as Variant>::Rules::default()
        );
        assert_eq!(RepetitionRule::parse("japanese"), None);
    }

    fn limits_for(go: &str, side: usize) -> Limits {
        let words: Vec<&str> = go.split_whitespace().collect();
        let (mut limits, clock) = go_limits(&words, 1);
        clock.apply(&mut limits, side);
        limits
    }

    #[test]
    fn clocks_become_a_search_time_for_the_side_to_move() {
        let ms = |l: Limits| l.movetime.map(|t| t.as_millis());
        let aim = |l: Limits| l.optimum.map(|t| t.as_millis());
        // 30 moves to go by default, three quarters of the increment; at
        // most four times that, and two fifths of the time left.
        let l = limits_for("go wtime 60000 btime 3000 winc 1000", 0);
        assert_eq!((aim(l.clone()), ms(l)), (Some(2750), Some(11_000)));
        let l = limits_for("go wtime 60000 btime 3000 winc 1000", 1);
        assert_eq!((aim(l.clone()), ms(l)), (Some(100), Some(400)));
        let l = limits_for("go wtime 1000 btime 1000 movestogo 1", 0);
        assert_eq!((aim(l.clone()), ms(l)), (Some(475), Some(475)));
        // UCCI gives the side to move's clock only.
        let l = limits_for("go time 9000 increment 0", 1);
        assert_eq!((aim(l.clone()), ms(l)), (Some(300), Some(1200)));
        // A clock for the other side only, or nothing: depth 8.
        let l = limits_for("go wtime 60000", 1);
        assert_eq!((l.movetime, l.depth), (None, Some(8)));
        let l = limits_for("go infinite", 0);
        assert_eq!((l.movetime, l.depth, l.nodes), (None, None, None));
        let l = limits_for("go wtime 60000 infinite", 0);
        assert_eq!(l.movetime, None);
        // A fixed time per move is used in full.
        let l = limits_for("go movetime 250 wtime 60000", 0);
        assert_eq!((aim(l.clone()), ms(l)), (None, Some(250)));
    }
}
