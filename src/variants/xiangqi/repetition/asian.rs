//! Repetition under the Asian (WXF/AXF) rules: perpetual check and
//! perpetual chase. The decisions are written in `docs/rules/xiangqi.md`,
//! each with the rule of the WXF rule book it follows.
//!
//! The core notion is a *threat*: a pair (attacker, victim) where the
//! attacker's side could capture the victim and gain by it — the victim
//! cannot be recaptured, or it is a chariot attacked by a horse or cannon, or
//! a chariot, horse or cannon attacked by an advisor or elephant. Generals and
//! soldiers threaten nothing (they may chase freely), generals and uncrossed
//! soldiers are never victims, and two pieces of one kind that can take each
//! other do not threaten each other. A move *chases* a victim when it creates
//! a threat that was not there before the move: by the moved piece, by a
//! piece it unmasks, or by taking away the victim's protection (pinning or
//! blocking its defender) — unless the move is a parry (below).
//!
//! Every "could capture" is decided by playing the capture on a copy of the
//! board, so pins, the flying general and fake protection through a cannon
//! screen are exact. A check standing on the board is looked through (rule
//! 12 and the principles in the docs): a capture or a recapture counts when it
//! exposes its own general to no attacker that was not already there, so a
//! check neither suspends threats nor takes protection away.

use std::collections::HashSet;

use super::super::board::*;
use super::super::position::{Move, Position};
use super::Span;
use crate::variants::{Color, Conduct, Nature, Pattern, Reason, Verdict};

/// (attacker point, victim point).
type Threat = (Sq, Sq);

impl Position {
    /// The same position for repetition: placement and side to move.
    pub fn same_placement(&self, other: &Position) -> bool {
        self.hash == other.hash && self.side == other.side && self.board == other.board
    }

    /// Hands the move to `c` (a null move if it was the other side's turn).
    pub(in crate::variants::xiangqi) fn set_side(&mut self, c: Color) {
        if self.side != c {
            self.side = c;
            self.hash ^= ZOBRIST_SIDE;
        }
    }

    /// The points of the pieces attacking `c`'s general (the facing general
    /// included).
    fn checkers(&self, c: Color) -> Vec<Sq> {
        self.attackers(self.generals[c.index()], !c)
    }

    /// Whether `c` playing the pseudo-legal `m` here (whoever is to move)
    /// would leave its general attacked by a piece not among `standing`, the
    /// attackers already there: a check on the board is looked through, but
    /// a general may not step onto an attacked point.
    fn exposes(&self, m: Move, c: Color, standing: &[Sq]) -> bool {
        let mut after = self.clone();
        after.set_side(c);
        let general_moves = m.from == self.generals[c.index()];
        after.make(m);
        let attackers = after.checkers(c);
        if general_moves {
            !attackers.is_empty()
        } else {
            attackers.iter().any(|a| !standing.contains(a))
        }
    }

    /// Whether the piece on `from` (of colour `c`) could take on `to`, a
    /// standing check looked through.
    fn could_take(&self, from: Sq, to: Sq, c: Color, moves: &mut Vec<Move>) -> bool {
        moves.clear();
        self.piece_moves(from, moves);
        moves.contains(&Move::new(from, to))
            && !self.exposes(Move::new(from, to), c, &self.checkers(c))
    }

    /// The pseudo-captures of side `s` on pieces that may be victims:
    /// (attacker, victim) for every attacker that is not a general or soldier.
    fn attacks(&self, s: Color) -> Vec<Threat> {
        let o = !s;
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for a in self.pieces(s) {
            let attacker = kind_of(self.piece_at(a)).expect("a piece");
            if matches!(attacker, Kind::General | Kind::Soldier) {
                continue;
            }
            moves.clear();
            self.piece_moves(a, &mut moves);
            for m in &moves {
                let v = m.to;
                match kind_of(self.piece_at(v)) {
                    Some(Kind::General) | None => {}
                    Some(Kind::Soldier) if own_side(v, o) => {}
                    Some(_) => out.push((a, v)),
                }
            }
        }
        out
    }

    /// Every threat of side `s` in this position, whoever is to move.
    pub fn threats(&self, s: Color) -> Vec<Threat> {
        let o = !s;
        let standing_s = self.checkers(s);
        let standing_o = self.checkers(o);
        let mut other = Vec::new();
        self.attacks(s)
            .into_iter()
            .filter(|&(a, v)| {
                let m = Move::new(a, v);
                if self.exposes(m, s, &standing_s) {
                    return false;
                }
                let attacker = kind_of(self.piece_at(a)).expect("a piece");
                let victim = kind_of(self.piece_at(v)).expect("a piece");
                if victim == attacker && self.could_take(v, a, o, &mut other) {
                    return false;
                }
                let regardless = matches!(
                    (attacker, victim),
                    (Kind::Horse | Kind::Cannon, Kind::Chariot)
                        | (
                            Kind::Advisor | Kind::Elephant,
                            Kind::Chariot | Kind::Horse | Kind::Cannon
                        )
                );
                regardless || !self.protected_after(m, s, &standing_o)
            })
            .collect()
    }

    /// Whether, after `s` plays the capture `m`, the victim's side has a
    /// recapture on its point that exposes its general to no attacker not
    /// in `standing` (those of the position before the capture).
    fn protected_after(&self, m: Move, s: Color, standing: &[Sq]) -> bool {
        let o = !s;
        let mut after = self.clone();
        after.set_side(s);
        after.make(m);
        after
            .attackers(m.to, o)
            .into_iter()
            .any(|d| !after.exposes(Move::new(d, m.to), o, standing))
    }

    /// The victims that the move `m` (just played, leading to `after` from
    /// `before`) newly threatens. The moved piece's threats are new, except
    /// those of a chariot or cannon along the line it slid on (it attacked
    /// that piece before too); any other piece's threat is new if it was not
    /// there before the move (unmasked, or the victim's defence was taken
    /// away). A parry — a move that lifts every threat on one of the mover's
    /// other pieces — chases nothing by taking away protection on the way
    /// (rule 19): only its new attacks count.
    pub fn chased_by(before: &Position, m: Move, after: &Position) -> Vec<Sq> {
        let s = before.side;
        let o = !s;
        let slider = matches!(
            kind_of(before.piece_at(m.from)),
            Some(Kind::Chariot | Kind::Cannon)
        );
        let same_line = |v: Sq| {
            (file_of(m.from) == file_of(m.to) && file_of(v) == file_of(m.from))
                || (rank_of(m.from) == rank_of(m.to) && rank_of(v) == rank_of(m.from))
        };
        // Before-pairs as they stand after the move: the moved piece's pairs
        // follow it only along the line it slid on.
        let follow = |(a, v): Threat| match a == m.from {
            false => Some((a, v)),
            true if slider && same_line(v) => Some((m.to, v)),
            true => None,
        };
        let threats = after.threats(s);
        if threats.is_empty() {
            return Vec::new();
        }
        let old: HashSet<Threat> = before.threats(s).into_iter().filter_map(follow).collect();
        let new: Vec<Threat> = threats.into_iter().filter(|t| !old.contains(t)).collect();
        if new.is_empty() {
            return Vec::new();
        }
        let threatened_after: HashSet<Sq> = after.threats(o).into_iter().map(|(_, v)| v).collect();
        let parry = before
            .threats(o)
            .into_iter()
            .any(|(_, p)| p != m.from && !threatened_after.contains(&p));
        let attacked: HashSet<Threat> = if parry {
            before.attacks(s).into_iter().filter_map(follow).collect()
        } else {
            HashSet::new()
        };
        let mut victims: Vec<Sq> = new
            .into_iter()
            .filter(|t| !attacked.contains(t))
            .map(|(_, v)| v)
            .collect();
        victims.sort_unstable();
        victims.dedup();
        victims
    }
}

/// Judges the cycle from `positions[from]` to the last position, which stand
/// on the same placement, as if the cycle were being repeated: the search's
/// view of a repetition (it stops at the second occurrence).
pub fn judge_cycle(positions: &[Position], moves: &[Move], from: usize) -> Verdict {
    judge_span(Span::cycle(positions, moves, from))
}

/// Judges a repeated span under the Asian rules: a side checks perpetually
/// if every one of its moves gave check, and chases perpetually if some
/// piece was chased by every one of its moves, check moves included (rule
/// 12: "one check, one chase" is allowed).
pub(in crate::variants::xiangqi) fn judge_span(span: Span) -> Verdict {
    // Each move's nature and the pieces it chases, followed through the
    // span so that "the same piece" is exact.
    let (judged, ids) = span.walk(|step, ids| {
        let victims: HashSet<u8> = Position::chased_by(step.before, step.m, step.after)
            .into_iter()
            .map(|v| ids.at(v))
            .collect();
        let nature = if step.after.general_attacked(step.after.side) {
            Nature::Check
        } else if victims.is_empty() {
            Nature::Idle
        } else {
            Nature::Chase
        };
        (nature, victims)
    });
    let [white, black] = judged;
    let mut natures: [Vec<Nature>; 2] = [&white, &black].map(|js| js.iter().map(|j| j.0).collect());
    // The pieces chased by every one of a side's moves.
    let chased: [Option<HashSet<u8>>; 2] = [white, black].map(|js| {
        js.into_iter()
            .map(|(_, victims)| victims)
            .reduce(|prev, victims| prev.intersection(&victims).copied().collect())
    });
    let mut conduct = |c: Color| -> Conduct {
        let i = c.index();
        let natures = std::mem::take(&mut natures[i]);
        if !natures.is_empty() && natures.iter().all(|&n| n == Nature::Check) {
            return Conduct {
                pattern: Pattern::PerpetualCheck,
                ..Conduct::allowed(natures)
            };
        }
        let mut points: Vec<Sq> = chased[i]
            .iter()
            .flatten()
            .map(|&id| ids.point(id).expect("a chased piece is on the board"))
            .collect();
        if points.is_empty() {
            return Conduct::allowed(natures);
        }
        points.sort_unstable();
        Conduct {
            pattern: Pattern::PerpetualChase,
            chased: points,
            ..Conduct::allowed(natures)
        }
    };
    let conduct = [conduct(Color::White), conduct(Color::Black)];
    let checking = |c: Color| conduct[c.index()].pattern == Pattern::PerpetualCheck;
    let chasing = |c: Color| conduct[c.index()].pattern == Pattern::PerpetualChase;
    let breach = |test: &dyn Fn(Color) -> bool| match (test(Color::White), test(Color::Black)) {
        (true, false) => Some(Color::White),
        (false, true) => Some(Color::Black),
        _ => None,
    };
    let (in_breach, reason) = if checking(Color::White) || checking(Color::Black) {
        (breach(&checking), Reason::PerpetualCheck)
    } else {
        (breach(&chasing), Reason::PerpetualChase)
    };
    // Both sides in breach, or neither: drawn.
    let reason = if in_breach.is_some() {
        reason
    } else {
        Reason::Repetition
    };
    span.verdict(reason, in_breach, conduct)
}
