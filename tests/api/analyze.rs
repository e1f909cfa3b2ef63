//! `POST …/analyze`: the engine through the API, its limits and its pool.

use super::*;

#[actix_rt::test]
async fn analyze_finds_mate_in_two_in_every_notation() {
    let s = start().await;
    let fen = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1";
    let (st, _, body) = s.post(ANALYZE, json!({"fen": fen, "depth": 5})).await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["lines"][0]["score"], json!({"mate": 2}));
    let best = body["best_move"].as_str().unwrap().to_owned();
    assert_eq!(body["lines"][0]["moves"][0], best.as_str());
    assert_eq!(body["lines"][0]["moves"].as_array().unwrap().len(), 3);
    assert!(body["nodes"].as_u64().unwrap() > 0);
    assert_eq!(body["limits"]["depth"], 5);
    assert_eq!(body["position"]["side_to_move"], "red");
    // After the best move Black is lost in one, and knows it; after the
    // whole line the game is over.
    let (st, _, after) = s
        .post(ANALYZE, json!({"fen": fen, "moves": [best], "depth": 5}))
        .await;
    assert_eq!(st, 200, "{after}");
    assert_eq!(after["lines"][0]["score"], json!({"mate": -1}));
    let line: Vec<Value> = body["lines"][0]["moves"].as_array().unwrap().clone();
    let (st, _, result) = s.post(ADJ, json!({"fen": fen, "moves": line})).await;
    assert_eq!(st, 200);
    assert_eq!(result["winner"], "red", "{result}");
    // The same search in WXF names the same move in WXF.
    let (st, _, wxf) = s
        .post(ANALYZE, json!({"fen": fen, "depth": 5, "notation": "wxf"}))
        .await;
    assert_eq!(st, 200, "{wxf}");
    let (_, _, listed) = s.post(LM, json!({"fen": fen})).await;
    let entry = listed["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["wxf"] == wxf["best_move"])
        .expect("the WXF best move is a legal move");
    assert_eq!(wxf["lines"][0]["score"], json!({"mate": 2}));
    assert!(entry["iccs"].is_string());
}

#[actix_rt::test]
async fn analyze_with_several_threads_a_search() {
    // `--search-threads 3`: Lazy SMP threads share one table; the answer is
    // still the proven mate, its line legal to the end.
    let s = start_with(ServeArgs {
        workers: Some(1),
        search_threads: 3,
        ..ServeArgs::default()
    })
    .await;
    let fen = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1";
    let (st, _, body) = s.post(ANALYZE, json!({"fen": fen, "depth": 6})).await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["lines"][0]["score"], json!({"mate": 2}), "{body}");
    let line = body["lines"][0]["moves"].clone();
    let (st, _, result) = s.post(ADJ, json!({"fen": fen, "moves": line})).await;
    assert_eq!(st, 200, "{result}");
    assert_eq!(result["winner"], "red", "{result}");
    // A middlegame search with a node limit names a legal move.
    let (st, _, mid) = s
        .post(ANALYZE, json!({"moves": ["h2e2", "h9g7"], "nodes": 20000}))
        .await;
    assert_eq!(st, 200, "{mid}");
    let (st, _, verdict) = s
        .post(
            VALIDATE,
            json!({"moves": ["h2e2", "h9g7"], "move": mid["best_move"]}),
        )
        .await;
    assert_eq!(st, 200);
    assert_eq!(verdict["legal"], true, "{verdict}");
}

#[actix_rt::test]
async fn analyze_every_variant_and_multipv() {
    let s = start().await;
    for (variant, body) in [
        ("xiangqi", json!({"depth": 3, "multipv": 3})),
        ("taxi", json!({"depth": 3, "multipv": 3, "notation": "san"})),
        ("tamerlane", json!({"depth": 2, "multipv": 3})),
    ] {
        let url = format!("/v1/variants/{variant}/analyze");
        let (st, _, resp) = s.post(&url, body).await;
        assert_eq!(st, 200, "{variant}: {resp}");
        let lines = resp["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 3, "{variant}: {resp}");
        let firsts: std::collections::HashSet<&str> = lines
            .iter()
            .map(|l| l["moves"][0].as_str().unwrap())
            .collect();
        assert_eq!(firsts.len(), 3);
        assert_eq!(resp["best_move"], lines[0]["moves"][0]);
        // The best move is legal: validate agrees.
        let v = format!("/v1/variants/{variant}/validate");
        let mut check = json!({"move": resp["best_move"]});
        if variant == "taxi" {
            check["notation"] = json!("san");
        }
        let (st, _, verdict) = s.post(&v, check).await;
        assert_eq!(st, 200);
        assert_eq!(verdict["legal"], true, "{variant}: {verdict}");
    }
}

#[actix_rt::test]
async fn analyze_refuses_bad_limits_and_finished_games() {
    let s = start().await;
    for (body, field) in [
        (json!({"depth": 0}), "depth"),
        (json!({"depth": 65}), "depth"),
        (json!({"movetime_ms": 0}), "movetime_ms"),
        (json!({"movetime_ms": 10001}), "movetime_ms"),
        (json!({"nodes": 0}), "nodes"),
        (json!({"multipv": 6}), "multipv"),
        (json!({"multipv": 0}), "multipv"),
    ] {
        let r = s.post(ANALYZE, body.clone()).await;
        assert_problem(&r, 422, "invalid_limits");
        assert_eq!(r.2["field"], field, "{body}");
    }
    let r = s
        .post(
            ANALYZE,
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]}),
        )
        .await;
    assert_problem(&r, 422, "game_ended");
    let r = s.post(ANALYZE, json!({"depth": "deep"})).await;
    assert!(r.0.is_client_error());
}

/// A search that holds the only slot for long, sent on a raw socket so the
/// test can hang up.
fn long_search(base: &str) -> std::net::TcpStream {
    use std::io::Write;
    let addr = base.trim_start_matches("http://");
    let mut sock = std::net::TcpStream::connect(addr).unwrap();
    let body = r#"{"movetime_ms": 9000}"#;
    write!(
        sock,
        "POST {ANALYZE} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    sock
}

#[actix_rt::test]
async fn a_full_engine_refuses_at_once_and_cheap_endpoints_still_answer() {
    let s = start_with(ServeArgs {
        workers: Some(2),
        max_searches: Some(1),
        ..ServeArgs::default()
    })
    .await;
    let sock = long_search(&s.base);
    // Wait until the long search holds the slot (the metrics say so).
    let mut running = false;
    for _ in 0..250 {
        let (_, _, metrics) = s.get("/metrics").await;
        if metrics
            .as_str()
            .unwrap()
            .contains("\narbiter_searches_running 1\n")
        {
            running = true;
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(running, "the long search never started");
    let r = s
        .client
        .post(format!("{}{ANALYZE}", s.base))
        .json(&json!({"depth": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status(),
        503,
        "the second search is refused while the first runs"
    );
    let busy = r;
    assert_eq!(busy.headers()["retry-after"], "1");
    assert_eq!(busy.headers()["content-type"], "application/problem+json");
    let problem: Value = busy.json().await.unwrap();
    assert_eq!(problem["code"], "engine_busy");
    // Rules endpoints are not held up by the search.
    let (st, _, body) = s.post(LM, json!({"moves": ["h2e2"]})).await;
    assert_eq!(st, 200);
    assert_eq!(body["legal_moves"].as_array().unwrap().len(), 45);
    let (st, _, _) = s.post(VALIDATE, json!({"move": "h2e2"})).await;
    assert_eq!(st, 200);
    // The client hangs up: its search stops and the slot is free again long
    // before its 9 s would have run out.
    drop(sock);
    let mut freed = false;
    for _ in 0..60 {
        let (st, _, _) = s.post(ANALYZE, json!({"depth": 1})).await;
        if st == 200 {
            freed = true;
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        freed,
        "the disconnected client's search still holds the slot"
    );
}

/// The search plays by the request's code: in 图7 Red's `i0h0` wins under
/// the Asian rules (Black's chariot chased the cannon perpetually) and
/// loses under the Chinese code (Red's perpetual mate threat), so the
/// engine plays it only under the Asian rules.
#[actix_rt::test]
async fn analyze_avoids_the_forbidden_repetition_under_the_chinese_code() {
    let s = start().await;
    let ask = |code: &str| json!({"fen": FIG7_FEN, "moves": FIG7_BEFORE, "depth": 3, "rules": {"repetition": code}});
    let (st, _, asian) = s.post(ANALYZE, ask("asian")).await;
    assert_eq!(st, StatusCode::OK, "{asian}");
    assert_eq!(asian["best_move"], "i0h0", "{asian}");
    assert_eq!(asian["lines"][0]["score"], json!({"mate": 1}), "{asian}");
    let (st, _, chinese) = s.post(ANALYZE, ask("chinese")).await;
    assert_eq!(st, StatusCode::OK, "{chinese}");
    let best = chinese["best_move"].as_str().unwrap();
    assert_ne!(best, "i0h0", "{chinese}");
    assert!(chinese["nodes"].as_u64().unwrap() < 100_000, "{chinese}");
    // The move chosen completes no repetition.
    let (_, _, checked) = s
        .post(
            VALIDATE,
            json!({"fen": FIG7_FEN, "moves": FIG7_BEFORE, "move": best, "rules": {"repetition": "chinese"}}),
        )
        .await;
    assert_eq!(checked["legal"], true);
    assert!(checked["details"].get("repetition").is_none(), "{checked}");
    assert_eq!(checked["position_after"]["status"], "ongoing");
}
