//! The tables the process probes: the default set, built into the binary
//! (`default.xtbs`, made by `arbiter tablebase generate --bundle`), and
//! what `--tablebases DIR` adds at start.

use std::path::Path;
use std::sync::OnceLock;

use super::file::TableFileError;
use super::material::{closure, default_set, Material};
use super::tables::Tables;

/// The default set as built into the binary.
static BUNDLE: &[u8] = include_bytes!("default.xtbs");

static INSTALLED: OnceLock<Tables> = OnceLock::new();

/// The default set alone (every table decoded when first probed).
pub fn default_tables() -> Tables {
    Tables::from_bundle(BUNDLE).expect("the built-in bundle is checked by the tests")
}

/// The tables this process probes: those [`install`] set up, or the
/// default set.
pub fn installed() -> &'static Tables {
    INSTALLED.get_or_init(default_tables)
}

/// Sets up the tables to probe: the default set and every table file in
/// `dir` (which wins where both hold a material). Once, before the first
/// probe; `false` when the tables were already set up.
pub fn install(dir: &Path) -> Result<bool, TableFileError> {
    let mut set = default_tables();
    set.extend(Tables::load_dir(dir)?);
    Ok(INSTALLED.set(set).is_ok())
}

/// The default set's own endings and every smaller one they need.
pub fn default_materials() -> Vec<Material> {
    closure(&default_set())
}
