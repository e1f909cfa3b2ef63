//! The clock: how long a move may take on a clock of so much time left,
//! for both front-ends (UCI's `go wtime … winc …`, and the match tool).

use std::time::Duration;

use super::Limits;

/// The clocks of a `go` command, turned into a search time once the side to
/// move is known.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// Each side's time left, in ms (White or Red first).
    pub time: [Option<u64>; 2],
    /// Each side's increment a move, in ms.
    pub increment: [u64; 2],
    /// The moves until the next time control, if given.
    pub moves_to_go: Option<u64>,
    /// `go infinite`: search until `stop`, whatever the clocks say.
    pub infinite: bool,
}

impl Clock {
    /// The limits for the side to move: with its clock and no `movetime`,
    /// a share of its remaining time to aim at and a hard limit; depth 8
    /// when nothing at all was given.
    pub fn apply(&self, limits: &mut Limits, side: usize) {
        if self.infinite {
            return;
        }
        if limits.movetime.is_none() {
            if let Some((optimum, hard)) = self.budget(side) {
                limits.optimum = Some(optimum);
                limits.movetime = Some(hard);
            }
        }
        if limits.movetime.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
            limits.depth = Some(8);
        }
    }

    /// The side to move's time for this move ([`clock_budget`]).
    fn budget(&self, side: usize) -> Option<(Duration, Duration)> {
        let t = self.time[side]?;
        Some(clock_budget(t, self.increment[side], self.moves_to_go))
    }
}

/// A move's time on a clock of `time_ms` left and `increment_ms` a move:
/// what to aim at (the time over the moves to go, 30 if not given, plus
/// three quarters of the increment) and the most it may take (four times
/// that, never more than two fifths of the time left, always leaving 50 ms
/// for the GUI). What `go wtime … winc …` gives the search; the match tool
/// gives the in-process engine the same.
pub fn clock_budget(
    time_ms: u64,
    increment_ms: u64,
    moves_to_go: Option<u64>,
) -> (Duration, Duration) {
    let left = time_ms.saturating_sub(50).max(10);
    let optimum = (time_ms / moves_to_go.unwrap_or(30).max(1) + increment_ms * 3 / 4)
        .min(left / 2)
        .max(10);
    let hard = (optimum * 4).min(left * 2 / 5).max(optimum);
    (Duration::from_millis(optimum), Duration::from_millis(hard))
}
