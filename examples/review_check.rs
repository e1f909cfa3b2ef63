//! Does a game review find the moves a much stronger search calls bad?
//! (not run in CI; the figure is in `docs/engine.md`):
//!
//! ```text
//! cargo run --release --example review_check -- GAMES.jsonl --games 10 \
//!     [--review-ms 50] [--deep-ms 1000] [--skip 0]
//! ```
//!
//! `GAMES.jsonl`: Xiangqi games, one JSON line each with `fen` and `moves`
//! (ICCS), as the match tool's `--games-out` or the self-play data write
//! them. Each game is reviewed as `POST …/review` reviews it (one table,
//! `--review-ms` a position), and each of its positions is searched again
//! for `--deep-ms` with a fresh table. A move is bad by the deep search
//! when it gives away 300 centipawns or more: the deep score before it less
//! the deep score after it, from the mover's view, each clamped to ±1,000
//! (beyond that a game is decided, as Lichess clamps; a mate counts as
//! 1,000: going from a mate to a lead of 2,000 gives nothing away). The
//! figure: of the bad moves, how many the review classes `mistake`,
//! `blunder` or `missed_win`.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use arbiter::search::{self, review, Control, Limits, Score, Table};
use arbiter::variants::xiangqi::{Notation, Position};
use arbiter::variants::{Game, Outcome, Variant};

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = &args[0];
    let games = arg(&args, "--games", 10) as usize;
    let skip = arg(&args, "--skip", 0) as usize;
    let review_ms = arg(&args, "--review-ms", 50);
    let deep_ms = arg(&args, "--deep-ms", 1000);
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    let (mut bad, mut caught, mut moves_seen) = (0, 0, 0);
    let review_limits = Limits {
        movetime: Some(Duration::from_millis(review_ms)),
        multipv: 1,
        ..Limits::default()
    };
    let deep_limits = Limits {
        movetime: Some(Duration::from_millis(deep_ms)),
        multipv: 1,
        ..Limits::default()
    };
    for line in BufReader::new(file).lines().skip(skip).take(games) {
        let g: serde_json::Value = serde_json::from_str(&line.unwrap()).expect("JSON");
        let mut game =
            Game::<Position>::from_fen(g["fen"].as_str(), Default::default()).expect("a FEN");
        for m in g["moves"].as_array().expect("moves") {
            if !matches!(game.outcome(), Outcome::Ongoing) {
                break;
            }
            let mv = game
                .current()
                .parse_move(m.as_str().unwrap(), Notation::Iccs)
                .expect("a legal move");
            game.play(mv);
        }
        let table = Table::new(search::table_entries(16));
        let reviewed = review::review(
            &game,
            game.moves().len(),
            &review_limits,
            &Control::default(),
            &table,
            &mut |_| {},
        );
        // The deep scores of every position, from its side to move.
        let mut replay = Game::new(game.positions()[0].clone(), game.rules().clone());
        let mut deep = Vec::new();
        for i in 0..=reviewed.len() {
            let score = match replay.outcome() {
                Outcome::Ended(v) => match v.winner {
                    // The side to move in an ended game has lost or drawn.
                    Some(w) if w == replay.current().side_to_move() => 10_000,
                    Some(_) => -10_000,
                    None => 0,
                },
                Outcome::Ongoing => {
                    let t = Table::new(search::table_entries(64));
                    let r = search::search_with_table(
                        &replay,
                        &deep_limits,
                        &Control::default(),
                        &t,
                        None,
                    )
                    .expect("a move");
                    centipawns(r.lines[0].score)
                }
            };
            deep.push(score);
            if i < reviewed.len() {
                replay.play(game.moves()[i]);
            }
        }
        for (i, p) in reviewed.iter().enumerate() {
            moves_seen += 1;
            let lost = deep[i].clamp(-1000, 1000) + deep[i + 1].clamp(-1000, 1000);
            if lost >= 300 {
                bad += 1;
                let hit = matches!(
                    p.class,
                    review::MoveClass::Mistake
                        | review::MoveClass::Blunder
                        | review::MoveClass::MissedWin
                );
                if hit {
                    caught += 1;
                }
                println!(
                    "  ply {:>3}: deep {:>6} -> {:>6} (lost {lost}), review {:?} ({:.1} points)",
                    p.ply,
                    deep[i],
                    -deep[i + 1],
                    p.class,
                    p.win_loss
                );
            }
        }
        println!(
            "after {} moves: {bad} bad by the deep search, {caught} classed mistake or worse ({:.1} %)",
            moves_seen,
            100.0 * caught as f64 / bad.max(1) as f64
        );
    }
}
