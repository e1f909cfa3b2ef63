//! Results turned into response bodies, once for every variant: a game's
//! status and position, its legal moves in every notation, a repetition's
//! grounds, a variant's description, a search's lines; words from
//! [`crate::prose`].

use super::record;
use super::replay::Replayed;
use super::responses::*;
use super::wire::{Balances, ConductCode, MoverOutcome, Status};
use crate::dispatch::Playable;
use crate::pgn;
use crate::prose::{self, Prose};
use crate::search::Score;
use crate::variants::{Color, Game, Outcome, Pattern, RepetitionReport, Variant, WarningCode};

/// Whether the game goes on, and if not, how it ended, in figures and words.
pub fn status<V: Prose>(game: &Game<V>, outcome: &Outcome) -> GameStatus {
    let side = |c: Color| V::side(c);
    GameStatus {
        status: match outcome {
            Outcome::Ongoing => Status::Ongoing,
            Outcome::Ended(v) if v.winner.is_some() => Status::Decisive,
            Outcome::Ended(_) => Status::Drawn,
        },
        result: outcome.result(),
        winner: outcome.winner().map(side),
        reason: outcome.reason(),
        explanation: prose::outcome(game, outcome),
        claimable_draws: if outcome.is_ongoing() {
            game.claimable_draws()
                .into_iter()
                .map(|reason| ClaimableDraw {
                    reason,
                    explanation: V::claimable(game, reason),
                })
                .collect()
        } else {
            Vec::new()
        },
        repetition: outcome.repetition().map(|r| repetition_doc(game, r)),
    }
}

/// A repetition verdict's grounds, as the answer gives them.
pub fn repetition_doc<V: Prose>(game: &Game<V>, r: &RepetitionReport) -> RepetitionDoc {
    let side = |c: Color| V::side(c);
    RepetitionDoc {
        occurrences: r.occurrences.clone(),
        cycle: PlyRange {
            from_ply: r.cycle.0,
            to_ply: r.cycle.1,
        },
        in_breach: r.in_breach.map(side),
        sides: [Color::White, Color::Black]
            .into_iter()
            .zip(&r.conduct)
            .map(|(c, conduct)| SideConduct {
                side: side(c),
                conduct: match conduct.pattern {
                    Pattern::PerpetualCheck => ConductCode::PerpetualCheck,
                    Pattern::PerpetualChase => ConductCode::PerpetualChase,
                    Pattern::Allowed => ConductCode::Allowed,
                    _ => ConductCode::Forbidden,
                },
                pattern: conduct.pattern,
                term: conduct.pattern.chinese_term().to_owned(),
                natures: conduct.natures.clone(),
                chased: conduct
                    .chased
                    .iter()
                    .map(|&s| {
                        let (square, piece) = V::chased(&game.positions()[r.cycle.1], s);
                        ChasedPiece { square, piece }
                    })
                    .collect(),
                joint_chase: conduct.joint,
            })
            .collect(),
    }
}

/// The position a request's game reached: its state, the repetition
/// rulings it played past, and remarks on the request (`record`: its
/// damaged tags).
pub fn summary<V: Playable>(
    game: &Game<V>,
    outcome: &Outcome,
    record: Option<&pgn::Record>,
    notation: V::Notation,
) -> PositionSummary {
    let pos = game.current();
    let start = &game.positions()[0];
    let record_warnings = record
        .into_iter()
        .flat_map(|r| &r.warnings)
        .map(|w| WarningDoc {
            code: match w {
                pgn::PgnWarning::DamagedTag { .. } => WarningCode::DamagedTag,
                pgn::PgnWarning::Trailer { .. } => WarningCode::Trailer,
                pgn::PgnWarning::NoMoves => WarningCode::NoMoves,
                pgn::PgnWarning::DuplicateTag { .. } => WarningCode::DuplicateTag,
                pgn::PgnWarning::VariationsSkipped { .. } => WarningCode::VariationsSkipped,
            },
            message: prose::pgn_warning(w),
        });
    PositionSummary {
        fen: pos.to_fen(),
        side_to_move: V::side(pos.side_to_move()),
        in_check: pos.in_check(),
        plies: game.moves().len(),
        balances: pos
            .balances()
            .map(|[white, black]| Balances { white, black }),
        status: status(game, outcome),
        repetition_events: game
            .repetition_events()
            .iter()
            .map(|e| {
                let ruled = Outcome::Ended(e.verdict.clone());
                RepetitionEventDoc {
                    ply: e.ply,
                    result: ruled.result(),
                    winner: e.verdict.winner.map(|c| V::side(c)),
                    reason: e.verdict.reason,
                    explanation: V::explain(game, &e.verdict),
                    repetition: e
                        .verdict
                        .repetition
                        .as_deref()
                        .map(|r| repetition_doc(game, r)),
                }
            })
            .collect(),
        warnings: start
            .warnings()
            .iter()
            .map(|w| WarningDoc {
                code: w.code,
                message: V::warning(start, w),
            })
            .chain(record_warnings)
            .collect(),
        record_format: record.map(|r| r.format),
        tablebase: tablebase_doc(pos, notation),
    }
}

/// The legal moves `moves` of the game's position, every notation and mark.
pub fn legal_moves_of<V: Prose>(
    game: &Game<V>,
    moves: &[V::Move],
    notation: V::Notation,
) -> Vec<LegalMove> {
    let pos = game.current();
    let mover = pos.side_to_move();
    pos.describe_moves(moves, notation)
        .into_iter()
        .zip(moves)
        .map(|(d, &mv)| {
            let repetition = repetition_mark(game, mover, mv);
            LegalMove {
                mv: d.wire,
                written: Written::of(d.written),
                cost: d.cost,
                capture: d.capture,
                check: d.gives_check,
                forbidden_repetition: repetition
                    .as_ref()
                    .is_some_and(|r| r.outcome == MoverOutcome::Loss),
                repetition,
            }
        })
        .collect()
}

/// What the repetition rules would rule if `mv` (a move of `mover`, to
/// move in the game) completed a third occurrence; `None` if it does not.
pub fn repetition_mark<V: Variant>(
    game: &Game<V>,
    mover: Color,
    mv: V::Move,
) -> Option<RepetitionMark> {
    game.repetition_verdict_after(mv).map(|v| RepetitionMark {
        outcome: match v.winner {
            Some(w) if w == mover => MoverOutcome::Win,
            Some(_) => MoverOutcome::Loss,
            None => MoverOutcome::Draw,
        },
        reason: v.reason,
    })
}

/// The JSON result of a replayed game.
pub fn adjudged<V: Playable>(r: &Replayed<V>) -> AdjudicateResponse {
    let outcome = r.game.outcome();
    let recorded = r.record.as_ref().and_then(record::recorded_result);
    AdjudicateResponse {
        variant: V::ID,
        ended_at_ply: (!outcome.is_ongoing()).then(|| r.game.moves().len()),
        moves_after_end: r.after_end,
        recorded_result: recorded,
        recorded_result_agrees: recorded.map(|g| g == outcome.result()),
        position: summary(&r.game, &outcome, r.record.as_ref(), r.notation),
    }
}

/// A search's score as the answer gives it.
pub fn score_doc(score: Score) -> ScoreDoc {
    match score {
        Score::Cp(v) => ScoreDoc {
            cp: Some(v),
            mate: None,
        },
        Score::Mate(n) => ScoreDoc {
            cp: None,
            mate: Some(n),
        },
    }
}

/// One NDJSON line: the value's JSON and a newline.
pub fn ndjson<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut line = serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec());
    line.push(b'\n');
    line
}

/// What the endgame tables say of a position and its moves, in
/// `notation`; `None` outside them (and for variants without tables).
pub fn tablebase_doc<V: Playable>(pos: &V, notation: V::Notation) -> Option<TablebaseProbe> {
    let probed = pos.probe_tables()?;
    let write = |m| pos.write_move(m, notation);
    Some(TablebaseProbe {
        table: probed.material.name(),
        result: probed.entry.into(),
        best_move: probed.moves.first().map(|m| write(m.mv)),
        moves: probed
            .moves
            .iter()
            .map(|m| TablebaseMove {
                mv: write(m.mv),
                capture: m.capture,
                result: m.entry.into(),
            })
            .collect(),
    })
}
