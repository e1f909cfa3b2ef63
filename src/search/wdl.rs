//! Win, draw and loss chances from a score: a logistic model per variant,
//! fitted on the engine's own games (`examples/fit_wdl.rs`, the method and
//! the figures in `docs/engine.md`).
//!
//! As Stockfish's model: the chance that the side to move wins with a score
//! of `v` centipawns is `1 / (1 + exp((a - v) / b))`, its chance of losing
//! the same with `-v`, and a draw the rest; `a` (the score at which a win
//! is as likely as not) and `b` (how fast the chance grows) are cubic
//! polynomials in the material on the board, so that the same score means
//! more in an endgame than with every piece on.

use super::Score;

/// One variant's model: the polynomials' coefficients (highest power
/// first) in `x = material / MATERIAL_SCALE`, material clamped to
/// `material_range`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a(x)`: the score, in centipawns, at which a win is as likely as not.
    pub a: [f64; 4],
    /// `b(x)`: the spread of the logistic curve, in centipawns.
    pub b: [f64; 4],
    /// The material seen by the model: the fitted games' least and most.
    pub material_range: (i32, i32),
}

/// The divisor of the material in the polynomials (keeps the coefficients
/// of one size).
pub const MATERIAL_SCALE: f64 = 32.0;

/// Chances in per mille, from the side to move's view, summing to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// The side to move wins.
    pub win: u32,
    /// A draw.
    pub draw: u32,
    /// The side to move loses.
    pub loss: u32,
}

impl Wdl {
    /// The expected score of the side to move, 0 to 1 (a draw half).
    pub fn expected(self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }
}

fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

impl WdlModel {
    /// The model's `a` and `b` at `material`.
    pub fn parameters(&self, material: i32) -> (f64, f64) {
        let (lo, hi) = self.material_range;
        let x = f64::from(material.clamp(lo, hi)) / MATERIAL_SCALE;
        // A spread of a few centipawns at least: the curve never becomes a
        // step, whatever a fit left at the edges.
        (cubic(&self.a, x), cubic(&self.b, x).max(1.0))
    }

    /// The chance, 0 to 1, that the side to move wins with `cp`.
    pub fn win_chance(&self, cp: i32, material: i32) -> f64 {
        let (a, b) = self.parameters(material);
        1.0 / (1.0 + ((a - f64::from(cp)) / b).exp())
    }

    /// The chances of a score at `material`. A mate found is a win (or a
    /// loss) for certain.
    pub fn wdl(&self, score: Score, material: i32) -> Wdl {
        match score {
            Score::Mate(n) if n > 0 => Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            },
            Score::Mate(_) => Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            },
            Score::Cp(cp) => {
                let win = (1000.0 * self.win_chance(cp, material)).round() as u32;
                let loss = (1000.0 * self.win_chance(-cp, material)).round() as u32;
                // Both rounded: the draw takes what is left, never below 0.
                let loss = loss.min(1000 - win);
                Wdl {
                    win,
                    draw: 1000 - win - loss,
                    loss,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: WdlModel = WdlModel {
        a: [0.0, 0.0, 100.0, 100.0],
        b: [0.0, 0.0, 20.0, 60.0],
        material_range: (4, 64),
    };

    #[test]
    fn chances_sum_to_a_thousand_and_are_symmetric() {
        for material in [0, 10, 30, 64, 90] {
            for cp in (-2000..=2000).step_by(7) {
                let w = MODEL.wdl(Score::Cp(cp), material);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{cp} {material}");
                let m = MODEL.wdl(Score::Cp(-cp), material);
                assert_eq!((w.win, w.loss), (m.loss, m.win), "{cp} {material}");
            }
        }
    }

    /// The fitted models behave as a model must over the material they
    /// were fitted on: a draw at 0 is the likeliest single outcome only
    /// where draws are common, but every model is symmetric, monotone and
    /// sure of a big lead.
    #[test]
    fn the_fitted_models_are_sane() {
        use crate::search::Evaluate;
        for (name, model) in [
            ("xiangqi", crate::variants::xiangqi::Position::WDL),
            ("taxi", crate::variants::taxi::Position::WDL),
            ("tamerlane", crate::variants::tamerlane::Position::WDL),
        ] {
            let (lo, hi) = model.material_range;
            assert!(lo < hi, "{name}");
            for material in [lo, (lo + hi) / 2, hi] {
                let (a, b) = model.parameters(material);
                assert!(a > 0.0 && b > 0.0, "{name} {material}: a {a} b {b}");
                let even = model.wdl(Score::Cp(0), material);
                assert_eq!(even.win, even.loss, "{name}");
                let mut last = 0;
                for cp in (-1500..=1500).step_by(100) {
                    let w = model.wdl(Score::Cp(cp), material);
                    assert!(w.win >= last, "{name} {material} {cp}");
                    last = w.win;
                }
                assert!(model.wdl(Score::Cp(3000), material).win > 900, "{name}");
            }
        }
    }

    #[test]
    fn a_better_score_wins_more_and_mates_are_certain() {
        let mut last = 0;
        for cp in (-1000..=1000).step_by(50) {
            let w = MODEL.wdl(Score::Cp(cp), 30).win;
            assert!(w >= last, "{cp}");
            last = w;
        }
        assert_eq!(
            MODEL.wdl(Score::Cp(0), 30).win,
            MODEL.wdl(Score::Cp(0), 30).loss
        );
        assert_eq!(MODEL.wdl(Score::Mate(3), 30).win, 1000);
        assert_eq!(MODEL.wdl(Score::Mate(-1), 30).loss, 1000);
        // Fewer pieces: the same score wins more (a and b shrink).
        assert!(MODEL.wdl(Score::Cp(200), 8).win > MODEL.wdl(Score::Cp(200), 60).win);
    }
}
