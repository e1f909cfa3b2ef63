//! The verification pass: every entry of a finished table held against
//! its children, one ply of minimax, before the table is kept.
//!
//! From the mover's side, each move's child gives a result one ply
//! longer. The entry must be: a mate win one ply beyond the fastest mate
//! the mover can force, if any; else a win under the rule one ply beyond
//! the nearest; else a draw if any move draws; else a loss, by mate one
//! ply beyond the slowest if every move is mated, or under the rule: one
//! ply beyond the farthest rule loss, or, where the rule itself decides,
//! at least as far as the farthest rule loss of a move that does not
//! check (its checks lead back into the rule's set, resolved after it,
//! and do not bound it). No legal move loses at 0; a position that
//! cannot be set up, or whose side not to move could be taken, is illegal
//! and only that. A draw's chase mark (`chase.rs`) must be what its
//! children give: [`Chase::Must`] where every move that does not lose
//! checks or chases into a draw marked for the other side to force (a
//! capture: into one the mover must keep by chasing), [`Chase::Forces`]
//! where a quiet move (or any capture) leads into a draw the other side
//! must keep by chasing, else none.

use super::entry::{Chase, Distance, Entry, ILLEGAL};
use super::index::Layout;
use super::tables::{Table, Tables};
use super::work::{in_parallel, GenerateError};
use crate::variants::xiangqi::board::EMPTY;
use crate::variants::xiangqi::Position;
use crate::variants::{Color, Variant};

/// Verifies `table`, whose captures lead to `tables`.
pub(super) fn verify(table: &Table, tables: &Tables) -> Result<(), GenerateError> {
    let layout = &table.layout;
    for side in [Color::White, Color::Black] {
        let parts = in_parallel(layout.size(), |range| {
            let mut bad = 0u64;
            let mut first = None;
            for i in range {
                if let Err(why) = check(table, tables, layout, side, i) {
                    bad += 1;
                    first.get_or_insert(why);
                }
            }
            (bad, first)
        });
        let count: u64 = parts.iter().map(|p| p.0).sum();
        if count > 0 {
            let first = parts.into_iter().find_map(|p| p.1).unwrap_or_default();
            return Err(GenerateError::Unverified {
                material: table.material,
                count,
                first,
            });
        }
    }
    Ok(())
}

/// One entry against its children; the error says which and why.
fn check(
    table: &Table,
    tables: &Tables,
    layout: &Layout,
    side: Color,
    index: u64,
) -> Result<(), String> {
    let code = table.values[side.index()][index as usize];
    let Some(mut pos) = layout.position(index, side) else {
        return if code == ILLEGAL {
            Ok(())
        } else {
            Err(format!(
                "index {index} ({side:?} to move) cannot be set up but is {code}"
            ))
        };
    };
    let entry = Entry::of(code);
    let before = pos.clone();
    let mut moves = Vec::with_capacity(48);
    pos.legal(&mut moves);
    // The chase marks, one ply deep (`chase.rs`): every move that does not
    // lose checks or chases into a draw the other side answers quietly
    // (a capture: into a draw the mover must keep by chasing)...
    let mut must = true;
    // ... or some quiet move (a capture: any) leads where the other side
    // must chase.
    let mut forces = false;
    let mut mate_win: Option<u16> = None;
    let mut rule_win: Option<u16> = None;
    let mut draw = false;
    let mut mate_loss: Option<u16> = None;
    let mut rule_loss: Option<u16> = None;
    // The farthest loss under the rule of a move that does not check.
    let mut quiet_rule_loss = 0;
    for &m in &moves {
        let captured = pos.piece_at(m.to) != EMPTY;
        let undo = pos.make(m);
        let child = if captured {
            tables.code(&pos)
        } else {
            table.code(&pos)
        };
        let check = pos.general_attacked(pos.side());
        let result = child.map(|c| Entry::of(c).before());
        let chases = || !Position::chased_by(&before, m, &pos).is_empty();
        match result {
            Some(Entry::Loss(_)) | None => {}
            Some(Entry::Draw(Chase::Must)) if captured || check || chases() => {}
            Some(Entry::Draw(Chase::Forces)) if captured || !(check || chases()) => {
                must = false;
                forces = true;
            }
            Some(_) => must = false,
        }
        pos.unmake(m, undo);
        let Some(result) = result else {
            return Err(format!("{}: a move leads out of every table", pos.to_fen()));
        };
        match result {
            Entry::Win(Distance::Mate(n)) => mate_win = Some(mate_win.map_or(n, |b| b.min(n))),
            Entry::Win(Distance::Rule(n)) => rule_win = Some(rule_win.map_or(n, |b| b.min(n))),
            Entry::Draw(_) | Entry::Illegal => draw = true,
            Entry::Loss(Distance::Mate(n)) => {
                mate_loss = Some(mate_loss.map_or(n, |b| b.max(n)));
                continue;
            }
            Entry::Loss(Distance::Rule(n)) => {
                rule_loss = Some(rule_loss.map_or(n, |b| b.max(n)));
                if !check {
                    quiet_rule_loss = quiet_rule_loss.max(n);
                }
            }
        }
    }
    let expected = if moves.is_empty() {
        Entry::Loss(Distance::Mate(0))
    } else if let Some(n) = mate_win {
        Entry::Win(Distance::Mate(n))
    } else if let Some(n) = rule_win {
        Entry::Win(Distance::Rule(n))
    } else if draw {
        Entry::Draw(if must {
            Chase::Must
        } else if forces {
            Chase::Forces
        } else {
            Chase::Free
        })
    } else if let Some(n) = rule_loss {
        // Where the rule itself decides, the checks lead back into the
        // set the rule found (resolved after it): only the moves that do
        // not check bound the distance.
        match entry {
            Entry::Loss(Distance::Rule(e)) if e >= quiet_rule_loss => return Ok(()),
            _ => {}
        }
        Entry::Loss(Distance::Rule(n))
    } else {
        Entry::Loss(Distance::Mate(mate_loss.unwrap_or(0)))
    };
    if entry == expected {
        Ok(())
    } else {
        Err(format!(
            "{}: {entry:?}, its children say {expected:?}",
            pos.to_fen()
        ))
    }
}
