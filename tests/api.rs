//! API tests through the real server: every route, every kind of error, the
//! OpenAPI document and its examples, all over HTTP on an ephemeral port.

mod common;

use arbiter::api::server::ServeArgs;
use common::http::{assert_problem, start, start_with, Server};
use reqwest::StatusCode;
use serde_json::{json, Value};

const LM: &str = "/v1/variants/xiangqi/legal-moves";
const VALIDATE: &str = "/v1/variants/xiangqi/validate";
const ADJ: &str = "/v1/variants/xiangqi/adjudicate";

#[actix_rt::test]
async fn probes() {
    let s = start().await;
    let (st, _, body) = s.get("/healthz").await;
    assert_eq!((st, body), (StatusCode::OK, json!({"status": "ok"})));
    let (st, _, body) = s.get("/readyz").await;
    assert_eq!((st, body), (StatusCode::OK, json!({"status": "ready"})));
}

#[actix_rt::test]
async fn variants() {
    let s = start().await;
    let (st, _, body) = s.get("/v1/variants").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(body["variants"][0]["id"], "xiangqi");
    let (st, _, body) = s.get("/v1/variants/xiangqi").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(body["files"], 9);
    assert_eq!(body["ranks"], 10);
    assert_eq!(body["sides"], json!(["red", "black"]));
    assert_eq!(
        body["start_fen"],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    assert_eq!(body["rule_options"][0]["name"], "move_limit_plies");
    assert_eq!(body["rule_options"][0]["default"], 100);
    // Tamerlane chess ends by default; the options say so.
    let (_, _, tamerlane) = s.get("/v1/variants/tamerlane").await;
    let option = |name: &str| {
        tamerlane["rule_options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .cloned()
            .unwrap()
    };
    // The same JSON type as Xiangqi's `repetition`.
    assert_eq!(option("repetition")["default"], "threefold");
    assert_eq!(option("repetition")["type"], "string");
    assert_eq!(option("repetition")["values"], json!(["threefold", "none"]));
    assert_eq!(option("repetition_ends_game")["default"], true);
    assert_eq!(option("move_limit_plies")["default"], 100);
    assert_eq!(
        option("setup")["values"],
        json!(["standard", "feminine", "third"])
    );
    assert_eq!(body["notations"][0]["name"], "iccs");
    let resp = s.get("/v1/variants/chess").await;
    assert_problem(&resp, 404, "unknown_variant");
    assert!(resp.2["detail"]
        .as_str()
        .unwrap()
        .contains("known variants: xiangqi"));
    assert_problem(
        &s.post("/v1/variants/shogi/legal-moves", json!({})).await,
        404,
        "unknown_variant",
    );
}

#[actix_rt::test]
async fn legal_moves_of_the_start_and_after_moves() {
    let s = start().await;
    let (st, _, body) = s.post(LM, json!({})).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(body["side_to_move"], "red");
    assert_eq!(body["in_check"], false);
    assert_eq!(body["status"], "ongoing");
    assert_eq!(body["result"], "*");
    assert_eq!(body["plies"], 0);
    let moves = body["legal_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 44);
    let central = moves.iter().find(|m| m["move"] == "h2e2").unwrap();
    assert_eq!(central["wxf"], "C2.5");
    assert_eq!(central["chinese"], "炮二平五");
    assert_eq!(central["fairy"], "h3e3");
    assert_eq!(central["capture"], false);

    let (st, _, body) = s.post(LM, json!({"moves": ["h2e2", "h9g7"]})).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        body["fen"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!(body["plies"], 2);
    // Fairy-Stockfish's ranks 1-10, answered in the same notation.
    let (st, _, body) = s
        .post(LM, json!({"moves": ["h3e3", "h10g8"], "notation": "fairy"}))
        .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        body["fen"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert!(body["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["move"] == "b1c3"));
    // WXF and Chinese records.
    let (st, _, body) = s
        .post(LM, json!({"moves": ["C2.5", "H8+7"], "notation": "wxf"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["plies"], 2);
    let (st, _, body) = s
        .post(
            LM,
            json!({"moves": ["炮二平五", "马８进７"], "notation": "chinese"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["plies"], 2);
}

#[actix_rt::test]
async fn a_check_is_reported() {
    let s = start().await;
    let (_, _, body) = s
        .post(LM, json!({"fen": "3k5/9/9/9/9/9/9/3n5/9/4K4 w - - 0 1"}))
        .await;
    assert_eq!(body["in_check"], true);
    let mut moves: Vec<&str> = body["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    moves.sort();
    // e0 is attacked by the horse on d2 (leg d1 free); d0 is safe because the
    // horse also screens the d-file from the black general.
    assert_eq!(moves, vec!["e0d0", "e0e1", "e0f0"]);
}

#[actix_rt::test]
async fn an_illegal_move_in_the_record_is_named() {
    let s = start().await;
    let resp = s
        .post(LM, json!({"moves": ["h2e2", "h9g7", "b0c2", "g7e5"]}))
        .await;
    assert_problem(&resp, 422, "illegal_move");
    let body = &resp.2;
    assert_eq!(body["move_index"], 3);
    assert_eq!(body["move"], "g7e5");
    assert_eq!(body["field"], "moves[3]");
    assert_eq!(body["reason_code"], "bad_geometry");
    assert!(body["detail"]
        .as_str()
        .unwrap()
        .starts_with("move 3 ('g7e5'): a horse moves"));
    let resp = s.post(LM, json!({"moves": ["h2e2", "zz"]})).await;
    assert_problem(&resp, 422, "invalid_move");
    assert_eq!(resp.2["move_index"], 1);
    // A move after the game has ended: legal-moves refuses the record
    // (adjudicate accepts records that run past the end, see below).
    let resp = s
        .post(
            LM,
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9", "d9e9"]}),
        )
        .await;
    assert_problem(&resp, 422, "game_over");
    assert_eq!(resp.2["move_index"], 1);
    assert_eq!(resp.2["game_reason"], "checkmate");
    assert_eq!(resp.2["winner"], "red");
}

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
        (LM, json!({"rules": {"repetition": "chinese"}}), 422, "invalid_rules", "rules.repetition",
         "'rules.repetition' must be one of 'asian', 'none'; got the string \"chinese\""),
        (LM, json!({"rules": {"setup": "feminine"}}), 422, "invalid_rules", "rules.setup",
         "unknown field 'rules.setup'; xiangqi's rules takes: move_limit_plies, no_repetition_draw_before_move, repetition, repetition_ends_game"),
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

/// `moves` may also be one string of space-separated moves (Lichess).
#[actix_rt::test]
async fn moves_as_one_string() {
    let s = start().await;
    let (st, _, one) = s.post(LM, json!({"moves": "h2e2 h9g7"})).await;
    assert_eq!(st, StatusCode::OK, "{one}");
    let (_, _, list) = s.post(LM, json!({"moves": ["h2e2", "h9g7"]})).await;
    assert_eq!(one, list);
    let (st, _, body) = s
        .post(VALIDATE, json!({"moves": "  h2e2   h9g7 ", "move": "h0g2"}))
        .await;
    assert_eq!((st, &body["legal"]), (StatusCode::OK, &json!(true)));
    let (st, _, body) = s.post(LM, json!({"moves": ""})).await;
    assert_eq!((st, &body["plies"]), (StatusCode::OK, &json!(0)));
    let (st, _, body) = s
        .post(
            "/v1/variants/taxi/adjudicate",
            json!({"moves": "Nf3 Nf6", "notation": "san"}),
        )
        .await;
    assert_eq!((st, &body["plies"]), (StatusCode::OK, &json!(2)), "{body}");
}

/// A move that is illegal or unreadable as sent, but a legal move in another
/// notation of the variant, says which notation to send.
#[actix_rt::test]
async fn a_move_in_another_notation_says_which() {
    let s = start().await;
    // (path, body, problem code, reason_code, hint, detail)
    let cases = [
        (LM, json!({"moves": ["h3e3"]}), "illegal_move", "no_piece", "fairy",
         "move 0 ('h3e3'): there is no piece on h3; 'h3e3' reads as Fairy-Stockfish coordinates (ranks 1-10): send \"notation\": \"fairy\""),
        (LM, json!({"moves": ["h2e2", "h10g8"]}), "invalid_move", "bad_notation", "fairy",
         "move 1 ('h10g8'): 'h10g8' is not a coordinate move like 'h2e2' (files a-i, ranks 0-9); 'h10g8' reads as Fairy-Stockfish coordinates (ranks 1-10): send \"notation\": \"fairy\""),
        (LM, json!({"moves": ["C2.5"]}), "invalid_move", "bad_notation", "wxf",
         "move 0 ('C2.5'): 'C2.5' is not a coordinate move like 'h2e2' (files a-i, ranks 0-9); 'C2.5' reads as WXF notation: send \"notation\": \"wxf\""),
        (LM, json!({"moves": ["炮二平五"]}), "invalid_move", "bad_notation", "chinese",
         "move 0 ('炮二平五'): '炮二平五' is not a coordinate move like 'h2e2' (files a-i, ranks 0-9); '炮二平五' reads as Chinese notation: send \"notation\": \"chinese\""),
        (LM, json!({"moves": ["b0c2"], "notation": "fairy"}), "invalid_move", "bad_notation", "iccs",
         "move 0 ('b0c2'): 'b0c2' is not a coordinate move like 'h3e3' (files a-i, ranks 1-10); 'b0c2' reads as ICCS coordinates (ranks 0-9): send \"notation\": \"iccs\""),
        ("/v1/variants/taxi/legal-moves", json!({"moves": ["e4"]}), "invalid_move", "bad_notation", "san",
         "move 0 ('e4'): 'e4' is not a UCI move like 'e2e4' or 'e7e8q'; 'e4' reads as standard algebraic notation: send \"notation\": \"san\""),
        ("/v1/variants/taxi/legal-moves", json!({"moves": ["e2e4"], "notation": "san"}), "illegal_move", "no_such_move", "uci",
         "move 0 ('e2e4'): no legal move of White is written 'e2e4' in SAN; 'e2e4' reads as UCI coordinates: send \"notation\": \"uci\""),
    ];
    for (path, body, code, reason, hint, detail) in cases {
        let resp = s.post(path, body.clone()).await;
        assert_problem(&resp, 422, code);
        assert_eq!(resp.2["reason_code"], reason, "{body}");
        assert_eq!(resp.2["notation_hint"], hint, "{body}");
        assert_eq!(resp.2["detail"], detail, "{body}");
    }
    // A move that is illegal in every notation gets no hint.
    let resp = s.post(LM, json!({"moves": ["a0a5"]})).await;
    assert_problem(&resp, 422, "illegal_move");
    assert!(resp.2.get("notation_hint").is_none());
    // validate says the same in its answer.
    let (st, _, body) = s.post(VALIDATE, json!({"move": "h3e3"})).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        (&body["legal"], &body["reason_code"], &body["notation_hint"]),
        (&json!(false), &json!("no_piece"), &json!("fairy"))
    );
    let resp = s.post(VALIDATE, json!({"move": "C2.5"})).await;
    assert_problem(&resp, 422, "invalid_move");
    assert_eq!(resp.2["notation_hint"], "wxf");
}

/// `uci` in Xiangqi is Fairy-Stockfish's UCI (ranks 1-10), as pyffish users
/// send it; `ucci` is ICCS. Both are listed as aliases.
#[actix_rt::test]
async fn notation_aliases_are_documented_and_work() {
    let s = start().await;
    let (_, _, fairy) = s
        .post(LM, json!({"moves": ["h3e3", "h10g8"], "notation": "fairy"}))
        .await;
    let (st, _, uci) = s
        .post(LM, json!({"moves": ["h3e3", "h10g8"], "notation": "uci"}))
        .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(fairy, uci);
    let (st, _, ucci) = s
        .post(LM, json!({"moves": ["h2e2", "h9g7"], "notation": "ucci"}))
        .await;
    assert_eq!((st, &ucci["fen"]), (StatusCode::OK, &fairy["fen"]));
    let (_, _, v) = s.get("/v1/variants/xiangqi").await;
    assert_eq!(
        v["notations"],
        json!([
            {"name": "iccs", "aliases": ["ucci"], "description": "ICCS/UCCI coordinates, files a-i from Red's left, ranks 0-9 from Red's side (default)", "example": "h2e2"},
            {"name": "fairy", "aliases": ["uci"], "description": "Fairy-Stockfish's UCI coordinates, ranks 1-10 (what pyffish and pychess send)", "example": "h3e3"},
            {"name": "wxf", "aliases": [], "description": "WXF/AXF notation", "example": "C2.5"},
            {"name": "chinese", "aliases": [], "description": "Chinese notation, simplified or traditional characters", "example": "炮二平五"}
        ])
    );
    let resp = s.post(LM, json!({"notation": "san"})).await;
    assert_eq!(
        resp.2["detail"],
        "notation: 'san' is not a notation of xiangqi; use one of: iccs (or ucci), fairy (or uci), wxf, chinese"
    );
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
async fn validate_explains() {
    let s = start().await;
    let (st, _, body) = s
        .post(VALIDATE, json!({"moves": ["h2e2"], "move": "h9g7"}))
        .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(body["legal"], true);
    assert_eq!(body["details"]["wxf"], "H8+7");
    assert_eq!(body["position_after"]["side_to_move"], "red");
    assert_eq!(body["position_after"]["plies"], 2);

    let cases = [
        (
            json!({"fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1R7/1NBAKABNR w - - 0 1", "move": "b0c2"}),
            "blocked",
            "the horse's leg at b1 is blocked",
        ),
        (
            json!({"fen": "4k4/9/9/9/9/9/p8/9/4A4/4K4 w - - 0 1", "move": "e1d2"}),
            "flying_general",
            "the generals would face each other on the e-file",
        ),
        (
            json!({"fen": "4r4/3k5/9/9/9/9/4R4/9/9/4K4 w - - 0 1", "move": "e3d3"}),
            "self_check",
            "it leaves the general in check by the Black chariot on e9",
        ),
        (
            json!({"move": "e3d3"}),
            "not_crossed",
            "a soldier may move sideways only after crossing the river",
        ),
        (
            json!({"move": "h7e7"}),
            "not_your_piece",
            "the piece on h7 is Black's, and it is Red to move",
        ),
        (
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"], "move": "d9d8"}),
            "game_over",
            "the game is over (1-0): Black is checkmated: Red wins",
        ),
    ];
    for (req, code, reason) in cases {
        let (st, _, body) = s.post(VALIDATE, req.clone()).await;
        assert_eq!(st, StatusCode::OK, "{req}");
        assert_eq!(body["legal"], false, "{req}");
        assert_eq!(body["reason_code"], code, "{req}");
        assert_eq!(body["reason"], reason, "{req}");
        assert!(body.get("position_after").is_none());
    }
    let resp = s.post(VALIDATE, json!({"move": "e3"})).await;
    assert_problem(&resp, 422, "invalid_move");
    assert_eq!(resp.2["field"], "move");
}

#[actix_rt::test]
async fn adjudicate_results() {
    let s = start().await;
    let cases = [
        (
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]}),
            "decisive",
            "1-0",
            "checkmate",
            json!("red"),
        ),
        (
            json!({"fen": "3k5/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1", "moves": ["e7e8"]}),
            "decisive",
            "1-0",
            "stalemate",
            json!("red"),
        ),
        (
            json!({"fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 99 60", "moves": ["a1a2"]}),
            "drawn",
            "1/2-1/2",
            "move_limit",
            Value::Null,
        ),
        (
            json!({"fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 40 60", "moves": ["a1a2"], "rules": {"move_limit_plies": 41}}),
            "drawn",
            "1/2-1/2",
            "move_limit",
            Value::Null,
        ),
        (
            json!({"fen": "3k5/4a4/9/9/9/9/9/9/4A4/2B1K4 w - - 0 1", "moves": []}),
            "drawn",
            "1/2-1/2",
            "insufficient_material",
            Value::Null,
        ),
        // Capturing the last chariot leaves nothing that can mate.
        (
            json!({"fen": "3k5/9/9/9/9/9/9/3r5/4A4/2B1K4 w - - 0 1", "moves": ["e1d2"]}),
            "drawn",
            "1/2-1/2",
            "insufficient_material",
            Value::Null,
        ),
        // Taking the advisor on e8 leaves Black without a move, and stalemate wins.
        (
            json!({"fen": "3k5/4a4/9/9/9/9/9/4R4/4A4/2B1K4 w - - 0 1", "moves": ["e2e8"]}),
            "decisive",
            "1-0",
            "stalemate",
            json!("red"),
        ),
    ];
    for (req, status, result, reason, winner) in cases {
        let (st, _, body) = s.post(ADJ, req.clone()).await;
        assert_eq!(st, StatusCode::OK, "{req}: {body}");
        assert_eq!(body["status"], status, "{req}");
        assert_eq!(body["result"], result, "{req}");
        assert_eq!(body["reason"], reason, "{req}");
        assert_eq!(body["winner"], winner, "{req}");
        assert!(body["explanation"].as_str().unwrap().len() > 10);
    }
    let (_, _, body) = s.post(ADJ, json!({"moves": ["h2e2"]})).await;
    assert_eq!(
        (
            body["status"].as_str(),
            body["result"].as_str(),
            &body["reason"]
        ),
        (Some("ongoing"), Some("*"), &Value::Null)
    );
    // A finished game lists no legal moves.
    let (_, _, body) = s
        .post(
            LM,
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]}),
        )
        .await;
    assert_eq!(body["legal_moves"], json!([]));
    assert_eq!(body["reason"], "checkmate");
}

#[actix_rt::test]
async fn swagger_ui_and_openapi() {
    let s = start().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = client
        .get(format!("{}/swagger-ui", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(r.headers()["location"], "/swagger-ui/");
    let r = client
        .get(format!("{}/swagger-ui/", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.text().await.unwrap().contains("swagger-ui"));

    let (st, _, served) = s.get("/api-docs/openapi.json").await;
    assert_eq!(st, StatusCode::OK);
    assert!(served["openapi"].as_str().unwrap().starts_with("3.1"));
    let checked_in: Value = serde_json::from_str(include_str!("../openapi/openapi.json")).unwrap();
    if let Some(at) = first_difference(&served, &checked_in, String::new()) {
        panic!("openapi/openapi.json is stale at {at}: regenerate it with `cargo run -- openapi > openapi/openapi.json`");
    }
}

/// The JSON pointer of the first place where two documents differ.
fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(u), Some(v)) => first_difference(u, v, format!("{at}/{k}")),
                _ => Some(format!("{at}/{k}")),
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (u, v))| first_difference(u, v, format!("{at}/{i}"))),
        _ => (a != b).then_some(at),
    }
}

/// Every example request of the OpenAPI document works against the server.
#[actix_rt::test]
async fn every_openapi_example_works() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let mut tried = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        let path = path.replace("{variant}", "xiangqi");
        for (method, op) in item.as_object().unwrap() {
            if method == "get" {
                let (st, _, body) = s.get(&path).await;
                assert_eq!(st, StatusCode::OK, "GET {path}: {body}");
                tried += 1;
                continue;
            }
            let examples = op["requestBody"]["content"]["application/json"]["examples"].as_object();
            let examples =
                examples.unwrap_or_else(|| panic!("{method} {path} has no request examples"));
            assert!(!examples.is_empty());
            for (name, ex) in examples {
                // Examples named "taxi: ..." or "tamerlane: ..." are for those paths.
                let path = match name.split_once(':') {
                    Some((variant @ ("taxi" | "tamerlane"), _)) => {
                        path.replace("/xiangqi/", &format!("/{variant}/"))
                    }
                    _ => path.clone(),
                };
                let (st, _, body) = s.post(&path, ex["value"].clone()).await;
                assert_eq!(st, StatusCode::OK, "example '{name}' of {path}: {body}");
                tried += 1;
            }
        }
    }
    assert!(tried >= 12, "only {tried} examples");
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

#[actix_rt::test]
async fn repetition_verdicts_and_marks() {
    let s = start().await;
    let fen = "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = [
        "a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8",
    ];
    // Before the last move: a9a8 is marked as a losing repetition.
    let (st, _, body) = s.post(LM, json!({"fen": fen, "moves": cycle})).await;
    assert_eq!(st, StatusCode::OK);
    let moves = body["legal_moves"].as_array().unwrap();
    let marked: Vec<&Value> = moves
        .iter()
        .filter(|m| m["forbidden_repetition"] == true)
        .collect();
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0]["move"], "a9a8");
    assert_eq!(
        marked[0]["repetition"],
        json!({"outcome": "loss", "reason": "perpetual_check"})
    );
    assert!(moves
        .iter()
        .filter(|m| m["move"] != "a9a8")
        .all(|m| m.get("repetition").is_none()));

    let mut all = cycle.to_vec();
    all.push("a9a8");
    let (st, _, body) = s.post(ADJ, json!({"fen": fen, "moves": all})).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(body["status"], "decisive");
    assert_eq!(body["result"], "0-1");
    assert_eq!(body["winner"], "black");
    assert_eq!(body["reason"], "perpetual_check");
    assert_eq!(
        body["repetition"],
        json!({
            "occurrences": [1, 5, 9],
            "cycle": {"from_ply": 1, "to_ply": 9},
            "in_breach": "red",
            "sides": [
                {"side": "red", "conduct": "perpetual_check", "pattern": "perpetual_check",
                 "term": "长将", "natures": ["check", "check", "check", "check"]},
                {"side": "black", "conduct": "allowed", "pattern": "allowed",
                 "term": "允许着法", "natures": ["idle", "idle", "idle", "idle"]}
            ]
        })
    );

    // A chase: the chased piece is named.
    let chase = [
        "a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2", "b7a7", "b2a2",
    ];
    let (_, _, body) = s
        .post(
            ADJ,
            json!({"fen": "4k4/9/r8/9/NN7/9/9/C8/9/3K5 b - - 0 1", "moves": chase}),
        )
        .await;
    assert_eq!(body["reason"], "perpetual_chase");
    assert_eq!(body["winner"], "black");
    assert_eq!(
        body["repetition"]["sides"][0]["chased"],
        json!([{"square": "a7", "piece": "Black chariot"}])
    );

    // With the rules switched off the same record goes on.
    let (_, _, body) = s
        .post(
            ADJ,
            json!({"fen": fen, "moves": all, "rules": {"repetition": "none"}}),
        )
        .await;
    assert_eq!(body["status"], "ongoing");
    let resp = s
        .post(ADJ, json!({"fen": fen, "rules": {"repetition": "chinese"}}))
        .await;
    assert_problem(&resp, 422, "invalid_rules");
    assert_eq!(
        resp.2["detail"],
        "'rules.repetition' must be one of 'asian', 'none'; got the string \"chinese\""
    );

    // The tournament option: no repetition draw before move 26.
    let shuffle = "i0i1 a9a8 i1i0 a8a9 i0i1 a9a8 i1i0 a8a9";
    let fen = "r2k5/9/9/9/9/9/9/9/9/3AKA2R w - - 0 1";
    let (_, _, drawn) = s.post(ADJ, json!({"fen": fen, "moves": shuffle})).await;
    assert_eq!(drawn["reason"], "repetition");
    let (_, _, early) = s
        .post(
            ADJ,
            json!({"fen": fen, "moves": shuffle, "rules": {"no_repetition_draw_before_move": 26}}),
        )
        .await;
    assert_eq!(early["reason"], "early_repetition", "{early}");
    assert_eq!(early["winner"], "black");
    assert_eq!(early["repetition"]["in_breach"], "red");
}

const TAXI_LM: &str = "/v1/variants/taxi/legal-moves";
const TAXI_VALIDATE: &str = "/v1/variants/taxi/validate";
const TAXI_ADJ: &str = "/v1/variants/taxi/adjudicate";

#[actix_rt::test]
async fn taxi_moves_carry_their_cost() {
    let s = start().await;
    let (st, _, body) = s.post(TAXI_LM, json!({})).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["variant"], "taxi");
    assert_eq!(body["side_to_move"], "white");
    assert_eq!(body["balances"], json!({"white": 16, "black": 16}));
    assert_eq!(
        body["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16/16"
    );
    let moves = body["legal_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 20);
    let e4 = moves.iter().find(|m| m["move"] == "e2e4").unwrap();
    assert_eq!(
        (e4["san"].as_str(), e4["uci"].as_str(), e4["cost"].as_u64()),
        (Some("e4"), Some("e2e4"), Some(2))
    );
    let nf3 = moves.iter().find(|m| m["move"] == "g1f3").unwrap();
    assert_eq!(nf3["cost"], 2);

    // Balances follow the moves: 16 + 2 - 2.
    let (_, _, body) = s.post(TAXI_LM, json!({"moves": ["e2e4"]})).await;
    assert_eq!(body["balances"], json!({"white": 16, "black": 16}));
    let (_, _, body) = s.post(TAXI_LM, json!({"moves": ["e2e3"]})).await;
    assert_eq!(body["balances"], json!({"white": 17, "black": 16}));
    // Rule options.
    let (_, _, body) = s
        .post(TAXI_LM, json!({"rules": {"start_money": 3, "income": 0}}))
        .await;
    assert_eq!(body["balances"], json!({"white": 3, "black": 3}));
    assert!(body["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["cost"].as_u64().unwrap() <= 3));
}

#[actix_rt::test]
async fn taxi_balances_in_json() {
    let s = start().await;
    let fen = "8/8/8/8/r7/1K1R4/8/k7 w - - 0 1";
    let (st, _, body) = s.post(TAXI_LM, json!({"fen": fen, "balances": {"white": 0, "black": 0}, "moves": ["Rd1", "Rb4+"], "notation": "san"})).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["in_check"], true);
    assert_eq!(body["balances"], json!({"white": 0, "black": 1}));
    let sans: Vec<&str> = body["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert!(sans.contains(&"Ka3+"), "{sans:?}");
    assert!(!sans.iter().any(|m| m.starts_with("Kxb4")), "{sans:?}");
    // Disagreeing with the FEN's own balances is refused.
    let resp = s
        .post(
            TAXI_LM,
            json!({"fen": format!("{fen} 0/0"), "balances": {"white": 5, "black": 0}}),
        )
        .await;
    assert_problem(&resp, 422, "invalid_balances");
    assert_eq!(resp.2["field"], "balances");
    // The position is judged with the balances it will have: with the
    // default 16 the rook on d1 could afford Rxa1, so the FEN alone is refused,
    // while with 0/1 given as JSON it is a legal position.
    let fen = "8/8/8/8/1r6/1K6/8/k2R4 w - - 0 2";
    assert_problem(
        &s.post(TAXI_LM, json!({"fen": fen})).await,
        422,
        "invalid_fen",
    );
    let (st, _, body) = s
        .post(
            TAXI_LM,
            json!({"fen": fen, "balances": {"white": 0, "black": 1}}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["fen"], "8/8/8/8/1r6/1K6/8/k2R4 w - - 0 2 0/1");
    // Xiangqi has no money.
    assert_problem(
        &s.post(LM, json!({"balances": {"white": 1, "black": 1}}))
            .await,
        422,
        "invalid_balances",
    );
}

#[actix_rt::test]
async fn taxi_validate_and_adjudicate() {
    let s = start().await;
    let (_, _, body) = s
        .post(
            TAXI_VALIDATE,
            json!({"fen": "8/8/8/8/1r6/1K6/8/k2R4 w - - 0 2 0/1", "move": "b3b4"}),
        )
        .await;
    assert_eq!(body["legal"], false);
    assert_eq!(body["reason_code"], "insufficient_funds");
    assert_eq!(
        body["reason"],
        "it costs 3 (travel 1 + removal from b4 2), and White has 2 (0 plus income 2)"
    );
    let (_, _, body) = s
        .post(
            TAXI_VALIDATE,
            json!({"fen": "8/8/8/8/1r6/1K6/8/k2R4 w - - 0 2 0/1", "move": "b3a3"}),
        )
        .await;
    assert_eq!(body["legal"], true);
    assert_eq!(body["details"]["cost"], 1);
    assert_eq!(body["details"]["san"], "Ka3+");
    assert_eq!(body["position_after"]["in_check"], true);

    let (_, _, body) = s
        .post(
            TAXI_ADJ,
            json!({"fen": "7k/8/8/8/8/8/1q6/K7 w - - 0 1 0/0"}),
        )
        .await;
    assert_eq!(
        (
            body["status"].as_str(),
            body["reason"].as_str(),
            body["winner"].as_str()
        ),
        (Some("decisive"), Some("bankruptcy"), Some("black"))
    );
    let shuffle = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    let (_, _, body) = s.post(TAXI_ADJ, json!({"moves": shuffle})).await;
    assert_eq!(body["status"], "ongoing");
    assert_eq!(body["claimable_draws"][0]["reason"], "threefold_repetition");
    let mut ten = shuffle.to_vec();
    ten.extend(shuffle);
    let (_, _, body) = s.post(TAXI_ADJ, json!({"moves": ten})).await;
    assert_eq!(body["reason"], "fivefold_repetition");
    assert_eq!(body["claimable_draws"], json!([]));
    let resp = s.post(TAXI_LM, json!({"moves": ["e2e5"]})).await;
    assert_problem(&resp, 422, "illegal_move");
    assert_eq!(resp.2["reason_code"], "bad_geometry");
}

const TAM_LM: &str = "/v1/variants/tamerlane/legal-moves";
const TAM_VALIDATE: &str = "/v1/variants/tamerlane/validate";
const TAM_ADJ: &str = "/v1/variants/tamerlane/adjudicate";

/// Tamerlane chess ends by default (threefold repetition, 100 plies);
/// `{"repetition": "none", "move_limit_plies": 0}` is the historical game.
#[actix_rt::test]
async fn tamerlane_games_end_by_default() {
    let s = start().await;
    let adj = "/v1/variants/tamerlane/adjudicate";
    let fen = "11/10k/11/11/11/11/11/11/11/R9K w -/- - 0/0 0 1";
    let moves = "a1a2 k9k8 a2a1 k8k9 a1a2 k9k8 a2a1 k8k9";
    let (_, _, body) = s.post(adj, json!({"fen": fen, "moves": moves})).await;
    assert_eq!(
        (&body["status"], &body["reason"]),
        (&json!("drawn"), &json!("repetition")),
        "{body}"
    );
    let historical = json!({"repetition": "none", "move_limit_plies": 0});
    let (_, _, body) = s
        .post(
            adj,
            json!({"fen": fen, "moves": moves, "rules": historical}),
        )
        .await;
    assert_eq!(body["status"], "ongoing", "{body}");
    // The boolean of earlier versions is refused, naming the values.
    let (st, _, body) = s
        .post(
            adj,
            json!({"fen": fen, "moves": moves, "rules": {"repetition": false}}),
        )
        .await;
    assert_eq!(st, 422);
    assert_eq!(body["field"], "rules.repetition");
    assert_eq!(
        body["detail"],
        "'rules.repetition' must be one of 'threefold', 'none'; got false"
    );
    let late = "11/10k/11/11/11/11/11/11/11/R9K w -/- - 0/0 99 60";
    let (_, _, body) = s.post(adj, json!({"fen": late, "moves": ["a1a2"]})).await;
    assert_eq!(
        (&body["status"], &body["reason"]),
        (&json!("drawn"), &json!("move_limit")),
        "{body}"
    );
    let (_, _, body) = s
        .post(
            adj,
            json!({"fen": late, "moves": ["a1a2"], "rules": historical}),
        )
        .await;
    assert_eq!(body["status"], "ongoing", "{body}");
}

#[actix_rt::test]
async fn tamerlane_through_the_api() {
    let s = start().await;
    let (st, _, body) = s.post(TAM_LM, json!({})).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["variant"], "tamerlane");
    assert_eq!(body["legal_moves"].as_array().unwrap().len(), 24);
    assert_eq!(body["fen"], "e1c1d1d1c1e/rntgwkfgtnr/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/RNTGFKWGTNR/E1C1D1D1C1E w -/- Kk 0/0 0 1");
    let (_, _, body) = s.post(TAM_LM, json!({"moves": ["b2c4", "j9i7"]})).await;
    assert_eq!(body["plies"], 2);
    let (_, _, body) = s.post(TAM_LM, json!({"rules": {"setup": "third"}})).await;
    assert!(body["fen"].as_str().unwrap().contains("/RNDTGPKGTDNR/"));

    let (_, _, body) = s
        .post(
            TAM_VALIDATE,
            json!({"fen": "11/10k/11/11/11/11/11/2PP8/1G9/10K w -/- - 0/0 0 1", "move": "b2c6"}),
        )
        .await;
    assert_eq!(body["legal"], false);
    assert_eq!(
        body["reason"],
        "the giraffe's diagonal square c3 is occupied"
    );
    let (_, _, body) = s
        .post(
            TAM_VALIDATE,
            json!({"fen": "11/5r4k/11/11/11/11/11/11/5K5/W10 w -/- - 0/0 0 1", "move": "f2~a1"}),
        )
        .await;
    assert_eq!(body["reason"], "the exchange has already been used");

    let (_, _, body) = s
        .post(
            TAM_ADJ,
            json!({"fen": "11/K10/11/11/11/11/11/11/11/10k w -/- - 0/0 0 1", "moves": ["a9z9"]}),
        )
        .await;
    assert_eq!(
        (body["status"].as_str(), body["reason"].as_str()),
        (Some("drawn"), Some("citadel"))
    );
    let (_, _, body) = s
        .post(
            TAM_ADJ,
            json!({"fen": "k10/2R8/1R9/11/11/11/11/11/11/10K b -/- - 0/0 0 1"}),
        )
        .await;
    assert_eq!(
        (body["reason"].as_str(), body["winner"].as_str()),
        (Some("stalemate"), Some("white"))
    );
    assert_problem(
        &s.post(TAM_LM, json!({"rules": {"setup": "modern"}})).await,
        422,
        "invalid_rules",
    );
    assert_problem(
        &s.post(TAM_LM, json!({"fen": "11/10k/11 w -/- - 0/0 0 1"}))
            .await,
        422,
        "invalid_fen",
    );
    let resp = s.post(TAM_LM, json!({"moves": ["b2b3"]})).await;
    assert_problem(&resp, 422, "illegal_move");
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

const ANALYZE: &str = "/v1/variants/xiangqi/analyze";

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

#[actix_rt::test]
async fn diagrams_by_get_and_post() {
    let s = start().await;
    let r = s
        .client
        .get(format!(
            "{}/v1/variants/xiangqi/diagram.svg?moves=h2e2,h9g7&flip=true",
            s.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert!(r.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("max-age"));
    let svg = r.text().await.unwrap();
    assert!(svg.starts_with("<svg") && svg.contains(">帥<") && svg.contains(">將<"));
    // Errors are problems, as everywhere.
    let r = s
        .get("/v1/variants/xiangqi/diagram.svg?moves=h2e2,h2e2")
        .await;
    assert_problem(&r, 422, "illegal_move");
    let r = s.get("/v1/variants/xiangqi/diagram.svg?flip=perhaps").await;
    assert_problem(&r, 422, "invalid_request");
    let r = s.get("/v1/variants/xiangqi/diagram.svg?colour=red").await;
    assert_problem(&r, 422, "invalid_request");
    let r = s.get("/v1/variants/shogi/diagram.svg").await;
    assert_problem(&r, 404, "unknown_variant");
    let r = s
        .get("/v1/variants/tamerlane/diagram.svg?rules=%7B%22setup%22%3A%22feminine%22%7D")
        .await;
    assert_eq!(r.0, 200);
    let r = s.get("/v1/variants/tamerlane/diagram.svg?rules=nope").await;
    assert_problem(&r, 422, "invalid_rules");
    // POST with JSON, Taxi chess with its balances.
    let r = s
        .client
        .post(format!("{}/v1/variants/taxi/diagram", s.base))
        .json(&json!({"moves": ["e2e4"], "balances": {"white": 16, "black": 16}, "coordinates": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let svg = r.text().await.unwrap();
    assert!(svg.contains("White: 16") && svg.contains("Black: 16"));
    let r = s
        .post(
            "/v1/variants/taxi/diagram",
            json!({"fen": "8/8/8/8/8/8/8/8 w - - 0 1 0/0"}),
        )
        .await;
    assert_problem(&r, 422, "invalid_fen");
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

/// Every closed set of values is an enum in the document, the lists are
/// complete, and every path names its variant by the enum.
#[actix_rt::test]
async fn the_document_types_every_closed_set() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let schemas = &doc["components"]["schemas"];
    let values = |name: &str| -> Vec<String> {
        schemas[name]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{name} is not an enum"))
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(values("VariantId"), ["xiangqi", "taxi", "tamerlane"]);
    assert_eq!(values("Status"), ["ongoing", "decisive", "drawn"]);
    assert_eq!(values("GameResult"), ["1-0", "0-1", "1/2-1/2", "*"]);
    assert_eq!(values("Side"), ["red", "white", "black"]);
    assert_eq!(
        values("NotationName"),
        [
            "iccs",
            "ucci",
            "fairy",
            "uci",
            "wxf",
            "chinese",
            "san",
            "coordinate"
        ]
    );
    let reasons = values("Reason");
    for r in [
        "checkmate",
        "stalemate",
        "perpetual_chase",
        "bankruptcy",
        "citadel",
        "bare_king",
        "seventy_five_moves",
    ] {
        assert!(reasons.contains(&r.to_owned()), "{r}");
    }
    let refusals = values("Refusal");
    assert_eq!(refusals.len(), 29);
    for r in [
        "blocked",
        "flying_general",
        "insufficient_funds",
        "castling_through_threat",
        "promotion_required",
        "citadel",
        "dormant",
        "immune",
        "bad_relocation",
        "exchange_used",
        "second_arrival_barred",
        "bad_notation",
    ] {
        assert!(refusals.contains(&r.to_owned()), "{r}");
    }
    let problems = values("Problem");
    for p in [
        "malformed_json",
        "invalid_request",
        "unknown_variant",
        "illegal_move",
        "game_over",
        "engine_busy",
        "cors_refused",
    ] {
        assert!(problems.contains(&p.to_owned()), "{p}");
    }
    // Fields refer to the enums.
    let reference = |schema: &Value| -> String {
        let s = schema.get("$ref").or_else(|| {
            schema["oneOf"]
                .as_array()?
                .iter()
                .find_map(|x| x.get("$ref"))
        });
        s.and_then(Value::as_str).unwrap_or_default().to_owned()
    };
    let field = |schema: &str, name: &str| {
        let props = schemas[schema]["properties"]
            .as_object()
            .or_else(|| {
                schemas[schema]["allOf"]
                    .as_array()?
                    .iter()
                    .find_map(|x| x["properties"].as_object())
            })
            .unwrap_or_else(|| panic!("{schema} has no properties"));
        reference(&props[name])
    };
    for (schema, name, target) in [
        ("GameStatus", "status", "Status"),
        ("GameStatus", "result", "GameResult"),
        ("GameStatus", "winner", "Side"),
        ("GameStatus", "reason", "Reason"),
        ("PositionSummary", "side_to_move", "Side"),
        ("ValidateResponse", "reason_code", "Refusal"),
        ("ValidateResponse", "variant", "VariantId"),
        ("ProblemDetails", "code", "Problem"),
        ("ProblemDetails", "reason_code", "Refusal"),
        ("ProblemDetails", "winner", "Side"),
        ("ProblemDetails", "game_reason", "Reason"),
        ("PositionRequest", "notation", "NotationName"),
        ("PositionRequest", "rules", "Rules"),
        ("PositionRequest", "moves", "Moves"),
        ("RepetitionDoc", "in_breach", "Side"),
        ("SideConduct", "conduct", "ConductCode"),
        ("RepetitionMark", "outcome", "MoverOutcome"),
        ("Health", "status", "HealthStatus"),
    ] {
        assert_eq!(
            field(schema, name),
            format!("#/components/schemas/{target}"),
            "{schema}.{name}"
        );
    }
    // Rules: documented per variant, every option with a type, a default and words.
    let rules: Vec<&str> = schemas["Rules"]["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["$ref"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "#/components/schemas/XiangqiRules",
            "#/components/schemas/TaxiRules",
            "#/components/schemas/TamerlaneRules"
        ]
    );
    for name in ["XiangqiRules", "TaxiRules", "TamerlaneRules"] {
        let rules = &schemas[name];
        assert_eq!(rules["additionalProperties"], false, "{name}");
        for (option, spec) in rules["properties"].as_object().unwrap() {
            assert!(
                spec.get("default").is_some(),
                "{name}.{option} has no default"
            );
            assert!(
                spec["description"].as_str().is_some_and(|d| d.len() > 10),
                "{name}.{option}"
            );
        }
    }
    assert_eq!(
        schemas["TamerlaneRules"]["properties"]["repetition"]["default"],
        "threefold"
    );
    assert_eq!(
        schemas["TamerlaneRules"]["properties"]["move_limit_plies"]["default"],
        100
    );
    // Every path with a variant takes the enum.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for p in op["parameters"].as_array().into_iter().flatten() {
                if p["name"] == "variant" {
                    assert_eq!(
                        p["schema"]["$ref"], "#/components/schemas/VariantId",
                        "{method} {path}"
                    );
                }
            }
            // Each error status has its own example, of that status.
            for (status, response) in op["responses"].as_object().unwrap() {
                assert!(
                    response["description"]
                        .as_str()
                        .is_some_and(|d| !d.is_empty()),
                    "{method} {path} {status}"
                );
                if let Some(problem) = response["content"].get("application/problem+json") {
                    let example = &problem["example"];
                    assert_eq!(
                        example["status"].to_string(),
                        *status,
                        "{method} {path} {status}: {example}"
                    );
                    assert!(problems.contains(&example["code"].as_str().unwrap().to_owned()));
                }
            }
        }
    }
}

/// Every member an error body can carry is in the problem's schema: a
/// spread of real problems, each checked against it.
#[actix_rt::test]
async fn every_problem_member_is_documented() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let documented = doc["components"]["schemas"]["ProblemDetails"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect::<Vec<_>>();
    let problems = [
        s.post(LM, json!({"moves": ["h3e3"]})).await,
        s.post(
            ADJ,
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9", "d9e9"]}),
        )
        .await,
        s.post(
            "/v1/variants/xiangqi/analyze",
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]}),
        )
        .await,
        s.post(LM, json!({"rules": {"x": 1}})).await,
        s.post(VALIDATE, json!({"move": "C2.5"})).await,
        s.get("/v1/variants/go").await,
        s.get(LM).await,
        s.get("/nothing").await,
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (status, _, body) in &problems {
        assert!(status.is_client_error(), "{body}");
        for key in body.as_object().unwrap().keys() {
            assert!(
                documented.contains(key),
                "'{key}' of {body} is not documented"
            );
            seen.insert(key.clone());
        }
    }
    for key in [
        "game_reason",
        "result",
        "winner",
        "notation_hint",
        "reason_code",
        "move_index",
    ] {
        assert!(seen.contains(key), "{key} was not exercised");
    }
}

/// The 200 examples of the document are real answers: each equals what the
/// server answers to the request it stands for (long lists shortened, and
/// the timing of a search left aside).
#[actix_rt::test]
async fn the_answer_examples_are_real_answers() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let example = |name: &str| doc["components"]["schemas"][name]["example"].clone();
    let (_, _, mut real) = s.post(LM, json!({"moves": ["h2e2", "h9g7"]})).await;
    let shown = example("LegalMovesResponse");
    let n = shown["legal_moves"].as_array().unwrap().len();
    real["legal_moves"].as_array_mut().unwrap().truncate(n);
    assert_eq!(shown, real);
    let (_, _, real) = s
        .post(
            ADJ,
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]}),
        )
        .await;
    assert_eq!(example("AdjudicateResponse"), real);
    let (_, _, real) = s
        .post(VALIDATE, json!({"fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1R7/1NBAKABNR w - - 0 1", "move": "b0c2"}))
        .await;
    assert_eq!(example("ValidateResponse"), real);
    let (_, _, mut real) = s
        .post(
            "/v1/variants/xiangqi/analyze",
            json!({"fen": "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1", "depth": 5}),
        )
        .await;
    let mut shown = example("AnalyzeResponse");
    for timing in ["nodes", "nps", "time_ms"] {
        assert!(real[timing].as_u64().is_some());
        real[timing] = Value::Null;
        shown[timing] = Value::Null;
    }
    assert_eq!(shown, real);
}

/// A record that runs past the end of the game: adjudicate answers with the
/// verdict where it ended, `ended_at_ply` and `moves_after_end` (each still
/// checked); legal-moves, validate and analyze keep refusing it.
#[actix_rt::test]
async fn records_that_run_past_the_end() {
    let s = start().await;
    // Fairy-Stockfish's "chase with chasing side to move": 12 moves, the
    // third occurrence at ply 9; Red chased the chariot.
    let fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
    let moves = "c3a3 a8b8 a3b3 b8a8 b3a3 a8b8 a3b3 b8a8 b3a3 a8b8 a3b3 b8a8";
    let (st, _, body) = s
        .post(
            ADJ,
            json!({"fen": fen, "moves": moves, "notation": "fairy"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(
        (
            &body["reason"],
            &body["winner"],
            &body["ended_at_ply"],
            &body["moves_after_end"]
        ),
        (
            &json!("perpetual_chase"),
            &json!("black"),
            &json!(9),
            &json!(3)
        )
    );
    assert_eq!(body["plies"], 9);
    // The moves after the end are still read and checked.
    let bad = format!("{moves} a8a1");
    let resp = s
        .post(ADJ, json!({"fen": fen, "moves": bad, "notation": "fairy"}))
        .await;
    assert_problem(&resp, 422, "illegal_move");
    assert_eq!(resp.2["move_index"], 12);
    // A game that goes on has no end ply.
    let (_, _, body) = s.post(ADJ, json!({"moves": ["h2e2"]})).await;
    assert_eq!(
        (&body["ended_at_ply"], &body["moves_after_end"]),
        (&Value::Null, &json!(0))
    );
    // The other endpoints refuse a record past the end.
    for path in [
        LM,
        "/v1/variants/xiangqi/analyze",
        "/v1/variants/xiangqi/diagram",
    ] {
        let resp = s
            .post(
                path,
                json!({"fen": fen, "moves": moves, "notation": "fairy"}),
            )
            .await;
        assert_problem(&resp, 422, "game_over");
        assert_eq!(resp.2["move_index"], 9, "{path}");
        assert_eq!(resp.2["game_reason"], "perpetual_chase", "{path}");
    }
    let resp = s
        .post(
            VALIDATE,
            json!({"fen": fen, "moves": moves, "notation": "fairy", "move": "a1a2"}),
        )
        .await;
    assert_problem(&resp, 422, "game_over");
}

/// A composed position (a soldier behind its starting rank) is accepted
/// with a warning; what breaks the rules is still refused.
#[actix_rt::test]
async fn composed_positions_are_accepted_with_a_warning() {
    let s = start().await;
    let fen = "3k5/9/9/9/9/9/9/9/4P4/4K4 w - - 0 1";
    for path in [LM, ADJ] {
        let (st, _, body) = s.post(path, json!({"fen": fen})).await;
        assert_eq!(st, StatusCode::OK, "{body}");
        assert_eq!(body["warnings"][0]["code"], "unreachable_placement");
        assert!(body["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Red soldier on e1"));
    }
    let (_, _, body) = s.post(LM, json!({})).await;
    assert!(body.get("warnings").is_none());
    for bad in [
        "3k5/9/9/9/9/9/9/9/4B4/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/9 w - - 0 1",
        "3k5/9/9/9/9/9/PPPPPP3/9/9/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/3R5/4K4 w - - 0 1",
    ] {
        assert_problem(&s.post(LM, json!({"fen": bad})).await, 422, "invalid_fen");
    }
}
