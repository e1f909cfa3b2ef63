//! The set bits of a bitboard, lowest first: one walk for Taxi chess's
//! 64 squares (`u64`) and Xiangqi's 90 points (`u128`).

/// A bitboard whose set bits can be taken one by one.
pub trait Bitboard: Copy {
    /// Takes the lowest set bit away and gives its index; `None` when no
    /// bit is set.
    fn pop_lowest(&mut self) -> Option<u8>;
}

macro_rules! bitboard {
    ($($t:ty),*) => {$(
        impl Bitboard for $t {
            #[inline]
            fn pop_lowest(&mut self) -> Option<u8> {
                (*self != 0).then(|| {
                    let s = self.trailing_zeros() as u8;
                    *self &= *self - 1;
                    s
                })
            }
        }
    )*};
}

bitboard!(u64, u128);

/// The indices of the set bits of `b`, lowest first.
#[inline]
pub fn bits<B: Bitboard>(mut b: B) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || b.pop_lowest())
}
