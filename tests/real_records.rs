//! Records as sites and clubs really write them, through the real server:
//! wxf.ca's exports (full-width WXF with move pairs written together and
//! tandem markers first; its traditional and ICCS exports), an
//! xqbase-style record in GBK, a damaged tag line with full-width move
//! numbers, an over-the-board game that played on past a repetition
//! ruling, and a chess PGN (Morphy's Opera game) read as Taxi chess.
//! Also the refusal reasons in every notation, the one spelling policy,
//! and PGN written in Xiangqi's conventions.
//!
//! `tests/data/pgn/sites/README.md` says where each format comes from.

mod common;

use common::http::{assert_problem, start, Server};
use serde_json::{json, Value};

const WXFCA_WXF: &str = include_str!("data/pgn/sites/wxfca-wxf.pgn");
const WXFCA_CHINESE: &str = include_str!("data/pgn/sites/wxfca-chinese.pgn");
const WXFCA_ICCS: &str = include_str!("data/pgn/sites/wxfca-iccs.pgn");
const XQBASE_GBK: &[u8] = include_bytes!("data/pgn/sites/xqbase-gbk.pgn");
const DAMAGED: &str = include_str!("data/pgn/sites/damaged-tag.pgn");
const OTB: &str = include_str!("data/pgn/sites/otb-perpetual-check.pgn");
const OPERA: &str = include_str!("data/pgn/sites/opera-game.pgn");

const XQ: &str = "/v1/variants/xiangqi";

/// The five games of the wxf.ca files: result, reason, plies.
const WXFCA_GAMES: [(&str, &str, u64); 5] = [
    ("1-0", "checkmate", 105),
    ("1-0", "checkmate", 247),
    ("0-1", "checkmate", 268),
    ("1/2-1/2", "repetition", 131),
    ("0-1", "checkmate", 154),
];

/// Posts a PGN file as the batch's body.
async fn batch_file(s: &Server, variant: &str, body: Vec<u8>, content_type: &str) -> (u16, Value) {
    let r = s
        .client
        .post(format!("{}/v1/variants/{variant}/adjudicate/batch", s.base))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

/// A game's verdict: what three answers about one game must share.
fn verdict(result: &Value) -> Value {
    json!([
        result["result"],
        result["reason"],
        result["ended_at_ply"],
        result["fen"]
    ])
}

/// wxf.ca's three exports of the same games read alike, game by game, as a
/// PGN body and as a `pgn` field; every game answers with its tags and the
/// line it begins on.
#[actix_rt::test]
async fn a_sites_multi_game_exports_read_in_every_notation() {
    let s = start().await;
    let mut answers = Vec::new();
    for file in [WXFCA_WXF, WXFCA_CHINESE, WXFCA_ICCS] {
        let (st, body) = batch_file(
            &s,
            "xiangqi",
            file.as_bytes().to_vec(),
            "application/x-chess-pgn",
        )
        .await;
        assert_eq!(st, 200, "{body}");
        assert_eq!(body["games"], 5, "{body}");
        assert_eq!(body["errors"], 0, "{body}");
        // The same file in a JSON body.
        let (st, _, as_field) = s
            .post(&format!("{XQ}/adjudicate/batch"), json!({"pgn": file}))
            .await;
        assert_eq!(st, 200);
        assert_eq!(as_field["results"], body["results"]);
        answers.push(body);
    }
    for (i, (result, reason, plies)) in WXFCA_GAMES.into_iter().enumerate() {
        let games: Vec<&Value> = answers.iter().map(|a| &a["results"][i]).collect();
        for g in &games {
            assert_eq!(g["index"], i);
            assert_eq!(g["line"], 1 + 6 * i as u64, "{g}");
            assert_eq!(g["tags"]["Event"], format!("Self-play {}", i + 1));
            assert_eq!(g["tags"].as_object().unwrap().len(), 3);
            assert_eq!(g["result"]["result"], result, "{g}");
            assert_eq!(g["result"]["reason"], reason, "{g}");
            assert_eq!(g["result"]["plies"], plies, "{g}");
            assert_eq!(g["result"]["moves_after_end"], 0);
        }
        assert_eq!(verdict(&games[0]["result"]), verdict(&games[1]["result"]));
        assert_eq!(verdict(&games[0]["result"]), verdict(&games[2]["result"]));
    }
    // One game of the full-width file, on its own: a move pair written
    // together and tandem markers written first (`＋Ｃ－８`).
    let first = WXFCA_WXF.split("\n\n[").next().unwrap();
    assert!(first.contains("＋Ｃ－８"), "{first}");
    let (st, _, one) = s
        .post(&format!("{XQ}/adjudicate"), json!({"pgn": first}))
        .await;
    assert_eq!(st, 200, "{one}");
    assert_eq!(one["reason"], "checkmate");
    assert_eq!(one["plies"], 105);
    // As an NDJSON stream: one line per game, in order.
    let r = s
        .client
        .post(format!("{}{XQ}/adjudicate/batch", s.base))
        .header("content-type", "application/x-chess-pgn")
        .header("accept", "application/x-ndjson")
        .body(WXFCA_WXF)
        .send()
        .await
        .unwrap();
    let text = r.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    // Tags in the order written.
    assert!(
        text.contains(r#""tags":{"Event":"Self-play 1","Red":"Arbiter A","Black":"Arbiter B"}"#),
        "{text}"
    );
    assert_eq!(lines[3]["tags"]["Event"], "Self-play 4");
}

/// Chinese sites export in GBK: a PGN body that is not UTF-8 is read as
/// GB18030, or in the charset its type names.
#[actix_rt::test]
async fn a_gbk_record_reads_with_or_without_its_charset() {
    let s = start().await;
    for content_type in [
        "application/x-chess-pgn",
        "application/x-chess-pgn; charset=gbk",
        "application/vnd.chess-pgn; charset=GB18030",
    ] {
        let (st, body) = batch_file(&s, "xiangqi", XQBASE_GBK.to_vec(), content_type).await;
        assert_eq!(st, 200, "{content_type}: {body}");
        let game = &body["results"][0];
        assert_eq!(game["tags"]["Red"], "引擎甲", "{game}");
        assert_eq!(game["tags"]["Event"], "自战对局");
        assert_eq!(game["result"]["reason"], "checkmate", "{game}");
        assert_eq!(game["result"]["plies"], 97);
        assert_eq!(game["result"]["recorded_result_agrees"], true);
    }
    // A charset the bytes are not in is named in the refusal.
    let (st, body) = batch_file(
        &s,
        "xiangqi",
        XQBASE_GBK.to_vec(),
        "application/x-chess-pgn; charset=utf-8",
    )
    .await;
    assert_eq!(st, 422, "{body}");
    assert_eq!(body["code"], "invalid_pgn");
    assert!(
        body["detail"].as_str().unwrap().contains("charset=gbk"),
        "{body}"
    );
}

/// A tag line with an unescaped quote loses nothing: it is read leniently
/// with a warning and the moves are judged; full-width move-number dots
/// (`1．`, `２．`) are move numbers.
#[actix_rt::test]
async fn a_damaged_tag_and_full_width_numbers_lose_nothing() {
    let s = start().await;
    let (st, _, body) = s
        .post(&format!("{XQ}/adjudicate"), json!({"pgn": DAMAGED}))
        .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["reason"], "checkmate");
    assert_eq!(body["plies"], 149);
    assert_eq!(body["recorded_result_agrees"], true);
    assert_eq!(body["warnings"][0]["code"], "damaged_tag");
    assert_eq!(
        body["warnings"][0]["message"],
        "pgn: line 1: the tag line [Event \"\"Huangshan Cup\" rapid\"] is not [Name \"value\"]; it was read as Event = \"\"Huangshan Cup\" rapid\""
    );
    // In a batch the tag is echoed as read.
    let (_, _, batch) = s
        .post(&format!("{XQ}/adjudicate/batch"), json!({"pgn": DAMAGED}))
        .await;
    assert_eq!(
        batch["results"][0]["tags"]["Event"],
        "\"Huangshan Cup\" rapid"
    );
    assert_eq!(
        batch["results"][0]["result"]["warnings"][0]["code"],
        "damaged_tag"
    );
}

/// An over-the-board game: Black checks perpetually, is ruled against at
/// ply 149, changes, and wins by stalemate at ply 178. Under the live
/// rules the game ends at the ruling (a result nobody played); with
/// `repetition_ends_game: false` the ruling is an event and the game goes
/// on to the result the record states.
#[actix_rt::test]
async fn an_over_the_board_record_plays_on_past_a_ruling() {
    let s = start().await;
    let adj = format!("{XQ}/adjudicate");
    let (st, _, live) = s.post(&adj, json!({"pgn": OTB})).await;
    assert_eq!(st, 200, "{live}");
    assert_eq!(
        (&live["result"], &live["reason"], &live["ended_at_ply"]),
        (&json!("1-0"), &json!("perpetual_check"), &json!(149))
    );
    assert_eq!(live["moves_after_end"], 29);
    assert_eq!(live["recorded_result_agrees"], false);
    assert!(live.get("repetition_events").is_none());

    let otb = json!({"repetition_ends_game": false});
    let (st, _, played) = s.post(&adj, json!({"pgn": OTB, "rules": otb})).await;
    assert_eq!(st, 200, "{played}");
    assert_eq!(
        (
            &played["result"],
            &played["reason"],
            &played["ended_at_ply"]
        ),
        (&json!("0-1"), &json!("stalemate"), &json!(178))
    );
    assert_eq!(played["recorded_result_agrees"], true);
    let events = played["repetition_events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "{played}");
    assert_eq!(events[0]["ply"], 149);
    assert_eq!(events[0]["reason"], "perpetual_check");
    assert_eq!(events[0]["winner"], "red");
    assert_eq!(events[0]["result"], "1-0");
    assert_eq!(events[0]["repetition"]["in_breach"], "black");
    assert_eq!(
        events[0]["repetition"]["cycle"],
        json!({"from_ply": 141, "to_ply": 149})
    );
    assert!(events[0]["explanation"]
        .as_str()
        .unwrap()
        .contains("Black gave check with every move"));

    // The batch takes the option for every game of a file.
    let (_, _, batch) = s
        .post(
            &format!("{XQ}/adjudicate/batch"),
            json!({"pgn": OTB, "rules": otb}),
        )
        .await;
    assert_eq!(
        batch["results"][0]["result"]["reason"], "stalemate",
        "{batch}"
    );
    let (_, body) =
        batch_file_query(&s, OTB, "rules=%7B%22repetition_ends_game%22%3Afalse%7D").await;
    assert_eq!(
        body["results"][0]["result"]["reason"], "stalemate",
        "{body}"
    );
    assert_eq!(
        body["results"][0]["result"]["repetition_events"][0]["ply"],
        149
    );
}

/// Posts a Xiangqi PGN file as the batch's body with a query string.
async fn batch_file_query(s: &Server, file: &str, query: &str) -> (u16, Value) {
    let r = s
        .client
        .post(format!("{}{XQ}/adjudicate/batch?{query}", s.base))
        .header("content-type", "application/x-chess-pgn")
        .body(file.to_owned())
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

/// Morphy's Opera game as Taxi chess: refused at `O-O-O` for the fare,
/// in the record's SAN, with the reason the coordinates would get.
#[actix_rt::test]
async fn a_chess_record_read_as_taxi_chess_says_why_it_stops() {
    let s = start().await;
    let resp = s
        .post("/v1/variants/taxi/adjudicate", json!({"pgn": OPERA}))
        .await;
    assert_problem(&resp, 422, "illegal_move");
    let body = resp.2;
    assert_eq!(body["reason_code"], "insufficient_funds");
    assert_eq!(body["move"], "O-O-O");
    assert_eq!(body["move_index"], 22);
    assert_eq!(
        body["detail"],
        "pgn: move 12 for White, 'O-O-O' (line 11): it costs 5 (castling queen side), and White has 4 (2 plus income 2)"
    );
}

/// A written move that names a piece and a point refuses with the reason
/// and code its coordinates get, in every notation.
#[actix_rt::test]
async fn every_notation_explains_a_refusal() {
    let s = start().await;
    let validate = |variant: &str| format!("/v1/variants/{variant}/validate");
    // (variant, fen, [(notation, move)] of one illegal move, its code)
    let blocked = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1R7/1NBAKABNR w - - 0 1";
    let cases = [
        (
            "xiangqi",
            blocked,
            vec![
                ("iccs", "b0c2"),
                ("fairy", "b1c3"),
                ("wxf", "H8+7"),
                ("chinese", "马八进七"),
            ],
            "blocked",
        ),
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            vec![("iccs", "h2h8"), ("wxf", "C2+6"), ("chinese", "炮二进六")],
            "blocked",
        ),
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            vec![("iccs", "g3f3"), ("wxf", "P3.4"), ("chinese", "兵三平四")],
            "not_crossed",
        ),
        (
            "taxi",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 2/2",
            vec![("uci", "e1c1"), ("san", "O-O-O")],
            "insufficient_funds",
        ),
        (
            "taxi",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 16/16",
            vec![("uci", "f1c4"), ("san", "Bc4")],
            "bad_geometry",
        ),
    ];
    for (variant, fen, written, code) in cases {
        let mut reasons = Vec::new();
        for (notation, mv) in written {
            let fairy = notation == "fairy";
            let (st, _, body) = s
                .post(
                    &validate(variant),
                    json!({"fen": fen, "move": mv, "notation": notation}),
                )
                .await;
            assert_eq!(st, 200, "{body}");
            assert_eq!(body["legal"], false);
            assert_eq!(body["reason_code"], code, "{notation} {mv}: {body}");
            // The same words (Fairy coordinates name points by ranks 1-10).
            if !fairy {
                reasons.push(body["reason"].clone());
            }
        }
        assert!(reasons.windows(2).all(|w| w[0] == w[1]), "{reasons:?}");
    }
    // A piece the mover does not have where the text puts it.
    let (_, _, body) = s
        .post(
            &validate("xiangqi"),
            json!({"move": "C5.4", "notation": "wxf"}),
        )
        .await;
    assert_eq!(body["reason_code"], "no_piece");
    assert_eq!(
        body["reason"],
        "Red has no cannon on file 5 (files are counted 1-9 from Red's right)"
    );
}

/// One spelling policy: coordinates in any case, with a hyphen, promotion
/// letters in any case, full-width forms, and notation names in any case.
#[actix_rt::test]
async fn one_spelling_policy_for_every_variant() {
    let s = start().await;
    let lm = |variant: &str| format!("/v1/variants/{variant}/legal-moves");
    let cases = [
        (
            "xiangqi",
            json!({"moves": ["H2-E2", "ｈ９ｇ７"], "notation": "ICCS"}),
            2,
        ),
        (
            "xiangqi",
            json!({"moves": ["Ｃ２＝５", "h8+7"], "notation": "WXF"}),
            2,
        ),
        (
            "taxi",
            json!({"moves": ["E2E4", "e7-e5", "Ｇ１Ｆ３"], "notation": "UCI"}),
            3,
        ),
        (
            "taxi",
            json!({"moves": ["e4", "Ｅ５"], "notation": "San"}),
            -1,
        ),
        (
            "tamerlane",
            json!({"moves": ["B3-B4", "b8B7"], "notation": "Coordinate"}),
            2,
        ),
    ];
    for (variant, body, plies) in cases {
        let (st, _, answer) = s.post(&lm(variant), body.clone()).await;
        if plies < 0 {
            // SAN keeps its case: `Ｅ５` is no pawn move.
            assert_eq!(st, 422, "{answer}");
            assert_eq!(answer["move_index"], 1);
            continue;
        }
        assert_eq!(st, 200, "{variant} {body}: {answer}");
        assert_eq!(answer["plies"], plies);
    }
    // A promotion letter in any case, with or without `=`.
    for mv in ["a7b8q", "a7b8Q", "a7b8=Q", "A7-B8=q"] {
        let (st, _, body) = s
            .post(
                "/v1/variants/taxi/validate",
                json!({"fen": "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1 20/20", "move": mv}),
            )
            .await;
        assert_eq!(st, 200);
        assert_eq!(body["legal"], true, "{mv}: {body}");
    }
    // A notation no variant has is still refused with the names.
    let resp = s.post(&lm("xiangqi"), json!({"notation": "Morse"})).await;
    assert_problem(&resp, 422, "invalid_notation");
}

/// Xiangqi records are written as Xiangqi sites write them: `[Red]` and
/// `[Black]`, the record's own tags in their order, `[Format "Chinese"]`.
#[actix_rt::test]
async fn pgn_out_in_xiangqi_conventions() {
    let s = start().await;
    let record = "[Game \"Chinese Chess\"]\n[Event \"Club\"]\n[Red \"Zhang\"]\n[Black \"Li\"]\n[Opening \"Central cannon\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *";
    let r = s
        .client
        .post(format!("{}{XQ}/adjudicate", s.base))
        .header("accept", "application/x-chess-pgn")
        .json(&json!({"pgn": record}))
        .send()
        .await
        .unwrap();
    let pgn = r.text().await.unwrap();
    let tags: Vec<&str> = pgn.lines().take_while(|l| l.starts_with('[')).collect();
    assert_eq!(
        tags,
        [
            "[Event \"Club\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[Red \"Zhang\"]",
            "[Black \"Li\"]",
            "[Result \"*\"]",
            "[Variant \"Xiangqi\"]",
            "[Format \"Chinese\"]",
            "[Game \"Chinese Chess\"]",
            "[Opening \"Central cannon\"]",
        ],
        "{pgn}"
    );
    assert!(!pgn.contains("[White"), "{pgn}");
    assert!(pgn.contains("1. 炮二平五 马８进７ 2. 马二进三"), "{pgn}");
    // Written back, it reads again to the same game.
    let (_, _, again) = s
        .post(&format!("{XQ}/adjudicate"), json!({"pgn": pgn}))
        .await;
    assert_eq!(again["plies"], 3, "{again}");
}
