//! The review's classes, accuracy and passes.

use super::*;

#[test]
fn classes_follow_the_points_given_away() {
    assert_eq!(classify(true, 50.0, 47.0), MoveClass::Best);
    // The engine's choice is best whatever the search after it shows.
    assert_eq!(classify(true, 50.0, 10.0), MoveClass::Best);
    assert_eq!(classify(true, 95.0, 50.0), MoveClass::Best);
    assert_eq!(classify(false, 50.0, 47.0), MoveClass::Good);
    assert_eq!(classify(false, 50.0, 45.0), MoveClass::Inaccuracy);
    assert_eq!(classify(false, 50.0, 40.0), MoveClass::Mistake);
    assert_eq!(classify(false, 50.0, 35.0), MoveClass::Blunder);
    assert_eq!(classify(false, 90.0, 60.0), MoveClass::MissedWin);
    assert_eq!(classify(false, 90.0, 70.0), MoveClass::Blunder);
    assert_eq!(classify(false, 30.0, 40.0), MoveClass::Good);
}

#[test]
fn accuracy_is_full_for_nothing_given_away() {
    assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
    assert!(move_accuracy(10.0) < move_accuracy(5.0));
    assert_eq!(move_accuracy(100.0), 0.0);
}

use crate::variants::xiangqi::{Notation, Position};
use crate::variants::Variant;

fn xiangqi(fen: Option<&str>, moves: &[&str]) -> Game<Position> {
    let mut g = Game::<Position>::from_fen(fen, Default::default()).expect("a FEN");
    g.play_all(moves, Notation::Iccs).expect("legal moves");
    g
}

/// A game of the data's self-play (Fairy-Stockfish against itself,
/// random opening plies): at ply 7 Red's b2e2 gives away 284 cp by a
/// search of 2,000,000 nodes a position (466 before, 182 after), which
/// a first pass of [`MISSED_NODES`] a position does not see.
const MISSED: [&str; 8] = [
    "h2h6", "b7d7", "a0a2", "d7d6", "i3i4", "d6d3", "b2e2", "a9a8",
];

/// The first pass's budget at which it misses [`MISSED`]'s ply 7: 18,000
/// and 20,000 miss it, 22,000 to 40,000 (the default among them) see it.
/// The test is of verification, so it takes a budget whose first pass
/// misses.
const MISSED_NODES: u64 = 20_000;

fn summary(r: &Reviewed<<Position as Variant>::Move>) -> Vec<String> {
    r.plies
        .iter()
        .map(|p| {
            format!(
                "{} {:?} {:?} {:?} {:?} {:?} {:?} {}",
                p.ply,
                p.best,
                p.best_line,
                p.score_before,
                p.score_after,
                p.class,
                p.win_loss,
                p.verified
            )
        })
        .collect()
}

#[test]
fn verification_finds_a_loss_the_first_pass_missed_and_answers_the_same_each_time() {
    let game = xiangqi(None, &MISSED);
    let budget = Budget::in_nodes(MISSED_NODES, 9, 2, Position::shipped_network());
    let none = Budget {
        verify_positions: 0,
        deep_positions: 0,
        ..budget.clone()
    };
    let review_with = |b: &Budget| review(&game, 8, b, &Control::default(), &mut |_| {});
    let first = review_with(&none);
    let seventh = &first.plies[6];
    assert!(
        matches!(seventh.class, MoveClass::Good | MoveClass::Inaccuracy),
        "the first pass alone: {seventh:?}"
    );
    assert!(!seventh.verified);
    let mut told = Vec::new();
    let full = review(&game, 8, &budget, &Control::default(), &mut |p| {
        told.push(p.ply)
    });
    let seventh = &full.plies[6];
    assert!(
        matches!(seventh.class, MoveClass::Mistake | MoveClass::Blunder),
        "verified: {seventh:?}"
    );
    assert!(seventh.verified && full.complete && !full.timed_out);
    assert!(!seventh.best_line.is_empty() && seventh.best_line[0] == seventh.best);
    // Every ply told in order by the first pass, then again as changed.
    assert_eq!(told[..8], [1, 2, 3, 4, 5, 6, 7, 8]);
    assert!(told[8..].contains(&7), "{told:?}");
    // The same budget, the same review: twice, and on one worker.
    assert_eq!(summary(&full), summary(&review_with(&budget)));
    let one = Budget {
        workers: 1,
        ..budget.clone()
    };
    assert_eq!(summary(&full), summary(&review_with(&one)));
}

/// A game of the engine against itself (the shipped network, 340,000 nodes
/// a move, from one of the self-play data's random starts), cut after 50
/// plies: Black's d7c5 at ply 42 is the engine's own choice after the first
/// two passes, and loses 597 cp by a search of 2,000,000 nodes a position
/// (0 before, -597 after; Pikafish-HCE, 8 s a position, has it losing too:
/// about -153 before, -311 after); the third pass of a review of
/// [`CHOICE_NODES`] a position sees it.
const ENGINE_CHOICE: [&str; 50] = [
    "g0e2", "b7g7", "f0e1", "i9i7", "h0f1", "h7h8", "h2h7", "h8b8", "i0h0", "g9e7", "c3c4", "h9f8",
    "h7h6", "b8c8", "b0c2", "c6c5", "b2b8", "g7h7", "h0f0", "f8d7", "h6e6", "f9e8", "c2d4", "a9a8",
    "b8b1", "b9a7", "e6e4", "i6i5", "c4c5", "d7c5", "a0b0", "a8b8", "b1b6", "h7f7", "f1h2", "g6g5",
    "f0f6", "i7h7", "h2g0", "c5d7", "b6b7", "d7c5", "f6f7", "h7f7", "b7c7", "c5e4", "b0b8", "c8c0",
    "e2c0", "e7c5",
];

/// The first pass's budget for [`ENGINE_CHOICE`]: the third pass (40
/// times as many nodes) sees the loss at every budget from 6,000 to 15,000
/// (step 1,000), not at 16,000, 20,000 or 26,000. The test is of the third
/// pass, so it takes a budget at which it sees it.
const CHOICE_NODES: u64 = 12_000;

#[test]
fn the_third_pass_finds_a_loss_the_engine_itself_chose() {
    // The game from ply 40 on, as the budgets above were found.
    let cut = 40;
    let start = xiangqi(None, &ENGINE_CHOICE[..cut]).current().to_fen();
    let game = xiangqi(Some(&start), &ENGINE_CHOICE[cut..]);
    let plies = ENGINE_CHOICE.len() - cut;
    let k = 41 - cut;
    let budget = Budget::in_nodes(
        CHOICE_NODES,
        game.positions().len(),
        2,
        Position::shipped_network(),
    );
    let two = Budget {
        deep_positions: 0,
        ..budget.clone()
    };
    let review_with = |b: &Budget| review(&game, plies, b, &Control::default(), &mut |_| {});
    let before = &review_with(&two).plies[k];
    assert_eq!(before.mv, before.best, "two passes: {before:?}");
    assert_eq!(before.class, MoveClass::Best, "two passes: {before:?}");
    let full = review_with(&budget);
    let after = &full.plies[k];
    assert!(
        matches!(after.class, MoveClass::Mistake | MoveClass::Blunder),
        "three passes: {after:?}"
    );
    assert!(after.verified && after.best != after.mv && full.complete);
    // The third pass repeats too.
    assert_eq!(summary(&full), summary(&review_with(&budget)));
}

#[test]
fn the_best_move_is_best_and_the_mate_is_scored_as_the_end() {
    // Red mates with i0i9 (the chariot on a8 holds the rank below).
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1";
    let limits = Limits {
        depth: Some(4),
        multipv: 1,
        threads: 1,
        ..Limits::default()
    };
    let budget = Budget {
        first: limits.clone(),
        verify: limits.clone(),
        verify_positions: 16,
        deep: limits,
        deep_positions: 4,
        workers: 1,
        table_entries: 1 << 16,
        deadline: None,
    };
    let game = xiangqi(Some(fen), &["i0i9"]);
    let r = review(&game, 1, &budget, &Control::default(), &mut |_| {});
    let p = &r.plies[0];
    assert_eq!(p.mv, p.best);
    assert_eq!(p.class, MoveClass::Best);
    assert_eq!(p.score_before, Score::Mate(1));
    assert_eq!(
        (p.score_after, p.ended),
        (Score::Mate(0), Some(Ending::Win))
    );
    assert_eq!((p.expected_after, p.win_loss), (100.0, 0.0));
    // A winning move short of the mate: the mate after it is Red's.
    let game = xiangqi(Some(fen), &["d0d1"]);
    let r = review(&game, 1, &budget, &Control::default(), &mut |_| {});
    let p = &r.plies[0];
    assert_eq!(p.ended, None);
    assert!(
        match p.score_after {
            Score::Mate(n) => n > 0,
            Score::Cp(v) => v > 300,
        },
        "{p:?}"
    );
    assert!(!p.best_line.is_empty() || matches!(p.class, MoveClass::Best | MoveClass::Good));
}
