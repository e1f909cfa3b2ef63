//! Which kind of record a text or file is, recognised from its body, and
//! each read by its own reader: PGN (xqbase.com's trailer included),
//! DhtmlXQ blocks, dpxq's plain text, PlayOK's WXF file, compact text,
//! and XQF bytes.

use super::encoding::{decode, DecodeError};
use super::xqf::{self, XqfError};
use super::{dhtmlxq, dpxq, playok, reader, GameText, PgnError, Record, RecordFormat};

/// The games of a text or file, and what it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Records {
    /// The kind of record.
    pub format: RecordFormat,
    /// The encoding the bytes were read in (`None` for text given as text,
    /// and for XQF, whose texts are GB18030).
    pub encoding: Option<&'static str>,
    /// Each game, or why it cannot be read.
    pub games: Vec<GameText>,
}

/// Why a file's bytes are no record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BytesError {
    /// The bytes are not text in any encoding tried (or the one named).
    Decode(DecodeError),
    /// An XQF file that cannot be read.
    Xqf(XqfError),
}

/// The kind of record a text is, from its body.
pub fn format_of(text: &str) -> RecordFormat {
    if dhtmlxq::holds_block(text) {
        return RecordFormat::Dhtmlxq;
    }
    if playok::is_playok(text) {
        return RecordFormat::PlayokWxf;
    }
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    if !first.starts_with('[') && dpxq::header_line(first).is_some() {
        return RecordFormat::DpxqText;
    }
    let tagged = text.lines().any(|l| l.trim_start().starts_with('['));
    if !tagged && text.split_whitespace().any(dpxq::is_compact_token) {
        return RecordFormat::Compact;
    }
    RecordFormat::Pgn
}

/// Reads a text of one or many games, in the format its body shows.
pub fn read_file(text: &str) -> Records {
    let format = format_of(text);
    Records {
        format,
        encoding: None,
        games: games_of(text, format),
    }
}

/// The games of a text of the format `format`, each by its reader.
fn games_of(text: &str, format: RecordFormat) -> Vec<GameText> {
    match format {
        RecordFormat::Dhtmlxq => dhtmlxq::read_all(text),
        RecordFormat::PlayokWxf => vec![playok::read(text)],
        RecordFormat::DpxqText => vec![dpxq::read(text)],
        RecordFormat::Compact => vec![dpxq::read_compact(text)],
        RecordFormat::Pgn | RecordFormat::Xqf => reader::read_all(text),
    }
}

/// Reads a text that holds one game, in the format its body shows. A text
/// of several games is refused at the second.
pub fn read_record(text: &str) -> Result<Record, PgnError> {
    let format = format_of(text);
    if format == RecordFormat::Pgn {
        return reader::read(text);
    }
    let mut games = games_of(text, format).into_iter();
    match (games.next(), games.next()) {
        (Some(game), None) => game.record,
        (Some(_), Some(second)) => Err(PgnError::SecondGame {
            line: second.first_line,
        }),
        (None, _) => Err(PgnError::Empty),
    }
}

/// Reads a file's bytes: XQF when `xqf` says so (its media type) or the
/// bytes begin with its signature, else text in `charset` or the encoding
/// found (see [`decode`]), read by [`read_file`].
pub fn read_bytes(bytes: &[u8], xqf: bool, charset: Option<&str>) -> Result<Records, BytesError> {
    if xqf || xqf::is_xqf(bytes) {
        let record = xqf::read(bytes).map_err(BytesError::Xqf)?;
        return Ok(Records {
            format: RecordFormat::Xqf,
            encoding: None,
            games: vec![GameText {
                first_line: 1,
                record: Ok(record),
            }],
        });
    }
    let decoded = decode(bytes, charset).map_err(BytesError::Decode)?;
    let mut records = read_file(&decoded.text);
    records.encoding = Some(decoded.encoding);
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_recognised_from_its_body() {
        let cases = [
            ("[Event \"x\"]\n\n1. C2.5 H8+7 *", RecordFormat::Pgn),
            ("1. 炮二平五 马８进７", RecordFormat::Pgn),
            (
                "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]",
                RecordFormat::Dhtmlxq,
            ),
            ("FORMAT WXF\nSTART{ 1. C2.5 }END", RecordFormat::PlayokWxf),
            (
                "标题: 甲 负 乙\n\n1.炮二平五 马８进７",
                RecordFormat::DpxqText,
            ),
            ("1.兵七进一炮2平32.兵三进一", RecordFormat::Compact),
        ];
        for (text, format) in cases {
            assert_eq!(format_of(text), format, "{text}");
            assert_eq!(read_file(text).format, format);
            let one = read_record(text).unwrap();
            assert_eq!(one.format, format, "{text}");
            assert!(!one.moves.is_empty(), "{text}");
        }
    }

    #[test]
    fn a_text_of_two_blocks_is_no_single_record() {
        let two = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n[DhtmlXQ][DhtmlXQ_movelist]7062[/DhtmlXQ_movelist][/DhtmlXQ]";
        assert_eq!(read_record(two), Err(PgnError::SecondGame { line: 2 }));
        assert_eq!(read_file(two).games.len(), 2);
    }
}
