//! Extended FEN: the six FIDE fields, then the balances `W/B`:
//! `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16/16`.

use super::board::*;
use super::position::*;
use crate::variants::placement::write_placement;
use crate::variants::{BalancesError, Color, FenError, SetupError};

/// The standard start position, with both balances at 16.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16/16";

fn err(msg: impl Into<String>) -> FenError {
    FenError::new(msg)
}

/// Reads an extended FEN. `start_money` fills in balances a six-field FEN lacks.
pub fn parse(fen: &str, start_money: u32, income: u32) -> Result<(Position, bool), FenError> {
    match parse_with(fen, start_money, income, None) {
        Ok(pos) => Ok((pos, fen.split_whitespace().count() == 7)),
        Err(SetupError::Fen(e)) => Err(e),
        Err(SetupError::Balances(_)) => unreachable!("no balances were given"),
    }
}

/// Reads an extended FEN with balances given beside it (which must agree
/// with the FEN's seventh field when it has one), and validates the position
/// with the balances it will have.
pub fn parse_with(
    fen: &str,
    start_money: u32,
    income: u32,
    balances: Option<[u32; 2]>,
) -> Result<Position, SetupError> {
    let mut pos = parse_unchecked(fen, start_money, income).map_err(SetupError::Fen)?;
    if let Some(b) = balances {
        if b.iter().any(|&x| x > MAX_BALANCE) {
            return Err(SetupError::Balances(BalancesError::TooLarge {
                max: MAX_BALANCE,
            }));
        }
        if fen.split_whitespace().count() == 7 && b != pos.balance {
            return Err(SetupError::Balances(BalancesError::Disagree {
                sent: b,
                fen: pos.balance,
            }));
        }
        pos.balance = b;
    }
    pos.hash = pos.zobrist_without_ep();
    pos.set_ep(pos.ep);
    if pos.king_threatened(!pos.side) {
        return Err(SetupError::Fen(err(
            "the side not to move has its king under an affordable threat; such a position cannot arise",
        )));
    }
    Ok(pos)
}

fn parse_unchecked(fen: &str, start_money: u32, income: u32) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return Err(err("a FEN needs at least the board and the side to move"));
    }
    if fields.len() > 7 {
        return Err(err(format!(
            "a Taxi chess FEN has at most 7 fields, this one has {}",
            fields.len()
        )));
    }
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(err(format!(
                "the side to move must be 'w' or 'b', not '{other}'"
            )))
        }
    };
    let mut pos = Position::empty(side, income);
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 8 {
        return Err(err(format!(
            "the board must have 8 ranks separated by '/', found {}",
            rows.len()
        )));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(err(format!(
                        "rank {} ('{row}'): '{c}' is not a count of empty squares",
                        rank + 1
                    )));
                }
                file += d as u8;
            } else {
                let kind = Kind::from_letter(c).ok_or_else(|| {
                    err(format!(
                        "rank {} ('{row}'): '{c}' is not a piece letter (PNBRQK)",
                        rank + 1
                    ))
                })?;
                if file >= 8 {
                    return Err(err(format!(
                        "rank {} ('{row}') has more than 8 squares",
                        rank + 1
                    )));
                }
                if kind == Kind::Pawn && (rank == 0 || rank == 7) {
                    return Err(err(format!(
                        "a pawn cannot stand on {}",
                        sq_name(rank * 8 + file)
                    )));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                pos.put(rank * 8 + file, color, kind);
                file += 1;
            }
            if file > 8 {
                return Err(err(format!(
                    "rank {} ('{row}') has more than 8 squares",
                    rank + 1
                )));
            }
        }
        if file != 8 {
            return Err(err(format!(
                "rank {} ('{row}') has {file} squares, not 8",
                rank + 1
            )));
        }
    }
    for c in [Color::White, Color::Black] {
        let n = pos.pieces(c, Kind::King).count_ones();
        if n != 1 {
            let name = if c == Color::White { "White" } else { "Black" };
            return Err(err(format!("{name} must have exactly one king, not {n}")));
        }
    }
    // Castling rights, checked against the pieces.
    let castling = fields.get(2).copied().unwrap_or("-");
    if castling != "-" {
        for ch in castling.chars() {
            let (bit, king, rook, name) = match ch {
                'K' => (WHITE_KING_SIDE, 4, 7, "White king side"),
                'Q' => (WHITE_QUEEN_SIDE, 4, 0, "White queen side"),
                'k' => (BLACK_KING_SIDE, 60, 63, "Black king side"),
                'q' => (BLACK_QUEEN_SIDE, 60, 56, "Black queen side"),
                _ => {
                    return Err(err(format!(
                        "castling rights are 'KQkq' letters or '-', not '{castling}'"
                    )))
                }
            };
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if pos.piece_at(king) != Some((color, Kind::King))
                || pos.piece_at(rook) != Some((color, Kind::Rook))
            {
                return Err(err(format!(
                    "{name} castling right needs the king on {} and the rook on {}",
                    sq_name(king),
                    sq_name(rook)
                )));
            }
            if pos.castling & bit != 0 {
                return Err(err(format!("castling right '{ch}' is given twice")));
            }
            pos.castling |= bit;
        }
    }
    let ep = fields.get(3).copied().unwrap_or("-");
    if ep != "-" {
        let b = ep.as_bytes();
        let ok = b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b[1] == b'3' || b[1] == b'6');
        if !ok {
            return Err(err(format!(
                "the en-passant square must be '-' or a square on rank 3 or 6, not '{ep}'"
            )));
        }
        let s = (b[1] - b'1') * 8 + (b[0] - b'a');
        let (want_rank, pawn_sq) = if side == Color::White {
            (5, s - 8)
        } else {
            (2, s + 8)
        };
        if rank_of(s) != want_rank
            || pos.piece_at(pawn_sq) != Some((!side, Kind::Pawn))
            || pos.piece_at(s).is_some()
        {
            return Err(err(format!(
                "en-passant square {ep} does not follow a double step of a pawn"
            )));
        }
        pos.ep = s;
    }
    if let Some(h) = fields.get(4) {
        pos.halfmove = h
            .parse()
            .ok()
            .filter(|&n: &u32| n <= 100_000)
            .ok_or_else(|| {
                err(format!(
                    "the halfmove clock must be a whole number, not '{h}'"
                ))
            })?;
    }
    if let Some(n) = fields.get(5) {
        pos.fullmove = n
            .parse()
            .ok()
            .filter(|n| (1..=1_000_000).contains(n))
            .ok_or_else(|| {
                err(format!(
                    "the move number must be a whole number from 1, not '{n}'"
                ))
            })?;
    }
    pos.balance = match fields.get(6) {
        None => [start_money; 2],
        Some(b) => {
            let parts: Vec<&str> = b.split('/').collect();
            let read = |t: &str| t.parse::<u32>().ok().filter(|&n| n <= MAX_BALANCE);
            match parts.as_slice() {
                [w, bl] => match (read(w), read(bl)) {
                    (Some(w), Some(bl)) => [w, bl],
                    _ => {
                        return Err(err(format!(
                        "balances must be two whole numbers 'W/B' up to {MAX_BALANCE}, not '{b}'"
                    )))
                    }
                },
                _ => {
                    return Err(err(format!(
                        "the seventh field holds the balances as 'W/B', not '{b}'"
                    )))
                }
            }
        }
    };
    Ok(pos)
}

pub fn write(pos: &Position) -> String {
    let mut out = String::with_capacity(90);
    write_placement(&mut out, 8, 8, |file, rank| {
        let (c, k) = pos.piece_at((rank * 8 + file) as Sq)?;
        let l = k.letter();
        Some(if c == Color::White {
            l
        } else {
            l.to_ascii_lowercase()
        })
    });
    out.push_str(if pos.side == Color::White {
        " w "
    } else {
        " b "
    });
    if pos.castling == 0 {
        out.push('-');
    }
    for (bit, ch) in [
        (WHITE_KING_SIDE, 'K'),
        (WHITE_QUEEN_SIDE, 'Q'),
        (BLACK_KING_SIDE, 'k'),
        (BLACK_QUEEN_SIDE, 'q'),
    ] {
        if pos.castling & bit != 0 {
            out.push(ch);
        }
    }
    let ep = if pos.ep == NO_SQ {
        "-".to_owned()
    } else {
        sq_name(pos.ep)
    };
    out.push_str(&format!(
        " {ep} {} {} {}/{}",
        pos.halfmove, pos.fullmove, pos.balance[0], pos.balance[1]
    ));
    out
}
