//! Repetition by the book: Fairy-Stockfish's public vectors, and the four
//! principles of the WXF rule book (docs/rules/xiangqi.md), each with a
//! contrast of our own.

use super::repetition_tests::{chased, repeat, threatened};
use super::*;
use crate::variants::{Color, Game, Outcome, Pattern, Reason};

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

/// Plays a record to its end (or its last move) and gives the outcome, the
/// ply at which the game ended, and the side to move after the whole record.
fn play_record(fen: &str, moves: &str, notation: Notation) -> (Outcome, usize, Color) {
    let mut g = Game::<Position>::from_fen(Some(fen), Rules::default()).unwrap();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let mut side = g.current().side();
    for (i, text) in moves.iter().enumerate() {
        if !g.outcome().is_ongoing() {
            // The rest of the record is still checked for legality.
            let mut rest = g.clone();
            for t in &moves[i..] {
                let mv = rest
                    .current()
                    .parse_move(t, notation)
                    .unwrap_or_else(|e| panic!("{t}: {e:?}"));
                rest.play(mv);
            }
            side = rest.current().side();
            return (g.outcome(), i, side);
        }
        g.play_text(i, text, notation).unwrap();
        side = g.current().side();
    }
    (g.outcome(), moves.len(), side)
}

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

// --- The four principles of the WXF rule book (docs/rules/xiangqi.md) ---

/// Plays `prefix`, then `cycle` `times` times, in ICCS, and adjudicates.
fn verdict(fen: &str, prefix: &[&str], cycle: &[&'static str], times: usize) -> Outcome {
    let mut moves: Vec<&str> = prefix.to_vec();
    moves.extend(repeat(cycle, times));
    let (outcome, _, _) = play_record(fen, &moves.join(" "), Notation::Iccs);
    assert!(!outcome.is_ongoing(), "{fen} {moves:?}: no verdict");
    // The same record with the colours exchanged (the board turned round)
    // gets the same verdict with the colours exchanged.
    let (fen2, moves2) = exchange_colours(fen, &moves);
    let (turned, _, _) = play_record(&fen2, &moves2.join(" "), Notation::Iccs);
    assert_eq!(turned.reason(), outcome.reason(), "{fen2}");
    assert_eq!(turned.winner(), outcome.winner().map(|c| !c), "{fen2}");
    outcome
}

/// A record with the colours exchanged: the board turned round, the piece
/// colours swapped, the other side to move.
fn exchange_colours(fen: &str, moves: &[&str]) -> (String, Vec<String>) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board: String = fields[0]
        .chars()
        .rev()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let turn = |sq: &[u8]| {
        format!(
            "{}{}",
            (b'i' - (sq[0] - b'a')) as char,
            (b'9' - (sq[1] - b'0')) as char
        )
    };
    let moves = moves
        .iter()
        .map(|m| {
            let b = m.as_bytes();
            format!("{}{}", turn(&b[0..2]), turn(&b[2..4]))
        })
        .collect();
    (format!("{board} {side} - - 0 1"), moves)
}

fn assert_draw(o: &Outcome) {
    assert!(
        o.is_draw() && o.reason() == Some(Reason::Repetition),
        "expected a repetition draw: {o:?}"
    );
}

fn assert_chaser_loses(o: &Outcome, chaser: Color) {
    assert_eq!(o.reason(), Some(Reason::PerpetualChase), "{o:?}");
    assert_eq!(o.winner(), Some(!chaser), "{o:?}");
}

/// Principle 1 (rule 12): checks break chases. A side chases perpetually
/// only if some piece is chased by every one of its moves, check moves
/// included.
#[test]
fn one_check_one_chase_is_allowed() {
    // The two examples: check, then attack an unprotected cannon.
    let o = verdict(
        "5k3/9/c6R1/9/9/9/9/9/9/3K5 w - - 0 1",
        &[],
        &["h7h9", "f9f8", "h9h7", "f8f9"],
        2,
    );
    assert_draw(&o);
    let o = verdict(
        "4k4/9/9/9/7R1/9/9/3K5/9/8c w - - 0 1",
        &["h5h9", "e9e8"],
        &[
            "h9h0", "i0i1", "h0h8", "e8e9", "h8h1", "i1i0", "h1h9", "e9e8",
        ],
        2,
    );
    assert_draw(&o);
    // The guard: each check also re-attacks the same soldier, so Red chases.
    let o = verdict(
        "3k5/9/9/3C5/3c5/3C5/9/9/3p5/4K4 w - - 0 1",
        &[],
        &["d4f4", "d5f5", "f4d4", "f5d5"],
        2,
    );
    assert_chaser_loses(&o, Color::White);
}

/// Own cases: a cannon checks through an advisor and chases a chariot in
/// turn (draw); with one more red cannon, the check move also unmasks that
/// cannon's attack on the same chariot, so every move chases it (loss).
#[test]
fn a_check_that_also_chases_still_chases() {
    let cycle = ["b5e5", "e9f9", "e5b5", "f9e9"];
    let o = verdict("1r2k4/4a4/1P7/9/1C7/9/9/9/9/3K5 w - - 0 1", &[], &cycle, 2);
    assert_draw(&o);
    let o = verdict(
        "1r2k4/4a4/1P7/9/1C7/9/9/1C7/9/3K5 w - - 0 1",
        &[],
        &cycle,
        2,
    );
    assert_chaser_loses(&o, Color::White);
    let Some(crate::variants::RepetitionReport { conduct, .. }) = o.repetition() else {
        panic!("a report")
    };
    assert_eq!(conduct[0].pattern, Pattern::PerpetualChase);
    assert_eq!(conduct[0].chased, [sq(1, 9)]);
}

/// Principle 2 (rule 19, diagrams 39-41): a parry is not a chase. The
/// issue's two rule-book cases and the appendix contrast.
#[test]
fn a_parry_is_not_a_chase() {
    let o = verdict(
        "3aka3/C4rN2/9/1R7/9/9/9/9/9/3K5 w - - 0 1",
        &[],
        &["b6b8", "f9e8", "b8b6", "e8f9"],
        2,
    );
    assert_chaser_loses(&o, Color::White);
    let o = verdict(
        "3ak4/2Nr4C/9/7R1/9/9/9/9/9/5K3 w - - 0 1",
        &[],
        &["h6h8", "d9e8", "h8h6", "e8d9"],
        2,
    );
    assert_chaser_loses(&o, Color::White);
    // The appendix: a soldier removing a cannon's screen parries nothing,
    // so the chariot's attack on the unprotected horse is a chase.
    let o = verdict(
        "2c2k3/9/b8/2P6/9/9/9/9/2nR5/4K4 w - - 0 1",
        &[],
        &["c6d6", "a7c5", "d6c6", "c5a7"],
        2,
    );
    assert_chaser_loses(&o, Color::White);
}

/// Own case: a red chariot steps in as a cannon's screen against a black
/// chariot pinned by a horse; the advisor's parries (interposing, removing
/// the new screen) cut the cannon's x-ray defence of the horse, which is no
/// chase: Red chases alone (loss). Without the cannon, the chariot attacks on
/// one move only and the advisor's moves chase nothing: a draw.
#[test]
fn parries_against_a_cannon_and_chariot() {
    let cycle = ["c7c8", "f9e8", "c8c7", "e8f9"];
    let o = verdict("4ka3/1C3rN2/2R6/9/9/9/9/9/9/3K5 w - - 0 1", &[], &cycle, 2);
    assert_chaser_loses(&o, Color::White);
    let o = verdict("4ka3/5rN2/2R6/9/9/9/9/9/9/3K5 w - - 0 1", &[], &cycle, 2);
    assert_draw(&o);
    // The interposition takes the cannon's x-ray defence of the horse away
    // (a new threat on g8), but it lifts the threats on the chariot without
    // moving it: a parry, which chases nothing.
    let after_c8 = "4ka3/1CR2rN2/9/9/9/9/9/9/9/3K5 b - - 1 1";
    assert!(!threatened(after_c8, Color::Black, "g8"));
    assert!(threatened(
        "4k4/1CR1arN2/9/9/9/9/9/9/9/3K5 w - - 2 2",
        Color::Black,
        "g8"
    ));
    assert!(chased(after_c8, "f9e8").is_empty());
}

/// Principle 3 (rule 32, diagrams 76-80): the whole repetition is judged,
/// from the first of the last three occurrences; two pieces chasing two
/// pieces in turn is a draw.
#[test]
fn the_whole_repetition_is_judged() {
    let o = verdict(
        "3k3c1/8R/9/9/9/9/9/9/1R7/c3K4 w - - 0 1",
        &[],
        &[
            "i8h8", "h9i9", "b1a1", "a0b0", "h8i8", "i9h9", "i8h8", "h9i9", "a1b1", "b0a0", "b1a1",
            "a0b0",
        ],
        1,
    );
    assert_draw(&o);
    assert_eq!(o.repetition().unwrap().cycle, (4, 12));
    let o = verdict(
        "4k4/7c1/8R/9/9/9/9/1R7/c8/3K5 w - - 0 1",
        &[],
        &[
            "i7h7", "h8i8", "b2a2", "a1b1", "h7i7", "i8h8", "i7h7", "h8i8", "a2b2", "b1a1", "b2a2",
            "a1b1",
        ],
        1,
    );
    assert_draw(&o);
    // The contrast: the same pieces, but the repetition is made by the
    // a-file pair alone: a perpetual chase of one cannon (loss).
    let o = verdict(
        "3k3c1/8R/9/9/9/9/9/9/1R7/c3K4 w - - 0 1",
        &[],
        &["b1a1", "a0b0", "a1b1", "b0a0"],
        2,
    );
    assert_chaser_loses(&o, Color::White);
}

/// Own case: a horse and a cannon chase two chariots in turn (both count
/// whatever the protection). The last cycle alone (plies 9-12) is the
/// cannon chasing one chariot; judged whole (plies 5-12), a draw. Each pair
/// repeating on its own is a perpetual chase (loss).
#[test]
fn two_chasers_two_victims_of_our_own() {
    let fen = "r3k4/3N4r/9/9/7n1/8P/9/7C1/9/3K5 w - - 0 1";
    let record = [
        "d8b7", "a9b9", "h2i2", "i8h8", "b7d8", "b9a9", "d8b7", "a9b9", "i2h2", "h8i8", "h2i2",
        "i8h8",
    ];
    let o = verdict(fen, &[], &record, 1);
    assert_draw(&o);
    assert_eq!(o.repetition().unwrap().cycle, (4, 12));
    let o = verdict(fen, &[], &["h2i2", "i8h8", "i2h2", "h8i8"], 2);
    assert_chaser_loses(&o, Color::White);
    let o = verdict(fen, &[], &["d8b7", "a9b9", "b7d8", "b9a9"], 2);
    assert_chaser_loses(&o, Color::White);
}

/// Principle 4: threats suspended by a check are not new. The issue's
/// example: Red's king steps out of check, and the chariot's attack on the
/// cannon, standing all along, is no chase.
#[test]
fn threats_suspended_by_a_check_are_not_new() {
    let o = verdict(
        "4k4/9/9/2R6/9/9/8r/2c6/4N4/3K5 b - - 0 1",
        &[],
        &["i3i0", "d0d1", "i0i3", "d1d0"],
        2,
    );
    assert_draw(&o);
    // The evasion itself chases nothing; the step back unmasks the horse's
    // attack (its leg d1 is free again), a real chase, but only one.
    assert!(chased("4k4/9/9/2R6/9/9/9/2c6/4N4/3K4r w - - 1 1", "d0d1").is_empty());
    assert_eq!(
        chased("4k4/9/9/2R6/9/9/8r/2c6/3KN4/9 w - - 2 2", "d1d0"),
        ["c2"]
    );
}

/// Own case: the red king steps out of a check along rank 0 and back. The
/// horse's attack on the cannon stands all along (suspended by the check,
/// not new), and the chariot's attack comes back when the king steps off
/// its rank: one chase, a draw. One feature different: the horse on d0,
/// whose leg the king frees as it steps out, chases with the evasion too
/// (loss).
#[test]
fn an_evasion_that_really_unmasks_is_a_chase() {
    let cycle = ["i5i0", "e0e1", "i0i5", "e1e0"];
    let o = verdict("3k5/9/9/9/8r/9/9/3N5/R4c3/4K4 b - - 0 1", &[], &cycle, 2);
    assert_draw(&o);
    let o = verdict("3k5/9/9/9/8r/9/9/9/R4c3/3NK4 b - - 0 1", &[], &cycle, 2);
    assert_chaser_loses(&o, Color::White);
    assert!(chased("3k5/9/9/9/9/9/9/3N5/R4c3/4K3r w - - 1 1", "e0e1").is_empty());
    assert_eq!(
        chased("3k5/9/9/9/9/9/9/9/R4c3/3NK3r w - - 1 1", "e0e1"),
        ["f1"]
    );
}

/// Own case: a chariot checks from c9 and unmasks the chariot behind it
/// on a4, which attacks the unprotected cannon on e4; back on c4 it attacks
/// the cannon itself. Every move chases the cannon, the check included
/// (loss). Without the chariot on a4 the check chases nothing (draw).
#[test]
fn a_check_that_unmasks_a_chase_chases() {
    let cycle = ["c4c9", "e9e8", "c9c4", "e8e9"];
    let o = verdict("4k4/9/9/9/9/R1R1c4/9/9/9/3K5 w - - 0 1", &[], &cycle, 2);
    assert_chaser_loses(&o, Color::White);
    let o = verdict("4k4/9/9/9/9/2R1c4/9/9/9/3K5 w - - 0 1", &[], &cycle, 2);
    assert_draw(&o);
}

/// Rule 12's "several checks and one chase": two checks, then an attack on
/// the unprotected cannon, while an elephant keeps time: a draw.
#[test]
fn several_checks_and_one_chase() {
    let cycle = [
        "h4h9", "e9e8", "h9h8", "e8e9", "h8h4", "c9e7", "h4h9", "e9e8", "h9h8", "e8e9", "h8h4",
        "e7c9",
    ];
    let o = verdict("2b1k4/9/9/9/9/c6R1/9/9/9/3K5 w - - 0 1", &[], &cycle, 2);
    assert_draw(&o);
    assert_eq!(o.repetition().unwrap().cycle, (0, 24));
}

/// Own case, the appendix mirrored: the soldier takes away the cannon's
/// screen and so the horse's protection, parrying nothing: the chariot
/// chases the horse (loss). With a black chariot guarding the horse along
/// the rank, nothing is taken away: a draw.
#[test]
fn removing_protection_without_parrying_chases() {
    let cycle = ["g6f6", "i7g5", "f6g6", "g5i7"];
    let o = verdict("3k2c2/9/8b/6P2/9/9/9/9/5Rn2/4K4 w - - 0 1", &[], &cycle, 2);
    assert_chaser_loses(&o, Color::White);
    let o = verdict("3k2c2/9/8b/6P2/9/9/9/9/5Rn1r/4K4 w - - 0 1", &[], &cycle, 2);
    assert_draw(&o);
}

/// Own case: two horses chase two chariots in turn (rule 32); the last
/// cycle alone is one horse chasing one chariot. Judged whole, a draw;
/// that pair repeating alone, a loss.
#[test]
fn two_horses_two_chariots() {
    let fen = "r3k3r/3N1N3/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let record = [
        "d8b7", "a9b9", "f8h7", "i9h9", "b7d8", "b9a9", "d8b7", "a9b9", "h7f8", "h9i9", "f8h7",
        "i9h9",
    ];
    assert_draw(&verdict(fen, &[], &record, 1));
    let o = verdict(fen, &[], &["f8h7", "i9h9", "h7f8", "h9i9"], 2);
    assert_chaser_loses(&o, Color::White);
}

/// Own case: the check comes from a cannon over an elephant; the horse's
/// standing attack on the cannon on f1 is suspended by it, not new (draw).
/// The horse on d0 instead, whose leg the king frees, chases (loss).
#[test]
fn a_cannon_check_suspends_nothing() {
    let cycle = ["i5i0", "e0e1", "i0i5", "e1e0"];
    let o = verdict("3k5/9/9/9/8c/9/9/3N5/R4c3/4K1B2 b - - 0 1", &[], &cycle, 2);
    assert_draw(&o);
    let o = verdict("3k5/9/9/9/8c/9/9/9/R4c3/3NK1B2 b - - 0 1", &[], &cycle, 2);
    assert_chaser_loses(&o, Color::White);
}
