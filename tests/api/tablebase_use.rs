//! The endgame tables where the service uses them: the rule option
//! `tablebase_adjudication`, the `tablebase` object of every game answer,
//! `/analyze` answered from the tables, and the review judging table
//! positions by them.

use super::*;

const TB: &str = "/v1/variants/xiangqi/tablebase";
const ADJ_X: &str = "/v1/variants/xiangqi/adjudicate";
const ANALYZE: &str = "/v1/variants/xiangqi/analyze";
const REVIEW: &str = "/v1/variants/xiangqi/review";

/// A horse against one advisor (KNka): a win some plies deep.
const WON: &str = "4k4/4a4/9/9/9/9/9/9/9/3K2N2 w - - 0 1";
/// A horse against two advisors (KNkaa): a draw.
const DRAWN: &str = "3ak4/4a4/9/9/9/9/9/9/4N4/3K5 w - - 0 1";
/// Black can hold out only by checking for ever with its horse (KRkn):
/// lost under the perpetual-check rule.
const RULE_LOST: &str = "9/9/4k4/9/9/9/9/3n5/9/R2K5 b - - 0 1";

fn with(fen: &str, adjudication: &str) -> Value {
    json!({"fen": fen, "rules": {"tablebase_adjudication": adjudication}})
}

#[actix_rt::test]
async fn the_rule_option_ends_games_by_the_tables() {
    let s = start().await;
    // By default the tables end no game, but the answer carries them.
    let (st, _, body) = s.post(ADJ_X, json!({"fen": WON})).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    // The answer's position is flattened into it.
    let position = &body;
    assert_eq!(position["status"], "ongoing", "{body}");
    assert_eq!(position["tablebase"]["table"], "KNka", "{body}");
    assert_eq!(position["tablebase"]["wdl"], "win", "{body}");
    let dtm = position["tablebase"]["dtm"].as_u64().unwrap();
    assert!(dtm >= 5, "{body}");

    // `all`: the theoretical result, with words that say so.
    let (st, _, body) = s.post(ADJ_X, with(WON, "all")).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    let position = &body;
    assert_eq!(position["status"], "decisive", "{body}");
    assert_eq!(position["result"], "1-0");
    assert_eq!(position["winner"], "red");
    assert_eq!(position["reason"], "tablebase_win");
    let words = position["explanation"].as_str().unwrap();
    assert!(
        words.contains("endgame tables") && words.contains("Red wins"),
        "{words}"
    );
    assert_eq!(body["ended_at_ply"], 0);

    // `draws` leaves a won position to be played out...
    let (_, _, body) = s.post(ADJ_X, with(WON, "draws")).await;
    assert_eq!(body["status"], "ongoing", "{body}");
    // ...and ends a drawn one, as `all` does.
    for adjudication in ["draws", "all"] {
        let (_, _, body) = s.post(ADJ_X, with(DRAWN, adjudication)).await;
        let position = &body;
        assert_eq!(position["status"], "drawn", "{adjudication}: {body}");
        assert_eq!(position["reason"], "tablebase_draw", "{body}");
        assert_eq!(position["result"], "1/2-1/2");
    }
    let (_, _, body) = s.post(ADJ_X, with(DRAWN, "none")).await;
    assert_eq!(body["status"], "ongoing", "{body}");

    // A win the perpetual-check rule decides: a win under the rules that
    // forbid perpetual check, a draw without repetition rules.
    let (_, _, body) = s.post(ADJ_X, with(RULE_LOST, "all")).await;
    assert_eq!(body["winner"], "red", "{body}");
    assert_eq!(body["tablebase"]["decided_by"], "perpetual_check");
    let (_, _, body) = s
        .post(
            ADJ_X,
            json!({"fen": RULE_LOST, "rules": {
                "tablebase_adjudication": "all", "repetition": "none"}}),
        )
        .await;
    assert_eq!(body["status"], "drawn", "{body}");
    assert_eq!(body["reason"], "tablebase_draw", "{body}");

    // A record that goes on past the position the tables ended.
    let mut record = with(WON, "all");
    record["moves"] = json!(["g0f2", "e9f9"]);
    let (st, _, body) = s.post(ADJ_X, record).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["ended_at_ply"], 0, "{body}");
    assert_eq!(body["moves_after_end"], 2, "{body}");

    // Outside the tables the answer has no `tablebase`.
    let (_, _, body) = s.post(ADJ_X, json!({})).await;
    assert!(body.get("tablebase").is_none(), "{body}");
    // A bad value is named.
    let (st, _, body) = s.post(ADJ_X, with(WON, "some")).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("tablebase_adjudication"),
        "{body}"
    );
}

#[actix_rt::test]
async fn every_game_answer_carries_the_same_tablebase_object() {
    let s = start().await;
    let (_, _, probe) = s.post(TB, json!({"fen": WON, "notation": "wxf"})).await;
    let (st, _, body) = s
        .post(
            "/v1/variants/xiangqi/legal-moves",
            json!({"fen": WON, "notation": "wxf"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    let carried = &body["tablebase"];
    for key in ["table", "wdl", "dtm", "decided_by", "best_move", "moves"] {
        assert_eq!(carried[key], probe[key], "{key}: {body}");
    }
    // In the request's notation.
    let wxf: Vec<&Value> = body["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["wxf"])
        .collect();
    assert!(wxf.contains(&&carried["best_move"]), "{carried}");
}

#[actix_rt::test]
async fn analysis_in_a_table_position_comes_from_the_tables() {
    let s = start().await;
    let (_, _, probe) = s.post(TB, json!({"fen": WON})).await;
    let dtm = probe["dtm"].as_i64().unwrap();
    let (st, _, body) = s
        .post(ANALYZE, json!({"fen": WON, "multipv": 3, "threat": true}))
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["source"], "tablebase", "{body}");
    assert_eq!(body["best_move"], probe["best_move"], "{body}");
    assert_eq!(
        (body["depth"].clone(), body["nodes"].clone()),
        (json!(0), json!(0))
    );
    let lines = body["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{body}");
    // The exact mate, in moves as UCI counts them, and certain chances.
    assert_eq!(lines[0]["score"]["mate"], (dtm + 1) / 2, "{body}");
    assert_eq!(lines[0]["wdl"], json!({"win": 1000, "draw": 0, "loss": 0}));
    // The line follows the tables to the mate.
    assert_eq!(
        lines[0]["moves"].as_array().unwrap().len() as i64,
        dtm,
        "{body}"
    );
    let mates: Vec<i64> = lines
        .iter()
        .map(|l| l["score"]["mate"].as_i64().unwrap())
        .collect();
    assert!(
        mates.windows(2).all(|w| w[0] <= w[1]),
        "best first: {mates:?}"
    );
    assert!(body["threat"]["move"].is_string(), "{body}");

    // Every move, best first, each as the tables score it.
    let (_, _, body) = s
        .post(ANALYZE, json!({"fen": WON, "all_moves": true}))
        .await;
    let lines = body["lines"].as_array().unwrap();
    assert_eq!(
        lines.len(),
        probe["moves"].as_array().unwrap().len(),
        "{body}"
    );
    for line in lines {
        let m = probe["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == line["move"])
            .unwrap();
        match m["wdl"].as_str().unwrap() {
            "win" => assert_eq!(line["score"]["mate"], (m["dtm"].as_i64().unwrap() + 1) / 2),
            "draw" => assert_eq!(line["score"]["cp"], 0, "{line}"),
            _ => assert!(line["score"]["mate"].as_i64().unwrap() <= 0, "{line}"),
        }
    }

    // A drawn position: 0, certain.
    let (_, _, body) = s.post(ANALYZE, json!({"fen": DRAWN})).await;
    assert_eq!(body["source"], "tablebase", "{body}");
    assert_eq!(body["lines"][0]["score"]["cp"], 0, "{body}");
    assert_eq!(body["lines"][0]["wdl"]["draw"], 1000, "{body}");

    // A level below the full strength, and a position outside the tables,
    // are searched.
    let (_, _, body) = s
        .post(ANALYZE, json!({"fen": WON, "level": 5, "seed": 1}))
        .await;
    assert_eq!(body["source"], "search", "{body}");
    let (_, _, body) = s.post(ANALYZE, json!({"depth": 2})).await;
    assert_eq!(body["source"], "search", "{body}");

    // Streamed: the answer alone, from the tables.
    let (st, text) = s
        .post_accepting(ANALYZE, "application/x-ndjson", json!({"fen": WON}))
        .await;
    assert_eq!(st, StatusCode::OK, "{text}");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert_eq!(lines[0]["source"], "tablebase", "{text}");
}

#[actix_rt::test]
async fn the_search_outside_the_tables_resolves_a_capture_into_them() {
    let s = start().await;
    // Red's chariot takes Black's last piece besides an advisor: KNka is
    // then won, which a shallow search sees only through the tables.
    let fen = "4k4/4a4/9/9/9/9/9/5r3/9/3K2N2 w - - 0 1";
    let (st, _, body) = s.post(ANALYZE, json!({"fen": fen, "depth": 2})).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["source"], "search", "{body}");
    assert_eq!(body["best_move"], "g0f2", "{body}");
    assert!(
        body["lines"][0]["score"]["mate"].as_i64().unwrap() > 0,
        "{body}"
    );
}

#[actix_rt::test]
async fn reviews_judge_table_positions_by_the_tables() {
    let s = start().await;
    // KNka again, the horse in the middle: two of its moves let the
    // advisor take it.
    let won = "4k4/4a4/9/9/4N4/9/9/9/9/3K5 w - - 0 1";
    let (_, _, probe) = s.post(TB, json!({"fen": won})).await;
    let moves = probe["moves"].as_array().unwrap();
    let best = moves[0]["move"].as_str().unwrap();
    // A move that keeps the win more slowly, and one that throws it away.
    let slower = moves
        .iter()
        .find(|m| m["wdl"] == "win" && m["dtm"] != moves[0]["dtm"])
        .expect("a slower win");
    let thrown = moves
        .iter()
        .find(|m| m["wdl"] != "win")
        .expect("a move that lets the win go");
    for (played, classes) in [
        (best, &["best"][..]),
        (slower["move"].as_str().unwrap(), &["best", "good"][..]),
        (
            thrown["move"].as_str().unwrap(),
            &["blunder", "missed_win"][..],
        ),
    ] {
        let (st, _, body) = s
            .post(REVIEW, json!({"fen": won, "moves": [played], "depth": 4}))
            .await;
        assert_eq!(st, StatusCode::OK, "{body}");
        let ply = &body["plies"][0];
        assert!(
            classes.contains(&ply["class"].as_str().unwrap()),
            "{played}: {ply}"
        );
        if ply["class"] != "best" {
            assert_eq!(ply["best_move"], best, "{ply}");
        }
        assert_eq!(ply["verified"], true, "{ply}");
    }
}
