//! Retrograde analysis of one material: every position's distance to mate
//! for both sides to move, then what the perpetual-check rule decides,
//! then a verification pass before the table is handed back.
//!
//! 1. **Seed.** Every position is set up and its legal moves counted.
//!    A position with none is lost (mate, or stalemate: Xiangqi's
//!    stalemate loses). A capture leaves the table: its result is read
//!    from the smaller table it leads to (generated before).
//! 2. **Mates, level by level.** A position resolved at level `n` is
//!    unmoved: each predecessor (the other side to move, a non-capture
//!    taken back, kept only when legal) wins at `n + 1` if the position
//!    lost, and otherwise has one move fewer left that does not lose; at
//!    none it loses at `n + 1` (or later, when a capture loses later).
//! 3. **The perpetual-check rule.** What is left is drawn unless the rule
//!    decides it (`rule.rs`): a side whose every move either loses or
//!    checks, into positions from which the other side can come back
//!    without checking, can only check for ever and loses. Those losses
//!    are unmoved as in 2, on a scale of their own ([`Distance::Rule`](super::Distance::Rule)),
//!    and the rule is asked again until it finds nothing.
//! 4. **Chase marks** (`chase.rs`): the draws one side keeps only by
//!    checking or chasing for ever are marked, and so are the draws from
//!    which the other side can hold it to that; the result stays a draw.
//! 5. **Verification** (`verify.rs`): every entry against its children.

use std::collections::BTreeMap;

use super::chase;
use super::entry::DRAW;
use super::index::Layout;
use super::material::{closure, Material};
use super::rule;
use super::tables::{Table, Tables};
use super::verify;
use super::work::{Agenda, GenerateError, Work};
use crate::variants::Color;

/// Makes the table of `material` (canonical), whose captures lead to
/// tables of `tables`, and verifies it.
pub fn generate(material: Material, tables: &Tables) -> Result<Table, GenerateError> {
    let layout = Layout::new(material);
    let size = layout.size() as usize;
    let mut work = Work {
        material,
        layout,
        tables,
        value: [vec![DRAW; size], vec![DRAW; size]],
        left: [vec![0; size], vec![0; size]],
        exits: [BTreeMap::new(), BTreeMap::new()],
    };
    let agenda = work.seed_all()?;
    work.run(agenda, false)?;
    // The rule: first what the captures bring, then the rule's own rounds.
    let mut agenda = Agenda::default();
    for side in [Color::White, Color::Black] {
        let s = side.index();
        for (&i, e) in &work.exits[s] {
            if work.value[s][i as usize] != DRAW {
                continue;
            }
            if e.rule_win > 0 {
                agenda.push(e.rule_win, side, i);
            } else if work.left[s][i as usize] == 0 {
                // Still undecided: its captures lose only under the rule.
                if let Some(level) = e.loss_at(0, true) {
                    agenda.push(level, side, i);
                }
            }
        }
    }
    let mut top = work.run(agenda, true)?;
    loop {
        let lost = rule::perpetual_checkers(&work);
        if lost.is_empty() {
            break;
        }
        // Above every rule level so far, and even: a loss.
        let base = top.map_or(0, |t| (t + 2) & !1);
        let mut agenda = Agenda::default();
        for (side, i) in lost {
            // Not before a capture's own loss under the rule (a smaller
            // table's scale): the loser may take that way.
            let level = work.exits[side.index()]
                .get(&i)
                .and_then(|e| e.loss_at(base, true))
                .unwrap_or(base);
            agenda.push(level, side, i);
        }
        top = top.max(work.run(agenda, true)?);
    }
    // The draws that may rest on a chase, marked.
    for (side, i, code) in chase::marks(&work) {
        work.value[side.index()][i as usize] = code;
    }
    let table = Table::new(material, work.value);
    verify::verify(&table, tables)?;
    Ok(table)
}

impl Tables {
    /// Generates every table `set` needs (its closure), smallest first,
    /// skipping those already held; `done` hears of each as it is made.
    pub fn generate_set(
        &mut self,
        set: &[Material],
        mut done: impl FnMut(&Table, std::time::Duration),
    ) -> Result<(), GenerateError> {
        for material in closure(set) {
            if self.contains(material) {
                continue;
            }
            let start = std::time::Instant::now();
            let table = generate(material, self)?;
            done(&table, start.elapsed());
            self.insert(table);
        }
        Ok(())
    }
}
