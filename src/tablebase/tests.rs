//! Tables generated small and checked against known endings.

use super::*;
use crate::variants::xiangqi::Position;
use crate::variants::Variant;

fn fen(f: &str) -> Position {
    Position::from_fen(f, &Default::default()).unwrap()
}

fn tables(names: &[&str]) -> Tables {
    let set: Vec<Material> = names.iter().map(|n| Material::parse(n).unwrap()).collect();
    let mut t = Tables::new();
    t.generate_set(&set, |table, took| {
        eprintln!(
            "{}: {} positions a side, {:?}, {:?}",
            table.material(),
            table.size(),
            table.census(),
            took
        )
    })
    .unwrap();
    t
}

#[test]
fn single_pieces_against_the_bare_general() {
    let t = tables(&["KRk", "KNk", "KCk", "KPk", "KAk", "KBk"]);
    let win = |f: &str| matches!(t.probe(&fen(f)), Some(Entry::Win(Distance::Mate(_))));
    // The chariot mates on the d file, the generals' facing rule taking
    // the e file: mate in one.
    assert_eq!(
        t.probe(&fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1")),
        Some(Entry::Win(Distance::Mate(1)))
    );
    // The same with the colours exchanged: Black's chariot, the table
    // read turned over.
    assert_eq!(
        t.probe(&fen("4k4/r8/9/9/9/9/9/9/9/3K5 b - - 0 1")),
        Some(Entry::Win(Distance::Mate(1)))
    );
    // Mated: the side to move loses at 0.
    assert_eq!(
        t.probe(&fen("3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1")),
        Some(Entry::Loss(Distance::Mate(0)))
    );
    assert!(win("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1"));
    assert!(win("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1"));
    // Bare generals draw; a cannon alone cannot mate.
    assert_eq!(
        t.probe(&fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")),
        Some(Entry::Draw(Chase::Free))
    );
    assert_eq!(
        t.get(Material::parse("KCk").unwrap())
            .unwrap()
            .census()
            .mates,
        0
    );
}

/// A cannon with an advisor of its own beats the bare general (the
/// manuals' 炮仕必胜单将): the advisor is the screen the lone cannon lacks.
/// In `KCAk`, a table of the defended set, every legal position with Red
/// to move is a Red win by mate.
#[test]
fn a_cannon_with_an_advisor_beats_the_bare_general() {
    let t = tables(&["KCAk"]);
    let kcak = t.get(Material::parse("KCAk").unwrap()).unwrap();
    let (mut wins, mut longest, mut other) = (0, 0, Vec::new());
    for i in 0..kcak.size() {
        match kcak.at(crate::variants::Color::White, i) {
            (_, Entry::Illegal) => {}
            (_, Entry::Win(Distance::Mate(n))) => {
                wins += 1;
                longest = longest.max(n);
            }
            (pos, e) => other.push((pos.map(|p| p.to_fen()), e)),
        }
    }
    assert!(
        other.is_empty(),
        "not won: {:?}",
        &other[..other.len().min(5)]
    );
    assert!(wins > 20_000, "{wins}");
    assert!(crate::tablebase::defended_set().contains(&kcak.material()));
    // The longest of those mates, 17 plies (9 moves), as Felicity EGTB's
    // data has it for this position (docs/tablebases.md: every position of
    // the 72 endings it shares with ours agrees).
    assert_eq!(longest, 17);
    assert_eq!(
        t.probe(&fen("3C5/3k5/9/9/9/9/9/3A5/9/3K5 w - - 0 1")),
        Some(Entry::Win(Distance::Mate(17)))
    );
}

#[test]
fn files_and_bundles_read_back() {
    let t = tables(&["KRk"]);
    let krk = t.get(Material::parse("KRk").unwrap()).unwrap();
    let back = Table::from_bytes(&krk.to_bytes()).unwrap();
    assert_eq!(back.values, krk.values);
    // A damaged byte is refused, never half read.
    let mut bytes = krk.to_bytes();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x55;
    assert!(Table::from_bytes(&bytes).is_err());
    let files: Vec<Vec<u8>> = t
        .materials()
        .iter()
        .map(|&m| t.get(m).unwrap().to_bytes())
        .collect();
    let bundle: &'static [u8] = bundle(&files).leak();
    let read = Tables::from_bundle(bundle).unwrap();
    assert_eq!(read.materials(), t.materials());
    let pos = fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    assert_eq!(read.probe(&pos), t.probe(&pos));
}

/// The default set built into the binary is what the generator makes
/// (every table made again and compared code by code) and holds every
/// table its endings need.
#[test]
fn the_built_in_default_set_is_the_generators() {
    let built = default_tables();
    let wanted = default_materials();
    assert_eq!(built.materials().len(), wanted.len());
    let mut made = Tables::new();
    made.generate_set(&default_set(), |table, _| {
        let kept = built.get(table.material()).expect("in the bundle");
        assert!(kept.values == table.values, "{} differs", table.material());
    })
    .unwrap();
}

/// Chariot against horse: the horse's side, to move, loses by mate after
/// any quiet move and can hold out only by checking for ever, which the
/// rule forbids: lost under the rule, and every move it has that is not
/// mated is a check.
#[test]
fn a_side_that_can_only_check_for_ever_loses() {
    let t = tables(&["KRkn"]);
    let pos = fen("9/9/4k4/9/9/9/9/3n5/9/R2K5 b - - 0 1");
    assert_eq!(t.probe(&pos), Some(Entry::Loss(Distance::Rule(0))));
    let probed = t.probe_moves(&pos).unwrap();
    let mut checks = 0;
    for m in &probed.moves {
        let mut after = pos.clone();
        after.make(m.mv);
        let check = after.general_attacked(after.side());
        match m.entry {
            Entry::Loss(Distance::Mate(_)) => {}
            Entry::Loss(Distance::Rule(_)) => {
                assert!(check, "{:?} is quiet", m.mv);
                checks += 1;
            }
            e => panic!("{:?} gives {e:?}", m.mv),
        }
    }
    assert!(checks > 0);
    // The other side wins under the rule; the census counts such entries.
    assert!(
        t.get(Material::parse("KRkn").unwrap())
            .unwrap()
            .census()
            .rule
            > 0
    );
}

/// Whether the side to move mates (or stalemates) within `plies` (odd),
/// by plain search over the legal moves: nothing of the generator's.
fn mates_within(pos: &mut Position, plies: u32) -> bool {
    let mut moves = Vec::new();
    pos.legal(&mut moves);
    moves.into_iter().any(|m| {
        let undo = pos.make(m);
        let mut replies = Vec::new();
        pos.legal(&mut replies);
        let wins = replies.is_empty()
            || (plies >= 3
                && replies.into_iter().all(|r| {
                    let undo = pos.make(r);
                    let w = mates_within(pos, plies - 2);
                    pos.unmake(r, undo);
                    w
                }));
        pos.unmake(m, undo);
        wins
    })
}

/// Short mates against plain search: in sampled positions of several
/// tables, a win in n ≤ 3 plies is a mate search finds in n and not
/// sooner, and every other entry (draws, losses, longer wins, wins under
/// the rule) has no mate within 3.
#[test]
fn short_mates_agree_with_plain_search() {
    let names = [
        "KRk", "KNk", "KPk", "KCk", "KRkaa", "KNka", "KRkn", "KCkaa", "KNPk",
    ];
    let t = tables(&names);
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for name in names {
        let table = t.get(Material::parse(name).unwrap()).unwrap();
        let layout = Layout::new(table.material());
        let (mut short, mut other, mut tries) = (0, 0, 0);
        while (short < 40 || other < 40) && tries < 200_000 {
            tries += 1;
            let side = if next() % 2 == 0 {
                crate::variants::Color::White
            } else {
                crate::variants::Color::Black
            };
            let i = next() % layout.size();
            let entry = Entry::of(table.values[side.index()][i as usize]);
            let Some(mut pos) = layout.decode(i).position(side) else {
                continue;
            };
            match entry {
                Entry::Illegal => continue,
                Entry::Win(Distance::Mate(n)) if n <= 3 => {
                    if short >= 40 {
                        continue;
                    }
                    short += 1;
                    assert!(
                        mates_within(&mut pos, n as u32),
                        "{name} {}: {entry:?}",
                        pos.to_fen()
                    );
                    if n == 3 {
                        assert!(
                            !mates_within(&mut pos, 1),
                            "{name} {}: {entry:?}",
                            pos.to_fen()
                        );
                    }
                }
                _ => {
                    if other >= 40 {
                        continue;
                    }
                    other += 1;
                    assert!(
                        !mates_within(&mut pos, 3),
                        "{name} {}: {entry:?}",
                        pos.to_fen()
                    );
                }
            }
        }
        assert!(other >= 40, "{name}: {other} positions beside short mates");
        // Every table but the lone cannon's (which has no win) shows some.
        if name != "KCk" {
            assert!(short > 0, "{name}: no short mate sampled");
        }
    }
}

/// The rule option `tablebase_adjudication` through the rules core's hook,
/// under each repetition code, and what the rules come first with.
#[test]
fn the_rule_option_asks_the_installed_tables() {
    use crate::variants::xiangqi::{RepetitionRule, Rules, TablebaseAdjudication as By};
    use crate::variants::{Color, Game, Reason};
    adjudicate_with_installed();
    let verdict = |f: &str, by: By, repetition: RepetitionRule| {
        let rules = Rules {
            tablebase_adjudication: by,
            repetition,
            ..Rules::default()
        };
        Game::<Position>::from_fen(Some(f), rules)
            .unwrap()
            .outcome()
            .verdict()
            .map(|v| (v.winner, v.reason))
    };
    let won = "4k4/4a4/9/9/9/9/9/9/9/3K2N2 w - - 0 1";
    let drawn = "3ak4/4a4/9/9/9/9/9/9/4N4/3K5 w - - 0 1";
    let by_rule = "9/9/4k4/9/9/9/9/3n5/9/R2K5 b - - 0 1";
    let asian = RepetitionRule::Asian;
    assert_eq!(verdict(won, By::None, asian), None);
    assert_eq!(verdict(won, By::Draws, asian), None);
    let red_wins = Some((Some(Color::White), Reason::TablebaseWin));
    let drawn_by = Some((None, Reason::TablebaseDraw));
    assert_eq!(verdict(won, By::All, asian), red_wins);
    assert_eq!(verdict(drawn, By::None, asian), None);
    assert_eq!(verdict(drawn, By::Draws, asian), drawn_by);
    assert_eq!(verdict(drawn, By::All, RepetitionRule::Chinese), drawn_by);
    assert_eq!(verdict(by_rule, By::All, asian), red_wins);
    assert_eq!(verdict(by_rule, By::All, RepetitionRule::Chinese), red_wins);
    assert_eq!(verdict(by_rule, By::All, RepetitionRule::None), drawn_by);
    // A win (in 35 plies) the move limit would cut is not adjudicated;
    // nor, under the Chinese code, one the nine-move rule could judge.
    let limited = Rules {
        tablebase_adjudication: By::All,
        move_limit_plies: 30,
        ..Rules::default()
    };
    let game = Game::<Position>::from_fen(Some(won), limited).unwrap();
    assert!(game.outcome().is_ongoing());
    assert_eq!(verdict(won, By::All, RepetitionRule::Chinese), None);
    // Bare generals: the rules' own ending comes first.
    assert_eq!(
        verdict("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", By::All, asian),
        Some((None, Reason::InsufficientMaterial))
    );
    // Mated: the mate, not the tables.
    assert_eq!(
        verdict("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1", By::All, asian).map(|v| v.1),
        Some(Reason::Checkmate)
    );
}

/// What the search may take from the tables under the rules: all of it
/// under the Asian code; a win by the rule is a draw without repetition
/// rules; nothing the move limit or the Chinese nine-move rule could cut.
#[test]
fn probes_under_rules() {
    use crate::variants::xiangqi::{RepetitionRule, Rules};
    let won = fen("4k4/4a4/9/9/9/9/9/9/9/3K2N2 w - - 0 1");
    let entry = won.probe_entry().unwrap();
    let Entry::Win(Distance::Mate(n)) = entry else {
        panic!("{entry:?}")
    };
    let rules = |repetition, move_limit_plies| Rules {
        repetition,
        move_limit_plies,
        ..Rules::default()
    };
    assert_eq!(
        won.probe_under(&rules(RepetitionRule::Asian, 100)),
        Some(entry)
    );
    assert_eq!(
        won.probe_under(&rules(RepetitionRule::Asian, 0)),
        Some(entry)
    );
    let limit = u32::from(n);
    assert_eq!(
        won.probe_under(&rules(RepetitionRule::Asian, limit)),
        Some(entry)
    );
    assert_eq!(
        won.probe_under(&rules(RepetitionRule::Asian, limit - 1)),
        None
    );
    let chinese = won.probe_under(&rules(RepetitionRule::Chinese, 100));
    assert_eq!(chinese, (n <= super::set::NINE_MOVES).then_some(entry));
    let by_rule = fen("9/9/4k4/9/9/9/9/3n5/9/R2K5 b - - 0 1");
    assert!(matches!(
        by_rule.probe_under(&rules(RepetitionRule::Asian, 100)),
        Some(Entry::Loss(Distance::Rule(_)))
    ));
    assert_eq!(
        by_rule.probe_under(&rules(RepetitionRule::None, 100)),
        Some(Entry::Draw(Chase::Free))
    );
    // The start position is in no table.
    assert_eq!(
        Position::start_position(&Rules::default()).probe_tables(),
        None
    );
}

/// The search takes the tables' exact result where a capture leads into
/// them: a mate it could not see at depth 2, and not without the tables.
#[test]
fn the_search_takes_the_tables_result() {
    use crate::search::{search, Control, Limits, Score};
    use crate::variants::Game;
    let start = fen("4k4/4a4/9/9/9/9/9/5r3/9/3K2N2 w - - 0 1");
    let game = Game::new(start.clone(), Default::default());
    let run = |tablebases: bool| {
        let limits = Limits {
            depth: Some(2),
            multipv: 1,
            threads: 1,
            tablebases,
            ..Limits::default()
        };
        search(&game, &limits, &Control::default(), 1 << 16, None).unwrap()
    };
    let with = run(true);
    // The capture, then the tables' mate: its distance plus the capture.
    let mut after = start.clone();
    after.make_move(with.best_move);
    let Some(Entry::Loss(Distance::Mate(n))) = after.probe_entry() else {
        panic!("the capture leads into a won table")
    };
    assert_eq!(with.lines[0].score, Score::Mate((i32::from(n) + 2) / 2));
    assert!(matches!(run(false).lines[0].score, Score::Cp(_)));
}

/// The verification pass holds each draw's chase mark against its
/// children: a plain draw marked as one the side to move must keep by
/// chasing, or from which it forces the other side to chase, is refused,
/// the error naming a position and a chase mark.
#[test]
fn a_wrong_chase_mark_is_refused() {
    let t = tables(&["KRkr"]);
    let material = Material::parse("KRkr").unwrap();
    let table = t.get(material).unwrap();
    assert_eq!(table.census().chase, 0);
    verify::verify(table, &t).unwrap();
    let i = table.values[0]
        .iter()
        .position(|&c| c == entry::DRAW)
        .unwrap();
    for code in [entry::CHASE_MUST, entry::CHASE_FORCES] {
        let mut values = table.values.clone();
        values[0][i] = code;
        match verify::verify(&Table::new(material, values), &t) {
            // The entry itself, and the positions whose moves lead to it
            // (their marks no longer match their children).
            Err(GenerateError::Unverified { count, first, .. }) => {
                assert!(count >= 1);
                assert!(
                    first.contains("Must") || first.contains("Forces"),
                    "{first}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}

/// The greatest fixed point both the perpetual-check rule and the chase
/// marks are: a position goes when one of its onward positions has no
/// answer back into what is left, and its going can take others with it
/// in later rounds.
#[test]
fn the_largest_closed_set_is_found_round_by_round() {
    use std::collections::BTreeMap;
    // Position i leads to the onward positions listed; an onward position
    // c answers into `into[c]`.
    let set: BTreeMap<u64, Vec<u64>> =
        BTreeMap::from([(1, vec![10]), (2, vec![20]), (3, vec![30, 10]), (4, vec![])]);
    let answers = |into: BTreeMap<u64, u64>| {
        move |c: u64, set: &BTreeMap<u64, Vec<u64>>| set.contains_key(&into[&c])
    };
    // 30 answers only into 5 (never in the set): 3 goes; 1 and 2 hold each
    // other; 4 has nothing onward and stays.
    let kept = work::largest_closed(
        set.clone(),
        answers(BTreeMap::from([(10, 2), (20, 1), (30, 5)])),
    );
    assert_eq!(kept.keys().copied().collect::<Vec<_>>(), [1, 2, 4]);
    // 20 answers only into 3: 3 goes first, then 2, then 1.
    let kept = work::largest_closed(set, answers(BTreeMap::from([(10, 2), (20, 3), (30, 5)])));
    assert_eq!(kept.keys().copied().collect::<Vec<_>>(), [4]);
}

/// A draw that may rest on a chase is left to the game under either
/// repetition code and is a plain draw without repetition rules.
#[test]
fn chase_marked_draws_under_the_rules() {
    use crate::variants::xiangqi::{RepetitionRule, Rules};
    let rules = |repetition| Rules {
        repetition,
        ..Rules::default()
    };
    for chase in [Chase::Must, Chase::Forces] {
        let entry = Entry::Draw(chase);
        for code in [RepetitionRule::Asian, RepetitionRule::Chinese] {
            assert_eq!(set::under_rules(entry, 0, &rules(code)), None);
        }
        assert_eq!(
            set::under_rules(entry, 0, &rules(RepetitionRule::None)),
            Some(entry)
        );
    }
    let free = Entry::Draw(Chase::Free);
    assert_eq!(
        set::under_rules(free, 0, &rules(RepetitionRule::Asian)),
        Some(free)
    );
}
