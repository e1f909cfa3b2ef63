//! The coordinate notation of the rules document: `<from><to>` with squares
//! `a1`-`k10`, `l2`, `z9`; relocation `<from>@<to>`; exchange
//! `<shah>~<square>`; citadel exchange `<from><citadel>~<square>`.

use super::board::{parse_sq, sq_name, Sq};
use super::position::{Move, Special};
use crate::variants::spelling;

/// How moves are written: the only notation is the coordinate form of the
/// rules document.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Notation;

/// A move in coordinates.
pub fn write(m: Move) -> String {
    match m.special {
        Special::None => format!("{}{}", sq_name(m.from), sq_name(m.to)),
        Special::Relocate => format!("{}@{}", sq_name(m.from), sq_name(m.to)),
        Special::Exchange => format!("{}~{}", sq_name(m.from), sq_name(m.to)),
        Special::CitadelExchange(p) => {
            format!("{}{}~{}", sq_name(m.from), sq_name(m.to), sq_name(p))
        }
    }
}

/// Splits `a10a9` into squares (`l2` and `z9` included).
fn squares(text: &str) -> Option<Vec<Sq>> {
    // Squares are ASCII; slicing by bytes below relies on it.
    if !text.is_ascii() {
        return None;
    }
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        out.push(parse_sq(&text[start..i])?);
    }
    Some(out)
}

/// Reads a move in coordinates (not yet checked for legality), in the
/// spelling of [`spelling::coordinates`] (`B2-C4`, full-width forms).
pub fn read(text: &str) -> Option<Move> {
    let t = spelling::coordinates(text);
    let t = t.as_str();
    let special = |from: Sq, to: Sq, special| Some(Move { from, to, special });
    if let Some((a, b)) = t.split_once('@') {
        return match (squares(a)?.as_slice(), squares(b)?.as_slice()) {
            (&[from], &[to]) => special(from, to, Special::Relocate),
            _ => None,
        };
    }
    if let Some((a, b)) = t.split_once('~') {
        return match (squares(a)?.as_slice(), squares(b)?.as_slice()) {
            (&[shah], &[partner]) => special(shah, partner, Special::Exchange),
            (&[from, citadel], &[partner]) => {
                special(from, citadel, Special::CitadelExchange(partner))
            }
            _ => None,
        };
    }
    match squares(t)?.as_slice() {
        [from, to] => Some(Move::normal(*from, *to)),
        _ => None,
    }
}
