//! The probes, HTTP details (HEAD, 405 with `Allow`, redirects), CORS, request ids and `/metrics`.

use super::*;

#[actix_rt::test]
async fn probes() {
    let s = start().await;
    let (st, _, body) = s.get("/healthz").await;
    assert_eq!((st, body), (StatusCode::OK, json!({"status": "ok"})));
    let (st, _, body) = s.get("/readyz").await;
    assert_eq!((st, body), (StatusCode::OK, json!({"status": "ready"})));
}

/// HEAD wherever GET, `Allow` on a 405, `/` to Swagger UI.
#[actix_rt::test]
async fn http_details() {
    let s = start().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for path in [
        "/healthz",
        "/readyz",
        "/metrics",
        "/v1/variants",
        "/v1/variants/taxi",
        "/v1/variants/xiangqi/diagram.svg",
    ] {
        let get = client
            .get(format!("{}{path}", s.base))
            .send()
            .await
            .unwrap();
        let head = client
            .head(format!("{}{path}", s.base))
            .send()
            .await
            .unwrap();
        assert_eq!(head.status(), StatusCode::OK, "HEAD {path}");
        assert_eq!(
            head.headers()["content-type"],
            get.headers()["content-type"],
            "{path}"
        );
        assert!(
            head.bytes().await.unwrap().is_empty(),
            "HEAD {path} has no body"
        );
    }
    for (method, path, allow) in [
        (reqwest::Method::GET, LM, "POST"),
        (reqwest::Method::PUT, "/v1/variants/xiangqi/analyze", "POST"),
        (reqwest::Method::DELETE, "/healthz", "GET, HEAD"),
        (reqwest::Method::POST, "/v1/variants/tamerlane", "GET, HEAD"),
        (reqwest::Method::OPTIONS, VALIDATE, "POST"),
    ] {
        let r = client
            .request(method.clone(), format!("{}{path}", s.base))
            .send()
            .await
            .unwrap();
        assert_eq!(
            r.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        assert_eq!(r.headers()["allow"], allow, "{method} {path}");
        assert_eq!(r.headers()["content-type"], "application/problem+json");
    }
    for method in [reqwest::Method::GET, reqwest::Method::HEAD] {
        let r = client
            .request(method, format!("{}/", s.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::FOUND);
        assert_eq!(r.headers()["location"], "/swagger-ui/");
    }
}

/// `--cors-origins`: preflights and answers carry CORS headers for the
/// named origins only; without the setting there are none.
#[actix_rt::test]
async fn cors_for_the_named_origins() {
    let none = start().await;
    let named = start_with(ServeArgs {
        workers: Some(1),
        cors_origins: vec![
            "https://games.example".into(),
            "http://localhost:3000".into(),
        ],
        ..ServeArgs::default()
    })
    .await;
    let any = start_with(ServeArgs {
        workers: Some(1),
        cors_origins: vec!["*".into()],
        ..ServeArgs::default()
    })
    .await;
    let preflight = |s: &Server, origin: &str| {
        s.client
            .request(reqwest::Method::OPTIONS, format!("{}{LM}", s.base))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type")
            .send()
    };
    let r = preflight(&named, "https://games.example").await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "https://games.example"
    );
    assert!(r.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .contains("POST"));
    assert!(r.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .contains("content-type"));
    let r = preflight(&named, "https://evil.example").await.unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("access-control-allow-origin").is_none());
    assert_eq!(r.headers()["content-type"], "application/problem+json");
    // The refusal names the origin, the configured ones, and the setting.
    let problem: Value = r.json().await.unwrap();
    assert_eq!(problem["code"], "cors_refused");
    assert_eq!(
        problem["detail"],
        "the page at origin 'https://evil.example' may not call this API: --cors-origins allows only https://games.example, http://localhost:3000; add 'https://evil.example' to --cors-origins (or ARBITER_CORS_ORIGINS) to allow it"
    );
    // A preflight for a header the API does not take says what it takes.
    let r = named
        .client
        .request(reqwest::Method::OPTIONS, format!("{}{LM}", named.base))
        .header("origin", "https://games.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "x-secret")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let problem: Value = r.json().await.unwrap();
    assert_eq!(problem["code"], "cors_refused");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("'x-secret'") && detail.contains("content-type, accept, x-request-id"),
        "{detail}"
    );
    let r = preflight(&any, "https://anyone.example").await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["access-control-allow-origin"], "*");
    // Without the setting a preflight is refused, saying how to allow it.
    let r = preflight(&none, "https://games.example").await.unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("access-control-allow-origin").is_none());
    let problem: Value = r.json().await.unwrap();
    assert_eq!(problem["code"], "cors_refused");
    assert_eq!(
        problem["detail"],
        "the page at origin 'https://games.example' may not call this API: cross-origin calls are off, because the server was started without --cors-origins; start it with --cors-origins https://games.example (or ARBITER_CORS_ORIGINS=https://games.example) to allow it"
    );
    // A plain OPTIONS (no preflight) is still a method not allowed.
    let r = none
        .client
        .request(reqwest::Method::OPTIONS, format!("{}{LM}", none.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
    // The actual request: headers for the named origin only, answers alike.
    for (s, origin, allowed) in [
        (
            &named,
            "http://localhost:3000",
            Some("http://localhost:3000"),
        ),
        (&named, "https://evil.example", None),
        (&none, "http://localhost:3000", None),
        (&any, "https://anyone.example", Some("*")),
    ] {
        let r = s
            .client
            .post(format!("{}{LM}", s.base))
            .header("origin", origin)
            .json(&json!({"moves": ["h2e2"]}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(
            r.headers()
                .get("access-control-allow-origin")
                .map(|v| v.to_str().unwrap()),
            allowed,
            "{origin}"
        );
        if allowed.is_some() {
            let exposed = r.headers()["access-control-expose-headers"]
                .to_str()
                .unwrap();
            assert!(exposed.contains("x-request-id") && exposed.contains("retry-after"));
        }
    }
}

#[actix_rt::test]
async fn request_ids_and_metrics() {
    let s = start().await;
    // A client's ID is echoed; a missing or insane one is replaced.
    let r = s
        .client
        .get(format!("{}/healthz", s.base))
        .header("x-request-id", "trace-42")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "trace-42");
    let r = s
        .client
        .get(format!("{}/healthz", s.base))
        .send()
        .await
        .unwrap();
    let made_up = r.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(made_up.len(), 36, "a UUID: {made_up}");
    let r = s
        .client
        .get(format!("{}/nowhere", s.base))
        .header("x-request-id", "x".repeat(500))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(r.headers()["x-request-id"].len(), 36);
    // Counted per route and status.
    s.post(LM, json!({})).await;
    s.post(LM, json!({"fen": "bad"})).await;
    s.post(ANALYZE, json!({"depth": 2})).await;
    // Prometheus asks for OpenMetrics; others get the classic text format.
    let r = s
        .client
        .get(format!("{}/metrics", s.base))
        .header(
            "accept",
            "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3",
        )
        .send()
        .await
        .unwrap();
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/openmetrics-text"));
    let text = r.text().await.unwrap();
    assert!(text.ends_with("# EOF\n"), "{text}");
    let classic = s
        .client
        .get(format!("{}/metrics", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        classic.headers()["content-type"],
        "text/plain; version=0.0.4; charset=utf-8"
    );
    let classic = classic.text().await.unwrap();
    assert!(!classic.contains("# EOF"), "{classic}");
    assert!(classic.contains("# TYPE arbiter_http_requests_total counter"));
    assert!(classic.contains("# TYPE arbiter_searches_running gauge"));
    for line in [
        "arbiter_http_requests_total{method=\"POST\",route=\"/v1/variants/{variant}/legal-moves\",status=\"200\"} 1",
        "arbiter_http_requests_total{method=\"POST\",route=\"/v1/variants/{variant}/legal-moves\",status=\"422\"} 1",
        "arbiter_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"} 1",
        "arbiter_http_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"} 2",
        "arbiter_searches_completed_total 1",
        "arbiter_searches_running 0",
        "arbiter_searches_rejected_total 0",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
    assert!(!text.contains("queued"), "no gauge that is always 0");
    assert!(text.contains("arbiter_http_request_duration_seconds_bucket{"));
    let nodes: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("arbiter_search_nodes_total "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes > 0);
}
