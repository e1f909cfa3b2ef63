//! The tables in memory: one material's codes ([`Table`]), a set of
//! them by canonical material ([`Tables`]), and the probe.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::entry::{Chase, Distance, Entry};
use super::index::Layout;
use super::material::{kind_slot, Material};
use crate::variants::xiangqi::board::EMPTY;
use crate::variants::xiangqi::{Kind, Move, Position};
use crate::variants::Color;

/// The material of a position, as it stands (not made canonical); `None`
/// when a side has more of a kind than a table can hold.
pub fn material_of(pos: &Position) -> Option<Material> {
    let mut m = Material::default();
    for color in [Color::White, Color::Black] {
        for s in pos.pieces(color) {
            let (_, kind) = pos.kind_at(s)?;
            if kind == Kind::General {
                continue;
            }
            let slot = kind_slot(kind)?;
            m.sides[color.index()][slot] += 1;
            if m.sides[color.index()][slot] > 2 {
                return None;
            }
        }
    }
    Some(m)
}

/// One material's table: a code a position, for each side to move.
#[derive(Clone, Debug)]
pub struct Table {
    pub(super) material: Material,
    pub(super) layout: Layout,
    pub(super) values: [Vec<u16>; 2],
}

impl Table {
    /// A table of `material` (canonical) from its codes.
    pub(super) fn new(material: Material, values: [Vec<u16>; 2]) -> Table {
        Table {
            material,
            layout: Layout::new(material),
            values,
        }
    }

    /// The table's material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Positions per side to move.
    pub fn size(&self) -> u64 {
        self.layout.size()
    }

    /// The code of a position of this table's material as it stands (not
    /// turned over); `None` for another material or a piece where the
    /// table keeps none.
    pub(super) fn code(&self, pos: &Position) -> Option<u16> {
        self.code_turned(pos, false)
    }

    fn code_turned(&self, pos: &Position, turn: bool) -> Option<u16> {
        let placement = self.layout.placement(pos, turn)?;
        let index = self.layout.encode(&placement)?;
        let side = if turn { !pos.side() } else { pos.side() };
        Some(self.values[side.index()][index as usize])
    }

    /// The entry at `index` with `side` to move, and its position (`None`
    /// for an illegal entry): for tools that go through a whole table.
    pub fn at(&self, side: Color, index: u64) -> (Option<Position>, Entry) {
        let entry = Entry::of(self.values[side.index()][index as usize]);
        let pos = match entry {
            Entry::Illegal => None,
            _ => self.layout.position(index, side),
        };
        (pos, entry)
    }

    /// How many positions of each kind, over both sides to move: illegal,
    /// drawn, won or lost by mate, won or lost under the rule.
    pub fn census(&self) -> Census {
        let mut c = Census::default();
        for &code in self.values.iter().flatten() {
            match Entry::of(code) {
                Entry::Illegal => c.illegal += 1,
                Entry::Draw(chase) => {
                    c.draws += 1;
                    if chase != Chase::Free {
                        c.chase += 1;
                    }
                }
                Entry::Win(Distance::Mate(n)) | Entry::Loss(Distance::Mate(n)) => {
                    c.mates += 1;
                    c.longest = c.longest.max(n);
                }
                Entry::Win(Distance::Rule(_)) | Entry::Loss(Distance::Rule(_)) => c.rule += 1,
            }
        }
        c
    }
}

/// What a table holds ([`Table::census`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Illegal positions.
    pub illegal: u64,
    /// Draws.
    pub draws: u64,
    /// Draws that may rest on a chase (marked [`Chase::Must`] or
    /// [`Chase::Forces`]), among `draws`.
    pub chase: u64,
    /// Wins and losses by mate.
    pub mates: u64,
    /// Wins and losses under the perpetual-check rule.
    pub rule: u64,
    /// The longest mate, in plies.
    pub longest: u16,
}

/// A set of tables, by canonical material.
#[derive(Debug, Default)]
pub struct Tables {
    tables: HashMap<Material, Slot>,
    /// The most pieces besides the generals of any table held: a position
    /// with more is outside the set before its material is read.
    most: u32,
}

/// One table of a set: decoded, or kept as its file's bytes (checked when
/// read) and decoded when first probed.
#[derive(Debug)]
struct Slot {
    packed: Option<&'static [u8]>,
    table: OnceLock<Table>,
}

impl Tables {
    /// No tables.
    pub fn new() -> Tables {
        Tables::default()
    }

    /// Adds a table.
    pub fn insert(&mut self, table: Table) {
        let material = table.material;
        self.most = self.most.max(material.pieces() as u32);
        self.tables.insert(
            material,
            Slot {
                packed: None,
                table: OnceLock::from(table),
            },
        );
    }

    /// Adds a table as its file's bytes, already checked, to be decoded
    /// when first probed.
    pub(super) fn insert_packed(&mut self, material: Material, bytes: &'static [u8]) {
        self.most = self.most.max(material.pieces() as u32);
        self.tables.insert(
            material,
            Slot {
                packed: Some(bytes),
                table: OnceLock::new(),
            },
        );
    }

    /// Adds every table of `other`, replacing those of the same material.
    pub fn extend(&mut self, other: Tables) {
        self.most = self.most.max(other.most);
        self.tables.extend(other.tables);
    }

    /// Whether the set holds the table of a material (either colour).
    pub fn contains(&self, material: Material) -> bool {
        self.tables.contains_key(&material.canonical().0)
    }

    /// The table of a material (either colour), if present; decoded now
    /// if it was kept packed.
    pub fn get(&self, material: Material) -> Option<&Table> {
        let slot = self.tables.get(&material.canonical().0)?;
        Some(slot.table.get_or_init(|| {
            let bytes = slot.packed.expect("a slot holds a table or its bytes");
            Table::from_bytes(bytes).expect("checked when it was read")
        }))
    }

    /// The materials held, sorted by name.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.tables.keys().copied().collect();
        v.sort_by_key(|m| (m.pieces(), m.name()));
        v
    }

    /// The code of a position, turned over when its table keeps the other
    /// colour; `None` outside the tables.
    pub(super) fn code(&self, pos: &Position) -> Option<u16> {
        let men = (pos.occupied_by(Color::White) | pos.occupied_by(Color::Black)).count_ones();
        if men > self.most + 2 {
            return None;
        }
        let (material, turn) = material_of(pos)?.canonical();
        self.get(material)?.code_turned(pos, turn)
    }

    /// What the tables say of a position and of each of its legal moves
    /// (from the mover's side), the moves best first; `None` when no table
    /// holds the position.
    pub fn probe_moves(&self, pos: &Position) -> Option<Probed> {
        let entry = self.probe(pos)?;
        let material = material_of(pos)?;
        let mut pos = pos.clone();
        let mut legal = Vec::new();
        pos.legal(&mut legal);
        let mut moves = Vec::with_capacity(legal.len());
        for m in legal {
            let capture = pos.piece_at(m.to) != EMPTY;
            let undo = pos.make(m);
            let child = self.probe(&pos);
            pos.unmake(m, undo);
            // A capture always leads into a smaller table of the set.
            moves.push(ProbedMove {
                mv: m,
                capture,
                entry: child?.before(),
            });
        }
        moves.sort_by_key(|m| m.entry.rank());
        Some(Probed {
            material,
            entry,
            moves,
        })
    }

    /// What the tables say of a position (for its side to move); `None`
    /// when no table holds it.
    pub fn probe(&self, pos: &Position) -> Option<Entry> {
        self.code(pos).map(Entry::of)
    }
}

/// A position probed with its moves ([`Tables::probe_moves`]; generic
/// over the move type for `Endgames`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probed<M = Move> {
    /// Its material as it stands (`Kkr` for Black's lone chariot; the
    /// table that holds it is kept as `KRk`).
    pub material: Material,
    /// The position's entry, for its side to move.
    pub entry: Entry,
    /// Every legal move, best first.
    pub moves: Vec<ProbedMove<M>>,
}

/// One legal move of a probed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbedMove<M = Move> {
    /// The move.
    pub mv: M,
    /// Whether it captures.
    pub capture: bool,
    /// Where it leads, for the side that plays it.
    pub entry: Entry,
}
