use super::*;
use crate::variants::shared_tests::{perft_suite, refused, Refused};
use crate::variants::Refusal::{self, *};
use crate::variants::{perft, Color, Game, Outcome, PlayError, Reason, Variant};

/// The chessprogramming.org table "Chinese Chess Perft Results".
fn perft_table() -> Vec<(&'static str, Vec<u64>)> {
    perft_suite(include_str!("../../../tests/data/perft/xiangqi.epd"))
}

pub(super) fn pos(fen: &str) -> Position {
    Position::from_fen(fen, &Rules::default()).expect("valid test FEN")
}

#[test]
fn perft_table_to_depth_3() {
    for (fen, counts) in perft_table() {
        let mut p = pos(fen);
        for (d, &want) in counts.iter().enumerate().take(3) {
            assert_eq!(perft(&mut p, d as u32 + 1), want, "{fen} depth {}", d + 1);
        }
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "depth 4 of the whole table wants a release build"
)]
fn perft_table_depth_4() {
    for (fen, counts) in perft_table() {
        let mut p = pos(fen);
        assert_eq!(perft(&mut p, 4), counts[3], "{fen} depth 4");
    }
}

fn legal_strings(fen: &str) -> Vec<String> {
    let p = pos(fen);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut out: Vec<String> = moves
        .iter()
        .map(|&m| p.write_move(m, Notation::Iccs))
        .collect();
    out.sort();
    out
}

fn refusal(fen: &str, mv: &str) -> Refused {
    refused(&pos(fen), mv, Notation::Iccs)
}

/// The refusal of `mv` in `fen`, asserted to be of `code`.
fn refused_as(fen: &str, mv: &str, code: Refusal) -> Refused {
    let e = refusal(fen, mv);
    assert_eq!(e.code, code, "{fen} {mv}: {}", e.message);
    e
}

#[test]
fn start_position_moves_by_piece() {
    let moves = legal_strings(START_FEN);
    assert_eq!(moves.len(), 44);
    // Horses: the leg is free, so both forward jumps; elephants: two each.
    for m in [
        "b0a2", "b0c2", "h0g2", "h0i2", "c0a2", "c0e2", "g0e2", "g0i2",
    ] {
        assert!(moves.contains(&m.to_owned()), "{m}");
    }
    // The cannon captures the horse over its own screen, but not the cannon.
    assert!(moves.contains(&"h2h9".to_owned()));
    assert!(!moves.contains(&"h2h7".to_owned()));
    // Soldiers only step forward before the river.
    assert!(moves.contains(&"e3e4".to_owned()));
    assert!(!moves.contains(&"e3d3".to_owned()));
}

#[test]
fn horse_leg_is_blocked() {
    // Red horse on b0 with its own piece on b1.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1R7/1NBAKABNR w - - 0 1";
    let e = refused_as(fen, "b0c2", Blocked);
    assert_eq!(e.message, "the horse's leg at b1 is blocked");
    // The sideways jumps have their legs on a0/c0 (a0 empty, c0 the elephant).
    let moves = legal_strings(fen);
    assert!(!moves.contains(&"b0c2".to_owned()) && !moves.contains(&"b0a2".to_owned()));
}

#[test]
fn horse_leg_blocks_its_check() {
    // The black horse on d2 attacks e0 only through its leg d1.
    let open = pos("3k5/9/9/9/9/9/9/3n5/9/4K4 w - - 0 1");
    assert!(open.in_check());
    let blocked = pos("3k5/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1");
    assert!(!blocked.in_check());
}

#[test]
fn elephant_eye_and_river() {
    let fen = "3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1";
    let e = refusal(fen, "c0e2");
    assert_eq!(
        (e.code, e.message.as_str()),
        (Blocked, "the elephant's eye at d1 is blocked")
    );
    refused_as("3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1", "c0d1", BadGeometry);
    // c4 -> e6 would cross the river.
    refused_as("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1", "c4e6", CrossesRiver);
}

#[test]
fn fen_rejects_impossible_points() {
    assert!(
        Position::from_fen("4k4/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1", &Rules::default())
            .unwrap_err()
            .message
            .contains("can never stand on c5")
    );
    assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", &Rules::default()).is_ok());
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", &Rules::default()).is_ok());
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/2K6 w - - 0 1", &Rules::default()).is_err());
    // A red soldier beside its start on an odd file, or behind its start,
    // cannot arise in a game, but the move rules handle it: accepted with a
    // warning (composed positions, docs/rules/xiangqi.md).
    for fen in [
        "3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/4P4/4K4 w - - 0 1",
        "3k1p3/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    ] {
        let p = Position::from_fen(fen, &Rules::default()).unwrap();
        let w = p.warnings();
        assert_eq!(w.len(), 1, "{fen}");
        assert_eq!(
            w[0].code,
            crate::variants::WarningCode::UnreachablePlacement
        );
        assert!(crate::prose::Prose::warning(&p, &w[0]).contains("cannot arise in a game"));
    }
    let p = Position::from_fen("3k5/9/9/9/1P7/9/9/9/9/4K4 w - - 0 1", &Rules::default()).unwrap();
    assert!(p.warnings().is_empty());
    assert!(Position::from_fen(START_FEN, &Rules::default())
        .unwrap()
        .warnings()
        .is_empty());
    // A soldier behind its start moves by the ordinary rules: forward only
    // before the river.
    let p = Position::from_fen("3k5/9/9/9/9/9/9/9/4P4/4K4 w - - 0 1", &Rules::default()).unwrap();
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let soldier: Vec<String> = moves
        .iter()
        .filter(|m| m.from == sq(4, 1))
        .map(|m| sq_name(m.to))
        .collect();
    assert_eq!(soldier, ["e2"]);
    // What breaks the rules is still refused: an elephant off its points.
    assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/4B4/4K4 w - - 0 1", &Rules::default()).is_err());
}

#[test]
fn cannon_needs_exactly_one_screen() {
    let e = refused_as(START_FEN, "h2h7", CannonScreen);
    assert!(
        e.message.contains("there is none between h2 and h7"),
        "{}",
        e.message
    );
    // Two screens on the e-file: the black advisor on e8 and horse on e7.
    let two_screens = "4k4/4a4/4n4/9/9/9/9/4C4/9/3K5 w - - 0 1";
    let e = refused_as(two_screens, "e2e9", CannonScreen);
    assert!(e.message.contains("are 2"), "{}", e.message);
    assert!(pos(two_screens).parse_move("e2e8", Notation::Iccs).is_ok());
    refused_as(two_screens, "e2e7", CannonScreen);
    refused_as("4k4/9/9/9/9/9/9/4C4/4A4/3K5 w - - 0 1", "e2e0", Blocked);
}

#[test]
fn flying_general() {
    // The advisor on e1 is the only thing between the generals.
    let e = refused_as("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "e1d2", FlyingGeneral);
    assert_eq!(
        e.message,
        "the generals would face each other on the e-file"
    );
    // The general may not step onto the open file either.
    refused_as("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0e0", FlyingGeneral);
    assert_eq!(
        legal_strings("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
        vec!["d0d1".to_owned()]
    );
    // Facing generals in a FEN: the side not to move would be "in check".
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &Rules::default()).is_err());
}

#[test]
fn palace_and_soldier_rules() {
    refused_as("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0c0", LeavesPalace);
    refused_as("3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", "d0c1", LeavesPalace);
    refused_as("4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1", "e3d3", NotCrossed);
    let e = refusal("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1", "e5e4");
    assert_eq!(e.message, "a soldier never moves backward");
    assert!(pos("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1")
        .parse_move("e5d5", Notation::Iccs)
        .is_ok());
    // A soldier on the last rank can still move sideways.
    assert_eq!(
        legal_strings("3k5/8P/9/9/9/9/9/9/9/4K4 w - - 0 1")
            .iter()
            .filter(|m| m.starts_with("i8"))
            .count(),
        2
    );
}

#[test]
fn pinned_piece_and_self_check() {
    // The red chariot on e3 shields its general from the black chariot on e9.
    let fen = "4r4/3k5/9/9/9/9/4R4/9/9/4K4 w - - 0 1";
    let e = refused_as(fen, "e3d3", SelfCheck);
    assert_eq!(
        e.message,
        "it leaves the general in check by the Black chariot on e9"
    );
    assert!(pos(fen).parse_move("e3e5", Notation::Iccs).is_ok());
    // A cannon screen: moving onto the line between cannon and general.
    refused_as("4c4/3k5/9/9/9/9/9/R8/9/4K4 w - - 0 1", "a2e2", SelfCheck);
    // The general walking into an attack.
    refused_as("3k5/9/9/9/9/9/9/9/8r/4K4 w - - 0 1", "e0e1", SelfCheck);
}

#[test]
fn other_refusals() {
    refused_as(START_FEN, "e5e6", NoPiece);
    refused_as(START_FEN, "h7e7", NotYourPiece);
    refused_as(START_FEN, "a0b0", OwnPiece);
    refused_as(START_FEN, "a0a0", NullMove);
    assert!(refusal(START_FEN, "z9z9").is_syntax());
    assert!(refusal(START_FEN, "h2e2x").is_syntax());
    assert!(refusal(START_FEN, "h10e2").is_syntax());
}

#[test]
fn fen_round_trip_and_aliases() {
    for (fen, _) in perft_table() {
        assert_eq!(pos(fen).to_fen(), fen);
    }
    // Red as 'r', E/H aliases, and the short forms.
    let p = pos("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r");
    assert_eq!(p.to_fen(), START_FEN);
    assert_eq!(
        pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -").to_fen(),
        START_FEN
    );
}

#[test]
fn fen_errors_name_the_problem() {
    let cases = [
        ("", "empty"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9",
            "side to move is missing",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
            "10 ranks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            "has 8 points",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            "more than 9",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "'X' is not a Xiangqi piece",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "side to move must be",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1",
            "castling",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            "halfmove",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
            "move number",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "Red has no general",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w",
            "more than 2 chariots",
        ),
        (
            "3k5/9/9/9/9/9/9/9/9/3RK4 w",
            "Black is not to move but its general is attacked by the Red chariot on d0",
        ),
    ];
    for (fen, needle) in cases {
        let e = Position::from_fen(fen, &Rules::default()).expect_err(fen);
        assert!(e.message.contains(needle), "{fen}: {}", e.message);
    }
}

fn outcome_of(fen: &str, moves: &[&str], rules: Rules) -> Outcome {
    let mut game = Game::<Position>::from_fen(Some(fen), rules).unwrap();
    game.play_all(moves, Notation::Iccs).unwrap();
    game.outcome()
}

/// The outcome of `moves` played from `fen` under the default rules.
fn outcome(fen: &str, moves: &[&str]) -> Outcome {
    outcome_of(fen, moves, Rules::default())
}

#[test]
fn checkmate_and_stalemate_both_lose() {
    let mate = outcome("3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", &["a0a9"]);
    assert_eq!(mate.reason(), Some(Reason::Checkmate));
    assert_eq!(mate.winner(), Some(Color::White));
    assert_eq!(mate.result().to_string(), "1-0");
    let stale = outcome("3k5/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1", &["e7e8"]);
    assert_eq!(stale.reason(), Some(Reason::Stalemate));
    assert_eq!(stale.winner(), Some(Color::White));
    assert!(!pos("3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 1 1").in_check());
}

#[test]
fn move_limit_counts_plies_without_capture() {
    let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 98 60";
    assert!(outcome(fen, &["a1a2"]).is_ongoing());
    let drawn = outcome(fen, &["a1a2", "d9d8"]);
    assert_eq!(drawn.reason(), Some(Reason::MoveLimit));
    assert_eq!(drawn.result().to_string(), "1/2-1/2");
    // Another limit, and none.
    assert_eq!(
        outcome_of(
            fen,
            &[],
            Rules {
                move_limit_plies: 90,
                ..Rules::default()
            }
        )
        .reason(),
        Some(Reason::MoveLimit)
    );
    assert!(outcome_of(
        fen,
        &["a1a2", "d9d8"],
        Rules {
            move_limit_plies: 0,
            ..Rules::default()
        }
    )
    .is_ongoing());
    // Soldier moves do not reset the count; captures do.
    let p = outcome("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 99 60", &["e3e4"]);
    assert_eq!(p.reason(), Some(Reason::MoveLimit));
    let mut game = Game::<Position>::from_fen(
        Some("3k5/9/9/9/9/9/9/9/R8/r3K4 w - - 99 60"),
        Rules::default(),
    )
    .unwrap();
    game.play_all(&["a1a0"], Notation::Iccs).unwrap();
    assert_eq!(game.current().halfmove_clock(), 0);
    assert!(game.outcome().is_ongoing());
}

#[test]
fn mate_outranks_the_move_limit() {
    // The 100th ply without capture is also mate: mate wins.
    let o = outcome("3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 99 60", &["a0a9"]);
    assert_eq!(o.reason(), Some(Reason::Checkmate));
}

#[test]
fn insufficient_material() {
    let o = outcome("3k5/4a4/9/9/9/9/9/9/4A4/2B1K4 w - - 0 1", &[]);
    assert_eq!(o.reason(), Some(Reason::InsufficientMaterial));
    // A single soldier is enough to play on.
    assert!(outcome("3k5/4a4/9/9/3P5/9/9/9/4A4/2B1K4 w - - 0 1", &[]).is_ongoing());
}

#[test]
fn game_record_errors() {
    let mut game = Game::<Position>::from_fen(None, Rules::default()).unwrap();
    let err = game
        .play_all(&["h2e2", "h9g7", "b0c2", "g7e5"], Notation::Iccs)
        .unwrap_err();
    match err {
        PlayError::Illegal { index, error, .. } => {
            assert_eq!(index, 3);
            assert_eq!(error.code(), BadGeometry);
        }
        other => panic!("{other:?}"),
    }
    let mut over = Game::<Position>::from_fen(
        Some("3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1"),
        Rules::default(),
    )
    .unwrap();
    let err = over
        .play_all(&["a0a9", "d9e9"], Notation::Iccs)
        .unwrap_err();
    assert!(
        matches!(err, PlayError::GameOver { index: 1, .. }),
        "{err:?}"
    );
}

#[test]
fn make_unmake_restores_everything() {
    for (fen, _) in perft_table() {
        let mut p = pos(fen);
        let before = p.clone();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        for m in moves {
            let undo = p.make(m);
            assert_eq!(
                p.hash(),
                pos(&p.to_fen()).hash(),
                "incremental hash after {m:?}"
            );
            p.unmake(m, undo);
            assert_eq!(p, before);
            assert_eq!(p.hash(), before.hash());
            assert_eq!(p.to_fen(), before.to_fen());
        }
    }
}
