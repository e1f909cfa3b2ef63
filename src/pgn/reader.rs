//! Reading PGN: one game, or a file of many, into [`Record`]s.

use super::{MoveToken, PgnError, PgnWarning, Record, RecordFormat, RecordedResult};
use crate::variants::spelling;

/// Reads one game. Tags come first; then the movetext, in which move
/// numbers (`12.`, `12...`, `１２．`), `{…}` and `;` comments, `(…)`
/// variations (to any depth), NAGs (`$14`), glyphs (`!?`, `+-`) and `%`
/// escape lines are skipped; the main line's moves are kept as written. A
/// tag line that is not `[Name "value"]` is read leniently, with a warning.
pub fn read(text: &str) -> Result<Record, PgnError> {
    read_from(text, 1)
}

/// One game of a file of many, as [`read_all`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// The line of the file on which the game begins (from 1).
    pub first_line: usize,
    /// The game, or why it cannot be read (lines counted in the file).
    pub record: Result<Record, PgnError>,
}

/// Reads a file of many games, as databases and sites export them: a game
/// begins at a tag line that follows another game's movetext (outside
/// comments). Each game is read on its own, so a damaged game spoils no
/// other; lines are counted in the whole file.
pub fn read_all(text: &str) -> Vec<GameText> {
    let mut starts = vec![0usize];
    let mut in_comment = false;
    let mut has_movetext = false;
    let mut in_trailer = false;
    // The tag names of the game being read: a name seen again begins the
    // next game, so a record of tags alone is not merged into the next.
    let mut names: Vec<String> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if !in_comment && t.starts_with('[') {
            let name = tag_name(t);
            let repeated = name.is_some_and(|n| names.iter().any(|m| m.eq_ignore_ascii_case(n)));
            if has_movetext || in_trailer || repeated {
                starts.push(index);
                has_movetext = false;
                in_trailer = false;
                names.clear();
            }
            names.extend(name.map(str::to_owned));
        }
        if in_trailer || (!in_comment && is_trailer_rule(t)) {
            in_trailer = true;
            continue;
        }
        if !in_comment && (t.starts_with('[') || t.starts_with('%')) {
            continue;
        }
        for c in t.chars() {
            match c {
                '}' if in_comment => in_comment = false,
                _ if in_comment => {}
                '{' => in_comment = true,
                ';' => break,
                c if c.is_whitespace() => {}
                _ => has_movetext = true,
            }
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut games = Vec::new();
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(lines.len());
        let chunk = lines[start..end].join("\n");
        if chunk.trim().is_empty() {
            continue;
        }
        games.push(GameText {
            first_line: start + 1,
            record: read_from(&chunk, start + 1),
        });
    }
    games
}

/// The moves of a record whose tags a reader of another format found
/// (`tags`, first): [`read_from`] on the movetext, the record named
/// `format`, the tags found in the movetext after those. A movetext with
/// no moves, or none at all, is a record of tags alone (`no_moves`).
pub(super) fn moves_after_tags(
    format: RecordFormat,
    mut tags: Vec<(String, String)>,
    movetext: &str,
    first_line: usize,
) -> Result<Record, PgnError> {
    let mut record = match read_from(movetext, first_line) {
        Err(PgnError::Empty) => Record::default(),
        other => other?,
    };
    record.format = format;
    record.warnings.retain(|w| *w != PgnWarning::NoMoves);
    if record.moves.is_empty() {
        record.warnings.push(PgnWarning::NoMoves);
    }
    tags.append(&mut record.tags);
    record.tags = tags;
    Ok(record)
}

/// [`read`], the first line of `text` being line `first_line`.
pub(super) fn read_from(text: &str, first_line: usize) -> Result<Record, PgnError> {
    let mut record = Record::default();
    let mut seen_anything = false;
    let mut in_movetext = false;
    // Comments and variations may span lines: the state carries over.
    let mut comment_from: Option<usize> = None;
    let mut variations: Vec<usize> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + first_line;
        if comment_from.is_none() && raw.starts_with('%') {
            continue;
        }
        if comment_from.is_none() && variations.is_empty() && is_trailer_rule(raw.trim()) {
            // xqbase.com's trailer: a rule of `=`, then its greeting and
            // address. The game is over; the rest is kept as a warning.
            let said = text
                .lines()
                .skip(index + 1)
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("")
                .to_owned();
            record
                .warnings
                .push(PgnWarning::Trailer { line, text: said });
            break;
        }
        let mut rest = raw;
        loop {
            if comment_from.is_some() {
                match rest.find('}') {
                    Some(end) => {
                        comment_from = None;
                        rest = &rest[end + 1..];
                    }
                    None => break,
                }
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else { break };
            match c {
                '{' => {
                    comment_from = Some(line);
                    seen_anything = true;
                    rest = &rest[1..];
                }
                ';' => break,
                '(' => {
                    variations.push(line);
                    rest = &rest[1..];
                }
                ')' => {
                    if variations.pop().is_none() {
                        return Err(PgnError::StrayParenthesis { line });
                    }
                    rest = &rest[1..];
                }
                '[' if variations.is_empty() => {
                    if in_movetext {
                        return Err(PgnError::SecondGame { line });
                    }
                    seen_anything = true;
                    match tag_pair(rest) {
                        Some((name, value, after)) => {
                            push_tag(&mut record, line, name, value);
                            rest = after;
                        }
                        None => {
                            // The rest of the line is the damaged tag.
                            let read_as = lenient_tag(rest);
                            if let Some((name, value)) = &read_as {
                                push_tag(&mut record, line, name.clone(), value.clone());
                            }
                            record.warnings.push(PgnWarning::DamagedTag {
                                line,
                                text: rest.trim_end().to_owned(),
                                read_as,
                            });
                            break;
                        }
                    }
                }
                _ => {
                    let end = rest
                        .find(|c: char| c.is_whitespace() || "{}();[".contains(c))
                        .unwrap_or(rest.len());
                    let end = end.max(c.len_utf8());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if !variations.is_empty() {
                        continue;
                    }
                    in_movetext = true;
                    seen_anything = true;
                    if let Some(result) = RecordedResult::parse(token) {
                        if record.termination.is_some() {
                            return Err(PgnError::AfterResult { line });
                        }
                        record.termination = Some(result);
                        continue;
                    }
                    let Some(mv) = move_text(token) else { continue };
                    if record.termination.is_some() {
                        return Err(PgnError::AfterResult { line });
                    }
                    record.moves.push(MoveToken {
                        text: mv.to_owned(),
                        line,
                    });
                }
            }
        }
    }
    if let Some(line) = comment_from {
        return Err(PgnError::UnclosedComment { line });
    }
    if let Some(&line) = variations.first() {
        return Err(PgnError::UnclosedVariation { line });
    }
    if !seen_anything {
        return Err(PgnError::Empty);
    }
    if record.moves.is_empty() && record.termination.is_none() && record.tags.is_empty() {
        // Only lines that name no tag: nothing of a game was understood.
        if let Some((line, text)) = record.warnings.iter().find_map(|w| match w {
            PgnWarning::DamagedTag { line, text, .. } => Some((*line, text)),
            _ => None,
        }) {
            return Err(PgnError::NotUnderstood {
                line,
                text: text.chars().take(60).collect(),
            });
        }
    }
    if record.moves.is_empty() && !record.tags.is_empty() {
        record.warnings.push(PgnWarning::NoMoves);
    }
    Ok(record)
}

/// Adds a tag, unless one of its name is there already: then the first
/// value stays and the second is a warning.
fn push_tag(record: &mut Record, line: usize, name: String, value: String) {
    if record.tag(&name).is_some() {
        record
            .warnings
            .push(PgnWarning::DuplicateTag { line, name, value });
    } else {
        record.tags.push((name, value));
    }
}

/// The name of the tag a line begins with (`[Event "…"]` is `Event`).
fn tag_name(line: &str) -> Option<&str> {
    let inner = line.strip_prefix('[')?.trim_start();
    let end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    (end > 0).then(|| &inner[..end])
}

/// xqbase.com's rule before its trailer: a line of four or more `=`.
fn is_trailer_rule(line: &str) -> bool {
    line.len() >= 4 && line.bytes().all(|b| b == b'=')
}

/// A damaged tag line read as well as it can be: the name (letters,
/// digits, `_`) after the `[`, and the value between the first `"` after
/// it and the last `"` before the last `]` (or the end of the line),
/// whatever quotes stand inside. `None` when no name can be read.
fn lenient_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim_end().strip_prefix('[')?.trim_start();
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    if name_end == 0 {
        return None;
    }
    let rest = inner[name_end..].trim();
    let rest = rest.rfind(']').map_or(rest, |i| &rest[..i]).trim();
    let rest = rest.strip_prefix('"').unwrap_or(rest);
    let value = rest.strip_suffix('"').unwrap_or(rest);
    Some((inner[..name_end].to_owned(), value.to_owned()))
}

/// `[Name "value"]` at the start of `text`: the name, the value (escapes
/// `\"` and `\\` read) and the text after the `]`.
fn tag_pair(text: &str) -> Option<(String, String, &str)> {
    let inner = text.strip_prefix('[')?.trim_start();
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    if name_end == 0 {
        return None;
    }
    let name = inner[..name_end].to_owned();
    let after_name = inner[name_end..].trim_start().strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = after_name.char_indices();
    let close = loop {
        let (i, c) = chars.next()?;
        match c {
            '\\' => {
                let (_, escaped) = chars.next()?;
                value.push(escaped);
            }
            '"' => break i,
            c => value.push(c),
        }
    };
    let after = after_name[close + 1..].trim_start().strip_prefix(']')?;
    Some((name, value, after))
}

/// The move in a movetext token, or `None` when the token is no move: a
/// move number alone (`12.`, `12...`, `…`, `１２．`), a NAG (`$1`) or a
/// glyph (`!?`, `+-`, `=`). A move number written against its move
/// (`1.e4`, `1．炮二平五`) and glyphs after it (`C2.5!?`) are taken away;
/// the move keeps its own characters (full-width ones included).
pub(super) fn move_text(token: &str) -> Option<&str> {
    // Read on the narrowed token, cut on the original: narrowing maps
    // one character to one character.
    let narrow: Vec<char> = token.chars().map(spelling::narrow).collect();
    if narrow.first() == Some(&'$') {
        return None;
    }
    let mut start = 0;
    // A move number: digits, then one or more dots (or an ellipsis), then
    // no digit (`15.1` is no move number).
    let digits = narrow.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 {
        let dots = narrow[digits..]
            .iter()
            .take_while(|&&c| c == '.' || c == '…')
            .count();
        if dots > 0
            && !narrow
                .get(digits + dots)
                .is_some_and(|c| c.is_ascii_digit())
        {
            start = digits + dots;
        }
    }
    start += narrow[start..]
        .iter()
        .take_while(|&&c| c == '.' || c == '…')
        .count();
    let mut end = narrow.len();
    while end > start && matches!(narrow[end - 1], '!' | '?') {
        end -= 1;
    }
    let kept = &narrow[start..end];
    if kept.is_empty() || kept.iter().all(|c| "+-=±∓∞/".contains(*c)) {
        return None;
    }
    let byte = |chars: usize| {
        token
            .char_indices()
            .nth(chars)
            .map_or(token.len(), |(i, _)| i)
    };
    Some(&token[byte(start)..byte(end)])
}
