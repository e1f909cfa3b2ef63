//! A table on disk, one file a material (`KRkaabb.xtb`):
//!
//! ```text
//! ARBITER-XTB 2\n          magic and format version
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
use super::material::Material;
use super::tables::{Table, Tables};

/// Version 2: draws carry chase marks (version 1, without them, is
/// refused: its draws would read as free of chases).
const MAGIC: &[u8] = b"ARBITER-XTB 2\n";

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
    /// The table as its file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(self.values[0].len() * 4);
        for v in self.values.iter().flatten() {
            raw.extend_from_slice(&v.to_le_bytes());
        }
        let packed = zstd::bulk::compress(&raw, 19).expect("zstd compresses any bytes");
        let mut out = Vec::with_capacity(packed.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(format!("{}\n", self.material.name()).as_bytes());
        out.extend_from_slice(&self.size().to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&raw).to_le_bytes());
        out.extend_from_slice(&packed);
        out
    }

    /// The material a table file's bytes name, read from its header.
    pub fn material_in(bytes: &[u8]) -> Result<Material, &'static str> {
        let rest = bytes.strip_prefix(MAGIC).ok_or("magic")?;
        let end = rest.iter().position(|&b| b == b'\n').ok_or("material")?;
        let name = std::str::from_utf8(&rest[..end]).map_err(|_| "material")?;
        Material::parse(name).ok_or("material")
    }

    /// A table from its file's bytes, checked whole: magic, material,
    /// size and the codes' checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, &'static str> {
        let material = Table::material_in(bytes)?;
        let rest = &bytes[MAGIC.len() + material.name().len() + 1..];
        if rest.len() < 12 {
            return Err("header");
        }
        let size = u64::from_le_bytes(rest[..8].try_into().unwrap());
        let crc = u32::from_le_bytes(rest[8..12].try_into().unwrap());
        if size != Layout::new(material).size() {
            return Err("size");
        }
        let raw = zstd::bulk::decompress(&rest[12..], size as usize * 4)
            .map_err(|_| "compressed codes")?;
        if raw.len() != size as usize * 4 || crc32fast::hash(&raw) != crc {
            return Err("checksum");
        }
        let codes: Vec<u16> = raw
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let (red, black) = codes.split_at(size as usize);
        Ok(Table::new(material, [red.to_vec(), black.to_vec()]))
    }

    /// Writes the table into `dir` under [`file_name`], through a
    /// temporary file renamed into place (a reader never sees half a table).
    pub fn save(&self, dir: &Path) -> Result<(), TableFileError> {
        let path = dir.join(file_name(self.material));
        let io = |source| TableFileError::Io {
            path: path.display().to_string(),
            source,
        };
        let tmp = path.with_extension("xtb.part");
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(&self.to_bytes()).map_err(io)?;
        f.sync_all().map_err(io)?;
        std::fs::rename(&tmp, &path).map_err(io)
    }

    /// Reads the table of `material` from `dir`.
    pub fn load(dir: &Path, material: Material) -> Result<Table, TableFileError> {
        let path = dir.join(file_name(material));
        let bytes = read(&path)?;
        let bad = |why| TableFileError::Format {
            path: path.display().to_string(),
            why,
        };
        if Table::material_in(&bytes).map_err(bad)? != material {
            return Err(bad("material"));
        }
        Table::from_bytes(&bytes).map_err(bad)
    }
}

fn read(path: &Path) -> Result<Vec<u8>, TableFileError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|source| TableFileError::Io {
            path: path.display().to_string(),
            source,
        })?;
    Ok(bytes)
}

/// The magic of a bundle: several table files in one (`default.xtbs`).
const BUNDLE: &[u8] = b"ARBITER-XTBS 1\n";

/// Several tables' files ([`Table::to_bytes`], as written) as one:
/// [`BUNDLE`], then each file's length (u32 LE) and bytes.
pub fn bundle<B: AsRef<[u8]>>(files: &[B]) -> Vec<u8> {
    let mut out = BUNDLE.to_vec();
    for bytes in files {
        let bytes = bytes.as_ref();
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    out
}

impl Tables {
    /// The tables of a bundle ([`bundle`]), each decoded when first
    /// probed; a damaged bundle is refused whole.
    pub fn from_bundle(bytes: &'static [u8]) -> Result<Tables, &'static str> {
        let mut rest = bytes.strip_prefix(BUNDLE).ok_or("bundle magic")?;
        let mut out = Tables::new();
        while !rest.is_empty() {
            if rest.len() < 4 {
                return Err("bundle length");
            }
            let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
            let file = rest.get(4..4 + len).ok_or("bundle length")?;
            out.insert_packed(Table::material_in(file)?, file);
            rest = &rest[4 + len..];
        }
        Ok(out)
    }

    /// Every table file in `dir` (`*.xtb`), each checked whole now and
    /// decoded again when first probed.
    pub fn load_dir(dir: &Path) -> Result<Tables, TableFileError> {
        let mut out = Tables::new();
        let entries = std::fs::read_dir(dir).map_err(|source| TableFileError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("xtb") {
                continue;
            }
            let bytes = read(&path)?;
            let bad = |why| TableFileError::Format {
                path: path.display().to_string(),
                why,
            };
            let table = Table::from_bytes(&bytes).map_err(bad)?;
            if file_name(table.material) != entry.file_name().to_string_lossy() {
                return Err(bad("material"));
            }
            out.insert_packed(table.material, bytes.leak());
        }
        Ok(out)
    }
}
