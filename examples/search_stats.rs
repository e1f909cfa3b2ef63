//! Where the search's nodes go, over a file of Xiangqi positions (not run
//! in CI; the figures are in `docs/engine.md`): the depth each search
//! reaches, its nodes, the nodes each iteration took (the effective
//! branching factor is the ratio of consecutive iterations' nodes), the
//! share of cut-offs on the first move searched and of quiescence nodes.
//!
//! ```text
//! # every position of FENS (one FEN a line) searched 100 ms, one thread,
//! # a fresh 16 MiB table each, the shipped network
//! cargo run --release --example search_stats -- FENS --movetime-ms 100
//! # or to a fixed depth, or a node count
//! cargo run --release --example search_stats -- FENS --depth 10
//! cargo run --release --example search_stats -- FENS --nodes 100000
//! ```

use std::time::Duration;

use clap::Parser;

use arbiter::search::{self, Control, Evaluate, Limits, SearchStats};
use arbiter::variants::xiangqi::Position;
use arbiter::variants::{Game, Variant};

#[derive(Parser)]
struct Args {
    /// A file of Xiangqi FENs, one a line.
    fens: std::path::PathBuf,
    /// Milliseconds a position.
    #[arg(long)]
    movetime_ms: Option<u64>,
    /// Iteration depth a position.
    #[arg(long)]
    depth: Option<u32>,
    /// Nodes a position.
    #[arg(long)]
    nodes: Option<u64>,
    /// The hand-written evaluation instead of the shipped network.
    #[arg(long)]
    hce: bool,
    /// Print a line for each position.
    #[arg(long)]
    verbose: bool,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let args = Args::parse();
    let text = std::fs::read_to_string(&args.fens).expect("the FEN file reads");
    let rules = arbiter::variants::xiangqi::Rules::default();
    let mut depths = Vec::new();
    let mut nodes = Vec::new();
    let mut ratios = Vec::new();
    let mut total = SearchStats::default();
    let mut all_nodes = 0u64;
    let mut secs = 0.0;
    for fen in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let start = Position::from_fen(fen, &rules).expect("a FEN");
        let game = Game::new(start, rules.clone());
        let limits = Limits {
            depth: args.depth,
            movetime: args.movetime_ms.map(Duration::from_millis),
            nodes: args.nodes,
            multipv: 1,
            threads: 1,
            network: if args.hce {
                None
            } else {
                Position::shipped_network()
            },
            ..Limits::default()
        };
        let mut per_depth: Vec<u64> = Vec::new();
        let mut report = |r: &search::SearchResult<_>| per_depth.push(r.nodes);
        let Some(result) = search::search(
            &game,
            &limits,
            &Control::default(),
            1 << 20,
            Some(&mut report),
        ) else {
            continue;
        };
        // Nodes each iteration took, and the ratio of the last few.
        let each: Vec<u64> = per_depth
            .iter()
            .scan(0, |before, &n| {
                let d = n - *before;
                *before = n;
                Some(d)
            })
            .collect();
        for w in each.windows(2).rev().take(4) {
            if w[0] > 0 {
                ratios.push(w[1] as f64 / w[0] as f64);
            }
        }
        if args.verbose {
            println!(
                "depth {:2} nodes {:8} first-move {:5.1} % iterations {:?}",
                result.depth,
                result.nodes,
                result.stats.first_move_per_mille() as f64 / 10.0,
                each
            );
        }
        depths.push(f64::from(result.depth));
        nodes.push(result.nodes as f64);
        all_nodes += result.nodes;
        secs += result.elapsed.as_secs_f64();
        total += result.stats;
    }
    let mean = depths.iter().sum::<f64>() / depths.len().max(1) as f64;
    println!(
        "positions {}: depth median {} mean {mean:.2}; nodes {all_nodes}, median {:.0}, {:.0} a second; \
         branching (the last four iterations' ratios) median {:.2}; cut-offs on the first move \
         {:.1} %; quiescence {:.1} % of the nodes",
        depths.len(),
        median(depths),
        median(nodes),
        all_nodes as f64 / secs.max(1e-9),
        median(ratios),
        total.first_move_per_mille() as f64 / 10.0,
        total.quiescence_nodes as f64 * 100.0 / all_nodes.max(1) as f64,
    );
}
