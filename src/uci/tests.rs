//! The protocol's pieces, without a GUI.

use super::*;
use crate::variants::{taxi::Taxi, xiangqi::Xiangqi};

/// The `Repetition` option's values are the wire's names, and it sets
/// Xiangqi's code only.
#[test]
fn the_repetition_option_sets_xiangqis_code() {
    for &code in RepetitionRule::ALL {
        assert_eq!(
            serde_json::to_value(code).unwrap(),
            serde_json::json!(code.as_str())
        );
        assert_eq!(RepetitionRule::parse(code.as_str()), Some(code));
        let rules = session_rules::<Xiangqi>(code);
        assert_eq!(
            rules,
            xiangqi::Rules {
                repetition: code,
                ..xiangqi::Rules::default()
            }
        );
    }
    assert_eq!(
        session_rules::<Taxi>(RepetitionRule::Chinese),
        <Taxi as Variant>::Rules::default()
    );
    assert_eq!(RepetitionRule::parse("japanese"), None);
}

fn limits_for(go: &str, side: usize) -> Limits {
    let words: Vec<&str> = go.split_whitespace().collect();
    let (mut limits, clock) = go_limits(&words, 1);
    clock.apply(&mut limits, side);
    limits
}

#[test]
fn clocks_become_a_search_time_for_the_side_to_move() {
    let ms = |l: Limits| l.movetime.map(|t| t.as_millis());
    let aim = |l: Limits| l.optimum.map(|t| t.as_millis());
    // 30 moves to go by default, three quarters of the increment; at
    // most four times that, and two fifths of the time left.
    let l = limits_for("go wtime 60000 btime 3000 winc 1000", 0);
    assert_eq!((aim(l.clone()), ms(l)), (Some(2750), Some(11_000)));
    let l = limits_for("go wtime 60000 btime 3000 winc 1000", 1);
    assert_eq!((aim(l.clone()), ms(l)), (Some(100), Some(400)));
    let l = limits_for("go wtime 1000 btime 1000 movestogo 1", 0);
    assert_eq!((aim(l.clone()), ms(l)), (Some(475), Some(475)));
    // UCCI gives the side to move's clock only.
    let l = limits_for("go time 9000 increment 0", 1);
    assert_eq!((aim(l.clone()), ms(l)), (Some(300), Some(1200)));
    // A clock for the other side only, or nothing: depth 8.
    let l = limits_for("go wtime 60000", 1);
    assert_eq!((l.movetime, l.depth), (None, Some(8)));
    let l = limits_for("go infinite", 0);
    assert_eq!((l.movetime, l.depth, l.nodes), (None, None, None));
    let l = limits_for("go wtime 60000 infinite", 0);
    assert_eq!(l.movetime, None);
    // A fixed time per move is used in full.
    let l = limits_for("go movetime 250 wtime 60000", 0);
    assert_eq!((aim(l.clone()), ms(l)), (None, Some(250)));
}
