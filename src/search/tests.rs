//! The search against positions whose answers are proven here by brute force,
//! and its limits.

use std::sync::atomic::Ordering;

use proptest::prelude::*;

use super::*;
use crate::variants::{tamerlane, taxi, xiangqi, Color, Outcome};

/// Whether the side to move in `game` wins (by any of its variant's rules)
/// within `moves` of its own moves, whatever the opponent does.
fn wins_within<V: Variant>(game: &Game<V>, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    let us = game.current().side_to_move();
    let mut list = Vec::new();
    game.current().legal_moves(&mut list);
    list.iter().any(|&mv| {
        let mut next = game.clone();
        next.play(mv);
        opponent_loses_within(&next, us, moves - 1)
    })
}

/// Whether, with the opponent of `us` to move, every reply loses within
/// `moves` more moves of `us` (or the game has already been won by `us`).
fn opponent_loses_within<V: Variant>(game: &Game<V>, us: Color, moves: u32) -> bool {
    if let Outcome::Ended(v) = game.outcome() {
        return v.winner == Some(us);
    }
    let mut replies = Vec::new();
    game.current().legal_moves(&mut replies);
    replies.iter().all(|&r| {
        let mut next = game.clone();
        next.play(r);
        match next.outcome() {
            Outcome::Ended(v) => v.winner == Some(us),
            Outcome::Ongoing => wins_within(&next, moves),
        }
    })
}

pub(super) fn game<V: Variant>(fen: &str) -> Game<V> {
    Game::from_fen(Some(fen), V::Rules::default()).expect("a valid FEN")
}

fn to_depth<V: Evaluate>(game: &Game<V>, depth: u32) -> SearchResult<V::Move> {
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    search(game, &limits, &Control::default(), 1 << 16, None).expect("a move to play")
}

/// The engine reports mate in exactly the shortest `n` that brute force
/// proves, and its move keeps the win within `n`.
fn assert_mate_in<V: Evaluate>(fen: &str, n: u32) {
    let g = game::<V>(fen);
    assert!(wins_within(&g, n), "{fen}: brute force finds no win in {n}");
    assert!(
        n == 1 || !wins_within(&g, n - 1),
        "{fen}: brute force finds a win faster than {n}"
    );
    let r = to_depth(&g, 2 * n + 1);
    assert_eq!(r.lines[0].score, Score::Mate(n as i32), "{fen}");
    let mut after = g.clone();
    after.play(r.best_move);
    assert!(
        opponent_loses_within(&after, g.current().side_to_move(), n - 1),
        "{fen}: the engine's move {:?} does not keep the win",
        r.best_move
    );
}

/// A mate in one and one in two in each variant.
#[test]
fn mates_in_one_and_two() {
    // Xiangqi, two chariots: mate on the back rank.
    assert_mate_in::<xiangqi::Xiangqi>("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", 1);
    // Check on the file, then the second chariot takes away the last square.
    assert_mate_in::<xiangqi::Xiangqi>("4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1", 2);
    // Taxi chess.
    assert_mate_in::<taxi::Taxi>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 16/16", 1);
    assert_mate_in::<taxi::Taxi>("k7/8/2K5/8/8/8/8/7R w - - 0 1 16/16", 2);
    // Tamerlane, two rukhs: the shah on a10 is left without a move (which
    // loses).
    let tamerlane_mate_in = assert_mate_in::<tamerlane::Tamerlane>;
    tamerlane_mate_in("k10/2R8/11/11/11/11/11/11/11/3R2K4 w -/- Kk 0/0 0 1", 1);
    tamerlane_mate_in("k10/11/11/2R8/11/11/11/11/11/3R2K4 w -/- Kk 0/0 0 1", 2);
}

#[test]
fn xiangqi_stalemate_wins() {
    // The soldier steps to e8: the black general has no move (d8 is the
    // soldier's, e9 would face the red general) and Black loses without being
    // in check. No move mates.
    let fen = "3k5/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1";
    assert_mate_in::<xiangqi::Xiangqi>(fen, 1);
    let g = game::<xiangqi::Xiangqi>(fen);
    let r = to_depth(&g, 3);
    let mut after = g.current().clone();
    after.make_move(r.best_move);
    assert!(!after.in_check(), "the win is a stalemate, not a mate");
}

#[test]
fn taxi_mate_that_cannot_be_paid_for_is_not_seen() {
    // Ra8 would mate, but it costs 7 and White has 4 + 2.
    let g = game::<taxi::Taxi>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 4/16");
    assert!(!wins_within(&g, 1));
    let r = to_depth(&g, 3);
    assert!(
        !matches!(r.lines[0].score, Score::Mate(1)),
        "{:?}",
        r.lines[0]
    );
}

#[test]
fn tamerlane_losing_side_enters_the_citadel() {
    // Black has a lone shah beside White's citadel (l2); White has two rukhs.
    // Entering the citadel draws at once, which beats anything else.
    let g = game::<tamerlane::Tamerlane>("5K5/11/11/11/11/11/11/R9k/R10/11 b -/- Kk 0/0 0 1");
    let r = to_depth(&g, 4);
    assert_eq!(r.best_move.to, tamerlane::L2, "{:?}", r.lines[0]);
    assert_eq!(r.lines[0].score, Score::Cp(0));
}

/// A position the fuzzer found (`fuzz/corpus/play/slow-search`): pawn
/// fronts in contact everywhere, where chains of even trades made the
/// quiescence search of a one-ply search take 756,740 nodes.
#[test]
fn quiescence_stays_small_among_even_trades() {
    let g = game::<tamerlane::Tamerlane>(
        "erd1dk2c1e/2t1w1f1t1r/n1g5g1N/prpnptpg5pd1/1PD2pw1pfpepc2/E1PCc1pk1PG1n1/\
         PP2PEPFPKPW1PTPNPR/G6K3/RNTG3WT1R/C3DFD1C1E b -/- Kk 0/0 4 39",
    );
    let r = to_depth(&g, 1);
    assert!(r.nodes < 20_000, "{} nodes to depth 1", r.nodes);
}

#[test]
fn xiangqi_avoids_losing_by_perpetual_check() {
    // Red has checked with the chariot for a whole cycle; a9a8 would bring
    // the position round for the third time with Red checking throughout,
    // which loses. The engine must play something else.
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let moves = [
        "a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8",
    ];
    let mut g = game::<xiangqi::Xiangqi>(fen);
    g.play_all(&moves, xiangqi::Notation::Iccs).unwrap();
    let losing = g
        .current()
        .parse_move("a9a8", xiangqi::Notation::Iccs)
        .unwrap();
    let verdict = g
        .repetition_verdict_after(losing)
        .expect("a repetition verdict");
    assert_eq!(verdict.winner, Some(Color::Black));
    let r = to_depth(&g, 6);
    assert_ne!(r.best_move, losing);
    assert!(g.repetition_verdict_after(r.best_move).is_none());
}

#[test]
fn multipv_lines_are_distinct_and_ordered() {
    let g = Game::new(
        xiangqi::Xiangqi::start_position(&Default::default()),
        Default::default(),
    );
    let limits = Limits {
        depth: Some(3),
        multipv: 3,
        ..Limits::default()
    };
    let r = search(&g, &limits, &Control::default(), 1 << 16, None).unwrap();
    assert_eq!(r.lines.len(), 3);
    let firsts: std::collections::HashSet<_> = r.lines.iter().map(|l| l.moves[0]).collect();
    assert_eq!(firsts.len(), 3);
    let internal_scores: Vec<i32> = r.lines.iter().map(|l| internal(l.score)).collect();
    assert!(internal_scores.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(r.best_move, r.lines[0].moves[0]);
}

#[test]
fn limits_are_honoured() {
    let g = Game::new(
        taxi::Taxi::start_position(&Default::default()),
        Default::default(),
    );
    // Depth.
    let r = to_depth(&g, 3);
    assert_eq!(r.depth, 3);
    assert!(r.lines.iter().all(|l| l.depth == 3));
    // Nodes: the search stops at the limit once an iteration is complete.
    let limits = Limits {
        nodes: Some(20_000),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&g, &limits, &Control::default(), 1 << 16, None).unwrap();
    let first_iteration = to_depth(&g, 1).nodes;
    assert!(r.nodes <= 20_000 + first_iteration + 1, "{} nodes", r.nodes);
    assert!(r.depth >= 1);
    // An outside stop: the search returns at once with a legal move.
    let control = Control::default();
    control.stop.store(true, Ordering::Relaxed);
    let limits = Limits {
        depth: Some(40),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&g, &limits, &control, 1 << 16, None).unwrap();
    let mut legal = Vec::new();
    g.current().legal_moves(&mut legal);
    assert!(legal.contains(&r.best_move));
    assert!(r.nodes < 5_000, "{} nodes after a stop", r.nodes);
    // A finished game has nothing to search.
    let mated = game::<taxi::Taxi>("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1 16/16");
    assert!(search(&mated, &limits, &Control::default(), 1 << 16, None).is_none());
}

/// Plays `plies` random moves from the start (fewer if the game ends).
fn random_game<V: Variant>(seed: u64, plies: usize) -> Game<V> {
    let rules = V::Rules::default();
    let mut g = Game::new(V::start_position(&rules), rules);
    let mut state = seed;
    let mut moves = Vec::new();
    for _ in 0..plies {
        if !g.outcome().is_ongoing() {
            break;
        }
        g.current().legal_moves(&mut moves);
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[((state >> 33) % moves.len() as u64) as usize];
        g.play(mv);
    }
    g
}

fn best_move_is_legal<V: Evaluate>(seed: u64, plies: usize) {
    let g = random_game::<V>(seed, plies);
    let mut legal = Vec::new();
    g.current().legal_moves(&mut legal);
    let limits = Limits {
        nodes: Some(3_000),
        multipv: 2,
        ..Limits::default()
    };
    match search(&g, &limits, &Control::default(), 1 << 14, None) {
        None => assert!(legal.is_empty()),
        Some(r) => {
            assert!(legal.contains(&r.best_move));
            for line in &r.lines {
                // Every line is a legal sequence from the position.
                let mut pos = g.current().clone();
                for &m in &line.moves {
                    let mut here = Vec::new();
                    pos.legal_moves(&mut here);
                    assert!(here.contains(&m), "{line:?}");
                    pos.make_move(m);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn best_move_is_always_legal(seed in any::<u64>(), plies in 0usize..80) {
        best_move_is_legal::<xiangqi::Xiangqi>(seed, plies);
        best_move_is_legal::<taxi::Taxi>(seed, plies);
        best_move_is_legal::<tamerlane::Tamerlane>(seed, plies);
    }

    /// The verdict the search asks for (the path, without the history's
    /// repetitions) agrees with the adjudication wherever no repetition decides.
    #[test]
    fn terminal_rules_agree_with_adjudication(seed in any::<u64>(), plies in 0usize..120) {
        fn check<V: Evaluate>(g: &Game<V>) {
            let mut legal = Vec::new();
            g.current().legal_moves(&mut legal);
            let outcome = g.outcome();
            let seen = V::verdict(
                g.played(),
                !legal.is_empty(),
                &crate::variants::Repeats::None,
            );
            if !outcome.reason().is_some_and(|r| r.is_repetition()) {
                assert_eq!(
                    seen.map(|v| (v.reason, v.winner)),
                    outcome.verdict().map(|v| (v.reason, v.winner)),
                    "{}",
                    g.current().to_fen()
                );
            }
        }
        check(&random_game::<xiangqi::Xiangqi>(seed, plies));
        check(&random_game::<taxi::Taxi>(seed, plies));
        check(&random_game::<tamerlane::Tamerlane>(seed, plies));
    }
}

/// `t` with upper and lower case exchanged (White's FEN letters for Black's).
pub(crate) fn swap_case(t: &str) -> String {
    t.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// A Taxi chess FEN with the colours swapped: the board turned upside
/// down, the other side to move, castling rights and balances exchanged.
fn taxi_colour_flipped(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_owned()
    } else {
        let swapped = swap_case(f[2]);
        "KQkq".chars().filter(|&c| swapped.contains(c)).collect()
    };
    let ep = match f[3].as_bytes() {
        [file, rank] => format!("{}{}", *file as char, (b'9' - rank + b'0') as char),
        _ => "-".to_owned(),
    };
    let (w, b) = f[6].split_once('/').expect("balances");
    format!(
        "{} {side} {castling} {ep} {} {} {b}/{w}",
        board.join("/"),
        f[4],
        f[5]
    )
}

/// A Tamerlane chess FEN with the colours swapped: the board turned by 180
/// degrees (Black's array is White's so turned), the other side to move,
/// citadels, exchange rights and pawn-of-pawns arrivals exchanged.
fn tamerlane_colour_flipped(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    // A rank's tokens: runs of empty squares, two-letter pawns, pieces.
    let turn_rank = |rank: &str| -> String {
        let chars: Vec<char> = rank.chars().collect();
        let mut tokens = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let len = if chars[i].is_ascii_digit() {
                chars[i..].iter().take_while(|c| c.is_ascii_digit()).count()
            } else if chars[i].eq_ignore_ascii_case(&'p') {
                2
            } else {
                1
            };
            tokens.push(swap_case(&chars[i..i + len].iter().collect::<String>()));
            i += len;
        }
        tokens.reverse();
        tokens.concat()
    };
    let board: Vec<String> = f[0].split('/').rev().map(turn_rank).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let (l2, z9) = f[2].split_once('/').expect("citadels");
    let exchange = if f[3] == "-" {
        "-".to_owned()
    } else {
        let swapped = swap_case(f[3]);
        "Kk".chars().filter(|&c| swapped.contains(c)).collect()
    };
    let (w, b) = f[4].split_once('/').expect("arrivals");
    format!(
        "{} {side} {}/{} {exchange} {b}/{w} {} {}",
        board.join("/"),
        swap_case(z9),
        swap_case(l2),
        f[5],
        f[6]
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The Taxi chess evaluation is the same for both colours: a position
    /// and its colour-flipped twin score alike for the side to move.
    #[test]
    fn taxi_evaluation_is_colour_symmetric(seed in any::<u64>(), plies in 0usize..100) {
        let g = random_game::<taxi::Taxi>(seed, plies);
        let pos = g.current();
        let rules = g.rules();
        let flipped = taxi::Position::from_fen(&taxi_colour_flipped(&pos.to_fen()), rules)
            .expect("the flipped FEN parses");
        prop_assert_eq!(pos.evaluate(rules), flipped.evaluate(rules), "{}", pos.to_fen());
    }

    /// The same for Tamerlane chess, whose colours are each other's turned
    /// by 180 degrees.
    #[test]
    fn tamerlane_evaluation_is_colour_symmetric(seed in any::<u64>(), plies in 0usize..150) {
        let g = random_game::<tamerlane::Tamerlane>(seed, plies);
        let pos = g.current();
        let rules = g.rules();
        let flipped_fen = tamerlane_colour_flipped(&pos.to_fen());
        let flipped = tamerlane::Position::from_fen(&flipped_fen, rules)
            .expect("the flipped FEN parses");
        prop_assert_eq!(
            tamerlane_colour_flipped(&flipped.to_fen()),
            pos.to_fen(),
            "flipping twice gives the position back"
        );
        prop_assert_eq!(pos.evaluate(rules), flipped.evaluate(rules), "{} / {}", pos.to_fen(), flipped_fen);
    }
}

#[test]
fn huge_balances_do_not_break_the_search() {
    // Found by schemathesis: an evaluation beyond the score window left the
    // search without a line.
    let g =
        game::<taxi::Taxi>("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 64/37324766");
    let r = to_depth(&g, 3);
    let mut legal = Vec::new();
    g.current().legal_moves(&mut legal);
    assert!(legal.contains(&r.best_move));
    assert!(!r.lines.is_empty());
}

/// The exchange value of a move (in the variant's default notation: ICCS,
/// UCI, coordinates) lies in [lo, hi]: it wins at least `lo` and not more
/// than `hi`.
fn assert_exchange<V: Evaluate>(fen: &str, text: &str, lo: i32, hi: i32) {
    let pos = game::<V>(fen).current().clone();
    let mv = pos
        .parse_move(text, V::Notation::default())
        .expect("a legal move");
    assert!(pos.see_ge(mv, lo), "{fen} {text}: wins less than {lo}");
    assert!(!pos.see_ge(mv, hi + 1), "{fen} {text}: wins more than {hi}");
}

/// Each move's exchange value is exactly the value given: (FEN, move, value).
fn exchanges_are_exactly<V: Evaluate>(cases: &[(&str, &str, i32)]) {
    for &(fen, mv, value) in cases {
        assert_exchange::<V>(fen, mv, value, value);
    }
}

#[test]
fn xiangqi_exchanges_are_played_out() {
    exchanges_are_exactly::<xiangqi::Xiangqi>(&[
        // An undefended soldier: the chariot wins it (60).
        ("5k3/9/9/4p4/9/4R4/9/9/9/3K5 w - - 0 1", "e4e6", 60),
        // Defended by a horse: the chariot is lost for the soldier.
        ("5k3/3n5/9/4p4/9/4R4/9/9/9/3K5 w - - 0 1", "e4e6", -540),
        // A quiet move to a safe point wins and loses nothing; next to the
        // soldier, the soldier takes the chariot.
        ("5k3/3n5/9/4p4/9/4R4/9/9/9/3K5 w - - 0 1", "e4d4", 0),
        ("5k3/3n5/9/4p4/9/4R4/9/9/9/3K5 w - - 0 1", "e4e5", -600),
        // The chariot leaves the file, so the cannon behind it has one screen
        // left and takes the horse back: 60 - 600 + 270.
        ("5k3/3n5/9/4p4/4R4/9/4P4/9/4C4/3K5 w - - 0 1", "e5e6", -270),
        // Without the soldier on e3 no screen is left: no recapture.
        ("5k3/3n5/9/4p4/4R4/9/9/9/4C4/3K5 w - - 0 1", "e5e6", -540),
        // A quiet horse move onto a point a soldier attacks loses the horse.
        ("5k3/9/9/9/4p4/9/9/3N5/9/3K5 w - - 0 1", "d2e4", -270),
        // The general takes a chariot where nothing takes back.
        ("5k3/9/9/9/9/9/9/4r4/4K4/9 w - - 0 1", "e1e2", 600),
        // The general takes back only where nothing takes it then: here the
        // cannon on e2 (screen e5) guards e7, so the horse is won outright.
        ("9/4k4/3Rn4/9/4P4/9/9/4C4/9/3K5 w - - 0 1", "d7e7", 270),
        ("9/4k4/3Rn4/9/4P4/9/9/9/9/3K5 w - - 0 1", "d7e7", -330),
    ]);
}

#[test]
fn taxi_exchanges_are_played_out() {
    exchanges_are_exactly::<taxi::Taxi>(&[
        // A pawn defended by a pawn costs the rook that takes it.
        ("4k3/3p4/4p3/8/4R3/8/8/4K3 w - - 0 1 99/99", "e4e6", -400),
        // An undefended knight is won.
        ("4k3/8/4n3/8/8/8/8/Q3K3 w - - 0 1 99/99", "a1e5", 0),
        ("4k3/8/8/4n3/8/8/8/Q3K3 w - - 0 1 99/99", "a1e5", 320),
        // The rook behind joins in: pawn, rook for rook.
        ("r3k3/p7/8/8/8/8/R7/R3K3 w - - 0 1 99/99", "a2a7", 100),
        // A capture the opponent cannot pay to answer keeps what it took: with
        // nothing but its income of 2, Black's rook cannot travel three squares.
        ("r3k3/8/8/p7/8/8/8/R3K3 w - - 0 1 99/0", "a1a5", 100),
        ("r3k3/8/8/p7/8/8/8/R3K3 w - - 0 1 99/99", "a1a5", -400),
    ]);
}

#[test]
fn tamerlane_exchanges_count_a_recapture() {
    let see = assert_exchange::<tamerlane::Tamerlane>;
    // The rukh takes a ferz that a faras defends: 150 - 600.
    let defended = "k10/11/11/11/11/4n6/11/5f5/11/5R4K w -/- Kk 0/0 0 1";
    see(defended, "f1f3", -450, -450);
    // Undefended, the ferz is simply won.
    let loose = "k10/11/11/11/11/11/11/5f5/11/5R4K w -/- Kk 0/0 0 1";
    see(loose, "f1f3", 150, 150);
    // A quiet move out of the faras's reach is safe; into it, the rukh is
    // lost (the test sees a loss, not how much).
    see(defended, "f1f2", 0, 0);
    let reach = "k10/11/11/11/11/4n6/11/11/11/6R3K w -/- Kk 0/0 0 1";
    see(reach, "g1g4", -600, -1);
}

#[test]
fn move_ordering_histories_are_kept_with_the_table_and_cleared_with_it() {
    type Kept = searcher::Histories<xiangqi::Move>;
    let g = Game::new(
        xiangqi::Xiangqi::start_position(&Default::default()),
        Default::default(),
    );
    let table = Table::new(1 << 16);
    assert!(
        table.take_kept::<Kept>().is_none(),
        "a fresh table keeps nothing"
    );
    for threads in [1, 2] {
        let limits = Limits {
            depth: Some(6),
            threads,
            ..Limits::default()
        };
        search_with_table(&g, &limits, &Control::default(), &table, None).unwrap();
        // The main thread's histories, learned in this search.
        let kept = table
            .take_kept::<Kept>()
            .expect("the search kept its histories");
        assert!(kept.history.iter().any(|&h| h != 0));
        assert!(kept.continuation.iter().any(|&c| c != 0));
        assert!(kept.counters.iter().any(Option::is_some));
        // The next search starts from them, and leaves them again.
        table.keep(kept);
        search_with_table(&g, &limits, &Control::default(), &table, None).unwrap();
        assert!(table.take_kept::<Kept>().is_some());
        table.keep(Kept::new(1, 1));
        table.clear();
        assert!(
            table.take_kept::<Kept>().is_none(),
            "a new game starts afresh"
        );
    }
    // A search starts from what the last one left: the same search after
    // it takes another path than on a fresh table holding the same entries.
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let run = |forget: bool| {
        let table = Table::new(1 << 16);
        search_with_table(&g, &limits, &Control::default(), &table, None).unwrap();
        if forget {
            table.forget_kept();
        }
        search_with_table(&g, &limits, &Control::default(), &table, None)
            .unwrap()
            .nodes
    };
    assert_ne!(run(false), run(true));
}
