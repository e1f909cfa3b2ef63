//! FEN in and out, as Fairy-Stockfish and Pikafish write it:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.

use super::board::*;
use super::position::Position;
use crate::variants::placement::write_placement;
use crate::variants::{Color, FenError};

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn err(msg: impl Into<String>) -> FenError {
    FenError::new(msg)
}

/// Reads a FEN. Accepted: the board and side alone (`... w`), or with the
/// two `-` fields, or all six fields. `r` is read as Red; `E`/`H` as
/// elephant/horse. Positions that cannot arise in a game are refused.
pub fn parse(fen: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(err("the FEN is empty"));
    }
    if fields.len() > 6 {
        return Err(err(format!(
            "a Xiangqi FEN has at most 6 fields, this one has {}",
            fields.len()
        )));
    }
    let side = match fields.get(1).copied() {
        None => {
            return Err(err(
                "the side to move is missing (the second field must be 'w' or 'b')",
            ))
        }
        Some("w" | "r" | "W" | "R") => Color::White,
        Some("b" | "B") => Color::Black,
        Some(other) => {
            return Err(err(format!(
                "the side to move must be 'w' (or 'r') for Red or 'b' for Black, not '{other}'"
            )))
        }
    };
    for (i, name) in [(2, "castling"), (3, "en passant")] {
        if let Some(f) = fields.get(i) {
            if *f != "-" {
                return Err(err(format!(
                    "the {name} field must be '-' in Xiangqi, not '{f}'"
                )));
            }
        }
    }
    let mut pos = Position::empty(side);
    if let Some(h) = fields.get(4) {
        let halfmove: u16 = h.parse().map_err(|_| {
            err(format!(
                "the halfmove clock must be a whole number up to 65535, not '{h}'"
            ))
        })?;
        pos.halfmove = halfmove;
    }
    if let Some(n) = fields.get(5) {
        let fullmove: u32 = n
            .parse()
            .ok()
            .filter(|n| (1..=1_000_000).contains(n))
            .ok_or_else(|| {
                err(format!(
                    "the move number must be a whole number from 1 to 1000000, not '{n}'"
                ))
            })?;
        pos.fullmove = fullmove;
    }

    // Fairy-Stockfish writes empty holdings as `[]` after the board.
    let board = match fields[0].split_once('[') {
        None => fields[0],
        Some((board, "]")) => board,
        Some(_) => return Err(err(
            "Xiangqi has no pieces in hand: the holdings after the board must be '[]' or absent",
        )),
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != RANKS {
        return Err(err(format!(
            "the board must have 10 ranks separated by '/', found {}",
            rows.len()
        )));
    }
    let mut counts = [[0u8; 8]; 2];
    for (i, row) in rows.iter().enumerate() {
        let rank = RANKS - 1 - i;
        let mut file = 0usize;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(err(format!(
                        "rank {rank} ('{row}'): '0' is not a valid count of empty points"
                    )));
                }
                file += d as usize;
            } else {
                let kind = Kind::from_fen_char(c).ok_or_else(|| {
                    err(format!("rank {rank} ('{row}'): '{c}' is not a Xiangqi piece letter (KABNRCP, or E/H)"))
                })?;
                if file >= FILES {
                    return Err(err(format!("rank {rank} ('{row}') has more than 9 points")));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let s = sq(file, rank);
                if !may_stand(kind, color, s) {
                    return Err(err(format!(
                        "a {} {} can never stand on {}",
                        color_name(color),
                        kind.name(),
                        sq_name(s)
                    )));
                }
                counts[color.index()][kind as usize] += 1;
                if counts[color.index()][kind as usize] > kind.max_count() {
                    return Err(err(format!(
                        "{} has more than {} {}{}",
                        color_name(color),
                        kind.max_count(),
                        kind.name(),
                        if kind.max_count() > 1 { "s" } else { "" }
                    )));
                }
                pos.put(s, piece(color, kind));
                file += 1;
            }
            if file > FILES {
                return Err(err(format!("rank {rank} ('{row}') has more than 9 points")));
            }
        }
        if file != FILES {
            return Err(err(format!(
                "rank {rank} ('{row}') has {file} points, not 9"
            )));
        }
    }
    for color in [Color::White, Color::Black] {
        if counts[color.index()][Kind::General as usize] == 0 {
            return Err(err(format!("{} has no general", color_name(color))));
        }
    }
    let waiting = !side;
    if pos.general_attacked(waiting) {
        let by = pos.attackers(pos.general(waiting), side);
        let what = by.first().map_or_else(String::new, |&a| {
            format!(" by the {} on {}", piece_label(pos.piece_at(a)), sq_name(a))
        });
        return Err(err(format!(
            "{} is not to move but its general is attacked{what}; such a position cannot arise",
            color_name(waiting)
        )));
    }
    Ok(pos)
}

/// Writes the six-field FEN.
pub fn write(pos: &Position) -> String {
    let mut out = String::with_capacity(96);
    write_placement(&mut out, FILES, RANKS, |file, rank| {
        let p = pos.piece_at(sq(file, rank));
        let c = kind_of(p)?.fen_char();
        Some(if color_of(p) == Color::White {
            c
        } else {
            c.to_ascii_lowercase()
        })
    });
    let side = if pos.side() == Color::White { 'w' } else { 'b' };
    out.push_str(&format!(
        " {side} - - {} {}",
        pos.halfmove_clock(),
        pos.fullmove_number()
    ));
    out
}
