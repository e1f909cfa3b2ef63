//! Training data from the engine's own games: self-play at a fixed number of
//! nodes a move from seeded random openings, every position kept with the
//! search's score and the game's result (issue 31). [`rescore`] does the
//! same for games played elsewhere: each position scored by the search,
//! with the recorded game's result.
//!
//! A game is a function of its index and the configuration (each game
//! starts with a fresh transposition table, its random plies come from a
//! generator seeded by the seed and the index, and a node-limited search
//! is deterministic), and games are written in index order whatever the
//! number of threads: the same command writes the same file.
//!
//! Each line is `FEN | score | result`: the search's score in centipawns
//! and the result (`1`, `0.5`, `0`), both from Red's (White's) side.
//! Positions in check, positions whose best move is a capture, and
//! positions with a score beyond ±[`SCORE_LIMIT`] are left out (they are
//! not quiet, or not an evaluation's business).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use crate::search::{
    search_with_table, table_entries, Control, Evaluate, Limits, Network, SearchResult, Table,
};
use crate::variants::{Color, Game, Outcome, Variant};

/// Scores beyond this (centipawns) are left out of the data, and a game
/// whose score stays beyond it is adjudicated.
pub const SCORE_LIMIT: i32 = 2_000;

/// How to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games to play.
    pub games: usize,
    /// Nodes each move is searched.
    pub nodes: u64,
    /// Random legal moves opening each game (both sides').
    pub random_plies: usize,
    /// An opening is kept when a short search (`nodes`, at most 1,000)
    /// scores it within this many centipawns of level; otherwise the game
    /// draws new random plies.
    pub balanced: i32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Plies after which a game is scored a draw.
    pub max_plies: usize,
    /// Consecutive plies (both sides') of scores beyond [`SCORE_LIMIT`],
    /// one way, that adjudicate a game to the side ahead (0: never).
    pub adjudicate_plies: usize,
    /// Transposition table of each game, in MiB.
    pub table_mb: usize,
    /// The network every search evaluates with (a variant with one:
    /// Xiangqi); `None`: the hand-written evaluation.
    pub network: Option<Arc<Network>>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            games: 100,
            nodes: 5_000,
            random_plies: 8,
            balanced: 300,
            seed: 1,
            threads: 1,
            max_plies: 400,
            adjudicate_plies: 8,
            table_mb: 8,
            network: None,
        }
    }
}

/// What a run wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Games won by Red, drawn, won by Black.
    pub results: [usize; 3],
}

/// One finished game: its kept lines and result.
struct Played {
    lines: Vec<String>,
    result: usize,
}

/// Plays `config.games` games and writes their positions to `out`, in game
/// order; `progress` hears of every game written (its index and the summary
/// so far).
pub fn generate<V: Evaluate>(
    config: &Config,
    rules: &V::Rules,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, &Summary),
) -> io::Result<Summary> {
    run(config, config.games, out, progress, &|index, table| {
        play_game::<V>(config, rules, index, table)
    })
}

/// A game played elsewhere, to be scored by the search: its start, its
/// moves and its result.
#[derive(Clone, Debug)]
pub struct Record<V: Variant> {
    /// The start position.
    pub start: V,
    /// The moves, all legal.
    pub moves: Vec<V::Move>,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Leading moves left out (a random opening's).
    pub skip: usize,
}

/// Scores every quiet position of each record (after its skipped moves)
/// with a search of `config.nodes` nodes and writes it with the record's
/// result, records in order, left out by the same rules as self-play
/// positions (in check, a capture as best move, a score beyond
/// [`SCORE_LIMIT`]). `config.threads` records are scored at once; each
/// starts with an empty table, so the same records write the same lines.
pub fn rescore<V: Evaluate>(
    config: &Config,
    rules: &V::Rules,
    records: &[Record<V>],
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, &Summary),
) -> io::Result<Summary> {
    run(config, records.len(), out, progress, &|index, table| {
        rescore_game(config, rules, &records[index], table)
    })
}

/// Runs `job` for indices `0..count` on `config.threads` threads (each
/// with its own table) and writes the results in index order.
fn run(
    config: &Config,
    count: usize,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, &Summary),
    job: &(dyn Fn(usize, &Table) -> Played + Sync),
) -> io::Result<Summary> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Played)>();
    let mut summary = Summary::default();
    let mut waiting = BTreeMap::new();
    std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..config.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let table = Table::new(table_entries(config.table_mb));
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        break;
                    }
                    if tx.send((index, job(index, &table))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut written = 0;
        for (index, played) in rx {
            waiting.insert(index, played);
            while let Some(played) = waiting.remove(&written) {
                for line in &played.lines {
                    writeln!(out, "{line}")?;
                }
                // A game at a time: a run stopped between games leaves
                // whole lines behind.
                out.flush()?;
                summary.games += 1;
                summary.positions += played.lines.len();
                summary.results[played.result] += 1;
                progress(written, &summary);
                written += 1;
            }
        }
        out.flush()
    })?;
    Ok(summary)
}

/// A random opening of `config.random_plies` plies that a short search
/// finds balanced (up to 100 tries, then the last one).
fn opening<V: Evaluate>(
    config: &Config,
    rules: &V::Rules,
    rng: &mut fastrand::Rng,
    table: &Table,
) -> Game<V> {
    let mut moves = Vec::new();
    let mut last = None;
    for _ in 0..100 {
        let mut game = Game::new(V::start_position(rules), rules.clone());
        // A game that goes on has a legal move (no move is a verdict).
        for _ in 0..config.random_plies {
            if !game.outcome().is_ongoing() {
                break;
            }
            game.current().legal_moves(&mut moves);
            game.play(moves[rng.usize(..moves.len())]);
        }
        if !game.outcome().is_ongoing() {
            continue;
        }
        table.clear();
        let limits = limits(config, config.nodes.min(1_000));
        let score = search_with_table(&game, &limits, &Control::default(), table, None)
            .and_then(|r| r.lines.first().map(|l| l.score.centipawns()));
        if score.is_some_and(|s| s.abs() <= config.balanced) {
            return game;
        }
        last = Some(game);
    }
    last.unwrap_or_else(|| Game::new(V::start_position(rules), rules.clone()))
}

/// Plays game `index` and keeps its quiet positions.
fn play_game<V: Evaluate>(
    config: &Config,
    rules: &V::Rules,
    index: usize,
    table: &Table,
) -> Played {
    let mut rng =
        fastrand::Rng::with_seed(config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
    let mut game = opening::<V>(config, rules, &mut rng, table);
    table.clear();
    let limits = limits(config, config.nodes);
    // Kept positions: FEN and score from Red's side.
    let mut kept: Vec<(String, i32)> = Vec::new();
    // Red's-side scores of the last plies, for adjudication.
    let mut streak: (i32, usize) = (0, 0);
    let opening_plies = game.moves().len();
    let winner: Option<Color> = loop {
        match game.outcome() {
            Outcome::Ended(v) => break v.winner,
            Outcome::Ongoing => {}
        }
        if game.moves().len() - opening_plies >= config.max_plies {
            break None;
        }
        let Some(result) = search_with_table(&game, &limits, &Control::default(), table, None)
        else {
            break None;
        };
        let red = keep(game.current(), &result, &mut kept);
        let sign = red.signum();
        if red.abs() > SCORE_LIMIT {
            streak = if streak.0 == sign {
                (sign, streak.1 + 1)
            } else {
                (sign, 1)
            };
        } else {
            streak = (0, 0);
        }
        game.play(result.best_move);
        if config.adjudicate_plies > 0 && streak.0 != 0 && streak.1 >= config.adjudicate_plies {
            break Some(if streak.0 > 0 {
                Color::White
            } else {
                Color::Black
            });
        }
    };
    played(kept, winner)
}

/// A search of `nodes` nodes for one line with the configured evaluation,
/// as every data search is.
fn limits(config: &Config, nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes),
        multipv: 1,
        network: config.network.clone(),
        ..Limits::default()
    }
}

/// Scores the positions of one record.
fn rescore_game<V: Evaluate>(
    config: &Config,
    rules: &V::Rules,
    record: &Record<V>,
    table: &Table,
) -> Played {
    table.clear();
    let limits = limits(config, config.nodes);
    let mut game = Game::new(record.start.clone(), rules.clone());
    let mut kept = Vec::new();
    for (ply, &mv) in record.moves.iter().enumerate() {
        if ply >= record.skip && game.outcome().is_ongoing() {
            if let Some(result) =
                search_with_table(&game, &limits, &Control::default(), table, None)
            {
                keep(game.current(), &result, &mut kept);
            }
        }
        game.play(mv);
    }
    played(kept, record.winner)
}

/// Keeps `pos` with the search's score (Red's side) unless it is in check,
/// its best move is a capture or the score is beyond [`SCORE_LIMIT`];
/// returns the score from Red's side.
fn keep<V: Evaluate>(
    pos: &V,
    result: &SearchResult<V::Move>,
    kept: &mut Vec<(String, i32)>,
) -> i32 {
    let score = result.lines.first().map_or(0, |l| l.score.centipawns());
    let red = if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    };
    if !pos.in_check()
        && pos.capture_value(result.best_move).is_none()
        && score.abs() <= SCORE_LIMIT
    {
        kept.push((pos.to_fen(), red));
    }
    red
}

/// A game's lines, each with its result from Red's side.
fn played(kept: Vec<(String, i32)>, winner: Option<Color>) -> Played {
    let (result, text) = match winner {
        Some(Color::White) => (0, "1"),
        None => (1, "0.5"),
        Some(Color::Black) => (2, "0"),
    };
    Played {
        lines: kept
            .into_iter()
            .map(|(fen, score)| format!("{fen} | {score} | {text}"))
            .collect(),
        result,
    }
}
