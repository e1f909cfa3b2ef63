//! `POST …/validate`: a move judged, and why not.

use super::*;

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

/// The move that completes 图7's repetition is legal under either code;
/// what it brings about is the code's.
#[actix_rt::test]
async fn validate_under_the_chinese_code() {
    let s = start().await;
    let ask = |code: &str| json!({"fen": FIG7_FEN, "moves": FIG7_BEFORE, "move": "i0h0", "rules": {"repetition": code}});
    let (st, _, body) = s.post(VALIDATE, ask("chinese")).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["legal"], true);
    assert_eq!(body["details"]["chinese"], "炮一平二");
    assert_eq!(body["details"]["forbidden_repetition"], true);
    assert_eq!(
        body["details"]["repetition"],
        json!({"outcome": "loss", "reason": "perpetual_mate_threat"})
    );
    let after = &body["position_after"];
    assert_eq!(
        (&after["status"], &after["winner"], &after["reason"]),
        (
            &json!("decisive"),
            &json!("black"),
            &json!("perpetual_mate_threat")
        )
    );
    assert_eq!(after["repetition"]["sides"][0]["term"], "长杀");
    let (_, _, asian) = s.post(VALIDATE, ask("asian")).await;
    assert_eq!(asian["details"]["forbidden_repetition"], false);
    assert_eq!(
        (
            &asian["position_after"]["winner"],
            &asian["position_after"]["reason"]
        ),
        (&json!("red"), &json!("perpetual_chase"))
    );
    let resp = s.post(VALIDATE, ask("japanese")).await;
    assert_problem(&resp, 422, "invalid_rules");
    assert_eq!(resp.2["field"], "rules.repetition");
}
