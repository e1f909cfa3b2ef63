//! Fits the win/draw/loss models (`src/search/wdl.rs`) to the engine's own
//! games, and measures how well a model predicts games it was not fitted on
//! (not run in CI; rerun whenever an evaluation changes):
//!
//! ```text
//! # games with each move's score: the match tool, the engine against itself
//! cargo run --release --example match -- xiangqi --engine-a self --engine-b self \
//!     --nodes 10000 --games 2000 --openings FILE --games-out xiangqi.jsonl
//! # fit every variant given, write the models (a variant not given keeps
//! # its own), report the calibration
//! cargo run --release --example fit_wdl -- --xiangqi xiangqi.jsonl \
//!     --taxi taxi.jsonl --tamerlane tamerlane.jsonl --out src/search/eval/wdl_models.rs
//! # only measure the built-in models on other games
//! cargo run --release --example fit_wdl -- --xiangqi more.jsonl --check
//! ```
//!
//! A game is a JSON line as `examples/match.rs --games-out` writes it: `fen`,
//! `moves` (the variant's default notation), `result`, `random_plies` and
//! `scores` (the score each move after the opening was played with, from
//! its mover's view). Every such position with a score that is not a mate
//! is a sample: its score, its material ([`Evaluate::material`]) and the
//! game's result for the side to move. Every fifth game is held out.
//!
//! The fit maximises the likelihood of the results (three outcomes) under
//! the model, by Adam on the eight coefficients, starting from a model
//! whose `a` and `b` are constants fitted first. The calibration: the
//! held-out positions binned by the predicted expected score (win + draw /
//! 2) in twentieths; for each bin of at least 100 positions, the
//! difference between the mean predicted and the mean actual score; the
//! figure is the mean of those differences' sizes, each bin weighted by
//! its positions (`docs/engine.md` records it).

use std::io::{BufRead, BufReader, Write};

use arbiter::dispatch::{Playable, Visitor};
use arbiter::search::wdl::{WdlModel, MATERIAL_SCALE};
use arbiter::search::Evaluate;
use arbiter::variants::{Color, Game, VariantId};

/// A mate's score in the game files.
const MATE_CP: i64 = 100_000;

/// One position: its score (centipawns, side to move), material, and the
/// game's result for the side to move: 0 loss, 1 draw, 2 win.
#[derive(Clone, Copy)]
struct Sample {
    cp: f64,
    x: f64,
    material: i32,
    outcome: u8,
}

struct Loaded {
    train: Vec<Sample>,
    test: Vec<Sample>,
    games: usize,
}

fn load<V: Playable>(path: &str) -> Loaded {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0;
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.expect("a line");
        let g: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
        let Some(scores) = g["scores"].as_array() else {
            continue;
        };
        games += 1;
        let winner = match g["result"].as_str() {
            Some("1-0") => Some(Color::White),
            Some("0-1") => Some(Color::Black),
            _ => None,
        };
        let skip = g["random_plies"].as_u64().unwrap_or(0) as usize;
        let mut game = Game::<V>::from_fen(g["fen"].as_str(), Default::default())
            .unwrap_or_else(|e| panic!("game {}: {e:?}", i + 1));
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("a move"))
            .collect();
        let out = if i % 5 == 4 { &mut test } else { &mut train };
        for (ply, mv) in moves.iter().enumerate() {
            let pos = game.current();
            if ply >= skip {
                if let Some(cp) = scores.get(ply - skip).and_then(|s| s.as_i64()) {
                    if cp.abs() < MATE_CP {
                        let side = pos.side_to_move();
                        let outcome = match winner {
                            Some(w) if w == side => 2,
                            Some(_) => 0,
                            None => 1,
                        };
                        let material = pos.material();
                        out.push(Sample {
                            cp: cp as f64,
                            x: f64::from(material),
                            material,
                            outcome,
                        });
                    }
                }
            }
            match pos.parse_move(mv, V::Notation::default()) {
                Ok(m) => game.play(m),
                Err(_) => {
                    eprintln!(
                        "game {}: move {ply} ({mv}) is not legal; rest skipped",
                        i + 1
                    );
                    break;
                }
            }
        }
    }
    Loaded { train, test, games }
}

fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

fn cubic(c: &[f64], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

/// The mean negative log-likelihood and its gradient.
fn loss_and_gradient(p: &[f64; 8], samples: &[Sample], range: (i32, i32)) -> (f64, [f64; 8]) {
    let mut loss = 0.0;
    let mut g = [0.0; 8];
    for s in samples {
        let x = s.x.clamp(f64::from(range.0), f64::from(range.1)) / MATERIAL_SCALE;
        let a = cubic(&p[..4], x);
        let b = cubic(&p[4..], x).max(1.0);
        let u = (s.cp - a) / b;
        let v = (-s.cp - a) / b;
        let w = sigmoid(u);
        let l = sigmoid(v);
        let d = (1.0 - w - l).max(1e-9);
        // Derivatives of w and l by a and b.
        let (dw_da, dw_db) = (-w * (1.0 - w) / b, -w * (1.0 - w) * u / b);
        let (dl_da, dl_db) = (-l * (1.0 - l) / b, -l * (1.0 - l) * v / b);
        let (p_out, dp_da, dp_db) = match s.outcome {
            2 => (w, dw_da, dw_db),
            0 => (l, dl_da, dl_db),
            _ => (d, -dw_da - dl_da, -dw_db - dl_db),
        };
        let p_out = p_out.max(1e-9);
        loss -= p_out.ln();
        let (ga, gb) = (-dp_da / p_out, -dp_db / p_out);
        let powers = [x * x * x, x * x, x, 1.0];
        for k in 0..4 {
            g[k] += ga * powers[k];
            g[4 + k] += gb * powers[k];
        }
    }
    let n = samples.len().max(1) as f64;
    for v in &mut g {
        *v /= n;
    }
    (loss / n, g)
}

/// Adam on the coefficients marked free.
fn adam(
    p: &mut [f64; 8],
    free: &[usize],
    samples: &[Sample],
    range: (i32, i32),
    steps: usize,
    rate: f64,
) {
    let (mut m, mut v) = ([0.0; 8], [0.0; 8]);
    let (b1, b2) = (0.9f64, 0.999f64);
    for t in 1..=steps {
        let (_, g) = loss_and_gradient(p, samples, range);
        for &k in free {
            m[k] = b1 * m[k] + (1.0 - b1) * g[k];
            v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k];
            let mh = m[k] / (1.0 - b1.powi(t as i32));
            let vh = v[k] / (1.0 - b2.powi(t as i32));
            p[k] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
}

fn fit(samples: &[Sample], range: (i32, i32)) -> [f64; 8] {
    let mut p = [0.0, 0.0, 0.0, 150.0, 0.0, 0.0, 0.0, 100.0];
    // Constants first, then the whole cubic.
    adam(&mut p, &[3, 7], samples, range, 1500, 2.0);
    adam(&mut p, &[2, 3, 6, 7], samples, range, 3000, 1.0);
    adam(&mut p, &[0, 1, 2, 3, 4, 5, 6, 7], samples, range, 6000, 0.5);
    p
}

/// The calibration on `samples`: (weighted mean |predicted - actual| over
/// the bins of at least 100 positions, the bins as (predicted, actual,
/// positions)).
fn calibration(model: &WdlModel, samples: &[Sample]) -> (f64, Vec<(f64, f64, usize)>) {
    let mut bins = vec![(0.0, 0.0, 0usize); 20];
    for s in samples {
        let w = model.wdl(arbiter::search::Score::Cp(s.cp as i32), s.material);
        let e = w.expected();
        let bin = ((e * 20.0) as usize).min(19);
        bins[bin].0 += e;
        bins[bin].1 += f64::from(s.outcome) / 2.0;
        bins[bin].2 += 1;
    }
    let kept: Vec<(f64, f64, usize)> = bins
        .into_iter()
        .filter(|b| b.2 >= 100)
        .map(|(p, a, n)| (p / n as f64, a / n as f64, n))
        .collect();
    let total: usize = kept.iter().map(|b| b.2).sum();
    let mean = kept
        .iter()
        .map(|(p, a, n)| (p - a).abs() * *n as f64)
        .sum::<f64>()
        / total.max(1) as f64;
    (mean, kept)
}

fn model_of(p: &[f64; 8], range: (i32, i32)) -> WdlModel {
    let r = |v: f64| (v * 1e4).round() / 1e4;
    WdlModel {
        a: [r(p[0]), r(p[1]), r(p[2]), r(p[3])],
        b: [r(p[4]), r(p[5]), r(p[6]), r(p[7])],
        material_range: range,
    }
}

/// What one variant's run gives: its model (fitted or built in) and the
/// report.
struct Fitted {
    model: WdlModel,
    report: String,
}

struct Fit<'a> {
    path: &'a str,
    check: bool,
}

impl Visitor for Fit<'_> {
    type Output = Fitted;
    fn visit<V: Playable>(self) -> Fitted {
        let data = load::<V>(self.path);
        let mut report = format!(
            "{}: {} games, {} positions fitted on, {} held out\n",
            V::ID,
            data.games,
            data.train.len(),
            data.test.len()
        );
        let model = if self.check {
            V::WDL
        } else {
            // The material range: where 98 % of the positions lie.
            let mut m: Vec<i32> = data.train.iter().map(|s| s.material).collect();
            m.sort_unstable();
            let range = (m[m.len() / 100], m[m.len() - 1 - m.len() / 100]);
            let p = fit(&data.train, range);
            let (train_loss, _) = loss_and_gradient(&p, &data.train, range);
            let (test_loss, _) = loss_and_gradient(&p, &data.test, range);
            report.push_str(&format!(
                "  fitted: log loss {train_loss:.4} on the fitted games, {test_loss:.4} held out\n"
            ));
            model_of(&p, range)
        };
        for (name, samples) in [("fitted-on", &data.train), ("held-out", &data.test)] {
            let (mean, bins) = calibration(&model, samples);
            report.push_str(&format!(
                "  calibration on the {name} games: mean |predicted - actual| = {mean:.4}\n"
            ));
            if name == "held-out" {
                for (p, a, n) in bins {
                    report.push_str(&format!(
                        "    predicted {p:.3}  actual {a:.3}  ({n} positions)\n"
                    ));
                }
            }
        }
        for material in [model.material_range.0, model.material_range.1] {
            let (a, b) = model.parameters(material);
            report.push_str(&format!(
                "  material {material}: a {a:.1} cp, b {b:.1} cp\n"
            ));
        }
        Fitted { model, report }
    }
}

fn constant(name: &str, variant: &str, m: &WdlModel, games: &str) -> String {
    format!(
        "/// {variant}: fitted on {games}.\npub const {name}: WdlModel = WdlModel {{\n    a: {:?},\n    b: {:?},\n    material_range: {:?},\n}};\n",
        m.a, m.b, m.material_range
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut files: Vec<(VariantId, String)> = Vec::new();
    let mut out = None;
    let mut check = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--check" => check = true,
            "--out" => {
                i += 1;
                out = Some(args[i].clone());
            }
            flag if flag.starts_with("--") => {
                let id = VariantId::parse(&flag[2..]).unwrap_or_else(|| panic!("unknown {flag}"));
                i += 1;
                files.push((id, args[i].clone()));
            }
            other => panic!("unexpected argument {other}"),
        }
        i += 1;
    }
    let mut models = Vec::new();
    for (id, path) in &files {
        let fitted = id.visit(Fit { path, check });
        print!("{}", fitted.report);
        models.push((*id, path.clone(), fitted.model));
    }
    if let Some(out) = out {
        assert!(!check, "--check writes nothing");
        let mut text = String::from(
            "//! The variants' win/draw/loss models ([`crate::search::wdl`]).\n//! Written by `examples/fit_wdl.rs`; not edited by hand (how, and the\n//! figures: `docs/engine.md`).\n\nuse crate::search::wdl::WdlModel;\n\n",
        );
        for (id, name) in [
            (VariantId::Xiangqi, "XIANGQI"),
            (VariantId::Taxi, "TAXI"),
            (VariantId::Tamerlane, "TAMERLANE"),
        ] {
            let (model, games) = match models.iter().find(|m| m.0 == id) {
                Some((_, path, m)) => {
                    let name = std::path::Path::new(path)
                        .file_name()
                        .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
                    (*m, format!("the self-play games of `{name}`"))
                }
                // A variant not given keeps the model it has.
                None => (
                    match id {
                        VariantId::Xiangqi => {
                            <arbiter::variants::xiangqi::Position as Evaluate>::WDL
                        }
                        VariantId::Taxi => <arbiter::variants::taxi::Position as Evaluate>::WDL,
                        VariantId::Tamerlane => {
                            <arbiter::variants::tamerlane::Position as Evaluate>::WDL
                        }
                    },
                    format!("the self-play games of `{}.jsonl`", id.as_str()),
                ),
            };
            text.push_str(&constant(name, &format!("{id:?}"), &model, &games));
        }
        std::fs::File::create(&out)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .unwrap_or_else(|e| panic!("cannot write {out}: {e}"));
        println!("wrote {out}");
    }
}
