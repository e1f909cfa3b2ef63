//! `GET /v1/variants` and `GET /v1/variants/{variant}`: what the service says about each variant, and the notations it lists working as listed.

use super::*;

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
    // The repetition codes, each described in the option's words.
    let repetition = body["rule_options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "repetition")
        .unwrap();
    assert_eq!(repetition["values"], json!(["asian", "chinese", "none"]));
    assert_eq!(repetition["default"], "asian");
    let words = repetition["description"].as_str().unwrap();
    for said in [
        "`asian` (WXF/AXF, the default)",
        "`chinese`: the Chinese Xiangqi Association's code (2020): every mix of checks, mate threats and chases is forbidden (长将, 长杀, 长捉, 一将一捉, …), joint-chase priority, nine-move rule; the judge agrees with every worked example of the rule book",
        "`none`: no repetition verdicts at all.",
    ] {
        assert!(words.contains(said), "{words}");
    }
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
