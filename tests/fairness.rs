//! Fair shares under a flood: one client (`X-Client: a`) floods `/analyze`
//! from 64 connections (and legal moves from 16 more) while another (`X-Client: b`) asks for legal moves at
//! a steady pace and for a short search twice a second. The server runs
//! with one search thread and the per-client limits on (`--rate-limit 200
//! --client-key-header X-Client --max-searches-per-client 1`). B's
//! legal-moves p90 under the flood must stay within twice its p90 without
//! it (or twice the machine's noise floor, [`NOISE_P90_US`], when that is
//! larger), its p99 within four times (against [`NOISE_P99_US`]), and
//! every one of B's searches must be answered 200.
//!
//! Needs wrk; ignored without it unless `ARBITER_REQUIRE_BALANCER=1` (set
//! by `.ci/run`, which installs it).

use std::time::Duration;

mod common;

use common::load::{finish, Load, Wrk};

const SERVER: &[&str] = &[
    "--workers",
    "2",
    "--max-searches",
    "1",
    "--rate-limit",
    "200",
    "--client-key-header",
    "X-Client",
    "--max-searches-per-client",
    "1",
];

/// The p90 a two-core virtual machine gives B's legal moves with no flood:
/// 0.37-0.54 ms here, steady even with a busy loop beside the test. The
/// flooded p90 is held within twice the larger of this and the measured
/// p90 alone.
const NOISE_P90_US: u64 = 750;

/// The p99 the same machine gives with no flood: from 0.5 to 5 ms between
/// runs (the 10th slowest of about 970 answers, which a scheduler's time
/// slice decides: with a busy loop beside the test it is 4.8-5.0 ms alone,
/// and a CI run gave 2.1 ms alone, 5.6 ms flooded, while the medians were
/// 0.42 and 0.39 ms). The p99 is therefore held only against starvation:
/// within four times the larger of this and the p99 alone. A bound of
/// twice failed that CI run; the p90 carries the two-fold claim. Without
/// the per-client limits this test still fails, on B's refused searches.
const NOISE_P99_US: u64 = 1_500;

/// B's seconds of load in each phase.
const PHASE: u32 = 10;

/// B's two kinds of request at once: legal moves from two connections,
/// each pausing 20 ms (about 90 a second in all), and a depth-5 search
/// every half second.
fn client_b(base: &str, dir: &std::path::Path, phase: &str) -> (Load, Load) {
    let b = [("X-Client", "b")];
    let searches = Wrk {
        url: &format!("{base}/v1/variants/xiangqi/analyze"),
        body: r#"{"depth": 5}"#,
        connections: 1,
        seconds: PHASE,
        headers: &b,
        pause_ms: Some(500),
        elsewhere: false,
    }
    .start(dir, &format!("{phase}-searches"));
    let rules = Wrk {
        url: &format!("{base}/v1/variants/xiangqi/legal-moves"),
        body: r#"{"moves": ["h2e2", "h9g7"]}"#,
        connections: 2,
        seconds: PHASE,
        headers: &b,
        pause_ms: Some(20),
        elsewhere: false,
    }
    .start(dir, &format!("{phase}-rules"));
    (finish(rules), finish(searches))
}

fn metric(base: &str, name: &str) -> u64 {
    let text = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async { reqwest::get(format!("{base}/metrics")).await?.text().await })
        .unwrap();
    common::metric_value(&text, name)
}

#[test]
#[cfg_attr(not(has_wrk), ignore = "needs wrk (Debian's package)")]
fn a_flooding_client_leaves_the_others_their_share() {
    let server = common::Server::start(SERVER);
    let base = &server.base;
    let dir = std::env::temp_dir().join(format!("arbiter-fairness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    let (alone, alone_searches) = client_b(base, &dir, "alone");

    let flood = Wrk {
        url: &format!("{base}/v1/variants/xiangqi/analyze"),
        body: r#"{"movetime_ms": 300}"#,
        connections: 64,
        seconds: PHASE + 4,
        headers: &[("X-Client", "a")],
        pause_ms: None,
        elsewhere: true,
    }
    .start(&dir, "flood");
    let flood_rules = Wrk {
        url: &format!("{base}/v1/variants/xiangqi/legal-moves"),
        body: r#"{"moves": ["h2e2"]}"#,
        connections: 16,
        seconds: PHASE + 4,
        headers: &[("X-Client", "a")],
        pause_ms: None,
        elsewhere: true,
    }
    .start(&dir, "flood-rules");
    std::thread::sleep(Duration::from_secs(2));
    let (flooded, flooded_searches) = client_b(base, &dir, "flooded");
    let flood = finish(flood);
    let flood_rules = finish(flood_rules);
    let limited = metric(base, "arbiter_requests_rate_limited_total");
    let refused = metric(base, "arbiter_searches_refused_client_total");
    let completed = metric(base, "arbiter_searches_completed_total");
    let _ = std::fs::remove_dir_all(&dir);

    let ratio = flooded.p99_us as f64 / alone.p99_us.max(1) as f64;
    let bound_p90 = 2 * alone.p90_us.max(NOISE_P90_US);
    let bound_p99 = 4 * alone.p99_us.max(NOISE_P99_US);
    eprintln!(
        "fairness: legal-moves p99 {} µs alone, {} µs under a 64-connection flood ({ratio:.2}x; \
         p50 {} and {} µs; p90 {} and {} µs; {} and {} requests); B's searches {} and {} answered, {} and {} failed, \
         slowest {} ms under the flood; A: {} searches asked, {} answered 200, {} legal moves asked, \
         {} answered 200; \
         {limited} rate-limited, {refused} searches refused for A's share, {completed} searches run",
        alone.p99_us,
        flooded.p99_us,
        alone.p50_us,
        flooded.p50_us,
        alone.p90_us,
        flooded.p90_us,
        alone.requests,
        flooded.requests,
        alone_searches.requests,
        flooded_searches.requests,
        alone_searches.failed,
        flooded_searches.failed,
        flooded_searches.max_us / 1000,
        flood.requests,
        flood.requests - flood.failed,
        flood_rules.requests,
        flood_rules.requests - flood_rules.failed,
    );
    assert!(
        alone.requests > 500 && flooded.requests > 500,
        "too little load"
    );
    assert_eq!(alone.failed + flooded.failed, 0, "B's legal moves failed");
    assert!(
        flooded_searches.requests >= 10,
        "B's searches were not served: {flooded_searches:?}"
    );
    assert_eq!(
        alone_searches.failed + flooded_searches.failed,
        0,
        "B's searches were refused"
    );
    assert!(
        flooded.p90_us <= bound_p90,
        "B's legal-moves p90 went from {} to {} µs under the flood (bound {bound_p90} µs)",
        alone.p90_us,
        flooded.p90_us
    );
    assert!(
        flooded.p99_us <= bound_p99,
        "B's legal-moves p99 went from {} to {} µs under the flood (bound {bound_p99} µs)",
        alone.p99_us,
        flooded.p99_us
    );
    // The flood was held back by both limits, and still got its share.
    assert!(limited > 0, "no request was rate-limited");
    assert!(
        flood_rules.failed > 0 && flood_rules.requests > flood_rules.failed,
        "A's legal moves were not limited to its share: {flood_rules:?}"
    );
    assert!(refused > 0, "no search was refused for its client's share");
    assert!(
        flood.requests > flood.failed,
        "the flooding client got no search at all"
    );
}
