//! Game records in PGN: the tag pairs and the moves of one game, read from
//! text and written back.
//!
//! This module knows the PGN grammar only — tags, move numbers, comments,
//! variations, NAGs, annotation glyphs and the result — not any variant's
//! moves: a [`Record`] holds each move as the text it was written in, and
//! the variant's own notation reads it (ICCS, WXF or Chinese for Xiangqi,
//! SAN for Taxi chess, coordinates for Tamerlane chess). That is why it is
//! our own small grammar rather than a chess PGN crate: those read the
//! movetext as chess SAN.

use std::fmt::Write as _;

use crate::variants::{spelling, GameResult};

/// One game read from PGN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The tag pairs in the order written (`[Event "…"]` is `("Event", "…")`).
    pub tags: Vec<(String, String)>,
    /// The moves of the main line, as written (move numbers, comments,
    /// variations, NAGs and `!`/`?` glyphs taken away).
    pub moves: Vec<MoveToken>,
    /// The game's termination marker after the moves, if it has one.
    pub termination: Option<RecordedResult>,
    /// What was read leniently (a damaged tag line), in order.
    pub warnings: Vec<PgnWarning>,
}

/// Something a record got wrong that was read anyway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnWarning {
    /// A tag line that is not `[Name "value"]` (an unescaped quote inside
    /// the value, a missing quote or bracket): read as `name` = `value`,
    /// or skipped when it names nothing.
    DamagedTag {
        /// Where it stands.
        line: usize,
        /// The line as written.
        text: String,
        /// What it was read as, if anything.
        read_as: Option<(String, String)>,
    },
}

/// A move of the main line as it was written, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    /// The move's text: `C2.5`, `h2e2`, `炮二平五`, `Nf3+`.
    pub text: String,
    /// The line it stands on (from 1).
    pub line: usize,
}

/// A game result as a record states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedResult {
    /// `1-0`: the first mover (White, Red) won.
    FirstWins,
    /// `0-1`: the second mover won.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, or still going on.
    Unknown,
}

impl RecordedResult {
    /// Reads a result token or a `Result` tag's value.
    pub fn parse(text: &str) -> Option<RecordedResult> {
        Some(match spelling::narrow_str(text).trim() {
            "1-0" => RecordedResult::FirstWins,
            "0-1" => RecordedResult::SecondWins,
            "1/2-1/2" | "½-½" => RecordedResult::Draw,
            "*" => RecordedResult::Unknown,
            _ => return None,
        })
    }

    /// The result as PGN writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordedResult::FirstWins => "1-0",
            RecordedResult::SecondWins => "0-1",
            RecordedResult::Draw => "1/2-1/2",
            RecordedResult::Unknown => "*",
        }
    }
}

impl From<RecordedResult> for GameResult {
    /// `*` is a game going on (or of unknown result).
    fn from(r: RecordedResult) -> GameResult {
        match r {
            RecordedResult::FirstWins => GameResult::FirstWins,
            RecordedResult::SecondWins => GameResult::SecondWins,
            RecordedResult::Draw => GameResult::Draw,
            RecordedResult::Unknown => GameResult::Ongoing,
        }
    }
}

impl From<GameResult> for RecordedResult {
    fn from(r: GameResult) -> RecordedResult {
        match r {
            GameResult::FirstWins => RecordedResult::FirstWins,
            GameResult::SecondWins => RecordedResult::SecondWins,
            GameResult::Draw => RecordedResult::Draw,
            GameResult::Ongoing => RecordedResult::Unknown,
        }
    }
}

/// Why a text is not one PGN game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    /// A `{` comment is never closed; it opened on `line`.
    UnclosedComment {
        /// Where it opened.
        line: usize,
    },
    /// A `(` variation is never closed; it opened on `line`.
    UnclosedVariation {
        /// Where it opened.
        line: usize,
    },
    /// A `)` closes no variation.
    StrayParenthesis {
        /// Where it stands.
        line: usize,
    },
    /// Moves follow the termination marker (the record holds more than
    /// one game, or text after its end).
    AfterResult {
        /// Where the first of them stands.
        line: usize,
    },
    /// A tag pair stands among the moves: a second game begins.
    SecondGame {
        /// Where it begins.
        line: usize,
    },
    /// The text holds neither a tag nor a move nor a result.
    Empty,
}

impl PgnError {
    /// The line the problem is on, if it is on one.
    pub fn line(&self) -> Option<usize> {
        match *self {
            PgnError::UnclosedComment { line }
            | PgnError::UnclosedVariation { line }
            | PgnError::StrayParenthesis { line }
            | PgnError::AfterResult { line }
            | PgnError::SecondGame { line } => Some(line),
            PgnError::Empty => None,
        }
    }
}

impl Record {
    /// A tag's value; tag names are compared without regard to case
    /// (`[FEN]`, `[Fen]`).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The start position the record sets up (`[FEN "…"]`), if any.
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN").map(str::trim).filter(|f| !f.is_empty())
    }

    /// The result the record states: its `[Result]` tag, else its
    /// termination marker; `None` when neither says anything readable.
    pub fn recorded_result(&self) -> Option<RecordedResult> {
        self.tag("Result")
            .and_then(RecordedResult::parse)
            .or(self.termination)
    }

    /// The moves' texts.
    pub fn move_texts(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.text.clone()).collect()
    }
}

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
    for (index, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if !in_comment && t.starts_with('[') && has_movetext {
            starts.push(index);
            has_movetext = false;
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

/// [`read`], the first line of `text` being line `first_line`.
fn read_from(text: &str, first_line: usize) -> Result<Record, PgnError> {
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
                            record.tags.push((name, value));
                            rest = after;
                        }
                        None => {
                            // The rest of the line is the damaged tag.
                            let read_as = lenient_tag(rest);
                            if let Some(pair) = &read_as {
                                record.tags.push(pair.clone());
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
    Ok(record)
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
fn move_text(token: &str) -> Option<&str> {
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

/// What [`write`] needs beside the moves.
#[derive(Clone, Debug, Default)]
pub struct WriteOptions<'a> {
    /// The tag pairs, in order (a `Result` tag is the caller's to give).
    pub tags: &'a [(String, String)],
    /// The move number of the first move.
    pub first_move_number: u32,
    /// Whether the second mover (Black) plays the first move.
    pub second_mover_first: bool,
    /// A comment written after the last move (a `}` in it becomes `)`).
    pub comment: Option<&'a str>,
    /// The termination marker.
    pub result: Option<RecordedResult>,
}

/// Writes one game as PGN: the tags, a blank line, then the movetext with
/// move numbers, wrapped before 80 characters.
pub fn write(moves: &[String], options: &WriteOptions<'_>) -> String {
    let mut out = String::new();
    for (name, value) in options.tags {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{escaped}\"]");
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::with_capacity(moves.len() * 3 / 2 + 2);
    let mut number = options.first_move_number.max(1);
    let mut second = options.second_mover_first;
    for (i, mv) in moves.iter().enumerate() {
        // A move number stays on the line of its move.
        if !second {
            tokens.push(format!("{number}. {mv}"));
        } else if i == 0 {
            tokens.push(format!("{number}... {mv}"));
        } else {
            tokens.push(mv.clone());
        }
        if second {
            number += 1;
        }
        second = !second;
    }
    if let Some(comment) = options.comment {
        tokens.push(format!("{{{}}}", comment.replace('}', ")")));
    }
    tokens.push(
        options
            .result
            .unwrap_or(RecordedResult::Unknown)
            .as_str()
            .to_owned(),
    );
    let mut width = 0;
    for token in tokens {
        let len = token.chars().count();
        if width > 0 && width + 1 + len > 79 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(&token);
        width += len;
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(r: &Record) -> Vec<&str> {
        r.moves.iter().map(|m| m.text.as_str()).collect()
    }

    #[test]
    fn reads_a_wxf_record_with_everything_to_skip() {
        let pgn = r#"[Game "Chinese Chess"]
[Event "Club \"open\" 2026"]
[Format "WXF"]
[Result "1-0"]

% an escape line: skipped
1. C2.5 H8+7 {the usual reply; (not a variation)}
2. H2+3 (2. P7+1 R9+1 (2... H2+3) 3. H8+7) R9.8 $1 3. R1.2!? R8+4?!
; a comment to the end of the line 4. X9+9
4. P7+1 1-0
"#;
        let r = read(pgn).unwrap();
        assert_eq!(r.tag("event"), Some("Club \"open\" 2026"));
        assert_eq!(r.tag("Format"), Some("WXF"));
        assert_eq!(
            texts(&r),
            ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "R8+4", "P7+1"]
        );
        assert_eq!(r.moves[0].line, 7);
        assert_eq!(r.moves[6].line, 10);
        assert_eq!(r.termination, Some(RecordedResult::FirstWins));
        assert_eq!(r.recorded_result(), Some(RecordedResult::FirstWins));
    }

    #[test]
    fn reads_iccs_chinese_and_san_tokens() {
        let r = read("1.h2e2 h9g7 2.h0g2 *").unwrap();
        assert_eq!(texts(&r), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(r.termination, Some(RecordedResult::Unknown));
        // Chinese movetext with full-width digits and an ideographic space.
        let r = read("[Format \"Chinese\"]\n1. 炮二平五\u{3000}马８进７ 2. 马二进三 车９平８ 0-1")
            .unwrap();
        assert_eq!(texts(&r), ["炮二平五", "马８进７", "马二进三", "车９平８"]);
        assert_eq!(r.recorded_result(), Some(RecordedResult::SecondWins));
        // SAN with checks, promotions, a move number before Black's move.
        let r =
            read("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 30\"]\n30. a8=Q+ 30... Kd7 31.Qb7+ 1/2-1/2")
                .unwrap();
        assert_eq!(texts(&r), ["a8=Q+", "Kd7", "Qb7+"]);
        assert_eq!(r.fen(), Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 30"));
        // A `Result` tag wins over the termination marker.
        let r = read("[Result \"0-1\"]\n1. e4 *").unwrap();
        assert_eq!(r.recorded_result(), Some(RecordedResult::SecondWins));
    }

    #[test]
    fn tamerlane_moves_keep_their_signs() {
        let r = read("1. a10@e5 f2~d5 2. c3c4 {x} e8e7").unwrap();
        assert_eq!(texts(&r), ["a10@e5", "f2~d5", "c3c4", "e8e7"]);
    }

    #[test]
    fn glyphs_nags_and_numbers_alone_are_no_moves() {
        let r = read("1. e4 ! e5 +- 2... = $14 ±").unwrap();
        assert_eq!(texts(&r), ["e4", "e5"]);
        // `15.1` is no move number (a WXF soldier move may look like it).
        assert_eq!(move_text("15.1"), Some("15.1"));
        assert_eq!(move_text("15."), None);
        assert_eq!(move_text("15...Nf6"), Some("Nf6"));
        assert_eq!(move_text("…"), None);
    }

    #[test]
    fn refuses_broken_records_with_the_line() {
        assert_eq!(
            read("1. e4 {open\n\n e5"),
            Err(PgnError::UnclosedComment { line: 1 })
        );
        assert_eq!(
            read("1. e4 e5\n(1... c5 2. Nf3"),
            Err(PgnError::UnclosedVariation { line: 2 })
        );
        assert_eq!(
            read("1. e4 ) e5"),
            Err(PgnError::StrayParenthesis { line: 1 })
        );
        assert_eq!(
            read("1. e4 1-0\n1. d4"),
            Err(PgnError::AfterResult { line: 2 })
        );
        assert_eq!(
            read("[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *"),
            Err(PgnError::SecondGame { line: 4 })
        );
        assert_eq!(read(" \n% only an escape\n"), Err(PgnError::Empty));
        assert_eq!(PgnError::SecondGame { line: 3 }.line(), Some(3));
    }

    #[test]
    fn a_comment_may_hold_brackets_and_a_variation_comments() {
        let r =
            read("1. e4 {see [this] (and that)} e5 (1... c5 {a ) in a comment}) 2. Nf3").unwrap();
        assert_eq!(texts(&r), ["e4", "e5", "Nf3"]);
    }

    #[test]
    fn a_damaged_tag_is_read_leniently_with_a_warning() {
        let r = read("[Event \"\"Huangshan Cup\" 2019\"]\n[Red \"Wang\"]\n[Site x]\n[]\n1. h2e2 *")
            .unwrap();
        assert_eq!(
            r.tags,
            [
                ("Event".to_owned(), "\"Huangshan Cup\" 2019".to_owned()),
                ("Red".to_owned(), "Wang".to_owned()),
                ("Site".to_owned(), "x".to_owned()),
            ]
        );
        assert_eq!(r.move_texts(), ["h2e2"]);
        assert_eq!(r.warnings.len(), 3);
        assert_eq!(
            r.warnings[0],
            PgnWarning::DamagedTag {
                line: 1,
                text: "[Event \"\"Huangshan Cup\" 2019\"]".to_owned(),
                read_as: Some(("Event".to_owned(), "\"Huangshan Cup\" 2019".to_owned())),
            }
        );
        assert!(matches!(
            r.warnings[2],
            PgnWarning::DamagedTag {
                line: 4,
                read_as: None,
                ..
            }
        ));
        // An unclosed quote or bracket: the rest of the line is the value.
        let r = read("[Event \"x]\n[Round \"3\"\n1. e4").unwrap();
        assert_eq!(r.tag("Event"), Some("x"));
        assert_eq!(r.tag("Round"), Some("3"));
        assert_eq!(r.move_texts(), ["e4"]);
        assert_eq!(read("[Event]").unwrap().tag("Event"), Some(""));
    }

    #[test]
    fn full_width_numbers_dots_and_results() {
        let r = read("1．炮二平五 马８进７ ２．马二进三 ０－１").unwrap();
        assert_eq!(r.move_texts(), ["炮二平五", "马８进７", "马二进三"]);
        assert_eq!(r.termination, Some(RecordedResult::SecondWins));
        let r = read("1. Ｃ２＝５Ｈ８＋７ 2. Ｈ２＋３Ｒ９＝８").unwrap();
        assert_eq!(r.move_texts(), ["Ｃ２＝５Ｈ８＋７", "Ｈ２＋３Ｒ９＝８"]);
        assert_eq!(move_text("１２．．．"), None);
        assert_eq!(move_text("Ｐ７＋１！？"), Some("Ｐ７＋１"));
    }

    #[test]
    fn a_file_of_many_games_is_read_game_by_game() {
        let file = "[Event \"a\"]\n[Red \"x\"]\n\n1. h2e2 h9g7\n\n[Event \"b\"]\n\n1. h2e2 ) 2. b0c2\n\
            \n[Event \"c\"]\n{ a comment\n[with a bracket] }\n1. b0c2 1-0\n[Event \"d\"]\n1. c3c4 *\n";
        let games = read_all(file);
        assert_eq!(games.len(), 4);
        assert_eq!(
            games.iter().map(|g| g.first_line).collect::<Vec<_>>(),
            [1, 6, 10, 14]
        );
        let first = games[0].record.as_ref().unwrap();
        assert_eq!(first.tag("Red"), Some("x"));
        assert_eq!(first.move_texts(), ["h2e2", "h9g7"]);
        // A damaged game is its own problem, on the file's line.
        assert_eq!(games[1].record, Err(PgnError::StrayParenthesis { line: 8 }));
        let third = games[2].record.as_ref().unwrap();
        assert_eq!(third.move_texts(), ["b0c2"]);
        assert_eq!(third.moves[0].line, 13);
        assert_eq!(games[3].record.as_ref().unwrap().tag("Event"), Some("d"));
        // One game reads as one.
        assert_eq!(read_all("1. e4 e5").len(), 1);
        assert!(read_all(" \n").is_empty());
    }

    #[test]
    fn writes_what_it_reads() {
        let tags = vec![
            ("Event".to_owned(), "A \"quoted\" \\ name".to_owned()),
            ("Result".to_owned(), "0-1".to_owned()),
        ];
        let moves: Vec<String> = (0..40).map(|i| format!("m{i}")).collect();
        let text = write(
            &moves,
            &WriteOptions {
                tags: &tags,
                first_move_number: 12,
                second_mover_first: true,
                comment: Some("Red is checkmated {really}"),
                result: Some(RecordedResult::SecondWins),
            },
        );
        assert!(text.starts_with("[Event \"A \\\"quoted\\\" \\\\ name\"]\n"));
        assert!(text.contains("\n\n12... m0 13. m1 m2 14. m3"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() < 80), "{text}");
        assert!(text.contains("{Red is checkmated {really)}"));
        let back = read(&text).unwrap();
        assert_eq!(back.tags, tags);
        assert_eq!(back.move_texts(), moves);
        assert_eq!(back.termination, Some(RecordedResult::SecondWins));
    }
}
