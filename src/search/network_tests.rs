//! The search with a network: accumulators kept move by move, helper
//! threads alike. The networks are random ones of the trainer's float
//! model (the `training` feature, on in every test build).

use std::sync::Arc;

use super::entry::helper_limits;
use super::tests::game;
use super::*;
use crate::variants::{taxi, xiangqi};

/// A search that evaluates with a network keeps each ply's accumulators
/// move by move (`Searcher::eval` checks each against a fresh one in these
/// tests), through captures, null moves and quiescence, and plays by the
/// network; a variant without a network ignores one.
#[test]
fn a_search_with_a_network_updates_its_accumulators_exactly() {
    let mut model = crate::training::Model::random(32, 5);
    for (i, b) in model.bias.iter_mut().enumerate() {
        *b = (i % 5) as f32 * 0.1;
    }
    let net = Arc::new(model.quantise().expect("quantises"));
    let with = |depth: u32, network: Option<Arc<Network>>| Limits {
        depth: Some(depth),
        multipv: 1,
        network,
        ..Limits::default()
    };
    let mut differs = 0;
    for fen in [
        xiangqi::START_FEN,
        "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
        "3k5/4a4/4b4/9/2b6/9/9/4C4/4A4/3AK4 w - - 0 1",
    ] {
        let game = game::<xiangqi::Position>(fen);
        let nn = search(
            &game,
            &with(6, Some(net.clone())),
            &Control::default(),
            1 << 16,
            None,
        )
        .expect("a move");
        let hce =
            search(&game, &with(6, None), &Control::default(), 1 << 16, None).expect("a move");
        assert!(nn.nodes > 1_000, "{fen}: only {} nodes", nn.nodes);
        differs += usize::from(nn.lines[0].score != hce.lines[0].score);
    }
    assert!(
        differs >= 2,
        "the network's searches scored like the hand-written evaluation"
    );
    let taxi = game::<taxi::Position>(taxi::START_FEN);
    let a = search(
        &taxi,
        &with(4, Some(net)),
        &Control::default(),
        1 << 16,
        None,
    )
    .expect("a move");
    let b = search(&taxi, &with(4, None), &Control::default(), 1 << 16, None).expect("a move");
    assert_eq!((a.best_move, a.nodes), (b.best_move, b.nodes));
}

/// Helper threads evaluate with the main thread's network (their limits
/// carry it); and with a network that scores every position 200 for the
/// side to move, one- and two-thread searches find only ±200, or 0 or a
/// mate where the repetition rules decide a line.
#[test]
fn helper_threads_search_with_the_network_too() {
    let mut model = crate::training::Model::zeros(16);
    model.output_bias = 0.5;
    let net = Arc::new(model.quantise().expect("quantises"));
    let main = Limits {
        network: Some(net.clone()),
        ..Limits::default()
    };
    assert!(helper_limits(&main)
        .network
        .is_some_and(|n| Arc::ptr_eq(&n, &net)));
    let game = game::<xiangqi::Position>(
        "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
    );
    for threads in [1, 2] {
        let limits = Limits {
            depth: Some(7),
            multipv: 1,
            threads,
            network: Some(net.clone()),
            ..Limits::default()
        };
        let r = search(&game, &limits, &Control::default(), 1 << 16, None).expect("a move");
        assert!(
            matches!(r.lines[0].score, Score::Cp(200 | 0 | -200) | Score::Mate(_)),
            "{threads} threads: {:?}",
            r.lines[0].score
        );
    }
}
