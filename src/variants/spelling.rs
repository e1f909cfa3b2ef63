//! One spelling policy for every variant's moves, as game sites write them.
//!
//! - **Width.** Full-width letters, digits and signs (`Ｃ２＝５`, `ｈ２ｅ２`,
//!   U+FF01-U+FF5E) read as their ASCII forms, and the ideographic space
//!   as a space, in every notation. Chinese notation's own full-width
//!   digits (Black's `马８进７`) are read as digits either way.
//! - **Coordinates** (Xiangqi ICCS and Fairy, Taxi UCI, Tamerlane): any
//!   case, and a hyphen or `=` anywhere between the parts is ignored:
//!   `H2-E2`, `E2E4`, `e7e8=Q`, `B2-C4` read as `h2e2`, `e2e4`, `e7e8q`,
//!   `b2c4`.
//! - **Letters of pieces** (WXF, promotion letters in coordinates): any
//!   case. SAN keeps its case: there `B` is a bishop and `b` a file.
//!
//! The API states the same policy in the README; these functions are the
//! only place it is written.

use std::borrow::Cow;

/// `c` in its ASCII form when it is a full-width form of an ASCII
/// character (or the ideographic space); otherwise `c`.
pub fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => {
            char::from_u32(c as u32 - 0xFF01 + 0x21).expect("an ASCII character")
        }
        '\u{3000}' => ' ',
        c => c,
    }
}

/// `text` with its full-width forms read as ASCII (see [`narrow`]);
/// borrowed when there are none.
pub fn narrow_str(text: &str) -> Cow<'_, str> {
    if text.chars().all(|c| narrow(c) == c) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.chars().map(narrow).collect())
    }
}

/// A coordinate move in one spelling: width narrowed, trimmed, lower case,
/// with hyphens and `=` taken away (`Ｈ２-Ｅ２` and `H2-E2` are `h2e2`;
/// `e7e8=Q` is `e7e8q`).
pub fn coordinates(text: &str) -> String {
    text.trim()
        .chars()
        .map(narrow)
        .filter(|&c| c != '-' && c != '=' && !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_forms_read_as_ascii() {
        assert_eq!(narrow_str("Ｃ２＝５"), "C2=5");
        assert_eq!(narrow_str("＋Ｐ＋１"), "+P+1");
        assert_eq!(narrow_str("１．炮二平五"), "1.炮二平五");
        assert_eq!(narrow_str("a\u{3000}b"), "a b");
        assert!(matches!(narrow_str("h2e2"), Cow::Borrowed(_)));
        // Chinese characters and the CJK full-width digits' neighbours stay.
        assert_eq!(narrow_str("马８进７"), "马8进7");
    }

    #[test]
    fn coordinates_have_one_spelling() {
        for text in ["h2e2", "H2E2", "H2-E2", "h2-e2", "ｈ２ｅ２", " Ｈ２－Ｅ２ "] {
            assert_eq!(coordinates(text), "h2e2", "{text}");
        }
        assert_eq!(coordinates("e7e8=Q"), "e7e8q");
        assert_eq!(coordinates("E7-E8Q"), "e7e8q");
        assert_eq!(coordinates("A10@E5"), "a10@e5");
        assert_eq!(coordinates("F2~D5"), "f2~d5");
    }
}
