//! A game record: a start position and the moves played since, replayed with
//! every rule checked. This is what the API builds from `fen` + `moves`.

use super::{FenError, MoveError, Outcome, Played, Repeats, Variant, Verdict};

/// Why a move of a game record could not be played. Like shakmaty's
/// `PlayError`, a refusal hands back the position it was refused in, so a
/// caller can explain it without replaying the game.
#[derive(Clone, Debug)]
pub enum PlayError<V: Variant> {
    /// The move at `index` is unreadable or illegal.
    Illegal {
        /// Its place in the record.
        index: usize,
        /// The move as sent.
        text: String,
        /// Why.
        error: MoveError<V::Why>,
        /// The position the move was refused in (past the end of a game, the
        /// board the record plays on).
        position: Box<V>,
    },
    /// The game had already ended before the move at `index`.
    GameOver {
        /// Its place in the record.
        index: usize,
        /// The move as sent.
        text: String,
        /// How the game had ended.
        verdict: Verdict,
    },
}

/// A repetition ruling that the game played on past: under rules whose
/// `repetition_ends_game` is false (over-the-board records), where the
/// arbiter tells the offender to change and play continues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionEvent {
    /// The ply at which the ruling was due (0 = the start position).
    pub ply: usize,
    /// What the rules ruled there.
    pub verdict: Verdict,
}

/// A start position plus the moves played from it, each one legal.
#[derive(Clone, Debug)]
pub struct Game<V: Variant> {
    rules: V::Rules,
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<V>,
    moves: Vec<V::Move>,
    /// Repetition rulings played past, one per run of consecutive plies
    /// that repeat (a cycle played on is ruled again at every ply).
    events: Vec<RepetitionEvent>,
    /// The last ply at which a ruling was played past.
    last_ruling: Option<usize>,
    /// The verdict that stopped a record at the current position, when a
    /// repetition ruling there was played past (the record went on) and
    /// another rule ended the game: that rule's verdict, not the ruling's.
    stopped: Option<Verdict>,
}

impl<V: Variant> Game<V> {
    /// A game at its start.
    pub fn new(start: V, rules: V::Rules) -> Game<V> {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
            events: Vec::new(),
            last_ruling: None,
            stopped: None,
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

    /// The rules it is played by.
    pub fn rules(&self) -> &V::Rules {
        &self.rules
    }

    /// The position now.
    pub fn current(&self) -> &V {
        self.positions
            .last()
            .expect("a game has at least its start position")
    }

    /// Every position, the start first.
    pub fn positions(&self) -> &[V] {
        &self.positions
    }

    /// Every move played.
    pub fn moves(&self) -> &[V::Move] {
        &self.moves
    }

    /// The repetition rulings the game played on past (only under rules
    /// whose repetition does not end the game), in order.
    pub fn repetition_events(&self) -> &[RepetitionEvent] {
        &self.events
    }

    /// The plies at which the current position stood (itself included),
    /// since the last move that cannot be undone.
    pub fn occurrences(&self) -> Vec<usize> {
        occurrences_of(&self.positions)
    }

    /// The state of the game: the variant's verdict on the current position
    /// (or, where a record went on past a repetition ruling here and another
    /// rule ended the game, that rule's verdict).
    pub fn outcome(&self) -> Outcome {
        if let Some(v) = &self.stopped {
            return Outcome::Ended(v.clone());
        }
        let mut moves = Vec::new();
        self.current().legal_moves(&mut moves);
        self.verdict(!moves.is_empty()).into()
    }

    /// The game as played so far, as a verdict reads it.
    pub fn played(&self) -> Played<'_, V> {
        Played {
            positions: &self.positions,
            moves: &self.moves,
            rules: &self.rules,
        }
    }

    /// The variant's verdict, given whether the side to move has a legal move.
    pub fn verdict(&self, has_legal_move: bool) -> Option<Verdict> {
        V::verdict(
            self.played(),
            has_legal_move,
            &Repeats::Occurrences(self.occurrences()),
        )
    }

    /// Draws a player may claim now.
    pub fn claimable_draws(&self) -> Vec<super::Reason> {
        V::claimable_draws(&self.positions, self.occurrences().len())
    }

    /// What playing the legal move `mv` would bring about by making a
    /// position stand again: the verdict, when the rules give one then and
    /// it is a repetition verdict (a move that ends the game otherwise, by
    /// mate say, is not a repetition).
    pub fn repetition_verdict_after(&self, mv: V::Move) -> Option<Verdict> {
        let mut next = self.current().clone();
        next.make_move(mv);
        // Cheap filter first: the position must have stood before.
        let window = next.reversible_plies();
        let start = self.positions.len().saturating_sub(window);
        if !self.positions[start..]
            .iter()
            .any(|p| p.same_position(&next))
        {
            return None;
        }
        let mut positions = self.positions.clone();
        positions.push(next);
        let mut moves = self.moves.clone();
        moves.push(mv);
        let occurrences = occurrences_of(&positions);
        let mut replies = Vec::new();
        positions
            .last()
            .expect("the new position")
            .legal_moves(&mut replies);
        let played = Played {
            positions: &positions,
            moves: &moves,
            rules: &self.rules,
        };
        V::verdict(
            played,
            !replies.is_empty(),
            &Repeats::Occurrences(occurrences),
        )
        .filter(is_repetition)
    }

    /// A repetition ruling on the current position, under rules that play
    /// on past it: recorded as an event (once per run of consecutive
    /// ruled plies), and the verdict of every other rule returned instead
    /// (the move limit, say, may still end the game here).
    fn rule_and_play_on(&mut self, verdict: Verdict, has_legal_move: bool) -> Option<Verdict> {
        let ply = self.moves.len();
        if self.last_ruling.is_none_or(|last| last + 1 != ply) {
            self.events.push(RepetitionEvent { ply, verdict });
        }
        self.last_ruling = Some(ply);
        let has_legal_move = has_legal_move || {
            let mut moves = Vec::new();
            self.current().legal_moves(&mut moves);
            !moves.is_empty()
        };
        V::verdict(self.played(), has_legal_move, &Repeats::None)
    }

    /// Plays a move already known to be legal in the current position.
    pub fn play(&mut self, mv: V::Move) {
        self.stopped = None;
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
    ) -> Result<V::Move, PlayError<V>> {
        // A legal move proves the side to move has one, which spares the
        // verdict a move generation; a refused move may be refused because
        // the game is over, which is the better thing to report.
        let (parsed, verdict) = match self.current().parse_move(text, notation) {
            Ok(mv) => (Ok(mv), self.verdict(true)),
            Err(error) => (Err(error), self.outcome().verdict().cloned()),
        };
        let verdict = match verdict {
            Some(v) if is_repetition(&v) && !V::repetition_ends_game(&self.rules) => {
                let other = self.rule_and_play_on(v, parsed.is_ok());
                self.stopped.clone_from(&other);
                other
            }
            other => other,
        };
        if let Some(verdict) = verdict {
            return Err(PlayError::GameOver {
                index,
                text: text.to_owned(),
                verdict,
            });
        }
        let mv = parsed.map_err(|error| PlayError::Illegal {
            index,
            text: text.to_owned(),
            error,
            position: Box::new(self.current().clone()),
        })?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays a whole record that may run past the end of the game (a game
    /// site that did not apply the rules sends the moves after the verdict
    /// too): the game stops where it ended, and every move after that is
    /// still read and checked for legality, on a board that plays on. Where
    /// the side to move has no move at all (mate, stalemate), no board plays
    /// on: the moves after are counted, not read (real records write the
    /// mated side's last step into check, 帥五進一, as it resigns). Returns
    /// how many moves followed the end.
    pub fn play_past_end<S: AsRef<str>>(
        &mut self,
        moves: &[S],
        notation: V::Notation,
    ) -> Result<usize, PlayError<V>> {
        for (index, text) in moves.iter().enumerate() {
            match self.play_text(index, text.as_ref(), notation) {
                Ok(_) => {}
                Err(PlayError::GameOver { .. }) => {
                    let mut board = self.current().clone();
                    let mut any = Vec::new();
                    board.legal_moves(&mut any);
                    if any.is_empty() {
                        return Ok(moves.len() - index);
                    }
                    for (i, text) in moves.iter().enumerate().skip(index) {
                        let mv = board.parse_move(text.as_ref(), notation).map_err(|error| {
                            PlayError::Illegal {
                                index: i,
                                text: text.as_ref().to_owned(),
                                error,
                                position: Box::new(board.clone()),
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
    ) -> Result<(), PlayError<V>> {
        for (index, text) in moves.iter().enumerate() {
            self.play_text(index, text.as_ref(), notation)?;
        }
        Ok(())
    }
}

/// Whether a verdict is a repetition ruling (a verdict that a move ends
/// otherwise, by mate say, is not).
fn is_repetition(v: &Verdict) -> bool {
    v.repetition.is_some() || v.reason.is_repetition()
}

/// The plies at which the last of `positions` stood (itself included), since
/// the last move that cannot be undone.
fn occurrences_of<V: Variant>(positions: &[V]) -> Vec<usize> {
    let last = positions.len() - 1;
    let current = &positions[last];
    let earliest = last.saturating_sub(current.reversible_plies());
    // Every ply hands the move over, so only every second position can be
    // the same as the last.
    let mut at = Vec::new();
    let mut i = last;
    loop {
        if positions[i].same_position(current) {
            at.push(i);
        }
        if i < earliest + 2 {
            break;
        }
        i -= 2;
    }
    at.reverse();
    at
}
