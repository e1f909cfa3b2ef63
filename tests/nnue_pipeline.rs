//! The network pipeline of issue 31 from scratch, in seconds: self-play
//! positions from the engine, a tiny network trained on them until it beats
//! a constant prediction, quantised, written, read back through the
//! engine's loader and compared with the float network it came from.

use arbiter::search::eval::nnue::Network;
use arbiter::search::Evaluate;
use arbiter::training::data::parse_all;
use arbiter::training::datagen::{generate, rescore, Config as DataConfig, Record};
use arbiter::training::train::{constant_loss, Config, Model, Trainer};
use arbiter::variants::xiangqi::{Notation, Position, Rules};
use arbiter::variants::{Color, Variant};

fn data(games: usize, seed: u64, threads: usize) -> (String, arbiter::training::datagen::Summary) {
    data_with(games, seed, threads, None)
}

fn data_with(
    games: usize,
    seed: u64,
    threads: usize,
    network: Option<std::sync::Arc<Network>>,
) -> (String, arbiter::training::datagen::Summary) {
    let config = DataConfig {
        games,
        nodes: 400,
        seed,
        threads,
        max_plies: 200,
        table_mb: 1,
        network,
        ..DataConfig::default()
    };
    let mut out = Vec::new();
    let summary =
        generate::<Position>(&config, &Rules::default(), &mut out, &mut |_, _| {}).expect("writes");
    (String::from_utf8(out).expect("UTF-8"), summary)
}

#[test]
fn self_play_data_is_reproducible_and_well_formed() {
    let (one, summary) = data(4, 7, 1);
    let (two, _) = data(4, 7, 2);
    assert_eq!(one, two, "the same seed wrote other data with two threads");
    assert_eq!(summary.games, 4);
    assert_eq!(summary.positions, one.lines().count());
    assert!(
        summary.positions > 100,
        "only {} positions",
        summary.positions
    );
    let (other, _) = data(4, 8, 2);
    assert_ne!(one, other, "another seed wrote the same games");
    for line in one.lines() {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        let pos = Position::from_fen(fields[0], &Rules::default()).expect("a legal FEN");
        assert!(!pos.in_check(), "a position in check was kept: {line}");
        let score: i32 = fields[1].parse().expect("a score");
        assert!(
            score.abs() <= arbiter::training::datagen::SCORE_LIMIT,
            "{line}"
        );
        assert!(["1", "0.5", "0"].contains(&fields[2]), "{line}");
    }
}

#[test]
fn self_play_with_the_shipped_network_is_its_own_reproducible_data() {
    let shipped = arbiter::search::eval::nnue::shipped();
    let (one, summary) = data_with(2, 7, 1, Some(shipped.clone()));
    let (two, _) = data_with(2, 7, 2, Some(shipped));
    assert_eq!(one, two, "the network's data differs with two threads");
    assert!(
        summary.positions > 50,
        "only {} positions",
        summary.positions
    );
    let (by_hand, _) = data(2, 7, 1);
    assert_ne!(
        one, by_hand,
        "the network played and scored as the hand-written evaluation"
    );
}

/// A recorded game (ICCS), as `examples/datagen.rs --rescore` reads them.
fn record(moves: &str, winner: Option<Color>, skip: usize) -> Record<Position> {
    let start = Position::start_position(&Rules::default());
    let mut pos = start.clone();
    let moves = moves
        .split_whitespace()
        .map(|m| {
            let mv = pos.parse_move(m, Notation::Iccs).expect("a legal move");
            pos.make_move(mv);
            mv
        })
        .collect();
    Record {
        start,
        moves,
        winner,
        skip,
    }
}

#[test]
fn recorded_games_are_scored_with_their_own_results() {
    let records = [
        // Two plies left out, then six positions scored (none in check).
        record(
            "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9",
            Some(Color::Black),
            2,
        ),
        record("b2e2 b9c7 b0c2 h9g7", None, 0),
    ];
    let score = |threads| {
        let config = DataConfig {
            nodes: 300,
            threads,
            table_mb: 1,
            ..DataConfig::default()
        };
        let mut out = Vec::new();
        let summary = rescore::<Position>(
            &config,
            &Rules::default(),
            &records,
            &mut out,
            &mut |_, _| {},
        )
        .expect("writes");
        (String::from_utf8(out).expect("UTF-8"), summary)
    };
    let (text, summary) = score(1);
    assert_eq!(score(2).0, text, "two threads wrote other lines");
    assert_eq!(summary.games, 2);
    assert_eq!(summary.results, [0, 1, 1]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(summary.positions, lines.len());
    // Every kept position is one of the records' (after the skipped plies),
    // in order, with its record's result; quiet best moves only, so a few
    // may be left out.
    let mut expected = Vec::new();
    for r in &records {
        let mut pos = r.start.clone();
        for (ply, &mv) in r.moves.iter().enumerate() {
            if ply >= r.skip {
                let result = match r.winner {
                    Some(Color::White) => "1",
                    None => "0.5",
                    Some(Color::Black) => "0",
                };
                expected.push((pos.to_fen(), result));
            }
            pos.make_move(mv);
        }
    }
    assert!(lines.len() >= 8 && lines.len() <= expected.len(), "{text}");
    let mut at = expected.iter();
    for line in &lines {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert!(
            at.any(|(fen, result)| fen == fields[0] && *result == fields[2]),
            "{line} is not a record's position, in order, with its result"
        );
        fields[1].parse::<i32>().expect("a score");
    }
}

#[test]
fn a_tiny_network_learns_from_self_play_and_loads_in_the_engine() {
    let (text, summary) = data(24, 1, 2);
    assert!(summary.positions > 2_000, "{summary:?}");
    // Scores are Red's: where the hand-written evaluation sees one side well
    // ahead, the search's score mostly agrees in sign, whoever is to move.
    let mut agree = [[0usize; 2]; 2];
    for line in text.lines() {
        let fields: Vec<&str> = line.split(" | ").collect();
        let pos = Position::from_fen(fields[0], &Rules::default()).expect("a FEN");
        let red = arbiter::search::eval::xiangqi::evaluate_red(&pos);
        let score: i32 = fields[1].parse().expect("a score");
        if red.abs() >= 300 && score.abs() >= 100 {
            let side = usize::from(pos.side_to_move() == arbiter::variants::Color::Black);
            agree[side][usize::from(red.signum() == score.signum())] += 1;
        }
    }
    for (side, [no, yes]) in agree.iter().enumerate() {
        assert!(
            no + yes >= 20 && *yes >= 4 * no,
            "side {side} to move: {yes} agree, {no} not"
        );
    }
    let samples = parse_all(&text, true).expect("the generated lines parse");
    // Every tenth position (and its reflection) held out: positions of the
    // same games, as few games as these cannot spare whole ones.
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, pair) in samples.chunks(2).enumerate() {
        if i % 10 == 9 { &mut test } else { &mut train }.extend_from_slice(pair);
    }
    let (train, test) = (&train[..], &test[..]);
    let config = Config {
        hidden: 16,
        batch: 512,
        lr: 0.005,
        threads: 2,
        ..Config::default()
    };
    let constant = constant_loss(train, test, &config);
    let mut trainer = Trainer::new(config);
    let mut loss = f32::MAX;
    for _ in 0..40 {
        trainer.epoch(train);
        loss = trainer.loss(test);
        if loss < constant * 0.8 {
            break;
        }
    }
    assert!(
        loss < constant * 0.8,
        "held-out loss {loss} against {constant} for a constant prediction"
    );

    let bytes = trainer.model.quantise().expect("quantises").to_bytes();
    let net = Network::from_bytes(&bytes).expect("the engine's loader reads it");
    let (mut worst, mut spread) = (0f32, 0f32);
    for line in text.lines().step_by(7) {
        let fen = line.split(" | ").next().expect("a FEN");
        let pos = Position::from_fen(fen, &Rules::default()).expect("a FEN");
        let float = trainer.model.evaluate(&pos);
        worst = worst.max((float - net.evaluate_position(&pos) as f32).abs());
        spread = spread.max(float.abs());
    }
    assert!(
        spread > 100.0,
        "the trained network says too little (±{spread} cp at most)"
    );
    assert!(
        worst <= 4.0 + spread * 0.01,
        "quantised and float evaluations differ by {worst} cp (range ±{spread} cp)"
    );
}

#[test]
fn a_trained_network_is_the_start_of_the_next_run() {
    // The shipped network read back into floating point: quantised again
    // it is the same file, it evaluates as the engine does, and a run
    // starts from it with the hidden size it has and no other.
    let shipped = Position::shipped_network().expect("a network is embedded");
    let model = Model::from_network(&shipped);
    assert_eq!(
        model.quantise().expect("quantises").to_bytes(),
        shipped.to_bytes(),
        "the round trip changes the network"
    );
    let rules = Rules::default();
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "1rb3RC1/3kac3/4c4/p1p6/4p4/8P/P1P1P1P2/N8/4A4/2BAK1BN1 w - - 1 17",
        "3k5/9/9/4R4/9/9/5n3/9/4K4/9 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen, &rules).expect("a FEN");
        let float = model.evaluate(&pos);
        let int = shipped.evaluate_position(&pos) as f32;
        assert!(
            (float - int).abs() <= 4.0 + int.abs() * 0.01,
            "{fen}: {float} against {int}"
        );
    }
    let config = Config {
        hidden: shipped.hidden(),
        ..Config::default()
    };
    let trainer = Trainer::from_model(config.clone(), model.clone()).expect("the same size");
    assert_eq!(trainer.model, model);
    let other = Config {
        hidden: 16,
        ..config
    };
    let refused = Trainer::from_model(other, model).expect_err("another size");
    assert!(refused.contains("16"), "{refused}");
}
