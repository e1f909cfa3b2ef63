//! Writing one game as PGN.

use std::fmt::Write as _;

use super::RecordedResult;

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
