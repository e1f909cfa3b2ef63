//! The end of a Xiangqi game: the one verdict the adjudication and the
//! search both ask, with the precedence of `docs/rules/xiangqi.md`.

use std::sync::OnceLock;

use super::repetition::{chinese, judge_span, Span};
use super::rules::TablebaseAdjudication;
use super::{Position, RepetitionRule, Rules};
use crate::variants::{Color, Played, Reason, Repeats, Verdict};

/// What endgame tables say of a position with best play, as far as a
/// verdict needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableResult {
    /// Neither side can force a win.
    Draw,
    /// This side wins (by mate, or because the loser could hold out only
    /// by checking for ever).
    Win(Color),
}

/// Looks a position up in endgame tables as a game under the rules goes:
/// `None` outside them, and where the rules could change their result (a
/// win the move limit or the Chinese nine-move rule could cut).
pub type TableOracle = fn(&Position, &Rules) -> Option<TableResult>;

static TABLES: OnceLock<TableOracle> = OnceLock::new();

/// Lets the rule option `tablebase_adjudication` consult `oracle` (the
/// tables live above the rules core, which only knows this hook). Once per
/// process; `false` when an oracle was already set. Without one the option
/// ends no game.
pub fn set_table_oracle(oracle: TableOracle) -> bool {
    TABLES.set(oracle).is_ok()
}

/// No legal move loses (checkmate or stalemate); then a repetition verdict
/// (and, under the Chinese rules, the nine-move rule); then insufficient
/// material; then the move limit; then, where the rules ask for it, the
/// endgame tables.
pub fn verdict(
    played: Played<Position>,
    has_legal_move: bool,
    repeats: &Repeats,
) -> Option<Verdict> {
    let Played {
        positions,
        moves,
        rules,
    } = played;
    let pos = positions.last().expect("a game has a position");
    let us = pos.side();
    if !has_legal_move {
        return Some(Verdict::no_legal_move(us, pos.general_attacked(us)));
    }
    let judge = |span: Span| match rules.repetition {
        RepetitionRule::Chinese => chinese::judge_span(span),
        _ => judge_span(span),
    };
    let repetition = match (rules.repetition, repeats) {
        // Without repetition rules the search still scores a cycle as a
        // draw: playing it again changes nothing.
        (RepetitionRule::None, Repeats::Cycle { .. }) => Some(Verdict::draw(Reason::Repetition)),
        (RepetitionRule::None, _) => None,
        (_, Repeats::Occurrences(at)) if at.len() >= 3 => {
            Some(judge(Span::of_occurrences(positions, moves, at)))
        }
        (_, Repeats::Cycle { from }) => Some(judge(Span::cycle(positions, moves, *from))),
        _ => None,
    };
    if let Some(v) = repetition {
        return Some(no_early_draw(v, pos, rules));
    }
    if rules.repetition == RepetitionRule::Chinese {
        if let Repeats::Occurrences(_) = repeats {
            if let Some(v) = chinese::nine_forbidden_moves(positions, moves) {
                return Some(v);
            }
        }
    }
    if !pos.has_mating_material() {
        return Some(Verdict::draw(Reason::InsufficientMaterial));
    }
    let limit = rules.move_limit_plies;
    if limit > 0 && pos.halfmove_clock() >= limit {
        return Some(Verdict::draw(Reason::MoveLimit));
    }
    by_tables(pos, rules)
}

/// The tables' verdict under `tablebase_adjudication`: the rules' own
/// endings come first, so this is asked last.
fn by_tables(pos: &Position, rules: &Rules) -> Option<Verdict> {
    if rules.tablebase_adjudication == TablebaseAdjudication::None {
        return None;
    }
    let winner = match (TABLES.get()?)(pos, rules)? {
        TableResult::Win(winner) => Some(winner),
        TableResult::Draw => None,
    };
    match (winner, rules.tablebase_adjudication) {
        (None, _) => Some(Verdict::draw(Reason::TablebaseDraw)),
        (Some(w), TablebaseAdjudication::All) => Some(Verdict::win(w, Reason::TablebaseWin)),
        _ => None,
    }
}

/// The tournament option: a repetition that would be drawn before the move
/// `no_repetition_draw_before_move` is lost by Red, who had to change.
fn no_early_draw(mut v: Verdict, pos: &Position, rules: &Rules) -> Verdict {
    let before = rules.no_repetition_draw_before_move;
    if v.winner.is_some() || before == 0 || pos.fullmove_number() >= before {
        return v;
    }
    v.reason = Reason::EarlyRepetition;
    v.winner = Some(Color::Black);
    if let Some(report) = v.repetition.as_deref_mut() {
        report.in_breach = Some(Color::White);
    }
    v
}
