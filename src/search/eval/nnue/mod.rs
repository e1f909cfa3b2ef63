//! A Xiangqi evaluation network of our own (issue 31): the inputs
//! ([`features`]) and the quantised network the search runs ([`network`]).
//! The data and the trainer that make one are `crate::training`'s (the
//! `training` feature).

pub mod features;
pub mod network;

// The tests make random networks with the trainer's float model.
#[cfg(all(test, feature = "training"))]
mod tests;

pub use network::{Accumulator, Network, NetworkError};

use std::sync::{Arc, LazyLock};

/// The file name of the network the service and `arbiter uci` evaluate
/// Xiangqi with by default: `xiangqi-` and the first 12 hexadecimal digits
/// of the file's SHA-256 (`networks/README.md` records how it was made and
/// the match that accepted it).
pub const SHIPPED_NAME: &str = shipped_name!();

/// The shipped file's name, written once for both the constant and the
/// embedding (`include_bytes!` takes only literals).
macro_rules! shipped_name {
    () => {
        "xiangqi-ecceea1a66f6.nnue"
    };
}
use shipped_name;

/// The shipped network's file, embedded in the binary.
pub static SHIPPED_BYTES: &[u8] = include_bytes!(concat!("networks/", shipped_name!()));

static SHIPPED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    // The embedded bytes are checked by a test (`tests::the_shipped_network_*`).
    Arc::new(Network::from_bytes(SHIPPED_BYTES).expect("the shipped network reads"))
});

/// The shipped network, read once.
pub fn shipped() -> Arc<Network> {
    Arc::clone(&SHIPPED)
}
