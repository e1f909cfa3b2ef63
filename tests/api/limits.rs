//! Fair shares: the per-client request rate (429 `rate_limited`,
//! `Retry-After`, the `RateLimit` headers, probes exempt) and the
//! per-client share of the search threads (429 `too_many_searches`, waiting
//! in turn for a thread, 503 when the wait runs out), with their metrics.

use std::time::{Duration, Instant};

use super::*;

fn key_header() -> Option<actix_web::http::header::HeaderName> {
    Some(actix_web::http::header::HeaderName::from_static("x-client"))
}

async fn as_client(s: &Server, client: &str, path: &str, body: Value) -> reqwest::Response {
    s.client
        .post(format!("{}{path}", s.base))
        .header("x-client", client)
        .header("origin", "https://games.example")
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn header<'a>(r: &'a reqwest::Response, name: &str) -> &'a str {
    r.headers()
        .get(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .to_str()
        .unwrap()
}

#[actix_rt::test]
async fn a_client_over_its_rate_is_told_when_to_come_back() {
    let s = start_with(ServeArgs {
        workers: Some(1),
        rate_limit: std::num::NonZeroU32::new(1),
        rate_burst: std::num::NonZeroU32::new(3),
        client_key_header: key_header(),
        cors_origins: vec!["*".into()],
        ..ServeArgs::default()
    })
    .await;
    let body = json!({"moves": ["h2e2"]});
    for left in ["2", "1", "0"] {
        let r = as_client(&s, "alice", LM, body.clone()).await;
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(header(&r, "ratelimit-policy"), "\"client\";q=3;w=3");
        assert!(
            header(&r, "ratelimit").starts_with(&format!("\"client\";r={left};t=")),
            "{:?}",
            r.headers()
        );
        // A page on another origin may read them.
        let exposed = header(&r, "access-control-expose-headers").to_lowercase();
        assert!(exposed.contains("ratelimit-policy") && exposed.contains("retry-after"));
    }
    // Over the burst: held until the share is back (a second), then
    // refused, told it may ask again now.
    let asked = Instant::now();
    let r = as_client(&s, "alice", LM, body.clone()).await;
    assert!(
        asked.elapsed() >= Duration::from_secs(1),
        "answered at once"
    );
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(header(&r, "retry-after"), "0");
    assert_eq!(header(&r, "content-type"), "application/problem+json");
    assert!(header(&r, "ratelimit").starts_with("\"client\";r=0;t="));
    assert!(r.headers().contains_key("x-request-id"));
    let problem: Value = r.json().await.unwrap();
    assert_eq!(problem["code"], "rate_limited");
    assert_eq!(problem["status"], 429);
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("x-client 'alice'")
            && detail.contains("1 requests a second, 3 at once")
            && detail.ends_with("retry now"),
        "{detail}"
    );
    // Another client has a share of its own.
    let r = as_client(&s, "bob", LM, body.clone()).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(header(&r, "ratelimit"), "\"client\";r=2;t=1");
    // The probes are never limited, whoever asks.
    for path in ["/healthz", "/readyz", "/metrics"] {
        for _ in 0..5 {
            let r = s
                .client
                .get(format!("{}{path}", s.base))
                .header("x-client", "alice")
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), StatusCode::OK, "{path}");
            assert!(r.headers().get("ratelimit").is_none(), "{path}");
        }
    }
    assert_eq!(metric(&s, "arbiter_requests_rate_limited_total").await, 1);
    assert_eq!(metric(&s, "arbiter_rate_limit_clients").await, 2);
}

#[actix_rt::test]
async fn without_a_key_header_the_peer_address_is_the_client() {
    let s = start_with(ServeArgs {
        workers: Some(1),
        rate_limit: std::num::NonZeroU32::new(1),
        ..ServeArgs::default()
    })
    .await;
    let first = as_client(&s, "alice", LM, json!({})).await;
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(header(&first, "ratelimit-policy"), "\"client\";q=1;w=1");
    // The header is not trusted unless named: "bob" is the same peer.
    let r = as_client(&s, "bob", LM, json!({})).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let problem: Value = r.json().await.unwrap();
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .starts_with("the client at 127.0.0.1 sent more than its share"),
        "{problem}"
    );
}

/// A search of `client` that runs `ms` milliseconds (its answer awaited
/// by the task returned).
fn search(s: &Server, client: &'static str, ms: u64) -> actix_rt::task::JoinHandle<StatusCode> {
    let (http, url) = (s.client.clone(), format!("{}{ANALYZE}", s.base));
    actix_rt::spawn(async move {
        http.post(url)
            .header("x-client", client)
            .json(&json!({"movetime_ms": ms}))
            .send()
            .await
            .unwrap()
            .status()
    })
}

#[actix_rt::test]
async fn a_client_gets_its_share_of_the_search_threads() {
    let s = start_with(ServeArgs {
        workers: Some(2),
        max_searches: Some(2),
        max_searches_per_client: std::num::NonZeroUsize::new(1),
        client_key_header: key_header(),
        ..ServeArgs::default()
    })
    .await;
    let long = search(&s, "alice", 1500);
    until_running(&s, 1).await;
    // Alice's second search is refused (after its Retry-After) ...
    let r = as_client(&s, "alice", ANALYZE, json!({"depth": 1})).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(header(&r, "retry-after"), "1");
    let problem: Value = r.json().await.unwrap();
    assert_eq!(problem["code"], "too_many_searches");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("already has 1 search running or waiting"),
        "{problem}"
    );
    // ... a review too, while Bob's search runs beside hers.
    let r = as_client(
        &s,
        "alice",
        "/v1/variants/xiangqi/review",
        json!({"moves": ["h2e2"], "depth": 1}),
    )
    .await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let r = as_client(&s, "bob", ANALYZE, json!({"depth": 1})).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(long.await.unwrap(), StatusCode::OK);
    assert_eq!(metric(&s, "arbiter_searches_refused_client_total").await, 2);
    // Her share is back once her search has ended.
    let r = as_client(&s, "alice", ANALYZE, json!({"depth": 1})).await;
    assert_eq!(r.status(), StatusCode::OK);
}

#[actix_rt::test]
async fn searches_wait_in_turn_for_a_thread_and_no_longer_than_allowed() {
    let s = start_with(ServeArgs {
        workers: Some(2),
        max_searches: Some(1),
        max_searches_per_client: std::num::NonZeroUsize::new(1),
        client_key_header: key_header(),
        ..ServeArgs::default()
    })
    .await;
    // The default wait (2 s with a per-client share) outlasts Alice's
    // search: Bob's waits for the thread, then runs.
    let long = search(&s, "alice", 600);
    until_running(&s, 1).await;
    let bob = search(&s, "bob", 50);
    assert!(
        reaches(&s, "arbiter_searches_waiting", 1, 50, 10).await,
        "Bob's search never waited"
    );
    assert_eq!(long.await.unwrap(), StatusCode::OK);
    assert_eq!(bob.await.unwrap(), StatusCode::OK, "Bob waited his turn");
    assert_eq!(metric(&s, "arbiter_searches_rejected_total").await, 0);

    let short = start_with(ServeArgs {
        workers: Some(2),
        max_searches: Some(1),
        search_wait_ms: Some(100),
        ..ServeArgs::default()
    })
    .await;
    let long = search(&short, "alice", 1500);
    until_running(&short, 1).await;
    let r = as_client(&short, "bob", ANALYZE, json!({"depth": 1})).await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    let problem: Value = r.json().await.unwrap();
    assert_eq!(problem["code"], "engine_busy");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("stayed busy for 100 ms"),
        "{problem}"
    );
    assert_eq!(long.await.unwrap(), StatusCode::OK);
}

#[actix_rt::test]
async fn a_search_whose_client_hangs_up_gives_up_its_place() {
    use std::io::Write;
    let s = start_with(ServeArgs {
        workers: Some(2),
        max_searches: Some(1),
        search_wait_ms: Some(5_000),
        ..ServeArgs::default()
    })
    .await;
    let long = search(&s, "alice", 2_000);
    until_running(&s, 1).await;
    let addr = s.base.trim_start_matches("http://").to_owned();
    let mut sock = std::net::TcpStream::connect(&addr).unwrap();
    let body = r#"{"depth": 1}"#;
    write!(
        sock,
        "POST {ANALYZE} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    assert!(
        reaches(&s, "arbiter_searches_waiting", 1, 100, 10).await,
        "the search never waited"
    );
    drop(sock);
    // It leaves the queue while Alice's search still runs.
    assert!(
        reaches(&s, "arbiter_searches_waiting", 0, 100, 10).await,
        "the search kept waiting for a client that had gone"
    );
    assert_eq!(metric(&s, "arbiter_searches_running").await, 1);
    assert_eq!(metric(&s, "arbiter_searches_cancelled_total").await, 1);
    assert_eq!(long.await.unwrap(), StatusCode::OK);
}
