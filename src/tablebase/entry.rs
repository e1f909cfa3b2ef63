//! What a table says of one position, and how it is kept: one `u16` a
//! position and side to move.

/// What a table says of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// Not a position a game can reach: a general can be taken, or two
    /// pieces share a point.
    Illegal,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win(Distance),
    /// The side to move loses.
    Loss(Distance),
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
/// plies` a distance under the rule. Even plies lose for the side to move,
/// odd plies win: no bit is spent on which.
pub(super) const DRAW: u16 = 0;
/// See [`DRAW`].
pub(super) const ILLEGAL: u16 = 1;
/// See [`DRAW`].
pub(super) const MATE: u16 = 2;
/// See [`DRAW`].
pub(super) const RULE: u16 = 0x8000;
/// The longest distance a code holds.
pub(super) const MAX_PLIES: u16 = 0x7FFD;

impl Entry {
    /// The entry of a code.
    pub(super) fn of(code: u16) -> Entry {
        let distance = match code {
            DRAW => return Entry::Draw,
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
            Entry::Draw => DRAW,
            Entry::Win(d) | Entry::Loss(d) => distance(d),
        }
    }

    /// Where the entry stands among the choices of a side: lower is
    /// better (the fastest mate, a win under the rule, a draw, the longest
    /// defence under the rule, the longest defence against mate).
    pub fn rank(self) -> (u8, i32) {
        match self {
            Entry::Win(Distance::Mate(n)) => (0, n as i32),
            Entry::Win(Distance::Rule(n)) => (1, n as i32),
            Entry::Draw => (2, 0),
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
            e => e,
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
            Entry::Draw,
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
    }
}
