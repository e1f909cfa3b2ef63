//! Does a game review find the moves a much stronger search calls bad, and
//! leave the good ones alone? (not run in CI; the figures are in
//! `docs/engine.md`):
//!
//! ```text
//! # 1. The reference: every position of each game searched deep (slow;
//! #    a line per game as it is done, so that a run can be stopped)
//! cargo run --release --example review_check -- deep GAMES.jsonl --skip 3000 \
//!     --games 12 --nodes 2000000 --threads 2 > deep.jsonl
//! # 2. The review at its default budget, held against it
//! cargo run --release --example review_check -- check deep.jsonl [--nodes 30000]
//! ```
//!
//! `GAMES.jsonl`: Xiangqi games, one JSON line each with `fen` and `moves`
//! (ICCS), as the self-play data and the match tool's `--games-out` write
//! them; each game is played under the default rules up to its end. The
//! deep search: one thread, a fresh table, the shipped network, `--nodes`
//! a position. `check` reviews each game as `POST …/review` does by default
//! (three passes; `--nodes` the first pass's budget a position, ten times
//! that to verify, forty times for the third; two workers), and again with
//! the first two passes alone, and compares, from the mover's view, the deep
//! score before each move with the deep score after it, each clamped to
//! ±1,000 (a mate counts as 1,000). A move loses ≥ 300 cp "from an open
//! position" when the deep score before it is within ±500 and the loss is
//! 300 or more; the figures: of those, the share the review classes
//! `mistake`, `blunder` or `missed_win`; of the moves losing under 30 cp
//! (any position), the share classed `mistake` or `blunder`.

use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use arbiter::search::review::{self, Budget, MoveClass};
use arbiter::search::{self, Control, Evaluate, Limits, Score, Table};
use arbiter::variants::xiangqi::{Notation, Position};
use arbiter::variants::{Game, Outcome, Variant};

/// A score in centipawns, a mate as ±10,000 less its distance.
fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 10_000 - n,
        Score::Mate(n) => -10_000 - n,
    }
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .map(|i| args[i + 1].parse().expect("a number"))
        .unwrap_or(default)
}

/// A game of the file, played up to its end under the default rules.
fn game_of(line: &serde_json::Value) -> Game<Position> {
    let mut game =
        Game::<Position>::from_fen(line["fen"].as_str(), Default::default()).expect("a FEN");
    for m in line["moves"].as_array().expect("moves") {
        if !matches!(game.outcome(), Outcome::Ongoing) {
            break;
        }
        let mv = game
            .current()
            .parse_move(m.as_str().expect("a move"), Notation::Iccs)
            .expect("a legal move");
        game.play(mv);
    }
    game
}

/// Every position's deep score, from its side to move.
fn deep_scores(game: &Game<Position>, nodes: u64) -> Vec<i32> {
    let limits = Limits {
        nodes: Some(nodes),
        multipv: 1,
        threads: 1,
        network: Position::shipped_network(),
        ..Limits::default()
    };
    let mut replay = Game::new(game.positions()[0].clone(), game.rules().clone());
    let mut out = Vec::new();
    for i in 0..=game.moves().len() {
        let score = match replay.outcome() {
            Outcome::Ended(v) => match v.winner {
                Some(w) if w == replay.current().side_to_move() => 10_000,
                Some(_) => -10_000,
                None => 0,
            },
            Outcome::Ongoing => {
                let t = Table::new(search::table_entries(64));
                let r = search::search_with_table(&replay, &limits, &Control::default(), &t, None)
                    .expect("a move");
                centipawns(r.lines[0].score)
            }
        };
        out.push(score);
        if i < game.moves().len() {
            replay.play(game.moves()[i]);
        }
    }
    out
}

fn deep(args: &[String]) {
    let path = &args[0];
    let games = arg(args, "--games", 10) as usize;
    let skip = arg(args, "--skip", 0) as usize;
    let nodes = arg(args, "--nodes", 2_000_000);
    let threads = arg(args, "--threads", 1) as usize;
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    let lines: Vec<(usize, serde_json::Value)> = BufReader::new(file)
        .lines()
        .enumerate()
        .skip(skip)
        .take(games)
        .map(|(i, l)| (i, serde_json::from_str(&l.expect("a line")).expect("JSON")))
        .collect();
    let next = AtomicUsize::new(0);
    let out = Mutex::new(std::io::stdout());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                while let Some((index, line)) = lines.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let game = game_of(line);
                    let scores = deep_scores(&game, nodes);
                    let record = serde_json::json!({
                        "index": index, "fen": line["fen"], "moves": line["moves"],
                        "deep_nodes": nodes, "scores": scores,
                    });
                    let mut o = out.lock().expect("stdout");
                    let _ = writeln!(o, "{record}");
                    let _ = o.flush();
                }
            });
        }
    });
}

fn check(args: &[String]) {
    let path = &args[0];
    let nodes = arg(args, "--nodes", 30_000);
    let workers = arg(args, "--workers", 2) as usize;
    let trial = |name: &str| args.iter().any(|a| a == name).then(|| arg(args, name, 0));
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    let (mut bad, mut caught, mut fine, mut flagged, mut moves) = (0, 0, 0, 0, 0);
    let (mut caught_two, mut flagged_two) = (0, 0);
    let mut found = 0;
    let (mut searched, mut positions, mut verified) = (0u64, 0usize, 0usize);
    let started = std::time::Instant::now();
    for line in BufReader::new(file).lines() {
        let g: serde_json::Value = serde_json::from_str(&line.expect("a line")).expect("JSON");
        let game = game_of(&g);
        let deep: Vec<i32> = g["scores"]
            .as_array()
            .expect("scores")
            .iter()
            .map(|v| v.as_i64().expect("a score") as i32)
            .collect();
        assert_eq!(deep.len(), game.moves().len() + 1, "game {}", g["index"]);
        let mut budget = Budget::in_nodes(
            nodes,
            game.positions().len(),
            workers,
            Position::shipped_network(),
        );
        // Trials of other shares (not the review's defaults).
        if let Some(d) = trial("--verify-div") {
            budget.verify_positions = (game.positions().len() / d as usize).max(16);
        }
        if let Some(d) = trial("--deep-div") {
            budget.deep_positions = (game.positions().len() / d as usize).max(4);
        }
        if let Some(f) = trial("--deep-factor") {
            budget.deep.nodes = budget.verify.nodes.map(|n| n * f);
        }
        let control = Control::default();
        let reviewed = review::review(&game, game.moves().len(), &budget, &control, &mut |_| {});
        let review_with = |b: Budget| {
            review::review(
                &game,
                game.moves().len(),
                &b,
                &Control::default(),
                &mut |_| {},
            )
        };
        // The first pass alone, to see what verification changed.
        let first = review_with(Budget {
            verify_positions: 0,
            deep_positions: 0,
            ..budget.clone()
        });
        // The first two passes, without the third.
        let two = review_with(Budget {
            deep_positions: 0,
            ..budget.clone()
        });
        searched += control.nodes.load(Ordering::Relaxed);
        positions += game.positions().len();
        verified += reviewed.plies.iter().filter(|p| p.verified).count();
        for (i, p) in reviewed.plies.iter().enumerate() {
            moves += 1;
            let before = deep[i].clamp(-1000, 1000);
            let lost = before + deep[i + 1].clamp(-1000, 1000);
            let serious = MoveClass::is_mistake_or_worse;
            let marked = serious(p.class);
            let first_class = first.plies[i].class;
            let two_class = two.plies[i].class;
            if marked && !serious(first_class) {
                found += 1;
                println!(
                    "  game {} ply {:>3}: verification made it {:?} ({:.1} points), the first pass {first_class:?} ({:.1} points); deep {:>6} -> {:>6}",
                    g["index"],
                    p.ply,
                    p.class,
                    p.win_loss,
                    first.plies[i].win_loss,
                    deep[i],
                    -deep[i + 1],
                );
            }
            let show = |note: &str| {
                println!(
                    "  game {} ply {:>3}: deep {:>6} -> {:>6} (lost {lost}), review {:?} ({:.1} points{}), {note}",
                    g["index"],
                    p.ply,
                    deep[i],
                    -deep[i + 1],
                    p.class,
                    p.win_loss,
                    if p.verified { ", verified" } else { "" }
                )
            };
            if lost >= 300 && before.abs() <= 500 {
                bad += 1;
                caught += usize::from(marked);
                caught_two += usize::from(serious(two_class));
                show(&format!(
                    "first pass {first_class:?}, two passes {two_class:?}"
                ));
            } else if lost < 30 {
                fine += 1;
                let flags = |c: MoveClass| matches!(c, MoveClass::Mistake | MoveClass::Blunder);
                flagged_two += usize::from(flags(two_class));
                if flags(p.class) {
                    flagged += 1;
                    show("fine by the deep search");
                }
            }
        }
    }
    println!(
        "{moves} moves: {bad} lose >= 300 cp from an open position, {caught} classed mistake or worse ({:.1} %); \
         {fine} lose < 30 cp, {flagged} classed mistake or blunder ({:.1} %)",
        100.0 * caught as f64 / bad.max(1) as f64,
        100.0 * flagged as f64 / fine.max(1) as f64,
    );
    println!(
        "the first two passes alone: {caught_two} of {bad} ({:.1} %); {flagged_two} of {fine} ({:.1} %)",
        100.0 * caught_two as f64 / bad.max(1) as f64,
        100.0 * flagged_two as f64 / fine.max(1) as f64,
    );
    println!("moves classed mistake or worse by verification that the first pass was not: {found}");
    println!(
        "review: {:.0} nodes a position on average ({} positions, {verified} plies verified), {:.1} s",
        searched as f64 / positions.max(1) as f64,
        positions,
        started.elapsed().as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("deep") => deep(&args[1..]),
        Some("check") => check(&args[1..]),
        _ => {
            eprintln!("usage: review_check deep GAMES.jsonl [--skip N] [--games N] [--nodes N] [--threads N] > deep.jsonl\n       review_check check deep.jsonl [--nodes N] [--workers N]");
            std::process::exit(2);
        }
    }
}
