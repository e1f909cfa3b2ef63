use super::features::{feature, Delta, INPUTS};
use super::network::{Accumulator, Network, NetworkError, SplitOutput, MAX_HIDDEN};
use crate::search::Evaluate;
use crate::training::data::{parse_all, Sample};
use crate::training::train::{constant_loss, Config, Model, Trainer};
use crate::variants::xiangqi::{Position, Rules};
use crate::variants::{Color, Variant};

/// A random model whose hidden sums land inside the activation's bend.
fn model(hidden: usize, seed: u64) -> Model {
    let mut m = Model::random(hidden, seed);
    let mut rng = fastrand::Rng::with_seed(seed + 1);
    for b in &mut m.bias {
        *b = rng.f32() * 0.5;
    }
    // Output weights as large as a trained network's.
    for w in &mut m.output {
        *w = rng.f32() * 2.0 - 1.0;
    }
    m.output_bias = 0.05;
    m
}

/// Random legal playouts from the start, `plies` long each (shorter when a
/// game ends), every position along them.
fn positions(games: usize, plies: usize, seed: u64) -> Vec<Position> {
    let rules = Rules::default();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start_position(&rules);
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.usize(..moves.len())]);
            out.push(pos.clone());
        }
    }
    out
}

/// The position with colours exchanged and the board turned over rank by
/// rank (Red's pieces become Black's on the mirrored rank).
fn colour_flipped(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let mut fields = fen.split(' ');
    let board = fields.next().expect("board");
    let side = fields.next().expect("side");
    let swapped =
        crate::search::tests::swap_case(&board.split('/').rev().collect::<Vec<_>>().join("/"));
    let side = if side == "w" { "b" } else { "w" };
    Position::from_fen(&format!("{swapped} {side} - - 0 1"), &Rules::default())
        .expect("flipped FEN")
}

#[test]
fn every_input_of_a_position_is_distinct_and_in_range() {
    for pos in positions(4, 60, 1) {
        for view in [Color::White, Color::Black] {
            let mut seen: Vec<usize> = super::features::pieces(&pos)
                .map(|(s, p)| feature(view, p, s))
                .collect();
            assert!(seen.iter().all(|&f| f < INPUTS));
            let n = seen.len();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(
                seen.len(),
                n,
                "two pieces share an input in {}",
                pos.to_fen()
            );
        }
    }
}

#[test]
fn a_network_file_reads_back_as_written() {
    let net = model(32, 3).quantise().expect("quantises");
    let bytes = net.to_bytes();
    assert_eq!(&bytes[..8], b"ARBXQNN1");
    assert_eq!(Network::from_bytes(&bytes), Ok(net));
}

#[test]
fn layers_of_the_wrong_lengths_are_refused_by_count() {
    let hidden = 16;
    let err = Network::from_parts(
        hidden,
        vec![0; INPUTS * hidden],
        vec![0; hidden],
        vec![0; hidden],
        0,
    )
    .expect_err("half an output layer");
    let expected = INPUTS * hidden + 3 * hidden;
    assert_eq!(
        err,
        NetworkError::Layers {
            found: expected - hidden,
            expected
        }
    );
    assert!(!err.to_string().contains("file"), "{err}");
}

#[test]
fn a_damaged_network_file_is_refused_with_a_reason() {
    let bytes = model(16, 4).quantise().expect("quantises").to_bytes();
    let mut damaged = bytes.clone();
    damaged[1000] ^= 0x10;
    let err = Network::from_bytes(&damaged).expect_err("a flipped bit");
    assert!(matches!(err, NetworkError::Checksum { .. }), "{err:?}");
    assert!(err.to_string().contains("damaged"), "{err}");
    let err = Network::from_bytes(&bytes[..bytes.len() - 10]).expect_err("truncated");
    assert!(matches!(err, NetworkError::Size { .. }), "{err:?}");
    assert!(err.to_string().contains("truncated"), "{err}");
    let err = Network::from_bytes(b"PK\x03\x04 not a network at all").expect_err("another file");
    assert_eq!(err, NetworkError::Magic);
    let mut other = bytes.clone();
    other[16] = 17; // 17 hidden units
    assert_eq!(Network::from_bytes(&other), Err(NetworkError::Hidden(17)));
}

#[test]
fn incremental_accumulators_equal_fresh_ones() {
    let net = model(64, 5).quantise().expect("quantises");
    let h = net.hidden();
    let rules = Rules::default();
    let mut rng = fastrand::Rng::with_seed(9);
    let mut moves = Vec::new();
    let mut captures = 0;
    for _ in 0..6 {
        let mut pos = Position::start_position(&rules);
        let mut acc = Accumulator::default();
        net.refresh(&pos, &mut acc);
        for _ in 0..150 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.usize(..moves.len())];
            let delta = Delta::of(&pos, mv);
            captures += usize::from(delta.captured.is_some());
            let mut child = Accumulator::default();
            net.update(&acc, &delta, &mut child);
            pos.make_move(mv);
            let mut fresh = Accumulator::default();
            net.refresh(&pos, &mut fresh);
            for c in 0..2 {
                assert_eq!(
                    child.halves[c][..h],
                    fresh.halves[c][..h],
                    "after {mv:?} in {}",
                    pos.to_fen()
                );
            }
            assert_eq!(
                net.evaluate(&child, pos.side()),
                net.evaluate_position(&pos)
            );
            acc = child;
        }
    }
    assert!(captures > 20, "the playouts captured only {captures} times");
}

#[test]
fn the_quantised_network_agrees_with_the_float_one() {
    let m = model(64, 6);
    let net = m.quantise().expect("quantises");
    let mut worst = 0f32;
    let mut spread = 0f32;
    for pos in positions(4, 80, 2) {
        let float = m.evaluate(&pos);
        let int = net.evaluate_position(&pos) as f32;
        worst = worst.max((float - int).abs());
        spread = spread.max(float.abs());
    }
    // Each input weight is rounded by up to 1/510, so a hidden sum of 33
    // rows drifts by a few thousandths, and 128 outputs of weights up to 1
    // add that up: a few hundredths of the output's ±5, 2.5 % of the range.
    assert!(
        spread > 500.0,
        "the test network says too little ({spread} cp at most)"
    );
    assert!(
        worst <= 4.0 + spread * 0.025,
        "quantised and float evaluations differ by {worst} cp (range ±{spread} cp)"
    );
}

#[test]
fn the_network_sees_both_colours_alike() {
    let net = model(48, 7).quantise().expect("quantises");
    let mut differ = 0;
    for pos in positions(3, 60, 3) {
        let flipped = colour_flipped(&pos);
        assert_eq!(
            net.evaluate_position(&pos),
            net.evaluate_position(&flipped),
            "{}",
            pos.to_fen()
        );
        differ += usize::from(net.evaluate_position(&pos) != net.evaluate_position(&pos.pass()));
    }
    // The side to move matters (else the test above proves little).
    assert!(
        differ > 100,
        "only {differ} positions changed with the turn"
    );
}

/// The kernels as the search calls them (AVX2 where the processor has it)
/// against plain 64-bit arithmetic written here, on random rows of every
/// length the format allows.
#[test]
fn the_kernels_agree_with_plain_arithmetic() {
    use super::network::kernels;
    let mut rng = fastrand::Rng::with_seed(11);
    for h in (16..=MAX_HIDDEN).step_by(16) {
        let row = |rng: &mut fastrand::Rng, r: i16| -> Vec<i16> {
            (0..h).map(|_| rng.i16(-r..r)).collect()
        };
        let (src, add, sub, sub2) = (
            row(&mut rng, 8000),
            row(&mut rng, 500),
            row(&mut rng, 500),
            row(&mut rng, 500),
        );
        let mut dst = vec![0; h];
        kernels::update(&mut dst, &src, &add, &sub, Some(&sub2));
        for i in 0..h {
            assert_eq!(
                i64::from(dst[i]),
                i64::from(src[i]) + i64::from(add[i]) - i64::from(sub[i]) - i64::from(sub2[i])
            );
        }
        kernels::update(&mut dst, &src, &add, &sub, None);
        for i in 0..h {
            assert_eq!(
                i64::from(dst[i]),
                i64::from(src[i]) + i64::from(add[i]) - i64::from(sub[i])
            );
        }
        let mut acc = src.clone();
        kernels::add(&mut acc, &add);
        for i in 0..h {
            assert_eq!(i64::from(acc[i]), i64::from(src[i]) + i64::from(add[i]));
        }
        let w: Vec<i16> = (0..h).map(|_| rng.i16(..)).collect();
        let acc: Vec<i16> = (0..h).map(|_| rng.i16(-300..300)).collect();
        let plain: i64 = (0..h)
            .map(|i| {
                let v = i64::from(acc[i]).clamp(0, 255);
                v * v * i64::from(w[i])
            })
            .sum();
        assert_eq!(kernels::output(&acc, &w), plain, "{h} units");
        // The split weights (`lo + 128 · hi`) give the same sum, on random
        // weights and on the largest products at every unit, of each sign.
        let split = |w: &[i16]| {
            let s = SplitOutput::new(w).expect("weights within ±16,384 split");
            (s.lo, s.hi)
        };
        assert!(SplitOutput::new(&[16_384]).is_none() && SplitOutput::new(&[-16_385]).is_none());
        let w: Vec<i16> = (0..h).map(|_| rng.i16(-16_384..16_384)).collect();
        let (lo, hi) = split(&w);
        assert_eq!(
            kernels::output_split(&acc, &w, &lo, &hi),
            kernels::output(&acc, &w)
        );
        for extreme in [-16_384, 16_383, -1, 127, -129] {
            let w = vec![extreme; h];
            let (lo, hi) = split(&w);
            let full = vec![i16::MAX; h];
            let expected = 255 * 255 * i64::from(extreme) * h as i64;
            assert_eq!(
                kernels::output_split(&full, &w, &lo, &hi),
                expected,
                "{h} units, {extreme}"
            );
        }
    }
}

#[test]
fn training_data_lines_read_from_the_movers_side_and_mirror() {
    let text = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 | 35 | 1\n\
                3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 | 900 | 0.5\n";
    let samples = parse_all(text, true).expect("reads");
    assert_eq!(samples.len(), 4);
    assert_eq!(
        (samples[0].side, samples[0].score, samples[0].result),
        (Color::Black, -35, 0)
    );
    assert_eq!(
        (samples[2].side, samples[2].score, samples[2].result),
        (Color::White, 900, 1)
    );
    assert_ne!(samples[2].pieces(), samples[3].pieces());
    assert_eq!(samples[3].mirrored(), samples[2]);
    assert!(Sample::parse("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 | x | 1").is_err());
    assert!(Sample::parse("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 | 3 | 2").is_err());
}

#[test]
fn training_learns_a_material_rule_and_resumes_from_a_checkpoint() {
    // Positions scored by a rule the network must find: Red's chariots
    // and horses count, 200 and 100, for the side to move.
    let all = positions(200, 60, 4);
    let samples: Vec<Sample> = all
        .iter()
        .map(|p| {
            let red: i32 = super::features::pieces(p)
                .map(|(_, piece)| match (piece & 7, piece >> 3) {
                    (5, 0) => 200,
                    (5, _) => -200,
                    (4, 0) => 100,
                    (4, _) => -100,
                    _ => 0,
                })
                .sum();
            let mover = if p.side() == Color::White { red } else { -red };
            let result = if mover > 0 {
                2
            } else if mover < 0 {
                0
            } else {
                1
            };
            Sample::new(p, mover as i16, result)
        })
        .collect();
    // Every tenth position held out.
    let test: Vec<Sample> = samples.iter().step_by(10).copied().collect();
    let train: Vec<Sample> = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 10 != 0)
        .map(|(_, s)| *s)
        .collect();
    let (train, test) = (&train[..], &test[..]);
    let config = Config {
        hidden: 16,
        batch: 256,
        lr: 0.01,
        threads: 2,
        ..Config::default()
    };
    let constant = constant_loss(train, test, &config);
    let mut trainer = Trainer::new(config.clone());
    for _ in 0..3 {
        trainer.epoch(train);
    }
    let resumed = Trainer::resume(config.clone(), &trainer.checkpoint()).expect("resumes");
    assert_eq!(resumed.model, trainer.model);
    assert_eq!(resumed.epoch, 3);
    let mut resumed = resumed;
    for _ in 0..5 {
        trainer.epoch(train);
        resumed.epoch(train);
    }
    assert_eq!(
        resumed.model, trainer.model,
        "a resumed run goes on as the run would have"
    );
    let loss = trainer.loss(test);
    assert!(
        loss < constant * 0.1,
        "held-out loss {loss} against {constant} for a constant"
    );
    let other = Config {
        seed: 2,
        ..config.clone()
    };
    let err = Trainer::resume(other, &trainer.checkpoint()).expect_err("another seed");
    assert!(err.contains("another batch, seed"), "{err}");
    let mut damaged = trainer.checkpoint();
    damaged[300] ^= 1;
    assert!(Trainer::resume(config, &damaged).is_err());
}

/// The shipped network reads, is named by the first 12 hexadecimal digits
/// of its SHA-256, has the README beside it name it, takes the fast output
/// layer (its weights split in 16-bit parts), and scores a position
/// with an extra chariot for the side to move well ahead (and the same
/// position with the other side to move well behind).
#[test]
fn the_shipped_network_reads_is_named_by_its_hash_and_sees_material() {
    use sha2::{Digest, Sha256};
    let hex: String = Sha256::digest(super::SHIPPED_BYTES)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(super::SHIPPED_NAME, format!("xiangqi-{}.nnue", &hex[..12]));
    let readme = include_str!("networks/README.md");
    assert!(readme.contains(super::SHIPPED_NAME), "networks/README.md");
    let net = super::shipped();
    assert!(
        net.has_split_output(),
        "the shipped network's output weights split"
    );
    let rules = Rules::default();
    let eval = |fen: &str| {
        let pos = Position::from_fen(fen, &rules).unwrap();
        let mut acc = Accumulator::default();
        pos.refresh_frame(&net, &mut acc);
        pos.evaluate_frame(&rules, &net, &acc)
    };
    // Black's a-file chariot is gone.
    let red_up = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    assert!(eval(&format!("{red_up} w - - 0 1")) > 300);
    assert!(eval(&format!("{red_up} b - - 0 1")) < -300);
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert!(eval(start).abs() < 100, "the start: {}", eval(start));
}
