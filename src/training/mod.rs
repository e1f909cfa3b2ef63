//! Making the engine's Xiangqi network (issue 31), apart from the service:
//! self-play data ([`datagen`]: the engine's own games, or games played
//! elsewhere rescored), training positions as the trainer keeps them
//! ([`data`]) and the trainer ([`train`]: a float model, checkpoints,
//! quantised into the network `search::eval::nnue` runs). Built with the
//! `training` feature (the examples `datagen` and `train_nnue`, and every
//! test build, have it); the service's build leaves it out.

pub mod data;
pub mod datagen;
pub mod train;

pub use data::Sample;
pub use train::{Model, Trainer};
