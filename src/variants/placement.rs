//! The board field of a FEN, written the same way in every variant: the
//! ranks from the last to the first, each from the first file, a run of
//! empty squares as its length.

/// What a piece is written as in a FEN: one letter, or several (Tamerlane
/// chess's pawns).
pub trait Letters {
    /// Appends the letters to `out`.
    fn push_to(self, out: &mut String);
}

impl Letters for char {
    fn push_to(self, out: &mut String) {
        out.push(self);
    }
}

impl Letters for String {
    fn push_to(self, out: &mut String) {
        out.push_str(&self);
    }
}

/// Appends a run of `n` empty squares (1 to 99).
fn push_run(out: &mut String, n: u32) {
    let digit = |d: u32| char::from_digit(d, 10).expect("a digit");
    if n >= 10 {
        out.push(digit(n / 10));
    }
    out.push(digit(n % 10));
}

/// Appends the board field of a `files` × `ranks` board to `out`; `piece(file,
/// rank)` gives the piece there as the FEN writes it (White's in capitals),
/// or `None` for an empty square.
pub fn write_placement<P: Letters>(
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
                        push_run(out, empty);
                        empty = 0;
                    }
                    p.push_to(out);
                }
            }
        }
        if empty > 0 {
            push_run(out, empty);
        }
        if rank > 0 {
            out.push('/');
        }
    }
}
