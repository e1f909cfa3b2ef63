//! What game sites need, through the real server: game records as PGN
//! (in, with the verdict checked against the record's result; and out),
//! batch adjudication (JSON and NDJSON, good and bad games mixed) and the
//! streamed analysis, including clients that hang up mid-stream.

mod common;

use std::time::Duration;

use arbiter::api::server::ServeArgs;
use common::http::{assert_problem, start, start_with, Server};
use serde_json::{json, Value};

/// The records, written as Xiangqi and chess sites export them.
const XQ_WXF: &str = include_str!("data/pgn/xiangqi-wxf.pgn");
const XQ_ICCS: &str = include_str!("data/pgn/xiangqi-iccs.pgn");
const XQ_CHINESE: &str = include_str!("data/pgn/xiangqi-chinese.pgn");
const XQ_SETUP: &str = include_str!("data/pgn/xiangqi-setup.pgn");
const TAXI_SAN: &str = include_str!("data/pgn/taxi-san.pgn");
const TAXI_SETUP: &str = include_str!("data/pgn/taxi-setup.pgn");
const TAMERLANE: &str = include_str!("data/pgn/tamerlane.pgn");
const TAMERLANE_SETUP: &str = include_str!("data/pgn/tamerlane-setup.pgn");

/// The game of the three Xiangqi records, in ICCS coordinates.
const XQ_GAME: &str = "h2e2 h9g7 b2b9 a9b9 e2e6 g7e6 b0c2 b7d7 h0g2 e6d4 c3c4 d4c2 g2e1 h7e7 c4c5 c6c5 i0h0 d7d1 h0h9 i9h9 a0a2 h9h2 a2c2 h2c2 g3g4 b9b1 g4g5 g6g5 e3e4 c2c0 e4e5 c5c4 a3a4 g5g4 a4a5 a6a5 g0i2 g4f4 i2g0 c4d4 i3i4 a5a4 i4i5 i6i5 g0i2 c0c2 i2g0 c2d2 g0e2 d2e2 e5d5 d1d5";
/// The Taxi chess record's game, in UCI.
const TAXI_GAME: &str = "h2h3 a7a6 b1c3 g8f6 g1f3 b8c6 d2d4 c6d4 f3d4 e7e5 d4f5 f8d6 f5g7 e8f8 g7f5 f6e4 c3e4 f8g8 e4d6 c7d6 f5d6 f7f6 c1d2 d8e7 d6e4 d7d5 e4c3 c8h3 g2h3 e7d6 e2e3 f6f5 f1e2 e5e4 h1g1 g8f8 f2f3 e4f3 e2f3 f8g8 e3e4 g8f8 e4f5 f8g8 g1g2 g8f8 d2e3 d6e5 d1d3 e5e3 d3e3 f8g8 e3d4 g8f8 d4f6 f8e8 f6h8 e8e7 h8g7 e7d8 g7f8 d8c7 f8a8 a6a5 a8a7 c7c8 a7c5 c8b8 c5d6 b8a8 d6d5 a5a4 f3e4 a4a3 b2a3 h7h6 a3a4 h6h5 a2a3 h5h4 d5b7";

fn adj(variant: &str) -> String {
    format!("/v1/variants/{variant}/adjudicate")
}

/// The verdict's fields two answers about one game must share.
fn verdict(answer: &Value) -> Value {
    json!([
        answer["result"],
        answer["reason"],
        answer["winner"],
        answer["ended_at_ply"],
        answer["fen"],
        answer["explanation"]
    ])
}

#[actix_rt::test]
async fn pgn_records_get_the_verdict_of_their_moves() {
    let s = start().await;
    // (variant, record, the same game as fen and moves, the recorded result, whether it agrees)
    let cases: [(&str, &str, Value, &str, bool); 8] = [
        ("xiangqi", XQ_WXF, json!({"moves": XQ_GAME}), "0-1", true),
        ("xiangqi", XQ_ICCS, json!({"moves": XQ_GAME}), "0-1", true),
        (
            "xiangqi",
            XQ_CHINESE,
            json!({"moves": XQ_GAME}),
            "0-1",
            true,
        ),
        (
            "xiangqi",
            XQ_SETUP,
            json!({"fen": "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
                   "moves": "a7a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8"}),
            "1/2-1/2",
            false,
        ),
        ("taxi", TAXI_SAN, json!({"moves": TAXI_GAME}), "1-0", true),
        (
            "taxi",
            TAXI_SETUP,
            json!({"fen": "7k/8/8/8/8/8/1q6/K7 w - - 0 1 0/0"}),
            "0-1",
            true,
        ),
        (
            "tamerlane",
            TAMERLANE,
            json!({"moves": TAMERLANE.lines()
                .filter(|l| !l.starts_with('['))
                .flat_map(str::split_whitespace)
                .filter(|t| !t.ends_with('.') && *t != "1-0")
                .collect::<Vec<_>>()}),
            "1-0",
            true,
        ),
        (
            "tamerlane",
            TAMERLANE_SETUP,
            json!({"fen": "11/K10/11/11/11/11/11/11/11/10k w -/- - 0/0 0 1", "moves": ["a9z9"]}),
            "1/2-1/2",
            true,
        ),
    ];
    for (variant, record, as_moves, recorded, agrees) in cases {
        let (st, _, from_pgn) = s.post(&adj(variant), json!({"pgn": record})).await;
        assert_eq!(st, 200, "{variant}: {from_pgn}");
        let (st, _, from_moves) = s.post(&adj(variant), as_moves).await;
        assert_eq!(st, 200, "{variant}: {from_moves}");
        assert_eq!(verdict(&from_pgn), verdict(&from_moves), "{record}");
        assert_ne!(from_pgn["status"], "ongoing", "{record}");
        assert_eq!(from_pgn["recorded_result"], recorded, "{record}");
        assert_eq!(from_pgn["recorded_result_agrees"], agrees, "{record}");
        // Sent as moves, nothing is recorded.
        assert_eq!(from_moves["recorded_result"], Value::Null);
        assert_eq!(from_moves["recorded_result_agrees"], Value::Null);
    }
    // The record says 1/2-1/2, the rules say Red loses by perpetual check.
    let (_, _, perpetual) = s.post(&adj("xiangqi"), json!({"pgn": XQ_SETUP})).await;
    assert_eq!(perpetual["reason"], "perpetual_check");
    assert_eq!(perpetual["result"], "0-1");
}

#[actix_rt::test]
async fn every_position_endpoint_reads_pgn() {
    let s = start().await;
    let record = "[Format \"WXF\"]\n\n1. C2.5 H8+7 {the usual reply} 2. H2+3 *";
    let (st, _, lm) = s
        .post("/v1/variants/xiangqi/legal-moves", json!({"pgn": record}))
        .await;
    assert_eq!(st, 200, "{lm}");
    let (_, _, same) = s
        .post(
            "/v1/variants/xiangqi/legal-moves",
            json!({"moves": ["h2e2", "h9g7", "h0g2"]}),
        )
        .await;
    assert_eq!(lm["fen"], same["fen"]);
    // The answer speaks the record's notation.
    assert_eq!(lm["legal_moves"][0]["move"], lm["legal_moves"][0]["wxf"]);
    let (st, _, v) = s
        .post(
            "/v1/variants/xiangqi/validate",
            json!({"pgn": record, "move": "R9.8"}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["legal"], true);
    let (st, _, a) = s
        .post(
            "/v1/variants/xiangqi/analyze",
            json!({"pgn": record, "depth": 3}),
        )
        .await;
    assert_eq!(st, 200, "{a}");
    assert_eq!(a["position"]["fen"], same["fen"]);
    let r = s
        .client
        .post(format!("{}/v1/variants/xiangqi/diagram", s.base))
        .json(&json!({"pgn": record}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.text().await.unwrap().starts_with("<svg"));
    // A Taxi record's balances from its tag; the seven-field FEN agrees.
    let taxi = "[SetUp \"1\"]\n[FEN \"8/8/8/8/1r6/1K6/8/k2R4 w - - 0 2\"]\n[Balances \"0/1\"]\n\n*";
    let (st, _, t) = s
        .post("/v1/variants/taxi/legal-moves", json!({"pgn": taxi}))
        .await;
    assert_eq!(st, 200, "{t}");
    assert_eq!(t["balances"], json!({"white": 0, "black": 1}));
    let seven = "[FEN \"8/8/8/8/1r6/1K6/8/k2R4 w - - 0 2 0/1\"]\n\n*";
    let (_, _, t7) = s
        .post("/v1/variants/taxi/legal-moves", json!({"pgn": seven}))
        .await;
    assert_eq!(t7["fen"], t["fen"]);
}

#[actix_rt::test]
async fn pgn_errors_name_the_move_and_line() {
    let s = start().await;
    let bad = XQ_WXF.replace("7. H3-5 C8.5", "7. H3-5 C8.4");
    let resp = s.post(&adj("xiangqi"), json!({"pgn": bad})).await;
    assert_problem(&resp, 422, "illegal_move");
    let detail = resp.2["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("pgn: move 7 for Black, 'C8.4' (line 15): "),
        "{detail}"
    );
    assert_eq!(resp.2["field"], "pgn");
    assert_eq!(resp.2["move_index"], 13);
    // A Taxi move the meter cannot pay for, in SAN.
    let resp = s
        .post(
            &adj("taxi"),
            json!({"pgn": "[FEN \"8/8/8/8/1r6/1K6/8/k2R4 w - - 0 2 0/1\"]\n\n2. Kxb4 *"}),
        )
        .await;
    assert_problem(&resp, 422, "illegal_move");
    assert!(
        resp.2["detail"]
            .as_str()
            .unwrap()
            .starts_with("pgn: move 2 for White, 'Kxb4' (line 3): "),
        "{}",
        resp.2
    );
    for (record, code, words) in [
        (
            "1. h2e2 {never closed",
            "invalid_pgn",
            "line 1: a '{' comment",
        ),
        ("1. h2e2 (1. b0c2", "invalid_pgn", "line 1: a '(' variation"),
        (
            "[Format \"Morse\"]\n1. h2e2",
            "invalid_pgn",
            "[Format] tag 'Morse'",
        ),
        (
            "1. h2e2 h9g7 1-0\n\n[Event \"next\"]\n1. h2e2",
            "invalid_pgn",
            "second game",
        ),
        (
            "[FEN \"9/9/9 w\"]\n*",
            "invalid_fen",
            "pgn: the [FEN] tag: ",
        ),
    ] {
        let resp = s.post(&adj("xiangqi"), json!({"pgn": record})).await;
        assert_problem(&resp, 422, code);
        assert_eq!(resp.2["field"], "pgn");
        assert!(
            resp.2["detail"].as_str().unwrap().contains(words),
            "{record}: {}",
            resp.2
        );
    }
    let resp = s
        .post(&adj("taxi"), json!({"pgn": "[Balances \"lots\"]\n*"}))
        .await;
    assert_problem(&resp, 422, "invalid_pgn");
    // Either a record or fen and moves.
    let resp = s
        .post(
            &adj("xiangqi"),
            json!({"pgn": "1. h2e2", "moves": ["h9g7"]}),
        )
        .await;
    assert_problem(&resp, 422, "invalid_request");
    assert_eq!(resp.2["field"], "pgn");
}

#[actix_rt::test]
async fn adjudicate_answers_pgn_that_reads_back() {
    let s = start().await;
    for (variant, body) in [
        ("xiangqi", json!({"pgn": XQ_WXF})),
        ("xiangqi", json!({"pgn": XQ_SETUP})),
        ("taxi", json!({"moves": TAXI_GAME})),
        ("tamerlane", json!({"pgn": TAMERLANE})),
        ("tamerlane", json!({"pgn": TAMERLANE_SETUP})),
    ] {
        let (_, _, json_answer) = s.post(&adj(variant), body.clone()).await;
        let mut asked = body.clone();
        asked["format"] = json!("pgn");
        let (st, ct, pgn) = s.post(&adj(variant), asked).await;
        assert_eq!(st, 200);
        assert_eq!(ct, "application/x-chess-pgn; charset=utf-8");
        let pgn = pgn.as_str().unwrap().to_owned();
        let result = json_answer["result"].as_str().unwrap();
        assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");
        let reason = json_answer["reason"].as_str().unwrap();
        assert!(
            pgn.contains(&format!("[Termination \"{reason}\"]")),
            "{pgn}"
        );
        // The comment is the explanation, and what the record said when it
        // differs from the verdict (XQ_SETUP's record says 1/2-1/2).
        let explanation = json_answer["explanation"].as_str().unwrap();
        let recorded = json_answer["recorded_result"].as_str().unwrap_or("*");
        let comment = if recorded != "*" && recorded != result {
            format!("{{{explanation}; the record says {recorded}}}")
        } else {
            format!("{{{explanation}}}")
        };
        assert!(pgn.contains(&comment), "{pgn}");
        assert!(pgn.trim_end().ends_with(result), "{pgn}");
        // Read back, the record gives the same verdict and agrees with it.
        let (st, _, again) = s.post(&adj(variant), json!({"pgn": pgn})).await;
        assert_eq!(st, 200, "{again}\n{pgn}");
        assert_eq!(verdict(&again), verdict(&json_answer), "{pgn}");
        assert_eq!(again["recorded_result_agrees"], true);
    }
    // The record's tags are kept; Taxi chess's moves are SAN.
    let (_, _, taxi) = s
        .post(&adj("taxi"), json!({"pgn": TAXI_SAN, "format": "pgn"}))
        .await;
    let taxi = taxi.as_str().unwrap();
    assert!(taxi.contains("[White \"meter_runner\"]"), "{taxi}");
    assert!(taxi.contains("41. Qxb7#"), "{taxi}");
    // Accept asks for PGN as well.
    let r = s
        .client
        .post(format!("{}{}", s.base, adj("xiangqi")))
        .header("accept", "application/x-chess-pgn")
        .json(&json!({"moves": ["h2e2"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.headers()["content-type"],
        "application/x-chess-pgn; charset=utf-8"
    );
    let text = r.text().await.unwrap();
    assert!(
        text.contains("[Result \"*\"]") && text.contains("1. h2e2"),
        "{text}"
    );
    // An explicit "format": "json" wins over Accept.
    let r = s
        .client
        .post(format!("{}{}", s.base, adj("xiangqi")))
        .header("accept", "application/x-chess-pgn")
        .json(&json!({"moves": ["h2e2"], "format": "json"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "application/json");
}

const BATCH: &str = "/v1/variants/xiangqi/adjudicate/batch";

/// A batch of good and bad games: mate, ongoing, illegal, unreadable PGN,
/// played past the end, a record.
fn mixed_batch() -> Value {
    json!({"games": [
        {"id": "mate", "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]},
        {"id": 2, "moves": ["h2e2", "h9g7"]},
        {"id": "illegal", "moves": ["h2e2", "h9g7", "e2e8"]},
        {"id": "broken", "pgn": "1. h2e2 {"},
        {"id": "past the end", "fen": "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
         "moves": "a7a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9"},
        {"pgn": XQ_WXF}
    ]})
}

#[actix_rt::test]
async fn a_batch_answers_every_game_in_order() {
    let s = start().await;
    let (st, ct, body) = s.post(BATCH, mixed_batch()).await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(ct, "application/json");
    assert_eq!(body["games"], 6);
    assert_eq!(body["errors"], 2);
    let results = body["results"].as_array().unwrap();
    let ids: Vec<&Value> = results.iter().map(|r| &r["id"]).collect();
    assert_eq!(
        ids,
        [
            &json!("mate"),
            &json!(2),
            &json!("illegal"),
            &json!("broken"),
            &json!("past the end"),
            &Value::Null
        ]
    );
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["index"], i);
        assert!(r["result"].is_null() != r["error"].is_null(), "{r}");
    }
    assert_eq!(results[0]["result"]["reason"], "checkmate");
    assert_eq!(results[1]["result"]["status"], "ongoing");
    assert_eq!(results[2]["error"]["code"], "illegal_move");
    assert_eq!(results[2]["error"]["field"], "moves[2]");
    assert_eq!(results[3]["error"]["code"], "invalid_pgn");
    assert_eq!(results[4]["result"]["moves_after_end"], 1);
    assert_eq!(results[5]["result"]["recorded_result_agrees"], true);
    // The same answers, one per line, with NDJSON.
    let lines = ndjson_lines(&s, BATCH, &mixed_batch()).await;
    assert_eq!(&lines, results);
    // The same game alone answers the same.
    let (_, _, alone) = s
        .post(&adj("xiangqi"), json!({"moves": ["h2e2", "h9g7", "e2e8"]}))
        .await;
    assert_eq!(alone, results[2]["error"]);
}

#[actix_rt::test]
async fn batch_limits() {
    let s = start().await;
    let resp = s.post(BATCH, json!({"games": []})).await;
    assert_problem(&resp, 422, "too_many_games");
    assert_eq!(resp.2["field"], "games");
    let many: Vec<Value> = (0..1001).map(|i| json!({"id": i})).collect();
    let resp = s.post(BATCH, json!({"games": many})).await;
    assert_problem(&resp, 422, "too_many_games");
    let thousand: Vec<Value> = (0..1000)
        .map(|i| json!({"id": i, "moves": ["h2e2"]}))
        .collect();
    let (st, _, body) = s.post(BATCH, json!({"games": thousand})).await;
    assert_eq!(st, 200);
    assert_eq!(body["results"].as_array().unwrap().len(), 1000);
    let resp = s
        .post(BATCH, json!({"games": [{"id": 1, "colour": "red"}]}))
        .await;
    assert_problem(&resp, 422, "invalid_request");
    assert_eq!(resp.2["field"], "games[0].colour");
}

/// Sends `body` to `path` asking for NDJSON, on a client of its own (so
/// that dropping the answer closes the connection).
async fn ndjson_stream(server: &Server, path: &str, body: &Value) -> reqwest::Response {
    let r = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .header("accept", "application/x-ndjson")
        .json(body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    r
}

/// Every line of an NDJSON answer to `body` sent to `path`, read to its
/// end.
async fn ndjson_lines(server: &Server, path: &str, body: &Value) -> Vec<Value> {
    let r = ndjson_stream(server, path, body).await;
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    let text = r.text().await.unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The first NDJSON line of a streamed answer.
async fn first_line(r: &mut reqwest::Response) -> Value {
    let mut bytes = Vec::new();
    while !bytes.contains(&b'\n') {
        let chunk = r
            .chunk()
            .await
            .unwrap()
            .expect("the stream ended before a line");
        bytes.extend_from_slice(&chunk);
    }
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    serde_json::from_slice(&bytes[..end]).unwrap()
}

#[actix_rt::test]
async fn analysis_streams_each_depth_then_the_answer() {
    let s = start().await;
    let lines = ndjson_lines(
        &s,
        "/v1/variants/xiangqi/analyze",
        &json!({"depth": 6, "moves": ["h2e2"]}),
    )
    .await;
    let (last, progress) = lines.split_last().unwrap();
    assert_eq!(progress.len(), 6, "{lines:?}");
    for (i, p) in progress.iter().enumerate() {
        assert_eq!(p["depth"], i + 1);
        assert!(p["lines"][0]["moves"]
            .as_array()
            .is_some_and(|m| !m.is_empty()));
        assert!(p.get("best_move").is_none());
    }
    assert_eq!(last["depth"], 6);
    assert_eq!(last["lines"], progress[5]["lines"]);
    assert!(last["best_move"].is_string());
    assert_eq!(last["nodes"], progress[5]["nodes"]);
    // Problems found before the search are answered as problems.
    let r = s
        .client
        .post(format!("{}/v1/variants/xiangqi/analyze", s.base))
        .header("accept", "application/x-ndjson")
        .json(&json!({"depth": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    assert_eq!(r.headers()["content-type"], "application/problem+json");
}

#[actix_rt::test]
async fn a_client_that_hangs_up_mid_stream_stops_its_search() {
    let s = start_with(ServeArgs {
        workers: Some(1),
        max_searches: Some(1),
        ..ServeArgs::default()
    })
    .await;
    let analyze = "/v1/variants/xiangqi/analyze";
    let mut stream = ndjson_stream(&s, analyze, &json!({"movetime_ms": 9000})).await;
    let first = first_line(&mut stream).await;
    assert_eq!(first["depth"], 1);
    // While it runs, the one search slot is taken.
    let (st, _, _) = s.post(analyze, json!({"depth": 1})).await;
    assert_eq!(st, 503);
    drop(stream);
    let mut freed = false;
    for _ in 0..60 {
        let (st, _, _) = s.post(analyze, json!({"depth": 1})).await;
        if st == 200 {
            freed = true;
            break;
        }
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(freed, "the search of the client that hung up still runs");
    // A batch client hanging up after its first game leaves the server well.
    let many: Vec<Value> = (0..1000).map(|i| json!({"id": i, "pgn": XQ_WXF})).collect();
    let mut stream = ndjson_stream(&s, BATCH, &json!({"games": many})).await;
    let first = first_line(&mut stream).await;
    assert_eq!(first["index"], 0);
    drop(stream);
    let (st, _, body) = s.post(BATCH, json!({"games": [{"moves": ["h2e2"]}]})).await;
    assert_eq!(st, 200);
    assert_eq!(body["errors"], 0);
}
