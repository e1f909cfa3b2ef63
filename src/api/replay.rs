//! A request's game: where it comes from (`fen`, `moves` and `balances`,
//! or a `pgn` record read into the same), the notation its moves are read
//! in (chosen here and nowhere else), and every move checked, with the
//! words of a refusal.

use std::borrow::Cow;

use super::error::{hint_sentence, ApiError, Problem};
use super::record;
use super::requests::PositionFields;
use super::rules::rules_of;
use crate::pgn::{self, Record};
use crate::prose::{self, Prose};
use crate::variants::{
    Game, MoveError, NotationName, Outcome, PlayError, SetupError, Variant, Verdict,
};

/// The longest `moves` record a request may carry.
pub const MAX_MOVES: usize = 10_000;

/// Where a request's game comes from: its `fen`, `moves` and `balances`
/// (borrowed), or its `pgn` record read into the same.
pub struct Source<'a, V: Variant> {
    /// The start position.
    pub fen: Option<Cow<'a, str>>,
    /// The moves, as written.
    pub moves: Cow<'a, [String]>,
    /// Taxi chess: both balances.
    pub balances: Option<[u32; 2]>,
    /// The moves' notation.
    pub notation: Notation<V::Notation>,
    /// The record, when the game came as PGN.
    pub record: Option<Record>,
}

/// The source of a request's game.
pub fn source_of<V: Prose>(req: &impl PositionFields) -> Result<Source<'_, V>, ApiError> {
    let field_balances = req.balances().map(|b| [b.white, b.black]);
    let Some(text) = req.pgn() else {
        return Ok(Source {
            fen: req.fen().map(Cow::Borrowed),
            moves: Cow::Borrowed(req.moves()),
            balances: field_balances,
            notation: Notation::choose::<V>(None, req.notation())?,
            record: None,
        });
    };
    if req.fen().is_some() || !req.moves().is_empty() {
        return Err(ApiError::new(
            Problem::InvalidRequest,
            "pgn: send a game either as pgn or as fen and moves, not both",
        )
        .field("pgn"));
    }
    let record = pgn::read_record(text).map_err(|e| record::invalid(prose::pgn_error(&e)))?;
    from_record(record, field_balances, req.notation())
}

/// The source of a game read from a record: its `[FEN]`, its
/// `[Balances]` (else `balances`), its notation (see [`Notation::choose`]).
pub fn from_record<V: Prose>(
    record: Record,
    balances: Option<[u32; 2]>,
    notation: Option<NotationName>,
) -> Result<Source<'static, V>, ApiError> {
    let balances = record::balances(&record)?.or(balances);
    let notation = Notation::choose::<V>(Some(&record), notation)?;
    Ok(Source {
        fen: record.fen().map(|f| Cow::Owned(f.to_owned())),
        moves: Cow::Owned(record.move_texts()),
        balances,
        notation,
        record: Some(record),
    })
}

/// The notation of a request's moves, as far as the request says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation<N> {
    /// Named: by the record's `[Format]` tag or the request's `notation`.
    Named(N),
    /// Not named, no record: the variant's first.
    Default(N),
    /// Not named, a record: its first move decides, once the start
    /// position is known (see [`detect`]).
    FirstMove,
}

impl<N: Copy + Default> Notation<N> {
    /// The one choice of a request's notation: the notation the record's
    /// format fixes (DhtmlXQ and XQF give coordinates), the record's `[Format]` tag,
    /// else the request's `notation`, else (for a record) whatever the first
    /// move is written in, else the variant's first. A name the variant
    /// does not have is refused here.
    pub fn choose<V: Variant<Notation = N>>(
        record: Option<&Record>,
        asked: Option<NotationName>,
    ) -> Result<Notation<N>, ApiError> {
        if let Some(fixed) = record.and_then(|r| r.notation) {
            // The record's format writes its moves so (DhtmlXQ, XQF).
            return Ok(Notation::Named(notation_of::<V>(fixed)?));
        }
        Ok(match (record.and_then(|r| r.tag("Format")), asked) {
            (Some(tag), _) => Notation::Named(format_notation::<V>(tag)?),
            (None, Some(name)) => Notation::Named(notation_of::<V>(name)?),
            (None, None) if record.is_some() => Notation::FirstMove,
            (None, None) => Notation::Default(N::default()),
        })
    }

    /// The notation, asking the record's first move where it must.
    fn resolve<V: Variant<Notation = N>>(self, start: &V, first: Option<&str>) -> N {
        match self {
            Notation::Named(n) | Notation::Default(n) => n,
            Notation::FirstMove => detect(start, first),
        }
    }
}

/// A notation the request names: a name the variant does not have is
/// refused with the variant's own names.
fn notation_of<V: Variant>(name: NotationName) -> Result<V::Notation, ApiError> {
    V::notation(name).ok_or_else(|| {
        let known: Vec<String> = V::info()
            .notations
            .iter()
            .map(|n| match n.aliases {
                [] => n.name.as_str().to_owned(),
                aliases => format!(
                    "{} (or {})",
                    n.name.as_str(),
                    aliases
                        .iter()
                        .map(|a| a.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
            .collect();
        ApiError::new(
            Problem::InvalidNotation,
            format!(
                "notation: '{}' is not a notation of {}; use one of: {}",
                name.as_str(),
                V::ID,
                known.join(", ")
            ),
        )
        .field("notation")
    })
}

/// The notation a `[Format]` tag names (`ICCS`, `WXF`, `Chinese`, …).
fn format_notation<V: Variant>(tag: &str) -> Result<V::Notation, ApiError> {
    NotationName::parse(tag)
        .and_then(V::notation)
        .ok_or_else(|| {
            let known: Vec<String> = V::info()
                .notations
                .iter()
                .map(|n| n.name.as_str().to_uppercase())
                .collect();
            record::invalid(format!(
                "the [Format] tag '{tag}' names no notation of {}; use one of: {}",
                V::ID,
                known.join(", ")
            ))
        })
}

/// The notation of a record that does not say: the first of the
/// variant's notations (SAN first, PGN's own) in which the first move is
/// legal, else in which it can be read; else the first. A first token
/// that holds a move pair (`C2.5H8+7`) is split as the notation splits it.
pub fn detect<V: Variant>(start: &V, first: Option<&str>) -> V::Notation {
    let mut names: Vec<NotationName> = V::info().notations.iter().map(|n| n.name).collect();
    names.sort_by_key(|&n| n != NotationName::San);
    let notations: Vec<V::Notation> = names.iter().filter_map(|&n| V::notation(n)).collect();
    let fallback = notations.first().copied().unwrap_or_default();
    let Some(text) = first else {
        return fallback;
    };
    let tried: Vec<_> = notations
        .iter()
        .map(|&n| {
            let first = V::split_record_token(text, n).swap_remove(0);
            (n, start.parse_move(&first, n))
        })
        .collect();
    tried
        .iter()
        .find(|(_, r)| r.is_ok())
        .or_else(|| {
            tried
                .iter()
                .find(|(_, r)| r.as_ref().is_err_and(|e| !e.is_syntax()))
        })
        .map_or(fallback, |(n, _)| *n)
}

/// How a request's record may end.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// Every move before the end of the game (legal-moves, validate, analyze).
    ToTheEnd,
    /// Moves after the end are accepted and checked (adjudicate).
    PastTheEnd,
}

/// A request's game, replayed.
pub struct Replayed<V: Variant> {
    /// The game.
    pub game: Game<V>,
    /// How many moves of the record followed the end of the game.
    pub after_end: usize,
    /// The notation the moves were read in (and the answer's).
    pub notation: V::Notation,
    /// Whether the request or its record named the notation.
    pub named: bool,
    /// The record, when the game came as PGN.
    pub record: Option<pgn::Record>,
}

impl<V: Variant> Replayed<V> {
    /// The notation of the game written as PGN: chess's PGN speaks SAN
    /// unless the request or record says otherwise.
    pub fn pgn_notation(&self) -> V::Notation {
        match V::notation(NotationName::San) {
            Some(san) if !self.named => san,
            _ => self.notation,
        }
    }
}

/// Builds the game of a request: rules, start position (from `fen` or a
/// `pgn` record), and every move checked.
pub fn replay<V: Prose>(
    req: &impl PositionFields,
    extent: Extent,
) -> Result<Replayed<V>, ApiError> {
    replay_from(source_of::<V>(req)?, req.rules(), extent)
}

/// The game a request describes, every move before its end.
pub fn game_of<V: Prose>(req: &impl PositionFields) -> Result<Replayed<V>, ApiError> {
    replay::<V>(req, Extent::ToTheEnd)
}

/// Builds a game from where it comes from and its `rules`, every move
/// checked.
pub fn replay_from<V: Prose>(
    mut source: Source<'_, V>,
    rules: Option<&serde_json::Value>,
    extent: Extent,
) -> Result<Replayed<V>, ApiError> {
    let from_pgn = source.record.is_some();
    if source.moves.len() > MAX_MOVES {
        return Err(ApiError::new(
            Problem::TooManyMoves,
            format!(
                "{}: {} moves were sent; at most {MAX_MOVES} are accepted",
                if from_pgn { "pgn" } else { "moves" },
                source.moves.len()
            ),
        )
        .field(if from_pgn { "pgn" } else { "moves" }));
    }
    let rules = rules_of::<V>(rules)?;
    let start = V::setup(source.fen.as_deref(), &rules, source.balances).map_err(|e| match e {
        SetupError::Fen(e) if from_pgn => ApiError::new(
            Problem::InvalidFen,
            format!("pgn: the [FEN] tag: {}", e.message),
        )
        .field("pgn"),
        SetupError::Fen(e) => ApiError::invalid_fen(e),
        SetupError::Balances(e) => ApiError::new(
            Problem::InvalidBalances,
            format!("balances: {}", prose::balances_error::<V>(&e)),
        )
        .field(if from_pgn { "pgn" } else { "balances" }),
    })?;
    let notation = source
        .notation
        .resolve(&start, source.moves.first().map(String::as_str));
    if let Some(r) = &mut source.record {
        source.moves = record::split_moves::<V>(r, notation).into();
    }
    let moves = &source.moves;
    let mut game = Game::<V>::new(start, rules);
    let played = match extent {
        Extent::ToTheEnd => game.play_all(moves, notation).map(|()| 0),
        Extent::PastTheEnd => game.play_past_end(moves, notation),
    };
    // Past a mate or stalemate a record's moves are counted, not read (a
    // record writes the mated side's step into check as it resigns); a
    // program's move list that goes on is refused: the game was over.
    let played = match played {
        Ok(after) if after > 0 && source.record.is_none() => {
            let mut replies = Vec::new();
            game.current().legal_moves(&mut replies);
            match game.outcome().verdict() {
                Some(verdict) if replies.is_empty() => {
                    let index = moves.len() - after;
                    Err(PlayError::GameOver {
                        index,
                        text: moves[index].clone(),
                        verdict: verdict.clone(),
                    })
                }
                _ => Ok(after),
            }
        }
        other => other,
    };
    // How an error names a move: by index, or as the record numbers it.
    let label = |index: usize, text: &str| {
        let label = match &source.record {
            Some(r) => record::move_label(r, &game.positions()[0], index, text),
            None => format!("move {index} ('{text}')"),
        };
        format!("{}{label}", if from_pgn { "pgn: " } else { "" })
    };
    let field = |index: usize| {
        if from_pgn {
            "pgn".to_owned()
        } else {
            format!("moves[{index}]")
        }
    };
    let after_end = played.map_err(|e| match e {
        PlayError::Illegal {
            index,
            text,
            error,
            position,
        } => {
            let (why, hint) = refusal(&*position, &error, &text, notation);
            let problem = if error.is_syntax() {
                Problem::InvalidMove
            } else {
                Problem::IllegalMove
            };
            let mut err = ApiError::new(problem, format!("{}: {why}", label(index, &text)))
                .field(field(index));
            err.move_index = Some(index);
            err.reason_code = Some(error.code());
            err.notation_hint = hint;
            err.move_text = Some(text);
            err
        }
        PlayError::GameOver {
            index,
            text,
            verdict,
        } => {
            let outcome = Outcome::Ended(verdict.clone());
            let mut err = game_over::<V>(
                Problem::GameOver,
                format!(
                    "{} was played after the game had ended ({}): {}",
                    label(index, &text),
                    outcome.result(),
                    V::explain(&game, &verdict)
                ),
                &verdict,
            )
            .field(field(index));
            err.move_index = Some(index);
            err.move_text = Some(text);
            err
        }
    })?;
    Ok(Replayed {
        game,
        after_end,
        notation,
        named: matches!(source.notation, Notation::Named(_)),
        record: source.record,
    })
}

/// Why `text` is refused in `pos`, in words, and another notation of the
/// variant in which it is a legal move here (the words say so too).
pub fn refusal<V: Prose>(
    pos: &V,
    error: &MoveError<V::Why>,
    text: &str,
    notation: V::Notation,
) -> (String, Option<NotationName>) {
    let hint = V::info().notations.iter().map(|n| n.name).find(|&name| {
        V::notation(name)
            .is_some_and(|other| other != notation && pos.parse_move(text, other).is_ok())
    });
    let words = format!(
        "{}{}",
        prose::move_error(pos, error, text, notation),
        hint_sentence(text, hint)
    );
    (words, hint)
}

/// A game over: the verdict's words and figures on a problem.
pub fn game_over<V: Prose>(problem: Problem, detail: String, v: &Verdict) -> ApiError {
    ApiError::new(problem, detail).game::<V>(&Outcome::Ended(v.clone()))
}

/// The moves of a request's list (`searchmoves`, `exclude`) as moves of
/// the game's position: each must be legal there.
pub fn move_list<V: Prose>(
    game: &Game<V>,
    notation: V::Notation,
    field: &str,
    texts: &[String],
) -> Result<Vec<V::Move>, ApiError> {
    let pos = game.current();
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            pos.parse_move(text, notation).map_err(|error| {
                let (why, hint) = refusal(pos, &error, text, notation);
                let problem = if error.is_syntax() {
                    Problem::InvalidMove
                } else {
                    Problem::IllegalMove
                };
                let mut err = ApiError::new(problem, format!("{field}[{i}] ('{text}'): {why}"))
                    .field(format!("{field}[{i}]"));
                err.move_index = Some(i);
                err.reason_code = Some(error.code());
                err.notation_hint = hint;
                err.move_text = Some(text.clone());
                err
            })
        })
        .collect()
}
