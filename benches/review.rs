//! A game review's cost: a 150-ply Xiangqi game reviewed at the default
//! budget as `POST …/review` runs it on a machine of two cores (two
//! workers; 30,000 nodes a position, then up to 37 positions of doubtful
//! plies at 300,000 each).
//!
//! `cargo bench --bench review`

use std::time::Duration;

use arbiter::search::review::{self, Budget};
use arbiter::search::{self, Control, Evaluate, Limits};
use arbiter::variants::xiangqi::{Position, Rules};
use arbiter::variants::{Game, Outcome, Variant};
use criterion::{criterion_group, criterion_main, Criterion};

/// A game of 150 plies: the engine against itself at a few thousand nodes
/// a move, from the start (deterministic: one thread, a fresh table a
/// move), under rules without the move limit; the first node count from
/// 3,000 up whose game lasts that long.
fn long_game() -> Game<Position> {
    let rules = Rules {
        move_limit_plies: 0,
        ..Rules::default()
    };
    for nodes in (3_000..).step_by(250).take(40) {
        let mut game = Game::new(Position::start_position(&rules), rules.clone());
        let limits = Limits {
            nodes: Some(nodes),
            multipv: 1,
            ..Limits::default()
        };
        while game.moves().len() < 150 && matches!(game.outcome(), Outcome::Ongoing) {
            let r =
                search::search(&game, &limits, &Control::default(), 1 << 16, None).expect("a move");
            game.play(r.best_move);
        }
        if game.moves().len() == 150 && matches!(game.outcome(), Outcome::Ongoing) {
            return game;
        }
    }
    panic!("no game lasted 150 plies")
}

fn bench(c: &mut Criterion) {
    let game = long_game();
    let budget = Budget::in_nodes(review::DEFAULT_NODES, 151, 2, Position::shipped_network());
    let mut g = c.benchmark_group("review");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(150));
    g.bench_function("xiangqi-150-plies-default", |b| {
        b.iter(|| {
            let reviewed = review::review(
                &game,
                game.moves().len(),
                &budget,
                &Control::default(),
                &mut |_| {},
            );
            assert_eq!(reviewed.plies.len(), 150);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
