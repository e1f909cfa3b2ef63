//! Everything the service says in English: the rules core returns typed
//! results (verdicts, refusals, warnings), and each variant's words for them
//! live here, at the edge, beside the side and piece names.

mod tamerlane;
mod taxi;
mod xiangqi;

use crate::variants::{
    BalancesError, Color, Game, NotationName, Outcome, Reason, RulesError, Side, Variant, Verdict,
    Warning,
};

/// A variant's words: its name, its sides, and sentences for its refusals
/// and verdicts.
pub trait Prose: Variant {
    /// The variant's name.
    const NAME: &'static str;
    /// What the variant is, in a sentence or two.
    const DESCRIPTION: &'static str;

    /// A side's name in sentences: `Red`, `White`, `Black` (the variant's
    /// [`Variant::SIDES`]).
    fn side_name(c: Color) -> &'static str {
        match Self::side(c) {
            Side::Red => "Red",
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// What a notation of the variant is.
    fn notation_description(name: NotationName) -> &'static str;

    /// Why `text` is refused here, as the rules see it; points are named in
    /// the request's `notation`.
    fn refusal(&self, why: &Self::Why, text: &str, notation: Self::Notation) -> String;

    /// Why `text` is no move in `notation` at all.
    fn unreadable(text: &str, notation: Self::Notation) -> String;

    /// How the game ended, in a sentence.
    fn explain(game: &Game<Self>, verdict: &Verdict) -> String;

    /// A draw that may be claimed now, in a sentence.
    fn claimable(_game: &Game<Self>, _reason: Reason) -> String {
        String::new()
    }

    /// A chased piece of a repetition report: its point's name and what it
    /// is, as it stands in `pos`.
    fn chased(_pos: &Self, square: u8) -> (String, String) {
        (square.to_string(), String::new())
    }

    /// A warning about a start position, in a sentence.
    fn warning(_pos: &Self, _warning: &Warning) -> String {
        String::new()
    }
}

/// A notation's names in words: as a refusal's hint names it (`ICCS
/// coordinates (ranks 0-9)`), and as a legal move's field in that notation
/// is described (`ICCS/UCCI coordinates, ranks 0-9`; the variants that
/// write it are added).
pub fn notation_words(name: NotationName) -> (&'static str, &'static str) {
    match name {
        NotationName::Iccs | NotationName::Ucci => (
            "ICCS coordinates (ranks 0-9)",
            "ICCS/UCCI coordinates, ranks 0-9",
        ),
        NotationName::Fairy => (
            "Fairy-Stockfish coordinates (ranks 1-10)",
            "Fairy-Stockfish coordinates, ranks 1-10",
        ),
        NotationName::Uci => ("UCI coordinates", "UCI coordinates"),
        NotationName::Wxf => ("WXF notation", "WXF notation"),
        NotationName::Chinese => ("Chinese notation", "Chinese notation"),
        NotationName::San => ("standard algebraic notation", "Standard algebraic notation"),
        NotationName::Coordinate => ("coordinates", "Coordinates"),
    }
}

/// The state of a game in a sentence.
pub fn outcome<V: Prose>(game: &Game<V>, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Ongoing => "the game is in progress".to_owned(),
        Outcome::Ended(v) => V::explain(game, v),
    }
}

/// Why a text is not taken as a move.
pub fn move_error<V: Prose>(
    pos: &V,
    error: &crate::variants::MoveError<V::Why>,
    text: &str,
    notation: V::Notation,
) -> String {
    match error {
        crate::variants::MoveError::Unreadable => V::unreadable(text, notation),
        crate::variants::MoveError::Illegal(why) => pos.refusal(why, text, notation),
    }
}

/// Why balances were refused.
pub fn balances_error<V: Prose>(e: &BalancesError) -> String {
    match e {
        BalancesError::NoMoney => format!("{} has no money, so it takes no balances", V::ID),
        BalancesError::TooLarge { max } => format!("balances may be at most {max}"),
        BalancesError::Disagree { sent, fen } => format!(
            "balances {}/{} disagree with the FEN's {}/{}",
            sent[0], sent[1], fen[0], fen[1]
        ),
    }
}

/// Why a rule option was refused.
pub fn rules_error(e: &RulesError) -> String {
    format!(
        "{} is more than the largest {}, {}",
        e.value,
        e.option.replace('_', " "),
        e.max
    )
}

/// "… is checkmated: … wins" and the like, shared by the variants whose side
/// without a legal move loses.
pub(crate) fn no_move<V: Prose>(pos: &V, reason: Reason, stalemate_words: &str) -> String {
    let us = pos.side_to_move();
    let how = if reason == Reason::Checkmate {
        "is checkmated".to_owned()
    } else {
        stalemate_words.to_owned()
    };
    format!("{} {how}: {} wins", V::side_name(us), V::side_name(!us))
}

/// Words for a move whose first square holds the opponent's piece (`at`
/// already named in the request's notation).
pub(crate) fn not_your_piece<V: Prose>(pos: &V, at: &str) -> String {
    let us = pos.side_to_move();
    format!(
        "the piece on {at} is {}'s, and it is {} to move",
        V::side_name(!us),
        V::side_name(us)
    )
}

/// Why a `pgn` record cannot be read.
pub fn pgn_error(e: &crate::pgn::PgnError) -> String {
    use crate::pgn::PgnError;
    match *e {
        PgnError::UnclosedComment { line } => {
            format!("line {line}: a '{{' comment is never closed")
        }
        PgnError::UnclosedVariation { line } => {
            format!("line {line}: a '(' variation is never closed")
        }
        PgnError::StrayParenthesis { line } => {
            format!("line {line}: a ')' closes no variation")
        }
        PgnError::AfterResult { line } => format!(
            "line {line}: moves follow the result; send one game a record (a batch takes many)"
        ),
        PgnError::SecondGame { line } => format!(
            "line {line}: a second game begins; send one game a record (a batch takes many)"
        ),
        PgnError::Empty => "the record holds no tag, move or result".to_owned(),
        PgnError::NotUnderstood { line, ref text } => format!(
            "line {line}: '{text}' is not understood: the record holds no move, no tag pair and no known format ({})",
            crate::pgn::FORMATS_IN_WORDS
        ),
        PgnError::BadMoveList {
            format,
            line,
            ref text,
        } => format!(
            "line {line}: the {} record's moves are damaged at '{text}'",
            record_format(format)
        ),
    }
}

/// What a record's own result adds to the verdict's words in PGN out:
/// `ongoing`, no rule ended the game and the record's result stands; else
/// the rules' verdict stands and the record said otherwise.
pub fn recorded_result_note(recorded: &str, ongoing: bool) -> String {
    if ongoing {
        format!("; the record's result {recorded} stands: no rule ended the game")
    } else {
        format!("; the record says {recorded}")
    }
}

/// A record format's name, as people call it.
pub fn record_format(f: crate::pgn::RecordFormat) -> &'static str {
    use crate::pgn::RecordFormat;
    match f {
        RecordFormat::Pgn => "PGN",
        RecordFormat::Dhtmlxq => "DhtmlXQ",
        RecordFormat::DpxqText => "dpxq text",
        RecordFormat::PlayokWxf => "PlayOK WXF",
        RecordFormat::Compact => "compact text",
        RecordFormat::Xqf => "XQF",
    }
}

/// Why an XQF file cannot be read.
pub fn xqf_error(e: &crate::pgn::XqfError) -> String {
    use crate::pgn::XqfError;
    match *e {
        XqfError::NoSignature => "the file is not XQF: it does not begin with 'XQ'".to_owned(),
        XqfError::Truncated { at } => {
            format!("the XQF file ends too soon: more was needed at byte {at}")
        }
        XqfError::Version(v) => {
            format!("XQF version {v} is not known (versions up to 18 are read)")
        }
        XqfError::Placement => {
            "the XQF file's pieces are no position (a general missing, or two pieces on one point)"
                .to_owned()
        }
        XqfError::OffBoard { ply } => {
            format!("the XQF file's move {ply} of the main line leaves the board")
        }
    }
}

/// Why a record's bytes are not text.
pub fn decode_error(e: &crate::pgn::DecodeError) -> String {
    use crate::pgn::DecodeError;
    let how = "name its encoding, like 'Content-Type: application/x-chess-pgn; charset=gbk'";
    match e {
        DecodeError::UnknownCharset(label) => {
            format!("the charset '{label}' is no known encoding; {how}")
        }
        DecodeError::NotIn(encoding) => format!(
            "the body is not valid {encoding}, the charset named; name the right one, like 'Content-Type: application/x-chess-pgn; charset=gbk', or leave it out to have it found (UTF-8, GB18030 or Big5)"
        ),
        DecodeError::Undetected => format!(
            "the body is in none of the encodings tried ({}); {how}",
            crate::pgn::ENCODINGS.join(", ")
        ),
    }
}

/// What a `pgn` record got wrong that was read anyway.
pub fn pgn_warning(w: &crate::pgn::PgnWarning) -> String {
    use crate::pgn::PgnWarning;
    match w {
        PgnWarning::DamagedTag {
            line,
            text,
            read_as: Some((name, value)),
        } => format!(
            "pgn: line {line}: the tag line {text} is not [Name \"value\"]; it was read as {name} = \"{value}\""
        ),
        PgnWarning::DamagedTag {
            line,
            text,
            read_as: None,
        } => format!("pgn: line {line}: the tag line {text} names no tag and was skipped"),
        PgnWarning::Trailer { line, text } => format!(
            "pgn: line {line}: the text after the game's end was not read ('{text}')"
        ),
        PgnWarning::NoMoves => {
            "pgn: the record has tags but no move: its game is the start position".to_owned()
        }
        PgnWarning::DuplicateTag { line, name, value } => format!(
            "pgn: line {line}: a second [{name}] tag (\"{value}\") was left out; the first is kept"
        ),
        PgnWarning::VariationsSkipped { moves } => format!(
            "pgn: the record's variations ({moves} moves) were skipped; only its main line is read"
        ),
    }
}
