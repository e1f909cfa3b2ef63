//! Trains a Xiangqi evaluation network on positions written by
//! `examples/datagen.rs` (issue 31; not run in CI, which trains a tiny
//! network in `tests/nnue_pipeline.rs`):
//!
//! ```text
//! cargo run --release --example train_nnue -- DATA.txt [MORE.txt ...] \
//!     --hidden 128 --epochs 30 --threads 2 --dir RUN [--resume | --init NET]
//! ```
//!
//! `--init NET` starts from a trained network's weights (`shipped`: the
//! one embedded) instead of random ones: the next network, trained on
//! new data from where the last one stands.
//!
//! Every position is also used reflected left to right. A twentieth of the
//! positions is held out: every twentieth block of 2,000 lines (a block
//! holds a dozen games or so, so that few games straddle the two sets). After
//! each epoch the run writes `RUN/checkpoint.bin` (the whole state: with
//! `--resume` a later run goes on from it) and `RUN/epoch-N.nnue`, the
//! quantised network, and prints the training and held-out losses beside
//! the held-out loss of a constant prediction.

use std::path::PathBuf;
use std::time::Instant;

use arbiter::search::Evaluate;
use arbiter::search::Network;
use arbiter::training::data::Sample;
use arbiter::training::train::{constant_loss, Config, Model, Trainer};
use arbiter::variants::xiangqi::Position;
use clap::Parser;

#[derive(Parser)]
struct Args {
    /// Files of `FEN | score | result` lines.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Hidden units of each half.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Epochs (in all, counting those of a resumed run).
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions a step.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Multiply the rate by `--lr-gamma` every this many epochs (0: never).
    #[arg(long, default_value_t = 0)]
    lr_step: usize,
    /// See `--lr-step`.
    #[arg(long, default_value_t = 0.3)]
    lr_gamma: f32,
    /// The target's share from the search's score (the rest from the result).
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Centipawns to a logit of the win probability.
    #[arg(long, default_value_t = 290.0)]
    k: f32,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the first weights and the order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder for checkpoints and networks.
    #[arg(long)]
    dir: PathBuf,
    /// Go on from `DIR/checkpoint.bin`.
    #[arg(long)]
    resume: bool,
    /// Start from this network's weights instead of random ones (a file,
    /// or `shipped`: the one embedded in the binary), with fresh moments.
    #[arg(long, conflicts_with = "resume")]
    init: Option<String>,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let mut train: Vec<Sample> = Vec::new();
    let mut test: Vec<Sample> = Vec::new();
    for path in &args.data {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let s =
                Sample::parse(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            let to = if (i / 2_000) % 20 == 19 {
                &mut test
            } else {
                &mut train
            };
            to.extend([s, s.mirrored()]);
        }
    }
    eprintln!(
        "{} training positions, {} held out (with reflections)",
        train.len(),
        test.len()
    );
    let config = Config {
        hidden: args.hidden,
        batch: args.batch,
        lr: args.lr,
        lr_step: args.lr_step,
        lr_gamma: args.lr_gamma,
        lambda: args.lambda,
        k: args.k,
        threads: args.threads,
        seed: args.seed,
    };
    std::fs::create_dir_all(&args.dir).map_err(|e| e.to_string())?;
    let checkpoint = args.dir.join("checkpoint.bin");
    let mut trainer = if args.resume {
        let bytes =
            std::fs::read(&checkpoint).map_err(|e| format!("{}: {e}", checkpoint.display()))?;
        Trainer::resume(config.clone(), &bytes)?
    } else if let Some(init) = &args.init {
        let net = if init == "shipped" {
            Position::shipped_network().ok_or("no network is embedded")?
        } else {
            let bytes = std::fs::read(init).map_err(|e| format!("{init}: {e}"))?;
            std::sync::Arc::new(Network::from_bytes(&bytes).map_err(|e| format!("{init}: {e}"))?)
        };
        Trainer::from_model(config.clone(), Model::from_network(&net))?
    } else {
        Trainer::new(config.clone())
    };
    let constant = constant_loss(&train, &test, &config);
    eprintln!("constant prediction: held-out loss {constant:.6}");
    while trainer.epoch < args.epochs {
        let start = Instant::now();
        let loss = trainer.epoch(&train);
        let held = trainer.loss(&test);
        let tmp = args.dir.join("checkpoint.tmp");
        std::fs::write(&tmp, trainer.checkpoint()).map_err(|e| e.to_string())?;
        std::fs::rename(&tmp, &checkpoint).map_err(|e| e.to_string())?;
        let net = trainer.model.quantise().map_err(|e| e.to_string())?;
        let path = args.dir.join(format!("epoch-{}.nnue", trainer.epoch));
        std::fs::write(&path, net.to_bytes()).map_err(|e| e.to_string())?;
        eprintln!(
            "epoch {:3}: training {loss:.6}, held out {held:.6} ({:.1} s) -> {}",
            trainer.epoch,
            start.elapsed().as_secs_f64(),
            path.display()
        );
    }
    Ok(())
}
