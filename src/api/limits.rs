//! A request's search limits against the server's caps, for `analyze` and
//! `review`; the problem of a search the pool did not run.

use std::sync::Arc;
use std::time::Duration;

use super::engine::{EngineConfig, EnginePool, Refused};
use super::error::{internal, ApiError, Problem};
use super::wire::Evaluation;
use serde::Serialize;
use utoipa::ToSchema;

use crate::dispatch::Playable;
use crate::search::analysis::{level_limits, MAX_MULTIPV};
use crate::search::level::Level;
use crate::search::{Limits, Network};

/// Each limit a request sets, (field, value, most allowed), must lie
/// within 1 and its most.
pub fn in_range(limits: &[(&str, Option<u64>, u64)]) -> Result<(), ApiError> {
    for &(field, value, max) in limits {
        if let Some(v) = value.filter(|&v| v == 0 || v > max) {
            return Err(ApiError::new(
                Problem::InvalidLimits,
                format!("{field}: {v} is out of range; use 1 to {max}"),
            )
            .field(field));
        }
    }
    Ok(())
}

/// The network a search runs with: the evaluation asked for, else the
/// variant's network where it has one (a level below the full strength
/// then drops it: [`level_limits`]). `nnue` is refused for such a level
/// and for a variant without a network.
pub fn network<V: Playable>(
    asked: Option<Evaluation>,
    level: bool,
) -> Result<Option<Arc<Network>>, ApiError> {
    let refuse = |why: String| {
        Err(ApiError::new(Problem::InvalidLimits, format!("evaluation: {why}")).field("evaluation"))
    };
    match (asked, V::shipped_network()) {
        (Some(Evaluation::Nnue), _) if level => refuse(
            "the levels below 20 were calibrated with the hand-written evaluation; \
             use hce or leave it out"
                .to_owned(),
        ),
        (Some(Evaluation::Nnue), None) => {
            refuse(format!("{} has no network; use hce or leave it out", V::ID))
        }
        (Some(Evaluation::Hce), _) | (None, None) => Ok(None),
        (_, Some(net)) => Ok(Some(net)),
    }
}

/// The limits a search request asks for (`analyze`'s fields of the same
/// names), each optional.
#[derive(Debug, Clone, Copy, Default)]
pub struct Asked {
    /// `depth`.
    pub depth: Option<u32>,
    /// `movetime_ms`.
    pub movetime_ms: Option<u64>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `multipv`.
    pub multipv: Option<usize>,
    /// `level`.
    pub level: Option<u32>,
    /// `seed`.
    pub seed: Option<u64>,
    /// `evaluation`.
    pub evaluation: Option<Evaluation>,
}

/// The limits the search ran under, after defaults and caps.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppliedLimits {
    /// The deepest iteration allowed.
    pub depth: u32,
    /// The time allowed, in milliseconds.
    pub movetime_ms: u64,
    /// The node limit, if one was set.
    pub nodes: Option<u64>,
    /// How many lines were asked for.
    pub multipv: usize,
    /// The playing level, when one below the full strength was asked for
    /// (its node limit is in `nodes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// The seed of the level's choice, to replay it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The evaluation the search scored positions with.
    pub evaluation: Evaluation,
}

/// Reads a request's search limits against the server's caps.
pub fn search_limits<V: Playable>(
    req: &Asked,
    config: &EngineConfig,
) -> Result<(AppliedLimits, Limits, Option<Level>, u64), ApiError> {
    let max_ms = config.max_movetime.as_millis() as u64;
    in_range(&[
        (
            "depth",
            req.depth.map(u64::from),
            u64::from(config.max_depth),
        ),
        ("movetime_ms", req.movetime_ms, max_ms),
        ("nodes", req.nodes, config.max_nodes),
        ("multipv", req.multipv.map(|m| m as u64), MAX_MULTIPV as u64),
        ("level", req.level.map(u64::from), u64::from(Level::FULL)),
    ])?;
    let multipv = req.multipv.unwrap_or(1);
    // A level below the full strength searches at most its nodes.
    let level = req
        .level
        .and_then(|n| Level::new(n as u8))
        .filter(|l| !l.is_full());
    let seed = level.map(|_| req.seed.unwrap_or_else(|| fastrand::u64(..)));
    let unlimited = req.depth.is_none() && req.movetime_ms.is_none() && req.nodes.is_none();
    // Time always has a bound: the request's, the default, or the cap.
    let movetime = match (req.movetime_ms, unlimited) {
        (Some(t), _) => Duration::from_millis(t),
        (None, true) => config.default_movetime.min(config.max_movetime),
        (None, false) => config.max_movetime,
    };
    let depth = req.depth.unwrap_or(config.max_depth);
    let mut limits = Limits {
        depth: Some(depth),
        movetime: Some(movetime),
        nodes: req.nodes,
        multipv,
        optimum: None,
        threads: config.search_threads,
        network: network::<V>(req.evaluation, level.is_some())?,
    };
    level_limits::<V>(level, &mut limits);
    Ok((
        AppliedLimits {
            depth,
            movetime_ms: movetime.as_millis() as u64,
            nodes: limits.nodes,
            multipv,
            level: level.map(|l| u32::from(l.get())),
            seed,
            evaluation: evaluation_of(&limits),
        },
        limits,
        level,
        seed.unwrap_or(0),
    ))
}

/// The evaluation `limits` search with.
pub fn evaluation_of(limits: &Limits) -> Evaluation {
    if limits.network.is_some() {
        Evaluation::Nnue
    } else {
        Evaluation::Hce
    }
}

/// The problem of a search that was not run to an answer.
pub fn refused(refused: Refused, pool: &EnginePool) -> ApiError {
    let config = &pool.config;
    match refused {
        Refused::Busy if config.search_wait.is_zero() => ApiError::new(
            Problem::EngineBusy,
            format!(
                "all {} search threads are busy; retry in a second",
                config.max_searches
            ),
        ),
        Refused::Busy => ApiError::new(
            Problem::EngineBusy,
            format!(
                "all {} search threads stayed busy for {} ms; retry in a second",
                config.max_searches,
                config.search_wait.as_millis()
            ),
        ),
        Refused::ClientBusy => {
            let cap = config.max_searches_per_client.unwrap_or(0);
            ApiError::new(
                Problem::TooManySearches,
                format!(
                    "this client already has {cap} search{} running or waiting, as many as one client may (the server's --max-searches-per-client); retry when one has ended",
                    if cap == 1 { "" } else { "es" }
                ),
            )
        }
        Refused::ClientGone => ApiError::new(
            Problem::EngineBusy,
            "the client went away while its search waited for a thread",
        ),
        Refused::ShuttingDown => ApiError::new(
            Problem::EngineBusy,
            "the server is shutting down; retry on another instance",
        ),
        Refused::NoThread => ApiError::new(
            Problem::EngineBusy,
            "no search thread could be started; retry in a second",
        ),
        Refused::Failed => internal(),
    }
}
