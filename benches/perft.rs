//! Perft speed: leaves per second of the legal move generator.
//!
//! `cargo bench --bench perft`

use std::hint::black_box;

use arbiter::variants::xiangqi::{Rules, Xiangqi};
use arbiter::variants::{perft, Variant};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn xiangqi(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi-perft");
    group.sample_size(10);
    let cases = [
        (
            "start-d4",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            4,
            3_290_240u64,
        ),
        (
            "midgame-d4",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            4,
            1_339_047,
        ),
    ];
    for (name, fen, depth, leaves) in cases {
        let mut pos = Xiangqi::from_fen(fen, &Rules::default()).unwrap();
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(perft(black_box(&mut pos), depth), leaves))
        });
    }
    group.finish();
}

/// Perft with cozy-chess's own legal move generator (bulk-counted), the
/// reference a Taxi chess generator is measured against.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut next = board.clone();
            next.play_unchecked(mv);
            nodes += cozy_perft(&next, depth - 1);
        }
        false
    });
    nodes
}

fn taxi(c: &mut Criterion) {
    use arbiter::variants::taxi::{Rules as TaxiRules, Taxi};
    let mut group = c.benchmark_group("chess-perft");
    group.sample_size(10);
    let cases = [
        (
            "start-d5",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5,
            4_865_609u64,
        ),
        (
            "kiwipete-d4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
            4_085_603,
        ),
    ];
    for (name, fen, depth, leaves) in cases {
        group.throughput(Throughput::Elements(leaves));
        // Taxi chess with the default money from the start, unlimited for
        // Kiwipete (its counts are ordinary chess then).
        let balances = if name.starts_with("start") {
            "16/16"
        } else {
            "1000000/1000000"
        };
        let mut pos = Taxi::from_fen(&format!("{fen} {balances}"), &TaxiRules::default()).unwrap();
        group.bench_function(format!("taxi-{name}"), |b| {
            b.iter(|| assert_eq!(perft(black_box(&mut pos), depth), leaves))
        });
        let board: cozy_chess::Board = fen.parse().unwrap();
        group.bench_function(format!("cozy-chess-{name}"), |b| {
            b.iter(|| assert_eq!(cozy_perft(black_box(&board), depth), leaves))
        });
    }
    group.finish();
}

fn tamerlane(c: &mut Criterion) {
    use arbiter::variants::tamerlane::{Rules as TamerlaneRules, Tamerlane};
    let mut group = c.benchmark_group("tamerlane-perft");
    group.sample_size(10);
    let mut pos = Tamerlane::start_position(&TamerlaneRules::default());
    group.throughput(Throughput::Elements(365_893));
    group.bench_function("start-d4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&mut pos), 4), 365_893))
    });
    group.finish();
}

criterion_group!(benches, xiangqi, taxi, tamerlane);
criterion_main!(benches);
