//! `POST …/analyze`: the engine through the API, its limits and its pool.

use super::*;

#[actix_rt::test]
async fn analyze_finds_mate_in_two_in_every_notation() {
    let s = start().await;
    let fen = "4k4/9/9/9/9/9/9/9/R8/1R1K4p w - - 0 1";
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
    let fen = "4k4/9/9/9/9/9/9/9/R8/1R1K4p w - - 0 1";
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
    until_running(&s, 1).await;
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

/// A score as one number to compare: mates beyond every centipawn score,
/// the sooner the better.
fn ordinal(score: &Value) -> i64 {
    match (score["cp"].as_i64(), score["mate"].as_i64()) {
        (Some(cp), _) => cp,
        (_, Some(n)) if n > 0 => 1_000_000 - n,
        (_, Some(n)) => -1_000_000 - n,
        _ => panic!("a score is cp or mate: {score}"),
    }
}

fn assert_wdl(line: &Value) {
    let w = &line["wdl"];
    let (win, draw, loss) = (
        w["win"].as_u64().unwrap(),
        w["draw"].as_u64().unwrap(),
        w["loss"].as_u64().unwrap(),
    );
    assert_eq!(win + draw + loss, 1000, "{line}");
    match line["score"]["mate"].as_i64() {
        Some(n) if n > 0 => assert_eq!(win, 1000, "{line}"),
        Some(_) => assert_eq!(loss, 1000, "{line}"),
        None => {
            let cp = line["score"]["cp"].as_i64().unwrap();
            if cp > 0 {
                assert!(win >= loss, "{line}");
            } else if cp < 0 {
                assert!(loss >= win, "{line}");
            }
        }
    }
}

#[actix_rt::test]
async fn analyze_scores_every_move_with_chances_and_rule_marks() {
    let s = start().await;
    // Every legal move, once each, best first, each with its chances.
    let fen = "4k4/9/9/9/9/9/9/9/R8/1R1K4p w - - 0 1";
    let (st, _, body) = s
        .post(ANALYZE, json!({"fen": fen, "depth": 3, "all_moves": true}))
        .await;
    assert_eq!(st, 200, "{body}");
    let (_, _, listed) = s.post(LM, json!({"fen": fen})).await;
    let legal: std::collections::BTreeSet<String> = listed["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect();
    let lines = body["lines"].as_array().unwrap();
    let scored: std::collections::BTreeSet<String> = lines
        .iter()
        .map(|l| l["move"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(lines.len(), legal.len(), "{body}");
    assert_eq!(scored, legal);
    for pair in lines.windows(2) {
        assert!(
            ordinal(&pair[0]["score"]) >= ordinal(&pair[1]["score"]),
            "{body}"
        );
    }
    for l in lines {
        assert_eq!(l["moves"][0], l["move"]);
        assert_eq!(l["forbidden_repetition"], false);
        assert_wdl(l);
    }
    assert_eq!(lines[0]["score"], json!({"mate": 2}));
    assert_eq!(body["best_move"], lines[0]["move"]);
    // The rule marks legal-moves gives: the chariot's return to a8 would
    // complete Red's perpetual check (the README's example).
    let moves = json!(["a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"]);
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let (st, _, body) = s
        .post(
            ANALYZE,
            json!({"fen": fen, "moves": moves, "depth": 3, "all_moves": true}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    let lines = body["lines"].as_array().unwrap();
    let back = lines
        .iter()
        .find(|l| l["move"] == "a9a8")
        .expect("a9a8 scored");
    assert_eq!(back["forbidden_repetition"], true, "{back}");
    assert_eq!(back["repetition"]["outcome"], "loss", "{back}");
    assert_eq!(back["repetition"]["reason"], "perpetual_check", "{back}");
    assert_ne!(body["best_move"], "a9a8", "{body}");
    assert!(lines
        .iter()
        .filter(|l| l["move"] != "a9a8")
        .all(|l| l["forbidden_repetition"] == false));
}

#[actix_rt::test]
async fn analyze_searches_only_the_moves_asked_for() {
    let s = start().await;
    // The mate in two begins b0b8; left out, another move is best, and
    // only the moves asked for are searched.
    let fen = "4k4/9/9/9/9/9/9/9/R8/1R1K4p w - - 0 1";
    let (st, _, body) = s
        .post(
            ANALYZE,
            json!({"fen": fen, "depth": 4, "exclude": ["b0b8"]}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    assert_ne!(body["best_move"], "b0b8");
    let asked = ["a1a2", "d0d1", "b0b1"];
    let (st, _, body) = s
        .post(
            ANALYZE,
            json!({"fen": fen, "depth": 3, "searchmoves": asked, "all_moves": true}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    let mut got: Vec<&str> = body["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["move"].as_str().unwrap())
        .collect();
    got.sort_unstable();
    let mut want = asked.to_vec();
    want.sort_unstable();
    assert_eq!(got, want, "{body}");
    assert!(asked.contains(&body["best_move"].as_str().unwrap()));
    // searchmoves and exclude together; then bad lists.
    let (st, _, body) = s
        .post(
            ANALYZE,
            json!({"fen": fen, "depth": 2, "searchmoves": asked, "exclude": ["a1a2", "d0d1"]}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["best_move"], "b0b1");
    let r = s
        .post(
            ANALYZE,
            json!({"fen": fen, "searchmoves": ["a1a2", "a1b2"]}),
        )
        .await;
    assert_problem(&r, 422, "illegal_move");
    assert_eq!(r.2["field"], "searchmoves[1]", "{}", r.2);
    assert_eq!(r.2["move"], "a1b2");
    let r = s
        .post(ANALYZE, json!({"fen": fen, "exclude": ["zz"]}))
        .await;
    assert_problem(&r, 422, "invalid_move");
    assert_eq!(r.2["field"], "exclude[0]");
    let r = s
        .post(
            ANALYZE,
            json!({"fen": fen, "searchmoves": ["a1a2"], "exclude": ["a1a2"]}),
        )
        .await;
    assert_problem(&r, 422, "invalid_limits");
    assert_eq!(r.2["field"], "exclude");
}

#[actix_rt::test]
async fn analyze_names_the_opponents_threat() {
    let s = start().await;
    // Red to move; were it Black's move, 车9进5 (i5i0) would mate: the
    // chariot on rank 1 takes the general's steps up.
    let fen = "3k5/9/9/9/R7r/9/9/9/7r1/4K4 w - - 0 1";
    let (st, _, body) = s
        .post(ANALYZE, json!({"fen": fen, "depth": 4, "threat": true}))
        .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(
        body["threat"],
        json!({"move": "i5i0", "score": {"mate": 1}}),
        "{body}"
    );
    // Not asked: no threat; in check: none to name.
    let (_, _, plain) = s.post(ANALYZE, json!({"fen": fen, "depth": 2})).await;
    assert!(plain.get("threat").is_none(), "{plain}");
    let checked = "3k5/9/9/9/5R3/9/9/9/7r1/4K3r w - - 0 1";
    let (st, _, body) = s
        .post(ANALYZE, json!({"fen": checked, "depth": 2, "threat": true}))
        .await;
    assert_eq!(st, 200, "{body}");
    assert!(body.get("threat").is_none(), "{body}");
}

/// `evaluation`: Xiangqi searches with its shipped network unless asked
/// for the hand-written evaluation (or playing a level, calibrated with
/// it); the other variants have no network, and asking one for it is
/// refused naming the field.
#[actix_rt::test]
async fn analyze_evaluates_with_the_network_or_by_hand() {
    let s = start().await;
    let ask = |extra: Value| {
        let mut body = json!({"moves": ["h2e2", "h9g7"], "depth": 6});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let (st, _, nnue) = s.post(ANALYZE, ask(json!({}))).await;
    assert_eq!(st, 200, "{nnue}");
    assert_eq!(nnue["limits"]["evaluation"], "nnue", "{nnue}");
    let (st, _, asked) = s.post(ANALYZE, ask(json!({"evaluation": "nnue"}))).await;
    assert_eq!(st, 200, "{asked}");
    assert_eq!(asked["lines"], nnue["lines"], "nnue is the default");
    let (st, _, hce) = s.post(ANALYZE, ask(json!({"evaluation": "hce"}))).await;
    assert_eq!(st, 200, "{hce}");
    assert_eq!(hce["limits"]["evaluation"], "hce", "{hce}");
    assert_ne!(
        (&hce["lines"], &hce["nodes"]),
        (&nnue["lines"], &nnue["nodes"]),
        "the two evaluations searched alike"
    );
    // A level plays with the evaluation it was calibrated with.
    let (st, _, level) = s.post(ANALYZE, ask(json!({"level": 9, "seed": 1}))).await;
    assert_eq!(st, 200, "{level}");
    assert_eq!(level["limits"]["evaluation"], "hce", "{level}");
    let r = s
        .post(ANALYZE, ask(json!({"level": 9, "evaluation": "nnue"})))
        .await;
    assert_problem(&r, 422, "invalid_limits");
    assert_eq!(r.2["field"], "evaluation", "{}", r.2);
    assert!(
        r.2["detail"].as_str().unwrap().contains("calibrated"),
        "{}",
        r.2
    );
    // Level 20 is the full strength, with the network.
    let (_, _, full) = s.post(ANALYZE, ask(json!({"level": 20}))).await;
    assert_eq!(full["limits"]["evaluation"], "nnue", "{full}");
    for (variant, moves) in [("taxi", json!(["e2e4"])), ("tamerlane", json!([]))] {
        let path = format!("/v1/variants/{variant}/analyze");
        let (st, _, body) = s.post(&path, json!({"moves": moves, "depth": 2})).await;
        assert_eq!(st, 200, "{body}");
        assert_eq!(body["limits"]["evaluation"], "hce", "{body}");
        let r = s
            .post(
                &path,
                json!({"moves": moves, "depth": 2, "evaluation": "nnue"}),
            )
            .await;
        assert_problem(&r, 422, "invalid_limits");
        assert_eq!(r.2["field"], "evaluation", "{}", r.2);
        assert_eq!(
            r.2["detail"],
            format!("evaluation: {variant} has no network; use hce or leave it out"),
        );
    }
    let r = s.post(ANALYZE, ask(json!({"evaluation": "best"}))).await;
    assert_problem(&r, 422, "invalid_request");
    assert_eq!(r.2["field"], "evaluation", "{}", r.2);
}

/// `level`: fewer nodes and a choice among the nearly best, reproducible
/// by its seed, never a move that loses by the rules, always a mate it
/// sees; a level outside 1-20 is refused naming the field.
#[actix_rt::test]
async fn analyze_plays_at_a_level() {
    let s = start().await;
    let ask = |level: u32, seed: u64| json!({"moves": ["h2e2"], "level": level, "seed": seed});
    let (st, _, first) = s.post(ANALYZE, ask(1, 42)).await;
    assert_eq!(st, 200, "{first}");
    assert_eq!(first["limits"]["level"], 1, "{first}");
    assert_eq!(first["limits"]["seed"], 42, "{first}");
    assert_eq!(first["limits"]["nodes"], 1, "{first}");
    assert_eq!(first["depth"], 1, "{first}");
    // Level 1 weighs every move, and plays one of them.
    let (_, _, listed) = s.post(LM, json!({"moves": ["h2e2"]})).await;
    let lines = first["lines"].as_array().unwrap();
    assert_eq!(lines.len(), listed["legal_moves"].as_array().unwrap().len());
    assert!(lines.iter().any(|l| l["move"] == first["best_move"]));
    let (_, _, again) = s.post(ANALYZE, ask(1, 42)).await;
    assert_eq!(again["best_move"], first["best_move"], "the same seed");
    // Different seeds choose different moves.
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let (st, _, body) = s.post(ANALYZE, ask(1, seed)).await;
        assert_eq!(st, 200, "{body}");
        chosen.insert(body["best_move"].as_str().unwrap().to_owned());
    }
    assert!(chosen.len() > 2, "{chosen:?}");
    // Without a seed the answer gives the one it drew.
    let (_, _, body) = s
        .post(ANALYZE, json!({"moves": ["h2e2"], "level": 12}))
        .await;
    assert!(body["limits"]["seed"].is_u64(), "{body}");
    assert!(body["limits"]["nodes"].as_u64().unwrap() > 1, "{body}");
    assert!(body["lines"].as_array().unwrap().len() >= 4, "{body}");
    // The request's own limit applies when it is the lower.
    let (_, _, body) = s
        .post(
            ANALYZE,
            json!({"moves": ["h2e2"], "level": 12, "nodes": 500}),
        )
        .await;
    assert_eq!(body["limits"]["nodes"], 500, "{body}");
    // Level 20 is the full strength: no level, no seed, one line.
    let (_, _, full) = s
        .post(
            ANALYZE,
            json!({"moves": ["h2e2"], "level": 20, "seed": 1, "depth": 3}),
        )
        .await;
    assert!(full["limits"].get("level").is_none(), "{full}");
    assert!(full["limits"].get("seed").is_none(), "{full}");
    assert_eq!(full["lines"].as_array().unwrap().len(), 1, "{full}");
    // Each variant has its own ladder: level 9 searches 840 nodes and
    // four lines in Xiangqi, 280 nodes and two lines in Taxi chess.
    let (_, _, xq) = s
        .post(ANALYZE, json!({"moves": ["h2e2"], "level": 9, "seed": 1}))
        .await;
    assert_eq!(xq["limits"]["nodes"], 840, "{xq}");
    assert_eq!(xq["lines"].as_array().unwrap().len(), 4, "{xq}");
    let (st, _, taxi) = s
        .post(
            "/v1/variants/taxi/analyze",
            json!({"moves": ["e2e4"], "level": 9, "seed": 1}),
        )
        .await;
    assert_eq!(st, 200, "{taxi}");
    assert_eq!(taxi["limits"]["nodes"], 280, "{taxi}");
    assert_eq!(taxi["lines"].as_array().unwrap().len(), 2, "{taxi}");
    // Tamerlane chess: level 9 is still one ply, level 12 880 nodes and
    // four lines.
    for (level, nodes, lines) in [(9, 1, None), (12, 880, Some(4))] {
        let (st, _, tam) = s
            .post(
                "/v1/variants/tamerlane/analyze",
                json!({"level": level, "seed": 1}),
            )
            .await;
        assert_eq!(st, 200, "{tam}");
        assert_eq!(tam["limits"]["nodes"], nodes, "{tam}");
        if let Some(lines) = lines {
            assert_eq!(tam["lines"].as_array().unwrap().len(), lines, "{tam}");
        }
    }
    // Never the move that completes Red's perpetual check (the README's
    // example), at the weakest level, whatever the seed.
    let moves = json!(["a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"]);
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    for seed in 0..20 {
        let (st, _, body) = s
            .post(
                ANALYZE,
                json!({"fen": fen, "moves": moves, "level": 1, "seed": seed}),
            )
            .await;
        assert_eq!(st, 200, "{body}");
        assert_ne!(body["best_move"], "a9a8", "{body}");
    }
    // A mate in one is played at every level (b0b9 and a8f8 both mate).
    let fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
    for level in [1, 5, 9, 15] {
        let (_, _, body) = s
            .post(ANALYZE, json!({"fen": fen, "level": level, "seed": level}))
            .await;
        let line = body["lines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["move"] == body["best_move"])
            .unwrap();
        assert_eq!(line["score"], json!({"mate": 1}), "level {level}: {body}");
    }
    // Out of range, or not a number: 422 naming the field.
    for level in [json!(0), json!(21)] {
        let r = s
            .post(ANALYZE, json!({"moves": ["h2e2"], "level": level}))
            .await;
        assert_problem(&r, 422, "invalid_limits");
        assert_eq!(r.2["field"], "level", "{}", r.2);
        assert!(
            r.2["detail"].as_str().unwrap().contains("use 1 to 20"),
            "{}",
            r.2
        );
    }
    let (st, _, body) = s
        .post(ANALYZE, json!({"moves": ["h2e2"], "level": "strong"}))
        .await;
    assert!(st.is_client_error(), "{body}");
    assert_eq!(body["field"], "level", "{body}");
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("1 (weakest) to 20"),
        "{body}"
    );
}
