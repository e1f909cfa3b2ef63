//! Xiangqi endgame tablebases: every position of an ending with few
//! pieces, solved by retrograde analysis under the Asian rules (mate and
//! stalemate lose; a side that can only check for ever loses), each table
//! verified against itself before it is kept.
//!
//! - `material.rs`: material signatures (`KRkaabb`), the default set.
//! - `index.rs`: where a position is kept in its table.
//! - `entry.rs`: what a table says of a position ([`Entry`]).
//! - `tables.rs`: tables in memory and the probe; `file.rs`: on disk;
//!   `set.rs`: the set the process probes (the default set is built into
//!   the binary as `default.xtbs`).
//! - `work.rs`: a table in the making (codes, moves left, captures,
//!   unmoves); `rule.rs`: the perpetual-check rule; `chase.rs`: the
//!   draws that may rest on a chase, marked; `verify.rs`: the
//!   verification pass; `generate.rs`: the four put together.
//!
//! Only Xiangqi has tables; the module knows the rules core and nothing
//! above it.

mod chase;
mod entry;
mod file;
mod generate;
mod index;
mod material;
mod rule;
mod set;
mod tables;
#[cfg(test)]
mod tests;
mod verify;
mod work;

pub use entry::{Chase, Distance, Entry};
pub use file::{bundle, file_name, TableFileError};
pub use generate::generate;
pub use index::Layout;
pub use material::{closure, default_set, defended_set, Material, KINDS};
pub use set::{
    adjudicate_with_installed, default_materials, default_tables, install, installed, Endgames,
};
pub use tables::{material_of, Census, Probed, ProbedMove, Table, Tables};
pub use work::GenerateError;
