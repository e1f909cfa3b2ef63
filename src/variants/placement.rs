//! The board field of a FEN, written the same way in every variant: the
//! ranks from the last to the first, each from the first file, a run of
//! empty squares as its length.

use std::fmt::{Display, Write};

/// Appends the board field of a `files` × `ranks` board to `out`; `piece(file,
/// rank)` writes the piece there as the FEN does (White's in capitals), or
/// `None` for an empty square.
pub fn write_placement<P: Display>(
    out: &mut String,
    files: usize,
    ranks: usize,
    mut piece: impl FnMut(usize, usize) -> Option<P>,
) {
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for file in 0..files {
            match piece(file, rank) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        write!(out, "{empty}").expect("a String takes any text");
                        empty = 0;
                    }
                    write!(out, "{p}").expect("a String takes any text");
                }
            }
        }
        if empty > 0 {
            write!(out, "{empty}").expect("a String takes any text");
        }
        if rank > 0 {
            out.push('/');
        }
    }
}
