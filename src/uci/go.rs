//! `go`: the limits and clocks of a `go` command, the strength it plays at,
//! and the search it runs on the search thread.

use crate::dispatch::{Playable, Visitor};
use crate::prose;
use crate::search::analysis::{analyse, Request};
use crate::search::level::Level;
use crate::search::{self, Control, Limits, Score, SearchResult};
use crate::variants::{Game, Variant};
use std::time::{Duration, Instant};

use super::session::{protocol_notation, Tables};
use crate::search::time::Clock;

/// The moves after `searchmoves` in a `go` command, up to the next
/// keyword.
pub(super) fn searchmoves_of(words: &[&str]) -> Vec<String> {
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

/// The limits of a `go` command, and its clocks (applied in [`Go::run`],
/// where the side to move is known).
pub(super) fn go_limits(words: &[&str], multipv: usize) -> (Limits, Clock) {
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

/// The rule options of `V` by name, each with its default: its rules as
/// they serialize.
fn defaults<V: Variant>() -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(V::Rules::default()) {
        Ok(serde_json::Value::Object(options)) => options,
        _ => serde_json::Map::new(),
    }
}

/// The rules a search of `V` plays by: the variant's defaults, with the
/// session's options for it.
pub(super) fn session_rules<V: crate::prose::Prose>(
    options: &serde_json::Map<String, serde_json::Value>,
) -> Result<V::Rules, String> {
    let mut rules = defaults::<V>();
    for (name, value) in options {
        match rules.get_mut(name) {
            Some(slot) => *slot = value.clone(),
            None => {
                let known: Vec<&str> = rules.keys().map(String::as_str).collect();
                return Err(format!(
                    "{} has no rule option {name} (its options: {})",
                    V::ID,
                    known.join(", ")
                ));
            }
        }
    }
    let rules: V::Rules = serde_json::from_value(serde_json::Value::Object(rules))
        .map_err(|e| format!("{} rules: {e}", V::ID))?;
    V::check_rules(&rules).map_err(|e| format!("{} rules: {}", V::ID, prose::rules_error(&e)))?;
    Ok(rules)
}

/// Whether rule options make valid rules of the variant visited.
pub(super) struct RulesCheck<'a>(pub(super) &'a serde_json::Map<String, serde_json::Value>);

impl Visitor for RulesCheck<'_> {
    type Output = Result<(), String>;
    fn visit<V: Playable>(self) -> Result<(), String> {
        session_rules::<V>(self.0).map(|_| ())
    }
}

/// Builds the game from the words after `position`, under `rules`. The GUI
/// referees: its moves are played even past the end our rules see, and a
/// rule that ended the game while moves remain is switched off
/// (`Variant::waive`).
pub(super) fn build<V: Playable>(
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
pub(super) fn build_with<V: Playable>(
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
pub(super) enum Strength {
    Skill(Level),
    Elo(u32),
}

/// One `go`, run on the search thread.
pub(super) struct Go<'a> {
    pub(super) position: &'a [String],
    pub(super) ucci: bool,
    /// The session's rule options.
    pub(super) rules: &'a serde_json::Map<String, serde_json::Value>,
    /// Whether `info` lines carry `wdl`.
    pub(super) show_wdl: bool,
    /// The playing level.
    pub(super) strength: Strength,
    /// `go searchmoves …`: the moves to choose among (empty: all).
    pub(super) searchmoves: &'a [String],
    pub(super) limits: Limits,
    pub(super) clock: &'a Clock,
    pub(super) control: &'a Control,
    /// When the `go` came: its time limits count from then.
    pub(super) received: Instant,
    pub(super) entries: usize,
    pub(super) tables: &'a Tables,
    pub(super) say: &'a dyn Fn(&str),
}

impl Visitor for Go<'_> {
    type Output = ();
    /// Searches and prints the `info` lines and the `bestmove`.
    fn visit<V: Playable>(mut self) {
        let say = self.say;
        let game = match session_rules::<V>(self.rules)
            .and_then(|rules| build::<V>(self.position, self.ucci, rules))
        {
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
        // The first line last printed: a search stopped inside an
        // iteration may end on a line no iteration reported.
        let printed = std::cell::RefCell::new(None);
        let mut report = |r: &SearchResult<V::Move>| {
            *printed.borrow_mut() = r.lines.first().cloned();
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
        let limits = self.limits.clone();
        let mut request = Request::playing::<V>(limits, Some(level), fastrand::u64(..));
        request.root = Some(root);
        let received = self.received;
        let found = self.tables.with::<V, _>(self.entries, |table| {
            // The clock runs from the `go`: what it took to get here (the
            // game replayed, a table made) comes off the search's time.
            let mut request = request;
            request.spend(received.elapsed());
            analyse(&game, &request, self.control, table, Some(&mut report))
        });
        match found.map(|a| a.result) {
            Some(r) => {
                if r.depth > 0 && r.lines.first() != printed.borrow().as_ref() {
                    report(&r);
                }
                say(&format!(
                    "bestmove {}",
                    current.write_move(r.best_move, notation)
                ))
            }
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

pub(super) fn nobestmove(ucci: bool) -> String {
    if ucci {
        "nobestmove".to_owned()
    } else {
        "bestmove (none)".to_owned()
    }
}

pub(super) fn score_text(score: Score) -> String {
    match score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}
