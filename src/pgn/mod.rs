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

mod detect;
mod dhtmlxq;
mod dpxq;
mod encoding;
mod placement;
mod playok;
mod reader;
mod writer;
mod xqf;

pub use detect::{read_bytes, read_file, read_record, BytesError, Records};
pub use encoding::{decode, DecodeError, Decoded, ENCODINGS};
pub use reader::{read, read_all, GameText};
pub use writer::{write, WriteOptions};
pub use xqf::XqfError;

use serde::Serialize;
use utoipa::ToSchema;

use crate::variants::{spelling, GameResult, NotationName};

/// The record formats read, in words (for a refusal).
pub const FORMATS_IN_WORDS: &str = "PGN, DhtmlXQ, dpxq text, PlayOK WXF, compact text, XQF";

/// The kind of record a text or file was read as, recognised from its body
/// (and from the media type, for XQF).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordFormat {
    /// PGN, as chess and Xiangqi sites write it (xqbase.com's exports and
    /// their trailer included).
    #[default]
    Pgn,
    /// A DhtmlXQ (UBB) block, `[DhtmlXQ]…[/DhtmlXQ]`, as dpxq.com and
    /// many forums embed a game: tags, `binit` start position, `movelist`.
    Dhtmlxq,
    /// dpxq.com's plain text: `标题:`, `红方:`, `结果:` lines, then
    /// numbered Chinese moves.
    DpxqText,
    /// PlayOK's WXF file: `FORMAT WXF`, tag lines, `START{ … }END`.
    PlayokWxf,
    /// Numbered moves written together without spaces
    /// (`1.兵七进一炮2平32.兵三进一…`).
    Compact,
    /// XQF, the binary file of XQStudio (象棋演播室) and most desktop
    /// programs.
    Xqf,
}

/// One game read from a record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The kind of record it was read from.
    pub format: RecordFormat,
    /// The notation its moves are in, where the format fixes it (DhtmlXQ
    /// and XQF give coordinates, written here in ICCS); else the `[Format]`
    /// tag, the request or the first move decides.
    pub notation: Option<NotationName>,
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

/// Something a record got wrong, or left out, that was read anyway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnWarning {
    /// Text after the game's end that is no game (xqbase.com's `====`
    /// line, its greeting and address): kept here, not read.
    Trailer {
        /// Where it begins.
        line: usize,
        /// Its first line that says something.
        text: String,
    },
    /// The record has tags but no move.
    NoMoves,
    /// A tag named a second time: the first value is kept.
    DuplicateTag {
        /// Where the second one stands.
        line: usize,
        /// Its name.
        name: String,
        /// The value not kept.
        value: String,
    },
    /// Variations of the record (XQF's branches) were skipped: only the
    /// main line is read.
    VariationsSkipped {
        /// How many moves they held.
        moves: usize,
    },
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

    /// Reads a result as Chinese records and sites write it: PGN's own
    /// tokens, Chinese words (`红胜`, `黑方胜`, `红先负`, `和棋`, simplified or
    /// traditional) or a letter from Red's side (`W`, `L`, `D`); anything
    /// else is unknown.
    pub fn read_words(text: &str) -> RecordedResult {
        let v = text.trim();
        if let Some(r) = RecordedResult::parse(v) {
            return r;
        }
        let has = |words: &[&str]| words.iter().any(|w| v.contains(w));
        match v {
            "W" | "w" => RecordedResult::FirstWins,
            "L" | "l" => RecordedResult::SecondWins,
            "D" | "d" => RecordedResult::Draw,
            _ if has(&["和"]) => RecordedResult::Draw,
            _ if has(&[
                "红胜",
                "紅勝",
                "红先胜",
                "紅先勝",
                "红方胜",
                "紅方勝",
                "先胜",
                "先勝",
            ]) =>
            {
                RecordedResult::FirstWins
            }
            _ if has(&[
                "黑胜",
                "黑勝",
                "红先负",
                "紅先負",
                "黑方胜",
                "黑方勝",
                "先负",
                "先負",
            ]) =>
            {
                RecordedResult::SecondWins
            }
            _ => RecordedResult::Unknown,
        }
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
    /// Nothing in the text could be read as a tag, a move or a record of a
    /// known format (only damaged tag lines or unknown brackets).
    NotUnderstood {
        /// The first line that was not understood.
        line: usize,
        /// That line, as written (at most 60 characters).
        text: String,
    },
    /// A record of a known format whose moves are damaged (a DhtmlXQ
    /// `movelist` whose length is no multiple of four, a digit out of the
    /// board).
    BadMoveList {
        /// The format.
        format: RecordFormat,
        /// Where it is.
        line: usize,
        /// What is wrong, as the format's own words: the part written.
        text: String,
    },
}

impl PgnError {
    /// The line the problem is on, if it is on one.
    pub fn line(&self) -> Option<usize> {
        match *self {
            PgnError::UnclosedComment { line }
            | PgnError::UnclosedVariation { line }
            | PgnError::StrayParenthesis { line }
            | PgnError::AfterResult { line }
            | PgnError::SecondGame { line }
            | PgnError::NotUnderstood { line, .. }
            | PgnError::BadMoveList { line, .. } => Some(line),
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
