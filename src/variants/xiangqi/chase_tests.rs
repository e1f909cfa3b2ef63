//! Chases position by position: what counts as a threat (a chase when
//! new), and Fairy-Stockfish's public repetition vectors.

use super::repetition_tests::{chased, play_record, threatened};
use super::*;
use crate::variants::Color;

// --- What counts as a threat (a chase when new) ---

/// What counts as a threat, case by case (FEN, the victim's point, whether
/// threatened): whether Red threatens the piece on that point, from any
/// attacker.
#[test]
fn what_counts_as_a_threat() {
    for (fen, victim, want) in [
        // -- The general as the only defender.
        // The black general on e9 guards the advisor on e8: no threat.
        ("4k4/R3a4/9/9/9/9/9/9/9/3K5 w - - 0 1", "e8", false),
        // With the red horse on c7 also hitting e8, the general cannot retake.
        ("4k4/R3a4/2N6/9/9/9/9/9/9/3K5 w - - 0 1", "e8", true),
        // Retaking would put the black general face to face with the red one.
        ("4k4/R3a4/9/9/9/9/9/9/9/4K4 w - - 0 1", "e8", true),
        // -- A pinned defender does not protect.
        // The black horse on e7 guards the cannon on c8, but the red chariot on
        // e1 pins it to its general.
        ("4k4/R1c6/4n4/9/9/9/9/9/4R4/3K5 w - - 0 1", "c8", true),
        // Unpinned (a black advisor on e8 stands in the chariot's way): protected.
        ("4k4/R1c1a4/4n4/9/9/9/9/9/4R4/3K5 w - - 0 1", "c8", false),
        // -- The flying general pins too.
        // The black horse on e6 is the only piece between the generals: it may
        // not leave the file to retake on c7.
        ("4k4/9/R1c6/4n4/9/9/9/9/9/4K4 w - - 0 1", "c7", true),
        // With the black advisor on e8 also on the file, the horse may retake.
        ("4k4/4a4/R1c6/4n4/9/9/9/9/9/4K4 w - - 0 1", "c7", false),
        // -- Fake protection through a cannon screen.
        // The black cannon on c9 "guards" c6 over the red chariot on c7, but
        // once the chariot takes, the screen is gone.
        ("2c1k4/9/2R6/2n6/9/9/9/9/9/3K5 w - - 0 1", "c6", true),
        // With a black horse on c8 the cannon has a screen after the capture.
        ("2c1k4/2n6/2R6/2n6/9/9/9/9/9/3K5 w - - 0 1", "c6", false),
        // -- By kind of piece.
        // A horse attacking a protected chariot threatens it all the same.
        ("3k5/9/9/9/2r1r4/9/3N5/9/9/4K4 w - - 0 1", "e5", true),
        // A chariot attacking a protected horse does not.
        ("3k5/9/9/9/r1n6/9/9/9/9/2R1K4 w - - 0 1", "c5", false),
        // An elephant attacking a protected horse threatens it.
        ("r2k5/9/9/9/9/9/9/n8/9/2B1K4 w - - 0 1", "a2", true),
        // Soldiers and generals never chase.
        ("3k5/9/9/4r4/4P4/9/9/9/9/5K3 w - - 0 1", "e6", false),
        ("3k5/9/9/9/9/9/9/4n4/4K4/9 w - - 0 1", "e2", false),
        // A soldier that has not crossed the river is no victim; one that has, is.
        ("3k5/9/9/p8/9/9/9/9/9/R3K4 w - - 0 1", "a6", false),
        ("3k5/9/9/9/9/p8/9/9/9/R3K4 w - - 0 1", "a4", true),
        // -- Mutual attacks of one kind are not chases.
        // Two chariots facing each other on the a-file.
        ("3k5/9/r8/9/9/9/9/9/9/R3K4 w - - 0 1", "a7", false),
        // Unless the black chariot may not take back: it is the only piece
        // between the generals (and unprotected).
        ("4k4/9/R3r4/9/9/9/9/9/9/4K4 w - - 0 1", "e7", true),
    ] {
        assert_eq!(
            threatened(fen, Color::White, victim),
            want,
            "{fen}: is {victim} threatened?"
        );
    }
}

#[test]
fn blocking_a_defender_is_a_chase() {
    // The black chariot on a6 guards the horse on c6 along the rank, so the
    // red chariot on c3 does not threaten it; the red horse jumping a4-b6
    // blocks the guard and so chases the horse.
    let fen = "4k4/9/9/r1n6/9/N8/2R6/9/9/3K5 w - - 0 1";
    assert!(!threatened(fen, Color::White, "c6"));
    assert_eq!(chased(fen, "a4b6"), vec!["c6".to_owned()]);
    // A move that changes nothing for c6 chases nothing.
    assert!(chased(fen, "d0d1").is_empty());
}

#[test]
fn a_discovered_attack_is_a_chase() {
    // The red horse on c3 steps aside and unmasks the chariot on c1 against
    // the unprotected black horse on c6.
    let fen = "4k4/9/9/2n6/9/9/2N6/9/2R6/3K5 w - - 0 1";
    assert!(!threatened(fen, Color::White, "c6"));
    assert_eq!(chased(fen, "c3d5"), vec!["c6".to_owned()]);
}

#[test]
fn sliding_along_the_line_is_not_a_new_attack() {
    // The chariot on a8 already attacks the unprotected horse on e8.
    let fen = "3k5/R3n4/9/9/9/9/9/9/9/4K4 w - - 0 1";
    assert!(threatened(fen, Color::White, "e8"));
    assert!(chased(fen, "a8b8").is_empty());
    // Arriving from another line is a new attack.
    let fen = "3k5/4n4/R8/9/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(chased(fen, "a7a8"), vec!["e8".to_owned()]);
}

// --- Fairy-Stockfish's public repetition vectors ---

/// What Fairy-Stockfish's `is_optional_game_end` answers at the end of a
/// record: the side to move then wins, loses, draws, or the game just ends.
#[derive(Clone, Copy, Debug)]
enum Expect {
    Mover,
    Other,
    Draw,
    Ends,
}
use Expect::*;

/// Fairy-Stockfish's 33 Xiangqi repetition vectors (its `test.py`,
/// `test_is_optional_game_end`, "Xiangqi chasing rules" and "Corner cases"):
/// FEN, moves in its coordinates (ranks 1-10), and its verdict.
const FAIRY_VECTORS: [(&str, &str, &str, Expect); 33] = [
    ("Direct chase by cannon", "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1", "c3a3 a8b8 a3b3 b8a8 b3a3 a8b8 a3b3 b8a8 b3a3", Mover),
    ("Chase with chasing side to move", "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1", "c3a3 a8b8 a3b3 b8a8 b3a3 a8b8 a3b3 b8a8 b3a3 a8b8 a3b3 b8a8", Other),
    ("Discovered chase by cannon (including pawn capture)", "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1", "a5a6 a7b7 a6b6 b7a7 b6a6 a7b7 a6b6 b7a7 b6a6", Mover),
    ("Chase by soldier (draw)", "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1", "a5a6 a7b7 a6b6 b7a7 b6a6 a7b7 a6b6 b7a7 b6a6", Draw),
    ("Discovered and anti-discovered chase by cannon", "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1", "f5d5 f6d6 d5f5 d6f6 f5d5 f6d6 d5f5 d6f6", Other),
    ("Mutual chase (draw)", "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1", "f7h7 h9f8 h7h8 f8g6 h8g8 g6i7 g8g7 i7h9 g7h7 h9f8 h7h8 f8g6 h8g8 g6i7 g8g7 i7h9 g7h7", Draw),
    ("Perpetual check vs. intermittent checks", "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1", "d7e7 e5d5 e7d7 d5e5 d7e7 e5d5 e7d7 d5e5", Mover),
    ("Perpetual check by soldier", "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", "f2e2 f3e3 e2f2 e3f3 f2e2 f3e3 e2f2 e3f3", Mover),
    ("Perpetual check by soldier", "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1", "d7e7 e8g6 e7d7 g6e8 d7e7 e8g6 e7d7 g6e8", Mover),
    ("Perpetual check by soldier", "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1", "d2d4 b2b4 d4d2 b4b2 d2d4 b2b4 d4d2 b4b2", Mover),
    ("Perpetual check by soldier", "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1", "f5d5 f6d6 d5f5 d6f6 f5d5 f6d6 d5f5 d6f6", Other),
    ("Perpetual check by soldier", "4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w - - 0 1", "g7g6 f7g9 g6g7 g9f7 g7g6 f7g9 g6g7 g9f7", Mover),
    ("Perpetual check by soldier", "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1", "d10e10 d9e9 e10d10 e9d9 d10e10 d9e9 e10d10 e9d9", Mover),
    ("Perpetual check by soldier", "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1", "e5e4 c5c4 e4e5 c4c5 e5e4 c5c4 e4e5 c4c5", Mover),
    ("Perpetual check by soldier", "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w - - 0 1", "a2c2 a5c5 c2a2 c5a5 a2c2 a5c5 c2a2 c5a5", Mover),
    ("Mutual perpetual check", "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1", "e4d4 d7e7 d4e4 e7d7 e4d4 d7e7 d4e4 e7d7", Draw),
    ("Mutual perpetual check", "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w - - 0 1", "h7g7 g6h6 g7h7 h6g6 h7g7 g6h6 g7h7 h6g6", Draw),
    ("Mutual perpetual check", "4ck3/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w - - 0 1", "e5e4 c5c4 e4e5 c4c5 e5e4 c5c4 e4e5 c4c5", Draw),
    ("Mutual perpetual check", "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w - - 0 1", "c3a3 a7c7 a3c3 c7a7 c3a3 a7c7 a3c3 c7a7", Draw),
    ("Mutual perpetual check", "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1", "b2a2 a8b8 a2c2 c8d8 c2b2 b8a8 b2d2 d8c8 d2a2 a8b8 a2c2 c8d8 c2b2 b8a8 b2d2 d8c8 d2a2", Draw),
    ("D106: Chariot chases cannon, but attack actually does not change (draw)", "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1[] w - - 0 1", "h1h2 h5h4 h2h1 h4h5 h1h2 h5h4 h2h1 h4h5", Draw),
    ("D39: Chased chariot pinned by horse + mutual chase (controversial if pinned chariot chases)", "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1", "b7b9 f10e9 b9b10 e9f10 b10b9 f10e9 b9b10 e9f10 b10b9", Mover),
    ("D39: Chased chariot pinned by horse + mutual chase (controversial if pinned chariot chases)", "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1", "e2f1 h4h2 f1e2 h2h4 e2f1 h4h2 f1e2 h2h4", Mover),
    ("Creating pins to undermine root", "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1", "e4g5 e2f2 g5e4 f2e2 e4g5 e2f2 g5e4 f2e2", Other),
    ("Discovered check capture threat by rook", "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1", "b5c3 b1c1 c3b5 c1b1 b5c3 b1c1 c3b5 c1b1", Mover),
    ("Creating a pin to undermine root + discovered check threat by horse", "5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w - - 0 1", "e1d1 e5d5 d1e1 d5e5 e1d1 e5d5 d1e1 d5e5", Mover),
    ("Creating a pin to undermine root + discovered check threat by rook", "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1", "e1d1 e5d5 d1e1 d5e5 e1d1 e5d5 d1e1 d5e5", Mover),
    ("X-Ray protected discovered check", "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1", "d1c3 h1h3 c3d1 h3h1 d1c3 h1h3 c3d1 h3h1", Mover),
    ("No overprotection by king", "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1", "d1c3 d4c4 c3d1 c4d4 d1c3 d4c4 c3d1 c4d4", Draw),
    ("Overprotection by king", "3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1", "d1c3 d4c4 c3d1 c4d4 d1c3 d4c4 c3d1 c4d4", Mover),
    ("Mutual pins by flying generals", "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1", "e2g1 e10f10 g1e2 f10e10 e2g1 e10f10 g1e2 f10e10", Ends),
    ("Fake protection by cannon", "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1", "b5c5 b4c4 c5b5 c4b4 b5c5 b4c4 c5b5 c4b4", Mover),
    ("Fake protection by cannon + mutual chase", "4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w - - 0 1", "f9f7 f10e9 f7f9 e9f10 f9f7 f10e9 f7f9 e9f10", Draw),
];

#[test]
fn fairy_stockfish_vectors_all_agree() {
    let mut wrong = Vec::new();
    for (name, fen, moves, expect) in FAIRY_VECTORS {
        let (outcome, _, side) = play_record(fen, moves, Notation::Fairy);
        let ok = match expect {
            Mover => outcome.winner() == Some(side),
            Other => outcome.winner() == Some(!side),
            Draw => outcome.is_draw(),
            Ends => !outcome.is_ongoing(),
        };
        if !ok {
            wrong.push(format!(
                "{name}: expected {expect:?}, got {:?}: {:?}",
                outcome.reason(),
                outcome.repetition()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 33 disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
