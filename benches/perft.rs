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

criterion_group!(benches, xiangqi);
criterion_main!(benches);
