//! Repetition under the Chinese rules: the Chinese Xiangqi Association's
//! 《象棋竞赛规则（2020）》, chapter 6 (棋例). Every decision, with the
//! book's article and diagram numbers, is written in `docs/rules/xiangqi.md`.
//!
//! Each move of a repetition cycle has one nature, the heaviest it has:
//! - **check** (将): it attacks the enemy general;
//! - **mate threat** (杀): were the mover to move again, it could mate by a
//!   check or an unbroken chain of checks — and could not before the move;
//! - **chase** (捉): were the mover to move again, it could win material, and
//!   could not before the move: a capture that comes out ahead in the whole
//!   exchange that follows (pins, hidden defenders and discovered attacks
//!   included, since every capture is played out), or checks that end in
//!   such a capture (抽将); never a win that lets the opponent mate;
//! - **idle** (闲): anything else, offers of exchange (兑) included.
//!
//! A side whose every move in the cycle is a check, mate threat or chase is
//! forbidden (长将, 长杀, 长捉, 一将一捉, ...); the verdict table is
//! [`ruling`]. The nine-move rule is [`nine_forbidden_moves`].

mod probe;
mod verdict;

pub(in crate::variants::xiangqi) use verdict::judge_span;
pub use verdict::nine_forbidden_moves;
#[cfg(test)]
use verdict::ruling;

use std::collections::HashSet;

use super::Step;
use crate::variants::xiangqi::board::*;
use crate::variants::xiangqi::position::{Move, Position};
use crate::variants::{Color, Nature, Variant};
use probe::{to_move, Memory, Probe};

#[cfg(test)]
pub use probe::explain_move;

#[cfg(test)]
mod book;
#[cfg(test)]
mod book_reference;
#[cfg(test)]
mod principle_tests;
#[cfg(test)]
mod tests;

/// How many pieces of `c` can attack (chariots, horses, cannons, and
/// soldiers over the river).
fn attacking_pieces(pos: &Position, c: Color) -> usize {
    pos.pieces(c)
        .filter(|&s| match kind_of(pos.piece_at(s)) {
            Some(Kind::Chariot | Kind::Horse | Kind::Cannon) => true,
            Some(Kind::Soldier) => !own_side(s, c),
            _ => false,
        })
        .count()
}

/// The nature of one move and the enemy pieces it chases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// Its nature.
    pub nature: Nature,
    /// For a chase: the pieces chased (points after the move).
    pub chased: Vec<Sq>,
    /// For a chase: whether some chase needs two pieces or more.
    pub joint: bool,
    /// For a chase: each chase as (the chasing piece's point, the chased
    /// piece's point), after the move.
    pub chases: Vec<(Sq, Sq)>,
}

/// The most answers of [`judge_move`] a thread remembers.
const REMEMBERED: usize = 4096;

/// A question put to [`judge_move`]: the position before the move (its
/// key), the move, and the position before the opponent's last move.
type Question = (u64, Move, u64);

/// A question with the positions it names, to tell a key's collision.
type Answer = (Position, Option<Position>, Judged);

thread_local! {
    /// [`judge_move`]'s answers on this thread, lately. A game is judged
    /// again at every ply it is replayed, and every legal move of a
    /// repeating position judges the same cycle: each move's nature
    /// depends only on the three positions, so it is worked out once.
    static JUDGED: std::cell::RefCell<foldhash::HashMap<Question, Answer>> =
        std::cell::RefCell::new(foldhash::HashMap::default());
}

/// Forgets the natures this thread remembers (see
/// [`judge_move_remembered`]): a bench measures a cold start with it.
pub fn forget_judgements() {
    JUDGED.with(|memory| memory.borrow_mut().clear());
    FOUND.with(|found| found.take());
}

/// [`judge_move`], answered from this thread's memory when the same move
/// from the same position (and the same position before it) was judged
/// lately. Positions are compared in full, not only by their keys.
pub(in crate::variants::xiangqi) fn judge_move_remembered(step: &Step) -> Judged {
    let &Step {
        before,
        m,
        after,
        earlier,
    } = step;
    // The position before the opponent's move matters only to an answer
    // to a check (see [`judge_move`]): otherwise the same move from the
    // same position is one question, whatever came before.
    let earlier = earlier.filter(|_| before.general_attacked(before.side()));
    let question = (before.hash_key(), m, earlier.map_or(0, |e| e.hash_key()));
    let known = JUDGED.with(|memory| {
        memory.borrow().get(&question).and_then(|(b, e, judged)| {
            let same_earlier = match (e, earlier) {
                (Some(e), Some(earlier)) => e.same_placement(earlier),
                (None, None) => true,
                _ => false,
            };
            (b.same_placement(before) && same_earlier).then(|| judged.clone())
        })
    });
    if let Some(judged) = known {
        return judged;
    }
    let judged = judge_move(before, m, after, earlier);
    JUDGED.with(|memory| {
        let mut memory = memory.borrow_mut();
        if memory.len() >= REMEMBERED {
            memory.clear();
        }
        memory.insert(question, (before.clone(), earlier.cloned(), judged.clone()));
    });
    judged
}

/// The most answers of the judge's questions a thread keeps between
/// judgements (a few thousand positions each; about 8 MB).
const MEMORY: usize = 16_384;

thread_local! {
    /// The answers of the judge's questions on this thread, lately: the
    /// moves of one cycle ask them of the same positions.
    static FOUND: std::cell::RefCell<Memory> = std::cell::RefCell::new(Memory::default());
}

/// The nature of the move `m` that led from `before` to `after`.
/// `earlier`: the position before the opponent's last move, if known (what
/// stood before a check that `m` answers).
///
/// The judgement's questions start from what this thread's earlier
/// judgements found (exact answers only). Where a question runs out of its
/// budget, the move is judged again from nothing, so that such a verdict
/// does not depend on what the thread judged before.
pub fn judge_move(
    before: &Position,
    m: Move,
    after: &Position,
    earlier: Option<&Position>,
) -> Judged {
    let mut probe = Probe::with(FOUND.with(|found| found.take()));
    let step = Step {
        before,
        m,
        after,
        earlier,
    };
    let mut judged = judge_with(&mut probe, &step);
    let cut = probe.was_cut();
    let mut memory = probe.into_memory();
    if cut {
        judged = judge_with(&mut Probe::new(), &step);
    }
    if memory.len() > MEMORY {
        memory = Memory::default();
    }
    FOUND.with(|found| *found.borrow_mut() = memory);
    judged
}

/// [`judge_move`] with the questions put to `probe`.
fn judge_with(probe: &mut Probe, step: &Step) -> Judged {
    let &Step {
        before,
        m,
        after,
        earlier,
    } = step;
    let s = before.side();
    let idle = Judged {
        nature: Nature::Idle,
        chased: Vec::new(),
        joint: false,
        chases: Vec::new(),
    };
    if after.general_attacked(after.side()) {
        return Judged {
            nature: Nature::Check,
            ..idle
        };
    }
    let mover = kind_of(before.piece_at(m.from)).expect("a move starts on a piece");
    let answers_check = before.general_attacked(s);
    // A general answering a check: whatever it creates is idle (26.1.2).
    if answers_check && mover == Kind::General {
        return idle;
    }
    // What the mover could do before this move; before an answer to a
    // check, looking through the check (26.1.4: a chase or mate threat that
    // stood before the answer is idle, and one the checking move itself
    // handed over is the checker's own doing, 参考图22): the checking
    // pieces are taken off the board.
    let base = if answers_check {
        let mut b = to_move(before, s);
        for c in before.attackers(before.general(s), !s) {
            if kind_of(b.piece_at(c)) != Some(Kind::General) {
                b.remove(c);
            }
        }
        b
    } else {
        before.clone()
    };
    let after_mates = probe.mating_moves(&to_move(after, s));
    // The mate threats that stood before an answer to a check: those of the
    // position before the check when it is known (图19), else those with
    // the checking pieces taken off.
    let mate_base = match earlier {
        Some(e) if answers_check => to_move(e, s),
        _ => base.clone(),
    };
    // A mate threat is new when none stood before, or when the move adds a
    // mating first move that did not (图19: 炮2平4 answers the check and
    // adds the horse's mate to the cannon's).
    let new_threat = !after_mates.is_empty() && {
        let before_mates: Vec<Move> = probe
            .mating_moves(&mate_base)
            .into_iter()
            .map(|x| {
                if x.from == m.from {
                    Move::new(m.to, x.to)
                } else {
                    x
                }
            })
            .collect();
        after_mates.iter().any(|x| !before_mates.contains(x))
    };
    // An offer of exchange (兑) outweighs the mate threat it carries when
    // the opponent can accept it: taking the moved piece with its own piece
    // of that kind leaves the mover no mate (图29: 车一平二 offers the rook
    // that would mate by taking Black's chariot, "兑"; 车五平二 offers it
    // where Black's chariot cannot leave its rank, "判杀").
    if new_threat && offers_exchange(probe, after, m.to) {
        return idle;
    }
    if new_threat {
        // A mate that can only begin by taking a horse, cannon or chariot
        // chases that piece (图17: 后车退一 threatens to take the chariot
        // with check and mate, "判捉"); one that begins by taking an
        // advisor, elephant or soldier is a mate threat (图18).
        let taken: Vec<(Sq, Sq)> = after_mates
            .iter()
            .filter(|x| probe::worth(after, x.to, s) >= 2)
            .map(|x| (x.from, x.to))
            .collect();
        if taken.len() == after_mates.len() {
            let mut chased: Vec<Sq> = taken.iter().map(|&(_, v)| v).collect();
            chased.sort_unstable();
            chased.dedup();
            let mut chases = taken;
            chases.sort_unstable();
            chases.dedup();
            return Judged {
                nature: Nature::Chase,
                chased,
                joint: false,
                chases,
            };
        }
        return Judged {
            nature: Nature::MateThreat,
            ..idle
        };
    }
    // A general stepping out of a mate threat chases nothing (应杀:
    // 参考图30, "将5平6 … 两闲" after 车四平三 threatened mate); a mate
    // threat it makes counts (图17: 将4退1 is 杀).
    if mover == Kind::General && probe.threatens_mate(&to_move(before, !s)) {
        return idle;
    }
    let victims = |probe: &mut Probe, pos: &Position, threatened: bool| -> HashSet<Sq> {
        probe
            .wins(pos, threatened)
            .into_iter()
            .map(|w| w.victim)
            .collect()
    };
    // A chase is new when the capture did not win before the move even
    // ignoring the opponent's standing threats and counter-checks, or when
    // the move lifted a standing threat: it wins after the move, those
    // threats then standing counted, and did not before (图12, 参考图30).
    // A capture the opponent held off only by checks is no new chase once
    // the move takes that resource away (图9: 马二进三 opens the chariots'
    // file, so a discovered check no longer saves the cannon: "兑").
    probe.counter_checks = 0;
    let before_wins = probe.wins(&base, false);
    let before_plain: HashSet<Sq> = before_wins.iter().map(|w| w.victim).collect();
    // The pieces only the moved piece's checks won before: a win of one
    // by other checks after the move is new (参考图42: 仕五退六 clears the
    // file for the general, and the rook's check wins the cannon; before,
    // only the advisor's own discovered check did, "联合捉子"). Won before
    // by checks of a piece that stays, it is no new chase, whatever check
    // wins it now (参考图6: "白吃双士的结果没有发生变化，判闲").
    let by_moved_checks_only = |v: Sq| {
        before_wins
            .iter()
            .filter(|w| w.victim == v)
            .all(|w| w.capturer == m.from && !base.is_legal(Move::new(w.capturer, w.victim)))
    };
    probe.counter_checks = probe::COUNTER_CHECKS;
    let before_threatened = victims(probe, &base, true);
    let after_threatened = victims(probe, &to_move(after, s), true);
    let lone_attacker = attacking_pieces(after, s) == 1;
    let mut chased = Vec::new();
    let mut chases = Vec::new();
    let (mut joint_only, mut single) = (Vec::new(), Vec::new());
    probe.moved = Some(m.to);
    let wins_after = probe.wins(&to_move(after, s), false);
    probe.moved = None;
    // Whether the moved piece stood to be taken before the move and wins
    // nothing new by itself after it.
    let escaped = !before.attackers(m.from, !s).is_empty()
        && !wins_after
            .iter()
            .any(|w| w.capturer == m.to && !before_plain.contains(&w.victim));
    for w in wins_after {
        let by_checks = !to_move(after, s).is_legal(Move::new(w.capturer, w.victim));
        let new_capture = !before_plain.contains(&w.victim)
            || (by_checks && w.capturer != m.to && by_moved_checks_only(w.victim));
        let threat_lifted =
            after_threatened.contains(&w.victim) && !before_threatened.contains(&w.victim);
        if !new_capture && !threat_lifted {
            continue;
        }
        // 避吃促成得子: a piece that steps out of a capture lifts the
        // opponent's counter-capture from a win that stood; when the piece
        // wins nothing itself and the win stands without it, the attack is
        // no stronger: idle (参考图37, 参考图21). It chases when it takes part
        // (图10: the chariot stays the cannon's screen; 图11: the cannon
        // pins the defender; 参考图15: the chariot guards the screen), when
        // it wins something itself (参考图39, 参考图16), and when its step
        // opens a capture that was not there (参考图23: the horse's leg).
        if escaped && stood_for(probe, &base, m.from, &w) && !takes_part(probe, after, m.to, &w) {
            continue;
        }
        // A general or soldier may chase alone (26.1): its own captures are
        // idle, whoever moved (参考图5); with others it chases, and so does
        // a soldier's capture that uncovers another piece's check (26.8,
        // 参考图11: 炮5平6 puts the cannon behind the soldier that takes
        // the advisor, "炮卒联合捉子").
        let capturer = kind_of(after.piece_at(w.capturer));
        let uncovers_check = capturer == Some(Kind::Soldier) && {
            let mut taken = to_move(after, s);
            taken.make(Move::new(w.capturer, w.victim));
            let general = taken.general(!s);
            taken.attackers(general, s).iter().any(|&a| a != w.victim)
        };
        if matches!(capturer, Some(Kind::General | Kind::Soldier)) && w.alone && !uncovers_check {
            continue;
        }
        // The defender's lone attacking piece may hit advisors and
        // elephants on its way (26.2).
        let victim = kind_of(after.piece_at(w.victim));
        if lone_attacker && matches!(victim, Some(Kind::Advisor | Kind::Elephant)) {
            continue;
        }
        if w.joint {
            joint_only.push(w.victim);
        } else {
            single.push(w.victim);
        }
        chased.push(w.victim);
        chases.push((w.capturer, w.victim));
    }
    // 吃子后将军得子: a capture by the moved piece that every recapture
    // loses to checks, new with the move, is a joint chase (参考图34:
    // 炮9退2, "联合捉子"); a general's or soldier's is its own (26.1).
    if !matches!(mover, Kind::General | Kind::Soldier) {
        let won = probe.wins_through_recapture(&to_move(after, s), m.to);
        if !won.is_empty() {
            let stood = probe.wins_through_recapture(&base, m.from);
            for v in won {
                let victim = kind_of(after.piece_at(v));
                if stood.contains(&v)
                    || (lone_attacker && matches!(victim, Some(Kind::Advisor | Kind::Elephant)))
                {
                    continue;
                }
                joint_only.push(v);
                chased.push(v);
                chases.push((m.to, v));
            }
        }
    }
    // A piece chased jointly that the move also chases single-handed (the
    // horse attacks the chariot, and the cannon could take it too with the
    // horse's help) is chased single-handed (参考图36: "一捉车").
    let joint = joint_only.iter().any(|v| !single.contains(v));
    chased.sort_unstable();
    chased.dedup();
    chases.sort_unstable();
    chases.dedup();
    if chased.is_empty() {
        idle
    } else {
        Judged {
            nature: Nature::Chase,
            chased,
            joint,
            chases,
        }
    }
}

/// Whether the win `w` (after the move) stood before it (`base`, the
/// chaser to move) but for the opponent's capture of the piece on `from`:
/// the same capture was there, and it wins when that piece is out of reach.
fn stood_for(probe: &mut Probe, base: &Position, from: Sq, w: &probe::Win) -> bool {
    base.is_legal(Move::new(w.capturer, w.victim)) && {
        probe.immune = Some(from);
        let stood = probe.wins(base, true).iter().any(|x| x.victim == w.victim);
        probe.immune = None;
        stood
    }
}

/// Whether the piece on `moved` takes part in the win `w` (after the
/// move): it takes, or without it the same piece's capture, against the
/// answers on its points (not the opponent's threats or checks
/// elsewhere), no longer wins (图10: the cannon's screen; 图11: the pin on
/// the defender; 图27: the cannon behind the chariot; 参考图49: the horse
/// that keeps the cannon on its file).
fn takes_part(probe: &mut Probe, after: &Position, moved: Sq, w: &probe::Win) -> bool {
    let mut without = to_move(after, !after.side());
    without.remove(moved);
    let counter_checks = std::mem::replace(&mut probe.counter_checks, 0);
    let stands = probe
        .wins(&without, false)
        .iter()
        .any(|x| x.victim == w.victim && x.capturer == w.capturer);
    probe.counter_checks = counter_checks;
    w.capturer == moved || !stands
}

/// Whether the piece on `moved` (after the move, the opponent to move)
/// offers an exchange the opponent can accept: an enemy piece of its kind
/// can take it, it could take that piece, and taking it loses nothing and
/// lets the mover mate by checks no more (图17: 后车退一 offers a chariot
/// whose capture costs Black both chariots, "判捉").
fn offers_exchange(probe: &mut Probe, after: &Position, moved: Sq) -> bool {
    let kind = kind_of(after.piece_at(moved));
    after.attackers(moved, after.side()).into_iter().any(|x| {
        let take = Move::new(x, moved);
        kind_of(after.piece_at(x)) == kind
            && probe::could_take_back(after, take)
            && after.is_legal(take)
            && probe.takes_safely(after, take)
    })
}
