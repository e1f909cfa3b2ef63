//! The transposition table, shared by every thread of a search: buckets of
//! four entries, each keeping a position's best move (as a 16-bit
//! signature, see [`super::Evaluate::move_signature`]), score, bound,
//! static evaluation and depth in one 64-bit word, stored beside the key
//! XOR that word. Threads read and write without locks; a read whose two
//! words do not belong together (another thread wrote in between) fails
//! the key check and is ignored. A new result replaces the same position's
//! entry, or else the bucket's least useful one: the shallowest, counting
//! each search since it was written as a loss of depth.

use std::any::Any;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move's signature (0: none).
    pub mv: u16,
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

/// Entries a bucket holds (four of 16 bytes: one cache line).
const WAYS: usize = 4;

/// The memory one entry takes: a bucket's share.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Bucket>() / WAYS;

impl Entry {
    fn pack(&self) -> u64 {
        let eval = if self.eval == NO_EVAL {
            i16::MIN
        } else {
            self.eval.clamp(-32_767, 32_767) as i16
        };
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.mv)
            | u64::from(self.score.clamp(-32_767, 32_767) as i16 as u16) << 16
            | u64::from(eval as u16) << 32
            | u64::from(self.depth.clamp(-128, 127) as i8 as u8) << 48
            | (bound | u64::from(self.generation & 0x3F) << 2) << 56
    }

    /// The entry a word holds, `None` for an empty one.
    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let eval = (data >> 32) as u16 as i16;
        Some(Entry {
            mv: data as u16,
            score: i32::from((data >> 16) as u16 as i16),
            eval: if eval == i16::MIN {
                NO_EVAL
            } else {
                i32::from(eval)
            },
            depth: i32::from((data >> 48) as u8 as i8),
            bound,
            generation: (data >> 58) as u8,
        })
    }
}

/// One bucket: two words an entry (key XOR data, data), `WAYS` entries,
/// on one cache line of its own.
#[repr(align(64))]
struct Bucket([AtomicU64; WAYS * 2]);

/// The transposition table: a power of two of buckets, each indexed by the
/// low bits of the position's key and checked against the whole key.
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    /// Bumped by each search, so that old entries give way first.
    generation: AtomicU8,
    /// What else one search leaves for the next on this table: the main
    /// thread's move-ordering histories (a `searcher::Histories` of
    /// the variant searched), emptied with the table.
    kept: Mutex<Option<Box<dyn Any + Send>>>,
}

impl Table {
    /// A table of about `entries` entries, rounded down to a power of two
    /// (at least 1,024).
    pub fn new(entries: usize) -> Table {
        let buckets = (entries / WAYS).max(1024 / WAYS);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            buckets: (0..buckets)
                .map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
            mask: buckets - 1,
            generation: AtomicU8::new(0),
            kept: Mutex::new(None),
        }
    }

    /// The memory the table's entries take, in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Empties the table (a new game whose search must not depend on the
    /// games before it).
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for word in &bucket.0 {
                word.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
        self.forget_kept();
    }

    /// Takes what the last search kept with the table, if it is a `T`.
    pub(super) fn take_kept<T: Any + Send>(&self) -> Option<T> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner()).take()?;
        kept.downcast::<T>().ok().map(|b| *b)
    }

    /// Forgets what the last search kept with the table (the next search
    /// starts with empty histories, as on a fresh table).
    pub(super) fn forget_kept(&self) {
        *self.kept.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Keeps `value` with the table for the next search.
    pub(super) fn keep<T: Any + Send>(&self, value: T) {
        *self.kept.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(value));
    }

    /// Marks the start of a new search: entries of earlier searches are
    /// replaced before this one's.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & 0x3F, Ordering::Relaxed);
    }

    /// The words of the bucket for `key`.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64; WAYS * 2] {
        &self.buckets[key as usize & self.mask].0
    }

    /// Asks the processor to bring the bucket for `key` into its cache
    /// (where it can: x86-64), so that the probe a little later does not
    /// wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: a prefetch is a hint with no effect on memory or on
            // the program's behaviour, and never faults; the address is
            // the start of a bucket this table owns.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for this key, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        (0..WAYS).find_map(|i| {
            let data = bucket[2 * i + 1].load(Ordering::Relaxed);
            let check = bucket[2 * i].load(Ordering::Relaxed);
            if check ^ data == key {
                Entry::unpack(data)
            } else {
                None
            }
        })
    }

    /// Stores a search result. The same position's entry is overwritten
    /// unless it is deeper, of this search, and the new result is not exact
    /// (its move and evaluation are kept when the new result has none);
    /// otherwise the bucket's least useful entry gives way.
    #[inline]
    pub fn store(&self, key: u64, mv: u16, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut new = Entry {
            mv,
            score,
            eval,
            depth,
            bound,
            generation,
        };
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..WAYS {
            let data = bucket[2 * i + 1].load(Ordering::Relaxed);
            let check = bucket[2 * i].load(Ordering::Relaxed);
            let old = Entry::unpack(data);
            if check ^ data == key {
                if let Some(old) = old {
                    if bound != Bound::Exact
                        && old.depth > depth + 2
                        && old.generation == generation
                    {
                        return;
                    }
                    if new.mv == 0 {
                        new.mv = old.mv;
                    }
                    if new.eval == NO_EVAL {
                        new.eval = old.eval;
                    }
                }
                victim = i;
                break;
            }
            // The least useful entry: an empty one, else the shallowest,
            // counting every search since it was written as four plies.
            let worth = match old {
                None => i32::MIN,
                Some(e) => {
                    let age = i32::from(generation.wrapping_sub(e.generation) & 0x3F);
                    e.depth - 4 * age
                }
            };
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let data = new.pack();
        bucket[2 * victim].store(key ^ data, Ordering::Relaxed);
        bucket[2 * victim + 1].store(data, Ordering::Relaxed);
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
    fn a_table_of_so_many_mib_takes_that_many() {
        assert_eq!(ENTRY_BYTES, 16);
        for mb in [1, 16, 64] {
            let table = Table::new(crate::search::table_entries(mb));
            assert_eq!(table.bytes(), mb << 20, "{mb} MiB");
        }
        // Not a power of two: the largest that fits.
        assert_eq!(
            Table::new(crate::search::table_entries(24)).bytes(),
            16 << 20
        );
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mate_in_3_plies_from_ply_5 = super::super::MATE - 8;
        let stored = score_to_table(mate_in_3_plies_from_ply_5, 5);
        assert_eq!(stored, super::super::MATE - 3);
        assert_eq!(score_from_table(stored, 2), super::super::MATE - 5);
        assert_eq!(score_to_table(-120, 7), -120);
    }

    #[test]
    fn entries_pack_into_one_word() {
        for (mv, score, eval, depth, bound) in [
            (0, 0, 0, 0, Bound::Exact),
            (8_100, -29_990, NO_EVAL, 63, Bound::Upper),
            (u16::MAX, 30_000, -28_999, -1, Bound::Lower),
        ] {
            let e = Entry {
                mv,
                score,
                eval,
                depth,
                bound,
                generation: 37,
            };
            assert_eq!(Entry::unpack(e.pack()), Some(e));
        }
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn deeper_results_are_kept_and_moves_survive() {
        let t = Table::new(1 << 12);
        t.store(42, 7, 10, 5, 6, Bound::Lower);
        t.store(42, 0, 20, NO_EVAL, 2, Bound::Upper);
        let e = t.probe(42).expect("stored");
        assert_eq!((e.mv, e.depth, e.score, e.eval), (7, 6, 10, 5));
        t.store(42, 0, 30, NO_EVAL, 7, Bound::Exact);
        let e = t.probe(42).expect("stored");
        assert_eq!(
            (e.mv, e.depth, e.score, e.eval, e.bound),
            (7, 7, 30, 5, Bound::Exact)
        );
        assert!(t.probe(43).is_none());
    }

    #[test]
    fn a_bucket_keeps_its_deepest_entries() {
        let t = Table::new(1024);
        let buckets = 1024 / WAYS as u64;
        // Five keys of one bucket: the shallowest of the first four goes.
        for (i, depth) in [5, 1, 7, 3].into_iter().enumerate() {
            t.store(1 + buckets * i as u64, 0, 0, 0, depth, Bound::Lower);
        }
        t.store(1 + buckets * 4, 0, 0, 0, 2, Bound::Lower);
        assert!(t.probe(1 + buckets).is_none(), "depth 1 gave way");
        for i in [0, 2, 3, 4] {
            assert!(t.probe(1 + buckets * i).is_some(), "key {i} kept");
        }
        // After a few searches, old deep entries give way to new shallow ones.
        for _ in 0..3 {
            t.new_search();
        }
        t.store(1 + buckets * 5, 0, 0, 0, 1, Bound::Lower);
        assert!(t.probe(1 + buckets * 5).is_some());
        assert!(
            t.probe(1 + buckets * 4).is_none(),
            "the shallowest old entry gave way"
        );
        assert!(
            t.probe(1 + buckets * 2).is_some(),
            "the deepest old entry kept"
        );
    }

    #[test]
    fn threads_share_a_table() {
        let t = Table::new(1 << 14);
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for k in 0..2_000u64 {
                        let key = (k << 8 | thread).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        t.store(key, k as u16, k as i32, 0, 1, Bound::Exact);
                        if let Some(e) = t.probe(key) {
                            assert_eq!(e.score, k as i32, "an entry is never torn");
                        }
                    }
                });
            }
        });
    }
}
