//! Where a position of a material is kept: each piece's points (a general
//! in its palace, an advisor on its five points, an elephant on its seven,
//! a soldier where a game can bring it, the others anywhere), two pieces
//! of one kind and colour as one unordered pair (the combinatorial number
//! system), the two generals first. An index is the same for both sides
//! to move; a table keeps one array per side.

use super::material::{Material, KINDS};
use crate::variants::xiangqi::board::{color_of, kind_of, piece, reachable, Piece, POINTS};
use crate::variants::xiangqi::{file_of, rank_of, sq, Kind, Position, Sq};
use crate::variants::Color;

/// The most pieces a table may hold, the generals included.
pub const MAX_PIECES: usize = 10;

/// `n` choose `k` for `n` ≤ 90, `k` ≤ 5.
static BINOMIAL: [[u64; 6]; POINTS + 1] = {
    let mut t = [[0u64; 6]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        t[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Pieces of one kind and colour, kept as one unordered set.
#[derive(Clone, Debug)]
struct Group {
    piece: Piece,
    count: usize,
    /// The points a piece of the group may stand on, in increasing order.
    domain: Vec<Sq>,
    /// A point's place in `domain`, `u8::MAX` where it may not stand.
    slot: [u8; POINTS],
    /// How many sets: `domain.len()` choose `count`.
    size: u64,
}

impl Group {
    fn new(color: Color, kind: Kind, count: usize) -> Group {
        let domain: Vec<Sq> = (0..POINTS as Sq)
            .filter(|&s| reachable(kind, color, s))
            .collect();
        let mut slot = [u8::MAX; POINTS];
        for (i, &s) in domain.iter().enumerate() {
            slot[s as usize] = i as u8;
        }
        let size = BINOMIAL[domain.len()][count];
        Group {
            piece: piece(color, kind),
            count,
            domain,
            slot,
            size,
        }
    }
}

/// The index of a material's positions.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The generals (Red's, Black's), then each group.
    groups: Vec<Group>,
    /// Positions per side to move.
    size: u64,
}

/// A decoded index: each piece's point, in the layout's order (Red's
/// general, Black's, then the groups' pieces, each group in increasing
/// order of points), and its piece byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// How many pieces.
    pub len: usize,
    /// Their points.
    pub points: [Sq; MAX_PIECES],
    /// Their piece bytes.
    pub pieces: [Piece; MAX_PIECES],
}

impl Placement {
    /// The pieces as (point, piece) pairs.
    pub fn pairs(&self) -> impl Iterator<Item = (Sq, Piece)> + '_ {
        (0..self.len).map(|i| (self.points[i], self.pieces[i]))
    }

    /// The position with `side` to move; `None` when two pieces share a
    /// point.
    pub fn position(&self, side: Color) -> Option<Position> {
        let mut pairs = [(0, 0); MAX_PIECES];
        for (pair, p) in pairs.iter_mut().zip(self.pairs()) {
            *pair = p;
        }
        Position::from_pieces(side, &pairs[..self.len])
    }
}

/// A point seen from the other side: the board turned over, Red's side
/// becoming Black's (ranks mirrored, files kept).
pub fn turned(s: Sq) -> Sq {
    sq(file_of(s), 9 - rank_of(s))
}

impl Layout {
    /// The layout of `material`.
    pub fn new(material: Material) -> Layout {
        let mut groups = vec![
            Group::new(Color::White, Kind::General, 1),
            Group::new(Color::Black, Kind::General, 1),
        ];
        for color in [Color::White, Color::Black] {
            for (slot, &kind) in KINDS.iter().enumerate() {
                let n = material.sides[color.index()][slot] as usize;
                if n > 0 {
                    groups.push(Group::new(color, kind, n));
                }
            }
        }
        let size = groups.iter().map(|g| g.size).product();
        Layout { groups, size }
    }

    /// Positions per side to move.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The position at `index` with `side` to move, if it is a legal one:
    /// no two pieces on a point, and the side not to move cannot be taken.
    pub fn position(&self, index: u64, side: Color) -> Option<Position> {
        let pos = self.decode(index).position(side)?;
        (!pos.general_attacked(!side)).then_some(pos)
    }

    /// The pieces at `index` (which must be below [`Layout::size`]).
    pub fn decode(&self, mut index: u64) -> Placement {
        let mut out = Placement {
            len: 0,
            points: [0; MAX_PIECES],
            pieces: [0; MAX_PIECES],
        };
        // The last group varies fastest.
        let mut sets = [0u64; MAX_PIECES];
        for (i, g) in self.groups.iter().enumerate().rev() {
            sets[i] = index % g.size;
            index /= g.size;
        }
        for (i, g) in self.groups.iter().enumerate() {
            let mut r = sets[i];
            let start = out.len;
            for k in (1..=g.count).rev() {
                // The largest slot a with a choose k <= r.
                let mut a = k - 1;
                while a + 1 < g.domain.len() && BINOMIAL[a + 1][k] <= r {
                    a += 1;
                }
                r -= BINOMIAL[a][k];
                out.points[start + k - 1] = g.domain[a];
                out.pieces[start + k - 1] = g.piece;
            }
            out.len += g.count;
        }
        out
    }

    /// The index of a placement in the layout's order; `None` when a piece
    /// stands where its group may not. Within a group the points may come
    /// in any order.
    pub fn encode(&self, placement: &Placement) -> Option<u64> {
        let mut index = 0u64;
        let mut at = 0;
        for g in &self.groups {
            let mut slots = [0u8; 5];
            for (k, s) in slots.iter_mut().enumerate().take(g.count) {
                let slot = g.slot[placement.points[at + k] as usize];
                if slot == u8::MAX {
                    return None;
                }
                *s = slot;
            }
            slots[..g.count].sort_unstable();
            let mut set = 0u64;
            for (k, &s) in slots[..g.count].iter().enumerate() {
                set += BINOMIAL[s as usize][k + 1];
            }
            index = index * g.size + set;
            at += g.count;
        }
        Some(index)
    }

    /// The placement of a position in this layout's order, the board
    /// turned over and the colours exchanged when `turn` (a position of the
    /// flipped material); `None` when its material is not this layout's.
    pub fn placement(&self, pos: &Position, turn: bool) -> Option<Placement> {
        let mut out = Placement {
            len: 0,
            points: [0; MAX_PIECES],
            pieces: [0; MAX_PIECES],
        };
        let mut at = 0;
        for g in &self.groups {
            let (color, kind) = (color_of(g.piece), kind_of(g.piece)?);
            let color = if turn { !color } else { color };
            let mut found = 0;
            for s in pos.pieces(color) {
                if pos.kind_at(s) == Some((color, kind)) {
                    if found == g.count {
                        return None;
                    }
                    out.points[at + found] = if turn { turned(s) } else { s };
                    out.pieces[at + found] = g.piece;
                    found += 1;
                }
            }
            if found != g.count {
                return None;
            }
            at += g.count;
        }
        out.len = at;
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_reads_back() {
        for name in ["KRk", "KRRk", "KPPk", "KCkaabb", "KNkp"] {
            let layout = Layout::new(Material::parse(name).unwrap());
            let step = (layout.size() / 50_000).max(1);
            for i in (0..layout.size()).step_by(step as usize) {
                let p = layout.decode(i);
                assert_eq!(layout.encode(&p), Some(i), "{name} {i}");
            }
        }
    }

    #[test]
    fn sizes() {
        let size = |name: &str| Layout::new(Material::parse(name).unwrap()).size();
        assert_eq!(size("Kk"), 81);
        assert_eq!(size("KRk"), 81 * 90);
        assert_eq!(size("KRRk"), 81 * 90 * 89 / 2);
        assert_eq!(size("KPk"), 81 * 55);
        assert_eq!(size("KRkaabb"), 81 * 90 * 10 * 21);
    }

    #[test]
    fn a_position_and_its_turned_twin_share_an_index() {
        let layout = Layout::new(Material::parse("KRkaa").unwrap());
        let fen = |f: &str| {
            <Position as crate::variants::Variant>::from_fen(f, &Default::default()).unwrap()
        };
        let red = fen("3ak4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1");
        let black = fen("3k5/4r4/9/9/9/9/9/9/4A4/3AK4 b - - 0 1");
        let a = layout.placement(&red, false).unwrap();
        let b = layout.placement(&black, true).unwrap();
        assert_eq!(layout.encode(&a), layout.encode(&b));
        assert!(layout.placement(&red, true).is_none());
    }
}
