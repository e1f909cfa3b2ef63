//! The transposition table: buckets of four entries, each entry keeping a
//! position's best move, score, bound, static evaluation and depth. A new
//! result replaces the same position's entry, or else the bucket's least
//! useful one: the shallowest, counting each search since it was written as
//! a loss of depth.

use super::MATE_BOUND;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this (a beta cutoff).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    key: u64,
    /// The best move found, if any.
    pub mv: Option<M>,
    /// The score, mates relative to the node (see [`score_from_table`]).
    pub score: i32,
    /// The static evaluation, `NO_EVAL` when unknown (in check).
    pub eval: i32,
    /// The remaining depth of the search that stored it (0: quiescence).
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
    generation: u8,
}

/// The static evaluation of a position in check: not computed.
pub const NO_EVAL: i32 = i32::MIN;

/// Entries a bucket holds.
const WAYS: usize = 4;

/// The transposition table: a power of two of buckets, each indexed by the
/// low bits of the position's key and checked against the whole key.
pub struct Table<M> {
    buckets: Vec<[Option<Entry<M>>; WAYS]>,
    mask: usize,
    /// Bumped by each search, so that old entries give way first.
    generation: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `entries` entries, rounded down to a power of two
    /// (at least 1,024).
    pub fn new(entries: usize) -> Table<M> {
        let buckets = (entries / WAYS).max(1024 / WAYS);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            buckets: vec![[None; WAYS]; buckets],
            mask: buckets - 1,
            generation: 0,
        }
    }

    /// Marks the start of a new search: entries of earlier searches are
    /// replaced before this one's.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry stored for this key, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.buckets[key as usize & self.mask]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores a search result. The same position's entry is overwritten
    /// unless it is deeper and the new result is not exact (its move is
    /// kept when the new result has none); otherwise the bucket's least
    /// useful entry gives way.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let bucket = &mut self.buckets[key as usize & self.mask];
        let new = Entry {
            key,
            mv,
            score,
            eval,
            depth,
            bound,
            generation,
        };
        if let Some(old) = bucket.iter_mut().flatten().find(|e| e.key == key) {
            if bound != Bound::Exact && old.depth > depth + 2 && old.generation == generation {
                return;
            }
            *old = Entry {
                mv: mv.or(old.mv),
                eval: if eval == NO_EVAL { old.eval } else { eval },
                ..new
            };
            return;
        }
        // The least useful entry: an empty one, else the shallowest,
        // counting every search since it was written as four plies.
        let worth = |e: &Option<Entry<M>>| match e {
            None => i32::MIN,
            Some(e) => e.depth - 4 * i32::from(generation.wrapping_sub(e.generation)),
        };
        let mut victim = 0;
        for i in 1..WAYS {
            if worth(&bucket[i]) < worth(&bucket[victim]) {
                victim = i;
            }
        }
        bucket[victim] = Some(new);
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
        t.store(42, Some(7), 10, 5, 6, Bound::Lower);
        t.store(42, None, 20, NO_EVAL, 2, Bound::Upper);
        let e = t.probe(42).expect("stored");
        assert_eq!((e.mv, e.depth, e.score, e.eval), (Some(7), 6, 10, 5));
        t.store(42, None, 30, NO_EVAL, 7, Bound::Exact);
        let e = t.probe(42).expect("stored");
        assert_eq!(
            (e.mv, e.depth, e.score, e.eval, e.bound),
            (Some(7), 7, 30, 5, Bound::Exact)
        );
        assert!(t.probe(43).is_none());
    }

    #[test]
    fn a_bucket_keeps_its_deepest_entries() {
        let mut t: Table<u16> = Table::new(1024);
        let buckets = 1024 / WAYS as u64;
        // Five keys of one bucket: the shallowest of the first four goes.
        for (i, depth) in [5, 1, 7, 3].into_iter().enumerate() {
            t.store(1 + buckets * i as u64, None, 0, 0, depth, Bound::Lower);
        }
        t.store(1 + buckets * 4, None, 0, 0, 2, Bound::Lower);
        assert!(t.probe(1 + buckets).is_none(), "depth 1 gave way");
        for i in [0, 2, 3, 4] {
            assert!(t.probe(1 + buckets * i).is_some(), "key {i} kept");
        }
        // After a few searches, old deep entries give way to new shallow ones.
        for _ in 0..3 {
            t.new_search();
        }
        t.store(1 + buckets * 5, None, 0, 0, 1, Bound::Lower);
        assert!(t.probe(1 + buckets * 5).is_some());
        assert!(t.probe(1 + buckets * 4).is_none(), "the shallowest old entry gave way");
        assert!(t.probe(1 + buckets * 2).is_some(), "the deepest old entry kept");
    }
}
