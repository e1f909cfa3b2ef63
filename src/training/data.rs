//! Training positions as the trainer keeps them: the pieces, the side to
//! move, the search's score and the game's result, both from the side to
//! move. Read from the lines `training::datagen` writes
//! (`FEN | score | result`, Red's side).

use crate::search::eval::nnue::features::{mirror, pieces, MAX_ACTIVE};
use crate::variants::xiangqi::board::{Piece, Sq};
use crate::variants::xiangqi::{Position, Rules};
use crate::variants::{Color, Variant};

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// `(point, piece)`, the first `count` used.
    pieces: [(Sq, Piece); MAX_ACTIVE],
    count: u8,
    /// The side to move.
    pub side: Color,
    /// The search's score, centipawns, for the side to move.
    pub score: i16,
    /// The result for the side to move in half points: 0 lost, 1 drawn, 2 won.
    pub result: u8,
}

impl Sample {
    /// A sample of `pos` with a score and result for its side to move.
    pub fn new(pos: &Position, score: i16, result: u8) -> Sample {
        let mut s = Sample {
            pieces: [(0, 0); MAX_ACTIVE],
            count: 0,
            side: pos.side(),
            score,
            result,
        };
        for (point, piece) in pieces(pos).take(MAX_ACTIVE) {
            s.pieces[s.count as usize] = (point, piece);
            s.count += 1;
        }
        s
    }

    /// The pieces.
    pub fn pieces(&self) -> &[(Sq, Piece)] {
        &self.pieces[..self.count as usize]
    }

    /// The same position reflected left to right (as good a sample).
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for entry in &mut m.pieces[..self.count as usize] {
            entry.0 = mirror(entry.0);
        }
        m
    }

    /// Reads a line `FEN | score | result` (score and result from Red's side).
    pub fn parse(line: &str) -> Result<Sample, String> {
        let mut parts = line.split('|').map(str::trim);
        let (Some(fen), Some(score), Some(result), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(format!("expected `FEN | score | result`, found {line:?}"));
        };
        let pos = Position::from_fen(fen, &Rules::default()).map_err(|e| format!("{fen}: {e}"))?;
        let score: i32 = score.parse().map_err(|_| format!("bad score {score:?}"))?;
        let red_result = match result {
            "1" | "1.0" | "1-0" => 2,
            "0.5" | "1/2-1/2" => 1,
            "0" | "0.0" | "0-1" => 0,
            _ => return Err(format!("bad result {result:?} (1, 0.5 or 0)")),
        };
        let (score, result) = match pos.side() {
            Color::White => (score, red_result),
            Color::Black => (-score, 2 - red_result),
        };
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        Ok(Sample::new(&pos, score, result))
    }
}

/// Reads every line of `text`; `mirror` adds each position's reflection.
pub fn parse_all(text: &str, mirror: bool) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let s = Sample::parse(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(s);
        if mirror {
            out.push(s.mirrored());
        }
    }
    Ok(out)
}
