//! FEN in and out, exactly as the rules document writes it: board (rank 10
//! first, pawns as two letters `P<type>`), side, citadels `<l2>/<z9>`,
//! exchange rights, pawn-of-pawns arrivals `<W>/<B>`, halfmove clock, move
//! number.

use super::board::*;
use super::position::{last_rank, Position};
use crate::variants::placement::write_placement;
use crate::variants::{Color, FenError};

fn err(m: impl Into<String>) -> FenError {
    FenError::new(m)
}

/// The colour a letter's case stands for.
fn color_of_letter(c: char) -> Color {
    if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

/// Reads a FEN; `second_arrival` is where each side's second pawn-of-pawns
/// arrival goes (set by the rules' setup, not recorded in FEN).
pub fn parse(fen: &str, second_arrival: [Sq; 2]) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [board, side, citadels, exchange, arrivals, halfmove, fullmove] = fields[..] else {
        return Err(err(format!(
            "a Tamerlane FEN has 7 fields, this one has {}",
            fields.len()
        )));
    };
    let side = match side {
        "w" => Color::White,
        "b" => Color::Black,
        o => {
            return Err(err(format!(
                "the side to move must be 'w' or 'b', not '{o}'"
            )))
        }
    };
    let mut pos = Position {
        board: [EMPTY; SQUARES],
        side,
        exchange: [false; 2],
        arrivals: [0; 2],
        halfmove: 0,
        fullmove: 1,
        second_arrival,
        hash: 0,
    };
    read_board(&mut pos, board)?;
    read_citadels(&mut pos, citadels)?;
    pos.exchange = match exchange {
        "Kk" => [true, true],
        "K" => [true, false],
        "k" => [false, true],
        "-" => [false, false],
        o => {
            return Err(err(format!(
                "exchange rights are 'Kk', 'K', 'k' or '-', not '{o}'"
            )))
        }
    };
    let counts: Vec<Option<u8>> = arrivals
        .split('/')
        .map(|t| t.parse().ok().filter(|&n: &u8| n <= 2))
        .collect();
    pos.arrivals = match counts[..] {
        [Some(w), Some(b)] => [w, b],
        _ => {
            return Err(err(format!(
                "pawn-of-pawns arrivals are '<W>/<B>' with 0, 1 or 2, not '{arrivals}'"
            )))
        }
    };
    pos.halfmove = halfmove.parse().map_err(|_| {
        err(format!(
            "the halfmove clock must be a whole number, not '{halfmove}'"
        ))
    })?;
    pos.fullmove = fullmove
        .parse()
        .ok()
        .filter(|&n: &u32| (1..=1_000_000).contains(&n))
        .ok_or_else(|| {
            err(format!(
                "the move number must be a whole number from 1, not '{fullmove}'"
            ))
        })?;
    check_royals(&pos)?;
    pos.hash = pos.zobrist();
    Ok(pos)
}

/// The ten ranks of the board, rank 10 first.
fn read_board(pos: &mut Position, board: &str) -> Result<(), FenError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 10 {
        return Err(err(format!(
            "the board must have 10 ranks separated by '/', found {}",
            rows.len()
        )));
    }
    for (i, row) in rows.iter().enumerate() {
        read_rank(pos, 9 - i as i32, row)?;
    }
    Ok(())
}

/// One rank: counts of empty squares (1-11), piece letters, and pawns as
/// `P` and their type letter.
fn read_rank(pos: &mut Position, rank: i32, row: &str) -> Result<(), FenError> {
    let at = |what: String| err(format!("rank {} ('{row}'): {what}", rank + 1));
    let chars: Vec<char> = row.chars().collect();
    let mut file = 0i32;
    let mut j = 0;
    while j < chars.len() {
        let c = chars[j];
        if let Some(d) = c.to_digit(10) {
            let mut n = d as i32;
            if let Some(d2) = chars.get(j + 1).and_then(|c| c.to_digit(10)) {
                n = n * 10 + d2 as i32;
                j += 1;
            }
            if n == 0 || n > 11 {
                return Err(at(format!("'{n}' is not a count of empty squares (1-11)")));
            }
            file += n;
            j += 1;
            continue;
        }
        let color = color_of_letter(c);
        let kind = if c.eq_ignore_ascii_case(&'P') {
            let t = *chars
                .get(j + 1)
                .ok_or_else(|| at("a pawn needs its type letter after 'P'".to_owned()))?;
            if t.is_ascii_uppercase() != c.is_ascii_uppercase() {
                return Err(at("a pawn's two letters must be of one case".to_owned()));
            }
            j += 1;
            let i = PAWN_TYPES
                .iter()
                .position(|&l| l == t.to_ascii_uppercase())
                .ok_or_else(|| {
                    at(format!(
                        "'{t}' after 'P' is not a pawn type (K F W G T N R E C D P)"
                    ))
                })?;
            PAWN + i as u8
        } else {
            PIECE_LETTERS
                .iter()
                .position(|&l| l == c.to_ascii_uppercase())
                .ok_or_else(|| at(format!("'{c}' is not a Tamerlane piece letter")))?
                as u8
        };
        let s = sq(file, rank).ok_or_else(|| {
            err(format!(
                "rank {} ('{row}') has more than 11 squares",
                rank + 1
            ))
        })?;
        if is_pawn(kind) && kind != PAWN_OF_PAWNS && rank == last_rank(color) {
            return Err(err(format!(
                "an unpromoted {} cannot stand on its last rank ({})",
                kind_name(kind),
                sq_name(s)
            )));
        }
        pos.board[s as usize] = code(color, kind);
        file += 1;
        j += 1;
    }
    if file != FILES {
        return Err(err(format!(
            "rank {} ('{row}') has {file} squares, not 11",
            rank + 1
        )));
    }
    Ok(())
}

/// The citadel field `<l2>/<z9>`: a royal's letter or `-` in each.
fn read_citadels(pos: &mut Position, field: &str) -> Result<(), FenError> {
    let Some((l2, z9)) = field.split_once('/') else {
        return Err(err(format!(
            "the citadel field is '<l2>/<z9>', not '{field}'"
        )));
    };
    for (text, citadel) in [(l2, L2), (z9, Z9)] {
        if text == "-" {
            continue;
        }
        let mut it = text.chars();
        let (Some(c), None) = (it.next(), it.next()) else {
            return Err(err(format!(
                "a citadel holds one royal letter or '-', not '{text}'"
            )));
        };
        let color = color_of_letter(c);
        let kind = match c.to_ascii_uppercase() {
            'K' => SHAH,
            'S' => PRINCE,
            'A' => ADVENTITIOUS,
            _ => {
                return Err(err(format!(
                    "only a royal (K, S or A) may stand in a citadel, not '{c}'"
                )))
            }
        };
        if citadel == own_citadel(color) && kind != ADVENTITIOUS {
            return Err(err(format!(
                "only the adventitious king may stand in its own citadel ({})",
                sq_name(citadel)
            )));
        }
        pos.board[citadel as usize] = code(color, kind);
    }
    Ok(())
}

/// Each side has a royal and at most one shah, and the side not to move is
/// not in check.
fn check_royals(pos: &Position) -> Result<(), FenError> {
    for c in [Color::White, Color::Black] {
        let name = if c == Color::White { "White" } else { "Black" };
        if pos.royals(c).next().is_none() {
            return Err(err(format!(
                "{name} has no royal (shah, prince or adventitious king)"
            )));
        }
        if pos
            .royals(c)
            .filter(|&s| kind_of(pos.at(s)) == SHAH)
            .count()
            > 1
        {
            return Err(err(format!("{name} has two shahs")));
        }
    }
    if pos.in_check_of(!pos.side()) {
        return Err(err(
            "the side not to move has its only royal attacked; such a position cannot arise",
        ));
    }
    Ok(())
}

/// Writes the FEN.
pub fn write(pos: &Position) -> String {
    let letters = |p: u8| {
        let kind = kind_of(p);
        let letters = if is_pawn(kind) {
            format!("P{}", PAWN_TYPES[(kind - PAWN) as usize])
        } else {
            PIECE_LETTERS[kind as usize].to_string()
        };
        if color_of(p) == Color::White {
            letters
        } else {
            letters.to_ascii_lowercase()
        }
    };
    let mut out = String::with_capacity(120);
    write_placement(&mut out, FILES as usize, RANKS as usize, |file, rank| {
        let p = pos.at(sq(file as i32, rank as i32).expect("on the board"));
        (p != EMPTY).then(|| letters(p))
    });
    let citadel = |s: Sq| match pos.at(s) {
        EMPTY => "-".to_owned(),
        p => letters(p),
    };
    let exchange = match pos.exchange {
        [true, true] => "Kk",
        [true, false] => "K",
        [false, true] => "k",
        [false, false] => "-",
    };
    format!(
        "{out} {} {}/{} {exchange} {}/{} {} {}",
        if pos.side() == Color::White { 'w' } else { 'b' },
        citadel(L2),
        citadel(Z9),
        pos.arrivals[0],
        pos.arrivals[1],
        pos.halfmove,
        pos.fullmove
    )
}
