//! A table on disk, one file a material (`KRkaabb.xtb`):
//!
//! ```text
//! ARBITER-XTB 1\n          magic and format version
//! KRkaabb\n                the material
//! <u64 LE>                 positions a side to move
//! <u32 LE>                 CRC-32 of the codes as written below
//! <zstd frame>             the codes, u16 LE: Red to move, then Black
//! ```
//!
//! A file whose magic, material, size or checksum disagrees is refused
//! whole, never half read.

use std::io::{Read, Write};
use std::path::Path;

use super::index::Layout;
use super::material::{closure, Material};
use super::tables::{Table, Tables};

const MAGIC: &[u8] = b"ARBITER-XTB 1\n";

/// The file name of a material's table.
pub fn file_name(material: Material) -> String {
    format!("{}.xtb", material.name())
}

/// Why a table file was not read or written.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    /// The file system's error.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Not a table of this format, or damaged.
    #[error("{path}: not a table file of this version ({why})")]
    Format {
        /// The file.
        path: String,
        /// What disagrees.
        why: &'static str,
    },
}

impl Table {
    /// Writes the table into `dir` under [`file_name`], through a
    /// temporary file renamed into place (a reader never sees half a table).
    pub fn save(&self, dir: &Path) -> Result<(), TableFileError> {
        let path = dir.join(file_name(self.material));
        let io = |source| TableFileError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut raw = Vec::with_capacity(self.values[0].len() * 4);
        for v in self.values.iter().flatten() {
            raw.extend_from_slice(&v.to_le_bytes());
        }
        let packed = zstd::bulk::compress(&raw, 19).map_err(io)?;
        let tmp = path.with_extension("xtb.part");
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(MAGIC).map_err(io)?;
        f.write_all(format!("{}\n", self.material.name()).as_bytes())
            .map_err(io)?;
        f.write_all(&self.size().to_le_bytes()).map_err(io)?;
        f.write_all(&crc32fast::hash(&raw).to_le_bytes())
            .map_err(io)?;
        f.write_all(&packed).map_err(io)?;
        f.sync_all().map_err(io)?;
        std::fs::rename(&tmp, &path).map_err(io)
    }

    /// Reads the table of `material` from `dir`.
    pub fn load(dir: &Path, material: Material) -> Result<Table, TableFileError> {
        let path = dir.join(file_name(material));
        let shown = path.display().to_string();
        let io = |source| TableFileError::Io {
            path: shown.clone(),
            source,
        };
        let bad = |why| TableFileError::Format {
            path: shown.clone(),
            why,
        };
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(io)?;
        let rest = bytes.strip_prefix(MAGIC).ok_or_else(|| bad("magic"))?;
        let name = format!("{}\n", material.name());
        let rest = rest
            .strip_prefix(name.as_bytes())
            .ok_or_else(|| bad("material"))?;
        if rest.len() < 12 {
            return Err(bad("header"));
        }
        let size = u64::from_le_bytes(rest[..8].try_into().unwrap());
        let crc = u32::from_le_bytes(rest[8..12].try_into().unwrap());
        let table_size = Layout::new(material).size();
        if size != table_size {
            return Err(bad("size"));
        }
        let raw = zstd::bulk::decompress(&rest[12..], size as usize * 4)
            .map_err(|_| bad("compressed codes"))?;
        if raw.len() != size as usize * 4 || crc32fast::hash(&raw) != crc {
            return Err(bad("checksum"));
        }
        let codes: Vec<u16> = raw
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let (red, black) = codes.split_at(size as usize);
        Ok(Table::new(material, [red.to_vec(), black.to_vec()]))
    }
}

impl Tables {
    /// Reads the tables of `set`'s closure from `dir`; `None` when any of
    /// them is missing there (the set is not there), an error when one is
    /// damaged.
    pub fn load_set(dir: &Path, set: &[Material]) -> Result<Option<Tables>, TableFileError> {
        let mut out = Tables::new();
        for material in closure(set) {
            if !dir.join(file_name(material)).exists() {
                return Ok(None);
            }
            out.insert(Table::load(dir, material)?);
        }
        Ok(Some(out))
    }
}
