//! The four principles of the WXF rule book (docs/rules/xiangqi.md), each
//! with a contrast of our own, every case also with the colours exchanged.

use super::repetition_tests::*;
use super::*;
use crate::variants::{Color, Game, Outcome, Pattern};

/// Plays `prefix`, then `cycle` `times` times (moves in ICCS, apart by
/// spaces), and adjudicates.
fn verdict(fen: &str, prefix: &str, cycle: &str, times: usize) -> Outcome {
    let cycle: Vec<&str> = cycle.split_whitespace().collect();
    let mut moves: Vec<&str> = prefix.split_whitespace().collect();
    moves.extend(cycle.iter().cycle().take(cycle.len() * times));
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
    (
        exchanged_fen(fen),
        moves.iter().map(|m| turned_move(m)).collect(),
    )
}

/// A position with the colours exchanged: the board turned half round, each
/// piece given to the other side, the other side to move.
pub(super) fn exchanged_fen(fen: &str) -> String {
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
    format!("{board} {side} - - 0 1")
}

/// A move in coordinates (ICCS) on the board turned half round.
pub(super) fn turned_move(m: &str) -> String {
    let turn = |sq: &[u8]| {
        format!(
            "{}{}",
            (b'i' - (sq[0] - b'a')) as char,
            (b'9' - (sq[1] - b'0')) as char
        )
    };
    let b = m.as_bytes();
    format!("{}{}", turn(&b[0..2]), turn(&b[2..4]))
}

/// What a record comes to.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// A repetition draw.
    Draw,
    /// Red chases perpetually and loses.
    RedChases,
}
use Expect::*;

/// The records of the four principles and of our own contrasts: the FEN,
/// moves played once, the cycle (ICCS), how many times it is played, what
/// the record comes to, and where a record is about them, the plies judged
/// (`cycle (4, 12)`: the report's span) or the points Red chases (`chased
/// b9`: the only pieces chased).
#[rustfmt::skip]
const RECORDS: &[(&str, &str, &str, usize, Expect, &str)] = &[
    // Principle 1 (rule 12): checks break chases. A side chases perpetually
    // only if some piece is chased by every one of its moves, check moves
    // included. The two examples: check, then attack an unprotected
    // cannon.
    ("5k3/9/c6R1/9/9/9/9/9/9/3K5 w - - 0 1", "", "h7h9 f9f8 h9h7 f8f9", 2, Draw, ""),
    ("4k4/9/9/9/7R1/9/9/3K5/9/8c w - - 0 1", "h5h9 e9e8", "h9h0 i0i1 h0h8 e8e9 h8h1 i1i0 h1h9 e9e8", 2, Draw, ""),
    // The guard: each check also re-attacks the same soldier, so Red chases.
    ("3k5/9/9/3C5/3c5/3C5/9/9/3p5/4K4 w - - 0 1", "", "d4f4 d5f5 f4d4 f5d5", 2, RedChases, ""),

    // Own cases: a cannon checks through an advisor and chases a chariot in
    // turn (draw); with one more red cannon, the check move also unmasks that
    // cannon's attack on the same chariot, so every move chases it (loss).
    ("1r2k4/4a4/1P7/9/1C7/9/9/9/9/3K5 w - - 0 1", "", "b5e5 e9f9 e5b5 f9e9", 2, Draw, ""),
    ("1r2k4/4a4/1P7/9/1C7/9/9/1C7/9/3K5 w - - 0 1", "", "b5e5 e9f9 e5b5 f9e9", 2, RedChases, "chased b9"),

    // Principle 2 (rule 19, diagrams 39-41): a parry is not a chase. The
    // issue's two rule-book cases and the appendix contrast.
    ("3aka3/C4rN2/9/1R7/9/9/9/9/9/3K5 w - - 0 1", "", "b6b8 f9e8 b8b6 e8f9", 2, RedChases, ""),
    ("3ak4/2Nr4C/9/7R1/9/9/9/9/9/5K3 w - - 0 1", "", "h6h8 d9e8 h8h6 e8d9", 2, RedChases, ""),
    // The appendix: a soldier removing a cannon's screen parries nothing,
    // so the chariot's attack on the unprotected horse is a chase.
    ("2c2k3/9/b8/2P6/9/9/9/9/2nR5/4K4 w - - 0 1", "", "c6d6 a7c5 d6c6 c5a7", 2, RedChases, ""),

    // Own case: a red chariot steps in as a cannon's screen against a black
    // chariot pinned by a horse; the advisor's parries (interposing, removing
    // the new screen) cut the cannon's x-ray defence of the horse, which is no
    // chase: Red chases alone (loss). Without the cannon, the chariot attacks on
    // one move only and the advisor's moves chase nothing: a draw.
    ("4ka3/1C3rN2/2R6/9/9/9/9/9/9/3K5 w - - 0 1", "", "c7c8 f9e8 c8c7 e8f9", 2, RedChases, ""),
    ("4ka3/5rN2/2R6/9/9/9/9/9/9/3K5 w - - 0 1", "", "c7c8 f9e8 c8c7 e8f9", 2, Draw, ""),

    // Principle 3 (rule 32, diagrams 76-80): the whole repetition is judged,
    // from the first of the last three occurrences; two pieces chasing two
    // pieces in turn is a draw.
    ("3k3c1/8R/9/9/9/9/9/9/1R7/c3K4 w - - 0 1", "", "i8h8 h9i9 b1a1 a0b0 h8i8 i9h9 i8h8 h9i9 a1b1 b0a0 b1a1 a0b0", 1, Draw, "cycle (4, 12)"),
    ("4k4/7c1/8R/9/9/9/9/1R7/c8/3K5 w - - 0 1", "", "i7h7 h8i8 b2a2 a1b1 h7i7 i8h8 i7h7 h8i8 a2b2 b1a1 b2a2 a1b1", 1, Draw, ""),
    // The contrast: the same pieces, but the repetition is made by the
    // a-file pair alone: a perpetual chase of one cannon (loss).
    ("3k3c1/8R/9/9/9/9/9/9/1R7/c3K4 w - - 0 1", "", "b1a1 a0b0 a1b1 b0a0", 2, RedChases, ""),

    // Own case: a horse and a cannon chase two chariots in turn (both count
    // whatever the protection). The last cycle alone (plies 9-12) is the
    // cannon chasing one chariot; judged whole (plies 5-12), a draw. Each pair
    // repeating on its own is a perpetual chase (loss).
    ("r3k4/3N4r/9/9/7n1/8P/9/7C1/9/3K5 w - - 0 1", "", "d8b7 a9b9 h2i2 i8h8 b7d8 b9a9 d8b7 a9b9 i2h2 h8i8 h2i2 i8h8", 1, Draw, "cycle (4, 12)"),
    ("r3k4/3N4r/9/9/7n1/8P/9/7C1/9/3K5 w - - 0 1", "", "h2i2 i8h8 i2h2 h8i8", 2, RedChases, ""),
    ("r3k4/3N4r/9/9/7n1/8P/9/7C1/9/3K5 w - - 0 1", "", "d8b7 a9b9 b7d8 b9a9", 2, RedChases, ""),

    // Principle 4: threats suspended by a check are not new. The issue's
    // example: Red's king steps out of check, and the chariot's attack on the
    // cannon, standing all along, is no chase.
    ("4k4/9/9/2R6/9/9/8r/2c6/4N4/3K5 b - - 0 1", "", "i3i0 d0d1 i0i3 d1d0", 2, Draw, ""),

    // Own case: the red king steps out of a check along rank 0 and back. The
    // horse's attack on the cannon stands all along (suspended by the check,
    // not new), and the chariot's attack comes back when the king steps off
    // its rank: one chase, a draw. One feature different: the horse on d0,
    // whose leg the king frees as it steps out, chases with the evasion too
    // (loss).
    ("3k5/9/9/9/8r/9/9/3N5/R4c3/4K4 b - - 0 1", "", "i5i0 e0e1 i0i5 e1e0", 2, Draw, ""),
    ("3k5/9/9/9/8r/9/9/9/R4c3/3NK4 b - - 0 1", "", "i5i0 e0e1 i0i5 e1e0", 2, RedChases, ""),

    // Own case: a chariot checks from c9 and unmasks the chariot behind it
    // on a4, which attacks the unprotected cannon on e4; back on c4 it attacks
    // the cannon itself. Every move chases the cannon, the check included
    // (loss). Without the chariot on a4 the check chases nothing (draw).
    ("4k4/9/9/9/9/R1R1c4/9/9/9/3K5 w - - 0 1", "", "c4c9 e9e8 c9c4 e8e9", 2, RedChases, ""),
    ("4k4/9/9/9/9/2R1c4/9/9/9/3K5 w - - 0 1", "", "c4c9 e9e8 c9c4 e8e9", 2, Draw, ""),

    // Rule 12's "several checks and one chase": two checks, then an attack on
    // the unprotected cannon, while an elephant keeps time: a draw.
    ("2b1k4/9/9/9/9/c6R1/9/9/9/3K5 w - - 0 1", "", "h4h9 e9e8 h9h8 e8e9 h8h4 c9e7 h4h9 e9e8 h9h8 e8e9 h8h4 e7c9", 2, Draw, "cycle (0, 24)"),

    // Own case, the appendix mirrored: the soldier takes away the cannon's
    // screen and so the horse's protection, parrying nothing: the chariot
    // chases the horse (loss). With a black chariot guarding the horse along
    // the rank, nothing is taken away: a draw.
    ("3k2c2/9/8b/6P2/9/9/9/9/5Rn2/4K4 w - - 0 1", "", "g6f6 i7g5 f6g6 g5i7", 2, RedChases, ""),
    ("3k2c2/9/8b/6P2/9/9/9/9/5Rn1r/4K4 w - - 0 1", "", "g6f6 i7g5 f6g6 g5i7", 2, Draw, ""),

    // Own case: two horses chase two chariots in turn (rule 32); the last
    // cycle alone is one horse chasing one chariot. Judged whole, a draw;
    // that pair repeating alone, a loss.
    ("r3k3r/3N1N3/9/9/9/9/9/9/9/3K5 w - - 0 1", "", "d8b7 a9b9 f8h7 i9h9 b7d8 b9a9 d8b7 a9b9 h7f8 h9i9 f8h7 i9h9", 1, Draw, ""),
    ("r3k3r/3N1N3/9/9/9/9/9/9/9/3K5 w - - 0 1", "", "f8h7 i9h9 h7f8 h9i9", 2, RedChases, ""),

    // Own case: the check comes from a cannon over an elephant; the horse's
    // standing attack on the cannon on f1 is suspended by it, not new (draw).
    // The horse on d0 instead, whose leg the king frees, chases (loss).
    ("3k5/9/9/9/8c/9/9/3N5/R4c3/4K1B2 b - - 0 1", "", "i5i0 e0e1 i0i5 e1e0", 2, Draw, ""),
    ("3k5/9/9/9/8c/9/9/9/R4c3/3NK1B2 b - - 0 1", "", "i5i0 e0e1 i0i5 e1e0", 2, RedChases, ""),
];

/// Every record of [`RECORDS`] comes to its verdict.
#[test]
fn the_four_principles_and_their_contrasts() {
    for (i, &(fen, prefix, cycle, times, expect, about)) in RECORDS.iter().enumerate() {
        let case = format!("record {i}: {fen} / {prefix} / {cycle} x{times}");
        let o = verdict(fen, prefix, cycle, times);
        match expect {
            Draw => assert!(
                o.is_draw() && o.reason() == Some(Reason::Repetition),
                "{case}: expected a repetition draw: {o:?}"
            ),
            RedChases => {
                assert_eq!(o.reason(), Some(Reason::PerpetualChase), "{case}: {o:?}");
                assert_eq!(o.winner(), Some(Color::Black), "{case}: {o:?}");
            }
        }
        if about.is_empty() {
            continue;
        }
        let Some(report) = o.repetition() else {
            panic!("{case}: a report")
        };
        if about.starts_with("cycle ") {
            assert_eq!(format!("cycle {:?}", report.cycle), about, "{case}");
        } else if let Some(points) = about.strip_prefix("chased ") {
            let chased: Vec<Sq> = points.split_whitespace().map(sqn).collect();
            assert_eq!(report.conduct[0].pattern, Pattern::PerpetualChase, "{case}");
            assert_eq!(report.conduct[0].chased, chased, "{case}");
        } else {
            panic!("{case}: what is {about:?}?");
        }
    }
}

/// The single moves behind some verdicts of [`RECORDS`].
#[test]
fn the_moves_behind_the_verdicts() {
    // Principle 2, our own case: the interposition takes the cannon's x-ray
    // defence of the horse away (a new threat on g8), but it lifts the
    // threats on the chariot without moving it: a parry, which chases
    // nothing.
    let after_c8 = "4ka3/1CR2rN2/9/9/9/9/9/9/9/3K5 b - - 1 1";
    assert!(!threatened(after_c8, Color::Black, "g8"));
    assert!(threatened(
        "4k4/1CR1arN2/9/9/9/9/9/9/9/3K5 w - - 2 2",
        Color::Black,
        "g8"
    ));
    assert!(chased(after_c8, "f9e8").is_empty());
    // Principle 4, the example: the evasion itself chases nothing;
    // the step back unmasks the horse's attack (its leg d1 is free again), a
    // real chase, but only one.
    assert!(chased("4k4/9/9/2R6/9/9/9/2c6/4N4/3K4r w - - 1 1", "d0d1").is_empty());
    assert_eq!(
        chased("4k4/9/9/2R6/9/9/8r/2c6/3KN4/9 w - - 2 2", "d1d0"),
        ["c2"]
    );
    // Principle 4, our own case: the king's evasion chases nothing with the
    // horse on d2; with the horse on d0, whose leg it frees, it chases the
    // cannon.
    assert!(chased("3k5/9/9/9/9/9/9/3N5/R4c3/4K3r w - - 1 1", "e0e1").is_empty());
    assert_eq!(
        chased("3k5/9/9/9/9/9/9/9/R4c3/3NK3r w - - 1 1", "e0e1"),
        ["f1"]
    );
}

/// A record that steps past a mate (the mated side's step into check as it
/// resigns, as real records write it): the game ends at the mate, and the
/// step is counted after the end, not refused; no board plays on.
#[test]
fn a_record_past_a_mate_counts_the_moves_after_it() {
    let rules = Rules::default();
    let fen = "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    let mut g = Game::<Position>::from_fen(Some(fen), rules).unwrap();
    let record = ["a0a9", "d9d8"];
    assert_eq!(g.play_past_end(&record, Notation::Iccs).unwrap(), 1);
    assert_eq!(g.moves().len(), 1);
    assert_eq!(
        g.outcome().verdict().map(|v| v.reason),
        Some(Reason::Checkmate)
    );
}
