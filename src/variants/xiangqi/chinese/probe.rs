//! The questions the Chinese judge asks of a position: can the side to move
//! win material (captures played out as exchanges, and checks that end in
//! a capture), and can it mate by checks. Each within a budget of nodes.

use super::super::board::*;
use super::super::position::{Move, Position};
use super::super::why::between;
#[cfg(test)]
use super::judge_move;
use crate::variants::Color;

/// The longest chain of checks of a mate threat (the book's 图17 needs
/// seven).
const MATE_CHECKS: u32 = 7;
/// The longest chain of checks of a mate that refutes a capture where the
/// opponent's counter-checks are otherwise ignored (图8).
const PLAIN_MATE_CHECKS: u32 = 3;
/// The longest chain of checks before a capture wins material (抽将).
const WIN_CHECKS: u32 = 3;
/// Checks (that take nothing) the opponent may answer a capture with in an
/// exchange: a piece whose side wins it back by checks is defended (图3).
pub(super) const COUNTER_CHECKS: u32 = 2;
/// Plies of captures played out in an exchange.
const EXCHANGE_PLIES: u32 = 12;
/// Positions one question (a mate threat, the wins of one position) may
/// visit: no position makes a verdict slow. The book's examples need at
/// most about 16,000.
const BUDGET: u32 = 60_000;
#[cfg(test)]
thread_local! {
    /// Whether a question on this thread ran out of its budget (the book's
    /// test asserts that none does: no verdict depends on where a search
    /// was cut).
    pub(super) static BUDGET_SPENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

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
pub(super) fn worth(pos: &Position, s: Sq, chaser: Color) -> i32 {
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

/// The values between which an exchange's value matters: a value at or
/// below `alpha` (at or above `beta`) may be any such value.
#[derive(Clone, Copy, Debug)]
struct Window {
    alpha: i32,
    beta: i32,
}

impl Window {
    /// The value itself matters.
    #[cfg(test)]
    const ALL: Window = Window {
        alpha: -INFINITE,
        beta: INFINITE,
    };

    /// Only whether the value lies above `x` matters.
    fn above(x: i32) -> Window {
        Window {
            alpha: x,
            beta: x + 1,
        }
    }
}

/// A way for a side to win material on its next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Win {
    /// The enemy piece won, where it stands.
    pub(super) victim: Sq,
    /// The piece that takes first (for a win by checks, the checking piece).
    pub(super) capturer: Sq,
    /// Whether the win needs two of the side's pieces or more: the first
    /// capture alone does not come out ahead (a joint chase, 联合捉, or an
    /// under-protected piece, 少根子), or checks lead to it and another
    /// piece than a checking one takes (except the piece just moved, its
    /// way opened by the check, 图26).
    pub(super) joint: bool,
    /// Whether the capturing piece wins it by itself (a general's or
    /// soldier's own capture is idle, 26.1; checks always need others).
    pub(super) alone: bool,
}

/// What [`Probe::captures_won`]'s answer depends on besides the position
/// (its key here): the probe's state when it is asked.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Asked {
    key: u64,
    offers: bool,
    standoffs: Vec<(Sq, Sq)>,
    hanging: Vec<Sq>,
    root: Option<u64>,
    threatened: bool,
    on_points: bool,
    counter_checks: u32,
    moved: Option<Sq>,
    mate_standing: bool,
    immune: Option<Sq>,
    unguarded: bool,
}

/// What is known of a position's mates by checks: a mate within `within`
/// checks is also one within more, and none within `not_within` is none
/// within fewer.
struct MatesKnown {
    pos: Position,
    /// No mate by this many checks or fewer.
    not_within: u32,
    /// A mate by this many checks or fewer (`u32::MAX`: none known).
    within: u32,
}

/// What the questions of a judgement have found, kept for the next ones:
/// every answer in it is exact (one cut short by the budget is never
/// kept), so a judgement that finds an answer here gives the one it would
/// have worked out.
#[derive(Default)]
pub(super) struct Memory {
    /// [`Probe::mates_by_checks`]'s answers, by the position's key (checked
    /// in full). The same positions come back at every depth of a mate
    /// search, in each question of a move's judgement, and in the
    /// judgements of the moves of one cycle.
    mates: foldhash::HashMap<u64, MatesKnown>,
    /// [`Probe::captures_won`]'s answers, keyed by the position and every
    /// part of the probe's state the answer depends on (positions checked
    /// in full). A win by checks asks it of the same positions after
    /// different orders of checks, and the questions of one judgement ask
    /// it again.
    captures: foldhash::HashMap<Asked, (Position, Vec<Win>)>,
    /// [`Probe::wins`]'s answers, keyed by the position and the part of the
    /// probe's state they depend on (positions checked in full): the move
    /// that closes a cycle leaves the position the cycle's first move was
    /// judged in.
    wins: foldhash::HashMap<WinsAsked, (Position, Vec<Win>)>,
}

impl Memory {
    /// How many answers it holds.
    pub(super) fn len(&self) -> usize {
        self.mates.len() + self.captures.len() + self.wins.len()
    }
}

/// What [`Probe::wins`]'s answer depends on besides the position (its key
/// here): the rest of the probe's state it starts from.
#[derive(Clone, PartialEq, Eq, Hash)]
struct WinsAsked {
    key: u64,
    threatened: bool,
    counter_checks: u32,
    moved: Option<Sq>,
    immune: Option<Sq>,
}

/// The questions asked of one position, within a budget of nodes.
pub(super) struct Probe {
    nodes: u32,
    /// The offers of exchange standing where the chase is weighed: (the
    /// chaser's piece, the opponent's piece of the same kind) that can take
    /// each other. The opponent, to move, would take first or not; the
    /// chaser cannot count on taking along one of them.
    standoffs: Vec<(Sq, Sq)>,
    /// Before the move, the chaser's pieces that the opponent could already
    /// win (its standing threats): a capture that leaves one of them to be
    /// taken wins nothing (图10, 图25). After the move, for wins by checks
    /// only: the pieces that only the chaser's checks defend (参考图28).
    hanging: Vec<Sq>,
    /// The position the chase is weighed in: a piece it defended that an
    /// exchange stripped of its defenders may be taken too (图4).
    root: Option<Position>,
    /// Whether the opponent's standing threats count (before the move).
    threatened: bool,
    /// Whether the opponent's answers along the line the first capture
    /// opened are left out (to tell 各吃各子, each side taking a piece,
    /// from an exchange on one point).
    on_points: bool,
    /// Checks the opponent may answer a capture with.
    pub(super) counter_checks: u32,
    /// Where the judged move's piece stands (after the move).
    pub(super) moved: Option<Sq>,
    /// Whether the opponent threatens mate where the chase is weighed.
    mate_standing: bool,
    /// A piece of the chaser's that the opponent's captures leave alone
    /// (not its checks): to ask whether a win stood but for the threat to
    /// that piece.
    pub(super) immune: Option<Sq>,
    /// The answers found so far.
    memory: Memory,
    /// Whether a question ran out of its budget (its answer may be short of
    /// the truth).
    cut: bool,
    /// Whether the exchange weighed began by taking a piece the opponent
    /// cannot take back on its point (无根子): a capture with check
    /// elsewhere then takes nothing that counts against it (参考图21,
    /// 图8).
    unguarded: bool,
}

impl Probe {
    /// A probe that knows nothing yet.
    #[cfg(test)]
    pub(super) fn new() -> Probe {
        Probe::with(Memory::default())
    }

    /// A probe that knows what `memory` holds.
    pub(super) fn with(memory: Memory) -> Probe {
        Probe {
            nodes: 0,
            standoffs: Vec::new(),
            hanging: Vec::new(),
            root: None,
            threatened: false,
            on_points: false,
            counter_checks: COUNTER_CHECKS,
            moved: None,
            mate_standing: false,
            immune: None,
            unguarded: false,
            memory,
            cut: false,
        }
    }

    /// What it found, for the next probe.
    pub(super) fn into_memory(self) -> Memory {
        self.memory
    }

    /// Whether a question ran out of its budget.
    pub(super) fn was_cut(&self) -> bool {
        self.cut
    }

    /// Counts a node; true once the budget is spent.
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        #[cfg(test)]
        if self.nodes > BUDGET {
            BUDGET_SPENT.with(|spent| spent.set(true));
        }
        self.cut |= self.nodes > BUDGET;
        self.nodes > BUDGET
    }

    /// The material `chaser` nets from here (whoever is to move) in the
    /// exchange that follows its capture: the opponent answers by taking
    /// back on a point of the exchange (`points`), or along a line the
    /// chaser's capturing piece opened by leaving its point (a pinned
    /// piece that captures loses what stood behind it, 图23); the chaser
    /// takes back on a point the opponent took on; either may stop unless in
    /// check; a side in check must answer it, and being mated is the worst.
    /// `opened`: the point the chaser's first capture left; `checks`: the
    /// checks that take nothing the opponent may still answer with;
    /// `window`: which values matter (alpha-beta: exact, and fast).
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
            // The chaser takes back on the exchange's points, along a line
            // its first capture opened (参考图1: the horse's leg freed), or a
            // piece the exchange stripped of its defenders — taken by
            // another piece than a general or soldier: after an even
            // exchange, their capture is their own (参考图32, 参考图33).
            moves.retain(|m| {
                !self.standoffs.contains(&(m.from, m.to))
                    && (points.contains(&m.to)
                        || through(m.from, m.to, opened)
                        || (!general_or_soldier(pos, m.from) && self.stripped(pos, m.to, !chaser)))
            });
        } else {
            // Only a capture or a move that might check can pass.
            if checks > 0 {
                let might_check = check_points(pos.general(chaser));
                pos.legal_touching(might_check | pos.by_color[chaser.index()], &mut moves);
            } else {
                pos.legal_captures(&mut moves);
            }
            moves.retain(|&m| {
                let capture = pos.piece_at(m.to) != EMPTY;
                (capture
                    && Some(m.to) != self.immune
                    && self.bears_on(pos, m, points, opened, chaser))
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
            // Each side taking a piece: an answer to a check that takes off
            // the exchange's points takes a piece of its own (图28).
            // After the capture of a piece that cannot be taken back (无根子),
            // a capture with check elsewhere is a check that takes nothing
            // (参考图21: 车4退1 attacks the horse, and the rook that takes
            // the cannon the chariot left with check does not save it:
            // 捉; where the victim is guarded, the whole exchange counts,
            // 参考图31: "炮五进四打象" answers the cannon's capture).
            let off_point_check = self.unguarded
                && !ours
                && !in_check
                && pos.piece_at(m.to) != EMPTY
                && !self.bears_on(pos, m, points, opened, chaser);
            let taken = if off_point_check
                || (self.on_points && in_check && !ours && !points.contains(&m.to))
            {
                0
            } else {
                worth(pos, m.to, chaser)
            };
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

    /// Whether the opponent's capture `m` bears on the exchange: it takes
    /// back on one of its points, along the line the chaser's first capture
    /// opened (not when only the points count), a piece already threatened,
    /// or (before the move) a piece the exchange stripped of its defenders.
    fn bears_on(&self, pos: &Position, m: Move, points: &[Sq], opened: Sq, chaser: Color) -> bool {
        points.contains(&m.to)
            || (!self.on_points && through(m.from, m.to, opened))
            || self.hanging.contains(&m.to)
            || (self.threatened && self.stripped(pos, m.to, chaser))
    }

    /// Whether the piece of `side` on `s` was defended where the chase is
    /// weighed and the exchange has stripped it of its defenders.
    fn stripped(&self, pos: &Position, s: Sq, side: Color) -> bool {
        self.root.as_ref().is_some_and(|r| {
            r.piece_at(s) == pos.piece_at(s)
                && !r.attackers(s, side).is_empty()
                && pos.attackers(s, side).is_empty()
        })
    }

    /// Whether the side to move can mate at once (what
    /// [`Probe::mates_by_checks`] knows of one check, outside the budget).
    fn mates_in_one(&mut self, pos: &Position) -> bool {
        if let Some(known) = self.memory.mates.get(&pos.hash()) {
            if known.pos.same_placement(pos) && (known.not_within >= 1 || known.within <= 1) {
                return known.within <= 1;
            }
        }
        let mut moves = Vec::new();
        maybe_checks(pos, &mut moves);
        let mates = moves.into_iter().any(|m| {
            let mut next = pos.clone();
            next.make(m);
            next.general_attacked(next.side()) && !next.has_legal()
        });
        self.know_mates(pos, 1, mates);
        mates
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

    /// The captures by which the side to move wins material: each comes out
    /// ahead once every recapture is played out and does not let the
    /// opponent mate at once or leave its mate threat standing. In the
    /// position a move left (`offers`), two pieces of one kind that can take
    /// each other offer an exchange (兑): the opponent, to move, takes first
    /// or not, so neither wins the other; at the end of checks the chaser is
    /// really to move, and takes.
    fn captures_won(&mut self, pos: &Position, offers: bool) -> Vec<Win> {
        let asked = Asked {
            key: pos.hash(),
            offers,
            standoffs: self.standoffs.clone(),
            hanging: self.hanging.clone(),
            root: self.root.as_ref().map(Position::hash),
            threatened: self.threatened,
            on_points: self.on_points,
            counter_checks: self.counter_checks,
            moved: self.moved,
            mate_standing: self.mate_standing,
            immune: self.immune,
            unguarded: self.unguarded,
        };
        if let Some((known, wins)) = self.memory.captures.get(&asked) {
            // The root is compared by its key: it is the position of the
            // question, itself compared in full where the question began.
            if known.same_placement(pos) {
                return wins.clone();
            }
        }
        let wins = self.captures_won_now(pos, offers);
        // An answer cut short by the budget is not kept.
        if self.nodes <= BUDGET {
            self.memory.captures.insert(asked, (pos.clone(), wins.clone()));
        }
        wins
    }

    /// [`Probe::captures_won`], worked out.
    fn captures_won_now(&mut self, pos: &Position, offers: bool) -> Vec<Win> {
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
            // A capture that leaves a standing mate threat unparried is no
            // win (参考图35: the chariot that parries the horse's mate lets
            // the cannon's attack on the chariot become a chase, "车4平6解杀
            // 后形成炮捉车"); where the opponent's counter-checks are
            // ignored, a mate by up to three checks (图8: the chariot that
            // takes the soldier before the general steps back is mated,
            // "黑方退将后方可吃红兵，否则会被红方将死": the step back makes the
            // chase); else only a mate at once refutes it.
            let refuted = if self.mate_standing {
                self.mates(&after)
            } else if self.counter_checks == 0 {
                self.mates_by_checks(&after, PLAIN_MATE_CHECKS)
            } else {
                self.mates_in_one(&after)
            };
            if refuted {
                continue;
            }
            // The opponent's captures in answer (to the unguarded question
            // here, and to the single-or-joint question below).
            let mut replies = Vec::new();
            after.legal_captures(&mut replies);
            self.unguarded = !replies.iter().any(|r| r.to == c.to);
            // Only whether the capture comes out ahead matters.
            let rest = self.exchange_with(
                &after,
                chaser,
                &[c.to],
                c.from,
                EXCHANGE_PLIES,
                self.counter_checks,
                Window::above(-taken),
            );
            // Even, with the opponent's part taken along the line the
            // capture opened (各吃各子, each side taking a piece): "价值相当
            // …按捉" (26.5; 参考图27: the cannon takes the chariot and the
            // rank it leaves gives up the other chariot). A losing one is
            // none (被牵子捉子, 图23).
            let even_elsewhere = taken + rest == 0 && {
                self.on_points = true;
                let on_points = self.exchange_with(
                    &after,
                    chaser,
                    &[c.to],
                    c.from,
                    EXCHANGE_PLIES,
                    self.counter_checks,
                    Window::above(-taken),
                );
                self.on_points = false;
                taken + on_points > 0
            };
            self.unguarded = false;
            if taken + rest <= 0 && !even_elsewhere {
                continue;
            }
            // Single: ahead even when the chaser takes nothing more,
            // against the answers that bear on the capture (taking back on
            // its point, along the line it opened, or a piece already
            // threatened); what the opponent could take elsewhere does not
            // make it joint (参考图7, 参考图13, 图27).
            // (Only the opponent's captures can take anything: its moves
            // that take nothing, in check or not, are worth nothing here.)
            let answer = replies
                .iter()
                .filter(|r| {
                    r.to == c.to || through(r.from, r.to, c.from) || self.hanging.contains(&r.to)
                })
                .map(|r| worth(&after, r.to, chaser))
                .max()
                .unwrap_or(0);
            // A capture with check that does not come out ahead by itself
            // is a check that ends in a capture: what it chases is what the
            // answers leave (图26: the cannon that would take the elephant
            // with check, 炮5进2, opens the rank to the other cannon:
            // "黑方长捉车").
            if taken - answer <= 0 && after.general_attacked(after.side()) {
                continue;
            }
            // A cannon whose screen, a piece of its own side, is the piece
            // just moved and could take the victim too chases with it
            // (车炮联合捉车, 参考图38); not a screen whose capture would let
            // the opponent mate (图25). Nor alone when its screen, which
            // cannot take the victim but the victim could take, is guarded
            // by the piece just moved (参考图39: 车三退一 steps out of the
            // horse's attack and guards the horse that screens the cannon
            // from the chariot, "车马炮联合捉车").
            let own_screen = kind_of(pos.piece_at(c.from)) == Some(Kind::Cannon)
                && screen_of(pos, c.from, c.to).is_some_and(|x| {
                    let by_screen = Move::new(x, c.to);
                    color_of(pos.piece_at(x)) == chaser
                        && self.moved.is_some_and(|moved| {
                            if x == moved {
                                pos.is_legal(by_screen) && {
                                    let mut taken = pos.clone();
                                    taken.make(by_screen);
                                    !self.mates_in_one(&taken)
                                }
                            } else {
                                !pos.is_legal(by_screen)
                                    && pos.attackers(x, !chaser).contains(&c.to)
                                    && pos.attackers(x, chaser).contains(&moved)
                            }
                        })
                });
            // A defender that cannot take back, pinned by another of the
            // chaser's pieces: the pinning piece chases too (图11: the
            // cannon pins the elephant that guards the chariot's victim,
            // "车炮联合捉子").
            let pinned = after.attackers(c.to, !chaser).iter().any(|&d| {
                kind_of(after.piece_at(d)) != Some(Kind::General)
                    && !after.is_legal(Move::new(d, c.to))
            });
            wins.push(Win {
                victim: c.to,
                capturer: c.from,
                joint: own_screen || pinned || taken - answer <= 0,
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
    /// elsewhere are its own business (参考图20, 参考图23), except a piece
    /// that only the checks of a win by checks defended (参考图28).
    pub(super) fn wins(&mut self, pos: &Position, threatened: bool) -> Vec<Win> {
        let asked = WinsAsked {
            key: pos.hash(),
            threatened,
            counter_checks: self.counter_checks,
            moved: self.moved,
            immune: self.immune,
        };
        if let Some((known, wins)) = self.memory.wins.get(&asked) {
            if known.same_placement(pos) {
                return wins.clone();
            }
        }
        let cut = std::mem::replace(&mut self.cut, false);
        let wins = self.wins_now(pos, threatened);
        // An answer cut short by the budget is not kept.
        if !self.cut {
            self.memory.wins.insert(asked, (pos.clone(), wins.clone()));
        }
        self.cut |= cut;
        wins
    }

    /// [`Probe::wins`], worked out.
    fn wins_now(&mut self, pos: &Position, threatened: bool) -> Vec<Win> {
        self.mate_standing = self.threatens_mate(&to_move(pos, !pos.side()));
        self.nodes = 0;
        let mut captures = Vec::new();
        pos.legal_captures(&mut captures);
        // An offer the opponent cannot take up without being mated is none
        // (参考图49: the cannon that would take the cannon leaves its file
        // open to the horse's check: "不能离线").
        self.standoffs = self.offers(pos, captures);
        self.nodes = 0;
        self.hanging = Vec::new();
        self.threatened = threatened;
        if threatened {
            let mate = self.mates(pos);
            self.hanging = self.standing_threats(pos, mate);
            self.hanging.retain(|&h| Some(h) != self.immune);
        }
        self.root = Some(pos.clone());
        let mut wins = self.captures_won(pos, true);
        // A piece defended only by the checks of the chaser's pieces is
        // lost once checks are spent on a capture (参考图28: the chariot
        // that would win the horse back by checks wins an advisor by checks
        // instead, "做根子捉子，得不偿失"). Not asked where counter-checks
        // are ignored anyway.
        self.hanging.clear();
        if !threatened && self.counter_checks > 0 {
            let mate = self.mates(pos);
            let lost = self.standing_threats(pos, mate);
            let counter_checks = std::mem::replace(&mut self.counter_checks, 0);
            let unchecked = self.standing_threats(pos, mate);
            self.counter_checks = counter_checks;
            self.hanging = unchecked
                .into_iter()
                .filter(|v| !lost.contains(v))
                .collect();
        }
        self.nodes = 0;
        let mut by_checks = Vec::new();
        self.wins_by_checks(pos, pos.side(), WIN_CHECKS, 0, &mut by_checks);
        // Checks by a piece the move offered in exchange (兑), or that win
        // the piece offered to it, win nothing: the opponent, to move,
        // trades them off (图13: the cannon behind the chariot could check
        // and win the chariot, but 车六平五 is "兑"; 图21: 车四退二 backs
        // the horse that offers itself to the horse, "一兑").
        if !threatened {
            by_checks.retain(|w| {
                !self
                    .standoffs
                    .iter()
                    .any(|s| s.0 == w.capturer || s.1 == w.victim)
            });
        }
        wins.extend(by_checks);
        wins
    }

    /// The offers of exchange among `captures` (the side to move's, in
    /// `pos`): (its piece, the opponent's piece of the same kind) that can
    /// take each other, where the opponent's taking first leaves it no
    /// mate threat.
    fn offers(&mut self, pos: &Position, captures: Vec<Move>) -> Vec<(Sq, Sq)> {
        captures
            .into_iter()
            .filter(|&c| {
                kind_of(pos.piece_at(c.from)) == kind_of(pos.piece_at(c.to))
                    && could_take_back(pos, c)
                    && {
                        let mut taken = to_move(pos, !pos.side());
                        taken.make(Move::new(c.to, c.from));
                        !self.threatens_mate(&taken)
                    }
            })
            .map(|c| (c.from, c.to))
            .collect()
    }

    /// The standing threats against the side to move in `pos`: the pieces
    /// the opponent, were it to move, could win by a capture (weighed in
    /// the opponent's own position: its defenders, and `mate`, whether the
    /// side to move here threatens mate, [`Probe::mates`]). The probe's
    /// state is as it was after.
    fn standing_threats(&mut self, pos: &Position, mate: bool) -> Vec<Sq> {
        let them = to_move(pos, !pos.side());
        let mate_standing = std::mem::replace(&mut self.mate_standing, mate);
        let root = self.root.replace(them.clone());
        let threats = self.captures_won(&them, false);
        self.mate_standing = mate_standing;
        self.root = root;
        threats.into_iter().map(|w| w.victim).collect()
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
                        gain + self.exchange_with(
                            &taken,
                            chaser,
                            &[w.victim],
                            w.capturer,
                            EXCHANGE_PLIES,
                            self.counter_checks,
                            Window::above(-gain),
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

    /// The pieces the piece on `from` wins by a capture that every
    /// recapture on its point loses to checks (吃子后将军得子): the
    /// recapturing piece is mated by checks, or its step off its post lets
    /// the chaser's checks win more than the exchange gave (参考图34: 炮9退2
    /// attacks the elephant; the general that takes back is mated by
    /// 车4平5, and the elephant that takes back opens the bottom rank to
    /// the chariot's checks: "红方如吃炮，黑方将军得车", 联合捉子). The
    /// side to move in `pos` chases; the captures it asks of are those
    /// that the opponent can take back.
    pub(super) fn wins_through_recapture(&mut self, pos: &Position, from: Sq) -> Vec<Sq> {
        self.nodes = 0;
        let chaser = pos.side();
        let mut captures = Vec::new();
        pos.legal_captures(&mut captures);
        if !captures.iter().any(|c| c.from == from) {
            return Vec::new();
        }
        // Not a piece offered in exchange, nor the piece offered to it
        // (图21: 车四退二 backs the horse that offers itself, "兑").
        let offers = self.offers(pos, captures.clone());
        self.nodes = 0;
        let mut won = Vec::new();
        for c in captures.into_iter().filter(|c| c.from == from) {
            let taken = worth(pos, c.to, chaser);
            if taken == 0 || self.spent() {
                continue;
            }
            if offers.iter().any(|o| o.0 == c.from || o.1 == c.to) {
                continue;
            }
            let mut after = pos.clone();
            after.make(c);
            if self.mates_in_one(&after) {
                continue;
            }
            let mut replies = Vec::new();
            after.legal_captures(&mut replies);
            replies.retain(|r| r.to == c.to);
            if replies.is_empty() {
                continue;
            }
            let balance = taken - worth(&after, c.to, chaser);
            let refuted = replies.iter().all(|&r| {
                let mut next = after.clone();
                next.make(r);
                if self.mates_by_checks(&next, PLAIN_MATE_CHECKS) {
                    return true;
                }
                let mut by_checks = Vec::new();
                self.wins_by_checks(&next, chaser, WIN_CHECKS, balance, &mut by_checks);
                !by_checks.is_empty()
            });
            if refuted {
                won.push(c.to);
            }
        }
        won
    }

    /// Whether `attacker`, to move in `pos`, mates by a check or an unbroken
    /// chain of at most `checks` checks, whatever the answers. A check that
    /// mates at once is looked for first, then the chains.
    fn mates_by_checks(&mut self, pos: &Position, checks: u32) -> bool {
        if checks == 0 {
            return false;
        }
        if let Some(known) = self.memory.mates.get(&pos.hash()) {
            if known.pos.same_placement(pos) {
                if checks <= known.not_within {
                    return false;
                }
                if checks >= known.within {
                    return true;
                }
            }
        }
        if self.spent() {
            return false;
        }
        let mut moves = Vec::new();
        maybe_checks(pos, &mut moves);
        let mut checked = Vec::with_capacity(moves.len());
        let mut mates = false;
        for m in moves {
            let mut after = pos.clone();
            after.make(m);
            if after.general_attacked(after.side()) {
                if !after.has_legal() {
                    mates = true;
                    break;
                }
                checked.push(after);
            }
        }
        if !mates && checks > 1 {
            mates = checked
                .iter()
                .any(|after| self.mated_after_answers(after, checks - 1));
        }
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
    pub(super) fn mating_moves(&mut self, pos: &Position) -> Vec<Move> {
        self.nodes = 0;
        let mut moves = Vec::new();
        maybe_checks(pos, &mut moves);
        // Only a check begins a mate by checks: the others are tried once,
        // not at every depth.
        let them = !pos.side();
        moves.retain(|&m| {
            let mut after = pos.clone();
            after.make(m);
            after.general_attacked(them)
        });
        moves.retain(|&m| self.mates_after(pos, m, MATE_CHECKS));
        moves
    }

    /// Whether the side to move can make the capture `c` safely: the
    /// exchange that follows leaves it no worse off, and the opponent
    /// cannot then mate by checks (an offer of exchange that can be taken
    /// up).
    pub(super) fn takes_safely(&mut self, pos: &Position, c: Move) -> bool {
        let taker = pos.side();
        let taken = worth(pos, c.to, taker);
        let mut after = pos.clone();
        after.make(c);
        if self.threatens_mate(&after) {
            return false;
        }
        // Weighed in `pos` alone: no standing threats or offers of another
        // question.
        self.nodes = 0;
        self.standoffs.clear();
        self.hanging.clear();
        self.threatened = false;
        self.root = Some(pos.clone());
        let rest = self.exchange_with(
            &after,
            taker,
            &[c.to],
            c.from,
            EXCHANGE_PLIES,
            self.counter_checks,
            Window::above(-taken - 1),
        );
        taken + rest >= 0
    }

    /// Whether the side to move threatens mate by checks (a check that
    /// mates at once is found before any chain is searched).
    pub(super) fn threatens_mate(&mut self, pos: &Position) -> bool {
        self.nodes = 0;
        self.mates(pos)
    }

    /// Whether the side to move mates by checks, within the budget left.
    fn mates(&mut self, pos: &Position) -> bool {
        self.mates_by_checks(pos, MATE_CHECKS)
    }
}

/// The points a move must leave or reach to check the general on `g`: its
/// file and rank (a chariot, cannon or general arriving; a screen arriving
/// or leaving), the points a horse checks it from, and the four diagonal
/// neighbours where a horse's leg stands (a leg stepping away). A soldier
/// checks from a neighbour on the file or rank. Any other move leaves the
/// general as attacked as it was: a cheap test before a move is made.
pub(super) fn check_points(g: Sq) -> u128 {
    let (f, r) = (file_of(g) as i32, rank_of(g) as i32);
    let mut points = (FILE_A << f) | (RANK_0 << (r as usize * FILES));
    for (df, dr) in [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let (x, y) = (f + df, r + dr);
        if (0..FILES as i32).contains(&x) && (0..RANKS as i32).contains(&y) {
            points |= bit(sq(x as usize, y as usize));
        }
    }
    points
}

/// The legal moves of the side to move that might check (see
/// [`check_points`]); the caller makes each to see.
fn maybe_checks(pos: &Position, out: &mut Vec<Move>) {
    pos.legal_touching(check_points(pos.general(!pos.side())), out);
}

/// Whether a move from `from` to `to` passes over `point`: along a line
/// (a chariot's or cannon's path), or by a horse's leg or an elephant's
/// eye there.
fn through(from: Sq, to: Sq, point: Sq) -> bool {
    if file_of(from) == file_of(to) || rank_of(from) == rank_of(to) {
        return between(from, to).any(|x| x == point);
    }
    let (ff, fr) = (file_of(from) as i32, rank_of(from) as i32);
    let (tf, tr) = (file_of(to) as i32, rank_of(to) as i32);
    let (pf, pr) = (file_of(point) as i32, rank_of(point) as i32);
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
pub(super) fn could_take_back(pos: &Position, c: Move) -> bool {
    let mut turned = pos.clone();
    turned.set_side(!pos.side());
    turned.is_legal(Move::new(c.to, c.from))
}

/// The piece a cannon's capture from `from` to `to` (on one line) jumps
/// over.
pub(super) fn screen_of(pos: &Position, from: Sq, to: Sq) -> Option<Sq> {
    between(from, to).find(|&x| pos.piece_at(x) != EMPTY)
}

/// Whether the piece on `s` is a general or a soldier.
fn general_or_soldier(pos: &Position, s: Sq) -> bool {
    matches!(
        kind_of(pos.piece_at(s)),
        Some(Kind::General | Kind::Soldier)
    )
}

/// `pos` with `side` to move.
pub(super) fn to_move(pos: &Position, side: Color) -> Position {
    let mut p = pos.clone();
    p.set_side(side);
    p
}

/// What the judge sees of one move, for a person debugging a verdict.
#[cfg(test)]
pub fn explain_move(
    before: &Position,
    m: Move,
    after: &Position,
    earlier: Option<&Position>,
) -> String {
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
    probe.moved = Some(m.to);
    let wins_after = show(probe.wins(&to_move(after, s), false));
    probe.moved = None;
    let mate_before = probe.threatens_mate(&to_move(before, s));
    let mate_after = probe.threatens_mate(&to_move(after, s));
    let names = |ms: Vec<Move>| {
        ms.iter()
            .map(|x| format!("{}{}", sq_name(x.from), sq_name(x.to)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mating = format!(
        "  mating moves before: {}; after: {}\n",
        names(probe.mating_moves(&to_move(before, s))),
        names(probe.mating_moves(&to_move(after, s)))
    );
    // Each capture before and after the move, its net and the best
    // answers to it, weighed plainly: no standing threats, no defender
    // stripped.
    probe.hanging.clear();
    probe.root = None;
    probe.threatened = false;
    let mut captures = |pos: &Position| {
        let mut lines = String::new();
        let mut caps = Vec::new();
        pos.legal_captures(&mut caps);
        for c in caps {
            let taken = worth(pos, c.to, s);
            let mut next = pos.clone();
            next.make(c);
            let net = taken
                + probe.exchange_with(
                    &next,
                    s,
                    &[c.to],
                    c.from,
                    EXCHANGE_PLIES,
                    COUNTER_CHECKS,
                    Window::ALL,
                );
            let mut replies = Vec::new();
            next.legal_captures(&mut replies);
            let answers: Vec<String> = replies
                .iter()
                .map(|r| {
                    let mut n2 = next.clone();
                    n2.make(*r);
                    let v = taken - worth(&next, r.to, s)
                        + probe.exchange_with(
                            &n2,
                            s,
                            &[c.to, r.to],
                            c.from,
                            EXCHANGE_PLIES,
                            COUNTER_CHECKS,
                            Window::ALL,
                        );
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
        lines
    };
    let lines = format!(
        "{mating}  captures before:\n{}  captures after:\n{}",
        captures(&to_move(before, s)),
        captures(&to_move(after, s))
    );
    format!(
        "  judged {:?}\n  wins before: {wins_before}\n  wins after: {wins_after}\n  mate threat before {mate_before} after {mate_after}; nodes {}\n{lines}",
        judge_move(before, m, after, earlier),
        probe.nodes
    )
}
