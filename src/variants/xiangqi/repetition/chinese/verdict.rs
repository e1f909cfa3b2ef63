//! The verdicts of the Chinese code: the table ([`ruling`]) on both sides'
//! conduct over a cycle ([`judge_span`], each move's nature from
//! [`judge_move_remembered`]), and the nine-move rule
//! ([`nine_forbidden_moves`]).

use super::super::{Pieces, Span, Step};
use super::judge_move_remembered;
use crate::variants::xiangqi::board::*;
use crate::variants::xiangqi::position::{Move, Position};
use crate::variants::{
    Color, Conduct, Nature, Pattern, Reason, RepetitionReport, Variant, Verdict,
};

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

/// Judges a repeated span under the Chinese rules.
pub(in crate::variants::xiangqi) fn judge_span(span: Span) -> Verdict {
    // Each move's nature and the pieces it chases, followed through the
    // span so that a chased piece is named where it stands at the end.
    let (judged, ids) = span.walk(|step, ids| {
        let judged = judge_move_remembered(&step);
        let chased: Vec<u8> = judged.chased.iter().map(|&v| ids.at(v)).collect();
        let chases: Vec<(u8, u8)> = judged
            .chases
            .iter()
            .map(|&(a, v)| (ids.at(a), ids.at(v)))
            .collect();
        (judged.nature, judged.joint, chased, chases)
    });
    let natures = judged
        .each_ref()
        .map(|js| js.iter().map(|j| j.0).collect::<Vec<Nature>>());
    let joint = judged.each_ref().map(|js| js.iter().any(|j| j.1));
    let chased = judged
        .each_ref()
        .map(|js| js.iter().flat_map(|j| j.2.clone()).collect::<Vec<u8>>());
    let chases = judged.each_ref().map(|js| {
        js.iter()
            .flat_map(|j| j.3.clone())
            .collect::<Vec<(u8, u8)>>()
    });
    let conduct = |c: Color| -> Conduct {
        let i = c.index();
        let pattern = Pattern::of(&natures[i]);
        let (points, pairs) = where_they_stand(&ids, &chased[i], &chases[i]);
        let forbidden = pattern.is_forbidden();
        Conduct {
            pattern,
            natures: natures[i].clone(),
            chased: if forbidden { points } else { Vec::new() },
            chases: if forbidden { pairs } else { Vec::new() },
            joint: joint[i],
        }
    };
    let conduct = [conduct(Color::White), conduct(Color::Black)];
    let (in_breach, reason) = ruling(&conduct);
    span.verdict(reason, in_breach, conduct)
}

/// The nine-move rule: a side whose last nine moves were all forbidden
/// (checks, mate threats, chases) on three points or more must change even
/// without a threefold repetition, and loses on its ninth (参考图8). The
/// rule counts *cyclically repeating* attacking moves (24.13: 循环重复的攻击性
/// 着法; `docs/rules/xiangqi.md`): the nine moves lie after the last capture
/// and the last forward soldier move of either side, and each of them is
/// part of a cycle (see [`every_move_cycles`]). A progressive attack, or
/// one that repeats a few times before it goes on, is never caught. `None` unless the side
/// that just moved did all that. The checks cheap to make come first, so
/// a game without such a run costs no move's nature.
pub fn nine_forbidden_moves(positions: &[Position], moves: &[Move]) -> Option<Verdict> {
    const NINE: usize = 9;
    const SPAN: usize = 2 * NINE - 1;
    let n = moves.len();
    let last = positions.last()?;
    if n < SPAN || (last.halfmove_clock() as usize) < SPAN {
        return None;
    }
    // The nine moves and the replies between them, positions[from..=n].
    let from = n - SPAN;
    if (from..n).any(|j| advances_soldier(&positions[j], moves[j])) {
        return None;
    }
    // Since the last irreversible move (a capture, a soldier's advance).
    let mut since = n - last.halfmove_clock() as usize;
    if let Some(j) = (since..from)
        .rev()
        .find(|&j| advances_soldier(&positions[j], moves[j]))
    {
        since = j + 1;
    }
    // Every one of the nine moves is part of a cycle: it lies between two
    // occurrences of one position (or brings about a position that comes
    // back), all since the last irreversible move.
    if !every_move_cycles(&positions[since..=n], n - since) {
        return None;
    }
    let mover = !last.side();
    // Three points or more, before any move's nature is asked.
    let mut points: Vec<Sq> = (0..NINE).map(|k| moves[n - 1 - 2 * k].to).collect();
    points.sort_unstable();
    points.dedup();
    if points.len() < 3 {
        return None;
    }
    let mut judged = Vec::with_capacity(NINE);
    for k in 0..NINE {
        let j = n - 1 - 2 * k;
        let verdict = judge_move_remembered(&Step::at(positions, moves, j));
        if verdict.nature == Nature::Idle {
            return None;
        }
        judged.push(verdict);
    }
    judged.reverse();
    // Each chase named by where its pieces stand at the ninth move.
    let mut ids = Pieces::on(&positions[from]);
    let (mut chased, mut chases) = (Vec::new(), Vec::new());
    for (j, &m) in moves.iter().enumerate().skip(from) {
        // A judged move names its pieces where they stand after it.
        ids.play(m);
        if (n - 1 - j).is_multiple_of(2) {
            let verdict = &judged[(j - from) / 2];
            chased.extend(verdict.chased.iter().map(|&v| ids.at(v)));
            chases.extend(verdict.chases.iter().map(|&(a, v)| (ids.at(a), ids.at(v))));
        }
    }
    let (chased, chases) = where_they_stand(&ids, &chased, &chases);
    let natures: Vec<Nature> = judged.iter().map(|j| j.nature).collect();
    let mut conduct = [Conduct::allowed(Vec::new()), Conduct::allowed(Vec::new())];
    conduct[mover.index()] = Conduct {
        pattern: Pattern::of(&natures),
        natures,
        chased,
        chases,
        joint: judged.iter().any(|j| j.joint),
    };
    Some(Verdict {
        reason: Reason::NineForbiddenMoves,
        winner: Some(!mover),
        repetition: Some(Box::new(RepetitionReport {
            occurrences: Vec::new(),
            cycle: (from, n),
            conduct,
            in_breach: Some(mover),
        })),
    })
}

/// The chased pieces and the (chaser, chased) pairs, followed by their ids,
/// named by the points they stand on now, each once, in order.
fn where_they_stand(ids: &Pieces, chased: &[u8], chases: &[(u8, u8)]) -> (Vec<Sq>, Vec<(Sq, Sq)>) {
    let mut points: Vec<Sq> = chased.iter().filter_map(|&id| ids.point(id)).collect();
    points.sort_unstable();
    points.dedup();
    let mut pairs: Vec<(Sq, Sq)> = chases
        .iter()
        .filter_map(|&(a, v)| Some((ids.point(a)?, ids.point(v)?)))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    (points, pairs)
}

/// Whether each of the mover's nine moves is part of a cycle in `run`, the
/// positions since the last irreversible move, the newest at `last`: the
/// mover's moves bring about `run[last]`, `run[last - 2]`, … (nine of them).
/// A move is part of a cycle when the position it brings about lies between
/// two occurrences of one position, both ends included: inside a cycle, at
/// its return, or as the move that enters it (参考图8's nine moves
/// enter a new sub-cycle twice: `c9i9`, `h9h3`).
fn every_move_cycles(run: &[Position], last: usize) -> bool {
    // For each position, the span from its first to its last occurrence.
    let mut covered = vec![false; run.len()];
    for a in 0..run.len() {
        let same =
            |b: &usize| run[*b].hash_key() == run[a].hash_key() && run[*b].same_position(&run[a]);
        if let Some(b) = (a + 1..run.len()).rev().find(same) {
            covered[a..=b].iter_mut().for_each(|c| *c = true);
        }
    }
    (0..9).all(|k| last >= 2 * k && covered[last - 2 * k])
}

/// Whether `m` moves a soldier forward (across a rank): a move that can
/// never be taken back.
fn advances_soldier(pos: &Position, m: Move) -> bool {
    pos.kind_at(m.from).is_some_and(|(_, k)| k == Kind::Soldier) && rank_of(m.from) != rank_of(m.to)
}
