//! `arbiter uci`: the engine over the UCI protocol (and UCCI for Xiangqi), so
//! that GUIs, bot frameworks and match runners can use it.
//!
//! The variant is chosen with `setoption name UCI_Variant value <variant>`
//! (default `xiangqi`). Moves are written as the variant's UCI coordinates:
//! Fairy-Stockfish's `a1`-`i10` for Xiangqi under UCI, ICCS `a0`-`i9` under
//! UCCI, `e2e4`/`e7e8q` for Taxi chess and the service's coordinate notation
//! for Tamerlane chess. A Taxi FEN carries the balances as its seventh field.

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Duration;

use crate::search::{self, Control, Evaluate, Limits, Score, SearchResult, Table};
use crate::variants::{tamerlane, taxi, xiangqi, Game, VariantId};
use std::sync::{Arc, Mutex};

/// The session's transposition tables, one per variant, kept from one `go`
/// to the next until `ucinewgame` or a new `Hash`.
#[derive(Default)]
pub struct Tables {
    xiangqi: Mutex<Option<Table<xiangqi::Move>>>,
    taxi: Mutex<Option<Table<taxi::Move>>>,
    tamerlane: Mutex<Option<Table<tamerlane::Move>>>,
}

impl Tables {
    fn clear(&self) {
        *self.xiangqi.lock().expect("table lock") = None;
        *self.taxi.lock().expect("table lock") = None;
        *self.tamerlane.lock().expect("table lock") = None;
    }
}

/// How a variant writes moves under the protocol, and where its table is.
pub trait UciVariant: Evaluate {
    fn protocol_notation(ucci: bool) -> Self::Notation;
    fn table(tables: &Tables) -> &Mutex<Option<Table<Self::Move>>>;
}

impl UciVariant for xiangqi::Xiangqi {
    fn table(tables: &Tables) -> &Mutex<Option<Table<xiangqi::Move>>> {
        &tables.xiangqi
    }
    fn protocol_notation(ucci: bool) -> xiangqi::Notation {
        if ucci {
            xiangqi::Notation::Iccs
        } else {
            xiangqi::Notation::Fairy
        }
    }
}

impl UciVariant for taxi::Taxi {
    fn table(tables: &Tables) -> &Mutex<Option<Table<taxi::Move>>> {
        &tables.taxi
    }
    fn protocol_notation(_ucci: bool) -> taxi::Notation {
        taxi::Notation::Uci
    }
}

impl UciVariant for tamerlane::Tamerlane {
    fn table(tables: &Tables) -> &Mutex<Option<Table<tamerlane::Move>>> {
        &tables.tamerlane
    }
    fn protocol_notation(_ucci: bool) -> tamerlane::Notation {
        tamerlane::Notation
    }
}

/// Table slots per MiB of `Hash`.
const SLOTS_PER_MB: usize = 1 << 15;

struct Session {
    variant: VariantId,
    ucci: bool,
    hash_mb: usize,
    multipv: usize,
    /// The last `position` command's words, replayed on `go`.
    position: Vec<String>,
    running: Option<(Control, thread::JoinHandle<()>)>,
    tables: Arc<Tables>,
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) -> std::io::Result<()> {
    let out = std::sync::Arc::new(std::sync::Mutex::new(output));
    let say = {
        let out = out.clone();
        move |line: &str| {
            let mut o = out.lock().expect("output lock");
            let _ = writeln!(o, "{line}");
            let _ = o.flush();
        }
    };
    let mut s = Session {
        variant: VariantId::Xiangqi,
        ucci: false,
        hash_mb: 16,
        multipv: 1,
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
                say("option name UCI_Variant type combo default xiangqi var xiangqi var taxi var tamerlane");
                say("option name Hash type spin default 16 min 1 max 1024");
                say("option name MultiPV type spin default 1 min 1 max 5");
                say(if s.ucci { "ucciok" } else { "uciok" });
            }
            "isready" => {
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
                stop(&mut s);
                let control = Control::default();
                let limits = go_limits(&words, &s);
                let position = s.position.clone();
                let (variant, ucci, entries) = (s.variant, s.ucci, s.hash_mb * SLOTS_PER_MB);
                let out = out.clone();
                let c = control.clone();
                let tables = s.tables.clone();
                let handle = thread::spawn(move || {
                    let say = |line: &str| {
                        let mut o = out.lock().expect("output lock");
                        let _ = writeln!(o, "{line}");
                        let _ = o.flush();
                    };
                    let lines = match variant {
                        VariantId::Xiangqi => go::<xiangqi::Xiangqi>(
                            &position, ucci, &limits, &c, entries, &tables, &say,
                        ),
                        VariantId::Taxi => {
                            go::<taxi::Taxi>(&position, ucci, &limits, &c, entries, &tables, &say)
                        }
                        VariantId::Tamerlane => go::<tamerlane::Tamerlane>(
                            &position, ucci, &limits, &c, entries, &tables, &say,
                        ),
                    };
                    for l in lines {
                        say(&l);
                    }
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
                s.hash_mb = mb.clamp(1, 1024);
                s.tables.clear();
            }
            Err(_) => say(&format!("info string bad Hash value: {value}")),
        },
        "multipv" => match value.parse::<usize>() {
            Ok(n) => s.multipv = n.clamp(1, 5),
            Err(_) => say(&format!("info string bad MultiPV value: {value}")),
        },
        _ => say(&format!("info string unknown option: {name}")),
    }
}

fn go_limits(words: &[&str], s: &Session) -> Limits {
    let mut limits = Limits {
        multipv: s.multipv,
        ..Limits::default()
    };
    let number = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    let (mut time, mut inc, mut moves_to_go) = ([None, None], [0u64, 0u64], None);
    let mut infinite = false;
    for (i, &w) in words.iter().enumerate() {
        match w {
            "depth" => limits.depth = number(i).map(|d| d as u32),
            "nodes" => limits.nodes = number(i),
            "movetime" => limits.movetime = number(i).map(Duration::from_millis),
            "wtime" => time[0] = number(i),
            "btime" => time[1] = number(i),
            "winc" => inc[0] = number(i).unwrap_or(0),
            "binc" => inc[1] = number(i).unwrap_or(0),
            "movestogo" => moves_to_go = number(i),
            "infinite" => infinite = true,
            // UCCI: go time <ms> increment <ms>, for the side to move.
            "time" => {
                time = [number(i), number(i)];
            }
            "increment" => inc = [number(i).unwrap_or(0); 2],
            _ => {}
        }
    }
    if limits.movetime.is_none() && !infinite {
        // Clock play: a share of the side to move's remaining time.
        let side = side_of(&s.position, s.variant, s.ucci);
        if let Some(t) = time[side] {
            let share = t / moves_to_go.unwrap_or(30).max(1) + inc[side] * 3 / 4;
            limits.movetime = Some(Duration::from_millis(share.min(t / 2).max(10)));
        }
    }
    if limits.movetime.is_none() && limits.depth.is_none() && limits.nodes.is_none() && !infinite {
        limits.depth = Some(8);
    }
    limits
}

/// The side to move after the `position` words (0 white/red, 1 black).
fn side_of(position: &[String], variant: VariantId, ucci: bool) -> usize {
    fn side<V: UciVariant>(position: &[String], ucci: bool) -> usize {
        build::<V>(position, ucci)
            .map(|game| game.current().side_to_move().index())
            .unwrap_or(0)
    }
    match variant {
        VariantId::Xiangqi => side::<xiangqi::Xiangqi>(position, ucci),
        VariantId::Taxi => side::<taxi::Taxi>(position, ucci),
        VariantId::Tamerlane => side::<tamerlane::Tamerlane>(position, ucci),
    }
}

/// Builds the game from the words after `position`.
fn build<V: UciVariant>(words: &[String], ucci: bool) -> Result<Game<V>, String> {
    let rules = V::Rules::default();
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
        game.play_all(&words[i + 1..], V::protocol_notation(ucci))
            .map_err(|e| format!("bad move: {e:?}"))?;
    }
    Ok(game)
}

/// Runs one `go` and returns the lines to print after the `info` lines.
fn go<V: UciVariant>(
    position: &[String],
    ucci: bool,
    limits: &Limits,
    control: &Control,
    entries: usize,
    tables: &Tables,
    say: &dyn Fn(&str),
) -> Vec<String> {
    let game = match build::<V>(position, ucci) {
        Ok(g) => g,
        Err(e) => {
            return vec![format!("info string {e}"), nobestmove(ucci)];
        }
    };
    let notation = V::protocol_notation(ucci);
    let current = game.current().clone();
    let mut report = |r: &SearchResult<V::Move>| {
        for (i, line) in r.lines.iter().enumerate() {
            let pv: Vec<String> = search::line_text(&current, &line.moves, notation);
            say(&format!(
                "info depth {} multipv {} score {} nodes {} nps {} time {} pv {}",
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
    let mut slot = V::table(tables).lock().expect("table lock");
    let table = slot.get_or_insert_with(|| Table::new(entries));
    match search::search_with_table(&game, limits, control, table, Some(&mut report)) {
        Some(r) => vec![format!(
            "bestmove {}",
            current.move_to_string(r.best_move, notation)
        )],
        None => {
            let outcome = game.outcome();
            vec![
                format!("info string no legal move: {}", outcome.explanation()),
                nobestmove(ucci),
            ]
        }
    }
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
