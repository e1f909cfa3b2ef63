//! Fair shares between clients, opt-in: who a request comes from (its
//! [`ClientKey`]), and a per-client request rate answered with 429,
//! `Retry-After` and the `RateLimit` headers when it is exceeded. The
//! per-client share of the search slots is the engine pool's (see
//! [`super::engine::EnginePool::admit`]); it reads the key this layer
//! leaves in the request's extensions.

use std::hash::BuildHasher;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{web, Error, HttpMessage, ResponseError};
use governor::clock::Clock;
use governor::middleware::StateInformationMiddleware;

use super::error::{ApiError, Problem};

/// Who a request comes from, as far as fair shares go: the value of the
/// header named by `--client-key-header`, else the peer's address (an IPv6
/// peer by its /64 network, which one host or home usually holds whole).
/// Hashed with a key chosen at start (no two values collide by design).
/// A named header is trusted as it comes: name one only when every request
/// passes a proxy that sets it (the balancer is the only way in), or a
/// client can write another's address, or a new value each time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(u64);

impl ClientKey {
    /// A key for the tests of the layers that read keys.
    #[cfg(test)]
    pub(crate) fn for_tests(n: u64) -> ClientKey {
        ClientKey(n)
    }
}

/// The per-client request rate of `--rate-limit` and `--rate-burst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests a second, sustained.
    pub per_second: NonZeroU32,
    /// Requests that may come at once after a quiet spell.
    pub burst: NonZeroU32,
}

/// The options of fair shares.
#[derive(Clone, Debug, Default)]
pub struct FairConfig {
    /// The per-client request rate; `None`: unlimited.
    pub rate: Option<Rate>,
    /// The header naming the client (its last value); `None`: the peer's
    /// address.
    pub key_header: Option<HeaderName>,
}

/// The counters `/metrics` reads.
#[derive(Debug, Default)]
pub struct FairStats {
    /// Requests answered 429 `rate_limited`.
    pub limited: AtomicU64,
}

type Limiter = governor::DefaultKeyedRateLimiter<ClientKey, StateInformationMiddleware>;

/// Refusals answered after a wait, so that a client that asks again at
/// once (a closed loop of connections) cannot spin the server on refusals
/// and crowd out the others. A hold is at most a second, plus up to a
/// quarter of one at random, so that a flood's connections do not come
/// back in step; no more than [`MAX_HELD`] are held at once (each holds a
/// connection and a timer): past it, refusals go at once. The answer's
/// `Retry-After` counts from when it is sent.
#[derive(Debug, Default)]
pub struct Hold(AtomicUsize);

/// The most refusals held at once by one [`Hold`].
const MAX_HELD: usize = 1024;

/// How long a refusal over the rate is held: a second, the longest a
/// client's share takes to come back (rates are whole requests a second).
const HOLD: Duration = Duration::from_secs(1);

impl Hold {
    /// Waits `hold` (at most a second) and a random quarter of a second
    /// more, unless too many are held already.
    pub async fn refusal(&self, hold: Duration) {
        if self.0.fetch_add(1, Ordering::AcqRel) < MAX_HELD {
            let jitter = Duration::from_millis(fastrand::u64(0..250));
            actix_web::rt::time::sleep(hold.min(Duration::from_secs(1)) + jitter).await;
        }
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
/// How often the limiter forgets clients whose share is full again.
const SWEEP: Duration = Duration::from_secs(60);

/// Fair shares of one server: the key of each request, the rate limiter
/// and its counters.
#[derive(Debug)]
pub struct Fairness {
    config: FairConfig,
    hasher: std::hash::RandomState,
    limiter: Option<Limiter>,
    held: Hold,
    swept: Mutex<Instant>,
    /// The counters `/metrics` reads.
    pub stats: FairStats,
}

/// The name of the `RateLimit-Policy` and `RateLimit` header fields' one
/// policy.
const POLICY: &str = "client";

impl Fairness {
    /// Fair shares with these options.
    pub fn new(config: FairConfig) -> Fairness {
        let limiter = config.rate.map(|r| {
            governor::RateLimiter::keyed(
                governor::Quota::per_second(r.per_second).allow_burst(r.burst),
            )
            .with_middleware::<StateInformationMiddleware>()
        });
        Fairness {
            config,
            hasher: std::hash::RandomState::new(),
            limiter,
            held: Hold::default(),
            swept: Mutex::new(Instant::now()),
            stats: FairStats::default(),
        }
    }

    /// The options these shares run with.
    pub fn config(&self) -> &FairConfig {
        &self.config
    }

    /// Clients the rate limiter tracks now (forgotten a minute after their
    /// share is full again).
    pub fn tracked(&self) -> usize {
        self.limiter.as_ref().map_or(0, |l| l.len())
    }

    /// The named header's last value (the hop the nearest proxy appended
    /// to a list such as `X-Forwarded-For`), if it has one.
    fn named<'a>(&self, headers: &'a HeaderMap) -> Option<(&'a str, &HeaderName)> {
        let name = self.config.key_header.as_ref()?;
        let last = headers.get_all(name).last()?.to_str().ok()?;
        let value = last.rsplit(',').next()?.trim();
        (!value.is_empty()).then_some((value, name))
    }

    /// Who sent a request with these headers from `peer`.
    pub fn key_of(&self, headers: &HeaderMap, peer: Option<SocketAddr>) -> ClientKey {
        match self.named(headers) {
            // An address in the header keys as the same peer would.
            Some((value, _)) => match value.parse::<IpAddr>() {
                Ok(ip) => self.address_key(ip),
                // Some proxies write the client's port too.
                Err(_) => match value.parse::<SocketAddr>() {
                    Ok(addr) => self.address_key(addr.ip()),
                    Err(_) => ClientKey(self.hasher.hash_one(("name", value))),
                },
            },
            None => match peer {
                Some(p) => self.address_key(p.ip()),
                None => ClientKey(self.hasher.hash_one("no peer")),
            },
        }
    }

    fn address_key(&self, ip: IpAddr) -> ClientKey {
        ClientKey(match ip.to_canonical() {
            IpAddr::V4(v4) => self.hasher.hash_one(("v4", v4.octets())),
            IpAddr::V6(v6) => {
                let net: [u8; 8] = v6.octets()[..8].try_into().unwrap_or_default();
                self.hasher.hash_one(("v6/64", net))
            }
        })
    }

    /// The client as a refusal names it.
    fn describe(&self, headers: &HeaderMap, peer: Option<SocketAddr>) -> String {
        match self.named(headers) {
            Some((value, name)) => format!("the client {name} '{value}'"),
            None => match peer.map(|p| p.ip().to_canonical()) {
                Some(IpAddr::V6(v6)) => {
                    let s = v6.segments();
                    format!(
                        "the clients of {:x}:{:x}:{:x}:{:x}::/64",
                        s[0], s[1], s[2], s[3]
                    )
                }
                Some(ip) => format!("the client at {ip}"),
                None => "this client".to_owned(),
            },
        }
    }

    /// Forgets, once a minute, the clients whose share is full again (the
    /// limiter keeps every key it has seen otherwise).
    fn sweep(&self, limiter: &Limiter) {
        let Ok(mut last) = self.swept.try_lock() else {
            return;
        };
        if last.elapsed() >= SWEEP {
            *last = Instant::now();
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// `RateLimit-Policy: "client";q=Q;w=W` (the rate: `Q` requests over `W`
/// seconds, `W` the seconds a full burst takes to come back, so that the
/// burst fits within `Q`) and `RateLimit: "client";r=R;t=T` (`R` requests
/// left now, all of the burst back in `T` seconds), in the form of
/// draft-ietf-httpapi-ratelimit-headers (09).
fn rate_headers(headers: &mut HeaderMap, rate: Rate, remaining: u32) {
    let (per, burst) = (rate.per_second.get(), rate.burst.get());
    let window = burst.div_ceil(per);
    let quota = per.saturating_mul(window);
    let reset = (burst - remaining.min(burst)).div_ceil(per);
    let policy = format!("\"{POLICY}\";q={quota};w={window}");
    let now = format!("\"{POLICY}\";r={remaining};t={reset}");
    for (name, value) in [(RATELIMIT_POLICY, policy), (RATELIMIT, now)] {
        if let Ok(v) = HeaderValue::from_str(&value) {
            headers.insert(name, v);
        }
    }
}

/// `RateLimit-Policy`: the per-client quota.
pub const RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
/// `RateLimit`: what is left of it.
pub const RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");

/// The probes an orchestrator and a balancer call: never limited, whoever
/// calls them and however often.
fn is_probe(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz" | "/metrics")
}

/// The client a request comes from, as the per-client limits key it: the
/// key [`limit`] found, or worked out now (without a rate limit, only the
/// routes that need it ask).
pub fn client_key(http: &actix_web::HttpRequest) -> Option<ClientKey> {
    if let Some(key) = http.extensions().get::<ClientKey>() {
        return Some(*key);
    }
    let fair = http.app_data::<web::Data<Fairness>>()?;
    Some(fair.key_of(http.headers(), http.peer_addr()))
}

/// Middleware: keys each request by its client (for the search slots too)
/// and, with `--rate-limit`, answers a client over its rate with 429
/// `rate_limited`, held for its `Retry-After` (at most a second); the
/// answers it lets through carry the `RateLimit` headers.
pub async fn limit(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let fair = req.app_data::<web::Data<Fairness>>().cloned();
    let Some(fair) = fair.filter(|_| !is_probe(req.path())) else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    // Without a rate limit no request is keyed here: the searches that need
    // a client's key for their own cap ask [`client_key`].
    let (Some(limiter), Some(rate)) = (&fair.limiter, fair.config.rate) else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let key = fair.key_of(req.headers(), req.peer_addr());
    req.extensions_mut().insert(key);
    fair.sweep(limiter);
    match limiter.check_key(&key) {
        Ok(snapshot) => {
            let mut res = next.call(req).await?;
            rate_headers(res.headers_mut(), rate, snapshot.remaining_burst_capacity());
            Ok(res.map_into_left_body())
        }
        Err(not_until) => {
            fair.stats.limited.fetch_add(1, Ordering::Relaxed);
            // Held a second (the most a share takes to come back), then
            // told how long is left to wait: usually nothing.
            fair.held.refusal(HOLD).await;
            let wait = not_until.wait_time_from(limiter.clock().now());
            let retry = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            let who = fair.describe(req.headers(), req.peer_addr());
            let when = if retry == 0 {
                "this answer was held until its share came back: retry now".to_owned()
            } else {
                format!("retry after {retry} s")
            };
            let err = ApiError::new(
                Problem::RateLimited,
                format!(
                    "{who} sent more than its share: {} requests a second, {} at once (the server's --rate-limit and --rate-burst); {when}",
                    rate.per_second, rate.burst
                ),
            );
            let mut res = err.error_response();
            if let Ok(v) = HeaderValue::from_str(&retry.to_string()) {
                res.headers_mut().insert(header::RETRY_AFTER, v);
            }
            rate_headers(res.headers_mut(), rate, 0);
            let (req, _) = req.into_parts();
            Ok(ServiceResponse::new(req, res).map_into_right_body())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fair(header: Option<&'static str>) -> Fairness {
        Fairness::new(FairConfig {
            rate: None,
            key_header: header.map(HeaderName::from_static),
        })
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (n, v) in pairs {
            h.append(HeaderName::from_static(n), HeaderValue::from_static(v));
        }
        h
    }

    fn peer(s: &str) -> Option<SocketAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn the_peer_address_keys_a_client_and_ipv6_by_its_64() {
        let f = fair(None);
        let none = HeaderMap::new();
        let a = f.key_of(&none, peer("192.0.2.1:5000"));
        assert_eq!(a, f.key_of(&none, peer("192.0.2.1:6000")), "the port");
        assert_ne!(a, f.key_of(&none, peer("192.0.2.2:5000")));
        // An IPv4-mapped IPv6 peer is the IPv4 peer.
        assert_eq!(a, f.key_of(&none, peer("[::ffff:192.0.2.1]:1")));
        let v6 = f.key_of(&none, peer("[2001:db8:1:2:aaaa::1]:1"));
        assert_eq!(v6, f.key_of(&none, peer("[2001:db8:1:2:bbbb::9]:1")));
        assert_ne!(v6, f.key_of(&none, peer("[2001:db8:1:3::1]:1")));
        assert_eq!(
            f.describe(&none, peer("[2001:db8:1:2:aaaa::1]:1")),
            "the clients of 2001:db8:1:2::/64"
        );
    }

    #[test]
    fn a_named_header_keys_by_its_last_value() {
        let f = fair(Some("x-forwarded-for"));
        let from = peer("10.0.0.9:80");
        let via = f.key_of(
            &headers(&[("x-forwarded-for", "203.0.113.7, 198.51.100.2")]),
            from,
        );
        // The last hop is the client; what the client wrote before it is
        // not trusted, and an address keys as that peer would.
        assert_eq!(
            via,
            f.key_of(
                &headers(&[
                    ("x-forwarded-for", "1.1.1.1"),
                    ("x-forwarded-for", "198.51.100.2")
                ]),
                from
            )
        );
        assert_eq!(via, f.key_of(&HeaderMap::new(), peer("198.51.100.2:1")));
        // An address with its port is that address.
        assert_eq!(
            via,
            f.key_of(&headers(&[("x-forwarded-for", "198.51.100.2:4711")]), from)
        );
        // Without the header (or empty), the peer.
        assert_eq!(
            f.key_of(&HeaderMap::new(), from),
            f.key_of(&headers(&[("x-forwarded-for", " ")]), from)
        );
        let keyed = fair(Some("x-client"));
        let a = keyed.key_of(&headers(&[("x-client", "alice")]), from);
        assert_ne!(a, keyed.key_of(&headers(&[("x-client", "bob")]), from));
        assert_eq!(
            keyed.describe(&headers(&[("x-client", "alice")]), from),
            "the client x-client 'alice'"
        );
    }

    #[test]
    fn the_headers_name_the_quota_and_what_is_left() {
        let rate = Rate {
            per_second: NonZeroU32::new(10).unwrap(),
            burst: NonZeroU32::new(25).unwrap(),
        };
        let mut h = HeaderMap::new();
        rate_headers(&mut h, rate, 5);
        assert_eq!(h.get(&RATELIMIT_POLICY).unwrap(), "\"client\";q=30;w=3");
        let mut small = HeaderMap::new();
        let fast = Rate {
            per_second: NonZeroU32::new(20).unwrap(),
            burst: NonZeroU32::new(5).unwrap(),
        };
        rate_headers(&mut small, fast, 4);
        // The rate, not the burst: 20 a second.
        assert_eq!(small.get(&RATELIMIT_POLICY).unwrap(), "\"client\";q=20;w=1");
        assert_eq!(h.get(&RATELIMIT).unwrap(), "\"client\";r=5;t=2");
        rate_headers(&mut h, rate, 25);
        assert_eq!(h.get(&RATELIMIT).unwrap(), "\"client\";r=25;t=0");
    }

    #[test]
    fn the_limiter_refuses_past_the_burst_and_keys_apart() {
        let f = Fairness::new(FairConfig {
            rate: Some(Rate {
                per_second: NonZeroU32::new(1).unwrap(),
                burst: NonZeroU32::new(3).unwrap(),
            }),
            key_header: None,
        });
        let l = f.limiter.as_ref().unwrap();
        let (a, b) = (ClientKey(1), ClientKey(2));
        let left: Vec<u32> = (0..3)
            .map(|_| l.check_key(&a).unwrap().remaining_burst_capacity())
            .collect();
        assert_eq!(left, [2, 1, 0]);
        let refused = l.check_key(&a).unwrap_err();
        let wait = refused.wait_time_from(l.clock().now());
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(1));
        assert!(l.check_key(&b).is_ok(), "another client has its own share");
        assert_eq!(f.tracked(), 2);
    }
}
