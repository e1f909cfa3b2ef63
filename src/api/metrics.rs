//! Prometheus metrics (`GET /metrics`, OpenMetrics text): requests and
//! latency per route and status, the search pool's state and fair shares.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use super::engine::EnginePool;
use super::fair::Fairness;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    route: String,
    status: u16,
}

type LatencyFamily = Family<RequestLabels, Histogram, fn() -> Histogram>;

/// The Prometheus registry: request counts and latencies by route and status,
/// and the search pool's counters.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: LatencyFamily,
}

/// The search pool's and fair shares' counters, read at each scrape.
#[derive(Debug)]
struct EngineCollector(Arc<EnginePool>, Arc<Fairness>);

impl Collector for EngineCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let s = &self.0.stats;
        let fair = &self.1;
        let gauges = [
            (
                "arbiter_searches_running",
                "Searches running now",
                s.running.load(Ordering::Relaxed) as i64,
            ),
            (
                "arbiter_search_threads",
                "Searches that may run at once (--max-searches)",
                self.0.config.max_searches as i64,
            ),
            (
                "arbiter_searches_waiting",
                "Searches waiting for a free search thread (--search-wait-ms)",
                s.waiting.load(Ordering::Relaxed) as i64,
            ),
            (
                "arbiter_rate_limit_clients",
                "Clients the rate limiter tracks (--rate-limit)",
                fair.tracked() as i64,
            ),
        ];
        for (name, help, value) in gauges {
            let g = ConstGauge::new(value);
            g.encode(encoder.encode_descriptor(name, help, None, g.metric_type())?)?;
        }
        let counters = [
            (
                "arbiter_searches_rejected",
                "Searches refused because every thread was busy",
                s.rejected.load(Ordering::Relaxed),
            ),
            (
                "arbiter_searches_refused_client",
                "Searches refused because their client had its share under way (--max-searches-per-client)",
                s.refused_client.load(Ordering::Relaxed),
            ),
            (
                "arbiter_requests_rate_limited",
                "Requests answered 429 because their client was over its rate (--rate-limit)",
                fair.stats.limited.load(Ordering::Relaxed),
            ),
            (
                "arbiter_searches_completed",
                "Searches that ran to their limits",
                s.completed.load(Ordering::Relaxed),
            ),
            (
                "arbiter_searches_cancelled",
                "Searches stopped because the client went away or the server is stopping",
                s.cancelled.load(Ordering::Relaxed),
            ),
            (
                "arbiter_search_nodes",
                "Nodes searched by all searches",
                s.nodes.load(Ordering::Relaxed),
            ),
        ];
        for (name, help, value) in counters {
            let c = ConstCounter::new(value);
            c.encode(encoder.encode_descriptor(name, help, None, c.metric_type())?)?;
        }
        Ok(())
    }
}

impl Metrics {
    /// A registry that reads the pool's and fair shares' counters at each
    /// scrape.
    pub fn new(engine: Arc<EnginePool>, fair: Arc<Fairness>) -> Metrics {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "arbiter_http_requests",
            "HTTP requests answered, by method, route and status",
            requests.clone(),
        );
        let latency: LatencyFamily = Family::new_with_constructor(|| {
            // 50 µs to about 26 s.
            Histogram::new(exponential_buckets(0.000_05, 2.0, 20))
        });
        registry.register(
            "arbiter_http_request_duration_seconds",
            "Time to answer HTTP requests, by method, route and status",
            latency.clone(),
        );
        registry.register_collector(Box::new(EngineCollector(engine, fair)));
        Metrics {
            registry,
            requests,
            latency,
        }
    }

    /// Counts one answered request and its duration.
    pub fn observe(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let labels = RequestLabels {
            method: method.to_owned(),
            route: route.to_owned(),
            status,
        };
        self.requests.get_or_create(&labels).inc();
        self.latency.get_or_create(&labels).observe(seconds);
    }

    /// The metrics in OpenMetrics text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)
            .expect("writing to a String cannot fail");
        out
    }

    /// The metrics in Prometheus's classic text format (0.0.4).
    pub fn render_classic(&self) -> String {
        classic(&self.render())
    }
}

/// OpenMetrics text in Prometheus's classic format (0.0.4): the same
/// samples; a counter's `HELP` and `TYPE` named after its `_total` samples;
/// no `# EOF`, `# UNIT` or `_created` lines; `unknown` is `untyped`.
fn classic(open: &str) -> String {
    let counters: Vec<&str> = open
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|rest| rest.strip_suffix(" counter"))
        .collect();
    let created: Vec<String> = open
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|rest| rest.split_once(' '))
        .map(|(name, _)| format!("{name}_created"))
        .collect();
    let mut out = String::with_capacity(open.len());
    for line in open.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let sample_name = line.split(['{', ' ']).next().unwrap_or("");
        if !line.starts_with('#') && created.iter().any(|c| c == sample_name) {
            continue;
        }
        let renamed = ["# HELP ", "# TYPE "].iter().find_map(|tag| {
            let rest = line.strip_prefix(tag)?;
            let (name, tail) = rest.split_once(' ')?;
            let tail = if *tag == "# TYPE " && tail == "unknown" {
                "untyped"
            } else {
                tail
            };
            let name = if counters.contains(&name) {
                format!("{name}_total")
            } else {
                name.to_owned()
            };
            Some(format!("{tag}{name} {tail}"))
        });
        out.push_str(renamed.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::classic;

    #[test]
    fn openmetrics_in_the_classic_format() {
        let open = "# HELP a_requests Requests.\n# TYPE a_requests counter\na_requests_total{route=\"/x\"} 3\na_requests_created{route=\"/x\"} 1.5\n# HELP a_running Running.\n# TYPE a_running gauge\na_running 0\n# TYPE a_odd unknown\na_odd 1\n# HELP a_seconds Time.\n# TYPE a_seconds histogram\n# UNIT a_seconds seconds\na_seconds_bucket{le=\"+Inf\"} 2\na_seconds_sum 0.5\na_seconds_count 2\n# EOF\n";
        assert_eq!(
            classic(open),
            "# HELP a_requests_total Requests.\n# TYPE a_requests_total counter\na_requests_total{route=\"/x\"} 3\n# HELP a_running Running.\n# TYPE a_running gauge\na_running 0\n# TYPE a_odd untyped\na_odd 1\n# HELP a_seconds Time.\n# TYPE a_seconds histogram\na_seconds_bucket{le=\"+Inf\"} 2\na_seconds_sum 0.5\na_seconds_count 2\n"
        );
    }
}
