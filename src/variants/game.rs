//! A game record: a start position and the moves played since, replayed with
//! every rule checked. This is what the API builds from `fen` + `moves`.

use super::{FenError, MoveError, Outcome, Variant};

/// Why a move of a game record could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move at `index` is unreadable or illegal.
    Illegal {
        index: usize,
        text: String,
        error: MoveError,
    },
    /// The game had already ended before the move at `index`.
    GameOver {
        index: usize,
        text: String,
        outcome: Outcome,
    },
}

/// A start position plus the moves played from it, each one legal.
#[derive(Clone, Debug)]
pub struct Game<V: Variant> {
    rules: V::Rules,
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<V>,
    moves: Vec<V::Move>,
}

impl<V: Variant> Game<V> {
    pub fn new(start: V, rules: V::Rules) -> Game<V> {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The game from `fen`, or from the variant's start position.
    pub fn from_fen(fen: Option<&str>, rules: V::Rules) -> Result<Game<V>, FenError> {
        let start = match fen {
            Some(fen) => V::from_fen(fen, &rules)?,
            None => V::start_position(&rules),
        };
        Ok(Game::new(start, rules))
    }

    pub fn rules(&self) -> &V::Rules {
        &self.rules
    }

    pub fn current(&self) -> &V {
        self.positions
            .last()
            .expect("a game has at least its start position")
    }

    pub fn positions(&self) -> &[V] {
        &self.positions
    }

    pub fn moves(&self) -> &[V::Move] {
        &self.moves
    }

    pub fn outcome(&self) -> Outcome {
        let mut moves = Vec::new();
        self.current().legal_moves(&mut moves);
        V::adjudicate(self, !moves.is_empty())
    }

    /// Plays a move already known to be legal in the current position.
    pub fn play(&mut self, mv: V::Move) {
        let mut next = self.current().clone();
        next.make_move(mv);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Reads, checks and plays one move of a record; `index` is its place in
    /// the record, for the error.
    pub fn play_text(
        &mut self,
        index: usize,
        text: &str,
        notation: V::Notation,
    ) -> Result<V::Move, PlayError> {
        // A legal move proves the side to move has one, which spares the
        // adjudication a move generation; a refused move may be refused
        // because the game is over, which is the better thing to report.
        let (parsed, outcome) = match self.current().parse_move(text, notation) {
            Ok(mv) => (Ok(mv), V::adjudicate(self, true)),
            Err(error) => (Err(error), self.outcome()),
        };
        if !outcome.is_ongoing() {
            return Err(PlayError::GameOver {
                index,
                text: text.to_owned(),
                outcome,
            });
        }
        let mv = parsed.map_err(|error| PlayError::Illegal {
            index,
            text: text.to_owned(),
            error,
        })?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays a whole record that may run past the end of the game (a game
    /// site that did not apply the rules sends the moves after the verdict
    /// too): the game stops where it ended, and every move after that is
    /// still read and checked for legality, on a board that plays on. Returns
    /// how many moves followed the end.
    pub fn play_past_end<S: AsRef<str>>(
        &mut self,
        moves: &[S],
        notation: V::Notation,
    ) -> Result<usize, PlayError> {
        for (index, text) in moves.iter().enumerate() {
            match self.play_text(index, text.as_ref(), notation) {
                Ok(_) => {}
                Err(PlayError::GameOver { .. }) => {
                    let mut board = self.current().clone();
                    for (i, text) in moves.iter().enumerate().skip(index) {
                        let mv = board.parse_move(text.as_ref(), notation).map_err(|error| {
                            PlayError::Illegal {
                                index: i,
                                text: text.as_ref().to_owned(),
                                error,
                            }
                        })?;
                        board.make_move(mv);
                    }
                    return Ok(moves.len() - index);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(0)
    }

    /// Plays a whole record.
    pub fn play_all<S: AsRef<str>>(
        &mut self,
        moves: &[S],
        notation: V::Notation,
    ) -> Result<(), PlayError> {
        for (index, text) in moves.iter().enumerate() {
            self.play_text(index, text.as_ref(), notation)?;
        }
        Ok(())
    }
}
