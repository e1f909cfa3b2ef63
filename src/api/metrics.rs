//! Prometheus metrics (`GET /metrics`, OpenMetrics text): requests and
//! latency per route and status, and the search pool's state.

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

/// The search pool's counters, read at each scrape.
#[derive(Debug)]
struct EngineCollector(Arc<EnginePool>);

impl Collector for EngineCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let s = &self.0.stats;
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
    /// A registry that reads the pool's counters at each scrape.
    pub fn new(engine: Arc<EnginePool>) -> Metrics {
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
        registry.register_collector(Box::new(EngineCollector(engine)));
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
}
