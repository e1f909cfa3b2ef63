//! `POST /v1/variants/xiangqi/tablebase`: results and mate distances from
//! the built-in tables, followed to the mate and held against
//! `/adjudicate`; colours exchanged; the perpetual-check rule; refusals.

use super::*;

const TB: &str = "/v1/variants/xiangqi/tablebase";

#[actix_rt::test]
async fn a_mate_in_one_and_the_mated_position() {
    let s = start().await;
    let (st, _, body) = s
        .post(TB, json!({"fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["table"], "KRk");
    assert_eq!(body["side_to_move"], "red");
    assert_eq!(body["wdl"], "win");
    assert_eq!(body["dtm"], 1);
    assert_eq!(body["decided_by"], "mate");
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(body["best_move"], moves[0]["move"]);
    // Two moves end it at once: the mate on the d file and a stalemate
    // (which loses in Xiangqi); every other keeps the win, slower.
    let mut at_once: Vec<&str> = moves
        .iter()
        .filter(|m| m["dtm"] == 1)
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    at_once.sort();
    assert_eq!(at_once, ["a1a8", "a1d1"]);
    assert!(moves.iter().all(|m| m["wdl"] == "win"));

    let (st, _, body) = s
        .post(
            TB,
            json!({"fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "moves": ["a1d1"]}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["side_to_move"], "black");
    assert_eq!(body["wdl"], "loss");
    assert_eq!(body["dtm"], 0);
    assert_eq!(body["best_move"], Value::Null);
    assert_eq!(body["moves"], json!([]));
}

#[actix_rt::test]
async fn best_moves_followed_to_the_mate_that_adjudicate_sees() {
    let s = start().await;
    // A horse against one advisor: a win (KNka), here some plies deep.
    let fen = "4k4/4a4/9/9/9/9/9/9/9/3K2N2 w - - 0 1";
    let (st, _, body) = s.post(TB, json!({"fen": fen})).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["wdl"], "win");
    let dtm = body["dtm"].as_u64().unwrap();
    assert!(dtm >= 5, "{body}");
    let mut moves: Vec<String> = Vec::new();
    for left in (0..dtm).rev() {
        let (st, _, body) = s.post(TB, json!({"fen": fen, "moves": moves})).await;
        assert_eq!(st, StatusCode::OK, "{body}");
        // The side to move wins when an odd number of plies is left.
        let expected = if (left + 1) % 2 == 1 { "win" } else { "loss" };
        assert_eq!(body["wdl"], expected, "{body}");
        assert_eq!(body["dtm"], left + 1, "{body}");
        moves.push(body["best_move"].as_str().unwrap().to_owned());
    }
    let (st, _, body) = s.post(ADJ, json!({"fen": fen, "moves": moves})).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "decisive", "{body}");
    assert_eq!(body["winner"], "red", "{body}");
    assert!(
        ["checkmate", "stalemate"].contains(&body["reason"].as_str().unwrap()),
        "{body}"
    );
}

#[actix_rt::test]
async fn colours_exchanged_notations_and_the_rule() {
    let s = start().await;
    // Black's chariot: the table of KRk read turned over.
    let (st, _, body) = s
        .post(
            TB,
            json!({"fen": "4k4/r8/9/9/9/9/9/9/9/3K5 b - - 0 1", "notation": "wxf"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["table"], "Kkr");
    assert_eq!(body["side_to_move"], "black");
    assert_eq!(body["wdl"], "win");
    assert_eq!(body["dtm"], 1);
    // Black's files count from Black's right: the chariot is on file 1.
    let at_once: Vec<&Value> = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["dtm"] == 1)
        .map(|m| &m["move"])
        .collect();
    assert_eq!(at_once, [&json!("R1+7"), &json!("R1.4")], "{body}");
    assert_eq!(body["best_move"], "R1+7");
    // Black can only check for ever with its horse: lost under the rule.
    let (st, _, body) = s
        .post(TB, json!({"fen": "9/9/4k4/9/9/9/9/3n5/9/R2K5 b - - 0 1"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["wdl"], "loss");
    assert_eq!(body["decided_by"], "perpetual_check");
    assert_eq!(body["dtm"], Value::Null);
    // A draw has neither distance nor decider.
    let (st, _, body) = s
        .post(TB, json!({"fen": "3ak4/4a4/9/9/9/9/9/9/4N4/3K5 w - - 0 1"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["table"], "KNkaa");
    assert_eq!(body["wdl"], "draw");
    assert_eq!(body["dtm"], Value::Null);
    assert_eq!(body["decided_by"], Value::Null);
}

#[actix_rt::test]
async fn positions_outside_the_tables_are_refused() {
    let s = start().await;
    let r = s.post(TB, json!({})).await;
    assert_problem(&r, 422, "not_in_tablebase");
    assert_eq!(r.2["field"], "fen");
    let r = s
        .post(TB, json!({"fen": "4k4/9/4r4/9/9/9/9/9/R8/3K1R3 w - - 0 1"}))
        .await;
    assert_problem(&r, 422, "not_in_tablebase");
    let detail = r.2["detail"].as_str().unwrap();
    assert!(
        detail.contains("KRRkr") && detail.contains("3 pieces"),
        "{detail}"
    );
    // A soldier behind its starting rank: no game brings it there.
    let r = s
        .post(TB, json!({"fen": "3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1"}))
        .await;
    assert_problem(&r, 422, "not_in_tablebase");
    assert!(r.2["detail"].as_str().unwrap().contains("soldier"));
    // The tables are Xiangqi's: no such route for the other variants.
    let r = s.post("/v1/variants/taxi/tablebase", json!({})).await;
    assert_eq!(r.0, StatusCode::NOT_FOUND);
    // A bad FEN is the usual problem.
    let r = s.post(TB, json!({"fen": "nonsense"})).await;
    assert_problem(&r, 422, "invalid_fen");
}
