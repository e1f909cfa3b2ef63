//! The evaluation of each variant, and its answers to the search's questions
//! about results ([`super::Evaluate`]).

pub mod nnue;
mod tamerlane;
mod taxi;
mod wdl_models;
pub mod xiangqi;

use crate::variants::Color;

/// A score kept per colour (`[white, black]`), seen from the side to move.
#[inline]
fn for_side(score: [i32; 2], side: Color) -> i32 {
    let white = score[0] - score[1];
    match side {
        Color::White => white,
        Color::Black => -white,
    }
}
