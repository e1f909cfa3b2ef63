//! Engine matches adjudicated by arbiter's own rules (not run in CI): the
//! A/B tool of the engine work (`docs/engine.md`).
//!
//! ```text
//! # a build against another build, 20,000 nodes a move, two games at a
//! # time, stopped when a sequential test decides between +0 and +10 Elo:
//! cargo run --release --example match -- xiangqi \
//!     --engine-a "target/release/arbiter uci" --engine-b "/tmp/base/arbiter uci" \
//!     --nodes 20000 --games 2000 --concurrency 2 --openings FILE --sprt 0 10
//! # arbiter (in process) against a one-ply greedy player, 100 ms a move:
//! cargo run --release --example match -- taxi --games 40 --movetime-ms 100
//! # on a clock: 10 s a game and 0.1 s a move for each side
//! cargo run --release --example match -- xiangqi --clock 10+0.1 \
//!     --engine-a "target/release/arbiter uci" --engine-b "$FAIRY_STOCKFISH" \
//!     --option-b "Use NNUE=false" --openings FILE --games 200
//! ```
//!
//! An engine is `self` (this build's search, in process; `--nnue` for the
//! variant's network, else the hand-written evaluation), `greedy` (one ply
//! of this build's evaluation) or the command line of a UCI engine (split at
//! spaces). Each opening is played twice, colours swapped. Openings: a file
//! of `FEN|moves` lines (`startpos` for the start position; moves in the
//! protocol's notation, for Xiangqi Fairy-Stockfish's ranks 1-10; text after
//! `#` ignored) — the format of `../shared/tools/match.py` — or, without a
//! file, fixed balanced lines for Xiangqi and `--random-plies` seeded random
//! plies for the other variants. A game that reaches `--max-plies` is a draw.
//! An engine that crashes, hangs (ten times the move's time, at least 10 s;
//! on a clock, its time left and 10 s more) or plays an illegal move loses
//! that game and is restarted. On a clock (`--clock BASE+INC`, seconds) each
//! side is sent `go wtime … btime … winc … binc …` (the in-process engine
//! gets what `arbiter uci` would make of it), the time a reply takes, as
//! this tool measures it, comes off the mover's clock, the increment is
//! added after the move, and a side whose clock runs out loses. Every match
//! reports each engine's longest reply.
//!
//! The result is reported per game pair as well (pentanomial): the Elo
//! error and the sequential probability ratio test (`--sprt ELO0 ELO1`,
//! logistic Elo, α = β = 0.05, the normal approximation of the generalized
//! SPRT on pair scores) use the pairs, which removes the opening's bias.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;

use arbiter::dispatch::{Playable, Visitor};
use arbiter::prose;
use arbiter::search::{self, Control, Evaluate, Limits, Table};
use arbiter::uci::protocol_notation;
use arbiter::variants::{Color, Game, Outcome, Variant, VariantId};

/// A mate's score for adjudication, in centipawns.
const MATE_CP: i32 = 100_000;

/// Balanced Xiangqi openings (ICCS), each a common first two plies.
const XIANGQI_OPENINGS: &[&str] = &[
    "h2e2 h9g7",
    "h2e2 b9c7",
    "h2e2 h7e7",
    "h2e2 b7e7",
    "c3c4 g6g5",
    "c3c4 b9c7",
    "g3g4 c6c5",
    "g3g4 h9g7",
    "c0e2 h9g7",
    "c0e2 c6c5",
    "g0e2 h7e7",
    "h0g2 g6g5",
    "h0g2 h9g7",
    "b0c2 h9g7",
    "b2d2 h9g7",
    "h2d2 b9c7",
    "b2e2 b9c7",
    "h2f2 h9g7",
    "c3c4 h7e7",
    "h0g2 c6c5",
];

/// Engine against engine, refereed by arbiter's rules.
#[derive(Parser, Debug, Clone)]
struct Args {
    /// xiangqi, taxi or tamerlane.
    #[arg(value_parser = parse_variant)]
    variant: VariantId,
    /// Engine A: `self`, `greedy` or a UCI command line.
    #[arg(long, default_value = "self")]
    engine_a: String,
    /// Engine B: `self`, `greedy` or a UCI command line.
    #[arg(long, default_value = "greedy")]
    engine_b: String,
    /// A's name in the report.
    #[arg(long)]
    name_a: Option<String>,
    /// B's name in the report.
    #[arg(long)]
    name_b: Option<String>,
    /// A UCI option for A (repeatable).
    #[arg(long = "option-a", value_name = "NAME=VALUE")]
    options_a: Vec<String>,
    /// A UCI option for B (repeatable).
    #[arg(long = "option-b", value_name = "NAME=VALUE")]
    options_b: Vec<String>,
    /// Games to play (rounded up to whole pairs).
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Time a move.
    #[arg(long)]
    movetime_ms: Option<u64>,
    /// Nodes a move (both engines must honour `go nodes`).
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth a move.
    #[arg(long)]
    depth: Option<u32>,
    /// A clock for each side, `BASE+INC` in seconds (e.g. `10+0.1`): the
    /// game's time and what each move adds.
    #[arg(long, value_parser = parse_clock)]
    clock: Option<ClockSpec>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// File of openings (`FEN|moves` lines, see the module's docs).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Play the openings in a random order (seeded by `--seed`).
    #[arg(long)]
    shuffle: bool,
    /// Random plies opening each game pair when there is no openings file
    /// (not for Xiangqi, which has its fixed lines).
    #[arg(long, default_value_t = 2)]
    random_plies: usize,
    /// Plies after which a game is scored a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Seed of the random openings, the shuffle and the greedy player.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The first game pair's opening number: with the same seed and
    /// openings, a match of N pairs from pair K plays the same games as
    /// pairs K to K + N − 1 of a longer match (a long match in parts).
    #[arg(long, default_value_t = 0)]
    first_pair: usize,
    /// Stop when the sequential test accepts ELO0 or ELO1.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// Adjudicate a win when both engines' scores agree, for
    /// `--resign-moves` moves of each side, that one side is ahead by at
    /// least this (centipawns; 0: never). For quick A/B matches only.
    #[arg(long, default_value_t = 0)]
    resign_score: i32,
    /// See `--resign-score`.
    #[arg(long, default_value_t = 4)]
    resign_moves: usize,
    /// Adjudicate a draw after this many plies (0: never) when both
    /// engines' scores have stayed within `--draw-score` for
    /// `--draw-moves` moves of each side. For quick A/B matches only.
    #[arg(long, default_value_t = 0)]
    draw_after: usize,
    /// See `--draw-after`.
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    /// See `--draw-after`.
    #[arg(long, default_value_t = 8)]
    draw_moves: usize,
    /// Append every game that ended in play to this file, one JSON line
    /// each (the format `examples/tune.rs` reads).
    #[arg(long)]
    games_out: Option<PathBuf>,
    /// Print only the pairs' summary lines, not every game.
    #[arg(long)]
    quiet: bool,
    /// Vary each move's node limit of the in-process engine (`self`) by up
    /// to this percentage, seeded: the engine against itself then plays a
    /// different game with each colour (for self-play data).
    #[arg(long, default_value_t = 0)]
    nodes_jitter: u64,
    /// The in-process engine (`self`) evaluates with the variant's shipped
    /// network (Xiangqi's) instead of the hand-written evaluation, as the
    /// service and `arbiter uci` do by default.
    #[arg(long)]
    nnue: bool,
}

/// `--clock BASE+INC`.
#[derive(Clone, Copy, Debug)]
struct ClockSpec {
    base: Duration,
    increment: Duration,
}

fn parse_clock(s: &str) -> Result<ClockSpec, String> {
    let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
    let secs = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("'{s}' is not BASE+INC in seconds"))
    };
    let spec = ClockSpec {
        base: secs(base)?,
        increment: secs(inc)?,
    };
    if spec.base.is_zero() {
        return Err("a clock needs some time".to_owned());
    }
    Ok(spec)
}

/// Both sides' clocks during a game.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    /// Time left, by colour (White or Red first).
    left: [Duration; 2],
    increment: Duration,
}

impl Clocks {
    fn of(c: Color) -> usize {
        match c {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    fn go(&self) -> String {
        let (w, b, i) = (
            self.left[0].as_millis(),
            self.left[1].as_millis(),
            self.increment.as_millis(),
        );
        format!("go wtime {w} btime {b} winc {i} binc {i}")
    }
}

fn parse_variant(s: &str) -> Result<VariantId, String> {
    VariantId::parse(s).ok_or_else(|| format!("unknown variant {s}"))
}

/// What a player may be asked.
trait Player<V: Variant> {
    /// Forget the last game.
    fn new_game(&mut self) -> Result<(), String>;
    /// The move to play and the score the player gave it (centipawns from
    /// its side, mates as ±`MATE_CP`), if it said; an error loses the game.
    /// `clocks`: the game is played on a clock, whose state this is.
    fn choose(
        &mut self,
        game: &Game<V>,
        clocks: Option<&Clocks>,
    ) -> Result<(V::Move, Option<i32>), String>;
}

/// How long or deep a move's search is.
#[derive(Clone, Copy, Debug)]
struct MoveLimits {
    movetime: Option<Duration>,
    nodes: Option<u64>,
    depth: Option<u32>,
}

impl MoveLimits {
    fn search_limits(&self) -> Limits {
        Limits {
            movetime: self.movetime,
            nodes: self.nodes,
            depth: self.depth,
            multipv: 1,
            optimum: None,
            threads: 1,
            network: None,
            tablebases: false,
        }
    }

    fn go(&self) -> String {
        let mut go = String::from("go");
        if let Some(t) = self.movetime {
            go.push_str(&format!(" movetime {}", t.as_millis()));
        }
        if let Some(n) = self.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = self.depth {
            go.push_str(&format!(" depth {d}"));
        }
        go
    }

    /// How long a move may take before the engine counts as hung.
    fn patience(&self) -> Duration {
        let t = self.movetime.unwrap_or(Duration::from_secs(1));
        (t * 10).max(Duration::from_secs(10))
    }
}

/// arbiter's own search, in process, keeping its table from move to move
/// within a game as `arbiter uci` does.
struct InProcess {
    limits: MoveLimits,
    table: Table,
    /// `--nodes-jitter`: each move's node limit varied by up to this
    /// percentage, from this seeded generator.
    jitter: (u64, u64),
    /// `--nnue`: the variant's shipped network.
    nnue: bool,
}

impl<V: Evaluate> Player<V> for InProcess {
    fn new_game(&mut self) -> Result<(), String> {
        self.table = Table::new(search::table_entries(16));
        Ok(())
    }
    fn choose(
        &mut self,
        game: &Game<V>,
        clocks: Option<&Clocks>,
    ) -> Result<(V::Move, Option<i32>), String> {
        let mut limits = self.limits.search_limits();
        if self.nnue {
            limits.network = V::shipped_network();
        }
        if let Some(c) = clocks {
            let side = Clocks::of(game.current().side_to_move());
            let (optimum, hard) = arbiter::uci::clock_budget(
                c.left[side].as_millis() as u64,
                c.increment.as_millis() as u64,
                None,
            );
            limits.optimum = Some(optimum);
            limits.movetime = Some(hard);
        }
        let (percent, state) = &mut self.jitter;
        if let (Some(n), true) = (limits.nodes, *percent > 0) {
            let spread = n * *percent / 100;
            limits.nodes = Some(n - spread + next_random(state) % (2 * spread + 1));
        }
        search::search_with_table(game, &limits, &Control::default(), &self.table, None)
            .map(|r| {
                let score = r.lines.first().map(|l| l.score.centipawns());
                (r.best_move, score)
            })
            .ok_or_else(|| "no move in a game that goes on".to_owned())
    }
}

/// One ply deep: the move whose resulting position the evaluation likes
/// best (a win at once first), ties broken by a seeded generator.
struct Greedy(u64);

impl<V: Evaluate> Player<V> for Greedy {
    fn new_game(&mut self) -> Result<(), String> {
        Ok(())
    }
    fn choose(
        &mut self,
        game: &Game<V>,
        _clocks: Option<&Clocks>,
    ) -> Result<(V::Move, Option<i32>), String> {
        let pos = game.current();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut best = (i64::MIN, *moves.first().ok_or("no legal move")?);
        let mut replies = Vec::new();
        for &mv in &moves {
            let mut next = pos.clone();
            next.make_move(mv);
            next.legal_moves(&mut replies);
            let value = if replies.is_empty() {
                let mut after = game.clone();
                after.play(mv);
                match after.outcome().winner() {
                    Some(w) if w == pos.side_to_move() => 1_000_000,
                    Some(_) => -1_000_000,
                    None => 0,
                }
            } else {
                -(next.evaluate(game.rules()) as i64)
            };
            let value = value * 64 + (next_random(&mut self.0) % 64) as i64;
            if value > best.0 {
                best = (value, mv);
            }
        }
        Ok((best.1, None))
    }
}

/// A UCI engine in a child process; its output is read by a thread of its
/// own, so that a hung engine can be noticed.
struct External {
    command: String,
    variant: VariantId,
    options: Vec<(String, String)>,
    limits: MoveLimits,
    running: Option<Running>,
}

struct Running {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    fn new(
        command: &str,
        variant: VariantId,
        options: Vec<(String, String)>,
        limits: MoveLimits,
    ) -> External {
        External {
            command: command.to_owned(),
            variant,
            options,
            limits,
            running: None,
        }
    }

    fn start(&mut self) -> Result<(), String> {
        let mut words = self.command.split_whitespace();
        let program = words.next().ok_or("an empty engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.command))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.running = Some(Running {
            child,
            input,
            lines,
        });
        self.send("uci")?;
        self.wait_for("uciok", Duration::from_secs(30))?;
        self.send(&format!(
            "setoption name UCI_Variant value {}",
            self.variant
        ))?;
        for (name, value) in self.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(30))?;
        Ok(())
    }

    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = writeln!(r.input, "quit");
            let _ = r.input.flush();
            let deadline = Instant::now() + Duration::from_secs(2);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = r.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let r = self.running.as_mut().ok_or("the engine is not running")?;
        writeln!(r.input, "{line}")
            .and_then(|_| r.input.flush())
            .map_err(|e| format!("the engine's input closed: {e}"))
    }

    fn wait_for(&mut self, prefix: &str, patience: Duration) -> Result<String, String> {
        let r = self.running.as_mut().ok_or("the engine is not running")?;
        let deadline = Instant::now() + patience;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match r.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no '{prefix}' within {patience:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the engine ended before '{prefix}'"))
                }
            }
        }
    }

    /// Waits for `bestmove`; returns its line and the score of the last
    /// `info` line that gave one.
    fn best_move(&mut self, patience: Duration) -> Result<(String, Option<i32>), String> {
        let r = self.running.as_mut().ok_or("the engine is not running")?;
        let deadline = Instant::now() + patience;
        let mut score = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match r.lines.recv_timeout(left) {
                Ok(line) if line.starts_with("bestmove") => return Ok((line, score)),
                Ok(line) if line.starts_with("info") => {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    if let Some(i) = words.iter().position(|&w| w == "score") {
                        let value = words.get(i + 2).and_then(|v| v.parse::<i32>().ok());
                        score = match (words.get(i + 1), value) {
                            (Some(&"cp"), Some(v)) => Some(v),
                            (Some(&"mate"), Some(n)) => Some(MATE_CP * n.signum()),
                            _ => score,
                        };
                    }
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no 'bestmove' within {patience:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the engine ended before 'bestmove'".to_owned())
                }
            }
        }
    }

    /// Runs `f` with a running engine; on failure the engine is stopped,
    /// to be started afresh next time.
    fn with<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, String>) -> Result<T, String> {
        if self.running.is_none() {
            if let Err(e) = self.start() {
                self.stop();
                return Err(e);
            }
        }
        let result = f(self);
        if result.is_err() {
            self.stop();
        }
        result
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stop();
    }
}

impl<V: Evaluate> Player<V> for External {
    fn new_game(&mut self) -> Result<(), String> {
        self.with(|e| {
            e.send("ucinewgame")?;
            e.send("isready")?;
            e.wait_for("readyok", Duration::from_secs(30)).map(|_| ())
        })
    }

    fn choose(
        &mut self,
        game: &Game<V>,
        clocks: Option<&Clocks>,
    ) -> Result<(V::Move, Option<i32>), String> {
        let notation = protocol_notation::<V>(false);
        let start = &game.positions()[0];
        let moves = search::line_text(start, game.moves(), notation);
        let mut cmd = format!("position fen {}", start.to_fen());
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        let (go, patience) = match clocks {
            Some(c) => {
                let side = Clocks::of(game.current().side_to_move());
                (c.go(), c.left[side] + Duration::from_secs(10))
            }
            None => (self.limits.go(), self.limits.patience()),
        };
        let (line, score) = self.with(|e| {
            e.send(&cmd)?;
            e.send(&go)?;
            e.best_move(patience)
        })?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let mv = game
            .current()
            .parse_move(text, notation)
            .map_err(|e| format!("played '{text}': {e:?}"))?;
        Ok((mv, score))
    }
}

fn next_random(state: &mut u64) -> u64 {
    // splitmix64
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where each game pair starts.
enum Openings {
    /// `FEN|moves` lines from a file (moves in the protocol's notation).
    Lines(Vec<(Option<String>, Vec<String>)>),
    /// Xiangqi's fixed lines (ICCS).
    Fixed,
    /// Seeded random plies from the start.
    Random { plies: usize, seed: u64 },
}

impl Openings {
    fn from_args(args: &Args) -> Result<Openings, String> {
        if let Some(path) = &args.openings {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let mut lines = Vec::new();
            for line in text.lines() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                let (fen, moves) = line.split_once('|').unwrap_or((line, ""));
                let fen = fen.trim();
                let fen = (fen != "startpos").then(|| fen.to_owned());
                let moves = moves.split_whitespace().map(str::to_owned).collect();
                lines.push((fen, moves));
            }
            if lines.is_empty() {
                return Err(format!("no openings in {}", path.display()));
            }
            if args.shuffle {
                let mut state = args.seed;
                for i in (1..lines.len()).rev() {
                    let j = (next_random(&mut state) % (i as u64 + 1)) as usize;
                    lines.swap(i, j);
                }
            }
            return Ok(Openings::Lines(lines));
        }
        if args.variant == VariantId::Xiangqi {
            return Ok(Openings::Fixed);
        }
        Ok(Openings::Random {
            plies: args.random_plies,
            seed: args.seed,
        })
    }

    /// The opening of game pair `i`.
    fn game<V: Playable>(&self, i: usize) -> Result<Game<V>, String> {
        let rules = V::Rules::default();
        match self {
            Openings::Lines(lines) => {
                let (fen, moves) = &lines[i % lines.len()];
                let mut game = Game::<V>::from_fen(fen.as_deref(), rules)
                    .map_err(|e| format!("opening {}: {e:?}", i % lines.len() + 1))?;
                game.play_all(moves, protocol_notation::<V>(false))
                    .map_err(|e| format!("opening {}: {e:?}", i % lines.len() + 1))?;
                Ok(game)
            }
            Openings::Fixed => {
                let mut game = Game::new(V::start_position(&rules), rules);
                let line = XIANGQI_OPENINGS[i % XIANGQI_OPENINGS.len()];
                let words: Vec<&str> = line.split_whitespace().collect();
                game.play_all(&words, V::Notation::default())
                    .map_err(|e| format!("fixed opening {line}: {e:?}"))?;
                Ok(game)
            }
            Openings::Random { plies, seed } => {
                let mut game = Game::new(V::start_position(&rules), rules);
                let mut state = seed ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
                let mut moves = Vec::new();
                for _ in 0..*plies {
                    game.current().legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[(next_random(&mut state) % moves.len() as u64) as usize];
                    game.play(mv);
                }
                Ok(game)
            }
        }
    }
}

/// One finished game, from A's point of view.
struct GameReport {
    pair: usize,
    a_colour: Color,
    points: f64,
    how: String,
    /// The game as a JSON line for `--games-out`, if it ended in play.
    record: Option<String>,
    /// A's and B's longest reply.
    longest: [Duration; 2],
}

/// The game as one JSON line in the format `examples/tune.rs` and
/// `examples/fit_wdl.rs` read: start FEN, moves in the variant's default
/// notation, the result by colour, how it ended, how many plies the
/// opening had, and the score each move was played with (its mover's
/// view, centipawns, mates as ±100,000; one per move after the opening).
fn record<V: Playable>(
    game: &Game<V>,
    opening: usize,
    a_colour: Color,
    played: &Played,
) -> Option<String> {
    let (points, how) = (played.points, played.how.as_str());
    let termination = if how.contains("adjudication") {
        "adjudicated"
    } else if how.contains("cap") {
        "max_plies"
    } else if how.contains(" loses at ply ") || how.contains("failed") || how.contains(" on time") {
        return None;
    } else if matches!(game.outcome(), Outcome::Ended(_)) && {
        let mut moves = Vec::new();
        game.current().legal_moves(&mut moves);
        moves.is_empty()
    } {
        "no_moves"
    } else {
        "repetition_or_rule"
    };
    let winner = match points {
        p if p > 0.75 => Some(a_colour),
        p if p < 0.25 => Some(!a_colour),
        _ => None,
    };
    let result = match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    let start = &game.positions()[0];
    let moves = search::line_text(start, game.moves(), V::Notation::default());
    let line = serde_json::json!({
        "fen": start.to_fen(),
        "moves": moves,
        "result": result,
        "termination": termination,
        "random_plies": opening,
        "scores": played.scores,
    });
    Some(line.to_string())
}

/// What one game gave: the result from the first player's point of view
/// (1, ½, 0), how it ended, and each move's score from its mover's point of
/// view (after the opening; `None` where the engine gave none).
struct Played {
    points: f64,
    how: String,
    scores: Vec<Option<i32>>,
    /// The first and the second player's longest reply.
    longest: [Duration; 2],
}

/// Plays one game.
fn play<V: Playable>(
    game: &mut Game<V>,
    first_plays: Color,
    first: &mut dyn Player<V>,
    second: &mut dyn Player<V>,
    args: &Args,
) -> Played {
    let mut movers = Vec::new();
    let mut longest = [Duration::ZERO; 2];
    let (points, how) = play_moves(
        game,
        first_plays,
        (first, second),
        args,
        &mut movers,
        &mut longest,
    );
    Played {
        points,
        how,
        scores: movers,
        longest,
    }
}

/// Plays the game's moves; pushes each move's score (its mover's view) to
/// `movers`; keeps each player's longest reply in `longest`.
fn play_moves<V: Playable>(
    game: &mut Game<V>,
    first_plays: Color,
    (first, second): (&mut dyn Player<V>, &mut dyn Player<V>),
    args: &Args,
    movers: &mut Vec<Option<i32>>,
    longest: &mut [Duration; 2],
) -> (f64, String) {
    let max_plies = args.max_plies;
    let mut clocks = args.clock.map(|c| Clocks {
        left: [c.base; 2],
        increment: c.increment,
    });
    // Each move's score from the first player's point of view.
    let mut scores: Vec<Option<i32>> = Vec::new();
    if let Err(e) = first.new_game() {
        return (0.0, format!("A failed to start a game: {e}"));
    }
    if let Err(e) = second.new_game() {
        return (1.0, format!("B failed to start a game: {e}"));
    }
    let opening_plies = game.moves().len();
    loop {
        let outcome = game.outcome();
        let plies = game.moves().len();
        let game = &mut *game;
        let verdict = match &outcome {
            Outcome::Ongoing if plies - opening_plies >= max_plies => {
                return (0.5, format!("draw by the match's {max_plies}-ply cap"))
            }
            Outcome::Ongoing => None,
            Outcome::Ended(v) => Some(match v.winner {
                Some(w) if w == first_plays => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            }),
        };
        if let Some(points) = verdict {
            return (
                points,
                format!(
                    "{} after {plies} plies: {}",
                    outcome.result(),
                    prose::outcome(game, &outcome)
                ),
            );
        }
        let mover = game.current().side_to_move();
        let first_moves = mover == first_plays;
        let asked = Instant::now();
        let choice = if first_moves {
            first.choose(game, clocks.as_ref())
        } else {
            second.choose(game, clocks.as_ref())
        };
        let took = asked.elapsed();
        let who = usize::from(!first_moves);
        longest[who] = longest[who].max(took);
        if let (Some(c), Ok(_)) = (clocks.as_mut(), &choice) {
            let side = Clocks::of(mover);
            if took > c.left[side] {
                let (points, name) = if first_moves { (0.0, "A") } else { (1.0, "B") };
                return (
                    points,
                    format!(
                        "{name} loses on time at ply {} ({} ms left, took {} ms)",
                        plies + 1,
                        c.left[side].as_millis(),
                        took.as_millis()
                    ),
                );
            }
            c.left[side] = c.left[side] - took + c.increment;
        }
        let mv = match choice {
            Ok((mv, score)) => {
                movers.push(score);
                scores.push(score.map(|v| if first_moves { v } else { -v }));
                if let Some(verdict) = adjudicate(&scores, plies + 1 - opening_plies, args) {
                    game.play(mv);
                    let plies = game.moves().len();
                    return match verdict {
                        1 => (1.0, format!("A wins by adjudication after {plies} plies")),
                        -1 => (0.0, format!("B wins by adjudication after {plies} plies")),
                        _ => (0.5, format!("draw by adjudication after {plies} plies")),
                    };
                }
                mv
            }
            Err(e) => {
                let (points, who) = if first_moves { (0.0, "A") } else { (1.0, "B") };
                return (points, format!("{who} loses at ply {}: {e}", plies + 1));
            }
        };
        game.play(mv);
    }
}

/// The adjudication after the last move, if the scores call for one: 1 the
/// first player wins, -1 it loses, 0 a draw. `scores` are from the first
/// player's point of view; `plies` counts the game's moves after the opening.
fn adjudicate(scores: &[Option<i32>], plies: usize, args: &Args) -> Option<i32> {
    let last = |n: usize| -> Option<Vec<i32>> {
        if scores.len() < n {
            return None;
        }
        scores[scores.len() - n..].iter().copied().collect()
    };
    if args.resign_score > 0 {
        if let Some(s) = last(2 * args.resign_moves) {
            if s.iter().all(|&v| v >= args.resign_score) {
                return Some(1);
            }
            if s.iter().all(|&v| v <= -args.resign_score) {
                return Some(-1);
            }
        }
    }
    if args.draw_after > 0 && plies >= args.draw_after {
        if let Some(s) = last(2 * args.draw_moves) {
            if s.iter().all(|v| v.abs() <= args.draw_score) {
                return Some(0);
            }
        }
    }
    None
}

fn player<V: Playable>(
    spec: &str,
    options: &[String],
    args: &Args,
    limits: MoveLimits,
    worker: usize,
    role: u64,
) -> Box<dyn Player<V>> {
    match spec {
        "self" => Box::new(InProcess {
            limits,
            table: Table::new(1024),
            jitter: (
                args.nodes_jitter,
                (args.seed ^ (worker as u64).wrapping_mul(0x9E37_79B9)).wrapping_add(role << 40),
            ),
            nnue: args.nnue,
        }),
        "greedy" => Box::new(Greedy(args.seed ^ worker as u64)),
        command => {
            let options = options
                .iter()
                .map(|o| {
                    let (n, v) = o.split_once('=').expect("options are NAME=VALUE");
                    (n.to_owned(), v.to_owned())
                })
                .collect();
            Box::new(External::new(command, V::ID, options, limits))
        }
    }
}

/// The running totals: games and pairs.
#[derive(Default)]
struct Totals {
    wins: usize,
    draws: usize,
    losses: usize,
    /// Pairs by A's points in the pair: 0, ½, 1, 1½, 2.
    pairs: [usize; 5],
}

fn logistic(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Totals {
    fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// Mean and variance of a pair's score (as a fraction of the pair's two points).
    fn pair_moments(&self) -> (usize, f64, f64) {
        let n: usize = self.pairs.iter().sum();
        if n == 0 {
            return (0, 0.5, 0.0);
        }
        let value = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| self.pairs[k] as f64 * value(k)).sum::<f64>() / n as f64;
        let var = (0..5)
            .map(|k| self.pairs[k] as f64 * (value(k) - mean).powi(2))
            .sum::<f64>()
            / n as f64;
        (n, mean, var)
    }

    /// Elo and its 95 % margin from the pairs.
    fn elo(&self) -> (f64, f64) {
        let (n, mean, var) = self.pair_moments();
        if n < 2 {
            return (0.0, f64::INFINITY);
        }
        let dev = 1.959_964 * (var / n as f64).sqrt();
        let (lo, hi) = ((mean - dev).max(1e-6), (mean + dev).min(1.0 - 1e-6));
        let mean = mean.clamp(1e-6, 1.0 - 1e-6);
        (elo(mean), (elo(hi) - elo(lo)) / 2.0)
    }

    /// The log-likelihood ratio of ELO1 against ELO0.
    fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let (n, mean, var) = self.pair_moments();
        if n < 2 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (logistic(elo0), logistic(elo1));
        n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    fn line(&self, a: &str, b: &str, sprt: Option<(f64, f64)>) -> String {
        let (e, m) = self.elo();
        let mut s = format!(
            "{a} vs {b}: +{} ={} -{} of {}, score {:.1} %, Elo {e:+.1} +/- {m:.1} (pairs {:?})",
            self.wins,
            self.draws,
            self.losses,
            self.games(),
            self.score() * 100.0,
            self.pairs
        );
        if let Some((e0, e1)) = sprt {
            s.push_str(&format!(
                ", LLR {:.2} [{:.2}, {:.2}]",
                self.llr(e0, e1),
                SPRT_LOWER,
                SPRT_UPPER
            ));
        }
        s
    }
}

/// ln(β / (1 - α)) and ln((1 - β) / α) for α = β = 0.05.
const SPRT_LOWER: f64 = -2.944_438_979;
const SPRT_UPPER: f64 = 2.944_438_979;

fn run<V: Playable>(args: &Args) -> Result<(), String> {
    if args.movetime_ms.is_none()
        && args.nodes.is_none()
        && args.depth.is_none()
        && args.clock.is_none()
    {
        return Err("give --movetime-ms, --nodes, --depth or --clock".to_owned());
    }
    let limits = MoveLimits {
        movetime: args.movetime_ms.map(Duration::from_millis),
        nodes: args.nodes,
        depth: args.depth,
    };
    let openings = Arc::new(Openings::from_args(args)?);
    // Check every opening before the first game.
    if let Openings::Lines(lines) = openings.as_ref() {
        for i in 0..lines.len() {
            openings.game::<V>(i)?;
        }
    }
    let name_a = args.name_a.clone().unwrap_or_else(|| args.engine_a.clone());
    let name_b = args.name_b.clone().unwrap_or_else(|| args.engine_b.clone());
    let pairs = args.games.div_ceil(2);
    let sprt = args.sprt.as_ref().map(|v| (v[0], v[1]));
    let how = match args.clock {
        Some(c) => format!(
            "clock {} s + {} s",
            c.base.as_secs_f64(),
            c.increment.as_secs_f64()
        ),
        None => limits.go(),
    };
    println!(
        "{}: {name_a} against {name_b}, {} games, {how}",
        V::ID,
        pairs * 2
    );
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<GameReport>();
    let mut workers = Vec::new();
    for w in 0..args.concurrency.max(1) {
        let (next, stop, tx, openings, args) = (
            next.clone(),
            stop.clone(),
            tx.clone(),
            openings.clone(),
            args.clone(),
        );
        workers.push(std::thread::spawn(move || {
            let mut a = player::<V>(&args.engine_a, &args.options_a, &args, limits, w, 1);
            let mut b = player::<V>(&args.engine_b, &args.options_b, &args, limits, w, 2);
            loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= pairs || stop.load(Ordering::SeqCst) {
                    break;
                }
                let pair = args.first_pair + n;
                for a_colour in [Color::White, Color::Black] {
                    let (points, how, record, longest) = match openings.game::<V>(pair) {
                        Ok(mut game) => {
                            let opening = game.moves().len();
                            let played = play(&mut game, a_colour, a.as_mut(), b.as_mut(), &args);
                            let line = record(&game, opening, a_colour, &played);
                            (played.points, played.how, line, played.longest)
                        }
                        Err(e) => (0.5, e, None, [Duration::ZERO; 2]),
                    };
                    let report = GameReport {
                        pair,
                        a_colour,
                        points,
                        how,
                        record,
                        longest,
                    };
                    if tx.send(report).is_err() {
                        return;
                    }
                }
            }
        }));
    }
    drop(tx);
    let mut games_out = match &args.games_out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut totals = Totals::default();
    let mut longest = [Duration::ZERO; 2];
    let mut halves: std::collections::HashMap<usize, f64> = Default::default();
    for report in rx {
        if let (Some(f), Some(line)) = (games_out.as_mut(), &report.record) {
            writeln!(f, "{line}").map_err(|e| format!("cannot write a game: {e}"))?;
        }
        longest[0] = longest[0].max(report.longest[0]);
        longest[1] = longest[1].max(report.longest[1]);
        match report.points {
            p if p > 0.75 => totals.wins += 1,
            p if p < 0.25 => totals.losses += 1,
            _ => totals.draws += 1,
        }
        if !args.quiet {
            println!(
                "game {:>4} (pair {:>4}, A {}): {} - {}",
                totals.games(),
                report.pair + 1,
                V::side_name(report.a_colour),
                report.points,
                report.how
            );
        }
        if let Some(first) = halves.remove(&report.pair) {
            let k = ((first + report.points) * 2.0).round() as usize;
            totals.pairs[k.min(4)] += 1;
            let done: usize = totals.pairs.iter().sum();
            if done.is_multiple_of(10) {
                println!("{}", totals.line(&name_a, &name_b, sprt));
            }
            if let Some((e0, e1)) = sprt {
                let llr = totals.llr(e0, e1);
                if !stop.load(Ordering::SeqCst) && done >= 10 {
                    if llr >= SPRT_UPPER {
                        println!("SPRT: H1 accepted (Elo >= {e1} rather than {e0})");
                        stop.store(true, Ordering::SeqCst);
                    } else if llr <= SPRT_LOWER {
                        println!("SPRT: H0 accepted (Elo <= {e0} rather than {e1})");
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
        } else {
            halves.insert(report.pair, report.points);
        }
    }
    for w in workers {
        let _ = w.join();
    }
    println!("final: {}", totals.line(&name_a, &name_b, sprt));
    println!(
        "longest reply: {name_a} {} ms, {name_b} {} ms",
        longest[0].as_millis(),
        longest[1].as_millis()
    );
    Ok(())
}

/// Runs the match with the variant the command line names.
struct Run<'a>(&'a Args);

impl Visitor for Run<'_> {
    type Output = Result<(), String>;
    fn visit<V: Playable>(self) -> Result<(), String> {
        run::<V>(self.0)
    }
}

fn main() {
    let args = Args::parse();
    if let Err(e) = args.variant.visit(Run(&args)) {
        eprintln!("match: {e}");
        std::process::exit(2);
    }
}
