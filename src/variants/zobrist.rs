//! Zobrist keys, made at compile time: one generator for every variant.

/// One step of splitmix64: the next state and its output.
pub(crate) const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// A table of `P` x `S` keys drawn from the stream seeded by `seed`.
pub(crate) const fn table<const P: usize, const S: usize>(seed: u64) -> [[u64; S]; P] {
    let mut t = [[0u64; S]; P];
    let mut state = seed;
    let mut p = 0;
    while p < P {
        let mut s = 0;
        while s < S {
            let (next, v) = splitmix(state);
            state = next;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    t
}

/// A key for a number (a balance, a count), drawn from `salt`.
#[inline]
pub(crate) const fn of_value(value: u64, salt: u64) -> u64 {
    splitmix(value.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ salt).1
}
