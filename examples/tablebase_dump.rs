//! Every legal position of built-in tables with its result, one line each,
//! for holding our tables against another implementation's (not run in
//! CI; the figures are in docs/tablebases.md):
//!
//! ```text
//! cargo run --release --example tablebase_dump -- KRkaabb KNka ... > positions.tsv
//! ```
//!
//! A line: the FEN, a tab, the result for the side to move as a score
//! (`500 - n` for a win in n plies, `-(500 - n)` for a loss in n, 0 for a
//! draw: Felicity EGTB's convention), a tab, the table's name. Results the
//! perpetual-check rule decides are left out (no other table has them).

use std::io::Write;

use arbiter::tablebase::{default_tables, Distance, Entry, Material};
use arbiter::variants::{Color, Variant};

fn main() {
    let tables = default_tables();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for name in std::env::args().skip(1) {
        let material = Material::parse(&name).unwrap_or_else(|| panic!("not a material: {name}"));
        let table = tables
            .get(material)
            .unwrap_or_else(|| panic!("{name} is not built in"));
        let mut lines = 0u64;
        for side in [Color::White, Color::Black] {
            for i in 0..table.size() {
                let (pos, entry) = table.at(side, i);
                let score = match entry {
                    Entry::Illegal
                    | Entry::Win(Distance::Rule(_))
                    | Entry::Loss(Distance::Rule(_)) => continue,
                    Entry::Draw => 0,
                    Entry::Win(Distance::Mate(n)) => 500 - n as i32,
                    Entry::Loss(Distance::Mate(n)) => -(500 - n as i32),
                };
                let pos = pos.expect("a legal entry has a position");
                writeln!(out, "{}\t{score}\t{}", pos.to_fen(), table.material()).unwrap();
                lines += 1;
            }
        }
        eprintln!("{name}: {lines} positions");
    }
}
