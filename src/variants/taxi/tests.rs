use super::*;
use crate::prose;
use crate::variants::shared_tests::{perft_suite, refused};
use crate::variants::Refusal;
use crate::variants::{perft, Game, Outcome};

pub(super) fn pos(fen: &str) -> Position {
    Position::from_fen(fen, &Rules::default()).unwrap()
}

pub(super) fn san(p: &Position, m: Move) -> String {
    p.write_move(m, Notation::San)
}

pub(super) fn with_rules(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, &rules).unwrap()
}

pub(super) fn find(p: &Position, uci: &str) -> Move {
    p.parse_move(uci, Notation::Uci)
        .unwrap_or_else(|e| panic!("{uci}: {e:?}"))
}

/// The game's outcome, asserted to be an end by `reason` (the message
/// gives the API's words for what it is instead).
fn ended_by(game: &Game<Position>, reason: Reason) -> Outcome {
    let o = game.outcome();
    assert_eq!(o.reason(), Some(reason), "{}", prose::outcome(game, &o));
    o
}

const UNLIMITED: &str = "1000000/1000000";

/// The standard chess perft positions (chessprogramming.org "Perft Results").
pub(super) fn chess_perft() -> Vec<(&'static str, Vec<u64>)> {
    perft_suite(include_str!("../../../tests/data/perft/chess.epd"))
}

#[test]
fn unlimited_money_gives_the_chess_numbers() {
    let deep = if cfg!(debug_assertions) { 3 } else { 4 };
    for (fen, counts) in chess_perft() {
        let mut p = pos(&format!("{fen} {UNLIMITED}"));
        for (d, &want) in counts.iter().enumerate().take(deep) {
            assert_eq!(perft(&mut p, d as u32 + 1), want, "{fen} depth {}", d + 1);
        }
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "depth 5 wants a release build")]
fn start_position_perft_equals_chess_with_default_money() {
    let mut p = Position::start_position(&Rules::default());
    assert_eq!(p.balances(), [16, 16]);
    assert_eq!(perft(&mut p, 5), 4_865_609);
}

#[test]
fn the_seeds_worked_example() {
    // White Kb3 Rd3, Black Ka1 Ra4, both with 0; income 2.
    let start = pos("8/8/8/8/r7/1K1R4/8/k7 w - - 0 1 0/0");
    let mut game = Game::new(start, Rules::default());
    // 1. Rd3-d1 costs 2, leaves White 0, and is no check: Rd1xa1 would need 3.
    let m = find(game.current(), "d3d1");
    assert_eq!(m.cost, 2);
    game.play(m);
    assert_eq!(game.current().balances(), [0, 0]);
    assert!(!game.current().in_check());
    // 1... Ra4-b4 costs 1, leaves Black 1, and is check: Black will have 3.
    let m = find(game.current(), "a4b4");
    assert_eq!(m.cost, 1);
    game.play(m);
    assert_eq!(game.current().balances(), [0, 1]);
    assert!(game.current().in_check());
    // 2. Kxb4 is illegal: 1 + 2 (removal from b4) = 3 > 2.
    let e = refused(game.current(), "b3b4", Notation::Uci);
    assert_eq!(e.code, Refusal::InsufficientFunds);
    assert_eq!(
        e.message,
        "it costs 3 (travel 1 + removal from b4 2), and White has 2 (0 plus income 2)"
    );
    // 2. Kb3-a3 costs 1, leaves White 1, and is check: Rd1-a1 costs 3 and White will have 3.
    let m = find(game.current(), "b3a3");
    assert_eq!(m.cost, 1);
    assert_eq!(san(game.current(), m), "Ka3+");
    game.play(m);
    assert_eq!(game.current().balances(), [1, 1]);
    assert!(game.current().in_check());
}

#[test]
fn the_seeds_stalemate_line() {
    // 1. Rd1 Ra3+ 2. Kxa3 would be stalemate: Black's king has no affordable escape
    // and is not in check (Rd1-a1 needs 3, White has 2 then).
    let mut game = Game::new(pos("8/8/8/8/r7/1K1R4/8/k7 w - - 0 1 0/0"), Rules::default());
    for uci in ["d3d1", "a4a3"] {
        let m = find(game.current(), uci);
        game.play(m);
    }
    assert!(
        game.current().in_check(),
        "Ra3 checks: Black will have 3 and Rxb3 costs 1"
    );
    let m = find(game.current(), "b3a3");
    assert_eq!(m.cost, 2, "travel 1 + removal from a3 1");
    game.play(m);
    let o = ended_by(&game, Reason::Stalemate);
    assert_eq!(o.result().to_string(), "1/2-1/2");
}

#[test]
fn removal_prices_by_square() {
    let name = |s: &str| (s.as_bytes()[1] - b'1') * 8 + (s.as_bytes()[0] - b'a');
    for (s, cost) in [
        ("d4", 4),
        ("e5", 4),
        ("c3", 3),
        ("f6", 3),
        ("c6", 3),
        ("b2", 2),
        ("g7", 2),
        ("b5", 2),
        ("a1", 1),
        ("h8", 1),
        ("e1", 1),
        ("a5", 1),
    ] {
        assert_eq!(removal(name(s)), cost, "{s}");
    }
}

#[test]
fn move_prices() {
    let p = Position::start_position(&Rules::default());
    assert_eq!(find(&p, "e2e4").cost, 2, "a double step costs 2");
    assert_eq!(find(&p, "e2e3").cost, 1);
    assert_eq!(find(&p, "g1f3").cost, 2, "a knight move costs 2");
    // A bishop crossing the board, a queen capture with removal.
    let p = pos("4k3/8/8/3p4/8/8/8/B3K2Q w - - 0 1 20/20");
    assert_eq!(find(&p, "a1h8").cost, 7);
    assert_eq!(
        find(&p, "h1d5").cost,
        4 + 4,
        "travel 4, removal from the centre square d5 4"
    );
    // Castling: a flat 4 or 5.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 20/20");
    assert_eq!(find(&p, "e1g1").cost, 4);
    assert_eq!(find(&p, "e1c1").cost, 5);
    // Promotion adds 2: travel 1 + 2; with a capture on the edge, + 1.
    let p = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1 20/20");
    assert_eq!(find(&p, "a7a8q").cost, 3);
    assert_eq!(find(&p, "a7b8n").cost, 1 + 1 + 2);
    // En passant: the removal is priced where the captured pawn stands (d5, 4), not on d6 (3).
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 20/20");
    let m = find(&p, "e5d6");
    assert_eq!(m.flag, Flag::EnPassant);
    assert_eq!(m.cost, 1 + 4);
}

#[test]
fn unaffordable_moves_are_illegal() {
    // White has 0 + 2: the rook may go two squares, not three.
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 0/0");
    assert!(p.parse_move("a1a3", Notation::Uci).is_ok());
    let e = refused(&p, "a1a4", Notation::Uci);
    assert_eq!(e.code, Refusal::InsufficientFunds);
    assert_eq!(
        e.message,
        "it costs 3 (travel 3), and White has 2 (0 plus income 2)"
    );
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(moves.iter().all(|m| m.cost <= 2));
}

#[test]
fn check_is_an_affordable_threat() {
    // The black rook on a8 aims at the white king on a1, seven squares away.
    let fen = |b: u32| format!("r3k3/8/8/8/8/8/8/K7 w - - 0 1 9/{b}");
    assert!(!pos(&fen(4)).in_check(), "4 + 2 = 6 < 7");
    assert!(pos(&fen(5)).in_check(), "5 + 2 = 7");
    // With more income, the same threat becomes check.
    let rules = Rules {
        start_money: 16,
        income: 3,
        ..Rules::default()
    };
    assert!(with_rules(&fen(4), rules).in_check());
    // The king may step into a threat the enemy cannot afford.
    let p = pos("4k3/8/8/8/8/8/8/K6r w - - 0 1 9/0");
    assert!(
        p.parse_move("a1b1", Notation::Uci).is_ok(),
        "h1-b1 costs 6, Black has 2"
    );
    let e = refused(
        &pos("4k3/8/8/8/8/8/8/K6r w - - 0 1 9/4"),
        "a1b1",
        Notation::Uci,
    );
    assert_eq!(e.code, Refusal::SelfCheck);
    assert_eq!(
        e.message,
        "b1 is threatened: the Black rook on h1 could take it next turn (Black has 6 units then)"
    );
}

#[test]
fn pins_count_only_when_affordable() {
    // The white knight on c3 stands between the black bishop on a5... use e1-h4 diagonal:
    // bishop h4, knight f2, king e1; the bishop is three steps from the king.
    let pinned = pos("4k3/8/8/8/7b/8/5N2/4K3 w - - 0 1 9/1");
    assert!(
        pinned.parse_move("f2d3", Notation::Uci).is_err(),
        "1 + 2 = 3 pays for Bxe1"
    );
    let free = pos("4k3/8/8/8/7b/8/5N2/4K3 w - - 0 1 9/0");
    assert!(
        free.parse_move("f2d3", Notation::Uci).is_ok(),
        "0 + 2 < 3: no pin"
    );
}

#[test]
fn castling_through_a_threat_is_illegal() {
    // The black rook on f8 aims at f1, seven squares away.
    let fen = |b: u32| format!("4kr2/8/8/8/8/8/8/4K2R w K - 0 1 20/{b}");
    let e = refused(&pos(&fen(5)), "e1g1", Notation::Uci);
    assert_eq!(e.code, Refusal::CastlingThroughThreat);
    assert!(e.message.contains("f1 is threatened"), "{}", e.message);
    assert!(
        pos(&fen(4)).parse_move("e1g1", Notation::Uci).is_ok(),
        "4 + 2 < 7"
    );
    // Queen side: b1 may be threatened, d1 not.
    let fen = |f: &str| format!("{f}/8/8/8/8/8/8/R3K3 w Q - 0 1 20/20");
    assert!(pos(&fen("1r2k3")).parse_move("e1c1", Notation::Uci).is_ok());
    assert!(pos(&fen("3rk3")).parse_move("e1c1", Notation::Uci).is_err());
    // Castling while short of money.
    let e = refused(
        &pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1 1/0"),
        "e1g1",
        Notation::Uci,
    );
    assert_eq!(e.code, Refusal::InsufficientFunds);
}

#[test]
fn a_cheap_move_can_create_a_check() {
    // The seed's "new kind of discovered check": the rook on d1 is three
    // steps from the black king on a1 and White has 0 + 2. A king move for 1
    // leaves White 1, so 3 next turn: check. A knight move for 2 does not.
    let p = pos("8/8/8/8/8/8/7K/k2R2N1 w - - 0 1 0/5");
    assert!(!p.king_threatened(Color::Black));
    let mut cheap = p;
    cheap.make(find(&p, "h2h3"));
    assert!(cheap.in_check());
    assert_eq!(san(&p, find(&p, "h2h3")), "Kh3+");
    let mut dear = p;
    dear.make(find(&p, "g1f3"));
    assert!(!dear.in_check());
}

#[test]
fn mate_by_bankruptcy() {
    // White's king on a1 is checked by the queen on b2; Kxb2 would cost
    // 1 + 2 and White has 0 + 2.
    let mut game = Game::new(pos("7k/8/8/8/8/8/1q6/K7 w - - 0 1 0/0"), Rules::default());
    let o = ended_by(&game, Reason::Bankruptcy);
    assert_eq!(o.winner(), Some(Color::Black));
    // With one more unit it is no mate: Kxb2 is affordable.
    game = Game::new(pos("7k/8/8/8/8/8/1q6/K7 w - - 0 1 1/0"), Rules::default());
    assert!(game.outcome().is_ongoing());
    // An ordinary mate (the queen guarded by the rook on b8) is a checkmate.
    let game = Game::new(pos("1r5k/8/8/8/8/8/1q6/K7 w - - 0 1 9/9"), Rules::default());
    assert_eq!(game.outcome().reason(), Some(Reason::Checkmate));
}

#[test]
fn stalemate_by_poverty() {
    // Without income and without money nothing can move.
    let rules = Rules {
        start_money: 0,
        income: 0,
        ..Rules::default()
    };
    let game = Game::new(
        with_rules("7k/8/8/8/8/8/8/K7 w - - 0 1 0/0", rules.clone()),
        rules,
    );
    let o = game.outcome();
    assert_eq!(o.reason(), Some(Reason::Stalemate));
    assert!(prose::outcome(&game, &o).contains("poverty"));
}

#[test]
fn draws_claimable_and_automatic() {
    let knights = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut game = Game::<Position>::from_fen(None, Rules::default()).unwrap();
    // Balances change with every move, so shuffling never repeats a position
    // here: income 2 and knight moves costing 2 keep them at 16.
    for _ in 0..2 {
        game.play_all(&knights, Notation::Uci).unwrap();
    }
    assert_eq!(game.current().balances(), [16, 16]);
    let claims = game.claimable_draws();
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0], Reason::ThreefoldRepetition);
    assert!(game.outcome().is_ongoing(), "threefold is only claimable");
    for _ in 0..2 {
        game.play_all(&knights, Notation::Uci).unwrap();
    }
    let o = game.outcome();
    assert_eq!(o.reason(), Some(Reason::FivefoldRepetition));
    // Over the board the fivefold draw is an event and the game goes on.
    let otb = Rules {
        repetition_ends_game: false,
        ..Rules::default()
    };
    let mut played = Game::<Position>::from_fen(None, otb).unwrap();
    for _ in 0..4 {
        played.play_all(&knights, Notation::Uci).unwrap();
    }
    played.play_all(&["e2e4"], Notation::Uci).unwrap();
    assert!(played.outcome().is_ongoing());
    let events = played.repetition_events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].ply, 16);
    assert_eq!(events[0].verdict.reason, Reason::FivefoldRepetition);
    // A king move costs 1 and so changes the balance: no repetition.
    let mut kings =
        Game::<Position>::from_fen(Some("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), Rules::default())
            .unwrap();
    kings
        .play_all(
            &[
                "e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1", "d8e8",
            ],
            Notation::Uci,
        )
        .unwrap();
    assert!(kings.claimable_draws().is_empty());

    let fifty =
        Game::<Position>::from_fen(Some("4k3/8/8/8/8/8/8/4K2R w - - 100 80"), Rules::default())
            .unwrap();
    assert_eq!(fifty.claimable_draws()[0], Reason::FiftyMoves);
    assert!(fifty.outcome().is_ongoing());
    let seventy_five =
        Game::<Position>::from_fen(Some("4k3/8/8/8/8/8/8/4K2R w - - 150 80"), Rules::default())
            .unwrap();
    assert_eq!(
        seventy_five.outcome().reason(),
        Some(Reason::SeventyFiveMoves)
    );
}

#[test]
fn dead_positions() {
    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("5b1k/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false),
    ] {
        assert_eq!(pos(fen).is_dead_position(), dead, "{fen}");
    }
}

#[test]
fn fast_and_slow_generators_agree_on_the_suite() {
    for (fen, _) in chess_perft() {
        for balances in ["0/0", "1/3", "3/1", "5/5", "20/20"] {
            let p = pos(&format!("{fen} {balances}"));
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            p.legal(&mut fast);
            p.legal_slow(&mut slow);
            let key = |m: &Move| (m.from, m.to, m.promo.map(|k| k as u8));
            fast.sort_by_key(key);
            slow.sort_by_key(key);
            assert_eq!(fast, slow, "{fen} {balances}");
        }
    }
}

#[test]
fn geometry_refusals_say_why() {
    let p = Position::start_position(&Rules::default());
    let cases = [
        ("c1e3", "the bishop's path is blocked at d2"),
        ("a1a3", "the rook's path is blocked at a2"),
        ("g1g3", "a knight moves two squares one way and one square the other"),
        ("e2d3", "a pawn moves diagonally only to capture, and d3 is empty"),
        ("e2e5", "a pawn moves one square straight forward (two from its starting rank) and captures one square diagonally forward"),
    ];
    for (uci, why) in cases {
        let e = refused(&p, uci, Notation::Uci);
        assert_eq!(
            (e.code, e.message.as_str()),
            (Refusal::BadGeometry, why),
            "{uci}"
        );
    }
    assert_eq!(
        refused(&p, "e7e5", Notation::Uci).code,
        Refusal::NotYourPiece
    );
    assert_eq!(refused(&p, "e4e5", Notation::Uci).code, Refusal::NoPiece);
    assert_eq!(refused(&p, "d1e1", Notation::Uci).code, Refusal::OwnPiece);
}

#[test]
fn the_key_knows_en_passant_only_where_it_can_be_taken() {
    // 1. d4 Nf6 2. Nf3 and 1. Nf3 Nf6 2. d4 reach the same position; after
    // the second, d3 is an en-passant square that no pawn can use.
    let play = |moves: &[&str]| {
        let mut g = Game::<Position>::from_fen(None, Rules::default()).unwrap();
        g.play_all(moves, Notation::Uci).unwrap();
        *g.current()
    };
    let a = play(&["d2d4", "g8f6", "g1f3"]);
    let b = play(&["g1f3", "g8f6", "d2d4"]);
    assert!(a.same_for_repetition(&b));
    assert_eq!(a.hash_key(), b.hash_key());
    assert_eq!(b.hash_key(), b.zobrist());
    // With a black pawn on e4, d3 can be taken: a different position.
    let fen = "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16/16";
    let mut with = pos(fen);
    with.make(find(&with, "d2d4"));
    assert_ne!(with.ep_hash, 0);
    let mut unusable = with;
    unusable.set_ep(board::NO_SQ);
    assert_ne!(with.hash_key(), unusable.hash_key());
    assert_eq!(with.hash_key(), with.zobrist());
    assert_eq!(with.hash_key(), pos(&with.to_fen()).hash_key());
    // The same pawn unable to pay for the capture: the square is no use.
    let poor = "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16/0";
    let rules = Rules {
        start_money: 16,
        income: 0,
        ..Rules::default()
    };
    let mut p = with_rules(poor, rules);
    p.make(find(&p, "d2d4"));
    assert_eq!(p.ep_hash, 0, "Black has 0 and the capture costs more");
}
