//! Game records in requests and answers: what a `pgn` record says beside
//! its moves (balances, the result, where a move stands), its move pairs
//! split, and a game written back as PGN. The PGN grammar itself is
//! [`crate::pgn`]'s; [`super::replay`] reads a record into a game.

use super::error::{ApiError, Problem};
use crate::pgn::{self, Record, WriteOptions};
use crate::prose::Prose;
use crate::variants::{Color, Game, GameResult, NotationName, Outcome, Variant};

/// A problem with a `pgn` record.
pub fn invalid(detail: String) -> ApiError {
    ApiError::new(Problem::InvalidPgn, format!("pgn: {detail}")).field("pgn")
}

/// `16/16` (White's, then Black's).
fn parse_balances(tag: &str) -> Option<[u32; 2]> {
    let (white, black) = tag.trim().split_once('/')?;
    Some([white.trim().parse().ok()?, black.trim().parse().ok()?])
}

/// The balances a record's `[Balances]` tag gives, if it has one.
pub fn balances(record: &Record) -> Result<Option<[u32; 2]>, ApiError> {
    let Some(tag) = record.tag("Balances") else {
        return Ok(None);
    };
    parse_balances(tag).map(Some).ok_or_else(|| {
        invalid(format!(
            "the [Balances] tag is '{tag}'; write White's and Black's balances as two whole numbers, like \"16/16\""
        ))
    })
}

/// The record's moves in `notation`: tokens that hold several moves
/// written together are split, each move keeping its token's line.
pub fn split_moves<V: Variant>(record: &mut Record, notation: V::Notation) -> Vec<String> {
    record.moves = std::mem::take(&mut record.moves)
        .into_iter()
        .flat_map(|token| {
            V::split_record_token(&token.text, notation)
                .into_iter()
                .map(move |text| pgn::MoveToken {
                    text,
                    line: token.line,
                })
        })
        .collect();
    record.move_texts()
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

/// The tags a written record sets itself (besides the roster's sides).
const OWN_TAGS: [&str; 11] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    "Format",
    "Termination",
    "Balances",
];

/// The game as PGN, in the variant's conventions: the seven-tag roster
/// with the variant's side names (`[Red]`/`[Black]` in Xiangqi), taken
/// from `record` where it has them; the variant, the set-up position, the
/// notation, the verdict in `[Result]` and `[Termination]`; then the
/// record's other tags in their order; the moves in `notation`; `comment`
/// after the last move.
pub fn write<V: Prose>(
    game: &Game<V>,
    outcome: &Outcome,
    notation: V::Notation,
    record: Option<&Record>,
    comment: &str,
) -> String {
    let tag = |name: &str| record.and_then(|r| r.tag(name));
    let sides = [Color::White, Color::Black].map(V::side_name);
    let mut tags: Vec<(String, String)> = [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
    ]
    .into_iter()
    .map(|(name, default)| (name.to_owned(), tag(name).unwrap_or(default).to_owned()))
    .collect();
    // A side's tag by the variant's name for it, else by chess's
    // (a Xiangqi record tagged `[White]` names Red).
    for (side, chess) in sides.into_iter().zip(["White", "Black"]) {
        let value = tag(side).or_else(|| tag(chess)).unwrap_or("?");
        tags.push((side.to_owned(), value.to_owned()));
    }
    // The record's own result stands where no rule ended the game (a
    // resignation, an agreed draw); where one did, the verdict, and the
    // comment says what the record said when it differs.
    let recorded = record
        .and_then(Record::recorded_result)
        .filter(|&r| r != pgn::RecordedResult::Unknown);
    let ours = pgn::RecordedResult::from(outcome.result());
    let result = match recorded {
        Some(r) if outcome.is_ongoing() => r,
        _ => ours,
    };
    let comment = match recorded {
        Some(r) if r != ours => format!(
            "{comment}{}",
            crate::prose::recorded_result_note(r.as_str(), outcome.is_ongoing())
        ),
        _ => comment.to_owned(),
    };
    tags.push(("Result".to_owned(), result.as_str().to_owned()));
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
        tags.push(("Format".to_owned(), name.pgn_tag().to_owned()));
    }
    if let Some(reason) = outcome.reason() {
        tags.push(("Termination".to_owned(), reason.code().to_owned()));
    }
    if let Some(r) = record {
        let taken = |name: &str| {
            OWN_TAGS
                .iter()
                .chain(&sides)
                .chain(&["White", "Black"])
                .any(|t| t.eq_ignore_ascii_case(name))
        };
        for (name, value) in &r.tags {
            if !taken(name) {
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
            comment: Some(&comment),
            result: Some(result),
        },
    )
}
