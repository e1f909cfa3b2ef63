//! Taxi chess: FIDE chess where every step costs money. The rules this
//! service implements are stated in `docs/rules/taxi.md`.

mod fen;
mod position;

#[cfg(test)]
mod tests;

pub use fen::{MAX_BALANCE, START_FEN};
pub use position::{distance, removal, sq_name, Flag, Kind, Move, Position, Sq};

use super::{
    Color, FenError, Game, MoveError, MoveNotations, NotationInfo, NotationName, Outcome, Reason,
    RulesError, SetupError, Variant, VariantId, VariantInfo,
};
use crate::variants::Refusal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The rule options of Taxi chess (`rules` with the path `taxi`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TaxiRules)]
pub struct Rules {
    /// Units each side starts with; fills in the balances of a six-field FEN.
    #[serde(default = "default_start_money")]
    #[schema(default = 16, minimum = 0, maximum = 1_000_000_000)]
    pub start_money: u32,
    /// Units each side receives at the start of each of its turns, before moving.
    #[serde(default = "default_income")]
    #[schema(default = 2, minimum = 0, maximum = 1_000_000)]
    pub income: u32,
}

fn default_start_money() -> u32 {
    16
}

fn default_income() -> u32 {
    2
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            start_money: default_start_money(),
            income: default_income(),
        }
    }
}

/// How moves are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// UCI coordinates: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    #[default]
    Uci,
    /// Standard algebraic notation: `Nf3`, `exd5`, `O-O`, `e8=Q+`.
    San,
}

pub type Taxi = Position;

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Everything that makes two positions the same for repetition: placement,
/// side to move, castling rights, both balances, and the en-passant square
/// only where an en-passant capture is legal (affordable included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RepetitionKey {
    by_kind: [u64; 6],
    by_color: [u64; 2],
    side: Color,
    castling: u8,
    ep: Sq,
    balance: [u32; 2],
}

impl Position {
    fn repetition_key(&self) -> RepetitionKey {
        RepetitionKey {
            by_kind: self.by_kind,
            by_color: self.by_color,
            side: self.side,
            castling: self.castling,
            ep: if self.ep_capture_legal() {
                self.ep
            } else {
                position::NO_SQ
            },
            balance: self.balance,
        }
    }

    pub fn uci(m: Move) -> String {
        let mut s = format!("{}{}", sq_name(m.from), sq_name(m.to));
        if let Some(p) = m.promo {
            s.push(p.letter().to_ascii_lowercase());
        }
        s
    }

    /// Standard algebraic notation of a legal move.
    pub fn san(&self, m: Move) -> String {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        self.san_among(m, &legal)
    }

    fn san_among(&self, m: Move, legal: &[Move]) -> String {
        let (_, kind) = self.piece_at(m.from).expect("a move starts on a piece");
        let mut out = String::new();
        if m.flag == Flag::Castle {
            out.push_str(if position::file_of(m.to) == 6 {
                "O-O"
            } else {
                "O-O-O"
            });
        } else {
            let capture = self.piece_at(m.to).is_some() || m.flag == Flag::EnPassant;
            if kind == Kind::Pawn {
                if capture {
                    out.push((b'a' + position::file_of(m.from)) as char);
                }
            } else {
                out.push(kind.letter());
                let rivals: Vec<Sq> = legal
                    .iter()
                    .filter(|o| {
                        o.to == m.to
                            && o.from != m.from
                            && self.piece_at(o.from).map(|p| p.1) == Some(kind)
                    })
                    .map(|o| o.from)
                    .collect();
                if !rivals.is_empty() {
                    let same_file = rivals
                        .iter()
                        .any(|&s| position::file_of(s) == position::file_of(m.from));
                    let same_rank = rivals
                        .iter()
                        .any(|&s| position::rank_of(s) == position::rank_of(m.from));
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
        let mut after = *self;
        after.make(m);
        if after.in_check() {
            let mut replies = Vec::new();
            after.legal(&mut replies);
            out.push(if replies.is_empty() { '#' } else { '+' });
        }
        out
    }

    /// Reads a UCI move and checks it, explaining a refusal.
    fn check_uci(&self, text: &str) -> Result<Move, MoveError> {
        let bad = || {
            MoveError::new(
                Refusal::BadNotation,
                format!("'{text}' is not a UCI move like 'e2e4' or 'e7e8q'"),
            )
        };
        let t = text.trim().as_bytes();
        if t.len() != 4 && t.len() != 5 {
            return Err(bad());
        }
        let square = |f: u8, r: u8| -> Option<Sq> {
            ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
                .then(|| (r - b'1') * 8 + (f - b'a'))
        };
        let from = square(t[0], t[1]).ok_or_else(bad)?;
        let to = square(t[2], t[3]).ok_or_else(bad)?;
        let promo = match t.get(4) {
            None => None,
            Some(&c) => match Kind::from_letter(c as char) {
                Some(k @ (Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight))
                    if c.is_ascii_lowercase() =>
                {
                    Some(k)
                }
                _ => return Err(bad()),
            },
        };
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if let Some(&m) = legal
            .iter()
            .find(|m| m.from == from && m.to == to && m.promo == promo)
        {
            return Ok(m);
        }
        Err(self.explain(from, to, promo))
    }

    fn explain(&self, from: Sq, to: Sq, promo: Option<Kind>) -> MoveError {
        let us = self.side;
        let refuse = |code: Refusal, msg: String| MoveError::new(code, msg);
        let Some((color, kind)) = self.piece_at(from) else {
            return MoveError::no_piece(&sq_name(from));
        };
        if color != us {
            return MoveError::not_your_piece(&sq_name(from), color_name(color), color_name(us));
        }
        if from == to {
            return MoveError::null_move("square");
        }
        if let Some((c, k)) = self.piece_at(to) {
            if c == us {
                return MoveError::own_piece(&sq_name(to), color_name(us), k.name());
            }
        }
        let last_rank = if us == Color::White { 7 } else { 0 };
        if kind == Kind::Pawn && position::rank_of(to) == last_rank && promo.is_none() {
            return refuse(
                Refusal::PromotionRequired,
                format!(
                    "a pawn reaching the last rank must promote: write e.g. {}{}q",
                    sq_name(from),
                    sq_name(to)
                ),
            );
        }
        if promo.is_some() && (kind != Kind::Pawn || position::rank_of(to) != last_rank) {
            return refuse(
                Refusal::BadPromotion,
                "only a pawn reaching the last rank promotes".to_owned(),
            );
        }
        let mut movement = Vec::new();
        self.movement_moves(&mut movement);
        let Some(&m) = movement
            .iter()
            .find(|m| m.from == from && m.to == to && m.promo == promo)
        else {
            if kind == Kind::King && position::file_of(from) == 4 && from.abs_diff(to) == 2 {
                return refuse(Refusal::CastlingNotAllowed, "castling is not possible: the right is lost or a square between king and rook is occupied".to_owned());
            }
            return refuse(Refusal::BadGeometry, self.geometry_refusal(kind, from, to));
        };
        let budget = self.budget(us);
        if m.cost > budget {
            return refuse(
                Refusal::InsufficientFunds,
                format!(
                    "it costs {} ({}), and {} has {} ({} plus income {})",
                    m.cost,
                    self.cost_breakdown(m),
                    color_name(us),
                    budget,
                    self.balance[us.index()],
                    self.income
                ),
            );
        }
        let them = !us;
        let mut after = *self;
        after.make(m);
        let k = after.king(us);
        let occ = after.by_color[0] | after.by_color[1];
        let threats = after.threats_to(k, them, occ);
        if threats != 0 {
            let x = threats.trailing_zeros() as Sq;
            let (_, xk) = after.piece_at(x).expect("a threatening piece");
            let what = format!(
                "the {} {} on {} could take it next turn ({} has {} units then)",
                color_name(them),
                xk.name(),
                sq_name(x),
                color_name(them),
                after.budget(them)
            );
            return if kind == Kind::King {
                refuse(
                    Refusal::SelfCheck,
                    format!("{} is threatened: {what}", sq_name(to)),
                )
            } else {
                refuse(
                    Refusal::SelfCheck,
                    format!("it leaves the king in check: {what}"),
                )
            };
        }
        if m.flag == Flag::Castle {
            let occ = self.by_color[0] | self.by_color[1];
            let transit = (m.from + m.to) / 2;
            for s in [m.from, transit] {
                if self.threats_to(s, them, occ) != 0 {
                    return refuse(
                        Refusal::CastlingThroughThreat,
                        format!("castling is illegal: {} is threatened", sq_name(s)),
                    );
                }
            }
        }
        refuse(Refusal::Illegal, "the move is illegal".to_owned())
    }

    /// Why a piece cannot go from `from` to `to` by its movement.
    fn geometry_refusal(&self, kind: Kind, from: Sq, to: Sq) -> String {
        let (df, dr) = (
            position::file_of(to) as i32 - position::file_of(from) as i32,
            position::rank_of(to) as i32 - position::rank_of(from) as i32,
        );
        let straight = df == 0 || dr == 0;
        let diagonal = df.abs() == dr.abs();
        let line_ok = match kind {
            Kind::Rook => straight,
            Kind::Bishop => diagonal,
            Kind::Queen => straight || diagonal,
            _ => false,
        };
        if line_ok {
            let (sf, sr) = (df.signum(), dr.signum());
            let mut s = from as i32 + sf + 8 * sr;
            while s != to as i32 {
                if self.piece_at(s as Sq).is_some() {
                    return format!(
                        "the {}'s path is blocked at {}",
                        kind.name(),
                        sq_name(s as Sq)
                    );
                }
                s += sf + 8 * sr;
            }
        }
        let forward = if self.side == Color::White { 1 } else { -1 };
        match kind {
            Kind::Pawn if df == 0 && dr == forward => format!("{} is occupied: a pawn captures diagonally", sq_name(to)),
            Kind::Pawn if df == 0 && dr == 2 * forward => {
                "a pawn steps two squares only from its starting rank and over an empty square".to_owned()
            }
            Kind::Pawn if df.abs() == 1 && dr == forward => format!("a pawn moves diagonally only to capture, and {} is empty", sq_name(to)),
            Kind::Pawn => "a pawn moves one square straight forward (two from its starting rank) and captures one square diagonally forward".to_owned(),
            Kind::Knight => "a knight moves two squares one way and one square the other".to_owned(),
            Kind::Bishop => "a bishop moves diagonally".to_owned(),
            Kind::Rook => "a rook moves along a rank or a file".to_owned(),
            Kind::Queen => "a queen moves along a rank, a file or a diagonal".to_owned(),
            Kind::King => "a king moves one square (castling: two squares toward a rook with the right)".to_owned(),
        }
    }

    fn cost_breakdown(&self, m: Move) -> String {
        if m.flag == Flag::Castle {
            return format!(
                "castling {}",
                if position::file_of(m.to) == 6 {
                    "king side"
                } else {
                    "queen side"
                }
            );
        }
        let (_, kind) = self.piece_at(m.from).expect("a piece");
        let mut parts = vec![format!("travel {}", position::travel(kind, m.from, m.to))];
        let removed = match m.flag {
            Flag::EnPassant => Some(if self.side == Color::White {
                m.to - 8
            } else {
                m.to + 8
            }),
            _ => self.piece_at(m.to).map(|_| m.to),
        };
        if let Some(s) = removed {
            parts.push(format!("removal from {} {}", sq_name(s), removal(s)));
        }
        if m.promo.is_some() {
            parts.push("promotion 2".to_owned());
        }
        parts.join(" + ")
    }

    /// Whether neither side can ever mate: no pawns, rooks or queens, and at
    /// most one minor piece in all, or only bishops all on one colour of square.
    /// The same position with the other side to move and no en-passant
    /// square (a pass, for the search's null-move pruning).
    pub fn null_move(&self) -> Position {
        let mut p = *self;
        p.side = !p.side;
        p.ep = position::NO_SQ;
        p
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The squares of `c`'s pieces of `kind`.
    pub fn bitboard(&self, c: Color, kind: Kind) -> u64 {
        self.by_kind[kind as usize] & self.by_color[c.index()]
    }

    pub fn is_dead_position(&self) -> bool {
        let heavy = self.by_kind[Kind::Pawn as usize]
            | self.by_kind[Kind::Rook as usize]
            | self.by_kind[Kind::Queen as usize];
        if heavy != 0 {
            return false;
        }
        let knights = self.by_kind[Kind::Knight as usize];
        let bishops = self.by_kind[Kind::Bishop as usize];
        if (knights | bishops).count_ones() <= 1 {
            return true;
        }
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        knights == 0 && (bishops & DARK == 0 || bishops & !DARK == 0)
    }

    /// Whether some move would be legal but for its price.
    fn priced_out(&self) -> bool {
        let mut rich = *self;
        rich.balance[self.side.index()] = MAX_BALANCE;
        let mut legal = Vec::new();
        rich.legal(&mut legal);
        !legal.is_empty()
    }
}

impl Variant for Position {
    type Move = Move;
    type Undo = Position;
    type Rules = Rules;
    type Notation = Notation;

    const ID: VariantId = VariantId::Taxi;
    const SIDES: [&'static str; 2] = ["white", "black"];

    fn info() -> VariantInfo {
        VariantInfo {
            id: VariantId::Taxi,
            name: "Taxi chess",
            description: "FIDE chess where every step costs money (Ralph Betza, 1996): moves cost travel, removal of captured pieces and promotion; a move you cannot pay for is illegal, and check means a threat the opponent can afford.",
            files: 8,
            ranks: 8,
            start_fen: START_FEN,
            sides: Self::SIDES,
            notations: vec![
                NotationInfo { name: NotationName::Uci, aliases: &[], description: "UCI coordinates, promotion as a fifth letter, castling as the king's move (default)", example: "e2e4" },
                NotationInfo { name: NotationName::San, aliases: &[], description: "Standard algebraic notation", example: "Nf3" },
            ],
        }
    }

    fn check_rules(rules: &Rules) -> Result<(), RulesError> {
        if rules.start_money > MAX_BALANCE {
            return Err(RulesError {
                option: "start_money",
                message: format!(
                    "{} is more than the largest balance, {MAX_BALANCE}",
                    rules.start_money
                ),
            });
        }
        if rules.income > 1_000_000 {
            return Err(RulesError {
                option: "income",
                message: format!("{} is more than the largest income, 1000000", rules.income),
            });
        }
        Ok(())
    }

    fn notation(name: NotationName) -> Option<Notation> {
        match name {
            NotationName::Uci => Some(Notation::Uci),
            NotationName::San => Some(Notation::San),
            _ => None,
        }
    }

    fn start_position(rules: &Rules) -> Position {
        // The six FIDE fields; the balances are the rules' `start_money`.
        let chess_fields = START_FEN.rsplit_once(' ').expect("seven fields").0;
        fen::parse(chess_fields, rules.start_money, rules.income)
            .expect("the start FEN is valid")
            .0
    }

    fn from_fen(text: &str, rules: &Rules) -> Result<Position, FenError> {
        fen::parse(text, rules.start_money, rules.income).map(|(p, _)| p)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn hash_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.repetition_key().hash(&mut h);
        h.finish()
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal(out)
    }

    fn count_legal_moves(&self, _scratch: &mut Vec<Move>) -> usize {
        self.count_legal()
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Position {
        let undo = *self;
        self.make(mv);
        undo
    }

    #[inline]
    fn unmake_move(&mut self, _mv: Move, undo: Position) {
        *self = undo;
    }

    fn parse_move(&self, text: &str, notation: Notation) -> Result<Move, MoveError> {
        match notation {
            Notation::Uci => self.check_uci(text),
            Notation::San => {
                let clean = |s: &str| -> String {
                    s.trim()
                        .trim_end_matches(['+', '#', '!', '?'])
                        .replace('0', "O")
                };
                let wanted = clean(text);
                if wanted.is_empty() || wanted.len() > 8 {
                    return Err(MoveError::new(
                        Refusal::BadNotation,
                        format!("'{text}' is not a SAN move like 'Nf3'"),
                    ));
                }
                let mut legal = Vec::new();
                self.legal(&mut legal);
                legal
                    .iter()
                    .copied()
                    .find(|&m| clean(&self.san_among(m, &legal)) == wanted)
                    .ok_or_else(|| {
                        MoveError::new(
                            Refusal::NoSuchMove,
                            format!(
                                "no legal move of {} is written '{text}' in SAN",
                                color_name(self.side)
                            ),
                        )
                    })
            }
        }
    }

    fn describe_move(&self, mv: Move, notation: Notation) -> MoveNotations {
        let san = self.san(mv);
        MoveNotations {
            wire: match notation {
                Notation::Uci => Position::uci(mv),
                Notation::San => san.clone(),
            },
            others: vec![("uci", Position::uci(mv)), ("san", san.clone())],
            capture: self.piece_at(mv.to).is_some() || mv.flag == Flag::EnPassant,
            gives_check: san.ends_with(['+', '#']),
            cost: Some(mv.cost),
        }
    }

    fn move_to_string(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Uci => Position::uci(mv),
            Notation::San => self.san(mv),
        }
    }

    fn balances(&self) -> Option<[u32; 2]> {
        Some(self.balance)
    }

    fn setup(
        fen: Option<&str>,
        rules: &Rules,
        balances: Option<[u32; 2]>,
    ) -> Result<Position, SetupError> {
        let text = fen.unwrap_or_else(|| START_FEN.rsplit_once(' ').expect("seven fields").0);
        fen::parse_with(text, rules.start_money, rules.income, balances)
    }

    fn claimable_draws(game: &Game<Position>) -> Vec<(Reason, String)> {
        let pos = game.current();
        let mut out = Vec::new();
        let count = repetitions(game);
        if count >= 3 {
            out.push((
                Reason::ThreefoldRepetition,
                format!("the position (with both balances) has stood {count} times"),
            ));
        }
        if pos.halfmove >= 100 {
            out.push((
                Reason::FiftyMoves,
                format!("{} plies without a capture or a pawn move", pos.halfmove),
            ));
        }
        out
    }

    fn adjudicate(game: &Game<Position>, has_legal_move: bool) -> Outcome {
        let pos = game.current();
        let us = pos.side;
        if !has_legal_move {
            if pos.in_check() {
                let (reason, how) = if pos.priced_out() {
                    (
                        Reason::Bankruptcy,
                        "is in check and cannot afford any move out of it (mate by bankruptcy)",
                    )
                } else {
                    (Reason::Checkmate, "is checkmated")
                };
                return Outcome::Decisive {
                    winner: !us,
                    reason,
                    explanation: format!("{} {how}: {} wins", color_name(us), color_name(!us)),
                    repetition: None,
                };
            }
            let poverty = if pos.priced_out() {
                " because it cannot afford any move (stalemate by poverty)"
            } else {
                ""
            };
            return Outcome::Drawn {
                reason: Reason::Stalemate,
                explanation: format!(
                    "{} is not in check and has no legal move{poverty}: stalemate is a draw",
                    color_name(us)
                ),
                repetition: None,
            };
        }
        let count = repetitions(game);
        if count >= 5 {
            return Outcome::Drawn {
                reason: Reason::FivefoldRepetition,
                explanation: format!("the position (with both balances) has stood {count} times: drawn automatically"),
                repetition: None,
            };
        }
        if pos.halfmove >= 150 {
            return Outcome::Drawn {
                reason: Reason::SeventyFiveMoves,
                explanation: format!(
                    "{} plies without a capture or a pawn move: drawn automatically",
                    pos.halfmove
                ),
                repetition: None,
            };
        }
        if pos.is_dead_position() {
            return Outcome::Drawn {
                reason: Reason::InsufficientMaterial,
                explanation: "neither side has the material to mate (a dead position)".to_owned(),
                repetition: None,
            };
        }
        Outcome::Ongoing
    }
}

/// How many times the current position has stood in the game (itself included).
fn repetitions(game: &Game<Position>) -> usize {
    let positions = game.positions();
    let current = positions.last().expect("a game has a position");
    // Positions before the last capture or pawn move cannot repeat.
    let earliest = positions
        .len()
        .saturating_sub(current.halfmove as usize + 1);
    let key = current.repetition_key();
    positions[earliest..]
        .iter()
        .filter(|p| {
            p.side == current.side && p.by_color == current.by_color && p.repetition_key() == key
        })
        .count()
}
