//! Material signatures: which pieces besides the generals each side has,
//! their names (`KRkaabb`), the canonical colour of a table, what a capture
//! leads to, and the default set.

use crate::variants::xiangqi::Kind;
use crate::variants::Color;

/// The kinds a table may hold besides the generals, in the order a name
/// lists them (the strongest first) and an index lays them out.
pub const KINDS: [Kind; 6] = [
    Kind::Chariot,
    Kind::Horse,
    Kind::Cannon,
    Kind::Soldier,
    Kind::Advisor,
    Kind::Elephant,
];

/// How many pieces of each kind of [`KINDS`] one side has.
pub type Counts = [u8; 6];

/// A material signature: the pieces of each side besides its general
/// (index 0 Red, 1 Black), counted by kind in the order of [`KINDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Red's and Black's counts.
    pub sides: [Counts; 2],
}

/// The place of `kind` in [`KINDS`]; `None` for the general.
pub fn kind_slot(kind: Kind) -> Option<usize> {
    KINDS.iter().position(|&k| k == kind)
}

/// A side's counts weighed for choosing the stronger side: the most
/// attacking material first (chariots, then horses and cannons, then
/// soldiers), the defenders last.
fn weight(c: &Counts) -> (u8, u8, [u8; 6]) {
    (c[0] + c[1] + c[2] + c[3], c[0], *c)
}

impl Material {
    /// The material of `red` and `black` (counts by [`KINDS`]).
    pub const fn new(red: Counts, black: Counts) -> Material {
        Material {
            sides: [red, black],
        }
    }

    /// The same material with the colours exchanged.
    pub fn flipped(self) -> Material {
        Material::new(self.sides[1], self.sides[0])
    }

    /// Whether this is the colour a table is kept in: Red the stronger
    /// side (by [`weight`]); with equal material either.
    pub fn is_canonical(self) -> bool {
        weight(&self.sides[0]) >= weight(&self.sides[1])
    }

    /// The canonical material, and whether the colours were exchanged.
    pub fn canonical(self) -> (Material, bool) {
        if self.is_canonical() {
            (self, false)
        } else {
            (self.flipped(), true)
        }
    }

    /// Pieces besides the generals.
    pub fn pieces(self) -> usize {
        self.sides.iter().flatten().map(|&n| n as usize).sum()
    }

    /// The material after `color` loses one piece of `kind`.
    pub fn without(self, color: Color, kind: Kind) -> Option<Material> {
        let slot = kind_slot(kind)?;
        let mut m = self;
        let n = &mut m.sides[color.index()][slot];
        *n = n.checked_sub(1)?;
        Some(m)
    }

    /// Every material one capture away, canonical, without repeats.
    pub fn captures(self) -> Vec<Material> {
        let mut out = Vec::new();
        for color in [Color::White, Color::Black] {
            for kind in KINDS {
                if let Some(m) = self.without(color, kind) {
                    let m = m.canonical().0;
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// The name: `K`, Red's pieces in upper case, `k`, Black's in lower
    /// case, by their FEN letters (`KRkaabb`, `KNPk`).
    pub fn name(self) -> String {
        let mut s = String::new();
        for color in [Color::White, Color::Black] {
            let upper = color == Color::White;
            s.push(if upper { 'K' } else { 'k' });
            for (slot, kind) in KINDS.iter().enumerate() {
                for _ in 0..self.sides[color.index()][slot] {
                    let c = kind.fen_char();
                    s.push(if upper {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    });
                }
            }
        }
        s
    }

    /// Reads a name as [`Material::name`] writes it (letters in any order
    /// after each `K`; at most two of a kind, five soldiers).
    pub fn parse(name: &str) -> Option<Material> {
        let rest = name.strip_prefix('K')?;
        let (red, black) = rest.split_once('k')?;
        let mut m = Material::default();
        for (color, text) in [(0, red), (1, black)] {
            for c in text.chars() {
                let upper = color == 0;
                if c.is_ascii_uppercase() != upper {
                    return None;
                }
                let kind = Kind::from_fen_char(c.to_ascii_lowercase())?;
                let slot = kind_slot(kind)?;
                let n = &mut m.sides[color][slot];
                *n += 1;
                if *n > kind.max_count() {
                    return None;
                }
            }
        }
        Some(m)
    }
}

impl Default for Material {
    fn default() -> Material {
        Material::new([0; 6], [0; 6])
    }
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// The default set's own endings (canonical): every ending with at most
/// two pieces besides the generals, and one chariot, horse, cannon or
/// soldier against any advisors and elephants. [`closure`] adds what
/// their captures lead to.
pub fn default_set() -> Vec<Material> {
    let mut out = Vec::new();
    let mut push = |m: Material| {
        let m = m.canonical().0;
        if !out.contains(&m) {
            out.push(m);
        }
    };
    let single = |slot: usize| {
        let mut c = [0u8; 6];
        c[slot] += 1;
        c
    };
    push(Material::default());
    for a in 0..KINDS.len() {
        push(Material::new(single(a), [0; 6]));
        for b in 0..KINDS.len() {
            let mut two = single(a);
            two[b] += 1;
            push(Material::new(two, [0; 6]));
            push(Material::new(single(a), single(b)));
        }
    }
    for attacker in 0..4 {
        for defence in defences() {
            push(Material::new(single(attacker), defence));
        }
    }
    out
}

/// The defended set (`arbiter tablebase generate --set defended`): one
/// chariot, horse, cannon or soldier with one of its own advisors or
/// elephants, against any advisors and elephants (none to two of each):
/// 72 endings (64 beyond the default set), such as `KRAkaabb`, which a
/// chariot alone cannot win and a chariot with an advisor mostly wins.
/// Too large to build into the binary (147 million positions a side,
/// about 600 MB in memory once all are probed), it is made on demand.
pub fn defended_set() -> Vec<Material> {
    let mut out = Vec::new();
    for attacker in 0..4 {
        for own in [4, 5] {
            let mut red = [0u8; 6];
            red[attacker] = 1;
            red[own] = 1;
            out.extend(defences().map(|defence| Material::new(red, defence)));
        }
    }
    out
}

/// The nine defences of the default and defended sets: none to two
/// advisors with none to two elephants, and no other piece.
fn defences() -> impl Iterator<Item = [u8; 6]> {
    (0..=2).flat_map(|advisors| (0..=2).map(move |elephants| [0, 0, 0, 0, advisors, elephants]))
}

/// `set` with every ending its captures lead to, the smallest first (so
/// that a table's captures are generated before it).
pub fn closure(set: &[Material]) -> Vec<Material> {
    let mut out: Vec<Material> = Vec::new();
    let mut todo: Vec<Material> = set.iter().map(|m| m.canonical().0).collect();
    while let Some(m) = todo.pop() {
        if out.contains(&m) {
            continue;
        }
        todo.extend(m.captures());
        out.push(m);
    }
    out.sort_by_key(|m| (m.pieces(), m.name()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for m in closure(&default_set()) {
            assert_eq!(Material::parse(&m.name()), Some(m), "{m}");
        }
        let m = Material::parse("KRkaabb").unwrap();
        assert_eq!(m.sides, [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 2, 2]]);
        assert_eq!(Material::parse("KRRRk"), None);
        let kkr = Material::parse("Kkr").unwrap();
        assert_eq!(kkr.flipped(), Material::parse("KRk").unwrap());
        assert!(!kkr.is_canonical());
        assert_eq!(kkr.canonical(), (kkr.flipped(), true));
    }

    #[test]
    fn the_default_set() {
        let set = default_set();
        for name in [
            "Kk", "KRk", "KRRk", "KRkr", "KNkc", "KPkaabb", "KCkab", "KAkb", "KBBk",
        ] {
            assert!(set.contains(&Material::parse(name).unwrap()), "{name}");
        }
        assert!(!set.contains(&Material::parse("KRkaabbp").unwrap_or_default()));
        let defended = defended_set();
        assert_eq!(defended.len(), 72);
        for m in &defended {
            assert!(m.is_canonical(), "{m}");
        }
        // Those against a bare general (`KRAk`) have two pieces: default.
        let beyond = defended.iter().filter(|m| !set.contains(m)).count();
        assert_eq!(beyond, 64);
        for name in ["KRAkaabb", "KCAk", "KNBkpa", "KPBkab"] {
            let m = Material::parse(name).unwrap_or_default();
            assert_eq!(defended.contains(&m), name != "KNBkpa", "{name}");
        }
        let all = closure(&set);
        // Each table's captures come before it.
        for (i, m) in all.iter().enumerate() {
            for c in m.captures() {
                assert!(all[..i].contains(&c), "{c} before {m}");
            }
        }
    }
}
