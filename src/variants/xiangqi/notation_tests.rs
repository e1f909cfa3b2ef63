//! Xiangqi's notations: coordinates in both rank bases, WXF and Chinese
//! written and read back, the spellings sites use, and a written move
//! refused for its coordinates' reason.

use super::tests::pos;
use super::*;
use crate::variants::{Refusal, Variant};

#[test]
fn coordinates_in_both_rank_bases() {
    let p = pos(START_FEN);
    let iccs = p.parse_move("h2e2", Notation::Iccs).unwrap();
    assert_eq!(p.parse_move("h3e3", Notation::Fairy).unwrap(), iccs);
    assert_eq!(p.parse_move("H2-E2", Notation::Iccs).unwrap(), iccs);
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    let m = black.parse_move("a10a9", Notation::Fairy).unwrap();
    assert_eq!(black.write_move(m, Notation::Iccs), "a9a8");
    assert_eq!(black.write_move(m, Notation::Fairy), "a10a9");
}

fn notations(fen: &str, mv: &str) -> (String, String) {
    let p = pos(fen);
    let m = p.parse_move(mv, Notation::Iccs).unwrap();
    let wxf = p.write_move(m, Notation::Wxf);
    let chinese = p.write_move(m, Notation::Chinese);
    // Both read back to the same move.
    assert_eq!(p.parse_move(&wxf, Notation::Wxf).unwrap(), m, "{wxf}");
    assert_eq!(
        p.parse_move(&chinese, Notation::Chinese).unwrap(),
        m,
        "{chinese}"
    );
    (wxf, chinese)
}

#[test]
fn wxf_and_chinese_notation() {
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    let cases = [
        (START_FEN, "h2e2", "C2.5", "炮二平五"),
        (START_FEN, "b0c2", "H8+7", "马八进七"),
        (START_FEN, "g0e2", "E3+5", "相三进五"),
        (START_FEN, "f0e1", "A4+5", "仕四进五"),
        (START_FEN, "e0e1", "K5+1", "帅五进一"),
        (START_FEN, "c3c4", "P7+1", "兵七进一"),
        (START_FEN, "a0a2", "R9+2", "车九进二"),
        (START_FEN, "h2h9", "C2+7", "炮二进七"),
        (black, "h7e7", "C8.5", "炮８平５"),
        (black, "h9g7", "H8+7", "马８进７"),
        (black, "b9c7", "H2+3", "马２进３"),
        (black, "c6c5", "P3+1", "卒３进１"),
        (black, "d9e8", "A4+5", "士４进５"),
        (black, "g9e7", "E7+5", "象７进５"),
        // Tandem chariots: front and rear.
        (
            "3k5/9/9/9/9/9/R8/9/9/R3K4 w - - 0 1",
            "a3a5",
            "R++2",
            "前车进二",
        ),
        (
            "3k5/9/9/9/9/9/R8/9/9/R3K4 w - - 0 1",
            "a0a1",
            "R-+1",
            "后车进一",
        ),
        (
            "3k5/9/9/9/9/9/R8/9/9/R3K4 w - - 0 1",
            "a3b3",
            "R+.8",
            "前车平八",
        ),
        // Black tandem horses: black's front is the lower rank.
        (
            "3k5/9/n8/9/n8/9/9/9/9/4K4 b - - 0 1",
            "a5b3",
            "H++2",
            "前马进２",
        ),
        // Retreat of a horse names the file it lands on.
        (
            "3k5/9/9/9/9/9/9/2N6/9/4K4 w - - 0 1",
            "c2b0",
            "H7-8",
            "马七退八",
        ),
        // Three soldiers on one file: front, middle (by file), rear.
        (
            "3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1",
            "e7d7",
            "P+.6",
            "前兵平六",
        ),
        (
            "3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1",
            "e6d6",
            "P5.6",
            "中兵平六",
        ),
        (
            "3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1",
            "e5d5",
            "P-.6",
            "后兵平六",
        ),
        // Tandem soldiers on two files: the file replaces the letter.
        (
            "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
            "c6c7",
            "7++1",
            "前七进一",
        ),
        (
            "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
            "g5f5",
            "3-.4",
            "后三平四",
        ),
        // Five soldiers on one file.
        (
            "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
            "c9d9",
            "++.6",
            "前兵平六",
        ),
        (
            "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
            "c8d8",
            "P+.6",
            "二兵平六",
        ),
        (
            "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
            "c7d7",
            "P7.6",
            "三兵平六",
        ),
        (
            "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
            "c6d6",
            "P-.6",
            "四兵平六",
        ),
        (
            "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
            "c5d5",
            "--.6",
            "后兵平六",
        ),
    ];
    for (fen, mv, wxf, chinese) in cases {
        assert_eq!(
            notations(fen, mv),
            (wxf.to_owned(), chinese.to_owned()),
            "{fen} {mv}"
        );
    }
}

#[test]
fn wxf_and_chinese_input_spellings() {
    let p = pos(START_FEN);
    let m = p.parse_move("h2e2", Notation::Iccs).unwrap();
    for text in ["C2.5", "c2=5", "C2 . 5"] {
        assert_eq!(p.parse_move(text, Notation::Wxf).unwrap(), m, "{text}");
    }
    for text in ["炮二平五", "砲二平五", "炮2平5"] {
        assert_eq!(p.parse_move(text, Notation::Chinese).unwrap(), m, "{text}");
    }
    assert_eq!(
        p.parse_move("N8+7", Notation::Wxf).unwrap(),
        p.parse_move("b0c2", Notation::Iccs).unwrap()
    );
    // Full-width forms, as wxf.ca and Chinese sites export them.
    for text in ["Ｃ２＝５", "ｃ２．５", "Ｃ２．５"] {
        assert_eq!(p.parse_move(text, Notation::Wxf).unwrap(), m, "{text}");
    }
    assert_eq!(p.parse_move("炮２平５", Notation::Chinese).unwrap(), m);
    assert!(p
        .parse_move("C2.5x", Notation::Wxf)
        .unwrap_err()
        .is_syntax());
}

/// A tandem marker may stand before the piece letter (`+P+1`, as wxf.ca
/// writes it) or after it (`P++1`).
#[test]
fn tandem_markers_before_or_after_the_letter() {
    let p = pos("3k5/9/9/2P6/2P6/9/9/9/9/4K4 w - - 0 1");
    let front = p.parse_move("c6c7", Notation::Iccs).unwrap();
    let back = p.parse_move("c5b5", Notation::Iccs).unwrap();
    for text in ["P++1", "+P+1", "＋Ｐ＋１", "p++1"] {
        assert_eq!(p.parse_move(text, Notation::Wxf).unwrap(), front, "{text}");
    }
    for text in ["P-.8", "-P.8", "－Ｐ＝８"] {
        assert_eq!(p.parse_move(text, Notation::Wxf).unwrap(), back, "{text}");
    }
    let p = pos("3k5/9/9/9/9/9/9/2H6/9/2H1K4 w - - 0 1");
    let front = p.parse_move("c2d4", Notation::Iccs).unwrap();
    assert_eq!(p.parse_move("+H+6", Notation::Wxf).unwrap(), front);
    assert_eq!(p.parse_move("H++6", Notation::Wxf).unwrap(), front);
    assert_eq!(p.parse_move("前马进六", Notation::Chinese).unwrap(), front);
}

/// A WXF or Chinese move that no legal move matches is refused for the
/// reason its coordinates would be, when it names a piece and a point.
#[test]
fn written_moves_are_refused_for_the_coordinates_reason() {
    let refused = |fen: &str, text: &str, n: Notation| {
        let p = pos(fen);
        let written = p.parse_move(text, n).unwrap_err();
        (written.code(), written)
    };
    let start = START_FEN;
    // The chariot's path, the horse's leg, the elephant's eye, the
    // palace, the river: as `a0i0`, `b0a2`, ... would be refused.
    let cases = [
        (start, "R9.1", "a0i0"),
        (start, "R9+5", "a0a5"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1R7/1NBAKABNR w - - 0 1",
            "H8+7",
            "b0c2",
        ),
        (start, "H8+5", "b0e1"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3N5/R1BAKABNR w - - 0 1",
            "E7+5",
            "c0e2",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/6B2/P1P1P1P1P/1C5C1/9/RNBAKA1NR w - - 0 1",
            "E3+5",
            "g4e6",
        ),
        (start, "A4+3", "f0g1"),
        (start, "K5.4", "e0f0"),
        (start, "P3.4", "g3f3"),
        (start, "P3-1", "g3g2"),
        (start, "C2+6", "h2h8"),
    ];
    for (fen, wxf, iccs) in cases {
        let p = pos(fen);
        let coordinates = p.parse_move(iccs, Notation::Iccs).unwrap_err();
        let (code, written) = refused(fen, wxf, Notation::Wxf);
        assert_ne!(code, Refusal::NoSuchMove, "{wxf}");
        assert_eq!(written, coordinates, "{wxf} as {iccs}");
        // The same move in Chinese notation.
        let chinese: String = wxf
            .chars()
            .enumerate()
            .map(|(i, c)| match (i, c) {
                (0, 'R') => '车',
                (0, 'H') => '马',
                (0, 'E') => '相',
                (0, 'A') => '仕',
                (0, 'K') => '帅',
                (0, 'P') => '兵',
                (0, 'C') => '炮',
                (_, '+') => '进',
                (_, '-') => '退',
                (_, '.') => '平',
                (_, d) => "一二三四五六七八九"
                    .chars()
                    .nth(d.to_digit(10).unwrap() as usize - 1)
                    .unwrap(),
            })
            .collect();
        assert_eq!(
            refused(fen, &chinese, Notation::Chinese).1,
            coordinates,
            "{chinese}"
        );
    }
    // A piece the mover does not have on that file.
    let (code, why) = refused(start, "C5.4", Notation::Wxf);
    assert_eq!(code, Refusal::NoPiece);
    assert_eq!(
        why,
        MoveError::Illegal(Why::NotOnFile {
            kind: Kind::Cannon,
            file: 5
        })
    );
    // Tandem pieces that are not there: no point to name.
    assert_eq!(refused(start, "+C.5", Notation::Wxf).0, Refusal::NoSuchMove);
}

/// Two chariots on Red's file 6 (d5 and d4): the rear one alone can
/// retreat, the front one alone can advance.
const TANDEM: &str = "5k3/9/9/9/3R5/3R5/9/9/9/4K4 w - - 0 1";
/// Two chariots on file 6 (d5 and d2), both free to advance.
const TANDEM_FREE: &str = "5k3/9/9/9/3R5/9/9/3R5/9/4K4 w - - 0 1";

/// Real records write a piece of two on its file by the file number
/// (`車６退１`) when only one of them can make the move: it is that one's
/// move, in WXF, simplified and traditional Chinese, as SAN resolves by
/// legality; the exact forms still read as before.
#[test]
fn a_tandem_piece_named_by_its_file_is_the_one_that_can_move() {
    let p = pos(TANDEM);
    let iccs = |text: &str, n: Notation| {
        let m = p
            .parse_move(text, n)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        notation::coordinate_move(m, 0)
    };
    for (text, n, want) in [
        ("R6-1", Notation::Wxf, "d4d3"),
        ("R6+1", Notation::Wxf, "d5d6"),
        ("车六退一", Notation::Chinese, "d4d3"),
        ("車六進一", Notation::Chinese, "d5d6"),
        ("R--1", Notation::Wxf, "d4d3"),
        ("后车退一", Notation::Chinese, "d4d3"),
        ("R+.5", Notation::Wxf, "d5e5"),
    ] {
        assert_eq!(iccs(text, n), want, "{text}");
    }
    // Black's side: the issue's `車６退１`, chariots on f7 and f6 (Black
    // counts files from its right: f is its 6), the front one, f6, blocked.
    let black = pos("3k5/9/5r3/5r3/9/9/9/9/9/4K4 b - - 0 1");
    let m = black.parse_move("車６退１", Notation::Chinese).unwrap();
    assert_eq!(notation::coordinate_move(m, 0), "f7f8");
    let m = black.parse_move("R6+1", Notation::Wxf).unwrap();
    assert_eq!(notation::coordinate_move(m, 0), "f6f5");
}

/// Where both pieces of the file can make the move, the text is refused
/// naming both readings, front first; `validate` says the same (it reads
/// through `parse_move`).
#[test]
fn a_tandem_move_both_pieces_can_make_is_refused_with_both_readings() {
    let p = pos(TANDEM_FREE);
    let front = Move::new(sq(3, 5), sq(3, 6));
    let rear = Move::new(sq(3, 2), sq(3, 3));
    for (text, n) in [("R6+1", Notation::Wxf), ("车六进一", Notation::Chinese)] {
        let e = p.parse_move(text, n).unwrap_err();
        assert_eq!(e.code(), Refusal::Ambiguous, "{text}");
        assert_eq!(
            e,
            MoveError::Illegal(Why::Ambiguous {
                first: front,
                second: rear
            })
        );
    }
    // With the marker there is no doubt.
    assert_eq!(p.parse_move("R++1", Notation::Wxf), Ok(front));
    assert_eq!(p.parse_move("后车进一", Notation::Chinese), Ok(rear));
}
