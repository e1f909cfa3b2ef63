//! Repetition under the Asian (WXF/AXF) rules: perpetual check and
//! perpetual chase. The decisions are written in `docs/rules/xiangqi.md`.
//!
//! The core notion is a *threat*: a pair (attacker, victim) where the
//! attacker's side could legally capture the victim and gain by it — the
//! victim cannot be legally recaptured, or it is a chariot attacked by a horse
//! or cannon, or a chariot, horse or cannon attacked by an advisor or
//! elephant. Generals and soldiers threaten nothing (they may chase freely),
//! generals and uncrossed soldiers are never victims, and two pieces of one
//! kind that can legally take each other do not threaten each other. A move
//! *chases* a victim when it creates a threat that was not there before the
//! move: by the moved piece, by a piece it unmasks, or by taking away the
//! victim's protection (pinning or blocking its defender). Every "could
//! capture" is decided by playing the capture on a copy of the board, so pins,
//! the flying general and fake protection through a cannon screen are exact.

use std::collections::HashSet;

use super::board::*;
use super::position::{Move, Position};
use crate::variants::{Color, Conduct, Reason, RepetitionReport};

/// (attacker point, victim point).
type Threat = (Sq, Sq);

impl Position {
    /// The same position for repetition: placement and side to move.
    pub fn same_placement(&self, other: &Position) -> bool {
        self.hash == other.hash && self.side == other.side && self.board == other.board
    }

    /// Hands the move to `c` (a null move if it was the other side's turn).
    pub(super) fn set_side(&mut self, c: Color) {
        if self.side != c {
            self.side = c;
            self.hash ^= ZOBRIST_SIDE;
        }
    }

    /// Whether the piece on `from` (of colour `c`) can legally capture on `to`
    /// with `c` to move.
    fn can_take(&self, from: Sq, to: Sq, c: Color, moves: &mut Vec<Move>) -> bool {
        moves.clear();
        self.piece_moves(from, moves);
        if !moves.contains(&Move::new(from, to)) {
            return false;
        }
        let mut scratch = self.clone();
        scratch.set_side(c);
        !scratch.leaves_general_attacked(Move::new(from, to))
    }

    /// Whether `c`, to move, has a legal capture on `to`.
    fn can_recapture(&mut self, to: Sq, c: Color) -> bool {
        debug_assert_eq!(self.side, c);
        self.attackers(to, c)
            .into_iter()
            .any(|d| !self.leaves_general_attacked(Move::new(d, to)))
    }

    /// Every threat of side `s` in this position, whoever is to move.
    pub fn threats(&self, s: Color) -> Vec<Threat> {
        let o = !s;
        let mut out = Vec::new();
        let mut scratch = self.clone();
        scratch.set_side(s);
        let mut moves = Vec::new();
        let mut other = Vec::new();
        for a in self.pieces(s) {
            let attacker = kind_of(self.piece_at(a)).expect("a piece");
            if matches!(attacker, Kind::General | Kind::Soldier) {
                continue;
            }
            moves.clear();
            self.piece_moves(a, &mut moves);
            for &m in &moves {
                let v = m.to;
                let Some(victim) = kind_of(self.piece_at(v)) else {
                    continue;
                };
                if victim == Kind::General || (victim == Kind::Soldier && own_side(v, o)) {
                    continue;
                }
                let undo = scratch.make(m);
                let legal = !scratch.general_attacked(s);
                let protected = legal && scratch.can_recapture(v, o);
                scratch.unmake(m, undo);
                if !legal {
                    continue;
                }
                if victim == attacker && self.can_take(v, a, o, &mut other) {
                    continue;
                }
                let regardless = matches!(
                    (attacker, victim),
                    (Kind::Horse | Kind::Cannon, Kind::Chariot)
                        | (
                            Kind::Advisor | Kind::Elephant,
                            Kind::Chariot | Kind::Horse | Kind::Cannon
                        )
                );
                if regardless || !protected {
                    out.push((a, v));
                }
            }
        }
        out
    }

    /// The victims that the move `m` (just played, leading to `after` from
    /// `before`) newly threatens. The moved piece's threats are new, except
    /// those of a chariot or cannon along the line it slid on (it attacked
    /// that piece before too); any other piece's threat is new if it was not
    /// there before the move (unmasked, or the victim's defence was taken away).
    pub fn chased_by(before: &Position, m: Move, after: &Position) -> Vec<Sq> {
        let s = before.side;
        let slider = matches!(
            kind_of(before.piece_at(m.from)),
            Some(Kind::Chariot | Kind::Cannon)
        );
        let same_line = |v: Sq| {
            (file_of(m.from) == file_of(m.to) && file_of(v) == file_of(m.from))
                || (rank_of(m.from) == rank_of(m.to) && rank_of(v) == rank_of(m.from))
        };
        let old: HashSet<Threat> = before
            .threats(s)
            .into_iter()
            .filter_map(|(a, v)| match a == m.from {
                false => Some((a, v)),
                true if slider && same_line(v) => Some((m.to, v)),
                true => None,
            })
            .collect();
        let mut victims: Vec<Sq> = after
            .threats(s)
            .into_iter()
            .filter(|t| !old.contains(t))
            .map(|(_, v)| v)
            .collect();
        victims.sort_unstable();
        victims.dedup();
        victims
    }
}

/// A repetition verdict: the report, and who (if anyone) won by it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub report: RepetitionReport,
    pub reason: Reason,
    pub winner: Option<Color>,
    pub explanation: String,
}

impl Judgement {
    pub fn into_outcome(self) -> crate::variants::Outcome {
        let repetition = Some(Box::new(self.report));
        match self.winner {
            Some(winner) => crate::variants::Outcome::Decisive {
                winner,
                reason: self.reason,
                explanation: self.explanation,
                repetition,
            },
            None => crate::variants::Outcome::Drawn {
                reason: self.reason,
                explanation: self.explanation,
                repetition,
            },
        }
    }
}

/// Judges the game `positions` (with `moves[i]` leading from `positions[i]`
/// to `positions[i + 1]`), optionally extended by one more move: `None` unless
/// its last position stands there for the third time.
pub fn judge(
    positions: &[Position],
    moves: &[Move],
    next: Option<(Move, &Position)>,
) -> Option<Judgement> {
    let len = positions.len() + usize::from(next.is_some());
    let pos = |i: usize| {
        if i < positions.len() {
            &positions[i]
        } else {
            next.expect("the extra position").1
        }
    };
    let mv = |i: usize| {
        if i < moves.len() {
            moves[i]
        } else {
            next.expect("the extra move").0
        }
    };
    let last = len - 1;
    let current = pos(last);
    // Positions before the last capture cannot be the same.
    let earliest = last.saturating_sub(current.halfmove as usize);
    let occurrences: Vec<usize> = (earliest..=last)
        .filter(|&i| pos(i).same_placement(current))
        .collect();
    if occurrences.len() < 3 {
        return None;
    }
    Some(judge_span(pos, mv, occurrences))
}

/// Judges the cycle from `positions[from]` to the last position, which stand
/// on the same placement, as if the cycle were being repeated: the search's
/// view of a repetition (it stops at the second occurrence).
pub fn judge_cycle(positions: &[Position], moves: &[Move], from: usize) -> Judgement {
    let last = positions.len() - 1;
    debug_assert!(positions[from].same_placement(&positions[last]));
    judge_span(|i| &positions[i], |i| moves[i], vec![from, last])
}

/// Judges the cycle between the last two of `occurrences`.
fn judge_span<'a>(
    pos: impl Fn(usize) -> &'a Position,
    mv: impl Fn(usize) -> Move,
    occurrences: Vec<usize>,
) -> Judgement {
    let last = *occurrences.last().expect("occurrences");
    let from = occurrences[occurrences.len() - 2];

    // Follow each piece through the cycle, so "the same piece" is exact.
    let mut ids = [u8::MAX; POINTS];
    for s in 0..POINTS as Sq {
        if pos(from).piece_at(s) != EMPTY {
            ids[s as usize] = s;
        }
    }
    let mut moves_made = [0usize; 2];
    let mut checks = [0usize; 2];
    let mut chased: [Option<HashSet<u8>>; 2] = [None, None];
    for j in from..last {
        let (before, after, m) = (pos(j), pos(j + 1), mv(j));
        let s = before.side;
        ids[m.to as usize] = ids[m.from as usize];
        ids[m.from as usize] = u8::MAX;
        moves_made[s.index()] += 1;
        if after.general_attacked(after.side) {
            // A check counts toward a chase too ("one check, one chase").
            checks[s.index()] += 1;
            continue;
        }
        let victims: HashSet<u8> = Position::chased_by(before, m, after)
            .into_iter()
            .map(|v| ids[v as usize])
            .collect();
        chased[s.index()] = Some(match chased[s.index()].take() {
            None => victims,
            Some(prev) => prev.intersection(&victims).copied().collect(),
        });
    }

    let end = pos(last);
    let conduct = |c: Color| -> Conduct {
        let i = c.index();
        if moves_made[i] > 0 && checks[i] == moves_made[i] {
            return Conduct::PerpetualCheck;
        }
        match chased[i].as_ref().and_then(|set| set.iter().min().copied()) {
            Some(id) => {
                let sq = ids
                    .iter()
                    .position(|&x| x == id)
                    .expect("the chased piece is on the board") as Sq;
                Conduct::PerpetualChase {
                    square: sq_name(sq),
                    piece: piece_label(end.piece_at(sq)),
                }
            }
            None => Conduct::Allowed,
        }
    };
    let conduct = [conduct(Color::White), conduct(Color::Black)];
    let checking = |c: Color| conduct[c.index()] == Conduct::PerpetualCheck;
    let chasing = |c: Color| matches!(conduct[c.index()], Conduct::PerpetualChase { .. });
    let plies = format!("plies {}-{}", from + 1, last);
    let (in_breach, reason) = if checking(Color::White) != checking(Color::Black) {
        (
            Some(if checking(Color::White) {
                Color::White
            } else {
                Color::Black
            }),
            Reason::PerpetualCheck,
        )
    } else if checking(Color::White) {
        (None, Reason::Repetition)
    } else if chasing(Color::White) != chasing(Color::Black) {
        (
            Some(if chasing(Color::White) {
                Color::White
            } else {
                Color::Black
            }),
            Reason::PerpetualChase,
        )
    } else {
        (None, Reason::Repetition)
    };
    let explanation = match (in_breach, reason) {
        (Some(c), Reason::PerpetualCheck) => format!(
            "the position stood for the third time; {} gave check with every move of the cycle ({plies}): perpetual check loses, {} wins",
            color_name(c),
            color_name(!c)
        ),
        (Some(c), _) => {
            let Conduct::PerpetualChase { square, piece } = &conduct[c.index()] else { unreachable!() };
            format!(
                "the position stood for the third time; {} chased the {piece} (now on {square}) with every move of the cycle ({plies}): perpetual chase loses, {} wins",
                color_name(c),
                color_name(!c)
            )
        }
        (None, _) if checking(Color::White) => {
            format!("the position stood for the third time and both sides checked perpetually ({plies}): drawn")
        }
        (None, _) if chasing(Color::White) => {
            format!("the position stood for the third time and both sides chased perpetually ({plies}): drawn")
        }
        (None, _) => format!(
            "the position stood for the third time without a perpetual check or chase ({plies}): drawn"
        ),
    };
    Judgement {
        report: RepetitionReport {
            occurrences,
            cycle: (from, last),
            conduct,
            in_breach,
        },
        reason,
        winner: in_breach.map(|c| !c),
        explanation,
    }
}
