//! The bitboard tables of the board's geometry (issue 17): a point's bit,
//! each piece's targets from each point, the soldiers' attackers, and for
//! each point of a file or rank and each occupancy of that line the
//! chariot's reach and the cannon's capture. Built at compile time;
//! re-exported by [`super::board`].

use super::board::*;

/// The bitboard of one point: bit `s` of a `u128` (bits 90 to 127 are
/// never set).
#[inline]
pub const fn bit(s: Sq) -> u128 {
    1u128 << s
}

/// Each point's steps as a bitboard: their targets, or with `legs` the
/// points they pass.
const fn steps_bb(t: &[Steps; POINTS], legs: bool) -> [u128; POINTS] {
    let mut out = [0u128; POINTS];
    let mut s = 0;
    while s < POINTS {
        let mut i = 0;
        while i < t[s].count as usize {
            out[s] |= 1u128 << if legs { t[s].via[i] } else { t[s].to[i] };
            i += 1;
        }
        s += 1;
    }
    out
}

/// General targets from each point (inside its palace), as bitboards.
pub static GENERAL_BB: [u128; POINTS] = steps_bb(&GENERAL_MOVES, false);
/// Advisor targets from each point, as bitboards.
pub static ADVISOR_BB: [u128; POINTS] = steps_bb(&ADVISOR_MOVES, false);
/// The points from which a horse could attack each point (legs ignored).
pub static HORSE_REACH: [u128; POINTS] = steps_bb(&HORSE_ATTACKS, false);

/// The legs of the horses that could attack each point: the points where a
/// piece blocks (or, leaving, unblocks) a horse's attack on it.
pub static HORSE_ATTACK_LEGS: [u128; POINTS] = steps_bb(&HORSE_ATTACKS, true);

/// Which of a point's four orthogonal neighbours are occupied, as the index
/// of [`HORSE_BB`]: bit 0 above (rank + 1), 1 below, 2 right (file + 1),
/// 3 left. A neighbour off the board reads as whatever bit lies there; the
/// targets it would block are off the board too.
#[inline]
pub const fn legs(occ: u128, s: Sq) -> usize {
    let s = s as u32;
    (((occ >> (s + 9)) & 1)
        | (((occ << 9) >> s) & 1) << 1
        | ((occ >> (s + 1)) & 1) << 2
        | (((occ << 1) >> s) & 1) << 3) as usize
}

/// Which of a point's four diagonal neighbours are occupied, as the index
/// of [`ELEPHANT_BB`]: bit 0 up-right, 1 up-left, 2 down-right, 3 down-left.
#[inline]
pub const fn eyes(occ: u128, s: Sq) -> usize {
    let s = s as u32;
    (((occ >> (s + 10)) & 1)
        | ((occ >> (s + 8)) & 1) << 1
        | (((occ << 8) >> s) & 1) << 2
        | (((occ << 10) >> s) & 1) << 3) as usize
}

/// Horse targets by point and [`legs`] index: the points whose leg is free.
pub static HORSE_BB: [[u128; 16]; POINTS] = by_blockers(
    &HORSE_DELTAS,
    // Each step's leg as a bit of the index: above, below, right, left.
    &[0, 0, 1, 1, 2, 2, 3, 3],
    false,
);

/// Elephant targets by point and [`eyes`] index: the points whose eye is
/// free, on the elephant's side of the river.
pub static ELEPHANT_BB: [[u128; 16]; POINTS] =
    by_blockers(&[(2, 2), (-2, 2), (2, -2), (-2, -2)], &[0, 1, 2, 3], true);

/// The targets of a stepping piece by point and by which of the points
/// that can block its steps are occupied (the index, one bit a blocking
/// point, `blocker[i]` the bit of step `deltas[i]`); with `river`, only
/// steps that stay on their side of the river.
const fn by_blockers(
    deltas: &[(i32, i32)],
    blocker: &[usize],
    river: bool,
) -> [[u128; 16]; POINTS] {
    let mut t = [[0u128; 16]; POINTS];
    let mut s = 0;
    while s < POINTS {
        let (f, r) = signed_file_rank(s);
        let mut blocked = 0;
        while blocked < 16 {
            let mut i = 0;
            while i < deltas.len() {
                let (df, dr) = deltas[i];
                let (tf, tr) = (f + df, r + dr);
                let stays = !river || (r <= 4) == (tr <= 4);
                if on_board(tf, tr) && stays && blocked & (1 << blocker[i]) == 0 {
                    t[s][blocked] |= 1u128 << sq(tf as usize, tr as usize);
                }
                i += 1;
            }
            blocked += 1;
        }
        s += 1;
    }
    t
}

const fn soldier_steps(c: usize, s: usize) -> u128 {
    let f = s % FILES;
    let r = s / FILES;
    let mut out = 0u128;
    let crossed = if c == 0 { r >= 5 } else { r <= 4 };
    if c == 0 && r + 1 < RANKS {
        out |= 1u128 << sq(f, r + 1);
    }
    if c == 1 && r > 0 {
        out |= 1u128 << sq(f, r - 1);
    }
    if crossed && f > 0 {
        out |= 1u128 << sq(f - 1, r);
    }
    if crossed && f + 1 < FILES {
        out |= 1u128 << sq(f + 1, r);
    }
    out
}

/// Soldier targets by colour index (Red 0) and point, built at compile time.
const SOLDIER_TARGETS: [[u128; POINTS]; 2] = {
    let mut t = [[0u128; POINTS]; 2];
    let mut s = 0;
    while s < POINTS {
        t[0][s] = soldier_steps(0, s);
        t[1][s] = soldier_steps(1, s);
        s += 1;
    }
    t
};

/// For each point, the points whose `targets` include it.
const fn inverse(targets: &[u128; POINTS]) -> [u128; POINTS] {
    let mut t = [0u128; POINTS];
    let mut s = 0;
    while s < POINTS {
        let mut bits = targets[s];
        while bits != 0 {
            t[bits.trailing_zeros() as usize] |= 1u128 << s;
            bits &= bits - 1;
        }
        s += 1;
    }
    t
}

/// Soldier targets by colour index (Red 0) and point.
pub static SOLDIER_BB: [[u128; POINTS]; 2] = SOLDIER_TARGETS;

/// The points from which a soldier of colour index `c` attacks each point.
pub static SOLDIER_ATTACKERS: [[u128; POINTS]; 2] =
    [inverse(&SOLDIER_TARGETS[0]), inverse(&SOLDIER_TARGETS[1])];

/// Along one line of `n` points, with `occ` its occupied points: the points
/// a chariot on point `i` reaches (the first piece each way included), and
/// the points a cannon on `i` could take (the second piece each way).
const fn line_targets(n: usize, i: usize, occ: u32) -> (u16, u16) {
    let mut slide = 0u16;
    let mut hop = 0u16;
    let mut dir = 0;
    while dir < 2 {
        let mut seen = 0;
        let mut j = i as i32;
        loop {
            j += if dir == 0 { 1 } else { -1 };
            if j < 0 || j >= n as i32 {
                break;
            }
            let occupied = occ & (1 << j) != 0;
            if seen == 0 {
                slide |= 1 << j;
            }
            if occupied {
                seen += 1;
                if seen == 2 {
                    hop |= 1 << j;
                    break;
                }
            }
        }
        dir += 1;
    }
    (slide, hop)
}

/// Chariot and cannon targets along every point of a line of `N` points,
/// by the point and the line's occupancy (`OCC` = 2^N of them): `[slide,
/// hop]` as masks of the line ([`line_targets`]).
const fn line_table<const N: usize, const OCC: usize>() -> [[[u16; 2]; OCC]; N] {
    let mut t = [[[0u16; 2]; OCC]; N];
    let mut i = 0;
    while i < N {
        let mut occ = 0;
        while occ < OCC {
            let (slide, hop) = line_targets(N, i, occ as u32);
            t[i][occ] = [slide, hop];
            occ += 1;
        }
        i += 1;
    }
    t
}

/// Chariot and cannon targets along a file, by rank and the file's
/// occupancy (bit = rank): `[slide, hop]`, as rank masks.
pub static FILE_LINES: [[[u16; 2]; 1 << RANKS]; RANKS] = line_table::<RANKS, { 1 << RANKS }>();

/// Chariot and cannon targets along a rank, by file and the rank's
/// occupancy (bit = file): `[slide, hop]`, as file masks.
pub static RANK_LINES: [[[u16; 2]; 1 << FILES]; FILES] = line_table::<FILES, { 1 << FILES }>();

/// A rank mask (bit = rank) as the points of file a.
pub static FILE_SPREAD: [u128; 1 << RANKS] = {
    let mut t = [0u128; 1 << RANKS];
    let mut m = 0;
    while m < 1 << RANKS {
        let mut r = 0;
        while r < RANKS {
            if m & (1 << r) != 0 {
                t[m] |= 1u128 << (r * FILES);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// The points of file a.
pub const FILE_A: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < RANKS {
        m |= 1u128 << (r * FILES);
        r += 1;
    }
    m
};
/// The points of rank 0.
pub const RANK_0: u128 = (1u128 << FILES) - 1;
