//! The table in the making: its codes, the moves left at each position,
//! what its captures lead to, the agenda of levels, and the unmoves
//! (predecessors) retrograde analysis walks back along.

use std::collections::BTreeMap;

use super::entry::{Distance, Entry, DRAW, ILLEGAL, MATE, MAX_PLIES, RULE};
use super::index::{Layout, Placement};
use super::material::Material;
use super::tables::{material_of, Tables};
use crate::variants::xiangqi::board::{
    color_of, kind_of, Piece, Steps, ADVISOR_MOVES, ELEPHANT_MOVES, EMPTY, GENERAL_MOVES,
    HORSE_ATTACKS,
};
use crate::variants::xiangqi::{file_of, rank_of, sq, Kind, Move, Position, Sq};
use crate::variants::Color;

/// Why a table was not made.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// A smaller table a capture leads to is not in the set.
    #[error("{material} needs {missing}, which is not generated")]
    Missing {
        /// The table being made.
        material: Material,
        /// The table its captures need.
        missing: Material,
    },
    /// The verification pass found entries that disagree with their
    /// children (a bug: the table is not written).
    #[error("{material}: {count} entries fail the verification pass, the first {first}")]
    Unverified {
        /// The table.
        material: Material,
        /// How many entries.
        count: u64,
        /// The first one, as FEN and what was found.
        first: String,
    },
    /// A distance too long for the codes.
    #[error("{material}: a distance over {MAX_PLIES} plies")]
    TooLong {
        /// The table.
        material: Material,
    },
}

/// What leaves the table from one position (its captures), by the
/// results of the positions they lead to.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Exits {
    /// The fastest mate win a capture gives (plies), 0 for none.
    pub mate_win: u16,
    /// The slowest mate loss a capture gives (plies), 0 for none.
    pub mate_loss: u16,
    /// The nearest win under the rule a capture gives, 0 for none.
    pub rule_win: u16,
    /// The farthest loss under the rule a capture gives, 0 for none.
    pub rule_loss: u16,
    /// A capture into a drawn ending.
    pub draw: bool,
}

impl Exits {
    fn add(&mut self, child: Entry) {
        match child.before() {
            Entry::Win(Distance::Mate(n)) => {
                self.mate_win = if self.mate_win == 0 {
                    n
                } else {
                    self.mate_win.min(n)
                }
            }
            Entry::Loss(Distance::Mate(n)) => self.mate_loss = self.mate_loss.max(n),
            Entry::Win(Distance::Rule(n)) => {
                self.rule_win = if self.rule_win == 0 {
                    n
                } else {
                    self.rule_win.min(n)
                }
            }
            Entry::Loss(Distance::Rule(n)) => self.rule_loss = self.rule_loss.max(n),
            Entry::Draw | Entry::Illegal => self.draw = true,
        }
    }
}

/// The table in the making.
pub(super) struct Work<'a> {
    pub material: Material,
    pub layout: Layout,
    pub tables: &'a Tables,
    /// Codes by side to move; 0 (a draw) while unresolved.
    pub value: [Vec<u16>; 2],
    /// Moves within the table whose position is not yet known lost for
    /// the mover (a win for the other side).
    pub left: [Vec<u8>; 2],
    /// Captures and their results, for the positions that have any.
    pub exits: [BTreeMap<u64, Exits>; 2],
}

/// Levels to come: what is resolved at each, wins and losses.
#[derive(Default)]
pub(super) struct Agenda {
    levels: BTreeMap<u16, Vec<(Color, u64)>>,
}

impl Agenda {
    pub(super) fn push(&mut self, level: u16, side: Color, index: u64) {
        self.levels.entry(level).or_default().push((side, index));
    }

    fn pop(&mut self) -> Option<(u16, Vec<(Color, u64)>)> {
        self.levels.pop_first()
    }
}

/// The number of threads the passes over a whole table use.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `f` over `0..n` split into one range a thread, and collects what
/// each returns, in order.
pub(super) fn in_parallel<R: Send>(n: u64, f: impl Fn(std::ops::Range<u64>) -> R + Sync) -> Vec<R> {
    let parts = threads().min(n.max(1) as usize) as u64;
    let step = n.div_ceil(parts.max(1));
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..parts)
            .map(|p| {
                let f = &f;
                s.spawn(move || f(p * step..((p + 1) * step).min(n)))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// One position's seed: its code (illegal, lost at 0, or unresolved), the
/// moves within the table, and its captures.
struct Seed {
    code: u16,
    left: u8,
    exits: Option<Exits>,
}

impl<'a> Work<'a> {
    /// The side-to-move index of a colour.
    pub(super) fn at(side: Color) -> usize {
        side.index()
    }

    /// The position at `index` with `side` to move, `None` when illegal.
    pub fn position(&self, side: Color, index: u64) -> Option<(Placement, Position)> {
        let placement = self.layout.decode(index);
        let pos = placement.position(side)?;
        (!pos.general_attacked(!side)).then_some((placement, pos))
    }

    /// The code of a position reached by one move from this table: read
    /// from this table (unresolved: a draw) or, after a capture, from the
    /// table it leads to.
    pub fn code_after(&self, child: &Position, captured: bool) -> Result<u16, GenerateError> {
        if !captured {
            let placement = self.layout.placement(child, false).expect("same material");
            let index = self.layout.encode(&placement).expect("a reachable point");
            return Ok(self.value[Self::at(child.side())][index as usize]);
        }
        self.tables
            .code(child)
            .ok_or_else(|| GenerateError::Missing {
                material: self.material,
                missing: material_of(child).map_or(self.material, |m| m.canonical().0),
            })
    }

    fn seed(&self, side: Color, index: u64) -> Result<Seed, GenerateError> {
        let Some((_, mut pos)) = self.position(side, index) else {
            return Ok(Seed {
                code: ILLEGAL,
                left: 0,
                exits: None,
            });
        };
        let mut moves = Vec::with_capacity(48);
        pos.legal(&mut moves);
        if moves.is_empty() {
            return Ok(Seed {
                code: MATE,
                left: 0,
                exits: None,
            });
        }
        let mut left = 0u8;
        let mut exits: Option<Exits> = None;
        for m in moves {
            if pos.piece_at(m.to) == EMPTY {
                left += 1;
                continue;
            }
            let undo = pos.make(m);
            let code = self.code_after(&pos, true);
            pos.unmake(m, undo);
            exits
                .get_or_insert_with(Exits::default)
                .add(Entry::of(code?));
        }
        Ok(Seed {
            code: DRAW,
            left,
            exits,
        })
    }

    /// Steps 1 and 2: the seed and the mates.
    pub(super) fn seed_all(&mut self) -> Result<Agenda, GenerateError> {
        let size = self.layout.size();
        let mut agenda = Agenda::default();
        for side in [Color::White, Color::Black] {
            let parts = in_parallel(size, |range| {
                let mut out = Vec::with_capacity((range.end - range.start) as usize);
                for i in range {
                    out.push(self.seed(side, i)?);
                }
                Ok::<_, GenerateError>(out)
            });
            let s = Self::at(side);
            let mut i = 0u64;
            for part in parts {
                for seed in part? {
                    self.value[s][i as usize] = if seed.code == MATE { DRAW } else { seed.code };
                    self.left[s][i as usize] = seed.left;
                    if seed.code == MATE {
                        agenda.push(0, side, i);
                    }
                    if let Some(e) = seed.exits {
                        if e.mate_win > 0 {
                            agenda.push(e.mate_win, side, i);
                        } else if seed.left == 0 && !e.draw && e.rule_win == 0 && e.rule_loss == 0 {
                            agenda.push(e.mate_loss, side, i);
                        }
                        self.exits[s].insert(i, e);
                    }
                    i += 1;
                }
            }
        }
        Ok(agenda)
    }

    /// Resolves the agenda level by level, with mate codes (`rule` false)
    /// or the rule's; returns the highest level resolved, if any.
    pub(super) fn run(
        &mut self,
        mut agenda: Agenda,
        rule: bool,
    ) -> Result<Option<u16>, GenerateError> {
        let mut top = None;
        let mut preds = Vec::with_capacity(64);
        while let Some((level, items)) = agenda.pop() {
            if level > MAX_PLIES {
                return Err(GenerateError::TooLong {
                    material: self.material,
                });
            }
            for (side, index) in items {
                let s = Self::at(side);
                if self.value[s][index as usize] != DRAW {
                    continue;
                }
                self.value[s][index as usize] = if rule { RULE | level } else { MATE + level };
                top = top.max(Some(level));
                self.predecessors(side, index, &mut preds);
                let them = !side;
                let t = Self::at(them);
                for &p in &preds {
                    if self.value[t][p as usize] != DRAW {
                        continue;
                    }
                    if level % 2 == 0 {
                        agenda.push(level + 1, them, p);
                        continue;
                    }
                    let left = &mut self.left[t][p as usize];
                    *left -= 1;
                    if *left > 0 {
                        continue;
                    }
                    let e = self.exits[t].get(&p).copied().unwrap_or_default();
                    if e.draw || e.mate_win > 0 || e.rule_win > 0 {
                        continue;
                    }
                    if rule {
                        agenda.push((level + 1).max(e.rule_loss), them, p);
                    } else if e.rule_loss == 0 {
                        agenda.push((level + 1).max(e.mate_loss), them, p);
                    }
                }
            }
        }
        Ok(top)
    }

    /// The positions one non-capture before (`side`, `index`), with the
    /// other side to move, each once.
    pub fn predecessors(&self, side: Color, index: u64, out: &mut Vec<u64>) {
        out.clear();
        let mut placement = self.layout.decode(index);
        let Some(mut pos) = placement.position(side) else {
            return;
        };
        let mover = !side;
        let mut from = Vec::with_capacity(24);
        for j in 0..placement.len {
            let y = placement.points[j];
            let p = placement.pieces[j];
            if color_of(p) != mover {
                continue;
            }
            unmoves(&pos, y, p, &mut from);
            for &x in &from {
                placement.points[j] = x;
                if let Some(i) = self.layout.encode(&placement) {
                    // The position before: legal when the side that did
                    // not move could not be taken then.
                    let m = Move::new(y, x);
                    let undo = pos.make(m);
                    let legal = !pos.general_attacked(side);
                    pos.unmake(m, undo);
                    if legal {
                        out.push(i);
                    }
                }
            }
            placement.points[j] = y;
        }
    }
}

/// Where the piece `p` on `to` could have come from without capturing:
/// empty points from which it reaches `to` by its move.
fn unmoves(pos: &Position, to: Sq, p: Piece, out: &mut Vec<Sq>) {
    out.clear();
    let empty = |s: Sq| pos.piece_at(s) == EMPTY;
    let steps = |t: &Steps, out: &mut Vec<Sq>, via: bool| {
        for i in 0..t.count as usize {
            if empty(t.to[i]) && (!via || empty(t.via[i])) {
                out.push(t.to[i]);
            }
        }
    };
    match kind_of(p) {
        Some(Kind::General) => steps(&GENERAL_MOVES[to as usize], out, false),
        Some(Kind::Advisor) => steps(&ADVISOR_MOVES[to as usize], out, false),
        Some(Kind::Elephant) => steps(&ELEPHANT_MOVES[to as usize], out, true),
        Some(Kind::Horse) => steps(&HORSE_ATTACKS[to as usize], out, true),
        Some(Kind::Chariot | Kind::Cannon) => {
            let (f, r) = (file_of(to) as i32, rank_of(to) as i32);
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (mut x, mut y) = (f + df, r + dr);
                while (0..9).contains(&x) && (0..10).contains(&y) {
                    let s = sq(x as usize, y as usize);
                    if !empty(s) {
                        break;
                    }
                    out.push(s);
                    x += df;
                    y += dr;
                }
            }
        }
        Some(Kind::Soldier) => {
            let red = color_of(p) == Color::White;
            let (f, r) = (file_of(to) as i32, rank_of(to) as i32);
            let back = if red { r - 1 } else { r + 1 };
            if (0..10).contains(&back) && empty(sq(f as usize, back as usize)) {
                out.push(sq(f as usize, back as usize));
            }
            let crossed = if red { r >= 5 } else { r <= 4 };
            if crossed {
                for x in [f - 1, f + 1] {
                    if (0..9).contains(&x) && empty(sq(x as usize, r as usize)) {
                        out.push(sq(x as usize, r as usize));
                    }
                }
            }
        }
        None => {}
    }
}
