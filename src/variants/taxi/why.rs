//! Why a move is illegal, in the game's own terms: asked only once the move
//! was not found among the legal moves.

use super::board::{file_of, rank_of, removal, travel, Flag, Kind, Move, Sq};
use super::notation::San;
use super::position::Position;
use crate::variants::{Color, Refusal};

/// What a move costs, part by part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// Castling, king side or queen side, at the price of the king's step.
    Castle {
        /// Whether king side.
        king_side: bool,
    },
    /// Travel, the removal of a captured piece, a promotion.
    Parts {
        /// Squares travelled (a knight's hop counts its path).
        travel: u32,
        /// The captured piece's square and its removal price.
        removal: Option<(Sq, u32)>,
        /// Whether a promotion is paid for (2).
        promotion: bool,
    },
}

/// Why a Taxi chess move is refused; the API puts it in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// No piece on the first square.
    NoPiece {
        /// The square.
        at: Sq,
    },
    /// The piece on the first square is the other side's.
    NotYourPiece {
        /// The square.
        at: Sq,
    },
    /// The move stays on its square.
    NullMove,
    /// The destination holds one of the mover's pieces.
    OwnPiece {
        /// The square.
        at: Sq,
        /// The piece there.
        kind: Kind,
    },
    /// A pawn reaching the last rank names no promotion.
    PromotionRequired {
        /// From.
        from: Sq,
        /// To.
        to: Sq,
    },
    /// A promotion where none is possible.
    BadPromotion,
    /// Castling without the right, or with the way not clear.
    CastlingNotAllowed,
    /// A line piece's path is blocked.
    PathBlocked {
        /// The piece.
        kind: Kind,
        /// The first square in the way.
        at: Sq,
    },
    /// A pawn stepping onto an occupied square.
    PawnBlocked {
        /// The square.
        at: Sq,
    },
    /// A pawn's double step from elsewhere or over a piece.
    PawnDoubleStep,
    /// A pawn moving diagonally to an empty square.
    PawnNoCapture {
        /// The square.
        at: Sq,
    },
    /// The piece does not move that way.
    Shape {
        /// The piece.
        kind: Kind,
    },
    /// The mover cannot pay for the move.
    InsufficientFunds {
        /// The price.
        cost: u32,
        /// Its parts.
        parts: Cost,
        /// What the mover may spend: balance plus income.
        budget: u32,
        /// The balance.
        balance: u32,
        /// The income.
        income: u32,
    },
    /// Castling out of or through a threatened square.
    CastlingThroughThreat {
        /// The square.
        at: Sq,
    },
    /// The move leaves the king in check: an affordable threat.
    SelfCheck {
        /// Whether the king itself moves (to a threatened square).
        king_moves: bool,
        /// Where the moving piece goes.
        to: Sq,
        /// The threatening piece's square and kind.
        by: (Sq, Kind),
        /// What its side may spend then.
        budget: u32,
    },
    /// No legal move is written that way (SAN input).
    NoSuchMove,
    /// Illegal for a reason none of the others names.
    Illegal,
}

impl crate::variants::Why for Why {
    fn code(&self) -> Refusal {
        match self {
            Why::NoPiece { .. } => Refusal::NoPiece,
            Why::NotYourPiece { .. } => Refusal::NotYourPiece,
            Why::NullMove => Refusal::NullMove,
            Why::OwnPiece { .. } => Refusal::OwnPiece,
            Why::PromotionRequired { .. } => Refusal::PromotionRequired,
            Why::BadPromotion => Refusal::BadPromotion,
            Why::CastlingNotAllowed => Refusal::CastlingNotAllowed,
            Why::PathBlocked { .. }
            | Why::PawnBlocked { .. }
            | Why::PawnDoubleStep
            | Why::PawnNoCapture { .. }
            | Why::Shape { .. } => Refusal::BadGeometry,
            Why::InsufficientFunds { .. } => Refusal::InsufficientFunds,
            Why::CastlingThroughThreat { .. } => Refusal::CastlingThroughThreat,
            Why::SelfCheck { .. } => Refusal::SelfCheck,
            Why::NoSuchMove => Refusal::NoSuchMove,
            Why::Illegal => Refusal::Illegal,
        }
    }
}

impl Position {
    /// Why the move `from`-`to` (with `promo`), not a legal move here, is
    /// refused: the piece, the promotion, the movement, the price, then the
    /// king's safety.
    pub fn why(&self, from: Sq, to: Sq, promo: Option<Kind>) -> Why {
        let us = self.side();
        let Some((color, kind)) = self.piece_at(from) else {
            return Why::NoPiece { at: from };
        };
        if color != us {
            return Why::NotYourPiece { at: from };
        }
        if from == to {
            return Why::NullMove;
        }
        if let Some((c, k)) = self.piece_at(to) {
            if c == us {
                return Why::OwnPiece { at: to, kind: k };
            }
        }
        let last_rank = if us == Color::White { 7 } else { 0 };
        if kind == Kind::Pawn && rank_of(to) == last_rank && promo.is_none() {
            return Why::PromotionRequired { from, to };
        }
        if promo.is_some() && (kind != Kind::Pawn || rank_of(to) != last_rank) {
            return Why::BadPromotion;
        }
        let mut movement = Vec::new();
        self.movement_moves(&mut movement);
        let Some(&m) = movement
            .iter()
            .find(|m| m.from == from && m.to == to && m.promo == promo)
        else {
            if kind == Kind::King && file_of(from) == 4 && from.abs_diff(to) == 2 {
                return Why::CastlingNotAllowed;
            }
            return self.geometry(kind, from, to);
        };
        let budget = self.budget(us);
        if m.cost > budget {
            return Why::InsufficientFunds {
                cost: m.cost,
                parts: self.cost_parts(m),
                budget,
                balance: self.balances()[us.index()],
                income: self.income(),
            };
        }
        let them = !us;
        let mut after = *self;
        after.make(m);
        let k = after.king(us);
        let occ = after.occupied();
        let threats = after.threats_to(k, them, occ);
        if threats != 0 {
            let x = threats.trailing_zeros() as Sq;
            let (_, xk) = after.piece_at(x).expect("a threatening piece");
            return Why::SelfCheck {
                king_moves: kind == Kind::King,
                to,
                by: (x, xk),
                budget: after.budget(them),
            };
        }
        if m.flag == Flag::Castle {
            let occ = self.occupied();
            let transit = (m.from + m.to) / 2;
            if let Some(at) = [m.from, transit]
                .into_iter()
                .find(|&s| self.threats_to(s, them, occ) != 0)
            {
                return Why::CastlingThroughThreat { at };
            }
        }
        Why::Illegal
    }

    /// Why a SAN move that names no legal move is refused: the move it
    /// means (the one piece of its kind that could go there by its
    /// movement, or failing that by its shape on an empty board) refused as
    /// its coordinates would be; `NoSuchMove` when it means none or several.
    pub fn why_san(&self, san: &San) -> Why {
        let mut movement = Vec::new();
        self.movement_moves(&mut movement);
        let mut meant = movement.iter().filter(|&&m| san.names(self, m));
        if let (Some(m), None) = (meant.next(), meant.next()) {
            return self.why(m.from, m.to, m.promo);
        }
        let San::Normal {
            kind,
            file,
            rank,
            to,
            promo,
        } = *san
        else {
            return Why::CastlingNotAllowed;
        };
        let us = self.side();
        let ahead: i32 = if us == Color::White { 1 } else { -1 };
        // The square a pawn pushed to `to` comes from: the nearest pawn
        // behind it (SAN names no file for a push).
        let pushed_from = {
            let (f, r) = (file_of(to) as i32, rank_of(to) as i32);
            let one = (r - ahead, f);
            let pawn_on = |(r, f): (i32, i32)| {
                (0..8).contains(&r) && self.piece_at((r * 8 + f) as Sq) == Some((us, Kind::Pawn))
            };
            [one, (r - 2 * ahead, f)].into_iter().find(|&s| pawn_on(s))
        };
        let mut candidates = Vec::new();
        let mut bb = self.pieces(us, kind);
        while bb != 0 {
            let from = bb.trailing_zeros() as Sq;
            bb &= bb - 1;
            if file.is_some_and(|f| f != file_of(from)) || rank.is_some_and(|r| r != rank_of(from))
            {
                continue;
            }
            let df = file_of(to).abs_diff(file_of(from));
            let dr = rank_of(to).abs_diff(rank_of(from));
            let shape = match kind {
                Kind::Knight => (df, dr) == (1, 2) || (df, dr) == (2, 1),
                Kind::King => df.max(dr) == 1,
                Kind::Rook => (df == 0) != (dr == 0),
                Kind::Bishop => df == dr && df > 0,
                Kind::Queen => ((df == 0) != (dr == 0)) || (df == dr && df > 0),
                // A capture names the file it comes from.
                Kind::Pawn if file.is_some() => {
                    df == 1 && rank_of(to) as i32 - rank_of(from) as i32 == ahead
                }
                Kind::Pawn => pushed_from == Some((rank_of(from) as i32, file_of(from) as i32)),
            };
            if shape {
                candidates.push(from);
            }
        }
        match candidates[..] {
            [from] => self.why(from, to, promo),
            _ => Why::NoSuchMove,
        }
    }

    /// Why a piece cannot go from `from` to `to` by its movement.
    fn geometry(&self, kind: Kind, from: Sq, to: Sq) -> Why {
        let (df, dr) = (
            file_of(to) as i32 - file_of(from) as i32,
            rank_of(to) as i32 - rank_of(from) as i32,
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
            let step = df.signum() + 8 * dr.signum();
            let mut s = from as i32 + step;
            while s != to as i32 {
                if self.piece_at(s as Sq).is_some() {
                    return Why::PathBlocked { kind, at: s as Sq };
                }
                s += step;
            }
        }
        let forward = if self.side() == Color::White { 1 } else { -1 };
        match kind {
            Kind::Pawn if df == 0 && dr == forward => Why::PawnBlocked { at: to },
            Kind::Pawn if df == 0 && dr == 2 * forward => Why::PawnDoubleStep,
            Kind::Pawn if df.abs() == 1 && dr == forward => Why::PawnNoCapture { at: to },
            _ => Why::Shape { kind },
        }
    }

    /// The parts of a move's price.
    pub fn cost_parts(&self, m: Move) -> Cost {
        if m.flag == Flag::Castle {
            return Cost::Castle {
                king_side: file_of(m.to) == 6,
            };
        }
        let (_, kind) = self.piece_at(m.from).expect("a piece");
        let removed = match m.flag {
            Flag::EnPassant => Some(if self.side() == Color::White {
                m.to - 8
            } else {
                m.to + 8
            }),
            _ => self.piece_at(m.to).map(|_| m.to),
        };
        Cost::Parts {
            travel: travel(kind, m.from, m.to),
            removal: removed.map(|s| (s, removal(s))),
            promotion: m.promo.is_some(),
        }
    }
}
