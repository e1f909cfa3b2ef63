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

mod reader;
mod writer;

pub use reader::{read, read_all, GameText};
pub use writer::{write, WriteOptions};

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

#[cfg(test)]
mod tests;
