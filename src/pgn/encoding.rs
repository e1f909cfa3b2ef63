//! A record's bytes as text. Chinese sites and programs write records in
//! GB18030 (GBK), Big5 or UTF-8, and seldom say which: a named charset is
//! obeyed, a byte-order mark too, valid UTF-8 is UTF-8, and anything else
//! is what `chardetng` (Firefox's detector) takes it for among GB18030 and
//! Big5, checked by decoding it without a single replacement.

use encoding_rs::{Encoding, BIG5, GB18030, GBK, UTF_8};

/// The encodings read without a charset, in the words a refusal uses.
pub const ENCODINGS: [&str; 3] = ["UTF-8", "GB18030 (GBK)", "Big5"];

/// A record's text and the encoding it was read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text, a byte-order mark dropped.
    pub text: String,
    /// The encoding's name (`UTF-8`, `gb18030`, `Big5`).
    pub encoding: &'static str,
    /// Whether it was found by looking at the bytes (no charset named).
    pub detected: bool,
}

/// Why bytes are not a record's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The charset named is no encoding.
    UnknownCharset(String),
    /// The bytes are not valid in the charset named.
    NotIn(&'static str),
    /// No charset named, and the bytes are valid in none of [`ENCODINGS`].
    Undetected,
}

/// Reads `bytes` as text: in `charset` when one is named, else as the
/// module says.
pub fn decode(bytes: &[u8], charset: Option<&str>) -> Result<Decoded, DecodeError> {
    let strict = |encoding: &'static Encoding, bytes: &[u8], detected: bool| {
        encoding
            .decode_without_bom_handling_and_without_replacement(bytes)
            .map(|t| Decoded {
                text: t.trim_start_matches('\u{feff}').to_owned(),
                encoding: encoding.name(),
                detected,
            })
    };
    if let Some(label) = charset {
        let encoding = Encoding::for_label(label.trim().as_bytes())
            .ok_or_else(|| DecodeError::UnknownCharset(label.to_owned()))?;
        // GBK's decoder is GB18030's (the Encoding Standard): name it so.
        let encoding = if encoding == GBK { GB18030 } else { encoding };
        return strict(encoding, bytes, false).ok_or(DecodeError::NotIn(encoding.name()));
    }
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        if let Some(d) = strict(encoding, &bytes[bom..], true) {
            return Ok(d);
        }
    }
    if let Some(d) = strict(UTF_8, bytes, true) {
        return Ok(d);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    let first = if guess == BIG5 { BIG5 } else { GB18030 };
    let second = if first == BIG5 { GB18030 } else { BIG5 };
    strict(first, bytes, true)
        .or_else(|| strict(second, bytes, true))
        .ok_or(DecodeError::Undetected)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOVES: &str = "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 3. 車一平二 卒７進１";

    #[test]
    fn big5_gbk_and_utf8_are_told_apart_without_a_charset() {
        let (big5, _, bad) = BIG5.encode(MOVES);
        assert!(!bad);
        let d = decode(&big5, None).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding, d.detected),
            (MOVES, "Big5", true)
        );
        let (gbk, _, bad) = GB18030.encode(MOVES);
        assert!(!bad);
        let d = decode(&gbk, None).unwrap();
        assert_eq!((d.text.as_str(), d.encoding), (MOVES, "gb18030"));
        let d = decode(MOVES.as_bytes(), None).unwrap();
        assert_eq!((d.text.as_str(), d.encoding), (MOVES, "UTF-8"));
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(MOVES.as_bytes());
        assert_eq!(decode(&bom, None).unwrap().text, MOVES);
    }

    #[test]
    fn a_named_charset_is_obeyed_and_refusals_say_which() {
        let (big5, _, _) = BIG5.encode(MOVES);
        let d = decode(&big5, Some("big5")).unwrap();
        assert_eq!((d.text.as_str(), d.detected), (MOVES, false));
        assert_eq!(
            decode(&big5, Some("gbk")).map(|d| d.encoding),
            Ok("gb18030")
        );
        assert_eq!(
            decode(b"\xff\xfe\xfd", Some("utf-8")),
            Err(DecodeError::NotIn("UTF-8"))
        );
        assert_eq!(
            decode(b"abc", Some("klingon")),
            Err(DecodeError::UnknownCharset("klingon".to_owned()))
        );
        // 0x80 and 0xff stand alone in none of them.
        assert_eq!(decode(b"1. \x80\xff", None), Err(DecodeError::Undetected));
    }
}
