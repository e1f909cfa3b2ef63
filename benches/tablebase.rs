//! Probing the built-in Xiangqi endgame tables: one position (its
//! material, its index, one code) and one position with every move.
//!
//! `cargo bench --bench tablebase`

use std::hint::black_box;

use arbiter::tablebase;
use arbiter::variants::xiangqi::Position;
use arbiter::variants::Variant;
use criterion::{criterion_group, criterion_main, Criterion};

fn probes(c: &mut Criterion) {
    let tables = tablebase::default_tables();
    // A chariot against the full defence, Black's material turned over
    // (KRkaabb read from Black's side), and a soldier ending.
    let fens = [
        "2bak4/4a4/4b4/9/9/9/9/9/9/R2K5 w - - 0 1",
        "4k4/9/9/9/9/9/9/4B4/4A4/r1BAK4 b - - 0 1",
        "4k4/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1",
    ];
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_fen(f, &Default::default()).unwrap())
        .collect();
    // Decoded before timing: the first probe of a table decodes it.
    for p in &positions {
        assert!(tables.probe(p).is_some(), "{}", p.to_fen());
    }
    c.bench_function("tablebase-probe", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(tables.probe(black_box(p)));
            }
        })
    });
    c.bench_function("tablebase-probe-moves", |b| {
        b.iter(|| black_box(tables.probe_moves(black_box(&positions[0]))))
    });
}

criterion_group!(benches, probes);
criterion_main!(benches);
