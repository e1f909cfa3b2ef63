//! A search stopped inside an iteration: what it answers with.

use super::*;
use crate::variants::{xiangqi, Game, Variant};

/// A search stopped inside an iteration answers with what that iteration
/// searched to the end: its best line so far, at its depth, when that line
/// was searched in full inside the window; otherwise the last complete
/// iteration's line and depth (with its move changed only when the
/// unfinished iteration proved another better).
#[test]
fn a_stopped_search_answers_with_the_unfinished_iteration_when_it_searched_its_line() {
    let g = Game::new(
        xiangqi::Xiangqi::start_position(&Default::default()),
        Default::default(),
    );
    let (mut deeper, mut same) = (0, 0);
    for nodes in (2_000..=40_000).step_by(2_000) {
        let mut completed = Vec::new();
        let mut report = |r: &SearchResult<xiangqi::Move>| completed.push(r.lines[0].clone());
        let limits = Limits {
            nodes: Some(nodes),
            multipv: 1,
            ..Limits::default()
        };
        let r =
            search(&g, &limits, &Control::default(), 1 << 16, Some(&mut report)).expect("a move");
        let last = completed.last().expect("an iteration completed");
        assert_eq!(r.lines.len(), 1);
        assert_eq!(r.best_move, r.lines[0].moves[0]);
        assert_eq!(r.depth, r.lines[0].depth, "{nodes} nodes");
        if r.depth == last.depth + 1 {
            deeper += 1;
            // The line searched again, one ply deeper: its score and
            // moves are that search's.
            assert!(!r.lines[0].moves.is_empty());
        } else {
            assert_eq!(r.depth, last.depth, "{nodes} nodes");
            same += 1;
            if r.best_move == last.moves[0] {
                assert_eq!(&r.lines[0], last, "{nodes} nodes");
            }
        }
    }
    // Both happen over these limits: the rule is exercised both ways.
    assert!(deeper > 0 && same > 0, "deeper {deeper}, same {same}");
}
