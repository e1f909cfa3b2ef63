//! A game's review: every position searched, each move weighed by the
//! win chances it gave away ([`super::wdl`]), classed, and each side's
//! accuracy (`POST …/review`; thresholds and formula in `docs/engine.md`).

use super::{search_with_table, Control, Evaluate, Limits, Score, Table};
use crate::variants::{Color, Game, Outcome};

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
    /// The position before the move, searched.
    pub score_before: Score,
    /// The position after it, searched (or its result, if the game ended).
    pub score_after: Score,
    /// The mover's chances before the move.
    pub wdl_before: super::wdl::Wdl,
    /// The expected score before and after the move, in percent.
    pub expected_before: f64,
    /// See `expected_before`.
    pub expected_after: f64,
    /// Win-percentage points given away (0 when the move gained).
    pub win_loss: f64,
    /// Its class.
    pub class: MoveClass,
}

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

/// The class of a move. The engine's own choice is `best` unless the
/// search after it shows it gave away an inaccuracy's worth or more (the
/// search before it did not see far enough: the points speak).
pub fn classify(best: bool, expected_before: f64, expected_after: f64) -> MoveClass {
    let loss = (expected_before - expected_after).max(0.0);
    if best && loss < INACCURACY {
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

/// Reviews the first `plies` moves of `game` from its start (a record may
/// go on past the game's end), each position searched under `limits` (one
/// table for the whole game); `on_ply` is told of each ply as it is
/// reviewed. Stops early, with the plies done, when `control` is told to
/// stop.
pub fn review<V: Evaluate>(
    game: &Game<V>,
    plies: usize,
    limits: &Limits,
    control: &Control,
    table: &Table,
    on_ply: &mut dyn FnMut(&PlyReview<V::Move>),
) -> Vec<PlyReview<V::Move>> {
    let positions = game.positions();
    let moves = &game.moves()[..plies.min(game.moves().len())];
    let mut replay = Game::new(positions[0].clone(), game.rules().clone());
    let stopped = || control.stop.load(std::sync::atomic::Ordering::Relaxed);
    // The search of the current position: its best move and score.
    let mut here = search_with_table(&replay, limits, control, table, None)
        .map(|r| (r.best_move, r.lines[0].score));
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        if stopped() {
            break;
        }
        let Some((best, before)) = here else { break };
        let pos = replay.current().clone();
        let mover = pos.side_to_move();
        replay.play(mv);
        let after_search = match replay.outcome() {
            Outcome::Ended(_) => None,
            Outcome::Ongoing => search_with_table(&replay, limits, control, table, None)
                .map(|r| (r.best_move, r.lines[0].score)),
        };
        // The score after, from the mover's view: the game's result if it
        // ended, else the opponent's score turned.
        let after = match (&replay.outcome(), &after_search) {
            (Outcome::Ended(v), _) => match v.winner {
                Some(w) if w == mover => Score::Mate(1),
                Some(_) => Score::Mate(-1),
                None => Score::Cp(0),
            },
            (_, Some((_, s))) => negate(*s),
            (_, None) => Score::Cp(0),
        };
        let wdl_before = V::WDL.wdl(before, pos.material());
        let expected_before = 100.0 * wdl_before.expected();
        let expected_after = 100.0 * V::WDL.wdl(after, replay.current().material()).expected();
        let review = PlyReview {
            ply: i + 1,
            mover,
            mv,
            best,
            score_before: before,
            score_after: after,
            wdl_before,
            expected_before,
            expected_after,
            win_loss: (expected_before - expected_after).max(0.0),
            class: classify(mv == best, expected_before, expected_after),
        };
        on_ply(&review);
        out.push(review);
        here = after_search;
    }
    out
}

/// A score from the other side's view.
fn negate(s: Score) -> Score {
    match s {
        Score::Cp(v) => Score::Cp(-v),
        Score::Mate(n) => Score::Mate(-n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_points_given_away() {
        assert_eq!(classify(true, 50.0, 47.0), MoveClass::Best);
        // The engine's choice that the search after it shows lost.
        assert_eq!(classify(true, 50.0, 10.0), MoveClass::Blunder);
        assert_eq!(classify(true, 95.0, 50.0), MoveClass::MissedWin);
        assert_eq!(classify(false, 50.0, 47.0), MoveClass::Good);
        assert_eq!(classify(false, 50.0, 45.0), MoveClass::Inaccuracy);
        assert_eq!(classify(false, 50.0, 40.0), MoveClass::Mistake);
        assert_eq!(classify(false, 50.0, 35.0), MoveClass::Blunder);
        assert_eq!(classify(false, 90.0, 60.0), MoveClass::MissedWin);
        assert_eq!(classify(false, 90.0, 70.0), MoveClass::Blunder);
        assert_eq!(classify(false, 30.0, 40.0), MoveClass::Good);
    }

    #[test]
    fn accuracy_is_full_for_nothing_given_away() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(10.0) < move_accuracy(5.0));
        assert_eq!(move_accuracy(100.0), 0.0);
    }
}
