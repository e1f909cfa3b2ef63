//! Tables generated small and checked against known endings.

use super::*;
use crate::variants::xiangqi::Position;
use crate::variants::Variant;

fn fen(f: &str) -> Position {
    Position::from_fen(f, &Default::default()).unwrap()
}

fn tables(names: &[&str]) -> Tables {
    let set: Vec<Material> = names.iter().map(|n| Material::parse(n).unwrap()).collect();
    let mut t = Tables::new();
    t.generate_set(&set, |table, took| {
        eprintln!(
            "{}: {} positions a side, {:?}, {:?}",
            table.material(),
            table.size(),
            table.census(),
            took
        )
    })
    .unwrap();
    t
}

#[test]
fn single_pieces_against_the_bare_general() {
    let t = tables(&["KRk", "KNk", "KCk", "KPk", "KAk", "KBk"]);
    let win = |f: &str| matches!(t.probe(&fen(f)), Some(Entry::Win(Distance::Mate(_))));
    // The chariot mates on the d file, the generals' facing rule taking
    // the e file: mate in one.
    assert_eq!(
        t.probe(&fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1")),
        Some(Entry::Win(Distance::Mate(1)))
    );
    // The same with the colours exchanged: Black's chariot, the table
    // read turned over.
    assert_eq!(
        t.probe(&fen("4k4/r8/9/9/9/9/9/9/9/3K5 b - - 0 1")),
        Some(Entry::Win(Distance::Mate(1)))
    );
    // Mated: the side to move loses at 0.
    assert_eq!(
        t.probe(&fen("3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1")),
        Some(Entry::Loss(Distance::Mate(0)))
    );
    assert!(win("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1"));
    assert!(win("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1"));
    // Bare generals draw; a cannon alone cannot mate.
    assert_eq!(
        t.probe(&fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")),
        Some(Entry::Draw)
    );
    assert_eq!(
        t.get(Material::parse("KCk").unwrap())
            .unwrap()
            .census()
            .mates,
        0
    );
}
