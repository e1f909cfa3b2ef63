//! Replicas behind a real load balancer, faults under load: three release
//! replicas behind HAProxy with `deploy/haproxy.cfg`, wrk at the balancer
//! for about 20 s (legal moves from eight connections, short searches from
//! two), one replica SIGKILLed and restarted, another SIGTERMed (it drains,
//! then stops) and restarted. No request may fail, and at least one must
//! have been retried (proof that the faults hit requests in flight);
//! legal-moves' p99 through the balancer stays under 50 ms.
//!
//! Needs Debian's haproxy and wrk; ignored without them unless
//! `ARBITER_REQUIRE_BALANCER=1` (set by `.ci/run`, which installs them).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::load::{finish, Wrk};

/// What each replica runs with besides the shipped defaults (the drain
/// included): two engine slots, so the two search connections fit on the
/// replicas left while one is down.
const REPLICA: &[&str] = &["--max-searches", "2"];

fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(15), "{what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The balancer's statistics (CSV): for each server of each backend, its
/// status, and the backends' retries and redispatches.
fn stats(addr: &str) -> Vec<Vec<String>> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let body = rt
        .block_on(async {
            reqwest::get(format!("http://{addr}/stats;csv"))
                .await?
                .text()
                .await
        })
        .unwrap_or_default();
    body.lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

fn column(table: &[Vec<String>], name: &str) -> usize {
    table[0]
        .iter()
        .position(|c| c.trim_start_matches("# ") == name)
        .unwrap_or_else(|| panic!("no {name} in {:?}", table[0]))
}

/// Processes killed when the test ends, however it ends.
struct Reaper(Vec<Child>);

impl Drop for Reaper {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// HAProxy with the shipped configuration before replicas on `ports`.
fn balancer(ports: &[u16], lb_addr: &str, stats_addr: &str) -> Reaper {
    Reaper(vec![Command::new("haproxy")
        .args([
            "-db",
            "-f",
            concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/haproxy.cfg"),
        ])
        .env("ARBITER_LB_BIND", lb_addr)
        .env("ARBITER_LB_STATS", stats_addr)
        .envs(ports.iter().enumerate().map(|(i, p)| {
            (
                format!("ARBITER_REPLICA_{}", i + 1),
                format!("127.0.0.1:{p}"),
            )
        }))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("haproxy")])
}

/// Behind the balancer, replicas keyed by X-Forwarded-For tell clients
/// apart by the address the balancer appended, not by what a client wrote.
#[test]
#[cfg_attr(
    not(has_balancer),
    ignore = "needs haproxy and wrk (Debian's packages)"
)]
fn behind_the_balancer_a_client_is_its_address() {
    let port = common::free_port();
    let _replica = common::Server::on(
        port,
        &[
            "--rate-limit",
            "1",
            "--client-key-header",
            "X-Forwarded-For",
        ],
    );
    let lb_addr = format!("127.0.0.1:{}", common::free_port());
    let stats_addr = format!("127.0.0.1:{}", common::free_port());
    let _balancer = balancer(&[port], &lb_addr, &stats_addr);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let ask = |forged: &str| {
        rt.block_on(async {
            let r = reqwest::Client::new()
                .get(format!("http://{lb_addr}/v1/variants"))
                .header("x-forwarded-for", forged)
                .send()
                .await
                .ok()?;
            Some((r.status().as_u16(), r.text().await.ok()?))
        })
    };
    wait_until("the balancer never passed a request", || {
        ask("192.0.2.1").is_some_and(|(status, _)| status == 200)
    });
    // Another forged address is the same client: the limiter keys on the
    // address HAProxy appended (127.0.0.1).
    let (status, body) = ask("198.51.100.7").unwrap();
    assert_eq!(status, 429, "{body}");
    assert!(
        body.contains("the client x-forwarded-for '127.0.0.1'"),
        "{body}"
    );
}

#[test]
#[cfg_attr(
    not(has_balancer),
    ignore = "needs haproxy and wrk (Debian's packages)"
)]
fn replicas_die_and_return_under_load_without_a_failed_request() {
    let ports: Vec<u16> = (0..3).map(|_| common::free_port()).collect();
    let mut replicas: Vec<common::Server> = ports
        .iter()
        .map(|&p| common::Server::on(p, REPLICA))
        .collect();
    let (lb, lb_stats) = (common::free_port(), common::free_port());
    let lb_addr = format!("127.0.0.1:{lb}");
    let stats_addr = format!("127.0.0.1:{lb_stats}");
    let _balancer = balancer(&ports, &lb_addr, &stats_addr);
    let up = |table: &[Vec<String>]| {
        let (sv, status) = (column(table, "svname"), column(table, "status"));
        table
            .iter()
            .filter(|r| r[sv].starts_with('r'))
            .filter(|r| r[status] == "UP")
            .count()
    };
    wait_until("the balancer never saw the replicas up", || {
        let t = stats(&stats_addr);
        !t.is_empty() && up(&t) == 6
    });

    let work = std::env::temp_dir().join(format!("arbiter-replicas-{lb}"));
    std::fs::create_dir_all(&work).unwrap();
    let seconds = 20;
    let rules = Wrk {
        url: &format!("http://{lb_addr}/v1/variants/xiangqi/legal-moves"),
        body: r#"{"moves": ["h2e2", "h9g7"]}"#,
        connections: 8,
        seconds,
        headers: &[],
        pause_ms: None,
        elsewhere: false,
    }
    .start(&work, "rules");
    let searches = Wrk {
        url: &format!("http://{lb_addr}/v1/variants/xiangqi/analyze"),
        body: r#"{"moves": ["h2e2"], "nodes": 3000}"#,
        connections: 2,
        seconds,
        headers: &[],
        pause_ms: None,
        elsewhere: false,
    }
    .start(&work, "searches");
    let started = Instant::now();
    let at = |s: u64| {
        let t = Duration::from_secs(s);
        if let Some(rest) = t.checked_sub(started.elapsed()) {
            std::thread::sleep(rest);
        }
    };
    // A crash: SIGKILL, nothing drained; back three seconds later.
    at(4);
    replicas[0].child.kill().unwrap();
    replicas[0].child.wait().unwrap();
    at(7);
    replicas[0] = common::Server::on(ports[0], REPLICA);
    // A rolling restart: SIGTERM drains (readiness 503), then stops.
    at(11);
    let term = Command::new("kill")
        .args(["-TERM", &replicas[1].child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let status = replicas[1].child.wait().unwrap();
    assert!(status.success(), "a SIGTERMed replica exits 0: {status}");
    replicas[1] = common::Server::on(ports[1], REPLICA);

    let rules = finish(rules);
    let searches = finish(searches);
    let table = stats(&stats_addr);
    let (sv, retries, redispatches) = (
        column(&table, "svname"),
        column(&table, "wretr"),
        column(&table, "wredis"),
    );
    let count = |c: usize| -> u64 {
        table
            .iter()
            .filter(|r| r[sv] == "BACKEND")
            .map(|r| r[c].parse::<u64>().unwrap_or(0))
            .sum()
    };
    let (retried, redispatched) = (count(retries), count(redispatches));
    let back_up = up(&table);

    let _ = std::fs::remove_dir_all(&work);

    let requests = rules.requests + searches.requests;
    let failed = rules.failed + searches.failed;
    let max_ms = rules.max_us.max(searches.max_us) / 1000;
    eprintln!(
        "replicas: {requests} requests, {failed} failed, 2 killed, max latency {max_ms} ms \
         (legal moves: {} requests, p99 {:.1} ms; searches: {}; {retried} retries, \
         {redispatched} redispatches)",
        rules.requests,
        rules.p99_us as f64 / 1000.0,
        searches.requests
    );
    assert!(
        rules.requests > 1000 && searches.requests > 20,
        "too little load"
    );
    assert_eq!(failed, 0, "failed requests through the balancer");
    assert!(
        retried + redispatched > 0,
        "no request was retried: the faults hit nothing in flight"
    );
    assert!(
        rules.p99_us < 50_000,
        "legal-moves p99 {} ms through the balancer during the faults",
        rules.p99_us / 1000
    );
    assert_eq!(back_up, 6, "every replica is back in both backends");
}
