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
//! are `FEN | score | result`, Red's side (see `arbiter::training::datagen`);
//! the same arguments write the same file. The output is appended to, so a
//! run can be continued with another `--seed`.
//!
//! With `--rescore GAMES.jsonl` it plays no games: it scores the positions
//! of recorded games instead (one JSON object a line: `fen`, `moves` in ICCS
//! coordinates, `result` `1-0`/`0-1`/`1/2-1/2`, optional `random_plies`
//! left out), each with a search of `--nodes` and the game's result, the
//! first `--games` records (all by default).
//!
//! The searches evaluate by hand unless `--network` names a network file
//! (`shipped`: the one embedded in the binary): data from a network's
//! searches, to train the next one.

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::sync::Arc;
use std::time::Instant;

use arbiter::search::eval::nnue;
use arbiter::search::Network;
use arbiter::training::datagen::{generate, rescore, Config, Record};
use arbiter::variants::xiangqi::{Notation, Position, Rules};
use arbiter::variants::{Color, Variant};
use clap::Parser;
use serde::Deserialize;

#[derive(Parser)]
struct Args {
    /// Games to play (records to score with `--rescore`).
    #[arg(long)]
    games: Option<usize>,
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
    /// Score the positions of these recorded games (JSON lines) instead of
    /// playing games.
    #[arg(long)]
    rescore: Option<std::path::PathBuf>,
    /// Evaluate with this network file (`shipped`: the embedded one)
    /// instead of the hand-written evaluation.
    #[arg(long)]
    network: Option<String>,
}

/// A recorded game, as `--rescore` reads it.
#[derive(Deserialize)]
struct Json {
    fen: String,
    moves: Vec<String>,
    result: String,
    #[serde(default)]
    random_plies: usize,
}

/// The records of a JSON-lines file, each checked move by move.
fn records(path: &std::path::Path, limit: usize) -> Result<Vec<Record<Position>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(limit)
        .enumerate()
    {
        let at = |e: String| format!("{} record {}: {e}", path.display(), n + 1);
        let json: Json = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
        let rules = Rules::default();
        let start = Position::from_fen(&json.fen, &rules).map_err(|e| at(e.to_string()))?;
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for text in &json.moves {
            let mv = pos
                .parse_move(text, Notation::Iccs)
                .map_err(|e| at(format!("move {text}: {e:?}")))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        let winner = match json.result.as_str() {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            other => return Err(at(format!("result {other:?}"))),
        };
        out.push(Record {
            start,
            moves,
            winner,
            skip: json.random_plies,
        });
    }
    Ok(out)
}

/// The network `--network` names.
fn network(name: &str) -> Result<Arc<Network>, String> {
    if name == "shipped" {
        return Ok(nnue::shipped());
    }
    let bytes = std::fs::read(name).map_err(|e| format!("{name}: {e}"))?;
    Network::from_bytes(&bytes)
        .map(Arc::new)
        .map_err(|e| format!("{name}: {e}"))
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let network = args
        .network
        .as_deref()
        .map(network)
        .transpose()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    let config = Config {
        games: args.games.unwrap_or(100),
        nodes: args.nodes,
        random_plies: args.random_plies,
        balanced: args.balanced,
        seed: args.seed,
        threads: args.threads,
        max_plies: args.max_plies,
        network,
        ..Config::default()
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)?;
    // Room for a whole game, so that each game is one write.
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let start = Instant::now();
    let mut report = |i: usize, s: &arbiter::training::datagen::Summary| {
        if (i + 1).is_multiple_of(50) {
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
    };
    let summary = match &args.rescore {
        Some(path) => {
            let records = records(path, args.games.unwrap_or(usize::MAX))
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
            rescore::<Position>(&config, &Rules::default(), &records, &mut out, &mut report)?
        }
        None => generate::<Position>(&config, &Rules::default(), &mut out, &mut report)?,
    };
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
