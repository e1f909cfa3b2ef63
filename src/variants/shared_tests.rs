use super::Refusal;
use crate::prose::{self, Prose};

/// A refused move: its code and its words.
#[derive(Debug)]
pub struct Refused {
    pub code: Refusal,
    pub message: String,
}

impl Refused {
    /// Whether the text was no move at all.
    pub fn is_syntax(&self) -> bool {
        self.code == Refusal::BadNotation
    }
}

/// Reads `text` in `pos`, which must refuse it.
pub fn refused<V: Prose>(pos: &V, text: &str, notation: V::Notation) -> Refused {
    let e = pos
        .parse_move(text, notation)
        .expect_err("the move must be refused");
    Refused {
        code: e.code(),
        message: prose::move_error(pos, &e, text, notation),
    }
}

/// Reads a perft suite in the EPD form engines share: a line a
/// position, its FEN then `;D1 n ;D2 n …`, the leaf counts by depth.
pub fn perft_suite(text: &'static str) -> Vec<(&'static str, Vec<u64>)> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().expect("a FEN").trim();
            let counts = fields
                .enumerate()
                .map(|(i, field)| {
                    let (depth, count) = field.trim().split_once(' ').expect("`Dn count`");
                    assert_eq!(depth, format!("D{}", i + 1), "depths in order: {line}");
                    count.parse().expect("a leaf count")
                })
                .collect();
            (fen, counts)
        })
        .collect()
}
