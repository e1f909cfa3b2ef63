//! The marks a review gives: a move's class by the win chances it gave
//! away, each ply's review, and each side's accuracy.

use crate::search::Score;
use crate::variants::Color;

/// A reviewed move's class, by the win-percentage points it gave away
/// (`win_loss`): `best` the engine's own choice (giving away under 5);
/// `good` under 5;
/// `inaccuracy` 5 or more; `mistake` 10 or more; `blunder` 15 or more;
/// `missed_win` a won position (expected score 80 % or more) left for one
/// that is not (60 % or less).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = MoveClassCode)]
pub enum MoveClass {
    /// The engine's own choice, giving away less than [`INACCURACY`]
    /// points.
    Best,
    /// Gave away less than [`INACCURACY`] points.
    Good,
    /// Gave away [`INACCURACY`] points or more.
    Inaccuracy,
    /// Gave away [`MISTAKE`] points or more.
    Mistake,
    /// Gave away [`BLUNDER`] points or more.
    Blunder,
    /// Left a won position ([`WON`] or more) for one that is not
    /// ([`NOT_WON`] or less).
    MissedWin,
}

impl MoveClass {
    /// Whether a mistake or worse: `mistake`, `blunder` or `missed_win`.
    pub fn is_mistake_or_worse(self) -> bool {
        matches!(self, Self::Mistake | Self::Blunder | Self::MissedWin)
    }
}

/// Win-percentage points (expected score × 100) a move gives away to be an
/// inaccuracy, a mistake, a blunder (Lichess's thresholds, on its scale of
/// winning chances from −1 to 1: 0.1, 0.2, 0.3).
pub const INACCURACY: f64 = 5.0;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 10.0;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 15.0;
/// An expected score (percent) from which a position counts as won.
pub const WON: f64 = 80.0;
/// An expected score (percent) at or below which a won position was let
/// go.
pub const NOT_WON: f64 = 60.0;

/// How the game stood after a ply that ended it, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The move won the game (a mate, a stalemate that wins, a ruling).
    Win,
    /// The move drew it.
    Draw,
    /// The move lost it (a repetition ruled against the mover, say).
    Loss,
}

/// One ply of a review; scores from the mover's view.
#[derive(Clone, Debug)]
pub struct PlyReview<M> {
    /// The ply, from 1.
    pub ply: usize,
    /// Who moved.
    pub mover: Color,
    /// The move played.
    pub mv: M,
    /// The engine's choice in the position before it.
    pub best: M,
    /// The engine's line from the position before it, its choice first
    /// (at most [`BEST_LINE_PLIES`] plies): given for a marked move
    /// (`inaccuracy` or worse), empty otherwise.
    pub best_line: Vec<M>,
    /// The position before the move, searched.
    pub score_before: Score,
    /// The position after it, searched; `Mate(0)` when the move ended the
    /// game by a win or a loss ([`Self::ended`] says which), `Cp(0)` by a
    /// draw.
    pub score_after: Score,
    /// How the game ended with this move, if it did.
    pub ended: Option<Ending>,
    /// The mover's chances before the move.
    pub wdl_before: crate::search::wdl::Wdl,
    /// The expected score before and after the move, in percent.
    pub expected_before: f64,
    /// See `expected_before`.
    pub expected_after: f64,
    /// Win-percentage points given away (0 when the move gained, and for
    /// the engine's own choice).
    pub win_loss: f64,
    /// Its class.
    pub class: MoveClass,
    /// Whether both positions of the ply were searched again with the
    /// verification budget (or the game's end settled the one after), or
    /// the endgame tables judged them.
    pub verified: bool,
}

/// The most plies of a marked move's better line.
pub const BEST_LINE_PLIES: usize = 6;

/// A move's accuracy, 0-100, from the points it gave away (Lichess's
/// formula: `103.1668 e^(−0.04354 loss) − 3.1669`).
pub fn move_accuracy(win_loss: f64) -> f64 {
    (103.1668 * (-0.04354 * win_loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A side's accuracy: the mean of its moves' accuracies (`None` without a
/// move).
pub fn accuracy<M>(plies: &[PlyReview<M>], side: Color) -> Option<f64> {
    let own: Vec<f64> = plies
        .iter()
        .filter(|p| p.mover == side)
        .map(|p| move_accuracy(p.win_loss))
        .collect();
    (!own.is_empty()).then(|| own.iter().sum::<f64>() / own.len() as f64)
}

/// The class of a move. The engine's own choice is `best`, whatever the
/// search after it shows (a difference there is the search's horizon, and
/// the verification pass looks at it again); any other move is classed by
/// the points it gave away.
pub fn classify(best: bool, expected_before: f64, expected_after: f64) -> MoveClass {
    let loss = (expected_before - expected_after).max(0.0);
    if best {
        MoveClass::Best
    } else if expected_before >= WON && expected_after <= NOT_WON {
        MoveClass::MissedWin
    } else if loss >= BLUNDER {
        MoveClass::Blunder
    } else if loss >= MISTAKE {
        MoveClass::Mistake
    } else if loss >= INACCURACY {
        MoveClass::Inaccuracy
    } else {
        MoveClass::Good
    }
}
