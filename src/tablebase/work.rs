//! The table in the making: its codes, the moves left at each position,
//! what its captures lead to, the agenda of levels, and the unmoves
//! (predecessors) retrograde analysis walks back along.

use std::collections::{BTreeMap, HashMap};

use super::entry::{Chase, Distance, Entry, DRAW, ILLEGAL, MATE, MAX_PLIES, RULE};
use super::index::Layout;
use super::material::Material;
use super::tables::{material_of, Tables};
use crate::variants::bits::bits;
use crate::variants::xiangqi::bitboards::{bit, SOLDIER_ATTACKERS};
use crate::variants::xiangqi::board::{color_of, kind_of, Piece, EMPTY, HORSE_ATTACKS};
use crate::variants::xiangqi::{Kind, Move, Position, Sq};
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
    /// A capture into a draw the capturer need not keep by chasing
    /// ([`Chase::Must`] it is not): a way out of the chase marks' set.
    pub free_draw: bool,
    /// A capture into a draw where the capturer can leave the other side
    /// only checks and chases ([`Chase::Forces`]).
    pub forcing: bool,
}

impl Exits {
    fn add(&mut self, child: Entry) {
        // The smaller of a kept distance (0: none yet) and `n`.
        let nearest = |kept: u16, n: u16| if kept == 0 { n } else { kept.min(n) };
        match child.before() {
            Entry::Win(Distance::Mate(n)) => self.mate_win = nearest(self.mate_win, n),
            Entry::Loss(Distance::Mate(n)) => self.mate_loss = self.mate_loss.max(n),
            Entry::Win(Distance::Rule(n)) => self.rule_win = nearest(self.rule_win, n),
            Entry::Loss(Distance::Rule(n)) => self.rule_loss = self.rule_loss.max(n),
            Entry::Draw(chase) => {
                self.draw = true;
                self.free_draw |= chase != Chase::Must;
                self.forcing |= chase == Chase::Forces;
            }
            Entry::Illegal => {
                self.draw = true;
                self.free_draw = true;
            }
        }
    }

    /// The level at which a position with these captures is lost once
    /// every move within the table loses, the last of them at `level`:
    /// never when a capture draws or wins, nor by mate (`rule` false) when
    /// a capture loses only under the rule; else one ply after the slowest
    /// loss of its scale.
    pub(super) fn loss_at(&self, level: u16, rule: bool) -> Option<u16> {
        if self.draw || self.mate_win > 0 || self.rule_win > 0 {
            return None;
        }
        if rule {
            Some(level.max(self.rule_loss))
        } else {
            (self.rule_loss == 0).then_some(level.max(self.mate_loss))
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

/// The candidates for a set like the perpetual-check rule's: every
/// drawn position with `side` to move that no capture lets out
/// (`out(exits)` false), whose every non-capturing move leads to a
/// position the other side wins or into a draw by a move `keep(before,
/// move, after)` accepts; each with the positions those moves lead to.
pub(super) fn candidates(
    work: &Work<'_>,
    side: Color,
    out: impl Fn(&Exits) -> bool + Sync,
    keep: impl Fn(&Position, Move, &Position) -> bool + Sync,
) -> BTreeMap<u64, Vec<u64>> {
    let s = side.index();
    let t = (!side).index();
    let parts = in_parallel(work.layout.size(), |range| {
        let mut found: Vec<(u64, Vec<u64>)> = Vec::new();
        let mut moves = Vec::with_capacity(48);
        'next: for i in range {
            if work.value[s][i as usize] != DRAW || work.exits[s].get(&i).is_some_and(&out) {
                continue;
            }
            let Some(mut pos) = work.position(side, i) else {
                continue;
            };
            let before = pos.clone();
            pos.legal(&mut moves);
            let mut onward = Vec::new();
            for &m in &moves {
                if pos.piece_at(m.to) != EMPTY {
                    continue;
                }
                let undo = pos.make(m);
                let c = work.index_of(&pos);
                let kept = match Entry::of(work.value[t][c as usize]) {
                    Entry::Win(_) => None,
                    Entry::Draw(_) => Some(keep(&before, m, &pos)),
                    _ => Some(false),
                };
                pos.unmake(m, undo);
                match kept {
                    None => {}
                    Some(true) => onward.push(c),
                    Some(false) => continue 'next,
                }
            }
            found.push((i, onward));
        }
        found
    });
    parts.into_iter().flatten().collect()
}

/// Whether `side`, to move at `index`, has a move that does not capture
/// and that `quiet(before, move, after)` accepts, into `set`: the answer
/// back that keeps a position in such a set.
pub(super) fn answers_into(
    work: &Work<'_>,
    side: Color,
    index: u64,
    set: &BTreeMap<u64, Vec<u64>>,
    quiet: impl Fn(&Position, Move, &Position) -> bool,
) -> bool {
    let Some(mut pos) = work.position(side, index) else {
        return false;
    };
    let before = pos.clone();
    let mut moves: Vec<Move> = Vec::with_capacity(48);
    pos.legal(&mut moves);
    moves.into_iter().any(|m| {
        if pos.piece_at(m.to) != EMPTY {
            return false;
        }
        let undo = pos.make(m);
        let into = set.contains_key(&work.index_of(&pos)) && quiet(&before, m, &pos);
        pos.unmake(m, undo);
        into
    })
}

/// The largest subset of `set` in which every position's onward
/// positions (the other side to move) each have an answer back into the
/// subset: positions go, a round at a time, until none does.
/// `answers(onward, subset)` says whether the other side, at `onward`,
/// has such an answer; it is asked once a round for each onward position.
/// The perpetual-check rule (`rule.rs`) and the chase marks (`chase.rs`)
/// are both this greatest fixed point, with their own moves and answers.
pub(super) fn largest_closed(
    mut set: BTreeMap<u64, Vec<u64>>,
    answers: impl Fn(u64, &BTreeMap<u64, Vec<u64>>) -> bool,
) -> BTreeMap<u64, Vec<u64>> {
    loop {
        let mut answered: HashMap<u64, bool> = HashMap::new();
        let gone: Vec<u64> = set
            .iter()
            .filter(|(_, onward)| {
                onward
                    .iter()
                    .any(|&c| !*answered.entry(c).or_insert_with(|| answers(c, &set)))
            })
            .map(|(&i, _)| i)
            .collect();
        if gone.is_empty() {
            return set;
        }
        for i in gone {
            set.remove(&i);
        }
    }
}

/// One position's seed: its code (illegal, lost at 0, or unresolved), the
/// moves within the table, and its captures.
struct Seed {
    code: u16,
    left: u8,
    exits: Option<Exits>,
}

impl<'a> Work<'a> {
    /// The position at `index` with `side` to move, `None` when illegal.
    pub fn position(&self, side: Color, index: u64) -> Option<Position> {
        self.layout.position(index, side)
    }

    /// The index of a position of this table's material (reached by a
    /// move that does not capture).
    pub fn index_of(&self, pos: &Position) -> u64 {
        let placement = self.layout.placement(pos, false).expect("same material");
        self.layout.encode(&placement).expect("a reachable point")
    }

    /// The code of the position a capture leads to, from the smaller table
    /// it is in.
    fn exit_code(&self, child: &Position) -> Result<u16, GenerateError> {
        self.tables
            .code(child)
            .ok_or_else(|| GenerateError::Missing {
                material: self.material,
                missing: material_of(child).map_or(self.material, |m| m.canonical().0),
            })
    }

    fn seed(&self, side: Color, index: u64) -> Result<Seed, GenerateError> {
        let Some(mut pos) = self.position(side, index) else {
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
            let code = self.exit_code(&pos);
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
            let s = side.index();
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
                        } else if seed.left == 0 {
                            if let Some(level) = e.loss_at(0, false) {
                                agenda.push(level, side, i);
                            }
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
                let s = side.index();
                if self.value[s][index as usize] != DRAW {
                    continue;
                }
                self.value[s][index as usize] = if rule { RULE | level } else { MATE + level };
                top = top.max(Some(level));
                self.predecessors(side, index, &mut preds);
                let them = !side;
                let t = them.index();
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
                    if let Some(at) = e.loss_at(level + 1, rule) {
                        agenda.push(at, them, p);
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
        for j in 0..placement.len {
            let y = placement.points[j];
            let p = placement.pieces[j];
            if color_of(p) != mover {
                continue;
            }
            for x in bits(unmoves(&pos, y, p)) {
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
/// the empty points from which its move reaches `to`, read from the move
/// generator's own tables. A soldier came from where a soldier attacking
/// `to` stands; a horse from where a horse attacking `to` stands, its leg
/// (beside the point it left) free; every other piece moves alike both
/// ways, so from where its quiet moves from `to` go.
fn unmoves(pos: &Position, to: Sq, p: Piece) -> u128 {
    let empty = !(pos.occupied_by(Color::White) | pos.occupied_by(Color::Black));
    match kind_of(p) {
        Some(Kind::Soldier) => SOLDIER_ATTACKERS[color_of(p).index()][to as usize] & empty,
        Some(Kind::Horse) => {
            let h = &HORSE_ATTACKS[to as usize];
            (0..h.count as usize)
                .filter(|&i| empty & bit(h.via[i]) != 0)
                .fold(0, |from, i| from | bit(h.to[i]))
                & empty
        }
        _ => pos.targets(to) & empty,
    }
}
