//! The transposition table: one slot per hash bucket, replaced when the new
//! result is at least as deep or belongs to another position.

use super::MATE_BOUND;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this (a beta cutoff).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The transposition table: one entry per slot, indexed by the low bits of
/// the position's key and checked against the whole key.
pub struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
}

impl<M: Copy> Table<M> {
    /// A table of `entries` slots, rounded down to a power of two (at least 1,024).
    pub fn new(entries: usize) -> Table<M> {
        let size = entries.max(1024);
        let size = 1usize << (usize::BITS - 1 - size.leading_zeros());
        Table {
            slots: vec![None; size],
            mask: size - 1,
        }
    }

    /// The entry stored for this key, if its slot holds it.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// Stores a search result; a deeper non-exact result of the same position
    /// is kept over a shallower one.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.slots[key as usize & self.mask];
        match slot {
            Some(old) if old.key == key && old.depth > depth && bound != Bound::Exact => {}
            Some(old) if old.key == key => {
                *old = Entry {
                    key,
                    mv: mv.or(old.mv),
                    score,
                    depth,
                    bound,
                }
            }
            _ => {
                *slot = Some(Entry {
                    key,
                    mv,
                    score,
                    depth,
                    bound,
                })
            }
        }
    }
}

/// Mate scores are stored as distances from the node, not from the root.
pub fn score_to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub fn score_from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mate_in_3_plies_from_ply_5 = super::super::MATE - 8;
        let stored = score_to_table(mate_in_3_plies_from_ply_5, 5);
        assert_eq!(stored, super::super::MATE - 3);
        assert_eq!(score_from_table(stored, 2), super::super::MATE - 5);
        assert_eq!(score_to_table(-120, 7), -120);
    }

    #[test]
    fn deeper_results_are_kept_and_moves_survive() {
        let mut t: Table<u16> = Table::new(1 << 12);
        t.store(42, Some(7), 10, 6, Bound::Lower);
        t.store(42, None, 20, 2, Bound::Upper);
        let e = t.probe(42).expect("stored");
        assert_eq!((e.mv, e.depth, e.score), (Some(7), 6, 10));
        t.store(42, None, 30, 7, Bound::Exact);
        let e = t.probe(42).expect("stored");
        assert_eq!(
            (e.mv, e.depth, e.score, e.bound),
            (Some(7), 7, 30, Bound::Exact)
        );
        assert!(t.probe(43).is_none());
    }
}
