//! The quantised network the search evaluates with: 1,260 inputs to a
//! hidden layer of `hidden` units for each side's view (the same weights
//! for both), squared clipped ReLU, one output from both halves (the side
//! to move's first). Integer arithmetic throughout, the accumulators kept
//! per ply and updated by the inputs a move changes.
//!
//! The file: the magic `ARBXQNN1`, the format version, the inputs and the
//! hidden units (`u32` each, little-endian), then the input weights (one
//! row of `hidden` `i16` per input), the hidden biases (`i16`), the output
//! weights (`2 × hidden` `i16`), the output bias (`i32`), and a CRC-32 of
//! everything before it.

use super::features::{feature, pieces, Delta, INPUTS};
use crate::variants::xiangqi::Position;
use crate::variants::Color;

/// The input layer's quantisation: a float weight of 1 is this integer.
pub const QA: i32 = 255;
/// The output layer's quantisation.
pub const QB: i32 = 256;
/// The output (about a win probability's logit) times this is centipawns.
pub const SCALE: i32 = 400;
/// The largest hidden layer a file may have.
pub const MAX_HIDDEN: usize = 512;
/// The file format's version.
pub const VERSION: u32 = 1;
/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"ARBXQNN1";
const HEADER: usize = 8 + 3 * 4;

/// Why a network file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with the magic.
    #[error("not an arbiter Xiangqi network (the file does not start with ARBXQNN1)")]
    Magic,
    /// Another version of the format.
    #[error("network format version {0}; this build reads version {VERSION}")]
    Version(u32),
    /// Another input layer.
    #[error("the network has {0} inputs; Xiangqi's networks have {INPUTS}")]
    Inputs(u32),
    /// A hidden layer this build does not take.
    #[error(
        "the network's hidden layer has {0} units; 16 to {MAX_HIDDEN} in steps of 16 are read"
    )]
    Hidden(u32),
    /// Too short or too long for its layers.
    #[error(
        "the network file has {found} bytes where its layers take {expected}: truncated or damaged"
    )]
    Size {
        /// Bytes in the file.
        found: usize,
        /// Bytes its header promises.
        expected: usize,
    },
    /// Layers of the wrong lengths handed to [`Network::from_parts`].
    #[error("layers of {found} values where {expected} are needed for their hidden units")]
    Layers {
        /// Values handed over.
        found: usize,
        /// Values the hidden layer's size takes.
        expected: usize,
    },
    /// The checksum does not match.
    #[error("the network file is damaged: its CRC-32 is {found:08x}, it records {recorded:08x}")]
    Checksum {
        /// Computed over the file.
        found: u32,
        /// Written at its end.
        recorded: u32,
    },
}

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// One row of `hidden` per input.
    weights: Vec<i16>,
    bias: Vec<i16>,
    /// The side to move's half, then the other's.
    output: Vec<i16>,
    output_bias: i32,
    /// The output weights split as `lo + 128 · hi` (`lo` in 0..128, `hi` a
    /// byte), when every weight allows it: then the output layer runs on
    /// 16-bit multiplies ([`kernels::output_split`]), with the same sums.
    split: Option<SplitOutput>,
}

/// The output weights in two parts, each product of which fits 16 bits.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct SplitOutput {
    pub(super) lo: Vec<i16>,
    pub(super) hi: Vec<i16>,
}

impl SplitOutput {
    /// The split of `output`, if every weight is within ±16,384.
    pub(super) fn new(output: &[i16]) -> Option<SplitOutput> {
        output
            .iter()
            .all(|&w| (-16_384..16_384).contains(&w))
            .then(|| SplitOutput {
                lo: output.iter().map(|&w| w & 127).collect(),
                hi: output.iter().map(|&w| w >> 7).collect(),
            })
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("output_bias", &self.output_bias)
            .finish_non_exhaustive()
    }
}

/// The hidden layer's sums before activation, one half for each side's
/// view (`[Red's, Black's]`); the first `hidden` entries of each are used.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// By the viewing side's index.
    pub halves: [[i16; MAX_HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            halves: [[0; MAX_HIDDEN]; 2],
        }
    }
}

/// Whether a hidden layer of `h` units is read: 16 to [`MAX_HIDDEN`] in steps of 16.
fn hidden_ok(h: usize) -> bool {
    h > 0 && h <= MAX_HIDDEN && h.is_multiple_of(16)
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

fn read_i16s(bytes: &[u8], at: &mut usize, n: usize) -> Vec<i16> {
    let v = bytes[*at..*at + 2 * n]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    *at += 2 * n;
    v
}

impl Network {
    /// A network from its layers (`weights`: one row of `hidden` per input;
    /// `output`: the side to move's half first).
    pub fn from_parts(
        hidden: usize,
        weights: Vec<i16>,
        bias: Vec<i16>,
        output: Vec<i16>,
        output_bias: i32,
    ) -> Result<Network, NetworkError> {
        if !hidden_ok(hidden) {
            return Err(NetworkError::Hidden(hidden as u32));
        }
        let expected = INPUTS * hidden + hidden + 2 * hidden;
        let found = weights.len() + bias.len() + output.len();
        if weights.len() != INPUTS * hidden || bias.len() != hidden || output.len() != 2 * hidden {
            return Err(NetworkError::Layers { found, expected });
        }
        Ok(Network {
            hidden,
            weights,
            bias,
            split: SplitOutput::new(&output),
            output,
            output_bias,
        })
    }

    /// Whether the output layer runs on its split weights (every output
    /// weight within ±16,384: any network trained here).
    pub fn has_split_output(&self) -> bool {
        self.split.is_some()
    }

    /// The hidden units of each half.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The layers, as [`Network::from_parts`] takes them: the input
    /// weights, the hidden biases, the output weights and the output bias.
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], i32) {
        (&self.weights, &self.bias, &self.output, self.output_bias)
    }

    /// Reads a network file, checking its header, size and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER || bytes[..8] != MAGIC {
            return Err(NetworkError::Magic);
        }
        let version = read_u32(bytes, 8);
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let inputs = read_u32(bytes, 12);
        if inputs as usize != INPUTS {
            return Err(NetworkError::Inputs(inputs));
        }
        let hidden = read_u32(bytes, 16);
        let h = hidden as usize;
        if !hidden_ok(h) {
            return Err(NetworkError::Hidden(hidden));
        }
        let expected = HEADER + 2 * (INPUTS * h + h + 2 * h) + 4 + 4;
        if bytes.len() != expected {
            return Err(NetworkError::Size {
                found: bytes.len(),
                expected,
            });
        }
        let recorded = read_u32(bytes, expected - 4);
        let found = crc32fast::hash(&bytes[..expected - 4]);
        if found != recorded {
            return Err(NetworkError::Checksum { found, recorded });
        }
        let mut at = HEADER;
        let weights = read_i16s(bytes, &mut at, INPUTS * h);
        let bias = read_i16s(bytes, &mut at, h);
        let output = read_i16s(bytes, &mut at, 2 * h);
        let output_bias = read_u32(bytes, at) as i32;
        Network::from_parts(h, weights, bias, output, output_bias)
    }

    /// The network as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = self.hidden;
        let mut out = Vec::with_capacity(HEADER + 2 * (INPUTS * h + 3 * h) + 8);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(h as u32).to_le_bytes());
        for v in self.weights.iter().chain(&self.bias).chain(&self.output) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    #[inline]
    fn row(&self, input: usize) -> &[i16] {
        &self.weights[input * self.hidden..(input + 1) * self.hidden]
    }

    /// Computes `view`'s half of the accumulator from the position's pieces.
    pub fn refresh_half(&self, pos: &Position, view: Color, half: &mut [i16; MAX_HIDDEN]) {
        let half = &mut half[..self.hidden];
        half.copy_from_slice(&self.bias);
        for (s, p) in pieces(pos) {
            kernels::add(half, self.row(feature(view, p, s)));
        }
    }

    /// Computes both halves of the accumulator from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        for view in [Color::White, Color::Black] {
            self.refresh_half(pos, view, &mut acc.halves[view.index()]);
        }
    }

    /// The child's accumulator from its parent's and the move's change.
    #[inline]
    pub fn update(&self, parent: &Accumulator, delta: &Delta, child: &mut Accumulator) {
        let h = self.hidden;
        for view in [Color::White, Color::Black] {
            let (added, removed, n) = delta.inputs(view);
            let src = &parent.halves[view.index()][..h];
            let dst = &mut child.halves[view.index()][..h];
            let sub2 = (n == 2).then(|| self.row(removed[1]));
            kernels::update(dst, src, self.row(added), self.row(removed[0]), sub2);
        }
    }

    /// The evaluation in centipawns for `side` to move, from an accumulator.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Color) -> i32 {
        let h = self.hidden;
        let us = &acc.halves[side.index()][..h];
        let them = &acc.halves[(!side).index()][..h];
        let sum = match &self.split {
            Some(sp) => {
                kernels::output_split(us, &self.output[..h], &sp.lo[..h], &sp.hi[..h])
                    + kernels::output_split(them, &self.output[h..], &sp.lo[h..], &sp.hi[h..])
            }
            None => {
                kernels::output(us, &self.output[..h]) + kernels::output(them, &self.output[h..])
            }
        };
        let out = sum / i64::from(QA) + i64::from(self.output_bias);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of a position for its side to move, accumulators
    /// computed from scratch.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos.side())
    }
}

/// The inner loops, written once and compiled twice on x86-64: with AVX2
/// (chosen at run time when the processor has it) and without.
pub(crate) mod kernels {
    use super::QA;

    #[inline(always)]
    fn add_body(dst: &mut [i16], row: &[i16]) {
        for (d, r) in dst.iter_mut().zip(row) {
            *d = d.wrapping_add(*r);
        }
    }

    #[inline(always)]
    fn update_body(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16], sub2: Option<&[i16]>) {
        let n = dst.len();
        let (src, add, sub) = (&src[..n], &add[..n], &sub[..n]);
        match sub2 {
            Some(sub2) => {
                let sub2 = &sub2[..n];
                for i in 0..n {
                    dst[i] = src[i]
                        .wrapping_add(add[i])
                        .wrapping_sub(sub[i])
                        .wrapping_sub(sub2[i]);
                }
            }
            None => {
                for i in 0..n {
                    dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
                }
            }
        }
    }

    /// Σ clamp(x, 0, QA)² · w. One term fits 32 bits (255² × 32,767 is
    /// below 2³¹); blocks of 16 are summed in 64 bits.
    #[inline(always)]
    fn output_body(acc: &[i16], w: &[i16]) -> i64 {
        let mut total = 0i64;
        for (a, w) in acc.chunks(16).zip(w.chunks(16)) {
            let mut lanes = [0i32; 16];
            for i in 0..a.len() {
                let v = i32::from(a[i]).clamp(0, QA);
                lanes[i] = (v * i32::from(w[i])) * v;
            }
            total += lanes.iter().map(|&x| i64::from(x)).sum::<i64>();
        }
        total
    }

    #[cfg(target_arch = "x86_64")]
    mod avx2 {
        #[target_feature(enable = "avx2")]
        pub(super) fn add(dst: &mut [i16], row: &[i16]) {
            super::add_body(dst, row)
        }
        #[target_feature(enable = "avx2")]
        pub(super) fn update(
            dst: &mut [i16],
            src: &[i16],
            add: &[i16],
            sub: &[i16],
            sub2: Option<&[i16]>,
        ) {
            super::update_body(dst, src, add, sub, sub2)
        }
        #[target_feature(enable = "avx2")]
        pub(super) fn output(acc: &[i16], w: &[i16]) -> i64 {
            super::output_body(acc, w)
        }

        /// [`super::output_body`] for weights `lo + 128 · hi`, sixteen units
        /// at a time: `v · lo` and `v · hi` fit 16 bits (`v` at most 255,
        /// `lo` below 128, `hi` within ±128), and `madd` sums their
        /// products with `v` in pairs into 32-bit lanes, which hold 64 such
        /// terms (32 blocks of 16 units) without overflow.
        #[target_feature(enable = "avx2")]
        pub(super) fn output_split(acc: &[i16], lo: &[i16], hi: &[i16]) -> i64 {
            use std::arch::x86_64::*;
            let n = acc.len();
            assert!(n.is_multiple_of(16) && n <= super::super::MAX_HIDDEN);
            assert!(lo.len() == n && hi.len() == n);
            let zero = _mm256_setzero_si256();
            let top = _mm256_set1_epi16(super::QA as i16);
            let mut sum_lo = _mm256_setzero_si256();
            let mut sum_hi = _mm256_setzero_si256();
            for i in (0..n).step_by(16) {
                // SAFETY: `i + 16 <= n`, the length of all three slices
                // (asserted above); unaligned loads.
                let (a, l, h) = unsafe {
                    (
                        _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(lo.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(hi.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
                sum_lo = _mm256_add_epi32(sum_lo, _mm256_madd_epi16(_mm256_mullo_epi16(v, l), v));
                sum_hi = _mm256_add_epi32(sum_hi, _mm256_madd_epi16(_mm256_mullo_epi16(v, h), v));
            }
            let mut lanes = [[0i32; 8]; 2];
            // SAFETY: each array holds 32 bytes; unaligned stores.
            unsafe {
                _mm256_storeu_si256(lanes[0].as_mut_ptr().cast(), sum_lo);
                _mm256_storeu_si256(lanes[1].as_mut_ptr().cast(), sum_hi);
            }
            let total = |l: &[i32; 8]| l.iter().map(|&x| i64::from(x)).sum::<i64>();
            total(&lanes[0]) + 128 * total(&lanes[1])
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn has_avx2() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
    }

    /// `dst += row`.
    #[inline]
    pub(crate) fn add(dst: &mut [i16], row: &[i16]) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { avx2::add(dst, row) };
        }
        add_body(dst, row)
    }

    /// `dst = src + add − sub (− sub2)`.
    #[inline]
    pub(crate) fn update(
        dst: &mut [i16],
        src: &[i16],
        add: &[i16],
        sub: &[i16],
        sub2: Option<&[i16]>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { avx2::update(dst, src, add, sub, sub2) };
        }
        update_body(dst, src, add, sub, sub2)
    }

    /// The output layer's sum over one half, for weights `w` split as
    /// `lo + 128 · hi`: the same sum as [`output`], faster with AVX2.
    #[inline]
    pub(crate) fn output_split(acc: &[i16], w: &[i16], lo: &[i16], hi: &[i16]) -> i64 {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { avx2::output_split(acc, lo, hi) };
        }
        let _ = (lo, hi);
        output_body(acc, w)
    }

    /// The output layer's sum over one half.
    #[inline]
    pub(crate) fn output(acc: &[i16], w: &[i16]) -> i64 {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { avx2::output(acc, w) };
        }
        output_body(acc, w)
    }
}
