//! `POST …/adjudicate`: results, Tamerlane chess's endings, records that run past the end.

use super::*;

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

/// `"repetition": "chinese"`: the Chinese Xiangqi Association's code, where
/// the rule book's examples are judged otherwise than by the Asian rules.
#[actix_rt::test]
async fn the_chinese_code_judges_mate_threats_and_one_check_one_chase() {
    let s = start().await;
    let fig7 = then(FIG7_BEFORE, "i0h0");
    let adjudicate = |fen: &str, moves: &str, code: &str| json!({"fen": fen, "moves": moves, "rules": {"repetition": code}});
    // 图7: Red threatened mate with every move (长杀) and loses.
    let (st, _, body) = s.post(ADJ, adjudicate(FIG7_FEN, &fig7, "chinese")).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(
        (
            &body["status"],
            &body["result"],
            &body["winner"],
            &body["reason"]
        ),
        (
            &json!("decisive"),
            &json!("0-1"),
            &json!("black"),
            &json!("perpetual_mate_threat")
        )
    );
    assert_eq!(
        body["repetition"],
        json!({
            "occurrences": [0, 4, 8],
            "cycle": {"from_ply": 0, "to_ply": 8},
            "in_breach": "red",
            "sides": [
                {"side": "red", "conduct": "forbidden", "pattern": "perpetual_mate_threat",
                 "term": "长杀", "natures": ["mate_threat", "mate_threat", "mate_threat", "mate_threat"]},
                {"side": "black", "conduct": "allowed", "pattern": "allowed",
                 "term": "允许着法", "natures": ["idle", "idle", "idle", "idle"]}
            ]
        })
    );
    let explanation = body["explanation"].as_str().unwrap();
    for words in [
        "Red threatened mate with every move (长杀)",
        "Black made an allowed move in the cycle (允许着法)",
        "Red must change and loses (红方变着，不变作负), Black wins",
    ] {
        assert!(explanation.contains(words), "{explanation}");
    }
    // The record as the README and the Swagger example send it (from the
    // diagram, Red to move, two whole cycles): the same ruling.
    let (st, _, readme) = s
        .post(
            ADJ,
            json!({"fen": "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1",
                   "rules": {"repetition": "chinese"},
                   "moves": "i0h0 i8h8 h0i0 h8i8 i0h0 i8h8 h0i0 h8i8"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{readme}");
    assert_eq!(
        (
            &readme["result"],
            &readme["reason"],
            &readme["repetition"]["in_breach"]
        ),
        (
            &json!("0-1"),
            &json!("perpetual_mate_threat"),
            &json!("red")
        )
    );
    assert_eq!(
        readme["repetition"]["sides"][0],
        json!({"side": "red", "conduct": "forbidden", "pattern": "perpetual_mate_threat",
               "term": "长杀", "natures": ["mate_threat", "mate_threat", "mate_threat", "mate_threat"]})
    );
    // The same record under the Asian rules: the threats are free, and the
    // chariot that blocked them chased the cannon with every move.
    let (_, _, asian) = s.post(ADJ, adjudicate(FIG7_FEN, &fig7, "asian")).await;
    assert_eq!(
        (
            &asian["result"],
            &asian["reason"],
            &asian["repetition"]["in_breach"]
        ),
        (&json!("1-0"), &json!("perpetual_chase"), &json!("black"))
    );
    assert_eq!(
        asian["repetition"]["sides"][0]["natures"],
        json!(["idle", "idle", "idle", "idle"])
    );
    assert_eq!(
        asian["repetition"]["sides"][1]["chased"],
        json!([{"square": "h0", "piece": "Red cannon"}])
    );
    // The default is the Asian rules; with none the game goes on.
    let (_, _, default) = s.post(ADJ, json!({"fen": FIG7_FEN, "moves": fig7})).await;
    assert_eq!(default["reason"], "perpetual_chase");
    let (_, _, none) = s.post(ADJ, adjudicate(FIG7_FEN, &fig7, "none")).await;
    assert_eq!(none["status"], "ongoing");

    // 图16: one check, one chase of the black chariot (一将一捉).
    let fig16 = then(FIG16_BEFORE, "h6h9");
    let (st, _, body) = s.post(ADJ, adjudicate(FIG16_FEN, &fig16, "chinese")).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(
        (&body["result"], &body["winner"], &body["reason"]),
        (
            &json!("0-1"),
            &json!("black"),
            &json!("forbidden_repetition")
        )
    );
    let red = &body["repetition"]["sides"][0];
    assert_eq!(
        (&red["side"], &red["conduct"], &red["pattern"], &red["term"]),
        (
            &json!("red"),
            &json!("forbidden"),
            &json!("one_check_one_chase"),
            &json!("一将一捉")
        )
    );
    assert_eq!(red["natures"], json!(["chase", "check", "chase", "check"]));
    assert_eq!(
        red["chased"],
        json!([{"square": "d6", "piece": "Black chariot"}])
    );
    assert_eq!(body["repetition"]["sides"][1]["pattern"], "allowed");
    let explanation = body["explanation"].as_str().unwrap();
    assert!(
        explanation.contains("(一将一捉)") && explanation.contains("Black chariot (now on d6)"),
        "{explanation}"
    );
    // Each chase named as chaser and chased (issue 51).
    assert!(
        explanation.contains(" chases the Black chariot on d6"),
        "{explanation}"
    );
    // Under the Asian rules the check breaks the chase: drawn.
    let (_, _, asian) = s.post(ADJ, adjudicate(FIG16_FEN, &fig16, "asian")).await;
    assert_eq!(
        (
            &asian["status"],
            &asian["reason"],
            &asian["repetition"]["in_breach"]
        ),
        (&json!("drawn"), &json!("repetition"), &Value::Null)
    );
    assert_eq!(
        asian["repetition"]["sides"][0]["natures"],
        json!(["idle", "check", "idle", "check"])
    );
}

/// The batch takes the code for every game (`rules`), a game's own rules
/// first, and a PGN body takes it in the query.
#[actix_rt::test]
async fn the_batch_takes_the_chinese_code() {
    let s = start().await;
    let batch = "/v1/variants/xiangqi/adjudicate/batch";
    let fig7 = then(FIG7_BEFORE, "i0h0");
    let (st, _, body) = s
        .post(
            batch,
            json!({"rules": {"repetition": "chinese"}, "games": [
                {"id": "图7", "fen": FIG7_FEN, "moves": fig7},
                {"id": "图16", "fen": FIG16_FEN, "moves": then(FIG16_BEFORE, "h6h9")},
                {"id": "图7, Asian", "fen": FIG7_FEN, "moves": fig7, "rules": {"repetition": "asian"}},
                {"id": "unknown code", "fen": FIG7_FEN, "rules": {"repetition": "japanese"}}
            ]}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!((&body["games"], &body["errors"]), (&json!(4), &json!(1)));
    let results = body["results"].as_array().unwrap();
    let reasons: Vec<&Value> = results.iter().map(|r| &r["result"]["reason"]).collect();
    assert_eq!(
        reasons,
        [
            &json!("perpetual_mate_threat"),
            &json!("forbidden_repetition"),
            &json!("perpetual_chase"),
            &Value::Null
        ]
    );
    assert_eq!(
        results[0]["result"]["repetition"]["sides"][0]["term"],
        "长杀"
    );
    assert_eq!(results[3]["error"]["field"], "rules.repetition");
    assert_eq!(
        results[3]["error"]["detail"],
        "'rules.repetition' must be one of 'asian', 'chinese', 'none'; got the string \"japanese\""
    );
    // A PGN body, the code in the query.
    let pgn = format!(
        "[SetUp \"1\"]\n[FEN \"{FIG7_FEN}\"]\n\n1... i8h8 2. h0i0 h8i8 3. i0h0 i8h8 4. h0i0 h8i8 5. i0h0 *\n"
    );
    let (st, _, body) = s
        .post_raw(
            &format!("{batch}?rules=%7B%22repetition%22%3A%22chinese%22%7D"),
            "application/x-chess-pgn",
            pgn.into_bytes(),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(
        body["results"][0]["result"]["reason"], "perpetual_mate_threat",
        "{body}"
    );
}

/// The rule book's 参考图8 through the server: Red's nine moves are all
/// forbidden, each part of a cycle, on more than three points, and Red
/// loses on the ninth; the explanation names Red's chases as chaser and
/// chased.
#[actix_rt::test]
async fn the_nine_move_rule_names_its_chases() {
    let s = start().await;
    let moves =
        "c9c8 d8d9 c8c9 d9d8 c9i9 i3h3 i9h9 h3i3 h9i9 i3h3 i9h9 h3i3 h9h3 i3i0 h3h0 i0i3 h0h3";
    let (st, _, body) = s
        .post(
            ADJ,
            json!({"fen": "2R6/3ka4/3a5/9/9/4p4/8c/4B1r2/4A4/3A1KB2 w - - 0 1",
                   "moves": moves, "notation": "iccs", "rules": {"repetition": "chinese"}}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["reason"], "nine_forbidden_moves", "{body}");
    assert_eq!(body["winner"], "black", "{body}");
    assert_eq!(body["ended_at_ply"], 17, "{body}");
    let words = body["explanation"].as_str().unwrap();
    assert!(
        words.contains("Red made nine forbidden moves in a row"),
        "{words}"
    );
    assert!(
        words.contains("the Red chariot on h3 chases the Black "),
        "{words}"
    );
}

/// Past a mate, a program's move list is refused (`game_over`, naming the
/// mate), but a record's step past it, the mated side's step into check as
/// it resigns, is counted after the end: the game is read and ends at the
/// mate.
#[actix_rt::test]
async fn a_move_after_mate_is_refused_in_a_list_and_counted_in_a_record() {
    let s = start().await;
    let fen = "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    let resp = s
        .post(ADJ, json!({"fen": fen, "moves": ["a0a9", "d9e9"]}))
        .await;
    assert_problem(&resp, 422, "game_over");
    assert_eq!(resp.2["move_index"], 1, "{}", resp.2);
    assert_eq!(resp.2["game_reason"], "checkmate", "{}", resp.2);
    let pgn = format!("[FEN \"{fen}\"]\n[Result \"1-0\"]\n\n1. a0a9 d9e9 1-0\n");
    let (st, _, body) = s.post(ADJ, json!({"pgn": pgn})).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["reason"], "checkmate", "{body}");
    assert_eq!(body["plies"], 1, "{body}");
    assert_eq!(body["moves_after_end"], 1, "{body}");
}
