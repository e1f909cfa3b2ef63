//! The Chinese rules (`"repetition": "chinese"`) against the worked examples
//! of the Chinese Xiangqi Association's rule book, 《象棋竞赛规则（2020）》:
//! 图2-图30 and 参考图1-参考图50 (79 diagrams; 图1 is no repetition), plus
//! the two variations the book describes in words (图29, 图30). Positions,
//! moves, the book's labels of each move (将 check, 杀 mate threat, 捉
//! chase, 闲 idle: `K`, `M`, `C`, `I`; `?` where the book gives none) and
//! verdicts are as the book prints them, transcribed publicly (the
//! repository liudengfeng/cppxq; 图2-图16 also checked against the book
//! pages attached to Fairy-Stockfish's issue 55). Each is also played with
//! the colours exchanged (the board turned, Black moving first).
//!
//! Where the transcription disagrees with the book or the rule text, the
//! entry says so:
//! - 图29: the printed cycle does not close (the chariots go i3-h3-i3-g3
//!   and h9-i9-g9-h9); the repetition is the book's plies 2-7, so the first
//!   move is played once and `g3h3` (车三平二) closes the cycle.
//! - 图29's variation (车五平二, then 车8平7 车二平三 车7平8): the book gives
//!   the verdict (both 长杀, drawn) but no label per move.
//! - 参考图8 is the nine-move rule: Red's nine moves are all forbidden and
//!   the game ends after Red's ninth (ply 17), with no repetition.

use super::book::DIAGRAMS;
use super::book_reference::REFERENCE;
use super::*;
use crate::variants::xiangqi::repetition_book_tests::{exchanged_fen, turned_move};
use crate::variants::xiangqi::*;
use crate::variants::{Color, Game, Nature, Outcome, Reason};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Expect {
    RedLoses,
    BlackLoses,
    Drawn,
}
use Expect::*;

/// Every worked example, in the book's order.
fn book() -> impl Iterator<Item = &'static Example> {
    DIAGRAMS.iter().chain(REFERENCE)
}

/// One worked example of the book.
pub(super) struct Example {
    /// The diagram: 图n or 参考图n.
    pub(super) id: &'static str,
    pub(super) fen: &'static str,
    /// Moves played once before the cycle.
    pub(super) prefix: &'static str,
    /// The cycle, played until the game ends.
    pub(super) cycle: &'static str,
    /// The book's label of each move of the cycle: K, M, C, I, or ?.
    pub(super) natures: &'static str,
    pub(super) verdict: Expect,
    /// The book's name for each side's pattern (Red / Black).
    #[allow(dead_code)]
    pub(super) terms: &'static str,
}

pub(super) fn chinese() -> Rules {
    Rules {
        repetition: RepetitionRule::Chinese,
        ..Rules::default()
    }
}

fn nature_of(c: char) -> Option<Nature> {
    match c {
        'K' => Some(Nature::Check),
        'M' => Some(Nature::MateThreat),
        'C' => Some(Nature::Chase),
        'I' => Some(Nature::Idle),
        _ => None,
    }
}

/// Plays an example (turned round when `exchanged`) until the game ends;
/// what went wrong, if anything.
fn check(ex: &Example, turned: bool) -> Result<(), String> {
    let tr = |m: &str| if turned { turned_move(m) } else { m.to_owned() };
    let fen = if turned {
        exchanged_fen(ex.fen)
    } else {
        ex.fen.to_owned()
    };
    let mut g = Game::<Position>::from_fen(Some(&fen), chinese()).map_err(|e| e.message)?;
    let prefix: Vec<String> = ex.prefix.split_whitespace().map(tr).collect();
    g.play_all(&prefix, Notation::Iccs)
        .map_err(|e| format!("prefix: {e:?}"))?;
    let cycle: Vec<String> = ex.cycle.split_whitespace().map(tr).collect();
    let first_mover = g.current().side();
    let rounds = if ex.id == "参考图8" { 1 } else { 3 };
    let mut outcome = Outcome::Ongoing;
    'play: for _ in 0..rounds {
        for m in &cycle {
            g.play_all(&[m], Notation::Iccs)
                .map_err(|e| format!("{m}: {e:?}"))?;
            outcome = g.outcome();
            if !outcome.is_ongoing() {
                break 'play;
            }
        }
    }
    let v = outcome
        .verdict()
        .ok_or_else(|| "the game did not end".to_owned())?;
    let (red, black) = if turned {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    let expected = match ex.verdict {
        RedLoses => Some(black),
        BlackLoses => Some(red),
        Drawn => None,
    };
    let report = v.repetition.as_deref().ok_or("no repetition report")?;
    let mut problems = Vec::new();
    if v.winner != expected {
        problems.push(format!(
            "verdict {:?} ({:?}), expected {:?}",
            v.winner, v.reason, ex.verdict
        ));
    }
    if ex.id == "参考图8" && v.reason != Reason::NineForbiddenMoves {
        problems.push(format!("reason {:?}", v.reason));
    }
    // Each side's moves in the span judged, against the book's labels.
    for side in [Color::White, Color::Black] {
        let labels: Vec<Option<Nature>> = ex
            .natures
            .chars()
            .enumerate()
            .filter(|(i, _)| {
                let mover = if i % 2 == 0 {
                    first_mover
                } else {
                    !first_mover
                };
                mover == side
            })
            .map(|(_, c)| nature_of(c))
            .collect();
        let got = &report.conduct[side.index()].natures;
        for (k, n) in got.iter().enumerate() {
            if labels.is_empty() {
                break;
            }
            if let Some(want) = labels[k % labels.len()] {
                if *n != want {
                    problems.push(format!(
                        "{:?} move {} of the span: {:?}, the book says {:?}",
                        if side == red { "Red" } else { "Black" },
                        k + 1,
                        n,
                        want
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// The examples the judge does not yet agree with (in one orientation or
/// both; `docs/rules/xiangqi.md` says so where the code is offered). The
/// test fails when one of them starts to agree (take it off the
/// list) as well as when any other stops agreeing.
const NOT_YET: &[&str] = &[];

#[test]
fn the_rule_books_worked_examples() {
    let mut regressions = Vec::new();
    let mut now_agree = Vec::new();
    let mut agreeing = 0;
    for ex in book() {
        let results: Vec<Result<(), String>> =
            [false, true].iter().map(|&t| check(ex, t)).collect();
        let ok = results.iter().all(Result::is_ok);
        agreeing += usize::from(ok);
        if !ok && std::env::var_os("CHINESE_REPORT").is_some() {
            for r in results.iter().filter_map(|r| r.as_ref().err()) {
                println!("{}: {r}", ex.id);
            }
        }
        match (ok, NOT_YET.contains(&ex.id)) {
            (true, true) => now_agree.push(ex.id),
            (false, false) => {
                for (r, turned) in results.iter().zip([false, true]) {
                    if let Err(e) = r {
                        regressions.push(format!(
                            "{}{}: {e}",
                            ex.id,
                            if turned { " (colours exchanged)" } else { "" }
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    assert!(
        !super::probe::BUDGET_SPENT.with(|spent| spent.get()),
        "a question of the book ran out of its node budget: a verdict would depend on where a search was cut"
    );
    assert!(
        regressions.is_empty(),
        "{} examples stopped agreeing:\n{}",
        regressions.len(),
        regressions.join("\n")
    );
    assert!(
        now_agree.is_empty(),
        "these examples agree now; take them off NOT_YET: {now_agree:?}"
    );
    assert_eq!(agreeing + NOT_YET.len(), book().count());
}

/// Prints what the judge sees in some examples (`CHINESE_EXAMPLE=图2,图3
/// cargo test --release --lib dump_examples -- --ignored --nocapture`).
#[test]
#[ignore = "a debugging aid"]
fn dump_examples() {
    let ids = std::env::var("CHINESE_EXAMPLE").unwrap_or_else(|_| "图2".into());
    for id in ids.split(',') {
        let ex = book().find(|e| e.id == id).expect("an example");
        println!("== {id} {} ({:?}) {}", ex.fen, ex.verdict, ex.terms);
        let mut g = Game::<Position>::from_fen(Some(ex.fen), chinese()).unwrap();
        let prefix = ex.prefix.split_whitespace().count();
        let all: Vec<&str> = ex
            .prefix
            .split_whitespace()
            .chain(ex.cycle.split_whitespace())
            .collect();
        let mut seen: Vec<Position> = Vec::new();
        for (i, m) in all.iter().enumerate() {
            let before = g.current().clone();
            let mv = before.parse_move(m, Notation::Iccs).unwrap();
            let mut after = before.clone();
            after.make(mv);
            let book = i
                .checked_sub(prefix)
                .and_then(|k| ex.natures.chars().nth(k))
                .unwrap_or(' ');
            println!(
                "{} {m} (book {book}) {}",
                if before.side() == Color::White {
                    "Red"
                } else {
                    "Black"
                },
                before.write_move(mv, Notation::Chinese)
            );
            let earlier = i.checked_sub(1).map(|e| &seen[e]);
            println!("{}", super::explain_move(&before, mv, &after, earlier));
            seen.push(before);
            g.play(mv);
        }
    }
}

/// The verdict table, each line beside a one-feature-different one.
#[test]
fn the_verdict_table() {
    use crate::variants::{Conduct, Pattern};
    use Reason::*;
    let side = |natures: &[Nature], joint: bool| Conduct {
        pattern: Pattern::of(natures),
        natures: natures.to_vec(),
        chased: Vec::new(),
        chases: Vec::new(),
        joint,
    };
    // A side's conduct in single chases, and in joint ones.
    let single = |natures: &[Nature]| side(natures, false);
    let joint = |natures: &[Nature]| side(natures, true);
    // The rulings: Red (the first mover) loses by `reason`, or a draw.
    let red = |reason: Reason| (Some(Color::White), reason);
    let drawn = (None, Repetition);
    let (k, m, c, i) = (
        Nature::Check,
        Nature::MateThreat,
        Nature::Chase,
        Nature::Idle,
    );
    let cases: [(Conduct, Conduct, (Option<Color>, Reason)); 12] = [
        // One side forbidden, the other allowed: the forbidden side loses,
        // whatever its mix; one idle move makes a side allowed.
        (single(&[c, c]), single(&[i, c]), red(PerpetualChase)),
        (single(&[c, i]), single(&[i, c]), drawn),
        (single(&[m, m]), single(&[i, i]), red(PerpetualMateThreat)),
        (single(&[k, c]), single(&[i, i]), red(ForbiddenRepetition)),
        (single(&[k, m]), single(&[i, i]), red(ForbiddenRepetition)),
        (single(&[m, c]), single(&[i, i]), red(ForbiddenRepetition)),
        // Both forbidden: a perpetual check loses against any other
        // pattern; both checking is drawn.
        (single(&[k, k]), single(&[c, c]), red(PerpetualCheck)),
        (single(&[k, k]), single(&[k, k]), drawn),
        // Single chases lose against a joint chase, not against another
        // single chase, nor when both are joint, nor against mate threats.
        (single(&[c, c]), joint(&[c, c]), red(PerpetualChase)),
        (single(&[c, c]), single(&[c, c]), drawn),
        (joint(&[c, c]), joint(&[k, c]), drawn),
        (single(&[c, c]), single(&[m, m]), drawn),
    ];
    for (first, second, (loser, reason)) in cases {
        let conduct = [first, second];
        let natures = [&conduct[0].natures, &conduct[1].natures];
        assert_eq!(super::ruling(&conduct), (loser, reason), "{natures:?}");
        // The same with the colours exchanged.
        let swapped = [conduct[1].clone(), conduct[0].clone()];
        assert_eq!(
            super::ruling(&swapped),
            (loser.map(|c| !c), reason),
            "{natures:?}, colours exchanged"
        );
    }
}
