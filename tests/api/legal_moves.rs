//! `POST …/legal-moves`: positions, checks, records with a bad move, the ways to send moves, repetition marks, Taxi chess costs and balances, composed positions.

use super::*;

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
        .post(
            ADJ,
            json!({"fen": fen, "rules": {"repetition": "japanese"}}),
        )
        .await;
    assert_problem(&resp, 422, "invalid_rules");
    assert_eq!(resp.2["field"], "rules.repetition");
    assert_eq!(
        resp.2["detail"],
        "'rules.repetition' must be one of 'asian', 'chinese', 'none'; got the string \"japanese\""
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

/// Under `"repetition": "chinese"` the move that would complete a forbidden
/// repetition is marked, with its outcome; the Asian rules judge the same
/// move otherwise.
#[actix_rt::test]
async fn chinese_code_marks() {
    let s = start().await;
    // (position, moves, the move that completes the repetition, its mark
    // under the Chinese code, under the Asian rules)
    let cases = [
        (
            FIG7_FEN,
            FIG7_BEFORE,
            "i0h0",
            json!({"outcome": "loss", "reason": "perpetual_mate_threat"}),
            json!({"outcome": "win", "reason": "perpetual_chase"}),
        ),
        (
            FIG16_FEN,
            FIG16_BEFORE,
            "h6h9",
            json!({"outcome": "loss", "reason": "forbidden_repetition"}),
            json!({"outcome": "draw", "reason": "repetition"}),
        ),
    ];
    for (fen, moves, completing, chinese, asian) in cases {
        for (code, mark) in [("chinese", chinese), ("asian", asian)] {
            let (st, _, body) = s
                .post(
                    LM,
                    json!({"fen": fen, "moves": moves, "rules": {"repetition": code}}),
                )
                .await;
            assert_eq!(st, StatusCode::OK, "{body}");
            let legal = body["legal_moves"].as_array().unwrap();
            let marked: Vec<&Value> = legal
                .iter()
                .filter(|m| m.get("repetition").is_some())
                .collect();
            assert_eq!(marked.len(), 1, "{code}: {marked:?}");
            assert_eq!(marked[0]["move"], completing, "{code}");
            assert_eq!(marked[0]["repetition"], mark, "{code}");
            let forbidden: Vec<&Value> = legal
                .iter()
                .filter(|m| m["forbidden_repetition"] == true)
                .map(|m| &m["move"])
                .collect();
            let expected: &[&str] = if code == "chinese" {
                &[completing]
            } else {
                &[]
            };
            assert_eq!(forbidden, expected, "{code}");
        }
    }
}
