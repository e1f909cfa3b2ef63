//! Checks: mates by an unbroken chain of checks, and wins of material that
//! checks force (抽将).

use super::*;

impl Probe {
    /// Whether the side to move can mate at once (what
    /// [`Probe::mates_by_checks`] knows of one check, outside the budget).
    pub(super) fn mates_in_one(&mut self, pos: &Position) -> bool {
        if let Some(mates) = self.known_mates(pos, 1) {
            return mates;
        }
        let mates = mate_at_once(pos, None);
        self.know_mates(pos, 1, mates);
        mates
    }

    /// What the memory knows of a mate by at most `checks` checks here.
    fn known_mates(&self, pos: &Position, checks: u32) -> Option<bool> {
        let known = self.memory.mates.get(&pos.hash())?;
        if !known.pos.same_placement(pos) {
            return None;
        }
        if checks <= known.not_within {
            Some(false)
        } else if checks >= known.within {
            Some(true)
        } else {
            None
        }
    }

    /// Keeps what a mate search found: a mate within `checks` checks, or
    /// none.
    fn know_mates(&mut self, pos: &Position, checks: u32, mates: bool) {
        let known = self
            .memory
            .mates
            .entry(pos.hash())
            .or_insert_with(|| MatesKnown {
                pos: pos.clone(),
                not_within: 0,
                within: u32::MAX,
            });
        if known.pos.same_placement(pos) {
            if mates {
                known.within = known.within.min(checks);
            } else {
                known.not_within = known.not_within.max(checks);
            }
        }
    }

    /// Adds to `out` the wins that a check of `chaser` (to move in `pos`)
    /// forces within `checks` checks; `balance` is what the checks have
    /// won (or given) so far.
    pub(super) fn wins_by_checks(
        &mut self,
        pos: &Position,
        chaser: Color,
        checks: u32,
        balance: i32,
        out: &mut Vec<Win>,
    ) {
        if checks == 0 {
            return;
        }
        let mut moves = Vec::new();
        maybe_checks(pos, &mut moves);
        for m in moves {
            if self.spent() {
                return;
            }
            let mut after = pos.clone();
            after.make(m);
            if !after.general_attacked(after.side()) {
                continue;
            }
            let gained = balance + worth(pos, m.to, chaser);
            let mut answers = Vec::new();
            after.legal(&mut answers);
            if answers.is_empty() {
                continue; // a mate, not a chase
            }
            // What the check wins does not depend on the order of the
            // answers (the victims are sorted).
            escapes_first(&after, &mut answers);
            // What each answer leaves to be won, and whether the answer
            // puts a piece in the check's way.
            let general = after.general(!chaser);
            let checkers = after.attackers(general, chaser);
            // Every answer must leave a win; its victims are what is won.
            // A win by checks is joint when another piece than a checking
            // one takes (参考图14: the cannon steps off the rank, the
            // chariot behind it checks, and the cannon takes), or its own
            // capture is joint.
            // Not when the piece that takes is the one the judged move
            // moved, its way opened by the check (图26: 炮8进3, "长捉车").
            let moved = self.moved;
            let joint_checks = |w: Win| {
                let opened_for_moved =
                    Some(w.capturer) == moved && through(w.capturer, w.victim, m.from);
                w.joint || !(checkers.contains(&w.capturer) || opened_for_moved)
            };
            let mut per_answer: Vec<(Vec<(Sq, bool)>, bool)> = Vec::new();
            let mut mated_answers = 0;
            let all = answers.iter().all(|&a| {
                let blocks =
                    a.from != general && checkers.iter().any(|&c| through(c, general, a.to));
                let lost = worth(&after, a.to, chaser);
                let mut next = after.clone();
                next.make(a);
                // An answer that is mated by checks leaves nothing to ask
                // (参考图41: 将5进1 is met by the rook's mate, so the check
                // chases what the other answers leave).
                if self.mates_by_checks(&next, 1) {
                    mated_answers += 1;
                    return true;
                }
                let here = gained - lost;
                let won: Vec<(Sq, bool)> = self
                    .captures_won(&next, false)
                    .into_iter()
                    .filter(|w| !(w.alone && general_or_soldier(&next, w.capturer)))
                    .filter(|w| {
                        let mut taken = next.clone();
                        taken.make(Move::new(w.capturer, w.victim));
                        let gain = here + worth(&next, w.victim, chaser);
                        gain + self.played_out(
                            &taken,
                            chaser,
                            Move::new(w.capturer, w.victim),
                            -gain,
                        ) > 0
                    })
                    .map(|w| {
                        let victim = if w.victim == a.to { a.from } else { w.victim };
                        // A cannon that takes over another checking piece
                        // (a double check, blocked once) takes with it
                        // (参考图42: the rook checks beside the general and
                        // the cannon behind it; the cannon that blocks is
                        // taken: "联合捉子").
                        let over_checker = kind_of(next.piece_at(w.capturer)) == Some(Kind::Cannon)
                            && screen_of(&next, w.capturer, w.victim)
                                .is_some_and(|x| x != w.capturer && checkers.contains(&x));
                        (victim, joint_checks(w) || over_checker)
                    })
                    .collect();
                if !won.is_empty() {
                    per_answer.push((won, blocks));
                    return true;
                }
                let mut deeper = Vec::new();
                self.wins_by_checks(&next, chaser, checks - 1, here, &mut deeper);
                let found = !deeper.is_empty();
                per_answer.push((
                    deeper
                        .into_iter()
                        .map(|w| {
                            let victim = if w.victim == a.to { a.from } else { w.victim };
                            (victim, joint_checks(w))
                        })
                        .collect(),
                    blocks,
                ));
                found
            });
            if all && mated_answers < answers.len() {
                // What the check chases: the pieces every answer that does
                // not block leaves to be won (参考图46; 图5: a check that
                // wins a soldier after one step of the general and an
                // advisor after the other chases neither); when every
                // answer blocks, the blockers (图3: whatever is put in the
                // way is lost).
                let free: Vec<&Vec<(Sq, bool)>> = per_answer
                    .iter()
                    .filter(|(_, blocks)| !blocks)
                    .map(|(won, _)| won)
                    .collect();
                let mut victims: Vec<(Sq, bool)> =
                    per_answer.iter().flat_map(|(won, _)| won.clone()).collect();
                if !free.is_empty() {
                    victims.retain(|w| free.iter().all(|l| l.iter().any(|x| x.0 == w.0)));
                }
                victims.sort_unstable();
                victims.dedup();
                out.extend(victims.into_iter().map(|(victim, joint)| Win {
                    victim,
                    capturer: m.from,
                    joint,
                    alone: false,
                }));
            }
        }
    }

    /// Whether `attacker`, to move in `pos`, mates by a check or an unbroken
    /// chain of at most `checks` checks, whatever the answers. A check that
    /// mates at once is looked for first, then the chains.
    pub(super) fn mates_by_checks(&mut self, pos: &Position, checks: u32) -> bool {
        if checks == 0 {
            return false;
        }
        if let Some(mates) = self.known_mates(pos, checks) {
            return mates;
        }
        if self.spent() {
            return false;
        }
        let mut checked = Vec::new();
        let mates = mate_at_once(pos, Some(&mut checked))
            || (checks > 1
                && checked
                    .iter()
                    .any(|after| self.mated_after_answers(after, checks - 1)));
        // An answer cut short by the budget is not kept.
        if self.nodes <= BUDGET {
            self.know_mates(pos, checks, mates);
        }
        mates
    }

    /// Whether every answer to the check that left `after` (the checked
    /// side to move, with a legal move) leaves a mate by at most `checks`
    /// further checks.
    fn mated_after_answers(&mut self, after: &Position, checks: u32) -> bool {
        let mut answers = Vec::new();
        after.legal(&mut answers);
        escapes_first(after, &mut answers);
        answers.into_iter().all(|a| {
            let mut next = after.clone();
            next.make(a);
            self.mates_by_checks(&next, checks)
        })
    }

    /// Whether `m`, played in `pos`, is a check that mates, or after which
    /// every answer leaves a mate by at most `checks - 1` further checks.
    fn mates_after(&mut self, pos: &Position, m: Move, checks: u32) -> bool {
        let mut after = pos.clone();
        after.make(m);
        if !after.general_attacked(after.side()) {
            return false;
        }
        !after.has_legal() || (checks > 1 && self.mated_after_answers(&after, checks - 1))
    }

    /// The checks that begin a mate by checks for the side to move.
    pub(in crate::variants::xiangqi::repetition::chinese) fn mating_moves(
        &mut self,
        pos: &Position,
    ) -> Vec<Move> {
        self.nodes = 0;
        let mut moves = Vec::new();
        maybe_checks(pos, &mut moves);
        moves.retain(|&m| self.mates_after(pos, m, MATE_CHECKS));
        moves
    }

    /// Whether the side to move threatens mate by checks (a check that
    /// mates at once is found before any chain is searched).
    pub(in crate::variants::xiangqi::repetition::chinese) fn threatens_mate(
        &mut self,
        pos: &Position,
    ) -> bool {
        self.nodes = 0;
        self.mates(pos)
    }

    /// Whether the side to move mates by checks, within the budget left.
    pub(super) fn mates(&mut self, pos: &Position) -> bool {
        self.mates_by_checks(pos, MATE_CHECKS)
    }
}

/// Whether a check of the side to move mates at once; the positions after
/// its other checks (in the order the moves come) go to `checked`, when
/// given, until a mate is found.
fn mate_at_once(pos: &Position, mut checked: Option<&mut Vec<Position>>) -> bool {
    let mut moves = Vec::new();
    maybe_checks(pos, &mut moves);
    for m in moves {
        let mut after = pos.clone();
        after.make(m);
        if after.general_attacked(after.side()) {
            if !after.has_legal() {
                return true;
            }
            if let Some(checked) = checked.as_deref_mut() {
                checked.push(after);
            }
        }
    }
    false
}

/// Orders the answers to a check so that those most likely to escape come
/// first (captures, then the general's steps): a search that needs every
/// answer to fail stops at the first that does not, and the answer is the
/// same in any order.
fn escapes_first(pos: &Position, answers: &mut [Move]) {
    let general = pos.general(pos.side());
    answers.sort_by_key(|a| {
        if pos.piece_at(a.to) != EMPTY {
            0
        } else if a.from == general {
            1
        } else {
            2
        }
    });
}
