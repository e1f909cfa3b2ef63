//! What a table says of one position, and how it is kept: one `u16` a
//! position and side to move.

/// What a table says of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// Not a position a game can reach: a general can be taken, or two
    /// pieces share a point.
    Illegal,
    /// Neither side can force a win; the mark says whether the draw may
    /// rest on the chase rules, which the tables do not judge.
    Draw(Chase),
    /// The side to move wins.
    Win(Distance),
    /// The side to move loses.
    Loss(Distance),
}

/// Whether a draw may rest on the chase rules (`chase.rs`): the tables
/// judge the perpetual-check rule but not chases, so a draw one side can
/// keep only by checking or chasing for ever is marked, from both ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chase {
    /// A draw that rests on no chase.
    Free,
    /// The side to move keeps the draw only by checking or chasing for
    /// ever (every other move loses), while the other side answers
    /// quietly: under the chase rules the side to move may lose.
    Must,
    /// The side to move can answer the other side's checks and chases
    /// quietly, leaving it nothing else that keeps the draw: under the
    /// chase rules the side to move may win.
    Forces,
}

impl Chase {
    /// The same draw seen by the other side.
    pub fn other(self) -> Chase {
        match self {
            Chase::Free => Chase::Free,
            Chase::Must => Chase::Forces,
            Chase::Forces => Chase::Must,
        }
    }
}

/// How far a win or a loss is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Distance {
    /// Mate (or stalemate, which loses in Xiangqi) in this many plies with
    /// best play: the winner mates as fast as it can, the loser holds out
    /// as long as it can.
    Mate(u16),
    /// The loser can hold out only by checking for ever, which the rules
    /// forbid: the win rests on the perpetual-check rule. The plies count
    /// to a position where every move of the loser that is not lost
    /// outright checks (the rule's part begins there), not to a mate.
    Rule(u16),
}

impl Distance {
    /// The plies counted.
    pub fn plies(self) -> u16 {
        match self {
            Distance::Mate(n) | Distance::Rule(n) => n,
        }
    }
}

/// Codes: 0 a draw, 1 illegal, `MATE + plies` a mate distance, `RULE |
/// plies` a distance under the rule, [`CHASE_MUST`] and [`CHASE_FORCES`]
/// the draws that may rest on a chase. Even plies lose for the side to
/// move, odd plies win: no bit is spent on which.
pub(super) const DRAW: u16 = 0;
/// See [`DRAW`].
pub(super) const ILLEGAL: u16 = 1;
/// See [`DRAW`].
pub(super) const MATE: u16 = 2;
/// See [`DRAW`].
pub(super) const RULE: u16 = 0x8000;
/// See [`DRAW`]: a draw marked [`Chase::Must`].
pub(super) const CHASE_MUST: u16 = 0x7FFE;
/// See [`DRAW`]: a draw marked [`Chase::Forces`].
pub(super) const CHASE_FORCES: u16 = 0x7FFF;
/// The longest distance a code holds (the mate codes stop below the
/// chase marks).
pub(super) const MAX_PLIES: u16 = CHASE_MUST - 1 - MATE;

impl Entry {
    /// The entry of a code.
    pub(super) fn of(code: u16) -> Entry {
        let distance = match code {
            DRAW => return Entry::Draw(Chase::Free),
            CHASE_MUST => return Entry::Draw(Chase::Must),
            CHASE_FORCES => return Entry::Draw(Chase::Forces),
            ILLEGAL => return Entry::Illegal,
            c if c & RULE != 0 => Distance::Rule(c & !RULE),
            c => Distance::Mate(c - MATE),
        };
        if distance.plies() % 2 == 1 {
            Entry::Win(distance)
        } else {
            Entry::Loss(distance)
        }
    }

    /// The code of an entry (a win's plies odd, a loss's even).
    #[cfg(test)]
    pub(super) fn code(self) -> u16 {
        let distance = |d: Distance| match d {
            Distance::Mate(n) => MATE + n,
            Distance::Rule(n) => RULE | n,
        };
        match self {
            Entry::Illegal => ILLEGAL,
            Entry::Draw(Chase::Free) => DRAW,
            Entry::Draw(Chase::Must) => CHASE_MUST,
            Entry::Draw(Chase::Forces) => CHASE_FORCES,
            Entry::Win(d) | Entry::Loss(d) => distance(d),
        }
    }

    /// Where the entry stands among the choices of a side: lower is
    /// better (the fastest mate, a win under the rule, a draw: one the
    /// chase rules may turn into a win first, one they may turn into a loss
    /// last; the longest defence under the rule, the longest defence
    /// against mate).
    pub fn rank(self) -> (u8, i32) {
        match self {
            Entry::Win(Distance::Mate(n)) => (0, n as i32),
            Entry::Win(Distance::Rule(n)) => (1, n as i32),
            Entry::Draw(Chase::Forces) => (2, 0),
            Entry::Draw(Chase::Free) => (2, 1),
            Entry::Draw(Chase::Must) => (2, 2),
            Entry::Loss(Distance::Rule(n)) => (3, -(n as i32)),
            Entry::Loss(Distance::Mate(n)) => (4, -(n as i32)),
            Entry::Illegal => (5, 0),
        }
    }

    /// The entry one ply earlier, for the side that moved into this one.
    pub fn before(self) -> Entry {
        match self {
            Entry::Win(d) => Entry::Loss(d.add(1)),
            Entry::Loss(d) => Entry::Win(d.add(1)),
            Entry::Draw(chase) => Entry::Draw(chase.other()),
            Entry::Illegal => Entry::Illegal,
        }
    }
}

impl Distance {
    fn add(self, n: u16) -> Distance {
        match self {
            Distance::Mate(p) => Distance::Mate(p + n),
            Distance::Rule(p) => Distance::Rule(p + n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back() {
        for e in [
            Entry::Illegal,
            Entry::Draw(Chase::Free),
            Entry::Draw(Chase::Must),
            Entry::Draw(Chase::Forces),
            Entry::Loss(Distance::Mate(0)),
            Entry::Win(Distance::Mate(1)),
            Entry::Win(Distance::Mate(MAX_PLIES)),
            Entry::Loss(Distance::Rule(0)),
            Entry::Win(Distance::Rule(7)),
        ] {
            assert_eq!(Entry::of(e.code()), e);
        }
        assert_eq!(
            Entry::Loss(Distance::Mate(0)).before(),
            Entry::Win(Distance::Mate(1))
        );
        assert_eq!(
            Entry::Draw(Chase::Must).before(),
            Entry::Draw(Chase::Forces)
        );
        assert_eq!(
            Entry::of(MATE + MAX_PLIES),
            Entry::Win(Distance::Mate(MAX_PLIES))
        );
    }
}
