//! Repetition: whole cycles judged and rulings played past. The four
//! principles of the WXF rule book are in `repetition_book_tests.rs`; what
//! counts as a chase position by position is in `chase_tests.rs`.

use super::*;
use crate::prose;
use crate::variants::{Color, Game, Outcome, Pattern, PlayError, Reason, RepetitionReport};

/// Each side's pattern in a report, first mover first.
pub(super) fn patterns(r: &RepetitionReport) -> [Pattern; 2] {
    [r.conduct[0].pattern, r.conduct[1].pattern]
}

/// The words the API gives an outcome.
pub(super) fn words(g: &Game<Position>, o: &Outcome) -> String {
    prose::outcome(g, o)
}

pub(super) fn game(fen: &str, moves: &[&str]) -> Game<Position> {
    let mut g = Game::<Position>::from_fen(Some(fen), Rules::default()).unwrap();
    g.play_all(moves, Notation::Iccs).unwrap();
    g
}

/// The cycle played `times` times.
pub(super) fn repeat(cycle: &[&'static str], times: usize) -> Vec<&'static str> {
    cycle
        .iter()
        .cycle()
        .take(cycle.len() * times)
        .copied()
        .collect()
}

pub(super) fn pos(fen: &str) -> Position {
    Position::from_fen(fen, &Rules::default()).unwrap()
}

pub(super) fn sqn(name: &str) -> Sq {
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

/// Asserts that the API's words for `o` say `needle`.
fn assert_words(g: &Game<Position>, o: &Outcome, needle: &str) {
    let words = words(g, o);
    assert!(words.contains(needle), "{words}");
}

/// The game's outcome, asserted to be a repetition draw in which both
/// sides' conduct was allowed.
fn drawn_both_allowed(g: &Game<Position>) -> Outcome {
    let o = g.outcome();
    assert_eq!(o.reason(), Some(Reason::Repetition), "{}", words(g, &o));
    assert_eq!(
        patterns(o.repetition().unwrap()),
        [Pattern::Allowed, Pattern::Allowed]
    );
    o
}

#[test]
pub(super) fn one_sided_perpetual_check_loses() {
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
    assert_words(
        &g,
        &o,
        "Red gave check with every move of the repetition (plies 2-9)",
    );
}

#[test]
pub(super) fn intermittent_check_is_a_draw() {
    let g = game(
        "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
        &repeat(&["a7a8", "e8e9", "a8a7", "e9e8"], 2),
    );
    let o = drawn_both_allowed(&g);
    assert!(o.is_draw());
    assert_eq!(o.repetition().unwrap().occurrences, vec![0, 4, 8]);
}

#[test]
pub(super) fn mutual_perpetual_check_is_a_draw() {
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
    assert_words(&g, &o, "both sides checked perpetually");
}

#[test]
pub(super) fn perpetual_check_against_intermittent_check_loses() {
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
pub(super) fn cannon_chasing_a_chariot_loses() {
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
    assert_words(&g, &o, "Red chased the Black chariot (now on a7)");
}

#[test]
pub(super) fn a_soldier_may_chase() {
    // The red soldier follows the black chariot; soldiers' attacks are not chases,
    // and the chariot's attacks on the soldier hit a protected piece.
    let fen = "4k4/9/9/4r4/R3P4/9/9/9/9/5K3 b - - 0 1";
    let g = game(fen, &repeat(&["e6d6", "e5d5", "d6e6", "d5e5"], 2));
    drawn_both_allowed(&g);
}

#[test]
pub(super) fn repetition_rules_can_be_switched_off() {
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
pub(super) fn a_third_occurrence_ends_the_game() {
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
pub(super) fn a_ruling_played_past_is_an_event() {
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
pub(super) fn no_repetition_draw_before_a_move() {
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
    assert_words(&g, &g.outcome(), "may not be drawn before move 26");
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
pub(super) fn game_with(fen: &str, moves: &[&str], rules: Rules) -> Game<Position> {
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
