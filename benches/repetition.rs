//! Adjudicating long games full of repetitions: the whole replay of a record
//! (every move checked, the result tested after each) plus the final verdict,
//! under the Asian rules and under the Chinese rules; and the search's speed
//! from the start under each code.
//!
//! `cargo bench --bench repetition`

use std::hint::black_box;

use arbiter::search::{self, Control, Limits};
use arbiter::variants::xiangqi::{Kind, Notation, Position, RepetitionRule, Rules, START_FEN};
use arbiter::variants::{Game, Variant};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// How often the position after `m` has already stood in the game.
fn seen_after(game: &Game<Position>, m: arbiter::variants::xiangqi::Move) -> usize {
    let mut next = game.current().clone();
    next.make_move(m);
    game.positions()
        .iter()
        .filter(|p| p.same_placement(&next))
        .count()
}

/// A game of `plies` plies full of repetitions: most moves go back to a
/// position that has stood once (making it stand twice), never to one that
/// has stood twice, so the game goes on to the end.
fn shuffling_game(plies: usize) -> Vec<String> {
    let mut state = 0x9E37_79B9_7F4A_7C15;
    let mut game = Game::<Position>::from_fen(Some(START_FEN), no_limit()).unwrap();
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < plies {
        game.current().legal_moves(&mut moves);
        let pos = game.current();
        let quiet = |m: &arbiter::variants::xiangqi::Move| pos.kind_at(m.to).is_none();
        // Chariots, cannons, advisors and generals can step straight back.
        let reversible = |m: &arbiter::variants::xiangqi::Move| {
            matches!(
                pos.kind_at(m.from),
                Some((
                    _,
                    Kind::Chariot | Kind::Cannon | Kind::Advisor | Kind::General
                ))
            )
        };
        let seen: Vec<usize> = moves.iter().map(|&m| seen_after(&game, m)).collect();
        let pick = |filter: &dyn Fn(usize) -> bool| -> Vec<arbiter::variants::xiangqi::Move> {
            moves
                .iter()
                .zip(&seen)
                .filter(|(m, &n)| filter(n) && quiet(m))
                .map(|(m, _)| *m)
                .collect()
        };
        let mut candidates = pick(&|n| n == 1);
        if candidates.is_empty() && game.moves().len() >= 2 {
            // Step back with the piece moved last time.
            let mine = game.moves()[game.moves().len() - 2];
            candidates = moves
                .iter()
                .zip(&seen)
                .filter(|(m, &n)| m.from == mine.to && m.to == mine.from && n < 2)
                .map(|(m, _)| *m)
                .collect();
        }
        if candidates.is_empty() {
            candidates = pick(&|n| n == 0)
                .into_iter()
                .filter(|m| reversible(m))
                .collect();
        }
        if candidates.is_empty() {
            candidates = pick(&|n| n < 2);
        }
        if candidates.is_empty() {
            candidates = moves
                .iter()
                .zip(&seen)
                .filter(|(_, &n)| n < 2)
                .map(|(m, _)| *m)
                .collect();
        }
        let m = candidates[(next(&mut state) % candidates.len() as u64) as usize];
        out.push(game.current().write_move(m, Notation::Iccs));
        game.play(m);
    }
    assert!(game.outcome().is_ongoing());
    let positions = game.positions();
    let twice = positions
        .iter()
        .filter(|p| positions.iter().filter(|q| q.same_placement(p)).count() == 2)
        .count();
    eprintln!("{twice} of {} positions stand twice", positions.len());
    assert!(
        twice * 2 >= positions.len(),
        "the game is full of repetitions"
    );
    out
}

/// Without the move limit, 300 plies without a capture are a legal game, and
/// every ply's repetition scan looks back over the whole game (the worst case).
fn no_limit() -> Rules {
    Rules {
        move_limit_plies: 0,
        ..Rules::default()
    }
}

/// The rules with the Chinese repetition code.
fn chinese(rules: Rules) -> Rules {
    Rules {
        repetition: RepetitionRule::Chinese,
        ..rules
    }
}

fn repetition(c: &mut Criterion) {
    let record = shuffling_game(300);
    let mut group = c.benchmark_group("xiangqi-adjudicate");
    group.throughput(Throughput::Elements(record.len() as u64));
    group.bench_function("replay-and-adjudicate-300-plies", |b| {
        b.iter(|| {
            let mut game = Game::<Position>::from_fen(None, no_limit()).unwrap();
            game.play_all(black_box(&record), Notation::Iccs).unwrap();
            game.outcome()
        })
    });
    // The verdict itself: a perpetual chase found and explained.
    let chase: Vec<String> = ["a7b7", "a2b2", "b7a7", "b2a2"]
        .repeat(2)
        .into_iter()
        .map(String::from)
        .collect();
    group.throughput(Throughput::Elements(chase.len() as u64));
    group.bench_function("perpetual-chase-verdict-8-plies", |b| {
        b.iter(|| {
            let mut game = Game::<Position>::from_fen(
                Some("4k4/9/r8/9/NN7/9/9/C8/9/3K5 b - - 0 1"),
                Rules::default(),
            )
            .unwrap();
            game.play_all(black_box(&chase), Notation::Iccs).unwrap();
            game.outcome()
        })
    });
    // The Chinese rules: the same record, every move's nature judged where
    // a position stands for the third time (it never does here: the cost is
    // the replay's), and the rule book's longest worked example (图29: a
    // six-move cycle after one move, ruled at the third occurrence).
    group.throughput(Throughput::Elements(record.len() as u64));
    group.bench_function("chinese-replay-and-adjudicate-300-plies", |b| {
        b.iter(|| {
            let mut game = Game::<Position>::from_fen(None, chinese(no_limit())).unwrap();
            game.play_all(black_box(&record), Notation::Iccs).unwrap();
            game.outcome()
        })
    });
    let cycle = ["h9i9", "h3i3", "i9g9", "i3g3", "g9h9", "g3h3"];
    let longest: Vec<String> = std::iter::once("i3h3")
        .chain(cycle.repeat(2))
        .map(String::from)
        .collect();
    group.throughput(Throughput::Elements(longest.len() as u64));
    group.bench_function("chinese-verdict-longest-book-example-13-plies", |b| {
        b.iter(|| {
            let mut game = Game::<Position>::from_fen(
                Some("2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1"),
                chinese(Rules::default()),
            )
            .unwrap();
            game.play_all(black_box(&longest), Notation::Iccs).unwrap();
            let outcome = game.outcome();
            assert!(outcome.repetition().is_some(), "a repetition verdict");
            outcome
        })
    });
    group.finish();
}

/// The search from the start for a fixed number of nodes under each
/// repetition code: the throughput is nodes a second.
fn search_by_code(c: &mut Criterion) {
    const NODES: u64 = 400_000;
    let mut group = c.benchmark_group("xiangqi-search-by-code");
    group.sample_size(10);
    for (name, rules) in [
        ("asian", Rules::default()),
        ("chinese", chinese(Rules::default())),
    ] {
        let game = Game::<Position>::from_fen(None, rules).unwrap();
        let limits = Limits {
            nodes: Some(NODES),
            ..Limits::default()
        };
        let run = || {
            search::search(&game, &limits, &Control::default(), 1 << 20, None)
                .expect("a move")
                .nodes
        };
        group.throughput(Throughput::Elements(run()));
        group.bench_function(format!("{name}-{NODES}-nodes-from-the-start"), |b| {
            b.iter(run)
        });
    }
    group.finish();
}

/// A Big5 archive of 208 real computer games (tandem moves written by
/// their file, long shuffles, perpetual chases), each replayed and
/// adjudicated as `adjudicate/batch` does (every move checked, the verdict
/// after each, play on past the end), under each repetition code. The
/// Chinese code's remembered move natures are forgotten before each pass,
/// so every pass is a cold start as a new archive would be.
fn real_archive(c: &mut Criterion) {
    let bytes = include_bytes!("../tests/data/records/ccpd-computer.big5.pgn");
    let records: Vec<arbiter::pgn::Record> = arbiter::pgn::read_bytes(bytes, false, None)
        .unwrap()
        .games
        .into_iter()
        .filter_map(|g| g.record.ok())
        .collect();
    let plies: usize = records.iter().map(|r| r.moves.len()).sum();
    let mut group = c.benchmark_group("xiangqi-real-archive");
    group.sample_size(10);
    group.throughput(Throughput::Elements(plies as u64));
    for (name, rules) in [
        ("asian", Rules::default()),
        ("chinese", chinese(Rules::default())),
    ] {
        group.bench_function(format!("{name}-208-big5-games"), |b| {
            b.iter(|| {
                arbiter::variants::xiangqi::forget_judgements();
                let mut ended = 0;
                for r in &records {
                    let mut game = Game::<Position>::from_fen(r.fen(), rules.clone()).unwrap();
                    if game
                        .play_past_end(&r.move_texts(), Notation::Chinese)
                        .is_ok()
                    {
                        ended += usize::from(!game.outcome().is_ongoing());
                    }
                }
                black_box(ended)
            })
        });
    }
    group.finish();
}

/// `legal-moves` at a repetition under the Chinese code, cold: four
/// master games cut just before the move that completes a repetition (the
/// slowest of 550 such positions in 6,000 real games), each replayed,
/// then every legal move asked what it would complete — what the endpoint
/// does beyond the replay. The judge's memories are forgotten first.
fn legal_moves_at_repetition(c: &mut Criterion) {
    let cuts = include_str!("../tests/data/records/ccpd-master-repetitions.txt");
    let games: Vec<Game<Position>> = cuts
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').collect();
            let mut game =
                Game::<Position>::from_fen(Some(fields[0]), chinese(Rules::default())).unwrap();
            for m in fields[1].split_whitespace() {
                let mv = game.current().parse_move(m, Notation::Iccs).unwrap();
                game.play(mv);
            }
            game
        })
        .collect();
    let mut group = c.benchmark_group("xiangqi-legal-moves-at-repetition");
    group.sample_size(20);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("chinese-4-master-games-cold", |b| {
        b.iter(|| {
            arbiter::variants::xiangqi::forget_judgements();
            let mut marks = 0;
            let mut moves = Vec::new();
            for game in &games {
                game.current().legal_moves(&mut moves);
                marks += moves
                    .iter()
                    .filter(|&&m| game.repetition_verdict_after(m).is_some())
                    .count();
            }
            assert_eq!(marks, games.len());
            black_box(marks)
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    repetition,
    search_by_code,
    real_archive,
    legal_moves_at_repetition
);
criterion_main!(benches);
