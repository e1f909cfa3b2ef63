use super::*;
use crate::variants::shared_tests::{refused, Refused};
use crate::variants::Refusal;
use crate::variants::{perft, Game, Reason, Variant};

fn pos(fen: &str) -> Position {
    fen::parse(fen, Setup::Standard.second_arrival()).unwrap_or_else(|e| panic!("{fen}: {e:?}"))
}

fn s(name: &str) -> Sq {
    parse_sq(name).unwrap()
}

fn targets_of(p: &Position, from: &str) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal(&mut moves);
    let mut out: Vec<String> = moves
        .iter()
        .filter(|m| m.from == s(from))
        .map(|m| sq_name(m.to))
        .collect();
    out.sort();
    out
}

fn refusal(p: &Position, mv: &str) -> Refused {
    refused(p, mv, Notation)
}

/// Asserts that `mv` is refused in `p` with `message`.
fn assert_refused(p: &Position, mv: &str, message: &str) {
    assert_eq!(refusal(p, mv).message, message, "{mv}");
}

/// The position after `mv` played in `fen`.
fn played(fen: &str, mv: &str) -> Position {
    let mut p = pos(fen);
    p.make(p.parse_move(mv, Notation).unwrap());
    p
}

/// The code of a white piece of `kind`.
fn white(kind: u8) -> u8 {
    board::code(Color::White, kind)
}

/// A board with the white shah on k1, the black shah on k9 and one white
/// piece on f5; ranks written from 10 down.
fn lone(piece: &str) -> Position {
    pos(&format!(
        "11/10k/11/11/11/5{piece}5/11/11/11/10K w -/- - 0/0 0 1"
    ))
}

#[test]
fn start_fens_round_trip() {
    for setup in [Setup::Standard, Setup::Feminine, Setup::Third] {
        let p = Position::start_position(&Rules {
            setup,
            ..Rules::default()
        });
        assert_eq!(Position::to_fen(&p), setup.fen());
    }
}

#[test]
fn perft_from_the_standard_start() {
    let mut p = Position::start_position(&Rules::default());
    let want: &[u64] = if cfg!(debug_assertions) {
        &[24, 576, 14518]
    } else {
        &[24, 576, 14518, 365893]
    };
    for (d, &n) in want.iter().enumerate() {
        assert_eq!(perft(&mut p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn every_piece_on_an_open_board() {
    // Counts from f5 on the empty 11x10 board (hand-counted).
    for (piece, n) in [
        ("G", 14),
        ("T", 14),
        ("R", 19),
        ("N", 8),
        ("C", 8),
        ("E", 4),
        ("D", 4),
        ("F", 4),
        ("W", 4),
        ("S", 8),
        ("A", 8),
    ] {
        assert_eq!(targets_of(&lone(piece), "f5").len(), n, "{piece}");
    }
    // The giraffe: one diagonal step, then at least three straight: (1, 4) is its shortest reach.
    assert_eq!(
        targets_of(&lone("G"), "f5"),
        ["a4", "a6", "b4", "b6", "e1", "e10", "e9", "g1", "g10", "g9", "j4", "j6", "k4", "k6"]
    );
    // The talia never stops on the first square.
    assert!(!targets_of(&lone("T"), "f5").contains(&"g6".to_owned()));
    assert_eq!(
        targets_of(&lone("C"), "f5"),
        ["c4", "c6", "e2", "e8", "g2", "g8", "i4", "i6"]
    );
    assert_eq!(targets_of(&lone("D"), "f5"), ["d5", "f3", "f7", "h5"]);
    assert_eq!(targets_of(&lone("E"), "f5"), ["d3", "d7", "h3", "h7"]);
}

#[test]
fn every_piece_on_a_crowded_board() {
    let p = Position::start_position(&Rules::default());
    // Giraffes and talias are shut in; the faras, jamal and ferz get out.
    assert!(targets_of(&p, "d2").is_empty());
    assert!(targets_of(&p, "c2").is_empty());
    assert_eq!(targets_of(&p, "b2"), ["a4", "c4", "d1"]);
    assert_eq!(targets_of(&p, "c1"), ["b4", "d4"]);
    assert_eq!(targets_of(&p, "e2"), ["d1", "f1"]);
    assert_eq!(targets_of(&p, "f2"), ["f1"]);
    assert!(
        targets_of(&p, "a1").is_empty(),
        "the pil's target c3 holds a pawn"
    );
    assert!(
        targets_of(&p, "e1").is_empty(),
        "the dabbaba's targets are all occupied"
    );
}

#[test]
fn refusals_in_the_games_own_terms() {
    // Giraffe on b2 with a piece on c3: the diagonal square is occupied.
    let p = pos("11/10k/11/11/11/11/11/2PP8/1G9/10K w -/- - 0/0 0 1");
    let e = refusal(&p, "b2c6");
    assert_eq!(
        (e.code, e.message.as_str()),
        (
            Refusal::BadGeometry,
            "the giraffe's diagonal square c3 is occupied"
        )
    );
    assert_refused(&lone("T"), "f5g6", "a talia must move at least two squares");
    assert_refused(&lone("R"), "f5g6", "a rukh moves along a rank or a file");
    let start = Position::start_position(&Rules::default());
    assert_refused(&start, "f3f5", "a pawn moves one square straight forward and captures one square diagonally forward; it has no double step");
    assert!(refusal(&start, "zz").is_syntax());
    for text in ["é1a2", "a1é2", "🀄", "a10@", "~", "a8z9~", "l2"] {
        assert!(refusal(&start, text).is_syntax(), "{text}");
    }
}

#[test]
fn promotion_by_pawn_type() {
    // A pawn of rooks on b9 becomes a rukh; a pawn of the shah a prince.
    let after = played("11/1PR8k/11/11/11/11/11/11/11/10K w -/- - 0/0 0 1", "b9b10");
    assert!(Position::to_fen(&after).starts_with("1R9/"));
    let after = played("11/1PK8k/11/11/11/11/11/11/11/10K w -/- - 0/0 0 1", "b9b10");
    assert!(Position::to_fen(&after).starts_with("1S9/"));
    // An unpromoted pawn on its last rank is refused in FEN.
    assert!(fen::parse(
        "1PR9/10k/11/11/11/11/11/11/11/10K w -/- - 0/0 0 1",
        Setup::Standard.second_arrival()
    )
    .is_err());
}

#[test]
fn several_royals_have_no_check_rules() {
    // White has a shah and a prince: the shah may step next to the black rukh's line.
    let p = pos("11/10k/11/11/11/r10/11/11/S10/1K9 w -/- - 0/0 0 1");
    assert!(!p.in_check());
    assert!(
        targets_of(&p, "b1").contains(&"b2".to_owned()),
        "moving into the rukh's file is allowed with two royals"
    );
    // With the shah alone, the same step is refused.
    let p = pos("11/10k/11/11/11/r10/11/11/11/1K9 w -/- - 0/0 0 1");
    assert!(!targets_of(&p, "b1").contains(&"a1".to_owned()));
    // Promoting to a second royal while in check is legal: the pawn of the
    // shah on b9 promotes while the shah on k1 is attacked by the rukh on k5.
    let p = pos("11/1PK8k/11/11/11/10r/11/11/11/10K w -/- - 0/0 0 1");
    assert!(p.in_check());
    assert!(p.parse_move("b9b10", Notation).is_ok());
}

#[test]
fn citadels() {
    // The white shah on a9 may step into Black's citadel z9: drawn.
    let p = pos("11/K10/11/11/11/11/11/11/11/10k w -/- - 0/0 0 1");
    let m = p.parse_move("a9z9", Notation).unwrap();
    let mut g = Game::new(p, Rules::default());
    g.play(m);
    let o = g.outcome();
    assert_eq!(o.reason(), Some(Reason::Citadel));
    assert!(Position::to_fen(g.current()).contains(" -/K "));
    // A prince may not enter while its shah is on the board.
    let p = pos("11/S10/11/11/11/11/11/11/11/K9k w -/- - 0/0 0 1");
    assert_refused(
        &p,
        "a9z9",
        "only the highest-ranking royal may enter the enemy citadel",
    );
    // Only the adventitious king enters its own citadel.
    let p = pos("11/10k/11/11/11/11/11/11/10K/10A w -/- - 0/0 0 1");
    assert!(p.parse_move("k1l2", Notation).is_ok());
    assert_refused(
        &p,
        "k2l2",
        "only the adventitious king may enter its own citadel",
    );
    // Nothing else enters: a rukh on k2 cannot go to l2.
    let p = pos("11/9k1/11/11/11/11/11/11/10R/K10 w -/- - 0/0 0 1");
    assert_refused(&p, "k2l2", "no piece but a royal ever enters a citadel");
    // Nothing in a citadel is attacked: the black rukh on k2 stands next to
    // l2 and does not attack White's adventitious king inside.
    let p = pos("11/10k/11/11/11/11/11/11/10r/K10 w A/- - 0/0 0 1");
    assert!(!p.attacked(L2, Color::Black));
    let mut moves = Vec::new();
    let mut black = p;
    black.side = Color::Black;
    black.legal(&mut moves);
    assert!(moves.iter().all(|m| m.to != L2));
}

#[test]
fn the_exchange() {
    // The white shah on f2, alone, is checked by the black rukh on f9; it
    // may exchange with its wazir on a1 (once).
    let p = pos("11/5r4k/11/11/11/11/11/11/5K5/W10 w -/- K 0/0 0 1");
    assert!(p.in_check());
    let m = p.parse_move("f2~a1", Notation).unwrap();
    assert_eq!(m.special, Special::Exchange);
    let mut after = p;
    after.make(m);
    assert!(
        Position::to_fen(&after).contains(" -/- - "),
        "the right is used"
    );
    // Without the right, or without check and with other moves, it is refused.
    let used = pos("11/5r4k/11/11/11/11/11/11/5K5/W10 w -/- - 0/0 0 1");
    assert_refused(&used, "f2~a1", "the exchange has already been used");
    let calm = pos("11/10k/11/11/11/11/11/11/5K5/W10 w -/- K 0/0 0 1");
    assert_eq!(refusal(&calm, "f2~a1").code, Refusal::ExchangeNotAllowed);
}

#[test]
fn the_pawn_of_pawns() {
    let second = Setup::Standard.second_arrival();
    // First arrival: it stays on its last rank, dormant.
    let a = played("11/PP9k/11/11/11/11/11/11/11/10K w -/- - 0/0 0 1", "a9a10");
    assert_eq!(a.arrivals, [1, 0]);
    assert!(a.dormant(s("a10")));
    // Dormant: it cannot move, cannot be captured, attacks nothing.
    let p = pos("PP10/11/11/11/11/11/11/11/11/K9k w -/- - 1/0 0 1");
    assert_eq!(refusal(&p, "a10a9").code, Refusal::Dormant);
    // Relocation to a fork: from e5 it attacks d6 and f6.
    let p = pos("PP10/11/11/11/3r1r5/11/11/11/11/K9k w -/- - 1/0 0 1");
    let m = p.parse_move("a10@e5", Notation).unwrap();
    assert_eq!(m.special, Special::Relocate);
    // No fork and nothing trapped: refused.
    assert_eq!(refusal(&p, "a10@b5").code, Refusal::BadRelocation);
    // Second arrival: straight to the shah's pawn's start square f3.
    let a = played("11/PP9k/11/11/11/11/11/11/11/10K w -/- - 1/0 0 1", "a9a10");
    assert_eq!(a.at(second[0]), white(board::PAWN_OF_PAWNS));
    assert_eq!(a.arrivals, [2, 0]);
    // Third arrival: an adventitious king.
    let a = played("11/PP9k/11/11/11/11/11/11/11/10K w -/- - 2/0 0 1", "a9a10");
    assert_eq!(a.at(s("a10")), white(board::ADVENTITIOUS));
}

#[test]
fn stalemate_and_mate_lose() {
    // Black's shah on a10 has no move and is not attacked: stalemate, Black loses.
    let g = Game::new(
        pos("k10/2R8/1R9/11/11/11/11/11/11/10K b -/- - 0/0 0 1"),
        Rules::default(),
    );
    let o = g.outcome();
    assert_eq!(o.reason(), Some(Reason::Stalemate));
    assert_eq!(o.winner(), Some(Color::White));
}

#[test]
fn optional_rules() {
    let bare = Rules {
        bare_king: true,
        ..Rules::default()
    };
    let g = Game::new(pos("11/10k/11/11/11/11/11/11/11/R9K w -/- - 0/0 0 1"), bare);
    assert_eq!(g.outcome().reason(), Some(Reason::BareKing));
    assert_eq!(g.outcome().winner(), Some(Color::White));
    let limit = Rules {
        move_limit_plies: 10,
        ..Rules::default()
    };
    let g = Game::new(
        pos("11/10k/11/11/11/11/11/11/11/R9K w -/- - 0/0 10 1"),
        limit,
    );
    assert_eq!(g.outcome().reason(), Some(Reason::MoveLimit));
    let rep = Rules {
        repetition: super::RepetitionRule::Threefold,
        ..Rules::default()
    };
    let mut g = Game::new(pos("11/10k/11/11/11/11/11/11/11/R9K w -/- - 0/0 0 1"), rep);
    g.play_all(
        &[
            "a1a2", "k9k8", "a2a1", "k8k9", "a1a2", "k9k8", "a2a1", "k8k9",
        ],
        Notation,
    )
    .unwrap();
    assert_eq!(g.outcome().reason(), Some(Reason::Repetition));
    // Over the board the draw is an event and the game goes on.
    let otb = Rules {
        repetition_ends_game: false,
        ..Rules::default()
    };
    let mut g = Game::new(pos("11/10k/11/11/11/11/11/11/11/R9K w -/- - 0/0 0 1"), otb);
    g.play_all(
        &[
            "a1a2", "k9k8", "a2a1", "k8k9", "a1a2", "k9k8", "a2a1", "k8k9", "a1a3",
        ],
        Notation,
    )
    .unwrap();
    assert!(g.outcome().is_ongoing());
    assert_eq!(g.repetition_events().len(), 1);
    assert_eq!(g.repetition_events()[0].ply, 8);
    assert_eq!(g.repetition_events()[0].verdict.reason, Reason::Repetition);
}

/// Random games end by default: the threefold repetition and the 100-ply
/// rule (issue: 36 of 40 random games passed 400 plies with neither).
#[test]
fn random_games_end_by_default() {
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let mut longest = 0;
    let mut by = std::collections::BTreeMap::new();
    for _ in 0..40 {
        let mut g = Game::new(
            Position::start_position(&Rules::default()),
            Rules::default(),
        );
        let mut moves = Vec::new();
        let outcome = loop {
            let o = g.outcome();
            if !o.is_ongoing() {
                break o;
            }
            g.current().legal_moves(&mut moves);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            g.play(moves[(seed % moves.len() as u64) as usize]);
            assert!(g.moves().len() < 3000, "a random game ran past 3000 plies");
        };
        longest = longest.max(g.moves().len());
        *by.entry(outcome.reason().unwrap().code()).or_insert(0) += 1;
    }
    // Without the rules most of these games would still be going.
    assert!(by.get("move_limit").copied().unwrap_or(0) > 0, "{by:?}");
    eprintln!("longest {longest} plies; {by:?}");
}

#[test]
fn fen_errors() {
    for (fen, needle) in [
        ("11/10k/11/11/11/11/11/11/11/10K w -/- - 0/0 0", "7 fields"),
        (
            "11/10k/11/11/11/11/11/11/11/10X w -/- - 0/0 0 1",
            "not a Tamerlane piece letter",
        ),
        (
            "11/10k/11/11/11/11/11/11/11/9PX1 w -/- - 0/0 0 1",
            "not a pawn type",
        ),
        (
            "11/10k/11/11/11/11/11/11/11/11 w -/- - 0/0 0 1",
            "White has no royal",
        ),
        (
            "11/10k/11/11/11/11/11/11/11/9KK w -/- - 0/0 0 1",
            "two shahs",
        ),
        (
            "11/10k/11/11/11/11/11/11/11/10K w K/- - 0/0 0 1",
            "only the adventitious king",
        ),
        (
            "11/10k/11/11/11/11/11/11/11/10K w -/- Q 0/0 0 1",
            "exchange rights",
        ),
        (
            "11/10k/11/11/11/11/11/11/11/10K w -/- - 3/0 0 1",
            "arrivals",
        ),
    ] {
        let e = fen::parse(fen, Setup::Standard.second_arrival()).expect_err(fen);
        assert!(e.message.contains(needle), "{fen}: {}", e.message);
    }
}

mod cross_check {
    //! An independent, naive statement of every piece's movement, square by
    //! square, checked against the generator and the reverse-lookup attacks.
    use super::*;
    use crate::variants::Variant;
    use board::*;
    use proptest::prelude::*;

    fn naive_reaches(p: &Position, from: Sq, to: Sq) -> bool {
        let piece = p.at(from);
        if is_citadel(from) || is_citadel(to) || from == to || p.dormant(from) {
            return false;
        }
        let (f, r) = coords(from);
        let (tf, tr) = coords(to);
        let (dx, dy) = (tf - f, tr - r);
        let empty = |x: i32, y: i32| p.at(sq(x, y).unwrap()) == EMPTY;
        let clear = |sx: i32, sy: i32, n: i32| (1..n).all(|k| empty(f + sx * k, r + sy * k));
        let (ax, ay) = (dx.abs(), dy.abs());
        match kind_of(piece) {
            SHAH | PRINCE | ADVENTITIOUS => ax <= 1 && ay <= 1,
            FERZ => ax == 1 && ay == 1,
            WAZIR => ax + ay == 1,
            FARAS => (ax, ay) == (1, 2) || (ax, ay) == (2, 1),
            JAMAL => (ax, ay) == (1, 3) || (ax, ay) == (3, 1),
            PIL => ax == 2 && ay == 2,
            DABBABA => (ax, ay) == (2, 0) || (ax, ay) == (0, 2),
            RUKH => (dx == 0 || dy == 0) && clear(dx.signum(), dy.signum(), ax.max(ay)),
            TALIA => ax == ay && ax >= 2 && clear(dx.signum(), dy.signum(), ax),
            GIRAFFE => {
                let (sx, sy) = (dx.signum(), dy.signum());
                let bend_ok = (ax == 1 && ay >= 4) || (ay == 1 && ax >= 4);
                bend_ok && sx != 0 && sy != 0 && empty(f + sx, r + sy) && {
                    // From the bend square, straight to the target.
                    let (bx, by) = (f + sx, r + sy);
                    let (ox, oy) = if ax == 1 { (0, sy) } else { (sx, 0) };
                    let n = (tf - bx).abs().max((tr - by).abs());
                    (1..n).all(|k| empty(bx + ox * k, by + oy * k))
                }
            }
            _ => {
                let fwd = if color_of(piece) == Color::White {
                    1
                } else {
                    -1
                };
                dy == fwd && ax == 1
            }
        }
    }

    fn naive_attacked(p: &Position, s: Sq, by: Color) -> bool {
        !is_citadel(s)
            && ((0..BOARD_SQUARES).any(|a| {
                let x = p.at(a);
                x != EMPTY && color_of(x) == by && naive_reaches(p, a, s)
            }) || [L2, Z9].iter().any(|&c| {
                let x = p.at(c);
                x != EMPTY && color_of(x) == by && gates(c).contains(&s)
            }))
    }

    fn random_game(picks: &[u16]) -> Vec<Position> {
        let mut p = Position::start_position(&Rules::default());
        let mut out = vec![p];
        let mut moves = Vec::new();
        for &pick in picks {
            p.legal(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.make(moves[pick as usize % moves.len()]);
            out.push(p);
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn movement_and_attacks_agree_with_the_naive_rules(picks in prop::collection::vec(any::<u16>(), 0..120)) {
            for p in random_game(&picks) {
                for by in [Color::White, Color::Black] {
                    for s in 0..BOARD_SQUARES {
                        prop_assert_eq!(p.attacked(s, by), naive_attacked(&p, s, by), "{} attacked by {:?} in {}", sq_name(s), by, Position::to_fen(&p));
                    }
                }
                let mut t = Vec::new();
                for from in 0..BOARD_SQUARES {
                    let x = p.at(from);
                    if x == EMPTY || color_of(x) != p.side() {
                        continue;
                    }
                    t.clear();
                    p.targets(from, &mut t);
                    let mut fast: Vec<Sq> = t.iter().copied().filter(|&s| !is_citadel(s)).collect();
                    fast.sort_unstable();
                    let pawn = is_pawn(kind_of(x));
                    let naive: Vec<Sq> = (0..BOARD_SQUARES)
                        .filter(|&to| {
                            let q = p.at(to);
                            let lands = q == EMPTY || (color_of(q) != color_of(x) && !p.dormant(to));
                            if pawn {
                                let (f, r) = coords(from);
                                let fwd = if color_of(x) == Color::White { 1 } else { -1 };
                                (sq(f, r + fwd) == Some(to) && q == EMPTY) || (naive_reaches(&p, from, to) && q != EMPTY && lands)
                            } else {
                                naive_reaches(&p, from, to) && lands
                            }
                        })
                        .collect();
                    prop_assert_eq!(fast, naive, "{} in {}", sq_name(from), Position::to_fen(&p));
                }
                // FEN round trip.
                let back = fen::parse(&Position::to_fen(&p), Setup::Standard.second_arrival()).unwrap();
                prop_assert_eq!(Position::to_fen(&back), Position::to_fen(&p));
                // Every listed move reads back and does not leave a lone royal attacked.
                let mut moves = Vec::new();
                p.legal(&mut moves);
                for &m in &moves {
                    prop_assert_eq!(p.parse_move(&notation::write(m), Notation), Ok(m));
                    let mut after = p;
                    after.make(m);
                    prop_assert!(!after.in_check_of(p.side()));
                }
            }
        }
    }
}

#[test]
fn the_citadel_exchange() {
    // The white shah on a9 steps into z9 and the prince on e5 takes its place there.
    let p = pos("11/K10/11/11/11/4S6/11/11/11/10k w -/- K 0/0 0 1");
    let m = p.parse_move("a9z9~e5", Notation).unwrap();
    assert_eq!(m.special, Special::CitadelExchange(s("e5")));
    let mut g = Game::new(p, Rules::default());
    g.play(m);
    let fen = Position::to_fen(g.current());
    assert!(fen.contains(" -/S - "), "{fen}");
    assert!(g.current().at(s("e5")) == board::code(Color::White, board::SHAH));
    assert!(
        g.outcome().is_ongoing(),
        "the shah, the highest royal, is not in the citadel"
    );
    // Plain entry by the shah draws.
    let mut g = Game::new(p, Rules::default());
    g.play(p.parse_move("a9z9", Notation).unwrap());
    assert_eq!(g.outcome().reason(), Some(Reason::Citadel));
}

#[test]
fn a_royal_bars_the_second_arrival() {
    // The second arrival would go to f3, where the white shah stands.
    let p = pos("11/PP9k/11/11/11/11/11/5K5/11/11 w -/- - 1/0 0 1");
    assert_eq!(refusal(&p, "a9a10").code, Refusal::SecondArrivalBarred);
    // A non-royal there is removed instead.
    let a = played(
        "11/PP9k/11/11/11/11/11/5pr5/11/K10 w -/- - 1/0 0 1",
        "a9a10",
    );
    assert_eq!(a.at(s("f3")), white(board::PAWN_OF_PAWNS));
}

#[test]
fn the_exchange_without_another_move() {
    // Black's shah on a10 has no move and its pawn on e6 is blocked: with the
    // right, Black may exchange the shah with the pawn; without it, Black is
    // stalemated and loses.
    let fen =
        |rights: &str| format!("k10/2R8/1R9/11/4pr6/4PR6/11/11/11/10K b -/- {rights} 0/0 0 1");
    let p = pos(&fen("k"));
    assert!(!p.in_check());
    let mut moves = Vec::new();
    p.legal(&mut moves);
    assert_eq!(
        moves
            .iter()
            .map(|&m| notation::write(m))
            .collect::<Vec<_>>(),
        ["a10~e6"]
    );
    let g = Game::new(pos(&fen("-")), Rules::default());
    assert_eq!(g.outcome().reason(), Some(Reason::Stalemate));
}
