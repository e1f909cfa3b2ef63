//! The Chinese code's principles, case by case: each decision of the rule
//! book beside a position one piece different where the rule must not
//! apply; the natures of single moves.

use super::book::DIAGRAMS;
use super::book_reference::REFERENCE;
use super::tests::chinese;
use super::*;
use crate::variants::xiangqi::bitboards::bit;
use crate::variants::xiangqi::*;
use crate::variants::{Color, Nature};

/// Judges the last of `moves` (ICCS) played from `fen`.
fn judged_last(fen: &str, moves: &str) -> Judged {
    let (before, m) = before_last(fen, moves);
    judged(&before, m)
}

/// The position before the last of `moves` (ICCS) played from `fen`, and
/// that move.
fn before_last(fen: &str, moves: &str) -> (Position, Move) {
    let mut before = <Position as crate::variants::Variant>::from_fen(fen, &chinese()).unwrap();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let (last, played) = moves.split_last().expect("a move");
    for m in played {
        let m = before.parse_move(m, Notation::Iccs).unwrap();
        before.make(m);
    }
    let m = before.parse_move(last, Notation::Iccs).unwrap();
    (before, m)
}

/// The nature of `m` played in `before` (no earlier position known).
fn judged(before: &Position, m: Move) -> Judged {
    let mut after = before.clone();
    after.make(m);
    judge_move(before, m, &after, None)
}

/// The points chased, in board order: "e2 d4".
fn names(chased: &[Sq]) -> String {
    let names: Vec<String> = chased.iter().map(|&s| sq_name(s)).collect();
    names.join(" ")
}

/// A case of [`PRINCIPLES`]: the figure, its moves, the book's decision,
/// the feature changed, the decision then.
type Principle = (
    &'static str,
    &'static str,
    &'static str,
    (&'static str, &'static str),
    &'static str,
);

/// The decisions of the book's 参考图28, 参考图49/50, 图26, 图8, 参考图16
/// (with 参考图37), 图29, 参考图42, 参考图41, 参考图38, 参考图31 and 参考图34,
/// each beside a position one piece different where the rule must not
/// apply: the figure, its moves (ICCS; the last is judged), the book's
/// decision, the one feature changed (a piece of the FEN and what it
/// becomes) and the decision then. A decision is the nature's letter (`C`
/// chase, `I` idle, `M` mate threat), then where the case says, the points
/// chased in board order and `joint` or `single`.
#[rustfmt::skip]
const PRINCIPLES: &[Principle] = &[
    // 参考图28, 车四平二: the chariot could win the advisor by checks, but
    // its checks are all that hold the horse c8 against the chariot c7
    // (做根子捉子，得不偿失): idle. Without Black's chariot nothing depends
    // on the checks, and the same move chases the advisor.
    ("3a1k3/n1N1a4/2r6/9/9/2P5p/9/7R1/4A4/3AK4 w - - 0 1", "h2f2 e8f7 f2h2", "I", ("2r6", "9"), "C d9"),
    // 参考图49, 马七退八: the cannons g8 and d8 face each other over the
    // horse e8, but Black's cannon cannot take (it would open its general to
    // the horse's checks and mate: 不能离线): the cannon d8 is chased. With
    // Black's advisor d9 gone the general has room, the offer of exchange
    // (兑) stands, and the move is idle.
    ("3akab2/3cn1C2/4b2C1/pN6R/1r1n2p2/9/P1p1P1P1P/1c2B4/5N3/2BAKA3 w - - 0 1", "b6c8 b5c5 c8b6", "C d8", ("3akab2", "4kab2"), "I"),
    // 图26, 炮8进3: the cannon e4 would take the elephant e2 with check and
    // open the rank for the cannon just moved to take the chariot d4. The
    // elephant's capture is not ahead by itself (the elephant g0 takes
    // back): the move chases the chariot alone, single-handed (the moved
    // piece takes, its way opened by the check: 长捉车). With the elephant
    // g0 gone the capture with check wins the elephant by itself, and it is
    // chased too.
    ("2baka2r/9/2n1b4/2p1p4/9/3Rc1Pc1/4C1n2/3NB1NC1/4A4/4KAB2 w - - 0 1", "d4d7 h4h7 d7d4 h7h4", "C d4 single", ("4KAB2", "4KA3"), "C e2 d4"),
    // 图8, 将6退1: before the step back the chariot that takes the soldier
    // a6 is mated by checks ("黑方退将后方可吃红兵，否则会被红方将死"): the
    // step makes the chase. Without Red's horse d8 there is no such mate,
    // the capture stood before the step, and the step is idle.
    ("3a3R1/3Nck3/3ab4/P4r3/9/8p/2p5n/C3BA2B/4A4/4K4 w - - 0 1", "h9h3 f8f9", "C a6", ("3Nck3", "4ck3"), "I"),
    // 参考图16, 兵五平六: the soldier steps out of the chariot's attack,
    // which lifts Black's counter from the rook's capture of the soldier f3,
    // and it attacks the advisor d7 itself: the rook's capture counts, a
    // chase (长捉). Without the advisor the soldier wins nothing itself: the
    // capture stood but for the threat to the soldier (避吃促成得子, 参考图37),
    // and the step is idle.
    ("4k4/9/3ab4/4PR3/4r4/9/5p3/4BA3/9/2B1K4 w - - 0 1", "e6d6", "C f3", ("3ab4", "4b4"), "I"),
    // 图29, 车一平二: the rook threatens to mate by taking Black's chariot
    // h9, which can take it first and lose nothing (the rook e3 takes
    // back, and no mate is left): an offer of exchange, "兑". Without
    // Black's chariot nothing is offered, and the same move is a mate
    // threat.
    ("2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1", "i3h3", "I", ("2bak2r1", "2bak4"), "M"),
    // 参考图42, 仕五退六: the advisor clears the e-file, so Black's general
    // cannot step to e8, and 车五平四 (rook and cannon checking together)
    // leaves only the cannon's block on f7, which the cannon takes through
    // the rook: a new win by checks, joint ("一联合捉子"). Without Red's
    // cannon f1 the rook's check alone wins nothing: idle.
    ("9/5k3/2c6/p3R4/9/9/9/r5n1B/4AC3/4KA3 w - - 0 1", "e1d0", "C c7 joint", ("4AC3", "4A4"), "I"),
    // 参考图41, 炮六平二: the cannon's check from h9 is met by the general's
    // step (将5进1), mated by the rook (车三进一), by the elephant's block, lost,
    // or by the advisor's step, after which the rook's checks win a piece:
    // the mated answer leaves nothing to ask, and the move chases jointly.
    // With a black cannon on a8 the general's step is no longer mated (the
    // cannon takes the rook over the general), leaves nothing to win, and
    // the move is idle.
    ("2baka3/7Cc/n3b1R2/2p6/p5p2/2P6/P6r1/4B1p1C/4A4/4KAB2 w - - 0 1", "h8d8 h3d3 d8h8", "C joint", ("7Cc", "c6Cc"), "I"),
    // 参考图38, 车8平7: the chariot steps out of the horse's attack beside
    // Red's rook f0 and in front of the cannon i0, which could take the
    // rook over it: a joint chase ("联合捉车"). Without the cannon the
    // chariot's attack on the rook, which the general guards, is an offer
    // of exchange: idle.
    ("2c1kab2/4a4/2n1b4/p3P3p/6p2/9/P7P/1CN1C4/4A3N/2BAKR1rc w - - 0 1", "i1g2 h0g0", "C f0 joint", ("2BAKR1rc", "2BAKR1r1"), "I"),
    // 参考图31, 象9进7: the cannon could take the soldier i5, which the horse
    // guards; the whole exchange counts, and Red's answer 炮五进四打象, a
    // capture with check, leaves Black nothing: idle. Without Black's
    // advisor e8 that capture is no check, and the same move chases the
    // soldier (jointly: the chariot wins back what the horse's recapture
    // leaves).
    ("R2ck4/4a4/4b3b/4r4/2c1C3P/6N2/9/4B4/9/2BAKA3 w - - 0 1", "e5e3 i7g5", "I", ("4a4", "9"), "C i5 joint"),
    // 参考图34, 炮9退2: the cannon attacks the elephant e2 over the advisor;
    // the general that takes back is mated by 车4平5, and the elephant g0
    // that takes back opens the bottom rank to the chariot's checks, which
    // win the rook h0: a joint chase of the elephant ("联合捉子"). Without
    // Black's chariot both recaptures are safe, and the move is idle.
    ("3k1ab2/4a4/4b4/2p4R1/6p2/3r5/6P1P/4BA3/2C1K4/6B1c w - - 0 1", "h6h0 i0i2", "C e2 joint", ("3r5", "9"), "I"),
];

/// Asserts that a judged move is as `decision` says (see [`PRINCIPLES`]).
fn assert_decision(j: &Judged, decision: &str, case: &str) {
    let mut words = decision.split_whitespace();
    let nature = match words.next() {
        Some("C") => Nature::Chase,
        Some("I") => Nature::Idle,
        Some("M") => Nature::MateThreat,
        other => panic!("{case}: what nature is {other:?}?"),
    };
    assert_eq!(j.nature, nature, "{case}: {j:?}");
    let (joint, points): (Vec<&str>, Vec<&str>) =
        words.partition(|w| *w == "joint" || *w == "single");
    if !points.is_empty() {
        assert_eq!(names(&j.chased), points.join(" "), "{case}: {j:?}");
    }
    if let Some(&joint) = joint.first() {
        assert_eq!(j.joint, joint == "joint", "{case}: {j:?}");
    }
}

/// Each case of [`PRINCIPLES`]: the book's decision, and the other one
/// with the feature changed.
#[test]
fn chinese_principles_against_one_feature_different_positions() {
    for &(fig, moves, book, (piece, changed), contrast) in PRINCIPLES {
        assert_decision(&judged_last(fig, moves), book, fig);
        assert_eq!(fig.matches(piece).count(), 1, "{fig}: which {piece}?");
        let different = fig.replacen(piece, changed, 1);
        assert_decision(&judged_last(&different, moves), contrast, &different);
    }
}

/// A debugging aid for finding one-feature-different positions:
/// `CONTRAST="<fen>|<moves>"` judges the last move after the others, then
/// again with each piece but the generals and the mover taken off.
#[test]
#[ignore = "a debugging aid"]
fn explore_removals() {
    for spec in std::env::var("CONTRAST").unwrap().split(';') {
        let (fen, moves) = spec.split_once('|').unwrap();
        let (before, mv) = before_last(fen, moves);
        let judge = |b: &Position| judged(b, mv);
        let j = judge(&before);
        let base_nature = j.nature;
        if std::env::var_os("CONTRAST_EXPLAIN").is_some() {
            let mut after = before.clone();
            after.make(mv);
            println!("{}", super::explain_move(&before, mv, &after, None));
        }
        println!(
            "{} {}{}: {:?} {} joint {}",
            crate::variants::Variant::to_fen(&before),
            sq_name(mv.from),
            sq_name(mv.to),
            j.nature,
            names(&j.chased),
            j.joint
        );
        for s in 0..90 {
            let p = before.piece_at(s);
            if s == mv.from || p == EMPTY || kind_of(p) == Some(Kind::General) {
                continue;
            }
            let mut b = before.clone();
            b.remove(s);
            if b.is_legal(mv) {
                let j = judge(&b);
                println!(
                    "  without {}: {:?} {} joint {}",
                    sq_name(s),
                    j.nature,
                    names(&j.chased),
                    j.joint
                );
            }
        }
        // `CONTRAST_ADD=1`: also each horse, cannon or chariot of either side
        // put on each empty point.
        if std::env::var_os("CONTRAST_ADD").is_none() {
            continue;
        }
        for s in 0..90 {
            if before.piece_at(s) != EMPTY {
                continue;
            }
            for c in [Color::White, Color::Black] {
                for k in [Kind::Horse, Kind::Cannon, Kind::Chariot] {
                    let mut b = before.clone();
                    b.put(s, piece(c, k));
                    if !b.is_legal(mv) || b.general_attacked(!b.side()) {
                        continue;
                    }
                    let j = judge(&b);
                    if j.nature != base_nature {
                        println!(
                            "  with {} {:?} {:?}: {:?} {} joint {}",
                            sq_name(s),
                            c,
                            k,
                            j.nature,
                            names(&j.chased),
                            j.joint
                        );
                    }
                }
            }
        }
    }
}

/// The judge's searches for checks make only the moves that leave or reach
/// one of [`probe::check_points`]: every move that checks must, in random
/// games from the start and from every worked example. (Their mate tests
/// ask [`Position::has_legal`], which must agree with the moves listed.)
#[test]
fn every_check_leaves_or_reaches_a_check_point() {
    use crate::variants::Variant;
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let fens = std::iter::once(start)
        .chain(DIAGRAMS.iter().map(|ex| ex.fen))
        .chain(REFERENCE.iter().map(|ex| ex.fen));
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let (mut checks, mut games) = (0, 0);
    for fen in fens {
        for _ in 0..20 {
            games += 1;
            let mut pos = <Position as Variant>::from_fen(fen, &chinese()).unwrap();
            for _ in 0..120 {
                let mut moves = Vec::new();
                pos.legal(&mut moves);
                assert_eq!(pos.has_legal(), !moves.is_empty(), "{fen} after play");
                if moves.is_empty() {
                    break;
                }
                let points = probe::check_points(pos.general(!pos.side()));
                for &m in &moves {
                    if pos.gives_check(m) {
                        checks += 1;
                        assert!(
                            (bit(m.from) | bit(m.to)) & points != 0,
                            "{m:?} checks in {fen} after play"
                        );
                    }
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.make(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }
    assert!(
        games > 1000 && checks > 1000,
        "{games} games, {checks} checks"
    );
}
