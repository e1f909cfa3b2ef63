//! arbiter: a stateless rules service for Xiangqi, Tamerlane chess and Taxi chess.

#![warn(missing_docs)]

#[cfg(feature = "server")]
pub mod api;
pub mod diagram;
pub mod dispatch;
#[doc(hidden)]
pub mod fuzzing;
pub mod pgn;
pub mod prose;
pub mod search;
pub mod tablebase;
#[cfg(feature = "training")]
pub mod training;
pub mod uci;
pub mod variants;
