//! A Xiangqi evaluation network of our own (issue 31): the inputs
//! ([`features`]), the quantised network the search runs ([`network`]),
//! training positions ([`data`]) and the trainer ([`train`]). Training data
//! comes from the engine's own games (`search::datagen`).

pub mod data;
pub mod features;
pub mod network;
pub mod train;

#[cfg(test)]
mod tests;

pub use data::Sample;
pub use network::{Accumulator, Network, NetworkError};
pub use train::{Model, Trainer};
