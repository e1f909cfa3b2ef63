//! What every route that reads a body refuses, and how: bad FENs, rules and notations, malformed bodies, fields of the wrong type; and no input at all causing a server error.

use super::*;

#[actix_rt::test]
async fn bad_fen_rules_and_notation() {
    let s = start().await;
    let resp = s
        .post(
            LM,
            json!({"fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"}),
        )
        .await;
    assert_problem(&resp, 422, "invalid_fen");
    assert_eq!(resp.2["field"], "fen");
    assert!(resp.2["detail"]
        .as_str()
        .unwrap()
        .contains("'X' is not a Xiangqi piece letter"));
    let resp = s.post(LM, json!({"rules": {"move_limit": 50}})).await;
    assert_problem(&resp, 422, "invalid_rules");
    assert!(resp.2["detail"]
        .as_str()
        .unwrap()
        .contains("move_limit_plies"));
    let resp = s.post(LM, json!({"rules": {"move_limit_plies": -1}})).await;
    assert_problem(&resp, 422, "invalid_rules");
    let resp = s.post(LM, json!({"notation": "san"})).await;
    assert_problem(&resp, 422, "invalid_notation");
    assert_eq!(resp.2["field"], "notation");
    let many: Vec<&str> = std::iter::repeat_n("h2e2", 10_001).collect();
    assert_problem(
        &s.post(LM, json!({"moves": many})).await,
        422,
        "too_many_moves",
    );
}

#[actix_rt::test]
async fn malformed_bodies() {
    let s = start().await;
    assert_problem(
        &s.post_raw(LM, "application/json", b"{\"fen\": ".to_vec())
            .await,
        400,
        "malformed_json",
    );
    assert_problem(
        &s.post_raw(LM, "application/json", b"not json".to_vec())
            .await,
        400,
        "malformed_json",
    );
    let resp = s.post(LM, json!({"fenn": "x"})).await;
    assert_problem(&resp, 422, "invalid_request");
    assert_eq!(resp.2["field"], "fenn");
    assert_eq!(
        resp.2["detail"],
        "unknown field 'fenn'; this request takes: balances, fen, moves, notation, pgn, rules"
    );
    let resp = s.post(VALIDATE, json!({})).await;
    assert_problem(&resp, 422, "invalid_request");
    assert_eq!(resp.2["field"], "move");
    assert_problem(
        &s.post_raw(LM, "text/plain", b"{}".to_vec()).await,
        415,
        "unsupported_media_type",
    );
    let big = format!("{{\"fen\": \"{}\"}}", "x".repeat(1 << 20));
    assert_problem(
        &s.post_raw(LM, "application/json", big.into_bytes()).await,
        413,
        "payload_too_large",
    );
    assert_problem(&s.get("/v1/nothing").await, 404, "not_found");
    assert_problem(&s.get(LM).await, 405, "method_not_allowed");
}

/// What a new user ran into: each example gets its new answer.
#[actix_rt::test]
async fn wrong_types_name_the_field_in_json_terms() {
    let s = start().await;
    let an = "/v1/variants/xiangqi/analyze";
    // (path, body, status, code, field, detail)
    let cases = [
        (LM, json!({"moves": 5}), 422, "invalid_request", "moves",
         "'moves' must be an array of move strings, or one string of moves separated by spaces; got 5"),
        (LM, json!({"moves": ["h2e2", 7]}), 422, "invalid_request", "moves[1]",
         "'moves[1]' must be a move string; got 7"),
        (LM, json!({"fen": false}), 422, "invalid_request", "fen", "'fen' must be a FEN string; got false"),
        (an, json!({"nodes": 99999999999999999999.0_f64}), 422, "invalid_limits", "nodes",
         "nodes: 100000000000000000000 is out of range; use 1 to 100000000"),
        (an, json!({"nodes": -5}), 422, "invalid_limits", "nodes",
         "nodes: -5 is out of range; use 1 to 100000000"),
        (an, json!({"depth": "deep"}), 422, "invalid_limits", "depth",
         "'depth' must be a whole number of plies, 1 or more; got the string \"deep\""),
        (an, json!({"multipv": 9}), 422, "invalid_limits", "multipv",
         "multipv: 9 is out of range; use 1 to 5"),
        (LM, json!({"notation": "pgn"}), 422, "invalid_notation", "notation",
         "'notation' must be one of the notation names: iccs, ucci, fairy, uci, wxf, chinese, san, coordinate; got the string \"pgn\""),
        (LM, json!({"balances": {"white": -1, "black": 2}}), 422, "invalid_balances", "balances.white",
         "'balances.white' must be a whole number of units, 0 or more; got -1"),
        (LM, json!({"rules": {"move_limit_plies": "x"}}), 422, "invalid_rules", "rules.move_limit_plies",
         "'rules.move_limit_plies' must be a whole number from 0 to 4294967295; got the string \"x\""),
        (LM, json!({"rules": {"repetition": "japanese"}}), 422, "invalid_rules", "rules.repetition",
         "'rules.repetition' must be one of 'asian', 'chinese', 'none'; got the string \"japanese\""),
        (LM, json!({"rules": {"setup": "feminine"}}), 422, "invalid_rules", "rules.setup",
         "unknown field 'rules.setup'; xiangqi's rules takes: move_limit_plies, no_repetition_draw_before_move, repetition, repetition_ends_game, tablebase_adjudication"),
        (LM, json!({"rules": [1]}), 422, "invalid_rules", "rules",
         "'rules' must be an object of rule options; got an array of 1 elements"),
        ("/v1/variants/taxi/legal-moves", json!({"rules": {"income": 2000000}}), 422, "invalid_rules", "rules.income",
         "rules.income: 2000000 is more than the largest income, 1000000"),
        (VALIDATE, json!({"moves": []}), 422, "invalid_request", "move", "'move' is required: a move string"),
    ];
    for (path, body, status, code, field, detail) in cases {
        let resp = s.post(path, body.clone()).await;
        assert_problem(&resp, status, code);
        assert_eq!(resp.2["field"], field, "{body}");
        assert_eq!(resp.2["detail"], detail, "{body}");
    }
    // A body that is not an object is refused, arrays included (serde would
    // read a struct from an array).
    for raw in [
        &b"[null, [\"h2e2\"], null, null, null]"[..],
        b"\"h2e2\"",
        b"42",
        b"null",
    ] {
        let resp = s.post_raw(LM, "application/json", raw.to_vec()).await;
        assert_problem(&resp, 422, "invalid_request");
        assert!(resp.2["detail"]
            .as_str()
            .unwrap()
            .starts_with("the body must be a JSON object"));
    }
    // No parser wording reaches a client.
    let bodies = [
        json!({"moves": {"a": 1}}),
        json!({"move": 1}),
        json!({"nodes": 1.5}),
        json!({"flip": "yes"}),
        json!({"balances": [1, 2]}),
        json!({"balances": {"white": 1}}),
        json!({"balances": {"white": 1, "black": 2, "red": 3}}),
        json!({"rules": {"move_limit_plies": 1e30}}),
    ];
    for body in bodies {
        for path in [LM, VALIDATE, an, "/v1/variants/xiangqi/diagram"] {
            let (st, _, answer) = s.post(path, body.clone()).await;
            assert!(st.is_client_error(), "{path} {body}: {st}");
            let detail = answer["detail"].as_str().unwrap();
            for serde_word in [
                "invalid type",
                "invalid value",
                "missing field",
                "unknown variant",
                "`",
                "u32",
                "u64",
                "usize",
                "floating point",
                "sequence",
                " map",
                "line 1 column",
            ] {
                assert!(!detail.contains(serde_word), "{path} {body}: {detail}");
            }
            assert!(answer["field"].is_string(), "{path} {body}: {answer}");
        }
    }
    let resp = s
        .post_raw(LM, "application/json", b"{\"moves\": [\"h2e2\",]}".to_vec())
        .await;
    assert_problem(&resp, 400, "malformed_json");
    assert_eq!(
        resp.2["detail"],
        "the body is not valid JSON: something is wrong at line 1, column 19"
    );
}

/// A spread of hostile inputs: never a 5xx.
#[actix_rt::test]
async fn no_input_causes_a_server_error() {
    let s = start().await;
    let fens = [
        "",
        " ",
        "w",
        "/////////",
        "9/9/9/9/9/9/9/9/9/9 w",
        "k8/9/9/9/9/9/9/9/9/8K w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 65536 1",
        "🀄",
        "99999999999/9/9/9/9/9/9/9/9/9 w",
    ];
    let moves = [
        "", "a", "a0a0", "a0a10", "i9i9", "j0j1", "炮", "C2.5", "++.5", "\u{0}", "a-1a2",
    ];
    for fen in fens {
        for path in [LM, VALIDATE, ADJ] {
            for mv in moves {
                let (st, _, body) = s
                    .post(path, json!({"fen": fen, "moves": [mv], "move": mv}))
                    .await;
                assert!(
                    st.is_client_error() || st.is_success(),
                    "{path} {fen:?} {mv:?}: {st} {body}"
                );
                let (st, _, _) = s
                    .post(path, json!({"moves": [mv], "move": mv, "notation": "wxf"}))
                    .await;
                assert!(!st.is_server_error());
            }
        }
    }
}

/// Hostile input for every variant: garbage FENs, moves and rule options,
/// multi-byte characters and huge numbers. Never a 5xx.
#[actix_rt::test]
async fn no_input_causes_a_server_error_in_any_variant() {
    let s = start().await;
    let fens = [
        "",
        "é",
        "🀄 w",
        "0/0/0/0/0/0/0/0/0/0 w -/- - 0/0 0 1",
        "111/10k/11/11/11/11/11/11/11/10K w -/- - 0/0 0 1",
        "11/10k/11/11/11/11/11/11/11/10K w -/- Kk 9/9 99999999999999999999 1",
        "8/8/8/8/8/8/8/8 w - - 0 1 99999999999/1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "k7/8/8/8/8/8/8/7K w - - 0 1 -1/-1",
        "P/P/P/P/P/P/P/P/P/P w -/- - 0/0 0 1",
    ];
    let moves = [
        "", "é1a2", "a1é2", "a10@", "@", "~", "f2~", "a8z9~", "z9z9", "l2", "a11a12", "e7e8x",
        "e2e4", "🀄", "a1a1a1", "k10@k10",
    ];
    for variant in ["xiangqi", "taxi", "tamerlane"] {
        for path in ["legal-moves", "validate", "adjudicate"] {
            let url = format!("/v1/variants/{variant}/{path}");
            for fen in fens {
                for mv in moves {
                    let body = json!({"fen": fen, "moves": [mv], "move": mv});
                    let (st, _, resp) = s.post(&url, body).await;
                    assert!(!st.is_server_error(), "{url} {fen:?} {mv:?}: {st} {resp}");
                }
            }
            for mv in moves {
                let (st, _, resp) = s.post(&url, json!({"moves": [mv], "move": mv})).await;
                assert!(!st.is_server_error(), "{url} {mv:?}: {st} {resp}");
            }
            if path == "adjudicate" {
                // The same inputs to the engine, with a small search.
                let url = format!("/v1/variants/{variant}/analyze");
                for fen in fens {
                    for mv in moves {
                        let body = json!({"fen": fen, "moves": [mv], "depth": 2});
                        let (st, _, resp) = s.post(&url, body).await;
                        assert!(!st.is_server_error(), "{url} {fen:?} {mv:?}: {st} {resp}");
                    }
                }
            }
            for rules in [
                json!({"setup": 5}),
                json!({"income": -1}),
                json!({"start_money": 4294967295u64}),
                json!([1]),
                json!("x"),
            ] {
                let (st, _, resp) = s.post(&url, json!({"rules": rules, "move": "a1a2"})).await;
                assert!(!st.is_server_error(), "{url} {rules}: {st} {resp}");
            }
        }
    }
}
