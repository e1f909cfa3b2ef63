//! The one dispatch: the only place that lists the variants. Everything
//! that picks a variant at run time (the API, UCI, the CLI, fuzzing) hands
//! a [`Visitor`] to [`VariantId::visit`], which calls it back with the
//! variant's type. A new variant is a new module plus one line here.

use crate::diagram::Draw;
use crate::prose::Prose;
use crate::search::Evaluate;
use crate::tablebase::Endgames;
use crate::variants::{tamerlane, taxi, xiangqi, VariantId};

/// Everything the service does with a variant: its rules, its engine, its
/// endgame tables, its pictures and its words.
pub trait Playable: Evaluate + Draw + Prose + Endgames {}

impl<T: Evaluate + Draw + Prose + Endgames> Playable for T {}

/// Work to do with whichever variant a request names.
pub trait Visitor {
    /// What the work gives back.
    type Output;
    /// Does the work with the variant `V`.
    fn visit<V: Playable>(self) -> Self::Output;
}

impl VariantId {
    /// Calls `visitor` back with this variant's type.
    pub fn visit<T: Visitor>(self, visitor: T) -> T::Output {
        match self {
            VariantId::Xiangqi => visitor.visit::<xiangqi::Xiangqi>(),
            VariantId::Taxi => visitor.visit::<taxi::Taxi>(),
            VariantId::Tamerlane => visitor.visit::<tamerlane::Tamerlane>(),
        }
    }
}
