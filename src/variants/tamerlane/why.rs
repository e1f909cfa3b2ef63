//! Why a move is illegal, in the game's own terms: asked only once the move
//! was not found among the legal moves.

use super::board::*;
use super::position::{last_rank, Move, Position, Special};
use crate::variants::{Color, Refusal};

/// Why a piece cannot go there by its movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// It does not move that way at all.
    Shape,
    /// The giraffe's first, diagonal square is occupied.
    GiraffeDiagonal {
        /// The square.
        at: Sq,
    },
    /// A talia's move shorter than two squares.
    TaliaTooShort,
    /// A rider's path is blocked.
    Blocked {
        /// The first square in the way.
        at: Sq,
    },
    /// The shape and path are right, and it still cannot land there.
    CannotLand,
}

/// Why a Tamerlane chess move is refused; the API puts it in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The game is drawn: a royal stands in the enemy citadel.
    CitadelDraw,
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
    /// Only a dormant pawn of pawns is relocated.
    RelocateNotDormant,
    /// A relocation into a citadel.
    RelocateIntoCitadel,
    /// A relocation onto its own square.
    RelocateNowhere,
    /// A relocation onto a royal.
    RelocateOntoRoyal {
        /// The square.
        at: Sq,
        /// The royal's code.
        piece: u8,
    },
    /// A relocation onto the enemy's dormant pawn of pawns.
    RelocateOntoDormant,
    /// The relocation's square forks nothing and attacks no stuck piece.
    RelocateNoPurpose {
        /// The square.
        to: Sq,
    },
    /// Only the shah exchanges.
    ExchangeNotShah,
    /// The exchange right is used up.
    ExchangeUsed,
    /// The citadel exchange's step is not into the empty enemy citadel.
    CitadelExchangeStep,
    /// The citadel exchange's partner is not a prince or adventitious king.
    CitadelExchangePartner,
    /// The enemy citadel is occupied.
    CitadelExchangeOccupied,
    /// The exchange's partner is not a friendly non-royal piece.
    ExchangePartner,
    /// A dormant pawn of pawns cannot be exchanged.
    ExchangeDormant,
    /// The exchange is allowed only in check with a lone shah, or without
    /// another legal move.
    ExchangeNotAllowed,
    /// The exchange would put a pawn on its last rank.
    ExchangePawnLastRank,
    /// After the exchange the shah would be attacked.
    ExchangeSelfCheck {
        /// The shah's new square.
        at: Sq,
    },
    /// A dormant pawn of pawns cannot move.
    Dormant,
    /// Only a royal enters a citadel.
    CitadelNotRoyal,
    /// A citadel is entered from its three neighbouring squares only.
    CitadelNotFromGate {
        /// The citadel.
        citadel: Sq,
    },
    /// The citadel is occupied.
    CitadelOccupied {
        /// The citadel.
        citadel: Sq,
    },
    /// Only the adventitious king enters its own citadel.
    OwnCitadel,
    /// Only the highest-ranking royal enters the enemy citadel.
    CitadelNotHighest,
    /// The destination holds one of the mover's pieces.
    OwnPiece {
        /// The square.
        at: Sq,
        /// The piece's code.
        piece: u8,
    },
    /// A dormant pawn of pawns cannot be captured.
    Immune,
    /// The piece does not move that way.
    Geometry {
        /// The piece's kind.
        kind: u8,
        /// Why not.
        why: Geometry,
    },
    /// The second arrival's square holds a royal.
    SecondArrivalBarred {
        /// The square.
        home: Sq,
    },
    /// The move leaves the mover's only royal attacked.
    SelfCheck {
        /// The royal's square after the move.
        royal: Sq,
        /// Its kind.
        kind: u8,
        /// An attacker: its square and code.
        by: Option<(Sq, u8)>,
    },
    /// Illegal for a reason none of the others names.
    Illegal {
        /// The piece's kind.
        kind: u8,
    },
}

impl crate::variants::Why for Why {
    fn code(&self) -> Refusal {
        match self {
            Why::CitadelDraw => Refusal::GameOver,
            Why::NoPiece { .. } => Refusal::NoPiece,
            Why::NotYourPiece { .. } => Refusal::NotYourPiece,
            Why::NullMove => Refusal::NullMove,
            Why::RelocateNotDormant
            | Why::RelocateIntoCitadel
            | Why::RelocateNowhere
            | Why::RelocateOntoRoyal { .. }
            | Why::RelocateOntoDormant
            | Why::RelocateNoPurpose { .. } => Refusal::BadRelocation,
            Why::ExchangeNotShah
            | Why::CitadelExchangeStep
            | Why::CitadelExchangePartner
            | Why::CitadelExchangeOccupied
            | Why::ExchangePartner
            | Why::ExchangeDormant
            | Why::ExchangePawnLastRank => Refusal::BadExchange,
            Why::ExchangeUsed => Refusal::ExchangeUsed,
            Why::ExchangeNotAllowed => Refusal::ExchangeNotAllowed,
            Why::ExchangeSelfCheck { .. } | Why::SelfCheck { .. } => Refusal::SelfCheck,
            Why::Dormant => Refusal::Dormant,
            Why::CitadelNotRoyal
            | Why::CitadelNotFromGate { .. }
            | Why::CitadelOccupied { .. }
            | Why::OwnCitadel
            | Why::CitadelNotHighest => Refusal::Citadel,
            Why::OwnPiece { .. } => Refusal::OwnPiece,
            Why::Immune => Refusal::Immune,
            Why::Geometry { .. } => Refusal::BadGeometry,
            Why::SecondArrivalBarred { .. } => Refusal::SecondArrivalBarred,
            Why::Illegal { .. } => Refusal::Illegal,
        }
    }
}

impl Position {
    /// Why `m` (read from the wire, not legal here) is refused.
    pub fn why(&self, m: Move) -> Why {
        let us = self.side();
        if self.citadel_draw().is_some() {
            return Why::CitadelDraw;
        }
        let p = self.at(m.from);
        if p == EMPTY {
            return Why::NoPiece { at: m.from };
        }
        if color_of(p) != us {
            return Why::NotYourPiece { at: m.from };
        }
        let kind = kind_of(p);
        match m.special {
            Special::Relocate => return self.why_relocation(m),
            Special::Exchange | Special::CitadelExchange(_) => return self.why_exchange(m, kind),
            Special::None => {}
        }
        if self.dormant(m.from) {
            return Why::Dormant;
        }
        if m.from == m.to {
            return Why::NullMove;
        }
        let q = self.at(m.to);
        if is_citadel(m.to) {
            if !is_royal(kind) {
                return Why::CitadelNotRoyal;
            }
            if !gates(m.to).contains(&m.from) {
                return Why::CitadelNotFromGate { citadel: m.to };
            }
            if q != EMPTY {
                return Why::CitadelOccupied { citadel: m.to };
            }
            if m.to == own_citadel(us) {
                return Why::OwnCitadel;
            }
            if !self.may_enter(us, kind, m.to) {
                return Why::CitadelNotHighest;
            }
        } else if q != EMPTY && color_of(q) == us {
            return Why::OwnPiece { at: m.to, piece: q };
        } else if q != EMPTY && self.dormant(m.to) {
            return Why::Immune;
        }
        let mut targets = Vec::new();
        self.targets(m.from, &mut targets);
        if !targets.contains(&m.to) {
            return Why::Geometry {
                kind,
                why: self.geometry(kind, m.from, m.to),
            };
        }
        if kind == PAWN_OF_PAWNS
            && self.arrivals[us.index()] == 1
            && !is_citadel(m.to)
            && coords(m.to).1 == last_rank(us)
        {
            return Why::SecondArrivalBarred {
                home: self.second_arrival[us.index()],
            };
        }
        let mut after = *self;
        after.play(m);
        if let Some(royal) = after.single_royal(us) {
            return Why::SelfCheck {
                royal,
                kind: kind_of(after.at(royal)),
                by: after.lone_attacker(royal, !us),
            };
        }
        Why::Illegal { kind }
    }

    /// A piece of `them` that attacks `royal` on its own.
    fn lone_attacker(&self, royal: Sq, them: Color) -> Option<(Sq, u8)> {
        (0..SQUARES as Sq)
            .filter(|&a| {
                let x = self.at(a);
                x != EMPTY && color_of(x) == them
            })
            .find(|&a| {
                let mut only = *self;
                for s in 0..SQUARES as Sq {
                    if s != a && s != royal {
                        let x = only.at(s);
                        if x != EMPTY && color_of(x) == them {
                            only.board[s as usize] = EMPTY;
                        }
                    }
                }
                only.attacked(royal, them)
            })
            .map(|a| (a, self.at(a)))
    }

    fn why_relocation(&self, m: Move) -> Why {
        let us = self.side();
        if !self.dormant(m.from) {
            return Why::RelocateNotDormant;
        }
        if is_citadel(m.to) {
            return Why::RelocateIntoCitadel;
        }
        if m.to == m.from {
            return Why::RelocateNowhere;
        }
        let q = self.at(m.to);
        if q != EMPTY && is_royal(kind_of(q)) {
            return Why::RelocateOntoRoyal { at: m.to, piece: q };
        }
        if q != EMPTY && color_of(q) != us && self.dormant(m.to) {
            return Why::RelocateOntoDormant;
        }
        Why::RelocateNoPurpose { to: m.to }
    }

    fn why_exchange(&self, m: Move, kind: u8) -> Why {
        let us = self.side();
        if kind != SHAH {
            return Why::ExchangeNotShah;
        }
        if !self.exchange[us.index()] {
            return Why::ExchangeUsed;
        }
        if let Special::CitadelExchange(partner) = m.special {
            let q = self.at(partner);
            if m.to != own_citadel(!us) || !gates(m.to).contains(&m.from) {
                return Why::CitadelExchangeStep;
            }
            if q == EMPTY
                || color_of(q) != us
                || !matches!(kind_of(q), PRINCE | ADVENTITIOUS)
                || is_citadel(partner)
            {
                return Why::CitadelExchangePartner;
            }
            return Why::CitadelExchangeOccupied;
        }
        let q = self.at(m.to);
        if q == EMPTY || color_of(q) != us || is_royal(kind_of(q)) {
            return Why::ExchangePartner;
        }
        if self.dormant(m.to) {
            return Why::ExchangeDormant;
        }
        let attacked = self.single_royal(us) == Some(m.from) && self.attacked(m.from, !us);
        if !attacked {
            return Why::ExchangeNotAllowed;
        }
        if is_pawn(kind_of(q)) && coords(m.from).1 == last_rank(us) {
            return Why::ExchangePawnLastRank;
        }
        Why::ExchangeSelfCheck { at: m.to }
    }

    /// The movement rule a piece broke.
    fn geometry(&self, kind: u8, from: Sq, to: Sq) -> Geometry {
        let (f, r) = coords(from);
        let (tf, tr) = coords(to);
        let (dx, dy) = (tf - f, tr - r);
        let blocked_at = |sx: i32, sy: i32, n: i32| -> Option<Sq> {
            (1..n)
                .map(|k| sq(f + sx * k, r + sy * k))
                .find_map(|s| s.filter(|&s| self.at(s) != EMPTY))
        };
        let path = |blocked: Option<Sq>| match blocked {
            Some(at) => Geometry::Blocked { at },
            None => Geometry::CannotLand,
        };
        match kind {
            GIRAFFE => {
                let shape = (dx.abs() == 1 && dy.abs() >= 4) || (dy.abs() == 1 && dx.abs() >= 4);
                if !shape {
                    return Geometry::Shape;
                }
                let diag = sq(f + dx.signum(), r + dy.signum()).expect("on the board");
                if self.at(diag) != EMPTY {
                    return Geometry::GiraffeDiagonal { at: diag };
                }
                let (ox, oy) = if dx.abs() == 1 {
                    (0, dy.signum())
                } else {
                    (dx.signum(), 0)
                };
                let steps = dx.abs().max(dy.abs()) - 1;
                let (df, dr) = coords(diag);
                path(
                    (1..steps)
                        .map(|k| sq(df + ox * k, dr + oy * k))
                        .find_map(|s| s.filter(|&s| self.at(s) != EMPTY)),
                )
            }
            TALIA => {
                if dx.abs() != dy.abs() {
                    Geometry::Shape
                } else if dx.abs() < 2 {
                    Geometry::TaliaTooShort
                } else {
                    path(blocked_at(dx.signum(), dy.signum(), dx.abs()))
                }
            }
            RUKH => {
                if dx != 0 && dy != 0 {
                    Geometry::Shape
                } else {
                    path(blocked_at(dx.signum(), dy.signum(), dx.abs().max(dy.abs())))
                }
            }
            _ => Geometry::Shape,
        }
    }
}
