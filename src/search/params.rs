//! The search's tuning: margins, depths and the late-move tables, written
//! once here so that an A/B test changes one place (`docs/engine.md`).

pub(super) const INFINITY: i32 = 31_000;
/// A pruning rule that applies near the leaves: up to `depth` plies left,
/// with a margin of `base` plus `per_ply` for each ply.
#[derive(Clone, Copy, Debug)]
pub(super) struct Margins {
    /// The deepest remaining depth the rule applies at.
    pub(super) depth: i32,
    /// The margin's constant part.
    pub(super) base: i32,
    /// The margin's part per ply.
    pub(super) per_ply: i32,
}

/// Reverse futility pruning: a node this close to the leaves whose
/// evaluation exceeds beta by the margin is not searched.
pub(super) const REVERSE_FUTILITY: Margins = Margins {
    depth: 6,
    base: 0,
    per_ply: 130,
};
/// Futility pruning: below this reduced depth a quiet move is pruned when
/// the evaluation plus the margin stays below alpha.
pub(super) const FUTILITY: Margins = Margins {
    depth: 6,
    base: 150,
    per_ply: 110,
};
/// Singular extensions are tried from this depth.
pub(super) const SINGULAR_DEPTH: i32 = 8;
/// Late-move pruning applies up to this depth.
pub(super) const LATE_MOVE_PRUNING_DEPTH: i32 = 8;
/// Moves that lose material in the static exchange are pruned near the
/// leaves: up to `depth` plies left, a capture when it loses more than
/// `capture_per_ply` for each ply, a quiet move when it loses more than
/// `quiet_per_depth_squared` times the depth squared.
#[derive(Clone, Copy, Debug)]
pub(super) struct SeePruning {
    /// The deepest remaining depth the rule applies at.
    pub(super) depth: i32,
    /// A capture's allowed loss per ply.
    pub(super) capture_per_ply: i32,
    /// A quiet move's allowed loss per depth squared.
    pub(super) quiet_per_depth_squared: i32,
}

impl SeePruning {
    /// The exchange score a move must reach at `depth` not to be pruned.
    pub(super) const fn threshold(self, quiet: bool, depth: i32) -> i32 {
        if quiet {
            -self.quiet_per_depth_squared * depth * depth
        } else {
            -self.capture_per_ply * depth
        }
    }
}

/// See [`SeePruning`].
pub(super) const SEE_PRUNING: SeePruning = SeePruning {
    depth: 6,
    capture_per_ply: 120,
    quiet_per_depth_squared: 25,
};
/// From this quiescence depth on, a capture is searched only when it wins
/// material in the static exchange: chains of even trades (Tamerlane's pawn
/// fronts) made a one-ply search of a few hundred nodes take 750,000.
pub(super) const QUIESCENCE_TRADES_DEPTH: u32 = 6;
/// No piece slot: before the root, or a null move.
pub(super) const NO_SLOT: usize = usize::MAX;
/// History values stay within plus or minus this.
pub(super) const HISTORY_LIMIT: i32 = 16_384;
/// A capture's history counts this many times less than its promise
/// (`Evaluate::capture_value`) in the order of captures.
pub(super) const CAPTURE_HISTORY_DIVISOR: i32 = 8;
/// Move-ordering keys below this are the late moves: quiet moves other
/// than the table move, the killers and the counter-move (which has this
/// key), and the captures that lose material.
pub(super) const LATE_QUIET_BELOW: i32 = (1 << 25) - 2;
/// Half the width of the first aspiration window at the root.
pub(super) const ASPIRATION: i32 = 30;

/// After how many moves the quiet moves left are pruned at `depth`.
pub(super) fn late_move_count(depth: i32, improving: bool) -> usize {
    ((4 + depth * depth) * (1 + i32::from(improving)) / 2) as usize
}

/// How many plies a late quiet move is reduced by, growing with the
/// logarithms of the depth and of the move's place in the order.
pub(super) fn late_move_reduction(depth: i32, searched: usize) -> i32 {
    static TABLE: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        t
    });
    i32::from(TABLE[(depth as usize).min(63)][searched.min(63)])
}
