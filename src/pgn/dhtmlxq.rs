//! DhtmlXQ (UBB) blocks, as dpxq.com and many forums embed a game:
//! `[DhtmlXQ]`, then `[DhtmlXQ_name]value[/DhtmlXQ_name]` pairs, then
//! `[/DhtmlXQ]`. Points are two digits, the file from Red's left (0-8) and
//! the rank from Black's side (0 is Black's back rank): `binit` places the
//! 32 pieces (Red's chariot, horse, elephant, advisor, general, advisor,
//! elephant, horse, chariot, two cannons, five soldiers, then Black's; `99`
//! for a piece off the board), `movelist` is four digits a move. A text may
//! hold several blocks: each is a game.

use super::placement::{self, Placement};
use super::{GameText, MoveToken, PgnError, PgnWarning, Record, RecordFormat, RecordedResult};
use crate::variants::NotationName;

/// A block's content and the line it begins on.
struct Block<'a> {
    body: &'a str,
    line: usize,
}

/// Whether the text holds a DhtmlXQ block.
pub fn holds_block(text: &str) -> bool {
    text.contains("[DhtmlXQ]") || text.contains("[DhtmlXQ_")
}

fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(start) = rest.find("[DhtmlXQ]") {
        let body_start = start + "[DhtmlXQ]".len();
        let end = rest[body_start..]
            .find("[/DhtmlXQ]")
            .map_or(rest.len(), |e| body_start + e);
        out.push(Block {
            body: &rest[body_start..end],
            line: 1 + text[..offset + start].matches('\n').count(),
        });
        let next = (end + "[/DhtmlXQ]".len()).min(rest.len());
        offset += next;
        rest = &rest[next..];
    }
    if out.is_empty() {
        // Pairs without the enclosing `[DhtmlXQ]`: one game.
        out.push(Block {
            body: text,
            line: 1,
        });
    }
    out
}

/// The `[DhtmlXQ_name]value[/DhtmlXQ_name]` pairs of a block, in order.
fn pairs(body: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(start) = rest.find("[DhtmlXQ_") {
        let name_start = start + "[DhtmlXQ_".len();
        let Some(name_len) = rest[name_start..].find(']') else {
            break;
        };
        let name = &rest[name_start..name_start + name_len];
        let value_start = name_start + name_len + 1;
        let close = format!("[/DhtmlXQ_{name}]");
        let Some(value_len) = rest[value_start..].find(&close) else {
            rest = &rest[value_start..];
            continue;
        };
        out.push((name, rest[value_start..value_start + value_len].trim()));
        rest = &rest[value_start + value_len + close.len()..];
    }
    out
}

/// Reads every block of a text as a game.
pub fn read_all(text: &str) -> Vec<GameText> {
    blocks(text)
        .into_iter()
        .map(|b| GameText {
            first_line: b.line,
            record: read_block(b.body, b.line),
        })
        .collect()
}

/// A point `(file, rank from Black's side)`, as DhtmlXQ writes it, in ICCS.
fn iccs(file: u8, rank: u8) -> Option<[char; 2]> {
    placement::iccs(file, 9u8.checked_sub(rank)?)
}

fn read_block(body: &str, line: usize) -> Result<Record, PgnError> {
    let mut record = Record {
        format: RecordFormat::Dhtmlxq,
        notation: Some(NotationName::Iccs),
        ..Record::default()
    };
    let bad = |text: &str| PgnError::BadMoveList {
        format: RecordFormat::Dhtmlxq,
        line,
        text: text.chars().take(60).collect(),
    };
    let mut any = false;
    let mut start = None;
    let mut first = None;
    for (name, value) in pairs(body) {
        any = true;
        let tag = match name {
            "movelist" => {
                let digits: Vec<u8> = value.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
                if !digits.len().is_multiple_of(4) || !digits.iter().all(u8::is_ascii_digit) {
                    return Err(bad(value));
                }
                for (i, m) in digits.chunks(4).enumerate() {
                    let d = |k: usize| m[k] - b'0';
                    let (Some(from), Some(to)) = (iccs(d(0), d(1)), iccs(d(2), d(3))) else {
                        return Err(bad(std::str::from_utf8(m).unwrap_or("")));
                    };
                    first = first.or(Some((d(0), 9 - d(1))));
                    record.moves.push(MoveToken {
                        text: from.into_iter().chain(to).collect(),
                        line: i + 1,
                    });
                }
                continue;
            }
            "binit" => {
                start = Some(start_of(value).ok_or_else(|| bad(value))?);
                continue;
            }
            "result" => {
                let result = RecordedResult::read_words(value);
                record.termination = Some(result);
                ("Result", result.as_str().to_owned())
            }
            "title" => ("Title", value.to_owned()),
            "event" => ("Event", value.to_owned()),
            "date" => ("Date", value.to_owned()),
            "place" => ("Site", value.to_owned()),
            "round" => ("Round", value.to_owned()),
            "red" => ("Red", value.to_owned()),
            "redteam" => ("RedTeam", value.to_owned()),
            "black" => ("Black", value.to_owned()),
            "blackteam" => ("BlackTeam", value.to_owned()),
            "open" => ("Opening", value.to_owned()),
            "owner" => ("Annotator", value.to_owned()),
            // The viewer's size, version, comments (`comment12`) and
            // variations (`move_1_5_1`): not the game's.
            _ => continue,
        };
        if !tag.1.is_empty() && record.tag(tag.0).is_none() {
            record.tags.push((tag.0.to_owned(), tag.1));
        }
    }
    if !any {
        return Err(PgnError::NotUnderstood {
            line,
            text: body.trim().chars().take(60).collect(),
        });
    }
    if let Some(board) = start {
        record
            .tags
            .push(("FEN".to_owned(), board.fen(first, false)));
    }
    if record.moves.is_empty() {
        record.warnings.push(PgnWarning::NoMoves);
    }
    Ok(record)
}

/// The start position a `binit` value places; `None` unless it is 64
/// digits placing both generals, no two pieces on one point.
fn start_of(value: &str) -> Option<Placement> {
    let digits = value.trim().as_bytes();
    if digits.len() != 64 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut board = Placement::default();
    for (i, p) in digits.chunks(2).enumerate() {
        let (file, rank) = (p[0] - b'0', p[1] - b'0');
        if file <= 8 && !board.put(i, file, 9 - rank) {
            return None;
        }
    }
    board.has_generals().then_some(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_reads_its_tags_start_and_moves() {
        let text = "[DhtmlXQ]\n[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]\n\
            [DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]\n\
            [DhtmlXQ_red]Lü[/DhtmlXQ_red][DhtmlXQ_result]红胜[/DhtmlXQ_result]\n\
            [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n[/DhtmlXQ]";
        let games = read_all(text);
        assert_eq!(games.len(), 1);
        let r = games[0].record.as_ref().unwrap();
        assert_eq!(r.move_texts(), ["h2e2", "h9g7"]);
        assert_eq!(r.notation, Some(NotationName::Iccs));
        assert_eq!(
            r.fen(),
            Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        );
        assert_eq!(r.tag("Red"), Some("Lü"));
        assert_eq!(r.tag("Result"), Some("1-0"));
        assert_eq!(r.termination, Some(RecordedResult::FirstWins));
    }

    #[test]
    fn two_blocks_are_two_games_and_damage_is_named() {
        let text = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n\
            [DhtmlXQ][DhtmlXQ_movelist]774[/DhtmlXQ_movelist][/DhtmlXQ]\n\
            [DhtmlXQ][DhtmlXQ_title]no moves[/DhtmlXQ_title][/DhtmlXQ]";
        let games = read_all(text);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].record.as_ref().unwrap().move_texts(), ["h2e2"]);
        assert!(matches!(
            games[1].record,
            Err(PgnError::BadMoveList { line: 2, .. })
        ));
        assert_eq!(
            games[2].record.as_ref().unwrap().warnings,
            [PgnWarning::NoMoves]
        );
        assert_eq!(games[2].first_line, 3);
    }
}
