//! XQF, the binary game file of XQStudio (象棋演播室) and most Chinese
//! desktop programs: a 1,024-byte header (signature `XQ`, version, keys,
//! the 32 pieces' points, the game's texts as length-prefixed GB18030
//! strings) and a tree of 4-byte move records, each perhaps with a comment.
//! Versions up to 10 are plain; from 11 on the points, moves and comment
//! lengths are masked with keys made from the header, and the move area is
//! a stream enciphered with a 32-byte key (the layout as the format's 2001
//! note and XQStudio's reader define it; `docs/records.md` has the table).
//! The main line is read; variations are skipped with a warning.

use super::placement::{self, Placement};
use super::{MoveToken, PgnWarning, Record, RecordFormat, RecordedResult};
use crate::variants::NotationName;

/// Why bytes are not an XQF game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XqfError {
    /// The file does not begin with `XQ`.
    NoSignature,
    /// The file ends inside its header (1,024 bytes) or inside a move
    /// record; `at` is the byte offset where more was needed.
    Truncated {
        /// The offset.
        at: usize,
    },
    /// A version this reader does not know (above 18).
    Version(u8),
    /// The header's pieces are no position: a side without its general, or
    /// two pieces on one point.
    Placement,
    /// A move record of the main line names a point off the board.
    OffBoard {
        /// The move's number in the main line (from 1).
        ply: usize,
    },
}

/// The header's size; the move records follow it.
const HEADER: usize = 0x400;
/// The newest version XQStudio writes and reads.
const NEWEST: u8 = 18;
/// The text the stream key is made from (32 bytes).
const KEY_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Whether `bytes` begin as an XQF file does.
pub fn is_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"XQ") && bytes.len() >= HEADER
}

/// The keys of a file: zero for a plain one (version 10 and below).
#[derive(Default)]
struct Keys {
    xy: u8,
    from: u8,
    to: u8,
    comment: i64,
    stream: [u8; 32],
}

impl Keys {
    fn of(h: &[u8]) -> Keys {
        let version = h[2];
        if version <= 10 {
            return Keys::default();
        }
        let square = |b: u8| -> u64 {
            let b = u64::from(b);
            ((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8
        };
        let (mask, sum, hxy, hfrom, hto) = (h[3], h[0x0c], h[0x0d], h[0x0e], h[0x0f]);
        let xy = (square(hxy) * u64::from(hxy)) as u8;
        let from = (square(hfrom) * u64::from(xy)) as u8;
        let to = (square(hto) * u64::from(from)) as u8;
        let comment = ((i64::from(sum) * 256 + i64::from(hxy)) % 32000) + 767;
        let parts = [
            (sum & mask) | h[8],
            (hxy & mask) | h[9],
            (hfrom & mask) | h[10],
            (hto & mask) | h[11],
        ];
        let mut stream = [0u8; 32];
        for (i, k) in stream.iter_mut().enumerate() {
            *k = KEY_TEXT[i] & parts[i % 4];
        }
        Keys {
            xy,
            from,
            to,
            comment,
            stream,
        }
    }
}

/// A point of the format (file × 10 + rank, from Red's left and Red's
/// side) in ICCS, or `None` off the board.
fn point(v: u8) -> Option<(u8, u8)> {
    (v < 90).then_some((v / 10, v % 10))
}

fn iccs((file, rank): (u8, u8)) -> [char; 2] {
    // `point` gives only points of the board.
    placement::iccs(file, rank).unwrap_or(['?', '?'])
}

/// A length-prefixed string of `size` bytes at `at`, as GB18030.
fn text(h: &[u8], at: usize, size: usize) -> String {
    let len = usize::from(h[at]).min(size - 1);
    let (t, _, _) = encoding_rs::GB18030.decode(&h[at + 1..at + 1 + len]);
    t.trim().to_owned()
}

/// Reads an XQF file: the header's texts as tags (`Title`, `Event`,
/// `Date`, `Site`, `Red`, `Black`, `Result`, `FEN`, and `Annotator` and
/// `Author` where given), the main line's moves in ICCS.
pub fn read(bytes: &[u8]) -> Result<Record, XqfError> {
    if !bytes.starts_with(b"XQ") {
        return Err(XqfError::NoSignature);
    }
    if bytes.len() < HEADER {
        return Err(XqfError::Truncated { at: bytes.len() });
    }
    let h = &bytes[..HEADER];
    let version = h[2];
    if version > NEWEST {
        return Err(XqfError::Version(version));
    }
    let keys = Keys::of(h);
    // The 32 pieces: rotated and masked from version 12 (masked in 11).
    let mut placed = [0u8; 32];
    for (i, &raw) in h[0x10..0x30].iter().enumerate() {
        let to = if version >= 12 {
            (i + 1 + usize::from(keys.xy)) % 32
        } else {
            i
        };
        placed[to] = raw;
    }
    let mut board = Placement::default();
    for (i, &v) in placed.iter().enumerate() {
        if let Some((file, rank)) = point(v.wrapping_sub(keys.xy)) {
            if !board.put(i, file, rank) {
                return Err(XqfError::Placement);
            }
        }
    }
    if !board.has_generals() {
        return Err(XqfError::Placement);
    }
    // The move area, deciphered as a stream keyed by the file offset.
    let area: Vec<u8> = bytes[HEADER..]
        .iter()
        .enumerate()
        .map(|(i, &b)| b.wrapping_sub(keys.stream[(HEADER + i) % 32]))
        .collect();
    let (moves, skipped) = main_line(&area, version, &keys)?;
    let fen = board.fen(moves.first().map(|&(from, _)| from), h[0x32] == 1);
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tag = |name: &str, value: String| {
        if !value.is_empty() {
            tags.push((name.to_owned(), value));
        }
    };
    tag("Title", text(h, 0x50, 64));
    tag("Event", text(h, 0xd0, 64));
    tag("Date", text(h, 0x110, 16));
    tag("Site", text(h, 0x120, 16));
    tag("Red", text(h, 0x130, 16));
    tag("Black", text(h, 0x140, 16));
    tag("TimeControl", text(h, 0x150, 64));
    tag("Annotator", text(h, 0x1d0, 16));
    tag("Author", text(h, 0x1e0, 16));
    let result = match h[0x33] {
        1 => RecordedResult::FirstWins,
        2 => RecordedResult::SecondWins,
        3 | 4 => RecordedResult::Draw,
        _ => RecordedResult::Unknown,
    };
    tag("Result", result.as_str().to_owned());
    tag("FEN", fen);
    let mut warnings = Vec::new();
    if skipped > 0 {
        warnings.push(PgnWarning::VariationsSkipped { moves: skipped });
    }
    Ok(Record {
        format: RecordFormat::Xqf,
        notation: Some(NotationName::Iccs),
        tags,
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, &(from, to))| MoveToken {
                text: iccs(from).into_iter().chain(iccs(to)).collect(),
                line: i + 1,
            })
            .collect(),
        termination: Some(result),
        warnings,
    })
}

type Point = (u8, u8);

/// The main line's moves and how many records of variations follow them.
fn main_line(
    area: &[u8],
    version: u8,
    keys: &Keys,
) -> Result<(Vec<(Point, Point)>, usize), XqfError> {
    let mut at = 0;
    let mut moves = Vec::new();
    let mut records = 0usize;
    let mut in_main = true;
    // The records of the tree, in order; `open` counts the subtrees still
    // to come (a record with a variation promises one more).
    let mut open = 1usize;
    while open > 0 {
        let record = area
            .get(at..at + 4)
            .ok_or(XqfError::Truncated { at: HEADER + at })?;
        at += 4;
        let (has_next, has_variation, has_comment) = if version <= 10 {
            (record[2] & 0xf0 != 0, record[2] & 0x0f != 0, true)
        } else {
            let tag = record[2] & 0xe0;
            (tag & 0x80 != 0, tag & 0x40 != 0, tag & 0x20 != 0)
        };
        if has_comment {
            let len = area
                .get(at..at + 4)
                .ok_or(XqfError::Truncated { at: HEADER + at })?;
            at += 4;
            let len =
                i64::from(i32::from_le_bytes(len.try_into().expect("4 bytes"))) - keys.comment;
            if len > 0 {
                let len = usize::try_from(len).unwrap_or(usize::MAX);
                if area.len() - at < len {
                    return Err(XqfError::Truncated {
                        at: HEADER + area.len(),
                    });
                }
                at += len;
            }
        }
        // The first record is the start position's, not a move.
        if records > 0 && in_main {
            let from = point(record[0].wrapping_sub(0x18).wrapping_sub(keys.from));
            let to = point(record[1].wrapping_sub(0x20).wrapping_sub(keys.to));
            match (from, to) {
                (Some(from), Some(to)) => moves.push((from, to)),
                _ => {
                    return Err(XqfError::OffBoard {
                        ply: moves.len() + 1,
                    })
                }
            }
        }
        records += 1;
        open -= 1;
        if has_variation {
            open += 1;
        }
        if has_next {
            open += 1;
        } else {
            in_main = false;
        }
    }
    let skipped = records - 1 - moves.len();
    Ok((moves, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain (version 10) file: the start position, `moves` as
    /// (from, to) points of the format, and `variation` records after the
    /// main line (alternatives to its first move).
    pub(crate) fn plain(moves: &[(u8, u8)], variation: &[(u8, u8)]) -> Vec<u8> {
        let mut f = vec![0u8; HEADER];
        f[..3].copy_from_slice(b"XQ\x0a");
        let start: [u8; 32] = [
            0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83, 9, 19, 29, 39, 49, 59,
            69, 79, 89, 17, 77, 6, 26, 46, 66, 86,
        ];
        f[0x10..0x30].copy_from_slice(&start);
        f[0x33] = 1;
        f[0x130] = 3;
        f[0x131..0x134].copy_from_slice(b"Zhu");
        let push = |f: &mut Vec<u8>, from: u8, to: u8, tag: u8| {
            f.extend_from_slice(&[from + 0x18, to + 0x20, tag, 0, 0, 0, 0, 0]);
        };
        push(&mut f, 0, 0, if moves.is_empty() { 0 } else { 0xf0 });
        for (i, &(from, to)) in moves.iter().enumerate() {
            let next = if i + 1 < moves.len() { 0xf0 } else { 0 };
            let var = if i == 0 && !variation.is_empty() {
                0x0f
            } else {
                0
            };
            push(&mut f, from, to, next | var);
        }
        for (i, &(from, to)) in variation.iter().enumerate() {
            push(
                &mut f,
                from,
                to,
                if i + 1 < variation.len() { 0xf0 } else { 0 },
            );
        }
        f
    }

    #[test]
    fn a_plain_file_reads_its_position_moves_and_tags() {
        // h2e2 (72 -> 42), h9g7 (79 -> 67); a variation b2e2 (12 -> 42) b9c7.
        let f = plain(&[(72, 42), (79, 67)], &[(12, 42), (19, 27)]);
        let r = read(&f).unwrap();
        assert_eq!(r.format, RecordFormat::Xqf);
        assert_eq!(r.move_texts(), ["h2e2", "h9g7"]);
        assert_eq!(r.tag("Red"), Some("Zhu"));
        assert_eq!(r.tag("Result"), Some("1-0"));
        assert_eq!(
            r.fen(),
            Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        );
        assert_eq!(r.warnings, [PgnWarning::VariationsSkipped { moves: 2 }]);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let f = plain(&[(72, 42)], &[]);
        assert_eq!(read(&f[..1000]), Err(XqfError::Truncated { at: 1000 }));
        assert_eq!(
            read(&f[..HEADER + 6]),
            Err(XqfError::Truncated { at: HEADER + 4 })
        );
        assert_eq!(read(b"XY"), Err(XqfError::NoSignature));
        let mut v = f.clone();
        v[2] = 19;
        assert_eq!(read(&v), Err(XqfError::Version(19)));
        let mut k = f.clone();
        k[0x10 + 4] = 0xff; // Red's general gone
        assert_eq!(read(&k), Err(XqfError::Placement));
        let mut o = f;
        o[HEADER + 8] = 0x18 + 95;
        assert_eq!(read(&o), Err(XqfError::OffBoard { ply: 1 }));
    }
}
