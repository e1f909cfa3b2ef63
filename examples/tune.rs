//! Fits the Xiangqi evaluation's weights to games with known results
//! (Texel's method; not run in CI):
//!
//! ```text
//! cargo run --release --example tune -- GAMES.jsonl [MORE.jsonl ...] [--epochs 400] \
//!     [--out src/search/eval/xiangqi_weights.rs] [--rate 2] [--l2 0]
//! ```
//!
//! `GAMES.jsonl` holds one game a line: `{"fen", "moves" (ICCS),
//! "result" ("1-0", "0-1", "1/2-1/2"), "termination", "random_plies"}`
//! (the format of the self-play data described in `docs/engine.md`). Every
//! position after the random opening plies, not in check and with no
//! capture that wins material, is a sample labelled with its game's result.
//! The model is the evaluation itself: each term's count, from
//! `search::eval::xiangqi::terms`, times its middlegame and endgame weights
//! blended by the phase; the expected score is `1 / (1 + 10^(-K e / 400))`.
//! K is fitted first with the current weights, then every weight by Adam on
//! the mean squared error (plus `--l2` times the squared distance from the
//! starting weights, if given). A tenth of the games (every tenth) is held out
//! and its error reported, so that over-fitting shows.

use std::io::{BufRead, BufReader, Write};

use arbiter::search::eval::xiangqi::{self as eval, term, Sink, FULL_PHASE, WEIGHTS};
use arbiter::search::Evaluate;
use arbiter::variants::xiangqi::{Move, Notation, Position, Xiangqi};
use arbiter::variants::{Game, Variant as _};

/// One position: its terms' counts, phase, the game's result for Red and
/// the sample's weight.
struct Sample {
    terms: Vec<(u16, i16)>,
    /// Middlegame share, 0 to 1.
    phase: f32,
    result: f32,
    weight: f32,
}

#[derive(Default)]
struct Trace(Vec<(u16, i16)>);

impl Sink for Trace {
    fn add(&mut self, t: usize, count: i32) {
        self.0.push((t as u16, count as i16));
    }
}

fn sample(pos: &Position, result: f32, weight: f32) -> Sample {
    let mut trace = Trace::default();
    let phase = eval::terms(pos, &mut trace);
    let mut terms = trace.0;
    terms.sort_unstable_by_key(|&(t, _)| t);
    let mut merged: Vec<(u16, i16)> = Vec::with_capacity(terms.len());
    for (t, c) in terms {
        match merged.last_mut() {
            Some(last) if last.0 == t => last.1 += c,
            _ => merged.push((t, c)),
        }
    }
    merged.retain(|&(_, c)| c != 0);
    Sample {
        terms: merged,
        phase: phase as f32 / FULL_PHASE as f32,
        result,
        weight,
    }
}

/// Whether a position is quiet enough to label: not in check, and no
/// capture wins material by the static exchange.
fn quiet(pos: &Position, scratch: &mut Vec<Move>) -> bool {
    if pos.in_check() {
        return false;
    }
    pos.captures(scratch);
    !scratch.iter().any(|&m| pos.see_ge(m, 1))
}

fn load(path: &str) -> (Vec<Sample>, Vec<Sample>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut scratch = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.expect("a line");
        let g: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
        let result = match g["result"].as_str() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            _ => 0.5,
        };
        // Games stopped at the ply cap say little about the positions.
        let weight = if g["termination"].as_str() == Some("max_plies") {
            0.25
        } else {
            1.0
        };
        let skip = g["random_plies"].as_u64().unwrap_or(0) as usize;
        let mut game =
            Game::<Xiangqi>::from_fen(g["fen"].as_str(), Default::default()).expect("a valid FEN");
        let moves: Vec<String> = g["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("a move").to_owned())
            .collect();
        let out = if i % 10 == 9 { &mut test } else { &mut train };
        for (ply, mv) in moves.iter().enumerate() {
            if ply >= skip && quiet(game.current(), &mut scratch) {
                out.push(sample(game.current(), result, weight));
            }
            // Our rules may have ended the game earlier than the referee's
            // (the move limit, a repetition verdict): play on regardless.
            match game.current().parse_move(mv, Notation::Iccs) {
                Ok(m) => game.play(m),
                Err(_) => {
                    eprintln!(
                        "game {}: move {ply} ({mv}) is not legal here; rest skipped",
                        i + 1
                    );
                    break;
                }
            }
        }
    }
    (train, test)
}

/// Weights as floats: `[mg, eg]` per term.
type Weights = Vec<[f64; 2]>;

fn evaluate(s: &Sample, w: &Weights) -> f64 {
    let ph = f64::from(s.phase);
    s.terms
        .iter()
        .map(|&(t, c)| {
            let w = w[t as usize];
            f64::from(c) * (w[0] * ph + w[1] * (1.0 - ph))
        })
        .sum()
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    let (mut sum, mut weights) = (0.0, 0.0);
    for s in samples {
        let d = f64::from(s.result) - sigmoid(k, evaluate(s, w));
        sum += f64::from(s.weight) * d * d;
        weights += f64::from(s.weight);
    }
    sum / weights
}

fn fit_k(samples: &[Sample], w: &Weights) -> f64 {
    let (mut lo, mut hi) = (0.05, 4.0);
    for _ in 0..40 {
        let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut paths = Vec::new();
    let mut epochs = 400;
    let mut out = "src/search/eval/xiangqi_weights.rs".to_owned();
    let mut rate = 2.0;
    let mut l2 = 0.0;
    let mut i = 0;
    while i < args.len() {
        if !args[i].starts_with("--") {
            paths.push(args[i].clone());
            i += 1;
            continue;
        }
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--epochs" => epochs = value.parse().expect("--epochs N"),
            "--out" => out = value,
            "--rate" => rate = value.parse().expect("--rate R"),
            "--l2" => l2 = value.parse().expect("--l2 LAMBDA"),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    assert!(
        !paths.is_empty(),
        "usage: tune GAMES.jsonl [MORE.jsonl ...] [--epochs N] [--out FILE] [--rate R]"
    );
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for path in &paths {
        let (a, b) = load(path);
        println!(
            "{path}: {} training positions, {} held out",
            a.len(),
            b.len()
        );
        train.extend(a);
        test.extend(b);
    }
    println!(
        "{} training positions, {} held out",
        train.len(),
        test.len()
    );
    let mut w: Weights = WEIGHTS
        .iter()
        .map(|p| [f64::from(p[0]), f64::from(p[1])])
        .collect();
    let start = w.clone();
    let k = fit_k(&train, &w);
    println!(
        "K = {k:.4}; error: training {:.6}, held out {:.6}",
        error(&train, &w, k),
        error(&test, &w, k)
    );
    // Adam on the weighted mean squared error.
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0f64; 2]; term::COUNT];
    let mut v = vec![[0.0f64; 2]; term::COUNT];
    let total: f64 = train.iter().map(|s| f64::from(s.weight)).sum();
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=epochs {
        let mut grad = vec![[0.0f64; 2]; term::COUNT];
        for s in &train {
            let e = evaluate(s, &w);
            let p = sigmoid(k, e);
            // d/de of (r - p)^2 = -2 (r - p) p (1 - p) K ln10 / 400
            let g = -2.0 * (f64::from(s.result) - p) * p * (1.0 - p) * k * ln10 / 400.0
                * f64::from(s.weight)
                / total;
            let ph = f64::from(s.phase);
            for &(t, c) in &s.terms {
                let gc = g * f64::from(c);
                grad[t as usize][0] += gc * ph;
                grad[t as usize][1] += gc * (1.0 - ph);
            }
        }
        let t = epoch as f64;
        for j in 0..term::COUNT {
            for h in 0..2 {
                // A pull towards the starting weights, against over-fitting.
                grad[j][h] += l2 * (w[j][h] - start[j][h]);
                m[j][h] = b1 * m[j][h] + (1.0 - b1) * grad[j][h];
                v[j][h] = b2 * v[j][h] + (1.0 - b2) * grad[j][h] * grad[j][h];
                let mh = m[j][h] / (1.0 - b1.powf(t));
                let vh = v[j][h] / (1.0 - b2.powf(t));
                w[j][h] -= rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 50 == 0 || epoch == epochs {
            println!(
                "epoch {epoch}: training {:.6}, held out {:.6}",
                error(&train, &w, k),
                error(&test, &w, k)
            );
        }
    }
    let mut text = String::from(
        "// Generated by `cargo run --release --example tune` (the weights of\n\
         // src/search/eval/xiangqi.rs, `[middlegame, endgame]` per term).\n[\n",
    );
    for p in &w {
        let r = |x: f64| x.round().clamp(-32_000.0, 32_000.0) as i32;
        text.push_str(&format!("    [{}, {}],\n", r(p[0]), r(p[1])));
    }
    text.push_str("]\n");
    let mut f = std::fs::File::create(&out).unwrap_or_else(|e| panic!("cannot write {out}: {e}"));
    f.write_all(text.as_bytes()).expect("written");
    println!("weights written to {out}");
}
