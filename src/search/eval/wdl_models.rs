//! The variants' win/draw/loss models ([`crate::search::wdl`]).
//! Written by `examples/fit_wdl.rs`; not edited by hand.

use crate::search::wdl::WdlModel;

/// Placeholder until fitted.
pub const XIANGQI: WdlModel = WdlModel {
    a: [0.0, 0.0, 0.0, 200.0],
    b: [0.0, 0.0, 0.0, 100.0],
    material_range: (0, 100),
};
/// Placeholder until fitted.
pub const TAXI: WdlModel = XIANGQI;
/// Placeholder until fitted.
pub const TAMERLANE: WdlModel = XIANGQI;
