//! Taxi chess's notations: FEN read and written back with its balances,
//! SAN and UCI, coordinates in every spelling, and a written move refused
//! for its coordinates' reason.

use super::tests::{chess_perft, find, pos, san};
use super::*;
use crate::variants::shared_tests::refused;
use crate::variants::Refusal;

#[test]
fn fen_round_trip_and_errors() {
    for (fen, _) in chess_perft() {
        let full = format!("{fen} 16/16");
        assert_eq!(pos(&full).to_fen(), full);
    }
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").to_fen(),
        START_FEN
    );
    for (fen, needle) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16",
            "'W/B'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x/16",
            "whole numbers",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "White king side castling right",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1",
            "exactly one king",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - e3 0 1",
            "en-passant",
        ),
        ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1 0/2", "side not to move"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn cannot stand"),
    ] {
        let e = Position::from_fen(fen, &Rules::default()).expect_err(fen);
        assert!(e.message.contains(needle), "{fen}: {}", e.message);
    }
}

#[test]
fn san_and_uci() {
    let p = Position::start_position(&Rules::default());
    for (uci, written) in [("e2e4", "e4"), ("g1f3", "Nf3"), ("b1c3", "Nc3")] {
        let m = find(&p, uci);
        assert_eq!(san(&p, m), written);
        assert_eq!(p.parse_move(written, Notation::San).unwrap(), m);
    }
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 20/20");
    assert_eq!(san(&p, find(&p, "e1g1")), "O-O");
    assert_eq!(
        p.parse_move("O-O-O", Notation::San).unwrap(),
        find(&p, "e1c1")
    );
    assert_eq!(san(&p, find(&p, "a1a8")), "Rxa8+");
    // The king on e1 blocks the h1 rook: no disambiguation needed.
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w - - 0 1 20/20");
    assert_eq!(san(&p, find(&p, "a1d1")), "Rd1");
    // Disambiguation by file, and by rank.
    let p = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1 20/20");
    assert_eq!(san(&p, find(&p, "a1d1")), "Rad1");
    let p = pos("4k3/8/8/R7/8/8/4K3/R7 w - - 0 1 20/20");
    assert_eq!(san(&p, find(&p, "a1a3")), "R1a3");
    let p = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1 20/20");
    assert_eq!(san(&p, find(&p, "a7b8q")), "axb8=Q+");
    assert!(refused(&p, "a7a8", Notation::Uci).code == Refusal::PromotionRequired);
    assert!(refused(&p, "e2e4x", Notation::Uci).is_syntax());
    // A promotion with nothing before it (found by the fuzzer: it panicked).
    for text in ["=Q", "=N", "x=Q"] {
        assert!(refused(&p, text, Notation::San).is_syntax(), "{text}");
    }
}

/// Coordinates in one spelling: any case, a hyphen between the squares,
/// the promotion letter in any case with or without `=`, full-width forms.
#[test]
fn coordinates_in_every_spelling() {
    let p = Position::start_position(&Rules::default());
    let m = find(&p, "e2e4");
    for text in ["E2E4", "e2-e4", "E2-E4", "ｅ２ｅ４"] {
        assert_eq!(p.parse_move(text, Notation::Uci).unwrap(), m, "{text}");
    }
    let p = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1 20/20");
    let m = find(&p, "a7b8q");
    for text in ["a7b8Q", "a7b8=q", "A7-B8=Q"] {
        assert_eq!(p.parse_move(text, Notation::Uci).unwrap(), m, "{text}");
    }
    // SAN keeps its case (`b` is a file, `B` a bishop) but reads full width.
    let p = Position::start_position(&Rules::default());
    assert_eq!(
        p.parse_move("Ｎｆ３", Notation::San).unwrap(),
        find(&p, "g1f3")
    );
}

/// A SAN move that names no legal move is refused for the reason its
/// coordinates would be, when it names one piece and a square.
#[test]
fn san_refusals_give_the_coordinates_reason() {
    let cases = [
        // Castling that costs more than the mover has.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 2/2", "O-O-O", "e1c1"),
        // A blocked line, a blocked pawn, a pawn's double step from
        // elsewhere, a promotion not named, the king into a threat, an
        // own piece on the square, an unaffordable capture.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16/16",
            "Bc4",
            "f1c4",
        ),
        (
            "rnbqkbnr/pppp1ppp/8/8/4p3/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 1 16/16",
            "e4",
            "e3e4",
        ),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 20/20", "a8", "a7a8"),
        ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1 20/20", "Kd1", "e1d1"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16/16",
            "Qd2",
            "d1d2",
        ),
        ("4k3/8/8/8/8/8/3r4/R3K3 w - - 0 1 0/0", "Rxa8", "a1a8"),
        ("4k3/8/8/3r4/8/8/8/R3K3 w - - 0 1 0/0", "Rd1", "a1d1"),
    ];
    for (fen, written, uci) in cases {
        let p = pos(fen);
        let coordinates = p.parse_move(uci, Notation::Uci).unwrap_err();
        let san = p.parse_move(written, Notation::San).unwrap_err();
        assert_ne!(san.code(), Refusal::NoSuchMove, "{written}");
        assert_eq!(san, coordinates, "{written} as {uci}");
    }
    assert_eq!(
        pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 2/2")
            .parse_move("O-O-O", Notation::San)
            .unwrap_err()
            .code(),
        Refusal::InsufficientFunds
    );
    // No piece of the kind can be meant, or two can: nothing to explain.
    let p = Position::start_position(&Rules::default());
    for written in ["Nd4", "e5", "Rb3"] {
        assert_eq!(
            p.parse_move(written, Notation::San).unwrap_err().code(),
            Refusal::NoSuchMove,
            "{written}"
        );
    }
}
