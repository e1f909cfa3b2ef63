//! The questions the Chinese judge asks of a position: can the side to move
//! win material (captures played out as exchanges, and checks that end in
//! a capture), and can it mate by checks. Each within a budget of nodes.
//!
//! Here: the probe, its memory and budget, and the wins of a position (the
//! question the judge asks most); `exchange.rs`: captures played out as
//! exchanges; `checks.rs`: mates by checks and wins by checks.

mod checks;
mod exchange;

#[cfg(test)]
use super::judge_move;
use crate::variants::xiangqi::bitboards::*;
use crate::variants::xiangqi::board::*;
use crate::variants::xiangqi::position::{Move, Position};
use crate::variants::xiangqi::why::between;
use crate::variants::Color;

/// The longest chain of checks of a mate threat (the book's 图17 needs seven).
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
/// visit: no position makes a verdict slow. The book's examples need at most about 16,000.
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

/// The wins `memory` holds for `asked`, when they were found in `pos`
/// itself (not another position with the same key).
fn recall<K: std::hash::Hash + Eq>(
    memory: &foldhash::HashMap<K, (Position, Vec<Win>)>,
    asked: &K,
    pos: &Position,
) -> Option<Vec<Win>> {
    let (known, wins) = memory.get(asked)?;
    known.same_placement(pos).then(|| wins.clone())
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
        if let Some(wins) = recall(&self.memory.wins, &asked, pos) {
            return wins;
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
