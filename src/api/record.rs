//! Game records in requests: a `pgn` field read into the start position,
//! the moves and their notation; a game written back as PGN. The PGN
//! grammar itself is [`crate::pgn`]'s; this module maps it onto the
//! request fields every endpoint already reads.

use std::borrow::Cow;

use strum::VariantArray;

use super::error::{ApiError, Problem};
use super::extract::notation_of;
use super::prose::{self, Prose};
use super::types::PositionFields;
use crate::pgn::{self, Record, WriteOptions};
use crate::variants::{Color, Game, GameResult, NotationName, Outcome, Variant};

/// Where a request's game comes from: its `fen`, `moves` and `balances`
/// (borrowed), or its `pgn` record read into the same.
pub struct Source<'a, V: Variant> {
    /// The start position.
    pub fen: Option<Cow<'a, str>>,
    /// The moves, as written.
    pub moves: Cow<'a, [String]>,
    /// Taxi chess: both balances.
    pub balances: Option<[u32; 2]>,
    /// The moves' notation; `None`: the record's first move decides (see
    /// [`detect`]).
    pub notation: Option<V::Notation>,
    /// The record, when the game came as PGN.
    pub record: Option<Record>,
}

/// The source of a request's game.
pub fn source_of<V: Prose>(req: &impl PositionFields) -> Result<Source<'_, V>, ApiError> {
    let field_balances = req.balances().map(|b| [b.white, b.black]);
    let Some(text) = req.pgn() else {
        return Ok(Source {
            fen: req.fen().map(Cow::Borrowed),
            moves: Cow::Borrowed(req.moves()),
            balances: field_balances,
            notation: Some(notation_of::<V>(req.notation())?),
            record: None,
        });
    };
    if req.fen().is_some() || !req.moves().is_empty() {
        return Err(ApiError::new(
            Problem::InvalidRequest,
            "pgn: send a game either as pgn or as fen and moves, not both",
        )
        .field("pgn"));
    }
    let record = pgn::read(text).map_err(|e| invalid(prose::pgn_error(&e)))?;
    let balances = match record.tag("Balances") {
        None => field_balances,
        Some(tag) => Some(parse_balances(tag).ok_or_else(|| {
            invalid(format!(
                "the [Balances] tag is '{tag}'; write White's and Black's balances as two whole numbers, like \"16/16\""
            ))
        })?),
    };
    let notation = match (record.tag("Format"), req.notation()) {
        (Some(tag), _) => Some(format_notation::<V>(tag)?),
        (None, Some(name)) => Some(notation_of::<V>(Some(name))?),
        (None, None) => None,
    };
    let iccs = V::notation(NotationName::Iccs);
    let moves: Vec<String> = record
        .moves
        .iter()
        .map(|m| match notation {
            Some(n) if Some(n) == iccs => iccs_token(&m.text),
            _ => m.text.clone(),
        })
        .collect();
    Ok(Source {
        fen: record.fen().map(|f| Cow::Owned(f.to_owned())),
        moves: Cow::Owned(moves),
        balances,
        notation,
        record: Some(record),
    })
}

fn invalid(detail: String) -> ApiError {
    ApiError::new(Problem::InvalidPgn, format!("pgn: {detail}")).field("pgn")
}

/// `16/16` (White's, then Black's).
fn parse_balances(tag: &str) -> Option<[u32; 2]> {
    let (white, black) = tag.trim().split_once('/')?;
    Some([white.trim().parse().ok()?, black.trim().parse().ok()?])
}

/// ICCS as Xiangqi databases export it (`H2-E2`) read as we write it
/// (`h2e2`).
fn iccs_token(text: &str) -> String {
    let t: String = text.chars().filter(|&c| c != '-').collect();
    if t.len() == 4 && t.is_ascii() {
        t.to_ascii_lowercase()
    } else {
        text.to_owned()
    }
}

/// The notation a `[Format]` tag names (`ICCS`, `WXF`, `Chinese`, …).
fn format_notation<V: Variant>(tag: &str) -> Result<V::Notation, ApiError> {
    NotationName::VARIANTS
        .iter()
        .find(|n| n.as_str().eq_ignore_ascii_case(tag.trim()))
        .and_then(|&n| V::notation(n))
        .ok_or_else(|| {
            let known: Vec<String> = V::info()
                .notations
                .iter()
                .map(|n| n.name.as_str().to_uppercase())
                .collect();
            invalid(format!(
                "the [Format] tag '{tag}' names no notation of {}; use one of: {}",
                V::ID,
                known.join(", ")
            ))
        })
}

/// The notation of a record that does not say: the first of the
/// variant's notations (SAN first, PGN's own) in which the first move is
/// legal, else in which it can be read; else the first.
pub fn detect<V: Variant>(start: &V, first: Option<&str>) -> V::Notation {
    let mut names: Vec<NotationName> = V::info().notations.iter().map(|n| n.name).collect();
    names.sort_by_key(|&n| n != NotationName::San);
    let notations: Vec<V::Notation> = names.iter().filter_map(|&n| V::notation(n)).collect();
    let fallback = notations.first().copied().unwrap_or_default();
    let Some(text) = first else {
        return fallback;
    };
    let tried: Vec<_> = notations
        .iter()
        .map(|&n| (n, start.parse_move(text, n)))
        .collect();
    tried
        .iter()
        .find(|(_, r)| r.is_ok())
        .or_else(|| {
            tried
                .iter()
                .find(|(_, r)| r.as_ref().is_err_and(|e| !e.is_syntax()))
        })
        .map_or(fallback, |(n, _)| *n)
}

/// How an error names the move at `index` of a record: "move 14 for
/// Black, 'H2+3' (line 9)".
pub fn move_label<V: Prose>(record: &Record, start: &V, index: usize, text: &str) -> String {
    let k = index + usize::from(start.side_to_move() == Color::Black);
    let number = start.fullmove_number() as usize + k / 2;
    let side = V::side_name(if k.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    });
    match record.moves.get(index) {
        Some(m) => format!("move {number} for {side}, '{text}' (line {})", m.line),
        None => format!("move {number} for {side}, '{text}'"),
    }
}

/// The result a record states, as the API names results.
pub fn recorded_result(record: &Record) -> Option<GameResult> {
    record.recorded_result().map(GameResult::from)
}

/// The tags a written record sets itself.
const OWN_TAGS: [&str; 13] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    "Format",
    "Termination",
    "Balances",
];

/// The game as PGN: the seven tags (taken from `record` where it has
/// them), the variant, the set-up position, the notation, the verdict in
/// `[Result]` and `[Termination]`; the moves in `notation`; `comment`
/// after the last move.
pub fn write<V: Prose>(
    game: &Game<V>,
    outcome: &Outcome,
    notation: V::Notation,
    record: Option<&Record>,
    comment: &str,
) -> String {
    let from_record = |name: &str, default: &str| {
        record
            .and_then(|r| r.tag(name))
            .unwrap_or(default)
            .to_owned()
    };
    let mut tags: Vec<(String, String)> = [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
    ]
    .into_iter()
    .map(|(name, default)| (name.to_owned(), from_record(name, default)))
    .collect();
    let result = outcome.result();
    tags.push(("Result".to_owned(), result.to_string()));
    tags.push(("Variant".to_owned(), V::NAME.to_owned()));
    let start = &game.positions()[0];
    let start_fen = start.to_fen();
    if start_fen != V::start_position(game.rules()).to_fen() {
        tags.push(("SetUp".to_owned(), "1".to_owned()));
        tags.push(("FEN".to_owned(), start_fen));
    }
    let name = V::info()
        .notations
        .iter()
        .map(|n| n.name)
        .find(|&n| V::notation(n) == Some(notation));
    // The notation, where the variant has more than one (SAN goes without
    // saying: it is PGN's own).
    let several = V::info().notations.len() > 1;
    if let Some(name) = name.filter(|&n| n != NotationName::San && several) {
        tags.push(("Format".to_owned(), name.as_str().to_uppercase()));
    }
    if let Some(reason) = outcome.reason() {
        tags.push(("Termination".to_owned(), reason.code().to_owned()));
    }
    if let Some(r) = record {
        for (name, value) in &r.tags {
            if !OWN_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
                tags.push((name.clone(), value.clone()));
            }
        }
    }
    let moves: Vec<String> = game
        .moves()
        .iter()
        .zip(game.positions())
        .map(|(&mv, pos)| pos.write_move(mv, notation))
        .collect();
    pgn::write(
        &moves,
        &WriteOptions {
            tags: &tags,
            first_move_number: start.fullmove_number(),
            second_mover_first: start.side_to_move() == Color::Black,
            comment: Some(comment),
            result: Some(result.into()),
        },
    )
}
