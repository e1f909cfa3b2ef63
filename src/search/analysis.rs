//! What an analysis asks beyond a best move (`/analyze`, `arbiter uci`):
//! the root moves to choose among, every move scored, the opponent's
//! threat — what it would play were it its move — and a playing level.

use super::level::{self, Level};
use super::{search_among, Control, Evaluate, Limits, Line, Progress, Score, SearchResult, Table};
use crate::variants::Game;

/// The share of the time and nodes the threat's search gets when asked
/// for (one part in this many; the main search has the rest).
const THREAT_SHARE: u32 = 5;

/// An analysis: limits, and the questions beyond the best move.
#[derive(Clone, Debug)]
pub struct Request<M> {
    /// The search's limits (`multipv` lines unless `all_moves`).
    pub limits: Limits,
    /// The root moves to choose among (legal moves of the position);
    /// `None`: every legal move.
    pub root: Option<Vec<M>>,
    /// One line per root move, best first.
    pub all_moves: bool,
    /// Also search the opponent's best move were it its turn.
    pub threat: bool,
    /// Play at this level ([`level`]): fewer nodes, and the move chosen
    /// among the nearly best; `None` or level 20: full strength.
    pub level: Option<Level>,
    /// The seed of a level's choice (the same seed, position and limits
    /// choose the same move).
    pub seed: u64,
}

impl<M> Request<M> {
    /// A plain search under `limits`.
    pub fn new(limits: Limits) -> Request<M> {
        Request {
            limits,
            root: None,
            all_moves: false,
            threat: false,
            level: None,
            seed: 0,
        }
    }
}

/// The opponent's best move were it its turn, and its score from the
/// opponent's view.
#[derive(Clone, Debug)]
pub struct Threat<M> {
    /// The move.
    pub mv: M,
    /// Its score, for the opponent.
    pub score: Score,
}

/// What an analysis found.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    /// The search of the position (with a level below the full strength,
    /// its `best_move` is the level's choice among its lines).
    pub result: SearchResult<M>,
    /// The threat, when asked for and the side to move is not in check
    /// (in check the opponent's "move" would be to take the general).
    pub threat: Option<Threat<M>>,
}

/// The most lines an analysis reports (`multipv`), in every front-end.
pub const MAX_MULTIPV: usize = 5;

/// What a level below the full strength changes in the limits it plays
/// with: the hand-written evaluation the levels were calibrated with, and
/// at most the level's nodes. Both front-ends play a level this way (and
/// the API reports these limits).
pub fn level_limits<V: Evaluate>(level: Option<Level>, limits: &mut Limits) {
    if let Some(step) = level.and_then(|l| V::LADDER.step(l)) {
        limits.network = None;
        limits.nodes = Some(step.cap_nodes(limits.nodes));
    }
}

/// Runs an analysis of the current position of `game`. `None` when there
/// is no root move to choose among (no legal move, or none of those
/// asked for).
pub fn analyse<V: Evaluate>(
    game: &Game<V>,
    req: &Request<V::Move>,
    control: &Control,
    table: &Table,
    progress: Option<Progress<'_, V::Move>>,
) -> Option<Analysis<V::Move>> {
    let pos = game.current();
    let mut root = Vec::new();
    pos.legal_moves(&mut root);
    if let Some(only) = &req.root {
        root.retain(|m| only.contains(m));
    }
    let threat_asked = req.threat && !pos.in_check();
    let mut limits = req.limits.clone();
    let mut threat_limits = req.limits.clone();
    if threat_asked {
        limits.movetime = limits.movetime.map(|t| t - t / THREAT_SHARE);
        limits.nodes = limits.nodes.map(|n| n - n / u64::from(THREAT_SHARE));
        threat_limits.movetime = threat_limits.movetime.map(|t| t / THREAT_SHARE);
        threat_limits.nodes = threat_limits
            .nodes
            .map(|n| (n / u64::from(THREAT_SHARE)).max(1));
        threat_limits.multipv = 1;
    }
    level_limits::<V>(req.level, &mut limits);
    let weaker = req.level.and_then(|l| V::LADDER.step(l));
    if let Some(step) = weaker {
        limits.multipv = limits.multipv.max(step.lines);
    }
    if req.all_moves {
        limits.multipv = root.len().max(1);
    }
    let mut result = search_among(game, root, &limits, control, table, progress)?;
    if let Some(step) = weaker {
        let mut rng = fastrand::Rng::with_seed(req.seed);
        if let Some(mv) = level::choose(game, &result.lines, step, &mut rng) {
            result.best_move = mv;
        }
    }
    let threat = if threat_asked {
        threat_of(game, &threat_limits, control, table).map(|(t, nodes, elapsed)| {
            result.nodes += nodes;
            result.elapsed += elapsed;
            t
        })
    } else {
        None
    };
    Some(Analysis { result, threat })
}

/// The opponent's best move in the position with the turn passed (a game
/// of its own: the history's repetitions do not apply to a move that is
/// not the opponent's turn).
fn threat_of<V: Evaluate>(
    game: &Game<V>,
    limits: &Limits,
    control: &Control,
    table: &Table,
) -> Option<(Threat<V::Move>, u64, std::time::Duration)> {
    let passed = game.current().pass();
    let g = Game::new(passed, game.rules().clone());
    let mut moves = Vec::new();
    g.current().legal_moves(&mut moves);
    let r = search_among(&g, moves, limits, control, table, None)?;
    let line: &Line<V::Move> = r.lines.first()?;
    Some((
        Threat {
            mv: r.best_move,
            score: line.score,
        },
        r.nodes,
        r.elapsed,
    ))
}
