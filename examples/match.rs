//! Engine matches, adjudicated by arbiter's own rules (not run in CI).
//!
//! ```text
//! # arbiter against Fairy-Stockfish (Xiangqi), 100 ms per move, 40 games:
//! cargo run --release --example match -- xiangqi --games 40 --movetime-ms 100 \
//!     --opponent-uci /path/to/stockfish --opponent-option "Use NNUE=false"
//! # arbiter against a one-ply greedy player:
//! cargo run --release --example match -- taxi --games 40 --movetime-ms 100
//! ```
//!
//! Each opening is played twice, colours swapped. Xiangqi uses fixed
//! balanced openings; Taxi and Tamerlane open with two random plies chosen by
//! a seeded generator. A game that reaches `--max-plies` is scored a draw.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use arbiter::api::prose;
use arbiter::dispatch::{Playable, Visitor};
use arbiter::search::{self, Control, Evaluate, Limits, Table};
use arbiter::uci::UciVariant;
use arbiter::variants::{Color, Game, Outcome, Variant, VariantId};

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

struct Options {
    games: usize,
    movetime: Duration,
    max_plies: usize,
    opponent: Option<String>,
    opponent_options: Vec<(String, String)>,
    seed: u64,
}

trait Player<V: Variant> {
    fn name(&self) -> String;
    fn choose(&mut self, game: &Game<V>) -> V::Move;
}

/// arbiter's own search, in process, keeping its table from move to move
/// as `arbiter uci` does.
struct Arbiter<M> {
    movetime: Duration,
    table: Table<M>,
}

impl<V: Evaluate> Player<V> for Arbiter<V::Move> {
    fn name(&self) -> String {
        format!("arbiter ({} ms/move)", self.movetime.as_millis())
    }
    fn choose(&mut self, game: &Game<V>) -> V::Move {
        let limits = Limits {
            movetime: Some(self.movetime),
            multipv: 1,
            ..Limits::default()
        };
        search::search_with_table(game, &limits, &Control::default(), &mut self.table, None)
            .expect("the game is not over")
            .best_move
    }
}

/// One ply deep: the move whose resulting position the evaluation likes
/// best (a win at once first), ties broken by a seeded generator.
struct Greedy(u64);

impl<V: Evaluate> Player<V> for Greedy {
    fn name(&self) -> String {
        "greedy (one ply)".to_owned()
    }
    fn choose(&mut self, game: &Game<V>) -> V::Move {
        let pos = game.current();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut best = (i64::MIN, moves[0]);
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
        best.1
    }
}

/// A UCI engine in a child process.
struct External {
    name: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    movetime: Duration,
}

impl External {
    fn start(
        command: &str,
        variant: VariantId,
        options: &[(String, String)],
        movetime: Duration,
    ) -> External {
        let mut child = Command::new(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command}: {e}"));
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut e = External {
            name: command.to_owned(),
            child,
            input,
            output,
            movetime,
        };
        e.send("uci");
        e.wait_for("uciok");
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        for (name, value) in options {
            e.send(&format!("setoption name {name} value {value}"));
        }
        e.send("isready");
        e.wait_for("readyok");
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("engine input");
        self.input.flush().expect("engine input");
    }

    fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.output.read_line(&mut line).expect("engine output");
            assert!(n > 0, "{} ended before '{prefix}'", self.name);
            if line.starts_with(prefix) {
                return line.trim().to_owned();
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

impl<V: UciVariant> Player<V> for External {
    fn name(&self) -> String {
        format!("{} ({} ms/move)", self.name, self.movetime.as_millis())
    }
    fn choose(&mut self, game: &Game<V>) -> V::Move {
        let notation = V::protocol_notation(false);
        let start = &game.positions()[0];
        let moves = search::line_text(start, game.moves(), notation);
        let mut cmd = format!("position fen {}", start.to_fen());
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        self.send(&cmd);
        self.send(&format!("go movetime {}", self.movetime.as_millis()));
        let line = self.wait_for("bestmove");
        let text = line.split_whitespace().nth(1).unwrap_or("");
        game.current()
            .parse_move(text, notation)
            .unwrap_or_else(|e| panic!("{} played {text}: {e:?}", self.name))
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

/// The opening for game pair `i`: fixed lines for Xiangqi, two random plies
/// otherwise.
fn opening<V: Variant>(i: usize, seed: u64) -> Game<V> {
    let rules = V::Rules::default();
    let mut game = Game::new(V::start_position(&rules), rules);
    if V::ID == VariantId::Xiangqi {
        let line = XIANGQI_OPENINGS[i % XIANGQI_OPENINGS.len()];
        let words: Vec<&str> = line.split_whitespace().collect();
        game.play_all(&words, V::Notation::default())
            .expect("the openings are legal");
        return game;
    }
    let mut state = seed ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
    let mut moves = Vec::new();
    for _ in 0..2 {
        game.current().legal_moves(&mut moves);
        let mv = moves[(next_random(&mut state) % moves.len() as u64) as usize];
        game.play(mv);
    }
    game
}

/// Plays one game; returns the result from `first`'s point of view (1, ½, 0)
/// and a description.
fn play<V: Playable>(
    mut game: Game<V>,
    first_plays: Color,
    first: &mut dyn Player<V>,
    second: &mut dyn Player<V>,
    max_plies: usize,
) -> (f64, String) {
    loop {
        let outcome = game.outcome();
        let plies = game.moves().len();
        let verdict = match &outcome {
            Outcome::Ongoing if plies >= max_plies => {
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
                    prose::outcome(&game, &outcome)
                ),
            );
        }
        let mover = game.current().side_to_move();
        let mv = if mover == first_plays {
            first.choose(&game)
        } else {
            second.choose(&game)
        };
        game.play(mv);
    }
}

fn run<V: Playable>(o: &Options) {
    let mut ours = Arbiter::<V::Move> {
        movetime: o.movetime,
        table: Table::new(1 << 19),
    };
    let mut theirs: Box<dyn Player<V>> = match &o.opponent {
        Some(cmd) => Box::new(External::start(cmd, V::ID, &o.opponent_options, o.movetime)),
        None => Box::new(Greedy(o.seed)),
    };
    println!(
        "{}: {} against {}, {} games",
        V::ID,
        Player::<V>::name(&ours),
        theirs.name(),
        o.games
    );
    let (mut score, mut wins, mut draws, mut losses) = (0.0, 0, 0, 0);
    for g in 0..o.games {
        let start = opening::<V>(g / 2, o.seed);
        // A new game: nothing carried over from the last one.
        ours.table = Table::new(1 << 19);
        let arbiter_colour = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let (points, how) = play(
            start,
            arbiter_colour,
            &mut ours,
            theirs.as_mut(),
            o.max_plies,
        );
        score += points;
        match points {
            p if p > 0.75 => wins += 1,
            p if p < 0.25 => losses += 1,
            _ => draws += 1,
        }
        println!(
            "game {:>2} (opening {:>2}, arbiter {}): {points} - {how}",
            g + 1,
            g / 2 + 1,
            V::side_name(arbiter_colour)
        );
    }
    println!(
        "arbiter scored {score} / {} (+{wins} ={draws} -{losses})",
        o.games
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args
        .first()
        .and_then(|v| VariantId::parse(v))
        .expect("usage: match <xiangqi|taxi|tamerlane> [--games N] [--movetime-ms MS] [--max-plies N] [--seed N] [--opponent-uci CMD] [--opponent-option NAME=VALUE]");
    let mut o = Options {
        games: 40,
        movetime: Duration::from_millis(100),
        max_plies: 300,
        opponent: None,
        opponent_options: Vec::new(),
        seed: 1,
    };
    let mut i = 1;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => o.games = value.parse().expect("--games N"),
            "--movetime-ms" => {
                o.movetime = Duration::from_millis(value.parse().expect("--movetime-ms MS"))
            }
            "--max-plies" => o.max_plies = value.parse().expect("--max-plies N"),
            "--seed" => o.seed = value.parse().expect("--seed N"),
            "--opponent-uci" => o.opponent = Some(value),
            "--opponent-option" => {
                let (n, v) = value.split_once('=').expect("--opponent-option NAME=VALUE");
                o.opponent_options.push((n.to_owned(), v.to_owned()));
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    variant.visit(Run(&o));
}

/// Runs the match with the variant the command line names.
struct Run<'a>(&'a Options);

impl Visitor for Run<'_> {
    type Output = ();
    fn visit<V: Playable>(self) {
        run::<V>(self.0)
    }
}
