//! wrk, driven by the tests that put a server under load: one run's
//! figures printed on one line by its Lua `done` hook.

use std::path::Path;
use std::process::{Child, Command, Stdio};

/// One wrk run: POST `body` to a URL from `connections` connections.
pub struct Wrk<'a> {
    /// The URL.
    pub url: &'a str,
    /// The JSON body.
    pub body: &'a str,
    /// Open connections, each asking again when answered.
    pub connections: u32,
    /// How long, in seconds.
    pub seconds: u32,
    /// Extra request headers.
    pub headers: &'a [(&'a str, &'a str)],
    /// A pause before each request of a connection, in milliseconds (a
    /// paced client rather than a closed loop).
    pub pause_ms: Option<u32>,
    /// Run wrk at the lowest CPU priority (`nice -n 19`): a client that
    /// would be on another machine, whose load generator should not take
    /// this one's CPU from the client being measured.
    pub elsewhere: bool,
}

/// A finished run's figures (latencies in microseconds).
#[derive(Debug)]
pub struct Load {
    /// Requests answered.
    pub requests: u64,
    /// Requests failed: socket errors, timeouts and answers other than 2xx
    /// or 3xx.
    pub failed: u64,
    /// Median latency.
    pub p50_us: u64,
    /// 90th percentile latency.
    pub p90_us: u64,
    /// 99th percentile latency.
    pub p99_us: u64,
    /// The slowest answer.
    pub max_us: u64,
}

impl Wrk<'_> {
    /// Starts the run (its script written under `dir`, named `name`).
    pub fn start(&self, dir: &Path, name: &str) -> Child {
        let script = dir.join(format!("{name}.lua"));
        let headers: String = self
            .headers
            .iter()
            .map(|(n, v)| format!("wrk.headers[\"{n}\"] = \"{v}\"\n"))
            .collect();
        let pause = self
            .pause_ms
            .map(|ms| format!("delay = function() return {ms} end\n"))
            .unwrap_or_default();
        std::fs::write(
            &script,
            format!(
                r#"wrk.method = "POST"
wrk.body = '{body}'
wrk.headers["Content-Type"] = "application/json"
{headers}{pause}done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("LOAD %d %d %d %d %d %d\n", summary.requests,
    e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
"#,
                body = self.body
            ),
        )
        .unwrap();
        let mut command = if self.elsewhere {
            let mut nice = Command::new("nice");
            nice.args(["-n", "19", "wrk"]);
            nice
        } else {
            Command::new("wrk")
        };
        command
            .args(["-t1", &format!("-c{}", self.connections)])
            .arg(format!("-d{}s", self.seconds))
            .args(["--timeout", "10s", "-s"])
            .arg(&script)
            .arg(self.url)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("wrk")
    }
}

/// Waits for a run and reads its figures.
pub fn finish(child: Child) -> Load {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("LOAD "))
        .unwrap_or_else(|| panic!("wrk printed no figures: {text}"));
    let n: Vec<u64> = line.split(' ').map(|x| x.parse().unwrap()).collect();
    Load {
        requests: n[0],
        failed: n[1],
        p50_us: n[2],
        p90_us: n[3],
        p99_us: n[4],
        max_us: n[5],
    }
}
