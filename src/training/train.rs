//! The trainer: the network in floating point, fitted by Adam on mini-batches
//! of [`Sample`]s, several threads sharing each batch; the loss is the
//! squared difference between the network's win probability and a target
//! that blends the search's score (as a probability) with the game's result.
//! After every epoch the whole state (weights, Adam's moments, the epoch)
//! can be written as a checkpoint and a run resumed from it.

use super::data::Sample;
use crate::search::eval::nnue::features::{feature, pieces, INPUTS, MAX_ACTIVE};
use crate::search::eval::nnue::network::{Network, NetworkError, QA, QB, SCALE};
use crate::variants::xiangqi::Position;
use crate::variants::Color;

/// The largest input or output weight: with [`BIAS_CLIP`], a hidden sum of
/// a bias and 32 rows stays within ±128, so that its quantised form
/// (× [`QA`]) fits 16 bits.
pub const CLIP: f32 = 1.98;
/// The largest hidden bias (64 + 32 × 1.98 < 128).
pub const BIAS_CLIP: f32 = 64.0;

/// Runs `work` on each of `parts` in a thread of its own; answers the
/// results in the order of the parts (so that sums of them come out the
/// same on every run).
fn in_threads<P: Send, R: Send>(
    parts: impl IntoIterator<Item = P>,
    work: impl Fn(P) -> R + Sync,
) -> Vec<R> {
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|part| scope.spawn(move || work(part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker thread"))
            .collect()
    })
}

/// The network in floating point.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Hidden units of each half.
    pub hidden: usize,
    /// One row of `hidden` per input.
    pub weights: Vec<f32>,
    /// The hidden layer's biases.
    pub bias: Vec<f32>,
    /// Output weights, the side to move's half first.
    pub output: Vec<f32>,
    /// The output's bias.
    pub output_bias: f32,
}

impl Model {
    /// A model of zeros.
    pub fn zeros(hidden: usize) -> Model {
        Model {
            hidden,
            weights: vec![0.0; INPUTS * hidden],
            bias: vec![0.0; hidden],
            output: vec![0.0; 2 * hidden],
            output_bias: 0.0,
        }
    }

    /// A model with small random weights, seeded.
    pub fn random(hidden: usize, seed: u64) -> Model {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut m = Model::zeros(hidden);
        let input = 1.0 / (MAX_ACTIVE as f32).sqrt();
        for w in &mut m.weights {
            *w = (rng.f32() * 2.0 - 1.0) * input;
        }
        let out = 1.0 / ((2 * hidden) as f32).sqrt();
        for w in &mut m.output {
            *w = (rng.f32() * 2.0 - 1.0) * out;
        }
        m
    }

    fn params_mut(&mut self) -> [&mut [f32]; 4] {
        [
            &mut self.weights,
            &mut self.bias,
            &mut self.output,
            std::slice::from_mut(&mut self.output_bias),
        ]
    }

    fn params(&self) -> [&[f32]; 4] {
        [
            &self.weights,
            &self.bias,
            &self.output,
            std::slice::from_ref(&self.output_bias),
        ]
    }

    /// The output (a logit; times [`SCALE`] it is centipawns) of a position
    /// given as its pieces and side to move; leaves the two hidden sums (the
    /// side to move's first) in `accs`.
    fn forward(&self, pieces: &[(u8, u8)], side: Color, accs: [&mut [f32]; 2]) -> f32 {
        let h = self.hidden;
        let mut total = self.output_bias;
        for (half, (acc, view)) in accs.into_iter().zip([side, !side]).enumerate() {
            acc.copy_from_slice(&self.bias);
            for &(s, p) in pieces {
                let row = &self.weights[feature(view, p, s) * h..][..h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
            let out = &self.output[half * h..][..h];
            total += acc
                .iter()
                .zip(out)
                .map(|(a, w)| {
                    let x = a.clamp(0.0, 1.0);
                    x * x * w
                })
                .sum::<f32>();
        }
        total
    }

    /// The evaluation of a position in centipawns for its side to move.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let list: Vec<(u8, u8)> = pieces(pos).collect();
        let (mut us, mut them) = (vec![0.0; self.hidden], vec![0.0; self.hidden]);
        self.forward(&list, pos.side(), [&mut us, &mut them]) * SCALE as f32
    }

    /// The floating-point model a quantised network stands for (each
    /// weight its integer over the scale [`Model::quantise`] multiplied
    /// it by): the start of a run that goes on from a trained network.
    pub fn from_network(net: &Network) -> Model {
        let (weights, bias, output, output_bias) = net.parts();
        let f = |v: &[i16], by: i32| v.iter().map(|&w| f32::from(w) / by as f32).collect();
        Model {
            hidden: net.hidden(),
            weights: f(weights, QA),
            bias: f(bias, QA),
            output: f(output, QB),
            output_bias: output_bias as f32 / (QA * QB) as f32,
        }
    }

    /// The integer network: input weights and biases × [`QA`], output
    /// weights × [`QB`], the output bias × `QA × QB`.
    pub fn quantise(&self) -> Result<Network, NetworkError> {
        let q = |v: f32, by: i32| (v * by as f32).round().clamp(-32_767.0, 32_767.0) as i16;
        Network::from_parts(
            self.hidden,
            self.weights.iter().map(|&w| q(w, QA)).collect(),
            self.bias.iter().map(|&w| q(w, QA)).collect(),
            self.output.iter().map(|&w| q(w, QB)).collect(),
            (self.output_bias * (QA * QB) as f32).round() as i32,
        )
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct Config {
    /// Hidden units of each half.
    pub hidden: usize,
    /// Positions a step.
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f32,
    /// The learning rate is multiplied by `lr_gamma` every this many
    /// epochs (0: never).
    pub lr_step: usize,
    /// See `lr_step`.
    pub lr_gamma: f32,
    /// The target's share from the search's score; the rest is the result.
    pub lambda: f32,
    /// Centipawns to a logit of the win probability: a score `s` means
    /// `1 / (1 + e^(−s / k))`.
    pub k: f32,
    /// Threads sharing a batch.
    pub threads: usize,
    /// Seed of the first weights and of the order of the positions.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            hidden: 128,
            batch: 16_384,
            lr: 0.001,
            lr_step: 0,
            lr_gamma: 0.3,
            lambda: 0.75,
            k: 290.0,
            threads: 2,
            seed: 1,
        }
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A sample's target probability.
#[inline]
fn target(s: &Sample, config: &Config) -> f32 {
    let score = sigmoid(s.score as f32 / config.k);
    config.lambda * score + (1.0 - config.lambda) * s.result as f32 / 2.0
}

/// The mean loss of always predicting the training set's mean target: what
/// a network must beat to have learned anything.
pub fn constant_loss(train: &[Sample], test: &[Sample], config: &Config) -> f32 {
    let mean = train.iter().map(|s| target(s, config)).sum::<f32>() / train.len().max(1) as f32;
    test.iter()
        .map(|s| (target(s, config) - mean).powi(2))
        .sum::<f32>()
        / test.len().max(1) as f32
}

/// The trainer's whole state.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// How it trains.
    pub config: Config,
    /// The weights.
    pub model: Model,
    /// Adam's first moments.
    m: Model,
    /// Adam's second moments.
    v: Model,
    /// Steps taken.
    step: u64,
    /// Epochs done.
    pub epoch: usize,
}

/// Adds one sample's gradient to `grad`; returns its squared error.
fn accumulate(
    model: &Model,
    s: &Sample,
    config: &Config,
    grad: &mut Model,
    scratch: &mut [Vec<f32>; 4],
) -> f32 {
    let h = model.hidden;
    let [acc_us, acc_them, d_us, d_them] = scratch;
    let views = [s.side, !s.side];
    let out = model.forward(s.pieces(), s.side, [&mut *acc_us, &mut *acc_them]);
    let scale = SCALE as f32 / config.k;
    let p = sigmoid(out * scale);
    let t = target(s, config);
    let g = 2.0 * (p - t) * p * (1.0 - p) * scale;
    grad.output_bias += g;
    for (half, (acc, d)) in [(&*acc_us, &mut *d_us), (&*acc_them, &mut *d_them)]
        .into_iter()
        .enumerate()
    {
        let w = &model.output[half * h..][..h];
        let gw = &mut grad.output[half * h..][..h];
        for i in 0..h {
            let a = acc[i];
            if a > 0.0 && a < 1.0 {
                gw[i] += g * a * a;
                d[i] = g * w[i] * 2.0 * a;
            } else {
                if a >= 1.0 {
                    gw[i] += g;
                }
                d[i] = 0.0;
            }
        }
    }
    for (d, view) in [&*d_us, &*d_them].into_iter().zip(views) {
        for (gb, di) in grad.bias.iter_mut().zip(d.iter()) {
            *gb += di;
        }
        for &(sq, p) in s.pieces() {
            let row = &mut grad.weights[feature(view, p, sq) * h..][..h];
            for (gr, di) in row.iter_mut().zip(d.iter()) {
                *gr += di;
            }
        }
    }
    (p - t) * (p - t)
}

fn scratch(h: usize) -> [Vec<f32>; 4] {
    std::array::from_fn(|_| vec![0.0; h])
}

const CHECKPOINT_MAGIC: [u8; 8] = *b"ARBXQCK1";

/// The settings a run must keep to go on as it would have: the batch, the
/// seed (the order), the learning rate's schedule and the target's blend.
fn settings(config: &Config) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(config.batch as u64).to_le_bytes());
    out.extend_from_slice(&config.seed.to_le_bytes());
    out.extend_from_slice(&(config.lr_step as u64).to_le_bytes());
    for x in [config.lr, config.lr_gamma, config.lambda, config.k] {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}
const SETTINGS: usize = 8 + 8 + 8 + 4 * 4;

impl Trainer {
    /// A new run from random weights.
    pub fn new(config: Config) -> Trainer {
        let h = config.hidden;
        Trainer {
            model: Model::random(h, config.seed),
            m: Model::zeros(h),
            v: Model::zeros(h),
            step: 0,
            epoch: 0,
            config,
        }
    }

    /// A new run from `model`'s weights (a trained network's, to go on
    /// training it on other data), with fresh moments.
    pub fn from_model(config: Config, model: Model) -> Result<Trainer, String> {
        if model.hidden != config.hidden {
            return Err(format!(
                "the network has {} hidden units, the run {}",
                model.hidden, config.hidden
            ));
        }
        let h = config.hidden;
        Ok(Trainer {
            model,
            m: Model::zeros(h),
            v: Model::zeros(h),
            step: 0,
            epoch: 0,
            config,
        })
    }

    /// The mean loss over `samples` (several threads; no gradients).
    pub fn loss(&self, samples: &[Sample]) -> f32 {
        if samples.is_empty() {
            return 0.0;
        }
        let threads = self.config.threads.max(1);
        let chunk = samples.len().div_ceil(threads);
        let (model, config) = (&self.model, &self.config);
        let scale = SCALE as f32 / config.k;
        let sums = in_threads(samples.chunks(chunk), |part| {
            let (mut us, mut them) = (vec![0.0; model.hidden], vec![0.0; model.hidden]);
            part.iter()
                .map(|s| {
                    let out = model.forward(s.pieces(), s.side, [&mut us, &mut them]);
                    f64::from((sigmoid(out * scale) - target(s, config)).powi(2))
                })
                .sum::<f64>()
        });
        let total: f64 = sums.into_iter().sum();
        (total / samples.len() as f64) as f32
    }

    /// One pass over `samples` in a seeded random order; returns the mean
    /// training loss.
    pub fn epoch(&mut self, samples: &[Sample]) -> f32 {
        let threads = self.config.threads.max(1);
        let h = self.config.hidden;
        let mut order: Vec<u32> = (0..samples.len() as u32).collect();
        fastrand::Rng::with_seed(
            self.config.seed ^ (self.epoch as u64 + 1).wrapping_mul(0x9E37_79B9),
        )
        .shuffle(&mut order);
        let mut grads: Vec<Model> = (0..threads).map(|_| Model::zeros(h)).collect();
        let mut scratches: Vec<[Vec<f32>; 4]> = (0..threads).map(|_| scratch(h)).collect();
        let lr = match self.config.lr_step {
            0 => self.config.lr,
            n => self.config.lr * self.config.lr_gamma.powi((self.epoch / n) as i32),
        };
        let mut total = 0f64;
        for batch in order.chunks(self.config.batch.max(1)) {
            let chunk = batch.len().div_ceil(threads);
            let model = &self.model;
            let config = &self.config;
            let parts = batch
                .chunks(chunk)
                .zip(grads.iter_mut().zip(scratches.iter_mut()));
            let losses = in_threads(parts, |(part, (grad, scr))| {
                for p in grad.params_mut() {
                    p.fill(0.0);
                }
                part.iter()
                    .map(|&i| f64::from(accumulate(model, &samples[i as usize], config, grad, scr)))
                    .sum::<f64>()
            });
            total += losses.iter().sum::<f64>();
            let used = batch.len().div_ceil(chunk);
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                for (a, b) in first[0].params_mut().into_iter().zip(other.params()) {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                }
            }
            self.adam(&first[0], batch.len(), lr);
        }
        self.epoch += 1;
        (total / samples.len().max(1) as f64) as f32
    }

    /// One Adam step from a summed gradient over `n` positions.
    fn adam(&mut self, grad: &Model, n: usize, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step.min(1 << 20) as i32);
        let c2 = 1.0 - B2.powi(self.step.min(1 << 20) as i32);
        let scale = 1.0 / n as f32;
        let clips = [CLIP, BIAS_CLIP, CLIP, f32::INFINITY];
        let params = self.model.params_mut();
        let ms = self.m.params_mut();
        let vs = self.v.params_mut();
        for ((((p, m), v), g), clip) in params
            .into_iter()
            .zip(ms)
            .zip(vs)
            .zip(grad.params())
            .zip(clips)
        {
            for i in 0..p.len() {
                let gi = g[i] * scale;
                m[i] = B1 * m[i] + (1.0 - B1) * gi;
                v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
                let step = lr * (m[i] / c1) / ((v[i] / c2).sqrt() + EPS);
                p[i] = (p[i] - step).clamp(-clip, clip);
            }
        }
    }

    /// The whole state as bytes (weights, moments, steps and epochs).
    pub fn checkpoint(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&CHECKPOINT_MAGIC);
        out.extend_from_slice(&(self.config.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.epoch as u32).to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&settings(&self.config));
        for model in [&self.model, &self.m, &self.v] {
            for p in model.params() {
                for x in p {
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// A run resumed from a checkpoint, with `config`, whose hidden units,
    /// batch, seed, learning rate and target must be the checkpoint's (the
    /// threads may differ: then only the sums' rounding does).
    pub fn resume(config: Config, bytes: &[u8]) -> Result<Trainer, String> {
        let h = config.hidden;
        let floats = 3 * (INPUTS * h + h + 2 * h + 1);
        let expected = 8 + 4 + 4 + 8 + SETTINGS + 4 * floats + 4;
        if bytes.len() < 16 || bytes[..8] != CHECKPOINT_MAGIC {
            return Err("not an arbiter training checkpoint".into());
        }
        let hidden = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        if hidden != h {
            return Err(format!(
                "the checkpoint has {hidden} hidden units, the run asks for {h}"
            ));
        }
        if bytes.len() != expected {
            return Err(format!(
                "the checkpoint has {} bytes, {expected} expected",
                bytes.len()
            ));
        }
        let crc = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
        if crc32fast::hash(&bytes[..expected - 4]) != crc {
            return Err("the checkpoint is damaged (CRC-32)".into());
        }
        let epoch = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
        let step = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        if bytes[24..24 + SETTINGS] != settings(&config)[..] {
            return Err(
                "the checkpoint was made with another batch, seed, learning rate or target: \
                        resume with the settings it was made with"
                    .into(),
            );
        }
        let mut at = 24 + SETTINGS;
        let mut models = [Model::zeros(h), Model::zeros(h), Model::zeros(h)];
        for model in &mut models {
            for p in model.params_mut() {
                for x in p.iter_mut() {
                    *x = f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
                    at += 4;
                }
            }
        }
        let [model, m, v] = models;
        Ok(Trainer {
            config,
            model,
            m,
            v,
            step,
            epoch,
        })
    }
}
