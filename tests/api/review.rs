//! `POST …/review`: a game's moves weighed by the engine, as JSON, as a
//! stream and as a graph; its limits, its errors and the engine pool.

use super::*;

const REVIEW: &str = "/v1/variants/xiangqi/review";

/// Red leaves its chariot where Black's takes it (ply 1), and Black takes.
const BLUNDER_FEN: &str = "4k4/9/9/9/R8/7r1/9/9/9/3K5 w - - 0 1";

#[actix_rt::test]
async fn review_weighs_every_move_and_finds_the_blunder() {
    let s = start().await;
    let (st, _, body) = s
        .post(
            REVIEW,
            json!({"fen": BLUNDER_FEN, "moves": ["a5h5", "h4h5"], "depth": 6}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    let plies = body["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 2, "{body}");
    let first = &plies[0];
    assert_eq!(first["ply"], 1);
    assert_eq!(first["side"], "red");
    assert_eq!(first["move"], "a5h5");
    assert_ne!(first["best_move"], "a5h5");
    assert_eq!(first["class"], "blunder", "{first}");
    assert!(first["win_loss"].as_f64().unwrap() >= 15.0, "{first}");
    // After the blunder Black mates: the score after is lost for Red.
    assert!(
        first["score_after"]["mate"].as_i64().unwrap() < 0,
        "{first}"
    );
    let wdl = &first["wdl_before"];
    let sum: u64 = ["win", "draw", "loss"]
        .iter()
        .map(|k| wdl[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 1000);
    // Black's capture gives nothing away.
    assert_eq!(plies[1]["side"], "black");
    assert_eq!(plies[1]["win_loss"], 0.0, "{}", plies[1]);
    assert!(["best", "good"].contains(&plies[1]["class"].as_str().unwrap()));
    let sides = body["sides"].as_array().unwrap();
    assert_eq!(sides[0]["side"], "red");
    assert_eq!(sides[0]["blunders"], 1);
    assert!(sides[0]["accuracy"].as_f64().unwrap() < 50.0, "{body}");
    assert_eq!(sides[1]["accuracy"], 100.0, "{body}");
    assert_eq!(body["complete"], true);
    assert_eq!(body["limits"]["first"]["depth"], 6);
    assert_eq!(body["limits"]["verify"]["depth"], 10);
    assert_eq!(body["limits"]["repeatable"], true);
    // The blunder is marked with the better line, and searched again.
    assert_eq!(first["best_line"][0], first["best_move"], "{first}");
    assert_eq!(first["verified"], true, "{first}");
    assert_eq!(body["verified_plies"][0], 1, "{body}");
    assert_eq!(body["limits"]["evaluation"], "nnue", "Xiangqi's network");
    // The verdict is the adjudicate answer.
    let (_, _, adjudged) = s
        .post(ADJ, json!({"fen": BLUNDER_FEN, "moves": ["a5h5", "h4h5"]}))
        .await;
    assert_eq!(body["result"], adjudged);
}

#[actix_rt::test]
async fn review_streams_plies_and_draws_the_graph() {
    let s = start().await;
    let game = json!({"moves": ["h2e2", "h9g7", "h0g2", "i9h9"], "movetime_ms": 20});
    let r = s
        .client
        .post(format!("{}{REVIEW}", s.base))
        .header("accept", "application/x-ndjson")
        .json(&game)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    let text = r.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // A line per ply in order as the first pass has it, a ply again when
    // verification changes it (the last line of a ply stands), then the
    // review.
    let (last, plies) = lines.split_last().unwrap();
    assert!(plies.len() >= 4, "{text}");
    for (i, l) in plies[..4].iter().enumerate() {
        assert_eq!(l["ply"], i + 1, "{l}");
        assert!(l["class"].is_string());
    }
    assert_eq!(last["plies"].as_array().unwrap().len(), 4);
    for p in last["plies"].as_array().unwrap() {
        let told = plies.iter().rev().find(|l| l["ply"] == p["ply"]).unwrap();
        assert_eq!(told, p, "the last line of ply {} stands", p["ply"]);
    }
    // The graph: asked by Accept or by format, one point per position.
    for (accept, body) in [
        ("image/svg+xml", game.clone()),
        ("*/*", {
            let mut g = game.clone();
            g["format"] = json!("svg");
            g
        }),
    ] {
        let r = s
            .client
            .post(format!("{}{REVIEW}", s.base))
            .header("accept", accept)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "image/svg+xml");
        let svg = r.text().await.unwrap();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{svg}");
        // The area under the curve: a point a position, two corners.
        let path = svg.split("<path d=\"").nth(1).unwrap();
        assert_eq!(path.split('"').next().unwrap().matches('L').count(), 5 + 1);
        for words in [
            "Red",
            "Black",
            "Xiangqi game review: 4 plies",
            "blunder or missed win",
        ] {
            assert!(svg.contains(words), "{words}: {svg}");
        }
    }
    // A mark's tooltip names the move and its class.
    let r = s
        .client
        .post(format!("{}{REVIEW}", s.base))
        .json(&json!({"fen": BLUNDER_FEN, "moves": ["a5h5", "h4h5"], "depth": 6, "format": "svg"}))
        .send()
        .await
        .unwrap();
    let svg = r.text().await.unwrap();
    assert!(svg.contains("<title>1. a5h5: blunder</title>"), "{svg}");
}

#[actix_rt::test]
async fn review_answers_the_same_twice_by_default() {
    let s = start().await;
    let game = json!({"moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]});
    let (st, _, first) = s.post(REVIEW, game.clone()).await;
    assert_eq!(st, 200, "{first}");
    assert_eq!(first["limits"]["first"]["nodes"], 23000, "{first}");
    assert_eq!(first["limits"]["verify"]["nodes"], 230000, "{first}");
    assert_eq!(first["limits"]["repeatable"], true);
    assert_eq!(first["complete"], true);
    let (_, _, second) = s.post(REVIEW, game).await;
    assert_eq!(first, second);
    // By the clock the answer says it may not repeat.
    let (_, _, timed) = s
        .post(REVIEW, json!({"moves": ["h2e2"], "movetime_ms": 10}))
        .await;
    assert_eq!(timed["limits"]["repeatable"], false, "{timed}");
    assert_eq!(timed["limits"]["first"]["movetime_ms"], 10, "{timed}");
}

#[actix_rt::test]
async fn review_goes_to_the_last_move_of_a_record_played_past_a_ruling() {
    let s = start().await;
    // Red checks on and is ruled against at ply 9 (the third occurrence);
    // over the board the game goes on, and Red changes at ply 11.
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let record = [
        "a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8b8",
        "e9f9",
    ];
    let otb = json!({"repetition_ends_game": false});
    let (st, _, body) = s
        .post(
            REVIEW,
            json!({"fen": fen, "moves": record, "rules": otb, "depth": 3}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    let plies = body["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 12, "{body}");
    assert_eq!(body["complete"], true);
    assert_eq!(
        plies[8]["ruling"]["reason"], "perpetual_check",
        "{}",
        plies[8]
    );
    assert_eq!(plies[8]["ruling"]["winner"], "black");
    assert_eq!(plies[8]["ruling"], body["result"]["repetition_events"][0]);
    assert!(plies.iter().filter(|p| p.get("ruling").is_some()).count() == 1);
    assert!(plies.iter().all(|p| p.get("ended").is_none()), "{body}");
    // The same record stopped at the ruling ends there, lost by the mover.
    let (_, _, body) = s
        .post(
            REVIEW,
            json!({"fen": fen, "moves": &record[..9], "rules": otb, "depth": 3}),
        )
        .await;
    let last = &body["plies"][8];
    assert_eq!(last["ended"], "loss", "{last}");
    assert_eq!(last["score_after"], json!({"mate": 0}), "{last}");
    assert_eq!(body["result"]["reason"], "perpetual_check", "{body}");
}

#[actix_rt::test]
async fn review_scores_the_mating_move_as_the_end() {
    let s = start().await;
    let (st, _, body) = s
        .post(
            REVIEW,
            json!({"fen": "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1", "moves": ["i0i9"], "depth": 4}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    let p = &body["plies"][0];
    assert_eq!(p["best_move"], "i0i9");
    assert_eq!(p["class"], "best", "{p}");
    assert_eq!(p["score_before"], json!({"mate": 1}), "{p}");
    assert_eq!(p["score_after"], json!({"mate": 0}), "{p}");
    assert_eq!(p["ended"], "win", "{p}");
    assert_eq!(p["win_loss"], 0.0);
}

#[actix_rt::test]
async fn review_refuses_bad_records_and_budgets() {
    let s = start_with(ServeArgs {
        max_review_plies: 3,
        max_review_secs: 2,
        ..ServeArgs::default()
    })
    .await;
    // An illegal move: the problem adjudicate gives.
    let bad = json!({"moves": ["h2e2", "h9h2"]});
    let r = s.post(REVIEW, bad.clone()).await;
    assert_problem(&r, 422, "illegal_move");
    let (_, _, adjudged) = s.post(ADJ, bad).await;
    assert_eq!(r.2, adjudged);
    // Too many plies, too long a review, budgets out of range.
    let r = s
        .post(REVIEW, json!({"moves": ["h2e2", "h9g7", "h0g2", "i9h9"]}))
        .await;
    assert_problem(&r, 422, "too_many_moves");
    assert_eq!(r.2["field"], "moves");
    let r = s
        .post(
            REVIEW,
            json!({"moves": ["h2e2", "h9g7"], "movetime_ms": 1000}),
        )
        .await;
    assert_problem(&r, 422, "invalid_limits");
    assert_eq!(r.2["field"], "movetime_ms");
    assert!(
        r.2["detail"].as_str().unwrap().contains("use at most 666"),
        "{}",
        r.2
    );
    for (body, field) in [
        (json!({"nodes": 0}), "nodes"),
        (json!({"depth": 65}), "depth"),
        (json!({"movetime_ms": 10001}), "movetime_ms"),
    ] {
        let r = s.post(REVIEW, body.clone()).await;
        assert_problem(&r, 422, "invalid_limits");
        assert_eq!(r.2["field"], field, "{body}");
    }
    let r = s.post(REVIEW, json!({"format": "png"})).await;
    assert_eq!(r.0, 422, "{}", r.2);
    assert_eq!(r.2["field"], "format");
    assert!(r.2["detail"].as_str().unwrap().contains("'svg'"), "{}", r.2);
}

#[actix_rt::test]
async fn review_runs_in_the_engine_pool_and_stops_when_the_client_hangs_up() {
    use std::io::{BufRead, BufReader, Write};
    let s = start_with(ServeArgs {
        workers: Some(2),
        max_searches: Some(1),
        ..ServeArgs::default()
    })
    .await;
    // A long streamed review on a raw socket: 8 plies at 1 s a position.
    let game = [
        "h2e2", "h9g7", "h0g2", "i9h9", "g3g4", "g6g5", "g4g5", "c6c5",
    ];
    let body = json!({"moves": game, "movetime_ms": 1000}).to_string();
    let addr = s.base.trim_start_matches("http://").to_owned();
    // The client runs on a thread of its own (the server shares this
    // test's runtime): it reads up to the first ply, says so, and hangs up
    // when told.
    let (first_tx, first_rx) = std::sync::mpsc::channel::<bool>();
    let (hang_tx, hang_rx) = std::sync::mpsc::channel::<()>();
    let client = std::thread::spawn(move || {
        let mut sock = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            sock,
            "POST {REVIEW} HTTP/1.1\r\nHost: {addr}\r\nAccept: application/x-ndjson\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut reader = BufReader::new(sock.try_clone().unwrap());
        let mut line = String::new();
        let seen = loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break false;
            }
            if line.contains("\"ply\":1") {
                break true;
            }
        };
        first_tx.send(seen).unwrap();
        let _ = hang_rx.recv();
    });
    // The first ply arrives while the review holds the only slot.
    let mut seen = None;
    for _ in 0..200 {
        if let Ok(v) = first_rx.try_recv() {
            seen = Some(v);
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(seen, Some(true), "no first ply streamed");
    let r = s.post(ANALYZE, json!({"depth": 1})).await;
    assert_problem(&r, 503, "engine_busy");
    // The client hangs up: the review stops and the slot is free long
    // before its 9 s would have run out.
    hang_tx.send(()).unwrap();
    client.join().unwrap();
    let started = std::time::Instant::now();
    let mut freed = false;
    while started.elapsed() < std::time::Duration::from_secs(4) {
        let (st, _, _) = s.post(ANALYZE, json!({"depth": 1})).await;
        if st == 200 {
            freed = true;
            break;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        freed,
        "the review of a client that hung up still holds the slot"
    );
}
