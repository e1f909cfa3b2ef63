//! What an analysis asks beyond a best move (`/analyze`, `arbiter uci`):
//! the root moves to choose among, every move scored, the opponent's
//! threat — what it would play were it its move — and a playing level.

use super::level::{self, Level};
use super::{search_among, Control, Evaluate, Limits, Line, Progress, Score, SearchResult, Table};
use crate::variants::Game;

/// The share of the time and nodes the threat's search gets when asked
/// for (one part in this many; the main search has the rest).
const THREAT_SHARE: u32 = 5;

/// An analysis: limits, and the questions beyond the best move. It owns
/// the engine's policy for both front-ends: a level's evaluation and
/// nodes, and the most lines, are applied when it is made
/// ([`Request::playing`]), once.
#[derive(Clone, Debug)]
pub struct Request<M> {
    /// The search's limits (`multipv` lines unless `all_moves`), with the
    /// level's applied.
    limits: Limits,
    /// The root moves to choose among (legal moves of the position);
    /// `None`: every legal move.
    pub root: Option<Vec<M>>,
    /// One line per root move, best first.
    pub all_moves: bool,
    /// Also search the opponent's best move were it its turn.
    pub threat: bool,
    /// The level below the full strength it plays at ([`level`]): fewer
    /// nodes, and the move chosen among the nearly best.
    level: Option<Level>,
    /// The seed of a level's choice (the same seed, position and limits
    /// choose the same move).
    seed: u64,
}

impl<M> Request<M> {
    /// A plain search under `limits`, at most [`MAX_MULTIPV`] lines.
    pub fn new(mut limits: Limits) -> Request<M> {
        limits.multipv = limits.multipv.clamp(1, MAX_MULTIPV);
        Request {
            limits,
            root: None,
            all_moves: false,
            threat: false,
            level: None,
            seed: 0,
        }
    }

    /// A search under `limits` at `level` (`None` or the full strength:
    /// full strength), a level's choice seeded by `seed`: what the level
    /// changes in the limits ([`level_limits`]) is applied here, and the
    /// lines asked for are capped at [`MAX_MULTIPV`].
    pub fn playing<V: Evaluate>(mut limits: Limits, level: Option<Level>, seed: u64) -> Request<M> {
        let level = level.filter(|l| !l.is_full());
        level_limits::<V>(level, &mut limits);
        Request {
            level,
            seed: if level.is_some() { seed } else { 0 },
            ..Request::new(limits)
        }
    }

    /// The limits it searches with, the level's applied (what the API
    /// reports).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The level below the full strength it plays at, if any.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// The seed of the level's choice (0 at the full strength).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Takes `spent` off its time, as a clock that runs from the `go`
    /// does (at least a millisecond is left).
    pub fn spend(&mut self, spent: std::time::Duration) {
        let rest = |t: std::time::Duration| {
            t.saturating_sub(spent)
                .max(std::time::Duration::from_millis(1))
        };
        self.limits.movetime = self.limits.movetime.map(rest);
        self.limits.optimum = self.limits.optimum.map(rest);
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
fn level_limits<V: Evaluate>(level: Option<Level>, limits: &mut Limits) {
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
