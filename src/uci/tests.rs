//! The protocol's pieces, without a GUI.

use super::*;
use crate::search::Limits;
use crate::variants::{taxi::Taxi, xiangqi::Xiangqi, Variant};

/// The `Repetition` option's values are the wire's names, and it sets
/// Xiangqi's code only, whatever the variant chosen.
#[test]
fn the_repetition_option_sets_xiangqis_code() {
    for &code in RepetitionRule::ALL {
        assert_eq!(
            serde_json::to_value(code).unwrap(),
            serde_json::json!(code.as_str())
        );
        assert_eq!(RepetitionRule::parse(code.as_str()), Some(code));
        let mut s = Session::new();
        said(&mut s, "setoption name UCI_Variant value taxi");
        let line = format!("setoption name Repetition value {}", code.as_str());
        assert_eq!(
            said(&mut s, &line).len(),
            1,
            "the note that it is Xiangqi's"
        );
        assert_eq!(
            rules_of::<Xiangqi>(&s),
            crate::variants::xiangqi::Rules {
                repetition: code,
                ..Default::default()
            }
        );
        assert_eq!(rules_of::<Taxi>(&s), <Taxi as Variant>::Rules::default());
    }
    assert_eq!(RepetitionRule::parse("japanese"), None);
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// What `setoption` says, line by line.
fn said(s: &mut Session, line: &str) -> Vec<String> {
    let lines = std::cell::RefCell::new(Vec::new());
    set_option(s, &words(line), &|l: &str| {
        lines.borrow_mut().push(l.to_owned())
    });
    lines.into_inner()
}

/// The rules a search of `V` would play by in the session.
fn rules_of<V: crate::prose::Prose>(s: &Session) -> V::Rules {
    session_rules::<V>(&s.rules.get(&V::ID).cloned().unwrap_or_default()).unwrap()
}

/// `Rules` sets every rule option of the variant chosen, as the service's
/// `rules`, and each variant keeps its own; an option the variant lacks, a
/// bad value or a value that is no object is refused with its reason, and
/// the rules stay as they were.
#[test]
fn the_rules_option_reaches_every_rule_option() {
    let mut s = Session::new();
    let line =
        r#"setoption name Rules value {"repetition": "chinese", "repetition_ends_game": false}"#;
    assert_eq!(said(&mut s, line), Vec::<String>::new());
    said(&mut s, "setoption name UCI_Variant value taxi");
    let line = r#"setoption name Rules value {"start_money": 20, "repetition_ends_game": false}"#;
    assert_eq!(said(&mut s, line), Vec::<String>::new());
    let x = rules_of::<Xiangqi>(&s);
    assert_eq!(x.repetition, RepetitionRule::Chinese);
    assert!(!x.repetition_ends_game);
    let t = rules_of::<Taxi>(&s);
    assert_eq!((t.start_money, t.repetition_ends_game), (20, false));
    let before = s.rules.clone();
    let refused = [
        (
            r#"{"castling": true}"#,
            "taxi has no rule option castling (its options: ",
        ),
        (r#"{"start_money": "lots"}"#, "taxi rules:"),
        ("[1, 2]", "a JSON object of rule options"),
        ("{", "a JSON object of rule options"),
    ];
    for (value, why) in refused {
        let answer = said(&mut s, &format!("setoption name Rules value {value}"));
        assert_eq!(answer.len(), 1, "{value}: {answer:?}");
        assert!(
            answer[0].starts_with("info string bad Rules value: "),
            "{answer:?}"
        );
        assert!(answer[0].contains(why), "{value}: {answer:?}");
        assert_eq!(s.rules, before, "{value}");
    }
    // An empty object (or value) goes back to the variant's standard rules.
    assert_eq!(
        said(&mut s, "setoption name Rules value"),
        Vec::<String>::new()
    );
    assert_eq!(rules_of::<Taxi>(&s), <Taxi as Variant>::Rules::default());
    assert_eq!(rules_of::<Xiangqi>(&s).repetition, RepetitionRule::Chinese);
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
