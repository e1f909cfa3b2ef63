//! Repetition: whole cycles judged, rulings played past, and the four
//! principles of the WXF rule book, each with a contrast of our own. What
//! counts as a chase position by position is in `chase_tests.rs`.

use super::*;
use crate::prose;
use crate::variants::{Color, Game, Outcome, Pattern, PlayError, Reason, RepetitionReport};

/// Each side's pattern in a report, first mover first.
fn patterns(r: &RepetitionReport) -> [Pattern; 2] {
    [r.conduct[0].pattern, r.conduct[1].pattern]
}

/// The words the API gives an outcome.
fn words(g: &Game<Position>, o: &Outcome) -> String {
    prose::outcome(g, o)
}

fn game(fen: &str, moves: &[&str]) -> Game<Position> {
    let mut g = Game::<Position>::from_fen(Some(fen), Rules::default()).unwrap();
    g.play_all(moves, Notation::Iccs).unwrap();
    g
}

/// The cycle played `times` times.
fn repeat(cycle: &[&'static str], times: usize) -> Vec<&'static str> {
    cycle
        .iter()
        .cycle()
        .take(cycle.len() * times)
        .copied()
        .collect()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, &Rules::default()).unwrap()
}

fn sqn(name: &str) -> Sq {
    let b = name.as_bytes();
    sq((b[0] - b'a') as usize, (b[1] - b'0') as usize)
}

/// Whether `side` threatens the piece on `victim` (from any attacker).
pub(super) fn threatened(fen: &str, side: Color, victim: &str) -> bool {
    pos(fen)
        .threats(side)
        .iter()
        .any(|&(_, v)| v == sqn(victim))
}

pub(super) fn chased(fen: &str, mv: &str) -> Vec<String> {
    let before = pos(fen);
    let m = before.parse_move(mv, Notation::Iccs).unwrap();
    let mut after = before.clone();
    after.make(m);
    Position::chased_by(&before, m, &after)
        .into_iter()
        .map(sq_name)
        .collect()
}

#[test]
fn one_sided_perpetual_check_loses() {
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let mut moves = vec!["a7a8"];
    moves.extend(repeat(&["e8e9", "a8a9", "e9e8", "a9a8"], 2));
    let g = game(fen, &moves[..moves.len() - 1]);
    assert!(
        g.outcome().is_ongoing(),
        "two occurrences are not yet a verdict"
    );
    // The last move would complete it: marked, and a loss for Red.
    let last = g.current().parse_move("a9a8", Notation::Iccs).unwrap();
    let verdict = g.repetition_verdict_after(last).expect("a verdict");
    assert_eq!(verdict.winner, Some(Color::Black));
    // Another move is fine.
    let other = g.current().parse_move("a9b9", Notation::Iccs).unwrap();
    assert_eq!(g.repetition_verdict_after(other), None);

    let g = game(fen, &moves);
    let o = g.outcome();
    assert_eq!(o.reason(), Some(Reason::PerpetualCheck));
    assert_eq!(o.winner(), Some(Color::Black));
    let r = o.repetition().unwrap();
    assert_eq!(r.occurrences, vec![1, 5, 9]);
    // The whole repetition is judged: from the first of the three occurrences.
    assert_eq!(r.cycle, (1, 9));
    assert_eq!(patterns(r), [Pattern::PerpetualCheck, Pattern::Allowed]);
    assert_eq!(r.in_breach, Some(Color::White));
    assert!(
        words(&g, &o).contains("Red gave check with every move of the repetition (plies 2-9)"),
        "{}",
        words(&g, &o)
    );
}

#[test]
fn intermittent_check_is_a_draw() {
    let g = game(
        "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
        &repeat(&["a7a8", "e8e9", "a8a7", "e9e8"], 2),
    );
    let o = g.outcome();
    assert_eq!(o.reason(), Some(Reason::Repetition));
    assert!(o.is_draw());
    assert_eq!(o.repetition().unwrap().occurrences, vec![0, 4, 8]);
    assert_eq!(
        patterns(o.repetition().unwrap()),
        [Pattern::Allowed, Pattern::Allowed]
    );
}

#[test]
fn mutual_perpetual_check_is_a_draw() {
    // Every move of both sides gives check (found by searching check cycles).
    let fen = "7c1/4k4/3c5/4r4/3C5/9/9/9/3K1N3/4R4 w - - 0 1";
    let moves = repeat(&["d5e5", "e6d6", "e5d5", "d6e6"], 2);
    let g = game(fen, &moves);
    for i in 0..moves.len() {
        assert!(g.positions()[i + 1].in_check(), "move {i} checks");
    }
    let o = g.outcome();
    assert_eq!(o.reason(), Some(Reason::Repetition));
    assert_eq!(o.winner(), None);
    assert_eq!(
        patterns(o.repetition().unwrap()),
        [Pattern::PerpetualCheck, Pattern::PerpetualCheck]
    );
    assert!(words(&g, &o).contains("both sides checked perpetually"));
}

#[test]
fn perpetual_check_against_intermittent_check_loses() {
    // Red checks with every move; Black's cannon checks on one move of two.
    let fen = "3k5/9/9/8c/3C5/9/4r4/3R5/r8/3K5 w - - 0 1";
    let g = game(fen, &repeat(&["d5e5", "i6d6", "e5d5", "d6i6"], 2));
    assert!(g.positions()[2].in_check() && !g.positions()[4].in_check());
    let o = g.outcome();
    assert_eq!(o.reason(), Some(Reason::PerpetualCheck));
    assert_eq!(o.winner(), Some(Color::Black));
    assert_eq!(
        o.repetition().unwrap().conduct[0].pattern,
        Pattern::PerpetualCheck
    );
    assert_ne!(
        o.repetition().unwrap().conduct[1].pattern,
        Pattern::PerpetualCheck
    );
}

#[test]
fn cannon_chasing_a_chariot_loses() {
    // The red cannon follows the black chariot between a7 and b7 over the
    // horses on a5/b5; the chariot attacks a different horse each time, which
    // is one piece attacking two in turn: allowed.
    let fen = "4k4/9/r8/9/NN7/9/9/C8/9/3K5 b - - 0 1";
    let g = game(fen, &repeat(&["a7b7", "a2b2", "b7a7", "b2a2"], 2));
    let o = g.outcome();
    assert_eq!(
        o.reason(),
        Some(Reason::PerpetualChase),
        "{}",
        words(&g, &o)
    );
    assert_eq!(o.winner(), Some(Color::Black));
    let r = o.repetition().unwrap();
    assert_eq!(r.conduct[0].pattern, Pattern::PerpetualChase);
    assert_eq!(r.conduct[0].chased, vec![sq(0, 7)]);
    assert_eq!(r.conduct[1].pattern, Pattern::Allowed);
    assert!(
        words(&g, &o).contains("Red chased the Black chariot (now on a7)"),
        "{}",
        words(&g, &o)
    );
}

#[test]
fn a_soldier_may_chase() {
    // The red soldier follows the black chariot; soldiers' attacks are not chases,
    // and the chariot's attacks on the soldier hit a protected piece.
    let fen = "4k4/9/9/4r4/R3P4/9/9/9/9/5K3 b - - 0 1";
    let g = game(fen, &repeat(&["e6d6", "e5d5", "d6e6", "d5e5"], 2));
    let o = g.outcome();
    assert_eq!(o.reason(), Some(Reason::Repetition), "{}", words(&g, &o));
    assert_eq!(
        patterns(o.repetition().unwrap()),
        [Pattern::Allowed, Pattern::Allowed]
    );
}

#[test]
fn repetition_rules_can_be_switched_off() {
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let rules = Rules {
        repetition: RepetitionRule::None,
        ..Rules::default()
    };
    let mut g = Game::<Position>::from_fen(Some(fen), rules).unwrap();
    g.play_all(
        &repeat(&["a7a8", "e8e9", "a8a7", "e9e8"], 4),
        Notation::Iccs,
    )
    .unwrap();
    assert!(g.outcome().is_ongoing());
}

#[test]
fn a_third_occurrence_ends_the_game() {
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let mut g = Game::<Position>::from_fen(Some(fen), Rules::default()).unwrap();
    let err = g
        .play_all(
            &repeat(&["a7a8", "e8e9", "a8a7", "e9e8"], 3),
            Notation::Iccs,
        )
        .unwrap_err();
    assert!(
        matches!(err, PlayError::GameOver { index: 8, .. }),
        "{err:?}"
    );
}

/// Over the board the arbiter rules at the third occurrence and the game
/// goes on once the offender changes: with `repetition_ends_game` false the
/// ruling is an event, and the game ends by repetition only where the
/// record ends at a ruling.
#[test]
fn a_ruling_played_past_is_an_event() {
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    // Red checks on and is ruled against at ply 9 (the third occurrence)
    // and again at ply 10 (the same cycle played on); then Red changes.
    let record = [
        "a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8b8",
        "e9f9",
    ];
    let otb = Rules {
        repetition_ends_game: false,
        ..Rules::default()
    };
    let mut g = Game::<Position>::from_fen(Some(fen), otb.clone()).unwrap();
    g.play_all(&record, Notation::Iccs).unwrap();
    assert!(g.outcome().is_ongoing());
    let events = g.repetition_events();
    assert_eq!(
        events.len(),
        1,
        "a run of ruled plies is one event: {events:?}"
    );
    assert_eq!(events[0].ply, 9);
    assert_eq!(events[0].verdict.reason, Reason::PerpetualCheck);
    assert_eq!(events[0].verdict.winner, Some(Color::Black));
    // The same record under the default rules ends at the ruling.
    let mut live = Game::<Position>::from_fen(Some(fen), Rules::default()).unwrap();
    assert!(matches!(
        live.play_all(&record, Notation::Iccs),
        Err(PlayError::GameOver { index: 9, .. })
    ));
    // A record that stops at the ruling ends by it, over the board too.
    let mut g = Game::<Position>::from_fen(Some(fen), otb).unwrap();
    g.play_all(&record[..9], Notation::Iccs).unwrap();
    assert_eq!(g.outcome().reason(), Some(Reason::PerpetualCheck));
    assert!(g.repetition_events().is_empty());
    // Where another rule ends the game at a ruled ply that the record goes
    // on past, that rule is the verdict (here the move limit at ply 9).
    let limited = Rules {
        repetition_ends_game: false,
        move_limit_plies: 9,
        ..Rules::default()
    };
    let mut g = Game::<Position>::from_fen(Some(fen), limited).unwrap();
    assert_eq!(g.play_past_end(&record, Notation::Iccs).unwrap(), 3);
    assert_eq!(g.outcome().reason(), Some(Reason::MoveLimit));
    assert_eq!(g.moves().len(), 9);
    assert_eq!(g.repetition_events()[0].ply, 9);
}

/// The tournament option: a repetition that would be drawn before the
/// given move is lost by Red, who had to change; from that move on it is
/// drawn. Decisive verdicts are untouched.
#[test]
fn no_repetition_draw_before_a_move() {
    // Both sides shuffle: a drawn repetition at ply 8 (move 5).
    let fen = "r2k5/9/9/9/9/9/9/9/9/3AKA2R w - - 0 1";
    let shuffle = repeat(&["i0i1", "a9a8", "i1i0", "a8a9"], 2);
    let rules = |before: u32| Rules {
        no_repetition_draw_before_move: before,
        ..Rules::default()
    };
    let g = game_with(fen, &shuffle, rules(0));
    assert_eq!(g.outcome().reason(), Some(Reason::Repetition));
    let g = game_with(fen, &shuffle, rules(26));
    assert_eq!(g.outcome().reason(), Some(Reason::EarlyRepetition));
    assert_eq!(g.outcome().winner(), Some(Color::Black));
    assert_eq!(
        g.outcome().repetition().unwrap().in_breach,
        Some(Color::White)
    );
    assert!(words(&g, &g.outcome()).contains("may not be drawn before move 26"));
    // From move 5 on the draw stands.
    let g = game_with(fen, &shuffle, rules(5));
    assert_eq!(g.outcome().reason(), Some(Reason::Repetition));
    // A perpetual check still loses as it would.
    let checks = [
        "a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8",
    ];
    let g = game_with("9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1", &checks, rules(26));
    assert_eq!(g.outcome().reason(), Some(Reason::PerpetualCheck));
}

/// A game from `fen` with `moves` under `rules`.
fn game_with(fen: &str, moves: &[&str], rules: Rules) -> Game<Position> {
    let mut g = Game::<Position>::from_fen(Some(fen), rules).unwrap();
    g.play_all(moves, Notation::Iccs).unwrap();
    g
}

/// Plays a record to its end (or its last move) and gives the outcome, the
/// ply at which the game ended, and the side to move after the whole record.
pub(super) fn play_record(fen: &str, moves: &str, notation: Notation) -> (Outcome, usize, Color) {
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
