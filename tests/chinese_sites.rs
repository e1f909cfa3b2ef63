//! Records as Chinese-speaking sites and programs export them, sent as they
//! come (no charset, no cleaning) through the real server: xqbase.com's
//! PGN with its trailer, DhtmlXQ blocks, dpxq's plain text, PlayOK's WXF
//! file, compact text, XQF files (plain and enciphered), and a Big5 file of
//! 208 computer games with tandem pieces written by their file and
//! records of tags alone. Each game must reach the same final position as
//! an independent conversion (pyffish playing the moves, cchess reading
//! XQF: `tests/data/records/expected.json`, made as its README says).

mod common;

use common::http::{assert_problem, start, Server};
use serde_json::{json, Value};

const XQ: &str = "/v1/variants/xiangqi";

/// The samples: file, its bytes, the format and encoding the answer must
/// name.
fn samples() -> Vec<(
    &'static str,
    &'static [u8],
    &'static str,
    Option<&'static str>,
)> {
    macro_rules! sample {
        ($name:literal, $format:literal, $encoding:expr) => {
            (
                $name,
                &include_bytes!(concat!("data/records/", $name))[..],
                $format,
                $encoding,
            )
        };
    }
    vec![
        sample!("xqbase-ccgc-01.pgn", "pgn", Some("gb18030")),
        sample!("xqbase-ccgc-02.pgn", "pgn", Some("gb18030")),
        sample!("walker8088-test.pgn", "pgn", Some("gb18030")),
        sample!("walker8088-test.xqf", "xqf", None),
        sample!("walker8088-test1.xqf", "xqf", None),
        sample!("44.ubb", "dhtmlxq", Some("UTF-8")),
        sample!("45.ubb", "dhtmlxq", Some("UTF-8")),
        sample!("59.ubb", "dhtmlxq", Some("UTF-8")),
        sample!("case2_dpxq_ubb.txt", "dhtmlxq", Some("UTF-8")),
        sample!("case1_dpxq_text.txt", "dpxq_text", Some("UTF-8")),
        sample!("case10_huaian_dpxq_text.txt", "dpxq_text", Some("UTF-8")),
        sample!("case5_playok_wxf.txt", "playok_wxf", Some("UTF-8")),
        sample!("case7_compact.txt", "compact", Some("UTF-8")),
        sample!("ccpd-computer.big5.pgn", "pgn", Some("Big5")),
    ]
}

async fn batch(s: &Server, content_type: &str, body: &[u8], rules: Option<&str>) -> (u16, Value) {
    let query = rules.map_or(String::new(), |r| format!("?rules={}", urlencode(r)));
    let r = s
        .post_raw(
            &format!("{XQ}/adjudicate/batch{query}"),
            content_type,
            body.to_vec(),
        )
        .await;
    (r.0.as_u16(), r.2)
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Every sample, sent raw as `application/x-chess-pgn`, is read in its
/// format and encoding, and every game reaches the independent
/// conversion's final position (where a game ended before its record did,
/// every move after the end is read too: plies + moves after the end);
/// three games whose mated side then "moves" (a step into check as it
/// resigns) end at the mate, that step counted after the end.
#[actix_rt::test]
async fn every_sample_reads_to_the_independent_final_position() {
    let s = start().await;
    let expected: Value = serde_json::from_str(include_str!("data/records/expected.json")).unwrap();
    let mut games = 0;
    for (name, bytes, format, encoding) in samples() {
        let (st, body) = batch(&s, "application/x-chess-pgn", bytes, None).await;
        assert_eq!(st, 200, "{name}: {body}");
        assert_eq!(body["format"], format, "{name}");
        assert_eq!(body["encoding"], json!(encoding), "{name}");
        let want = expected[name].as_array().unwrap();
        assert_eq!(body["games"], want.len(), "{name}");
        for (i, (got, want)) in body["results"]
            .as_array()
            .unwrap()
            .iter()
            .zip(want)
            .enumerate()
        {
            games += 1;
            assert_eq!(got["format"], format, "{name} #{i}");
            if let Some(at) = want.get("illegal_at") {
                // The mated side's step into check after the mate (as it
                // resigns) is counted after the end, not refused.
                let r = &got["result"];
                assert_eq!(r["reason"], "checkmate", "{name} #{i}: {got}");
                assert_eq!(r["ended_at_ply"], *at, "{name} #{i}: {got}");
                assert_eq!(r["plies"], *at, "{name} #{i}: {got}");
                assert!(r["moves_after_end"].as_u64().unwrap() >= 1, "{got}");
                let fen: Vec<&str> = r["fen"].as_str().unwrap().split(' ').take(2).collect();
                assert_eq!(fen.join(" "), want["fen"].as_str().unwrap(), "{name} #{i}");
                continue;
            }
            let r = &got["result"];
            assert!(r.is_object(), "{name} #{i}: {got}");
            let plies = r["plies"].as_u64().unwrap() + r["moves_after_end"].as_u64().unwrap();
            assert_eq!(plies, want["plies"], "{name} #{i}");
            if r["moves_after_end"] == 0 {
                let fen: Vec<&str> = r["fen"].as_str().unwrap().split(' ').take(2).collect();
                assert_eq!(fen.join(" "), want["fen"].as_str().unwrap(), "{name} #{i}");
            }
        }
    }
    assert_eq!(games, 208 + 13);
}

/// The Big5 file: 208 records, four of them tags alone (each its own game
/// with a warning, never merged into the next), tags without duplicate
/// keys; 126 tandem moves written by their file read; all 208 games read
/// (three end at a mate their records step past, as above).
#[actix_rt::test]
async fn the_big5_archive_reads_without_a_charset_and_keeps_every_record() {
    let s = start().await;
    let big5 = include_bytes!("data/records/ccpd-computer.big5.pgn");
    let (st, body) = batch(&s, "application/x-chess-pgn", big5, None).await;
    assert_eq!(st, 200);
    assert_eq!(body["games"], 208);
    assert_eq!(body["errors"], 0);
    let mut alone = 0;
    for g in body["results"].as_array().unwrap() {
        let Some(r) = g.get("result") else { continue };
        if r["plies"] == 0 {
            alone += 1;
            assert_eq!(r["warnings"][0]["code"], "no_moves", "{g}");
            assert!(g["tags"]["Event"].is_string());
        }
    }
    assert_eq!(alone, 4);
    // The same bytes, the charset named: the same answer.
    let (_, named) = batch(&s, "application/x-chess-pgn; charset=big5", big5, None).await;
    assert_eq!(named["results"], body["results"]);
    // Named wrongly: refused, saying what to do.
    let wrong = s
        .post_raw(
            &format!("{XQ}/adjudicate/batch"),
            "application/x-chess-pgn; charset=utf-8",
            big5.to_vec(),
        )
        .await;
    assert_problem(&wrong, 422, "invalid_pgn");
    assert!(wrong.2["detail"]
        .as_str()
        .unwrap()
        .contains("not valid UTF-8"));
}

/// Bytes in none of the encodings tried are refused naming them and how to
/// name one; a body of nothing that a game is made of is refused, not
/// answered as an empty game.
#[actix_rt::test]
async fn undecodable_and_meaningless_bodies_are_refused() {
    let s = start().await;
    let r = s
        .post_raw(
            &format!("{XQ}/adjudicate/batch"),
            "application/x-chess-pgn",
            b"1. \x80\xff".to_vec(),
        )
        .await;
    assert_problem(&r, 422, "invalid_pgn");
    let detail = r.2["detail"].as_str().unwrap();
    for word in ["UTF-8", "GB18030", "Big5", "charset="] {
        assert!(detail.contains(word), "{detail}");
    }
    let r = s
        .post(
            &format!("{XQ}/adjudicate"),
            json!({"pgn": "[# a bracket]\n[!]"}),
        )
        .await;
    assert_problem(&r, 422, "invalid_pgn");
    assert!(
        r.2["detail"].as_str().unwrap().contains("not understood"),
        "{}",
        r.2
    );
    // A damaged XQF file says where it ends.
    let xqf = include_bytes!("data/records/walker8088-test.xqf");
    let r = s
        .post_raw(
            &format!("{XQ}/adjudicate/batch"),
            "application/x-xqf",
            xqf[..1100].to_vec(),
        )
        .await;
    assert_problem(&r, 422, "invalid_pgn");
    assert!(r.2["detail"].as_str().unwrap().contains("XQF"), "{}", r.2);
}

/// XQF by its media type and by its signature alike; its tags and start
/// position come from the header, the result from its code.
#[actix_rt::test]
async fn an_xqf_file_reads_by_media_type_or_signature() {
    let s = start().await;
    let xqf = include_bytes!("data/records/walker8088-test.xqf");
    let (st, typed) = batch(&s, "application/x-xqf", xqf, None).await;
    assert_eq!(st, 200, "{typed}");
    let (_, sniffed) = batch(&s, "application/x-chess-pgn", xqf, None).await;
    assert_eq!(typed["results"], sniffed["results"]);
    let g = &typed["results"][0];
    assert_eq!(g["tags"]["Red"], "柳大华");
    assert_eq!(g["tags"]["Result"], "0-1");
    assert_eq!(g["result"]["recorded_result"], "0-1");
    assert_eq!(g["result"]["plies"], 110);
    // The plain (version 10) copy of the same game reads alike.
    let plain = include_bytes!("data/records/walker8088-test1.xqf");
    let (_, p) = batch(&s, "application/x-xqf", plain, None).await;
    assert_eq!(p["results"][0]["result"]["fen"], g["result"]["fen"]);
}

/// A single game's `pgn` field takes the same formats: a DhtmlXQ block, a
/// dpxq text, an xqbase record with its trailer (a warning), and answers
/// with the format it read.
#[actix_rt::test]
async fn a_single_record_in_any_format_through_adjudicate() {
    let s = start().await;
    for (text, format, plies) in [
        (
            include_str!("data/records/case2_dpxq_ubb.txt"),
            "dhtmlxq",
            107,
        ),
        (
            include_str!("data/records/case1_dpxq_text.txt"),
            "dpxq_text",
            107,
        ),
        (
            include_str!("data/records/case5_playok_wxf.txt"),
            "playok_wxf",
            55,
        ),
        (
            include_str!("data/records/case7_compact.txt"),
            "compact",
            60,
        ),
    ] {
        let (st, _, body) = s
            .post(&format!("{XQ}/adjudicate"), json!({"pgn": text}))
            .await;
        assert_eq!(st, 200, "{body}");
        assert_eq!(body["record_format"], format);
        assert_eq!(body["plies"], plies, "{format}");
    }
    let gbk = include_bytes!("data/records/xqbase-ccgc-01.pgn");
    let (text, _, bad) = encoding_rs::GB18030.decode(gbk);
    assert!(!bad);
    let (st, _, body) = s
        .post(&format!("{XQ}/adjudicate"), json!({"pgn": text}))
        .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["warnings"][0]["code"], "trailer");
    assert_eq!(body["recorded_result"], "0-1");
}

/// A tandem piece written by its file: read as the one that can move, in
/// `legal-moves`' history and in `validate`; where both can, refused with
/// both readings.
#[actix_rt::test]
async fn tandem_pieces_written_by_their_file() {
    let s = start().await;
    let fen = "3k5/9/5r3/5r3/9/9/9/9/9/4K4 b - - 0 1";
    let (st, _, body) = s
        .post(
            &format!("{XQ}/validate"),
            json!({"fen": fen, "move": "車６退１", "notation": "chinese"}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["legal"], true, "{body}");
    assert_eq!(body["details"]["iccs"], "f7f8", "{body}");
    assert_eq!(body["details"]["chinese"], "后车退１");
    let both = "3k5/9/5r3/9/9/5r3/9/9/9/4K4 b - - 0 1";
    let (st, _, body) = s
        .post(
            &format!("{XQ}/validate"),
            json!({"fen": both, "move": "車６進１", "notation": "chinese"}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["legal"], false);
    assert_eq!(body["reason_code"], "ambiguous");
    let why = body["reason"].as_str().unwrap();
    assert!(
        why.contains("前车进１ (f4 to f3)") && why.contains("后车进１ (f7 to f6)"),
        "{why}"
    );
    let r = s
        .post(
            &format!("{XQ}/legal-moves"),
            json!({"fen": both, "moves": ["車６進１"], "notation": "chinese"}),
        )
        .await;
    assert_problem(&r, 422, "illegal_move");
    assert_eq!(r.2["reason_code"], "ambiguous");
}

/// PGN out keeps the record's result where the moves end nothing (Black
/// resigned: `0-1` stays, not `*`), and gives the rules' verdict where
/// they do, saying what the record said when it differs.
#[actix_rt::test]
async fn pgn_out_keeps_the_recorded_result_where_no_rule_ended_the_game() {
    let s = start().await;
    let pgn_out = |body: Value| {
        let s = &s;
        async move {
            let r = s
                .client
                .post(format!("{}{XQ}/adjudicate", s.base))
                .header("accept", "application/x-chess-pgn")
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            r.text().await.unwrap()
        }
    };
    let gbk = include_bytes!("data/records/xqbase-ccgc-01.pgn");
    let (text, _, _) = encoding_rs::GB18030.decode(gbk);
    let out = pgn_out(json!({"pgn": text})).await;
    assert!(out.contains("[Result \"0-1\"]"), "{out}");
    assert!(out.trim_end().ends_with("0-1"), "{out}");
    assert!(out.contains("the record's result 0-1 stands"), "{out}");
    // Mate on the board, the record says otherwise: the verdict, and both.
    let mate = "[Result \"0-1\"]\n[FEN \"3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1\"]\n\n1. a0a9 0-1\n";
    let out = pgn_out(json!({"pgn": mate})).await;
    assert!(out.contains("[Result \"1-0\"]"), "{out}");
    assert!(out.contains("the record says 0-1"), "{out}");
    assert!(out.trim_end().ends_with("1-0"), "{out}");
}

/// The nine-move rule counts only cyclically repeating attacks (the
/// binding page, 24.13; `docs/rules/xiangqi.md`: each of the nine moves
/// part of a cycle). Over the Big5 archive under the Chinese code it ends
/// no game: not game 104, whose nine forbidden moves the unrestricted
/// reading ruled a loss (no position comes back), nor games 103 and 113,
/// which the reading "one of the nine brings a position back" ended (a
/// few moves of theirs cycle, the rest go on): 113 goes on to its mate.
#[actix_rt::test]
async fn the_nine_move_rule_catches_only_repeating_attacks_in_real_games() {
    let s = start().await;
    let big5 = include_bytes!("data/records/ccpd-computer.big5.pgn");
    let (st, body) = batch(
        &s,
        "application/x-chess-pgn",
        big5,
        Some(r#"{"repetition":"chinese"}"#),
    )
    .await;
    assert_eq!(st, 200);
    let mut nine = Vec::new();
    for g in body["results"].as_array().unwrap() {
        let Some(r) = g.get("result") else { continue };
        if r["reason"] == "nine_forbidden_moves" {
            nine.push(g["index"].as_u64().unwrap());
            assert_eq!(r["recorded_result"], "*", "{g}");
        }
    }
    assert_eq!(nine, Vec::<u64>::new());
    let g104 = &body["results"][104]["result"];
    assert_eq!(g104["status"], "ongoing", "{g104}");
    let g113 = &body["results"][113]["result"];
    assert_eq!(g113["reason"], "checkmate", "{g113}");
    assert_eq!(g113["ended_at_ply"], 120, "{g113}");
}

/// Two master games the earlier reading of the nine-move rule ruled
/// against their records. In 2008 金海英 v 張國鳳 Black's mating attack
/// closes in with soldier advances and never brings a position back: the
/// game goes on to the end, and the record's 0-1 stands. In 1978 梁文斌 v
/// 李來群 Black attacks with checks, threats and chases from ply 66 and
/// then checks to and fro from ply 78 until the position stands a third
/// time: only those last moves cycle, so the nine-move rule does not end
/// the game at ply 82 as it did; the repetition does at ply 85 (perpetual
/// check, the same under both codes; the players, in 1978, went on).
#[actix_rt::test]
async fn the_nine_move_rule_leaves_attacks_that_do_not_cycle_to_master_games() {
    let s = start().await;
    let games = include_bytes!("data/records/ccpd-master.big5.pgn");
    for code in ["chinese", "asian"] {
        let rules = format!(r#"{{"repetition":"{code}"}}"#);
        let (st, body) = batch(&s, "application/x-chess-pgn", games, Some(&rules)).await;
        assert_eq!(st, 200, "{body}");
        assert_eq!(body["encoding"], "Big5", "{body}");
        let first = &body["results"][0]["result"];
        assert_eq!(first["status"], "ongoing", "{code}: {first}");
        assert_eq!(first["recorded_result"], "0-1", "{first}");
        assert_eq!(first["plies"], 80, "{first}");
        let second = &body["results"][1]["result"];
        assert_eq!(second["reason"], "perpetual_check", "{code}: {second}");
        assert_eq!(second["ended_at_ply"], 85, "{code}: {second}");
        assert_eq!(second["winner"], "red", "{code}: {second}");
    }
}

/// Four master games cut just before the move that completes a repetition
/// ruled under the Chinese code (the slowest of 550 such positions to mark,
/// `benches/repetition.rs` times them): `legal-moves` marks that move, and
/// only it, under each code as the file says (twice the Asian code draws
/// what the Chinese code rules forbidden; twice both codes rule a perpetual
/// chase, once for the mover and once against), and `validate` gives the
/// same mark.
#[actix_rt::test]
async fn legal_moves_marks_the_move_that_completes_a_real_repetition() {
    let s = start().await;
    let cuts = include_str!("data/records/ccpd-master-repetitions.txt");
    let mut seen = 0;
    for line in cuts.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('|').collect();
        let moves: Vec<&str> = fields[1].split_whitespace().collect();
        let expected: Vec<&str> = fields[2].split_whitespace().collect();
        let completing = expected[0];
        for (code, outcome, reason) in [
            ("chinese", expected[1], expected[2]),
            ("asian", expected[3], expected[4]),
        ] {
            let mark = json!({"outcome": outcome, "reason": reason});
            let body = json!({"fen": fields[0], "moves": moves, "notation": "iccs",
                              "rules": {"repetition": code}});
            let (st, _, answer) = s.post(&format!("{XQ}/legal-moves"), body.clone()).await;
            assert_eq!(st, 200, "{answer}");
            let marked: Vec<&Value> = answer["legal_moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m.get("repetition").is_some())
                .collect();
            assert_eq!(marked.len(), 1, "{code}: {marked:?}");
            assert_eq!(marked[0]["move"], completing, "{code}");
            assert_eq!(marked[0]["repetition"], mark, "{code}");
            let mut check = body;
            check["move"] = json!(completing);
            let (st, _, verdict) = s.post(&format!("{XQ}/validate"), check).await;
            assert_eq!(st, 200, "{verdict}");
            assert_eq!(verdict["legal"], true, "{verdict}");
            assert_eq!(verdict["details"]["repetition"], mark, "{code}: {verdict}");
        }
        seen += 1;
    }
    assert_eq!(seen, 4);
}
