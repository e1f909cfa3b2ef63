//! A request's search limits against the server's caps, for `analyze` and
//! `review`; the problem of a search the pool did not run.

use std::sync::Arc;

use super::engine::{EngineConfig, EnginePool, Refused};
use super::error::{internal, ApiError, Problem};
use super::wire::Evaluation;
use serde::Serialize;
use utoipa::ToSchema;

use crate::dispatch::Playable;
use crate::search::analysis::Request;
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
/// then drops it: [`Request::playing`]). `nnue` is refused for such a level
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

impl AppliedLimits {
    /// The limits `request` searches under.
    pub fn of<M>(request: &Request<M>) -> AppliedLimits {
        let limits = request.limits();
        AppliedLimits {
            depth: limits.depth.unwrap_or(0),
            movetime_ms: limits.movetime.map_or(0, |t| t.as_millis() as u64),
            nodes: limits.nodes,
            multipv: limits.multipv,
            level: request.level().map(|l| u32::from(l.get())),
            seed: request.level().map(|_| request.seed()),
            evaluation: evaluation_of(limits),
        }
    }
}

/// A search's budget as a request sets it, for [`in_range`]: its depth,
/// time a position and nodes against the server's caps.
pub fn budget(
    config: &EngineConfig,
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    nodes: Option<u64>,
) -> [(&'static str, Option<u64>, u64); 3] {
    [
        ("depth", depth.map(u64::from), u64::from(config.max_depth)),
        (
            "movetime_ms",
            movetime_ms,
            config.max_movetime.as_millis() as u64,
        ),
        ("nodes", nodes, config.max_nodes),
    ]
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
