//! The evaluation of each variant, and its answers to the search's questions
//! about results ([`super::Evaluate`]).

mod tamerlane;
mod taxi;
mod xiangqi;
