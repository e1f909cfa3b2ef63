//! Property tests of the Xiangqi core over random games: FEN round trips,
//! make/unmake, every listed move validates in every notation, and no listed
//! move leaves the mover's general attacked — checked by a naive attack test
//! written here, independent of the generator's own.

use arbiter::variants::xiangqi::{sq, Kind, Notation, Position, Rules, START_FEN};
use arbiter::variants::{Color, Variant};
use proptest::prelude::*;

const STARTS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
];

fn at(p: &Position, f: i32, r: i32) -> Option<(Color, Kind)> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        p.kind_at(sq(f as usize, r as usize))
    } else {
        None
    }
}

/// Could the piece on (f, r) capture on (tf, tr)? Written from the rules,
/// square by square, sharing nothing with the generator.
fn naive_attacks(p: &Position, f: i32, r: i32, tf: i32, tr: i32) -> bool {
    let Some((color, kind)) = at(p, f, r) else {
        return false;
    };
    let (df, dr) = (tf - f, tr - r);
    let pieces_between = || {
        let (sf, sr) = (df.signum(), dr.signum());
        let mut n = 0;
        let (mut x, mut y) = (f + sf, r + sr);
        while (x, y) != (tf, tr) {
            n += at(p, x, y).is_some() as i32;
            x += sf;
            y += sr;
        }
        n
    };
    let straight = (df == 0) != (dr == 0);
    match kind {
        Kind::Chariot => straight && pieces_between() == 0,
        Kind::Cannon => straight && pieces_between() == 1,
        Kind::Horse => {
            (df.abs() == 1 && dr.abs() == 2 && at(p, f, r + dr / 2).is_none())
                || (df.abs() == 2 && dr.abs() == 1 && at(p, f + df / 2, r).is_none())
        }
        Kind::Soldier => {
            let fwd = if color == Color::White { 1 } else { -1 };
            let crossed = if color == Color::White {
                r >= 5
            } else {
                r <= 4
            };
            (df == 0 && dr == fwd) || (crossed && dr == 0 && df.abs() == 1)
        }
        Kind::General => {
            // Facing generals (the target is the other general on an open file).
            let target_is_general = matches!(at(p, tf, tr), Some((_, Kind::General)));
            (df == 0 && target_is_general && pieces_between() == 0) || (df.abs() + dr.abs() == 1)
        }
        // Advisors and elephants never reach an enemy general's point in a
        // way that matters for check: an advisor stays in its own palace.
        Kind::Advisor | Kind::Elephant => false,
    }
}

/// Could the piece on (f, r) move to the empty point (tf, tr)? The quiet
/// half of the movement rules, written like `naive_attacks`.
fn naive_steps(p: &Position, f: i32, r: i32, tf: i32, tr: i32) -> bool {
    let Some((color, kind)) = at(p, f, r) else {
        return false;
    };
    let (df, dr) = (tf - f, tr - r);
    let in_palace = |x: i32, y: i32| {
        (3..=5).contains(&x)
            && if color == Color::White {
                (0..=2).contains(&y)
            } else {
                (7..=9).contains(&y)
            }
    };
    let own_side = |y: i32| {
        if color == Color::White {
            y <= 4
        } else {
            y >= 5
        }
    };
    match kind {
        Kind::Cannon => {
            (df == 0) != (dr == 0) && {
                let (sf, sr) = (df.signum(), dr.signum());
                let (mut x, mut y) = (f + sf, r + sr);
                let mut clear = true;
                while (x, y) != (tf, tr) {
                    clear &= at(p, x, y).is_none();
                    x += sf;
                    y += sr;
                }
                clear
            }
        }
        Kind::Chariot | Kind::Horse | Kind::Soldier => naive_attacks(p, f, r, tf, tr),
        Kind::General => df.abs() + dr.abs() == 1 && in_palace(tf, tr),
        Kind::Advisor => df.abs() == 1 && dr.abs() == 1 && in_palace(tf, tr),
        Kind::Elephant => {
            df.abs() == 2
                && dr.abs() == 2
                && own_side(tr)
                && at(p, f + df / 2, r + dr / 2).is_none()
        }
    }
}

/// Every legal move, found by trying every pair of points against the
/// naive rules above and the naive attack test after the move.
fn naive_legal(p: &Position) -> Vec<(u8, u8)> {
    let us = p.side_to_move();
    let mut out = Vec::new();
    for from in 0u8..90 {
        let (f, r) = ((from % 9) as i32, (from / 9) as i32);
        if !matches!(at(p, f, r), Some((c, _)) if c == us) {
            continue;
        }
        for to in 0u8..90 {
            let (tf, tr) = ((to % 9) as i32, (to / 9) as i32);
            let reachable = match at(p, tf, tr) {
                None => naive_steps(p, f, r, tf, tr),
                // Advisors, elephants and the general take as they step
                // (their steps do not depend on the target point).
                Some((c, _)) if c != us => match at(p, f, r) {
                    Some((_, Kind::Advisor | Kind::Elephant | Kind::General)) => {
                        naive_steps(p, f, r, tf, tr)
                    }
                    _ => naive_attacks(p, f, r, tf, tr),
                },
                Some(_) => false,
            };
            if reachable {
                let mut after = p.clone();
                after.make_move(arbiter::variants::xiangqi::Move::new(from, to));
                if !naive_general_attacked(&after, us) {
                    out.push((from, to));
                }
            }
        }
    }
    out
}

fn naive_general_attacked(p: &Position, c: Color) -> bool {
    let mut general = None;
    for f in 0..9 {
        for r in 0..10 {
            if at(p, f, r) == Some((c, Kind::General)) {
                general = Some((f, r));
            }
        }
    }
    let (gf, gr) = general.expect("each side has a general");
    (0..9).any(|f| {
        (0..10).any(|r| {
            matches!(at(p, f, r), Some((col, _)) if col != c) && naive_attacks(p, f, r, gf, gr)
        })
    })
}

fn random_game(start: &str, picks: &[u16]) -> Vec<Position> {
    let mut pos = Position::from_fen(start, &Rules::default()).unwrap();
    let mut seen = vec![pos.clone()];
    let mut moves = Vec::new();
    for &pick in picks {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[pick as usize % moves.len()]);
        seen.push(pos.clone());
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_check_is_known_before_the_move_is_made(start in 0..STARTS.len(), picks in prop::collection::vec(any::<u16>(), 0..160)) {
        // `gives_check` asks without making the move; the naive attack
        // test asks of the position after it.
        let mut moves = Vec::new();
        for p in random_game(STARTS[start], &picks) {
            p.legal_moves(&mut moves);
            for &m in &moves {
                let mut after = p.clone();
                after.make_move(m);
                let checked = naive_general_attacked(&after, after.side_to_move());
                prop_assert_eq!(p.gives_check(m), checked, "{} {:?}", p.to_fen(), m);
            }
        }
    }

    #[test]
    fn fen_round_trips(start in 0..STARTS.len(), picks in prop::collection::vec(any::<u16>(), 0..160)) {
        for p in random_game(STARTS[start], &picks) {
            let fen = p.to_fen();
            let back = Position::from_fen(&fen, &Rules::default()).unwrap();
            prop_assert_eq!(back.to_fen(), fen);
            prop_assert_eq!(back.hash_key(), p.hash_key());
            prop_assert!(back == p);
        }
    }

    #[test]
    fn the_generator_lists_exactly_the_naive_legal_moves(start in 0..STARTS.len(), picks in prop::collection::vec(any::<u16>(), 0..160)) {
        let mut moves = Vec::new();
        for p in random_game(STARTS[start], &picks) {
            p.legal_moves(&mut moves);
            prop_assert_eq!(p.count_legal_moves(&mut Vec::new()), moves.len(), "count in {}", p.to_fen());
            let mut listed: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
            listed.sort_unstable();
            prop_assert_eq!(listed, naive_legal(&p), "in {}", p.to_fen());
        }
    }

    #[test]
    fn captures_are_the_legal_moves_that_take(start in 0..STARTS.len(), picks in prop::collection::vec(any::<u16>(), 0..160)) {
        let (mut moves, mut captures) = (Vec::new(), Vec::new());
        for p in random_game(STARTS[start], &picks) {
            p.legal_moves(&mut moves);
            moves.retain(|m| p.kind_at(m.to).is_some());
            p.legal_captures(&mut captures);
            prop_assert_eq!(&captures, &moves, "in {}", p.to_fen());
        }
    }

    #[test]
    fn listed_moves_are_legal_and_validate(start in 0..STARTS.len(), picks in prop::collection::vec(any::<u16>(), 0..120)) {
        let mut moves = Vec::new();
        for mut p in random_game(STARTS[start], &picks) {
            let us = p.side_to_move();
            prop_assert_eq!(p.in_check(), naive_general_attacked(&p, us));
            p.legal_moves(&mut moves);
            let mut wxf_seen = std::collections::HashSet::new();
            for &m in &moves {
                for notation in [Notation::Iccs, Notation::Fairy, Notation::Wxf, Notation::Chinese] {
                    let text = p.write_move(m, notation);
                    prop_assert_eq!(p.parse_move(&text, notation), Ok(m), "{} in {:?}", text, notation);
                }
                prop_assert!(wxf_seen.insert(p.write_move(m, Notation::Wxf)), "WXF names two moves");
                let before = p.clone();
                let undo = p.make_move(m);
                prop_assert!(!naive_general_attacked(&p, us), "{:?} leaves the general attacked in {}", m, before.to_fen());
                p.unmake_move(m, undo);
                prop_assert!(p == before);
                prop_assert_eq!(p.hash_key(), before.hash_key());
            }
        }
    }

    #[test]
    fn unlisted_moves_are_refused_with_a_reason(start in 0..STARTS.len(), picks in prop::collection::vec(any::<u16>(), 0..80), from in 0u8..90, to in 0u8..90) {
        let games = random_game(STARTS[start], &picks);
        let p = games.last().unwrap();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let text = format!("{}{}", arbiter::variants::xiangqi::sq_name(from), arbiter::variants::xiangqi::sq_name(to));
        match p.parse_move(&text, Notation::Iccs) {
            Ok(m) => prop_assert!(moves.contains(&m)),
            Err(e) => {
                prop_assert!(!moves.iter().any(|m| m.from == from && m.to == to));
                prop_assert!(matches!(e, arbiter::variants::MoveError::Illegal(_)), "{:?}", e);
            }
        }
    }
}

/// The marks of legal-moves agree, at every ply of `game`'s current
/// position, with what adjudication rules once the move is played; returns
/// how many moves would have completed a repetition.
fn check_marks(game: &arbiter::variants::Game<Position>) -> Result<usize, TestCaseError> {
    use arbiter::variants::Reason;
    let mut moves = Vec::new();
    game.current().legal_moves(&mut moves);
    let mut hits = 0;
    for m in moves {
        let mark = game.repetition_verdict_after(m);
        let mut after = game.clone();
        after.play(m);
        let outcome = after.outcome();
        let by_repetition = matches!(
            outcome.reason(),
            Some(Reason::PerpetualCheck | Reason::PerpetualChase | Reason::Repetition)
        );
        if by_repetition {
            hits += 1;
            prop_assert_eq!(mark.as_ref(), outcome.verdict());
        } else {
            prop_assert_eq!(mark, None, "{:?} gives {:?}", m, outcome);
        }
    }
    Ok(hits)
}

/// Plays a random game that often steps back with the piece moved last (so
/// positions repeat), checking the marks at every ply; returns the number of
/// moves seen that would have completed a repetition.
fn shuffle_and_check(start: &str, picks: &[u16]) -> Result<usize, TestCaseError> {
    use arbiter::variants::Game;
    let mut game = Game::<Position>::from_fen(Some(start), Rules::default()).unwrap();
    let mut moves = Vec::new();
    let mut hits = 0;
    for &pick in picks {
        if !game.outcome().is_ongoing() {
            break;
        }
        hits += check_marks(&game)?;
        game.current().legal_moves(&mut moves);
        let n = game.moves().len();
        let back = (n >= 2 && pick % 4 != 0)
            .then(|| game.moves()[n - 2])
            .and_then(|mine| {
                moves
                    .iter()
                    .copied()
                    .find(|m| m.from == mine.to && m.to == mine.from)
            });
        game.play(back.unwrap_or(moves[pick as usize % moves.len()]));
    }
    Ok(hits)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Along random games, the repetition marks of every legal move agree
    /// with the adjudication after it.
    #[test]
    fn repetition_marks_agree_with_adjudication(start in 0..STARTS.len(), picks in prop::collection::vec(any::<u16>(), 8..60)) {
        shuffle_and_check(STARTS[start], &picks)?;
    }
}

/// The property above is not vacuous: stepping back reaches the rule.
#[test]
fn shuffling_reaches_repetition_verdicts() {
    let picks: Vec<u16> = (1..=40).collect();
    let hits: usize = STARTS
        .iter()
        .map(|s| shuffle_and_check(s, &picks).unwrap())
        .sum();
    assert!(
        hits >= STARTS.len(),
        "only {hits} moves completed a repetition"
    );
}
