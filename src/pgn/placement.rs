//! The start position of a binary or UBB record: 32 pieces in a fixed
//! order, each on a point or off the board, written as a FEN.

/// The order of the 32 pieces in XQF and DhtmlXQ: Red's chariot, horse,
/// elephant, advisor, general, advisor, elephant, horse, chariot, two
/// cannons and five soldiers; then Black's, the same in lower case.
const PIECES: &[u8; 16] = b"RNBAKABNRCCPPPPP";

/// A point (file from Red's left, rank from Red's side) in ICCS, or `None`
/// off the board.
pub(super) fn iccs(file: u8, rank: u8) -> Option<[char; 2]> {
    (file <= 8 && rank <= 9).then(|| [(b'a' + file) as char, (b'0' + rank) as char])
}

/// A board being set up, ranks counted from Red's side as in ICCS.
#[derive(Default)]
pub(super) struct Placement {
    cells: [[u8; 9]; 10],
}

impl Placement {
    /// Puts the `index`th piece (0-31, in the order above) on a point;
    /// false when the point is taken or off the board.
    pub fn put(&mut self, index: usize, file: u8, rank: u8) -> bool {
        let Some(cell) = self
            .cells
            .get_mut(usize::from(rank))
            .and_then(|r| r.get_mut(usize::from(file)))
        else {
            return false;
        };
        if *cell != 0 {
            return false;
        }
        let piece = PIECES[index % 16];
        *cell = if index < 16 {
            piece
        } else {
            piece.to_ascii_lowercase()
        };
        true
    }

    /// Whether each side has exactly one general.
    pub fn has_generals(&self) -> bool {
        let count = |k: u8| self.cells.iter().flatten().filter(|&&c| c == k).count();
        count(b'K') == 1 && count(b'k') == 1
    }

    /// The FEN, the side to move being the owner of the piece on the first
    /// move's point (`first`), else Black when `black` says so.
    pub fn fen(&self, first: Option<(u8, u8)>, black: bool) -> String {
        let black = match first {
            Some((file, rank)) => {
                self.cells[usize::from(rank)][usize::from(file)].is_ascii_lowercase()
            }
            None => black,
        };
        let ranks: Vec<String> = self
            .cells
            .iter()
            .rev()
            .map(|row| {
                let mut out = String::new();
                let mut empty = 0u8;
                for &c in row {
                    if c == 0 {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(c as char);
                }
                if empty > 0 {
                    out.push((b'0' + empty) as char);
                }
                out
            })
            .collect();
        format!(
            "{} {} - - 0 1",
            ranks.join("/"),
            if black { 'b' } else { 'w' }
        )
    }
}
