//! Writes Xiangqi training positions from the engine's own games (issue 31;
//! not run in CI, which runs the same code on a few games in
//! `tests/nnue_pipeline.rs`):
//!
//! ```text
//! cargo run --release --example datagen -- --games 2000 --nodes 5000 \
//!     --seed 1 --threads 2 --out DATA.txt
//! ```
//!
//! Each game opens with `--random-plies` seeded random moves (drawn again
//! until a short search finds the position within `--balanced` centipawns
//! of level) and is then played by the search at `--nodes` a move. Lines
//! are `FEN | score | result`, Red's side (see `arbiter::search::datagen`);
//! the same arguments write the same file. The output is appended to, so a
//! run can be continued with another `--seed`.

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::time::Instant;

use arbiter::search::datagen::{generate, Config};
use arbiter::variants::xiangqi::{Position, Rules};
use clap::Parser;

#[derive(Parser)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Nodes a move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Random plies opening each game.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// An opening is kept when a short search scores it within this.
    #[arg(long, default_value_t = 300)]
    balanced: i32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Plies after which a game is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// File to append to.
    #[arg(long)]
    out: std::path::PathBuf,
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let config = Config {
        games: args.games,
        nodes: args.nodes,
        random_plies: args.random_plies,
        balanced: args.balanced,
        seed: args.seed,
        threads: args.threads,
        max_plies: args.max_plies,
        ..Config::default()
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)?;
    // Room for a whole game, so that each game is one write.
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let start = Instant::now();
    let summary = generate::<Position>(&config, &Rules::default(), &mut out, &mut |i, s| {
        if (i + 1) % 50 == 0 {
            eprintln!(
                "{} games, {} positions, +{} ={} -{} (Red), {:.0} s",
                s.games,
                s.positions,
                s.results[0],
                s.results[1],
                s.results[2],
                start.elapsed().as_secs_f64()
            );
        }
    })?;
    out.flush()?;
    eprintln!(
        "done: {} games, {} positions, +{} ={} -{} (Red), {:.0} s",
        summary.games,
        summary.positions,
        summary.results[0],
        summary.results[1],
        summary.results[2],
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
