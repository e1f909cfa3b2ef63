//! Plain text as dpxq.com and Chinese programs write a game: header lines
//! `标题: …`, `红方: …`, `结果: 黑方胜`, then numbered Chinese moves, then
//! perhaps the site's line (`棋谱由 http://www.dpxq.com/ 生成`); and compact
//! text, moves and their numbers written together without spaces
//! (`1.兵七进一炮2平32.兵三进一…`).

use super::reader::moves_after_tags;
use super::{GameText, MoveToken, PgnError, PgnWarning, Record, RecordFormat, RecordedResult};
use crate::variants::spelling;

/// The header words and the PGN tags they stand for; other words are
/// kept as written.
const KEYS: [(&str, &str); 14] = [
    ("标题", "Title"),
    ("赛事", "Event"),
    ("轮次", "Round"),
    ("红方", "Red"),
    ("黑方", "Black"),
    ("结果", "Result"),
    ("日期", "Date"),
    ("地点", "Site"),
    ("布局", "Opening"),
    ("红方团体", "RedTeam"),
    ("黑方团体", "BlackTeam"),
    ("记时规则", "TimeControl"),
    ("棋谱主人", "Annotator"),
    ("来源网站", "Source"),
];

/// A header line's word and value: `标题: …` (or a full-width colon),
/// the word a few characters without digits or spaces.
pub fn header_line(line: &str) -> Option<(&str, &str)> {
    let t = line.trim();
    let (i, colon) = t.char_indices().find(|&(_, c)| c == ':' || c == '：')?;
    let key = t[..i].trim();
    let ok = (1..=8).contains(&key.chars().count())
        && key
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_ascii_digit() && !c.is_ascii_punctuation());
    ok.then(|| (key, t[i + colon.len_utf8()..].trim()))
}

/// Whether a line is the site's line after the moves.
fn is_site_line(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("棋谱由") || t.contains("dpxq.com") || t.starts_with("来源")
}

/// Reads dpxq's plain text: one game.
pub fn read(text: &str) -> GameText {
    let lines: Vec<&str> = text.lines().collect();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut result = None;
    let mut body = 0;
    while body < lines.len() {
        let line = lines[body];
        if line.trim().is_empty() {
            body += 1;
            continue;
        }
        let Some((key, value)) = header_line(line) else {
            break;
        };
        let name = KEYS.iter().find(|(k, _)| *k == key).map_or(key, |(_, n)| n);
        if name == "Result" {
            let r = RecordedResult::read_words(value);
            result = Some(r);
            tags.push((name.to_owned(), r.as_str().to_owned()));
        } else if !value.is_empty() && !tags.iter().any(|(n, _)| n == name) {
            tags.push((name.to_owned(), value.to_owned()));
        }
        body += 1;
    }
    let end = (body..lines.len())
        .find(|&i| is_site_line(lines[i]))
        .unwrap_or(lines.len());
    let record = if lines.is_empty() {
        Err(PgnError::Empty)
    } else {
        moves_after_tags(
            RecordFormat::DpxqText,
            tags,
            &lines[body..end].join("\n"),
            body + 1,
        )
    };
    let record = record.map(|mut r| {
        if end < lines.len() {
            r.warnings.push(PgnWarning::Trailer {
                line: end + 1,
                text: lines[end].trim().to_owned(),
            });
        }
        r.termination = r.termination.or(result);
        r
    });
    GameText {
        first_line: 1,
        record,
    }
}

/// Whether a token holds a move number written after a Chinese move
/// (`兵七进一炮2平32.兵三进一`): compact text. Chinese moves have no dot, so
/// a dot after the token's own leading move number tells.
pub fn is_compact_token(token: &str) -> bool {
    let chars: Vec<char> = token.chars().map(spelling::narrow).collect();
    let number = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    let dots = chars[number..].iter().take_while(|&&c| c == '.').count();
    let rest = &chars[number + dots..];
    rest.iter().any(|c| !c.is_ascii()) && rest.contains(&'.')
}

/// Reads compact text: one game, each move four characters, move numbers
/// (`12.`) between them.
pub fn read_compact(text: &str) -> GameText {
    let mut record = Record {
        format: RecordFormat::Compact,
        ..Record::default()
    };
    for (index, line) in text.lines().enumerate() {
        for token in line.split_whitespace() {
            let chars: Vec<char> = token.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let narrow = |k: usize| spelling::narrow(chars[k]);
                let digits = (i..chars.len())
                    .take_while(|&k| narrow(k).is_ascii_digit())
                    .count();
                let dots = (i + digits..chars.len())
                    .take_while(|&k| matches!(narrow(k), '.' | '…'))
                    .count();
                if digits > 0 && dots > 0 {
                    i += digits + dots;
                    continue;
                }
                let rest: String = chars[i..].iter().collect();
                if let Some(r) = RecordedResult::parse(&rest) {
                    record.termination = Some(r);
                    break;
                }
                let end = (i + 4).min(chars.len());
                record.moves.push(MoveToken {
                    text: chars[i..end].iter().collect(),
                    line: index + 1,
                });
                i = end;
            }
        }
    }
    if record.moves.is_empty() {
        record.warnings.push(PgnWarning::NoMoves);
    }
    GameText {
        first_line: 1,
        record: Ok(record),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dpxq_text_reads_its_header_moves_and_trailer() {
        let text = "标题: 甲 负 乙\n红方: 甲\n黑方: 乙\n结果: 黑方胜\n分类: 其他\n \n  1.炮二平五      马８进７  \n  2.马二进三\n \n棋谱由 http://www.dpxq.com/ 生成\n";
        let g = read(text);
        let r = g.record.unwrap();
        assert_eq!(r.format, RecordFormat::DpxqText);
        assert_eq!(r.move_texts(), ["炮二平五", "马８进７", "马二进三"]);
        assert_eq!(r.tag("Red"), Some("甲"));
        assert_eq!(r.tag("Result"), Some("0-1"));
        assert_eq!(r.tag("分类"), Some("其他"));
        assert_eq!(r.moves[0].line, 7);
        assert_eq!(r.termination, Some(RecordedResult::SecondWins));
        assert!(matches!(
            r.warnings[..],
            [PgnWarning::Trailer { line: 10, .. }]
        ));
    }

    #[test]
    fn compact_text_splits_moves_from_their_numbers() {
        assert!(is_compact_token("1.兵七进一炮2平32.兵三进一"));
        assert!(!is_compact_token("1.兵七进一"));
        assert!(!is_compact_token("C2.5"));
        let g = read_compact("1.兵七进一炮2平32.兵三进一炮8平5\n10.马二进三 1-0");
        let r = g.record.unwrap();
        assert_eq!(
            r.move_texts(),
            ["兵七进一", "炮2平3", "兵三进一", "炮8平5", "马二进三"]
        );
        assert_eq!(r.termination, Some(RecordedResult::FirstWins));
        assert_eq!(r.moves[4].line, 2);
    }
}
