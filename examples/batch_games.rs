//! Writes a request body for `POST /v1/variants/{variant}/adjudicate/batch`:
//! games played to their end by the engine at a fixed depth after a few
//! seeded random plies, so that each is a game of real length with
//! captures, checks and a verdict. For measuring the batch endpoint (the
//! README's figure); not run in CI.
//!
//! ```text
//! cargo run --release --example batch_games -- xiangqi --games 1000 > /tmp/batch.json
//! curl -s -o /dev/null -w '%{time_total}\n' -H 'content-type: application/json' \
//!     --data-binary @/tmp/batch.json localhost:8080/v1/variants/xiangqi/adjudicate/batch
//! ```

use std::time::Duration;

use clap::Parser;
use serde_json::json;

use arbiter::dispatch::{Playable, Visitor};
use arbiter::search::{self, Control, Limits};
use arbiter::variants::{Game, VariantId};

#[derive(Parser)]
struct Args {
    /// xiangqi, taxi or tamerlane.
    #[arg(value_parser = parse_variant)]
    variant: VariantId,
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// The engine's depth for each move.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Random plies opening each game.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Plies after which a game is cut off.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn parse_variant(s: &str) -> Result<VariantId, String> {
    VariantId::parse(s).ok_or_else(|| format!("unknown variant {s}"))
}

/// xorshift64*: the random plies.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

struct Write<'a>(&'a Args);

impl Visitor for Write<'_> {
    type Output = ();
    fn visit<V: Playable>(self) {
        let args = self.0;
        let limits = Limits {
            depth: Some(args.depth),
            movetime: Some(Duration::from_secs(1)),
            optimum: None,
            nodes: None,
            multipv: 1,
            threads: 1,
            network: None,
            tablebases: false,
        };
        let mut games = Vec::with_capacity(args.games);
        let mut moves = Vec::new();
        for i in 0..args.games {
            let rules = V::Rules::default();
            let mut game = Game::new(V::start_position(&rules), rules);
            let mut state = (args.seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
            while game.outcome().is_ongoing() && game.moves().len() < args.max_plies {
                let mv = if game.moves().len() < args.random_plies {
                    game.current().legal_moves(&mut moves);
                    moves[(next_random(&mut state) % moves.len() as u64) as usize]
                } else {
                    let control = Control::default();
                    match search::search(&game, &limits, &control, 1 << 14, None) {
                        Some(found) => found.best_move,
                        None => break,
                    }
                };
                game.play(mv);
            }
            let written: Vec<String> = game
                .moves()
                .iter()
                .zip(game.positions())
                .map(|(&mv, pos)| pos.write_move(mv, V::Notation::default()))
                .collect();
            games.push(json!({"id": i, "moves": written}));
        }
        println!("{}", json!({ "games": games }));
    }
}

fn main() {
    let args = Args::parse();
    args.variant.visit(Write(&args));
}
