//! Move notations: UCI coordinates (`e2e4`, `e7e8q`, castling as the king's
//! move) and standard algebraic notation (`Nf3`, `exd5`, `O-O`, `e8=Q+`).
//! SAN is read into a description that is matched against the legal moves,
//! and written with the disambiguation taken from a move list already known.

use super::board::{file_of, rank_of, sq_name, Flag, Kind, Move, Sq};
use super::position::Position;
use crate::variants::spelling;

/// How moves are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// UCI coordinates: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    #[default]
    Uci,
    /// Standard algebraic notation: `Nf3`, `exd5`, `O-O`, `e8=Q+`.
    San,
}

/// A square from its file and rank letters.
fn square(file: u8, rank: u8) -> Option<Sq> {
    ((b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank))
        .then(|| (rank - b'1') * 8 + (file - b'a'))
}

/// A move in UCI coordinates.
pub fn uci(m: Move) -> String {
    let mut s = format!("{}{}", sq_name(m.from), sq_name(m.to));
    if let Some(p) = m.promo {
        s.push(p.letter().to_ascii_lowercase());
    }
    s
}

/// Reads UCI coordinates: from, to, and the promotion piece, in the
/// spelling of [`spelling::coordinates`] (`E2-E4`, `e7e8=Q`, full-width
/// forms).
pub fn parse_uci(text: &str) -> Option<(Sq, Sq, Option<Kind>)> {
    let t = spelling::coordinates(text);
    let t = t.as_bytes();
    if t.len() != 4 && t.len() != 5 {
        return None;
    }
    let from = square(t[0], t[1])?;
    let to = square(t[2], t[3])?;
    let promo = match t.get(4) {
        None => None,
        Some(&c) => match Kind::from_letter(c.to_ascii_uppercase() as char)? {
            k @ (Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight) => Some(k),
            _ => return None,
        },
    };
    Some((from, to, promo))
}

/// A SAN move as read: what moves where, with what the text pins down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum San {
    /// Castling: king side (`O-O`) or queen side (`O-O-O`).
    Castle {
        /// Whether king side.
        king_side: bool,
    },
    /// Any other move.
    Normal {
        /// The piece moving.
        kind: Kind,
        /// The file of its square, when written.
        file: Option<u8>,
        /// The rank of its square, when written.
        rank: Option<u8>,
        /// Where it goes.
        to: Sq,
        /// What a pawn becomes.
        promo: Option<Kind>,
    },
}

impl San {
    /// Reads SAN; check, mate and annotation marks are ignored, `0` may
    /// stand for `O` and `x` may be left out.
    pub fn read(text: &str) -> Option<San> {
        let narrow = spelling::narrow_str(text);
        let t = narrow.trim().trim_end_matches(['+', '#', '!', '?']);
        match t.replace('0', "O").as_str() {
            "O-O" => return Some(San::Castle { king_side: true }),
            "O-O-O" => return Some(San::Castle { king_side: false }),
            _ => {}
        }
        if !t.is_ascii() || t.is_empty() || t.len() > 8 {
            return None;
        }
        let (body, promo) = match t.split_once('=') {
            Some((body, p)) => (body, Some(p)),
            // `e8Q`: a promotion without `=`.
            None if t.len() >= 3
                && t.as_bytes()[t.len() - 2].is_ascii_digit()
                && "QRBN".contains(&t[t.len() - 1..]) =>
            {
                (&t[..t.len() - 1], Some(&t[t.len() - 1..]))
            }
            None => (t, None),
        };
        let promo = match promo {
            None => None,
            Some(p) => match Kind::from_letter(p.chars().next()?)? {
                k @ (Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight) if p.len() == 1 => {
                    Some(k)
                }
                _ => return None,
            },
        };
        let first = *body.as_bytes().first()?;
        let (kind, rest) = match first {
            b'K' | b'Q' | b'R' | b'B' | b'N' => (Kind::from_letter(first as char)?, &body[1..]),
            b'a'..=b'h' => (Kind::Pawn, body),
            _ => return None,
        };
        let rest: Vec<u8> = rest.bytes().filter(|&b| b != b'x').collect();
        if rest.len() < 2 || rest.len() > 4 {
            return None;
        }
        let (hint, dest) = rest.split_at(rest.len() - 2);
        let to = square(dest[0], dest[1])?;
        let (mut file, mut rank) = (None, None);
        for &h in hint {
            match h {
                b'a'..=b'h' if file.is_none() && rank.is_none() => file = Some(h - b'a'),
                b'1'..=b'8' if rank.is_none() => rank = Some(h - b'1'),
                _ => return None,
            }
        }
        if promo.is_some() && kind != Kind::Pawn {
            return None;
        }
        Some(San::Normal {
            kind,
            file,
            rank,
            to,
            promo,
        })
    }

    /// Whether the legal move `m` is the move read. A pawn's move names only
    /// the file it captures from (`exd5`, never `e2e4`: that is UCI); a
    /// piece may be over-disambiguated (`Ngf3`) and an `x` left out.
    pub fn names(&self, pos: &Position, m: Move) -> bool {
        match *self {
            San::Castle { king_side } => {
                m.flag == Flag::Castle && (file_of(m.to) == 6) == king_side
            }
            San::Normal {
                kind,
                file,
                rank,
                to,
                promo,
            } => {
                let pawn_hint_fits = kind != Kind::Pawn
                    || (rank.is_none()
                        && file.is_none_or(|f| f != file_of(to))
                        && (file.is_some() == (file_of(m.from) != file_of(m.to))));
                m.flag != Flag::Castle
                    && m.to == to
                    && m.promo == promo
                    && pos.piece_at(m.from).map(|p| p.1) == Some(kind)
                    && file.is_none_or(|f| file_of(m.from) == f)
                    && rank.is_none_or(|r| rank_of(m.from) == r)
                    && pawn_hint_fits
            }
        }
    }
}

/// Standard algebraic notation of the legal move `m`, disambiguated among
/// `legal`, the legal moves of this position.
pub fn san_among(pos: &Position, m: Move, legal: &[Move]) -> String {
    let (_, kind) = pos.piece_at(m.from).expect("a move starts on a piece");
    let mut out = String::new();
    if m.flag == Flag::Castle {
        out.push_str(if file_of(m.to) == 6 { "O-O" } else { "O-O-O" });
    } else {
        let capture = pos.piece_at(m.to).is_some() || m.flag == Flag::EnPassant;
        if kind == Kind::Pawn {
            if capture {
                out.push((b'a' + file_of(m.from)) as char);
            }
        } else {
            out.push(kind.letter());
            let rivals: Vec<Sq> = legal
                .iter()
                .filter(|o| {
                    o.to == m.to
                        && o.from != m.from
                        && pos.piece_at(o.from).map(|p| p.1) == Some(kind)
                })
                .map(|o| o.from)
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|&s| file_of(s) == file_of(m.from));
                let same_rank = rivals.iter().any(|&s| rank_of(s) == rank_of(m.from));
                let name = sq_name(m.from);
                if !same_file {
                    out.push_str(&name[..1]);
                } else if !same_rank {
                    out.push_str(&name[1..]);
                } else {
                    out.push_str(&name);
                }
            }
        }
        if capture {
            out.push('x');
        }
        out.push_str(&sq_name(m.to));
        if let Some(p) = m.promo {
            out.push('=');
            out.push(p.letter());
        }
    }
    let mut after = *pos;
    after.make(m);
    if after.in_check() {
        out.push(if after.count_legal() == 0 { '#' } else { '+' });
    }
    out
}
