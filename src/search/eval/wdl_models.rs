//! The variants' win/draw/loss models ([`crate::search::wdl`]).
//! Written by `examples/fit_wdl.rs`; not edited by hand (how, and the
//! figures: `docs/engine.md`).

use crate::search::wdl::WdlModel;

/// Xiangqi: fitted on the self-play games of `xiangqi-nnue.jsonl`.
pub const XIANGQI: WdlModel = WdlModel {
    a: [-62.3812, 346.924, -718.5682, 676.6762],
    b: [-106.739, 330.4497, -221.5787, 153.7733],
    material_range: (7, 62),
};
/// Taxi: fitted on the self-play games of `taxi.jsonl`.
pub const TAXI: WdlModel = WdlModel {
    a: [-29.2857, 209.9842, -454.3154, 352.7267],
    b: [69.5574, -245.9356, 233.4856, 88.5324],
    material_range: (1, 80),
};
/// Tamerlane: fitted on the self-play games of `tamerlane.jsonl`.
pub const TAMERLANE: WdlModel = WdlModel {
    a: [-5.5092, 163.8405, -737.6619, 1833.3917],
    b: [2.4937, 1.1324, 14.8516, 285.552],
    material_range: (9, 131),
};
