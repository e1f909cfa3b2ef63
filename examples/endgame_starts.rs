//! Random Xiangqi endgame starts for engine matches (not run in CI; the
//! match figures are in docs/engine.md):
//!
//! ```text
//! cargo run --release --example endgame_starts -- --count 120 --seed 1 KRkraabb KRNkrc ... > starts.txt
//! ```
//!
//! One line a start, `FEN|` (the shared `match.py --openings` format), the
//! materials taken in turn. Each start is a legal position that a game can
//! reach (soldiers where they can come), Red to move, neither side in check,
//! outside the endgame tables, and not decided at a glance: a 6-ply search
//! with the hand-written evaluation and no tables scores it within
//! ±`--within` centipawns (200 by default).

use arbiter::search::{search, Control, Limits, Score};
use arbiter::tablebase::{Endgames, Material, KINDS};
use arbiter::variants::xiangqi::board::{piece, reachable};
use arbiter::variants::xiangqi::{Kind, Position};
use arbiter::variants::{Color, Game};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut count, mut seed, mut within) = (100usize, 1u64, 200i32);
    let mut materials = Vec::new();
    while let Some(a) = args.next() {
        let mut number = || args.next().and_then(|v| v.parse::<u64>().ok()).expect(&a);
        match a.as_str() {
            "--count" => count = number() as usize,
            "--seed" => seed = number(),
            "--within" => within = number() as i32,
            name => materials
                .push(Material::parse(name).unwrap_or_else(|| panic!("not a material: {name}"))),
        }
    }
    assert!(!materials.is_empty(), "name at least one material");
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut made = 0;
    let mut tries = 0u64;
    while made < count {
        tries += 1;
        assert!(tries < 1_000_000, "no start found for these materials");
        let material = materials[made % materials.len()];
        let Some(pos) = place(material, &mut rng) else {
            continue;
        };
        if pos.probe_entry().is_some() || !balanced(&pos, within) {
            continue;
        }
        println!("{}|", arbiter::variants::Variant::to_fen(&pos));
        made += 1;
    }
}

/// The pieces of `material` on random points each may stand on (a general
/// in its palace), Red to move; `None` when the placement is not a quiet,
/// legal position.
fn place(material: Material, rng: &mut fastrand::Rng) -> Option<Position> {
    let mut pieces = Vec::new();
    let mut taken = [false; 90];
    let mut put = |color: Color, kind: Kind, rng: &mut fastrand::Rng| loop {
        let s = rng.u8(0..90);
        if !taken[s as usize] && reachable(kind, color, s) {
            taken[s as usize] = true;
            pieces.push((s, piece(color, kind)));
            return;
        }
    };
    for color in [Color::White, Color::Black] {
        put(color, Kind::General, rng);
        for (slot, kind) in KINDS.iter().enumerate() {
            for _ in 0..material.sides[color.index()][slot] {
                put(color, *kind, rng);
            }
        }
    }
    let pos = Position::from_pieces(Color::White, &pieces)?;
    let quiet = !pos.general_attacked(Color::White) && !pos.general_attacked(Color::Black);
    quiet.then_some(pos)
}

/// Whether a 6-ply search without the tables leaves the start undecided.
fn balanced(pos: &Position, within: i32) -> bool {
    let game = Game::new(pos.clone(), Default::default());
    let limits = Limits {
        depth: Some(6),
        multipv: 1,
        threads: 1,
        ..Limits::default()
    };
    match search(&game, &limits, &Control::default(), 1 << 16, None) {
        Some(r) => matches!(r.lines[0].score, Score::Cp(cp) if cp.abs() <= within),
        None => false,
    }
}
