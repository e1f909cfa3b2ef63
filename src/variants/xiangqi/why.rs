//! Why a move is illegal, in the game's own terms: asked only once the move
//! was not found among the legal moves.

use super::board::*;
use super::position::{Move, Position};
use crate::variants::{Color, Refusal};

/// Why a Xiangqi move is refused; the API puts it in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// No piece on the first point.
    NoPiece {
        /// The point.
        at: Sq,
    },
    /// The piece on the first point is the other side's.
    NotYourPiece {
        /// The point.
        at: Sq,
    },
    /// The move stays on its point.
    NullMove,
    /// The destination holds one of the mover's pieces.
    OwnPiece {
        /// The point.
        at: Sq,
        /// The piece there.
        kind: Kind,
    },
    /// The piece does not move that way.
    Shape {
        /// The piece.
        kind: Kind,
    },
    /// A soldier moving backward.
    Backward,
    /// A general or advisor leaving its palace.
    LeavesPalace {
        /// The piece.
        kind: Kind,
        /// Where it would go.
        to: Sq,
    },
    /// An elephant crossing the river.
    CrossesRiver,
    /// The elephant's eye is blocked.
    EyeBlocked {
        /// The eye.
        at: Sq,
    },
    /// The horse's leg is blocked.
    LegBlocked {
        /// The leg.
        at: Sq,
    },
    /// A chariot's or cannon's path is blocked.
    PathBlocked {
        /// The piece.
        kind: Kind,
        /// The first point in the way.
        at: Sq,
    },
    /// A cannon capture without exactly one screen.
    CannonScreens {
        /// From.
        from: Sq,
        /// To.
        to: Sq,
        /// How many pieces stand between.
        screens: u8,
    },
    /// A soldier moving sideways before it has crossed the river.
    NotCrossed,
    /// The generals would face each other on an open file.
    FlyingGeneral {
        /// The file, 0 (`a`) to 8 (`i`).
        file: u8,
    },
    /// The move leaves the mover's general attacked.
    SelfCheck {
        /// The piece moved.
        kind: Kind,
        /// Where it goes (for a general: the attacked point).
        to: Sq,
        /// Whether the mover was in check already.
        was_in_check: bool,
        /// An attacker of the general after the move: its point and kind.
        by: Option<(Sq, Kind)>,
    },
    /// WXF or Chinese input naming a piece the mover does not have on
    /// that file.
    NotOnFile {
        /// The piece named.
        kind: Kind,
        /// The file named, 1-9 from the mover's right.
        file: u8,
    },
    /// No legal move is written that way (WXF or Chinese input).
    NoSuchMove,
    /// A piece named by its file where two of its kind stand (`车６退１`
    /// without 前 or 后), and both can make the move: the two readings.
    Ambiguous {
        /// The front piece's move (the one more advanced).
        first: Move,
        /// The other's.
        second: Move,
    },
}

impl crate::variants::Why for Why {
    fn code(&self) -> Refusal {
        match self {
            Why::NoPiece { .. } | Why::NotOnFile { .. } => Refusal::NoPiece,
            Why::NotYourPiece { .. } => Refusal::NotYourPiece,
            Why::NullMove => Refusal::NullMove,
            Why::OwnPiece { .. } => Refusal::OwnPiece,
            Why::Shape { .. } | Why::Backward => Refusal::BadGeometry,
            Why::LeavesPalace { .. } => Refusal::LeavesPalace,
            Why::CrossesRiver => Refusal::CrossesRiver,
            Why::EyeBlocked { .. } | Why::LegBlocked { .. } | Why::PathBlocked { .. } => {
                Refusal::Blocked
            }
            Why::CannonScreens { .. } => Refusal::CannonScreen,
            Why::NotCrossed => Refusal::NotCrossed,
            Why::FlyingGeneral { .. } => Refusal::FlyingGeneral,
            Why::SelfCheck { .. } => Refusal::SelfCheck,
            Why::NoSuchMove => Refusal::NoSuchMove,
            Why::Ambiguous { .. } => Refusal::Ambiguous,
        }
    }
}

/// Points strictly between two points on one line.
pub(super) fn between(from: Sq, to: Sq) -> impl Iterator<Item = Sq> {
    let (ff, fr) = (file_of(from) as i32, rank_of(from) as i32);
    let (tf, tr) = (file_of(to) as i32, rank_of(to) as i32);
    let (df, dr) = ((tf - ff).signum(), (tr - fr).signum());
    let steps = (tf - ff).abs().max((tr - fr).abs());
    (1..steps).map(move |k| sq((ff + df * k) as usize, (fr + dr * k) as usize))
}

/// Why the move `from`-`to` (not a legal move here) is refused: the piece's
/// movement rule first, then the general's safety.
pub fn why(pos: &Position, from: Sq, to: Sq) -> Why {
    let us = pos.side();
    let p = pos.piece_at(from);
    let Some(kind) = kind_of(p) else {
        return Why::NoPiece { at: from };
    };
    if color_of(p) != us {
        return Why::NotYourPiece { at: from };
    }
    if from == to {
        return Why::NullMove;
    }
    let target = pos.piece_at(to);
    if let Some(k) = kind_of(target).filter(|_| color_of(target) == us) {
        return Why::OwnPiece { at: to, kind: k };
    }
    let (df, dr) = (
        file_of(to).abs_diff(file_of(from)),
        rank_of(to).abs_diff(rank_of(from)),
    );
    let shape = Why::Shape { kind };
    match kind {
        Kind::General | Kind::Advisor => {
            let ok = if kind == Kind::General {
                df + dr == 1
            } else {
                df == 1 && dr == 1
            };
            if !ok {
                return shape;
            }
            if !in_palace(to, us) {
                return Why::LeavesPalace { kind, to };
            }
        }
        Kind::Elephant => {
            if df != 2 || dr != 2 {
                return shape;
            }
            if !own_side(to, us) {
                return Why::CrossesRiver;
            }
            let eye = sq(
                (file_of(from) + file_of(to)) / 2,
                (rank_of(from) + rank_of(to)) / 2,
            );
            if pos.piece_at(eye) != EMPTY {
                return Why::EyeBlocked { at: eye };
            }
        }
        Kind::Horse => {
            if !((df == 1 && dr == 2) || (df == 2 && dr == 1)) {
                return shape;
            }
            let t = &HORSE_MOVES[from as usize];
            let leg = (0..t.count as usize)
                .find(|&i| t.to[i] == to)
                .map(|i| t.via[i])
                .expect("a horse-shaped move is in the table");
            if pos.piece_at(leg) != EMPTY {
                return Why::LegBlocked { at: leg };
            }
        }
        Kind::Chariot | Kind::Cannon => {
            if df != 0 && dr != 0 {
                return shape;
            }
            let mut screens = between(from, to).filter(|&s| pos.piece_at(s) != EMPTY);
            if kind == Kind::Chariot || target == EMPTY {
                if let Some(at) = screens.next() {
                    return Why::PathBlocked { kind, at };
                }
            } else {
                let n = screens.count();
                if n != 1 {
                    return Why::CannonScreens {
                        from,
                        to,
                        screens: n as u8,
                    };
                }
            }
        }
        Kind::Soldier => {
            let forward = match us {
                Color::White => rank_of(to) as i32 - rank_of(from) as i32,
                Color::Black => rank_of(from) as i32 - rank_of(to) as i32,
            };
            if forward < 0 {
                return Why::Backward;
            }
            if df + dr != 1 {
                return shape;
            }
            if df == 1 && own_side(from, us) {
                return Why::NotCrossed;
            }
        }
    }
    // The movement is right, so the general's safety is what fails.
    let mut after = pos.clone();
    after.make(Move::new(from, to));
    let mine = after.general(us);
    let attackers = after.attackers(mine, !us);
    if attackers.contains(&after.general(!us)) {
        return Why::FlyingGeneral {
            file: file_of(mine) as u8,
        };
    }
    Why::SelfCheck {
        kind,
        to,
        was_in_check: pos.general_attacked(us),
        by: attackers
            .first()
            .map(|&a| (a, kind_of(after.piece_at(a)).expect("an attacker"))),
    }
}
