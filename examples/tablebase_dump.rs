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
//!
//! `--default` dumps every table of the default set (the built-in one).
//! `--dir DIR` reads the tables from `DIR` (made by `arbiter tablebase
//! generate`) besides the built-in ones; `--chase` prints only the draws
//! marked as ones a chase may decide, the mark in place of the score
//! (`must_chase` or `forces_chase`).

use std::io::Write;

use arbiter::tablebase::{
    closure, default_set, default_tables, Chase, Distance, Entry, Material, Tables,
};
use arbiter::variants::{Color, Variant};

fn main() {
    let mut tables = default_tables();
    let mut args = std::env::args().skip(1);
    let mut chase = false;
    let mut materials = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dir" => {
                let dir = args.next().expect("--dir DIR");
                tables.extend(Tables::load_dir(dir.as_ref()).expect("a table directory"));
            }
            "--chase" => chase = true,
            "--default" => materials.extend(closure(&default_set())),
            _ => materials
                .push(Material::parse(&arg).unwrap_or_else(|| panic!("not a material: {arg}"))),
        }
    }
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for material in materials {
        let table = tables
            .get(material)
            .unwrap_or_else(|| panic!("{material} is not built in nor in --dir"));
        let mut lines = 0u64;
        for side in [Color::White, Color::Black] {
            for i in 0..table.size() {
                let (pos, entry) = table.at(side, i);
                if chase {
                    let mark = match entry {
                        Entry::Draw(Chase::Must) => "must_chase",
                        Entry::Draw(Chase::Forces) => "forces_chase",
                        _ => continue,
                    };
                    let pos = pos.expect("a draw has a position");
                    writeln!(out, "{}\t{mark}\t{}", pos.to_fen(), table.material()).unwrap();
                    lines += 1;
                    continue;
                }
                let score = match entry {
                    Entry::Illegal
                    | Entry::Win(Distance::Rule(_))
                    | Entry::Loss(Distance::Rule(_)) => continue,
                    Entry::Draw(_) => 0,
                    Entry::Win(Distance::Mate(n)) => 500 - n as i32,
                    Entry::Loss(Distance::Mate(n)) => -(500 - n as i32),
                };
                let pos = pos.expect("a legal entry has a position");
                writeln!(out, "{}\t{score}\t{}", pos.to_fen(), table.material()).unwrap();
                lines += 1;
            }
        }
        eprintln!("{material}: {lines} positions");
    }
}
