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
//!   such a capture (抽将); never a win that lets the opponent mate at once;
//! - **idle** (闲): anything else, offers of exchange (兑) included.
//!
//! A side whose every move in the cycle is a check, mate threat or chase is
//! forbidden (长将, 长杀, 长捉, 一将一捉, ...); the verdict table is
//! [`ruling`]. The nine-move rule is [`nine_forbidden_moves`].

use std::collections::HashSet;

use super::board::*;
use super::position::{Move, Position};
use crate::variants::{Color, Conduct, Nature, Pattern, Reason, RepetitionReport, Verdict};

/// The longest chain of checks of a mate threat (the book's 图17 needs
/// seven).
const MATE_CHECKS: u32 = 7;
/// The longest chain of checks before a capture wins material (抽将).
const WIN_CHECKS: u32 = 3;
/// Checks (that take nothing) the opponent may answer a capture with in an
/// exchange: a piece whose side wins it back by checks is defended (图3).
const COUNTER_CHECKS: u32 = 2;
/// Plies of captures played out in an exchange.
const EXCHANGE_PLIES: u32 = 12;
/// Positions one question (a mate threat, the wins of one position) may
/// visit: no position makes a verdict slow. The book's examples need at
/// most about 18,000.
const BUDGET: u32 = 60_000;
/// Beyond any value an exchange can have.
const INFINITE: i32 = 1_000_000;
/// What being mated is worth, in material units.
const MATED: i32 = 1000;

/// What the piece on `s` is worth as material for a chase by `chaser`: a
/// chariot 4 (two horses, two cannons, or a horse and a cannon), a horse or
/// cannon 2, an advisor or elephant 1, a soldier over the river 1 when the
/// chaser wins it but 3 when the chaser gives it (its value floats: a
/// soldier given for a horse or cannon, or for a cannon and an advisor,
/// wins nothing, 参考图33; one given for a chariot does, 图24); a general
/// and a soldier on its own side nothing.
fn worth(pos: &Position, s: Sq, chaser: Color) -> i32 {
    let p = pos.piece_at(s);
    match kind_of(p) {
        Some(Kind::Chariot) => 4,
        Some(Kind::Horse | Kind::Cannon) => 2,
        Some(Kind::Advisor | Kind::Elephant) => 1,
        Some(Kind::Soldier) if !own_side(s, color_of(p)) => {
            if color_of(p) == chaser {
                3
            } else {
                1
            }
        }
        _ => 0,
    }
}

/// The values between which an exchange's value matters.
#[derive(Clone, Copy, Debug)]
struct Window {
    alpha: i32,
    beta: i32,
}

/// A way for a side to win material on its next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Win {
    /// The enemy piece won, where it stands.
    victim: Sq,
    /// The piece that takes first (for a win by checks, the checking piece).
    capturer: Sq,
    /// Whether the win needs two of the side's pieces or more: the first
    /// capture alone does not come out ahead (a joint chase, 联合捉, or an
    /// under-protected piece, 少根子), or checks lead to it.
    joint: bool,
    /// Whether the capturing piece wins it by itself (a general's or
    /// soldier's own capture is idle, 26.1; checks always need others).
    alone: bool,
}

/// The questions asked of one position, within a budget of nodes.
struct Probe {
    nodes: u32,
    /// The offers of exchange standing where the chase is weighed: (the
    /// chaser's piece, the opponent's piece of the same kind) that can take
    /// each other. The opponent, to move, would take first or not; the
    /// chaser cannot count on taking along one of them.
    standoffs: Vec<(Sq, Sq)>,
    /// Before the move, the chaser's pieces that the opponent could already
    /// win (its standing threats): a capture that leaves one of them to be
    /// taken wins nothing (图10, 图25).
    hanging: Vec<Sq>,
    /// The position the chase is weighed in: a piece it defended that an
    /// exchange stripped of its defenders may be taken too (图4).
    root: Option<Position>,
}

impl Probe {
    fn new() -> Probe {
        Probe {
            nodes: 0,
            standoffs: Vec::new(),
            hanging: Vec::new(),
            root: None,
        }
    }

    /// Counts a node; true once the budget is spent.
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        self.nodes > BUDGET
    }

    /// The material `chaser` nets from here (whoever is to move) in the
    /// exchange that follows its capture: the opponent answers by taking
    /// back on a point of the exchange (`points`), or along a line the
    /// chaser's capturing piece opened by leaving its point (a pinned
    /// piece that captures loses what stood behind it, 图23); the chaser
    /// takes back on a point the opponent took on; either may stop unless in
    /// check; a side in check must answer it, and being mated is the worst.
    /// `opened`: the point the chaser's first capture left.
    fn exchange(
        &mut self,
        pos: &Position,
        chaser: Color,
        points: &[Sq],
        opened: Sq,
        plies: u32,
    ) -> i32 {
        self.exchange_within(pos, chaser, points, opened, plies, -INFINITE, INFINITE)
    }

    /// [`Probe::exchange`] where only whether the value lies above `alpha`
    /// and below `beta` matters: a value at or below `alpha` (at or above
    /// `beta`) may be any such value.
    fn exchange_within(
        &mut self,
        pos: &Position,
        chaser: Color,
        points: &[Sq],
        opened: Sq,
        plies: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let window = Window { alpha, beta };
        self.exchange_with(pos, chaser, points, opened, plies, COUNTER_CHECKS, window)
    }

    #[allow(clippy::too_many_arguments)]
    fn exchange_with(
        &mut self,
        pos: &Position,
        chaser: Color,
        points: &[Sq],
        opened: Sq,
        plies: u32,
        checks: u32,
        window: Window,
    ) -> i32 {
        let Window {
            mut alpha,
            mut beta,
        } = window;
        let us = pos.side();
        let ours = us == chaser;
        let mut moves = Vec::new();
        let in_check = pos.general_attacked(us);
        if in_check {
            pos.legal(&mut moves);
            if moves.is_empty() {
                return if ours { -MATED } else { MATED };
            }
        } else if ours {
            pos.legal_captures(&mut moves);
            let root = self.root.clone();
            // The chaser takes back on the exchange's points, along a line
            // its first capture opened (参考图1: the horse's leg freed), or a
            // piece the exchange stripped of its defenders — taken by
            // another piece than a general or soldier: after an even
            // exchange, their capture is their own (参考图32, 参考图33).
            moves.retain(|m| {
                !self.standoffs.contains(&(m.from, m.to))
                    && (points.contains(&m.to)
                        || through(m.from, m.to, opened)
                        || (!general_or_soldier(pos, m.from)
                            && root.as_ref().is_some_and(|r| {
                                !r.attackers(m.to, !chaser).is_empty()
                                    && pos.attackers(m.to, !chaser).is_empty()
                            })))
            });
        } else {
            pos.legal(&mut moves);
            moves.retain(|&m| {
                let capture = pos.piece_at(m.to) != EMPTY;
                (capture
                    && (points.contains(&m.to)
                        || through(m.from, m.to, opened)
                        || self.hanging.contains(&m.to)))
                    || (checks > 0 && pos.gives_check(m))
            });
        }
        if plies == 0 || self.spent() {
            return 0;
        }
        // The biggest captures first: they settle the question soonest.
        moves.sort_by_key(|m| -worth(pos, m.to, chaser));
        // Not in check, a side may stop here.
        let mut best = if in_check {
            if ours {
                -INFINITE
            } else {
                INFINITE
            }
        } else {
            0
        };
        if !in_check {
            if ours {
                if best >= beta {
                    return best;
                }
                alpha = alpha.max(best);
            } else {
                if best <= alpha {
                    return best;
                }
                beta = beta.min(best);
            }
        }
        for m in moves {
            let taken = worth(pos, m.to, chaser);
            let capture = pos.piece_at(m.to) != EMPTY;
            let mut next = pos.clone();
            next.make(m);
            let mut here = points.to_vec();
            if capture && !here.contains(&m.to) {
                here.push(m.to);
            }
            let left = if !ours && !capture {
                checks.saturating_sub(1)
            } else {
                checks
            };
            let delta = if ours { taken } else { -taken };
            let inner = Window {
                alpha: alpha - delta,
                beta: beta - delta,
            };
            let score =
                delta + self.exchange_with(&next, chaser, &here, opened, plies - 1, left, inner);
            if ours {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Whether the side to move can mate at once.
    fn mates_in_one(&mut self, pos: &Position) -> bool {
        let mut moves = Vec::new();
        pos.legal(&mut moves);
        moves.into_iter().any(|m| {
            let mut next = pos.clone();
            next.make(m);
            next.general_attacked(next.side()) && next.count_legal() == 0
        })
    }

    /// The captures by which the side to move wins material: each comes out
    /// ahead once every recapture is played out and does not let the
    /// opponent mate at once. In the position a move left (`offers`), two
    /// pieces of one kind that can take each other offer an exchange (兑):
    /// the opponent, to move, takes first or not, so neither wins the
    /// other; at the end of checks the chaser is really to move, and takes.
    fn captures_won(&mut self, pos: &Position, offers: bool) -> Vec<Win> {
        let chaser = pos.side();
        let mut captures = Vec::new();
        pos.legal_captures(&mut captures);
        let mut wins = Vec::new();
        for c in captures {
            let taken = worth(pos, c.to, chaser);
            if taken == 0 || self.spent() {
                continue;
            }
            if offers && self.standoffs.contains(&(c.from, c.to)) {
                continue;
            }
            let mut after = pos.clone();
            after.make(c);
            if self.mates_in_one(&after) {
                continue;
            }
            // Only whether the capture comes out ahead matters.
            let rest = self.exchange_within(
                &after,
                chaser,
                &[c.to],
                c.from,
                EXCHANGE_PLIES,
                -taken,
                1 - taken,
            );
            if taken + rest <= 0 {
                continue;
            }
            // Single: ahead even when the chaser takes nothing more.
            let answer = {
                let mut replies = Vec::new();
                if after.general_attacked(after.side()) {
                    after.legal(&mut replies);
                } else {
                    after.legal_captures(&mut replies);
                }
                replies
                    .iter()
                    .map(|r| worth(&after, r.to, chaser))
                    .max()
                    .unwrap_or(0)
            };
            wins.push(Win {
                victim: c.to,
                capturer: c.from,
                joint: taken - answer <= 0,
                alone: taken - answer > 0,
            });
        }
        wins
    }

    /// The wins of the side to move, captures and checks that end in one
    /// (抽将: every answer to each check leaves a win, whatever the checks
    /// cost on the way), victims named where they stand now. `threatened`:
    /// whether the opponent's standing threats count against a capture (in
    /// the position before the move: a capture that leaves a threatened
    /// piece to be taken was no win, so the move that saves the piece makes
    /// the chase, 图10, 图25); after the move the opponent's threats
    /// elsewhere are its own business (参考图20, 参考图23).
    fn wins(&mut self, pos: &Position, threatened: bool) -> Vec<Win> {
        self.nodes = 0;
        let mut captures = Vec::new();
        pos.legal_captures(&mut captures);
        self.standoffs = captures
            .into_iter()
            .filter(|&c| {
                kind_of(pos.piece_at(c.from)) == kind_of(pos.piece_at(c.to))
                    && could_take_back(pos, c)
            })
            .map(|c| (c.from, c.to))
            .collect();
        self.hanging = Vec::new();
        if threatened {
            let them = to_move(pos, !pos.side());
            self.root = Some(them.clone());
            let hanging = self.captures_won(&them, false);
            self.hanging = hanging.into_iter().map(|w| w.victim).collect();
        }
        self.root = Some(pos.clone());
        let mut wins = self.captures_won(pos, true);
        // After checks the position is another: no standing threats known.
        self.hanging.clear();
        self.wins_by_checks(pos, pos.side(), WIN_CHECKS, 0, &mut wins);
        wins
    }

    /// Adds to `out` the wins that a check of `chaser` (to move in `pos`)
    /// forces within `checks` checks; `balance` is what the checks have
    /// won (or given) so far.
    fn wins_by_checks(
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
        pos.legal(&mut moves);
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
            // Every answer must leave a win; its victims are what is won.
            // A win by checks is joint when another piece than the first
            // checker takes, or its own capture is joint.
            let joint_checks = |w: Win| w.joint || w.capturer != m.to;
            let mut victims: Vec<(Sq, bool)> = Vec::new();
            let all = answers.iter().all(|&a| {
                let lost = worth(&after, a.to, chaser);
                let mut next = after.clone();
                next.make(a);
                let here = gained - lost;
                let won: Vec<(Sq, bool)> = self
                    .captures_won(&next, false)
                    .into_iter()
                    .filter(|w| {
                        let mut taken = next.clone();
                        taken.make(Move::new(w.capturer, w.victim));
                        let gain = here + worth(&next, w.victim, chaser);
                        gain + self.exchange_within(
                            &taken,
                            chaser,
                            &[w.victim],
                            w.capturer,
                            EXCHANGE_PLIES,
                            -gain,
                            1 - gain,
                        ) > 0
                    })
                    .map(|w| {
                        let victim = if w.victim == a.to { a.from } else { w.victim };
                        (victim, joint_checks(w))
                    })
                    .collect();
                if !won.is_empty() {
                    victims.extend(won);
                    return true;
                }
                let mut deeper = Vec::new();
                self.wins_by_checks(&next, chaser, checks - 1, here, &mut deeper);
                let found = !deeper.is_empty();
                victims.extend(deeper.into_iter().map(|w| {
                    let victim = if w.victim == a.to { a.from } else { w.victim };
                    (victim, joint_checks(w))
                }));
                found
            });
            if all {
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
    /// chain of at most `checks` checks, whatever the answers.
    fn mates_by_checks(&mut self, pos: &Position, checks: u32) -> bool {
        if checks == 0 || self.spent() {
            return false;
        }
        let mut moves = Vec::new();
        pos.legal(&mut moves);
        moves.into_iter().any(|m| {
            let mut after = pos.clone();
            after.make(m);
            if !after.general_attacked(after.side()) {
                return false;
            }
            let mut answers = Vec::new();
            after.legal(&mut answers);
            answers.is_empty()
                || (checks > 1
                    && answers.into_iter().all(|a| {
                        let mut next = after.clone();
                        next.make(a);
                        self.mates_by_checks(&next, checks - 1)
                    }))
        })
    }

    /// Whether the side to move threatens mate by checks (at the shortest
    /// depth it can, so that the easy answer comes cheap).
    fn threatens_mate(&mut self, pos: &Position) -> bool {
        self.nodes = 0;
        (1..=MATE_CHECKS).any(|depth| self.mates_by_checks(pos, depth))
    }
}

/// Whether a move from `from` to `to` passes over `point`: along a line
/// (a chariot's or cannon's path), or by a horse's leg or an elephant's
/// eye there.
fn through(from: Sq, to: Sq, point: Sq) -> bool {
    let (ff, fr) = (file_of(from) as i32, rank_of(from) as i32);
    let (tf, tr) = (file_of(to) as i32, rank_of(to) as i32);
    let (pf, pr) = (file_of(point) as i32, rank_of(point) as i32);
    let between = |a: i32, b: i32, x: i32| a.min(b) < x && x < a.max(b);
    if ff == tf {
        return pf == ff && between(fr, tr, pr);
    }
    if fr == tr {
        return pr == fr && between(ff, tf, pf);
    }
    let (df, dr) = (tf - ff, tr - fr);
    match (df.abs(), dr.abs()) {
        // A horse: the leg is one step along the longer side.
        (1, 2) => (pf, pr) == (ff, fr + dr.signum()),
        (2, 1) => (pf, pr) == (ff + df.signum(), fr),
        // An elephant: the eye in the middle.
        (2, 2) => (pf, pr) == (ff + df / 2, fr + dr / 2),
        _ => false,
    }
}

/// Whether the piece on `c.to` could take the piece on `c.from` at once (its
/// side to move): two pieces that attack each other.
fn could_take_back(pos: &Position, c: Move) -> bool {
    let mut turned = pos.clone();
    turned.set_side(!pos.side());
    turned.is_legal(Move::new(c.to, c.from))
}

/// Whether the piece on `s` is a general or a soldier.
fn general_or_soldier(pos: &Position, s: Sq) -> bool {
    matches!(
        kind_of(pos.piece_at(s)),
        Some(Kind::General | Kind::Soldier)
    )
}

/// `pos` with `side` to move.
fn to_move(pos: &Position, side: Color) -> Position {
    let mut p = pos.clone();
    p.set_side(side);
    p
}

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
}

/// The nature of the move `m` that led from `before` to `after`.
pub fn judge_move(before: &Position, m: Move, after: &Position) -> Judged {
    let s = before.side();
    let idle = Judged {
        nature: Nature::Idle,
        chased: Vec::new(),
        joint: false,
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
    let mut probe = Probe::new();
    let threat_after = probe.threatens_mate(&to_move(after, s));
    if threat_after && !probe.threatens_mate(&base) {
        return Judged {
            nature: Nature::MateThreat,
            ..idle
        };
    }
    let before_wins: HashSet<Sq> = probe
        .wins(&base, true)
        .into_iter()
        .map(|w| w.victim)
        .collect();
    let lone_attacker = attacking_pieces(after, s) == 1;
    let mut chased = Vec::new();
    let (mut joint_only, mut single) = (Vec::new(), Vec::new());
    for w in probe.wins(&to_move(after, s), false) {
        if before_wins.contains(&w.victim) {
            continue;
        }
        // A general or soldier may chase alone (26.1): its own captures are
        // idle, whoever moved (参考图5); with others it chases.
        let capturer = kind_of(after.piece_at(w.capturer));
        if matches!(capturer, Some(Kind::General | Kind::Soldier)) && w.alone {
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
    }
    // A piece chased jointly that the move also chases single-handed (the
    // horse attacks the chariot, and the cannon could take it too with the
    // horse's help) is chased single-handed (参考图36: "一捉车").
    let joint = joint_only.iter().any(|v| !single.contains(v));
    chased.sort_unstable();
    chased.dedup();
    if chased.is_empty() {
        idle
    } else {
        Judged {
            nature: Nature::Chase,
            chased,
            joint,
        }
    }
}

/// The verdict of the Chinese rules on two sides' conduct: who loses, and
/// why (`None`: drawn).
///
/// - one side forbidden, the other allowed: the forbidden side loses;
/// - both allowed: drawn;
/// - both forbidden: a side that only checked loses against any other
///   pattern, both checking is drawn; otherwise a side whose chases are all
///   single loses against a side with a joint chase or a chase of an
///   under-protected piece (26.9.2, 26.9.3; 图26); otherwise drawn.
pub fn ruling(conduct: &[Conduct; 2]) -> (Option<Color>, Reason) {
    let forbidden = |c: Color| conduct[c.index()].pattern.is_forbidden();
    let reason_of = |c: Color| match conduct[c.index()].pattern {
        Pattern::PerpetualCheck => Reason::PerpetualCheck,
        Pattern::PerpetualMateThreat => Reason::PerpetualMateThreat,
        Pattern::PerpetualChase => Reason::PerpetualChase,
        _ => Reason::ForbiddenRepetition,
    };
    let lose = |c: Color| (Some(c), reason_of(c));
    let (w, b) = (Color::White, Color::Black);
    match (forbidden(w), forbidden(b)) {
        (false, false) => (None, Reason::Repetition),
        (true, false) => lose(w),
        (false, true) => lose(b),
        (true, true) => {
            let checking = |c: Color| conduct[c.index()].pattern == Pattern::PerpetualCheck;
            let single = |c: Color| {
                let k = &conduct[c.index()];
                k.natures.contains(&Nature::Chase) && !k.joint
            };
            let joint = |c: Color| conduct[c.index()].joint;
            match (checking(w), checking(b)) {
                (true, true) => (None, Reason::Repetition),
                (true, false) => lose(w),
                (false, true) => lose(b),
                _ if single(w) && joint(b) => lose(w),
                _ if single(b) && joint(w) => lose(b),
                _ => (None, Reason::Repetition),
            }
        }
    }
}

/// Judges the moves from ply `from` to the last of `occurrences` under the
/// Chinese rules; `pos(i)` and `mv(i)` give the game's positions and moves.
pub fn judge_span<'a>(
    pos: impl Fn(usize) -> &'a Position,
    mv: impl Fn(usize) -> Move,
    from: usize,
    occurrences: Vec<usize>,
) -> Verdict {
    let last = *occurrences.last().expect("occurrences");
    // Follow each piece through the span, so a chased piece is named where
    // it stands at the end.
    let mut ids = [u8::MAX; POINTS];
    for s in 0..POINTS as Sq {
        if pos(from).piece_at(s) != EMPTY {
            ids[s as usize] = s;
        }
    }
    let mut natures: [Vec<Nature>; 2] = [Vec::new(), Vec::new()];
    let mut chased: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    let mut joint = [false; 2];
    for j in from..last {
        let (before, after, m) = (pos(j), pos(j + 1), mv(j));
        let s = before.side().index();
        let judged = judge_move(before, m, after);
        ids[m.to as usize] = ids[m.from as usize];
        ids[m.from as usize] = u8::MAX;
        natures[s].push(judged.nature);
        joint[s] |= judged.joint;
        chased[s].extend(judged.chased.iter().map(|&v| ids[v as usize]));
    }
    let conduct = |c: Color| -> Conduct {
        let i = c.index();
        let pattern = Pattern::of(&natures[i]);
        let mut points: Vec<Sq> = chased[i]
            .iter()
            .filter_map(|&id| ids.iter().position(|&x| x == id).map(|p| p as Sq))
            .collect();
        points.sort_unstable();
        points.dedup();
        Conduct {
            pattern,
            natures: natures[i].clone(),
            chased: if pattern.is_forbidden() {
                points
            } else {
                Vec::new()
            },
            joint: joint[i],
        }
    };
    let conduct = [conduct(Color::White), conduct(Color::Black)];
    let (in_breach, reason) = ruling(&conduct);
    Verdict {
        reason,
        winner: in_breach.map(|c| !c),
        repetition: Some(Box::new(RepetitionReport {
            occurrences,
            cycle: (from, last),
            conduct,
            in_breach,
        })),
    }
}

/// The nine-move rule: a side whose last nine moves were all forbidden
/// (checks, mate threats, chases), with no capture among them and on three
/// points or more, must change even without a repetition, and loses on its
/// ninth (参考图8). `None` unless the side that just moved did so.
pub fn nine_forbidden_moves(positions: &[Position], moves: &[Move]) -> Option<Verdict> {
    const NINE: usize = 9;
    let n = moves.len();
    let last = positions.last()?;
    if n < 2 * NINE - 1 || (last.halfmove_clock() as usize) < 2 * NINE - 1 {
        return None;
    }
    let mover = !last.side();
    let mut natures = Vec::with_capacity(NINE);
    let mut points = Vec::with_capacity(NINE);
    for k in 0..NINE {
        let j = n - 1 - 2 * k;
        let judged = judge_move(&positions[j], moves[j], &positions[j + 1]);
        if judged.nature == Nature::Idle {
            return None;
        }
        natures.push(judged.nature);
        points.push(moves[j].to);
    }
    points.sort_unstable();
    points.dedup();
    if points.len() < 3 {
        return None;
    }
    natures.reverse();
    let mut conduct = [Conduct::allowed(Vec::new()), Conduct::allowed(Vec::new())];
    conduct[mover.index()] = Conduct {
        pattern: Pattern::of(&natures),
        natures,
        chased: Vec::new(),
        joint: false,
    };
    Some(Verdict {
        reason: Reason::NineForbiddenMoves,
        winner: Some(!mover),
        repetition: Some(Box::new(RepetitionReport {
            occurrences: Vec::new(),
            cycle: (n + 1 - 2 * NINE, n),
            conduct,
            in_breach: Some(mover),
        })),
    })
}

/// What the judge sees of one move, for a person debugging a verdict.
#[cfg(test)]
pub fn explain_move(before: &Position, m: Move, after: &Position) -> String {
    let s = before.side();
    let mut probe = Probe::new();
    let show = |wins: Vec<Win>| {
        wins.iter()
            .map(|w| {
                format!(
                    "{}x{}{}",
                    sq_name(w.capturer),
                    sq_name(w.victim),
                    if w.joint { "(joint)" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let wins_before = show(probe.wins(&to_move(before, s), true));
    let wins_after = show(probe.wins(&to_move(after, s), false));
    let mate_before = probe.threatens_mate(&to_move(before, s));
    let mate_after = probe.threatens_mate(&to_move(after, s));
    // Each capture after the move, its net and the best answers to it.
    let mut lines = String::new();
    let pos = to_move(after, s);
    let mut caps = Vec::new();
    pos.legal_captures(&mut caps);
    for c in caps {
        let taken = worth(&pos, c.to, s);
        let mut next = pos.clone();
        next.make(c);
        let net = taken + probe.exchange(&next, s, &[c.to], c.from, EXCHANGE_PLIES);
        let mut replies = Vec::new();
        next.legal_captures(&mut replies);
        let answers: Vec<String> = replies
            .iter()
            .map(|r| {
                let mut n2 = next.clone();
                n2.make(*r);
                let v = taken - worth(&next, r.to, s)
                    + probe.exchange(&n2, s, &[c.to, r.to], c.from, EXCHANGE_PLIES);
                format!("{}{}={v}", sq_name(r.from), sq_name(r.to))
            })
            .collect();
        lines.push_str(&format!(
            "    {}x{} takes {taken}, net {net}; answers {}\n",
            sq_name(c.from),
            sq_name(c.to),
            answers.join(" ")
        ));
    }
    format!(
        "  judged {:?}\n  wins before: {wins_before}\n  wins after: {wins_after}\n  mate threat before {mate_before} after {mate_after}; nodes {}\n{lines}",
        judge_move(before, m, after),
        probe.nodes
    )
}
