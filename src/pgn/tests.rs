use super::reader::move_text;
use super::*;

fn texts(r: &Record) -> Vec<&str> {
    r.moves.iter().map(|m| m.text.as_str()).collect()
}

#[test]
fn reads_a_wxf_record_with_everything_to_skip() {
    let pgn = r#"[Game "Chinese Chess"]
[Event "Club \"open\" 2026"]
[Format "WXF"]
[Result "1-0"]

% an escape line: skipped
1. C2.5 H8+7 {the usual reply; (not a variation)}
2. H2+3 (2. P7+1 R9+1 (2... H2+3) 3. H8+7) R9.8 $1 3. R1.2!? R8+4?!
; a comment to the end of the line 4. X9+9
4. P7+1 1-0
"#;
    let r = read(pgn).unwrap();
    assert_eq!(r.tag("event"), Some("Club \"open\" 2026"));
    assert_eq!(r.tag("Format"), Some("WXF"));
    assert_eq!(
        texts(&r),
        ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "R8+4", "P7+1"]
    );
    assert_eq!(r.moves[0].line, 7);
    assert_eq!(r.moves[6].line, 10);
    assert_eq!(r.termination, Some(RecordedResult::FirstWins));
    assert_eq!(r.recorded_result(), Some(RecordedResult::FirstWins));
}

#[test]
fn reads_iccs_chinese_and_san_tokens() {
    let r = read("1.h2e2 h9g7 2.h0g2 *").unwrap();
    assert_eq!(texts(&r), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(r.termination, Some(RecordedResult::Unknown));
    // Chinese movetext with full-width digits and an ideographic space.
    let r =
        read("[Format \"Chinese\"]\n1. 炮二平五\u{3000}马８进７ 2. 马二进三 车９平８ 0-1").unwrap();
    assert_eq!(texts(&r), ["炮二平五", "马８进７", "马二进三", "车９平８"]);
    assert_eq!(r.recorded_result(), Some(RecordedResult::SecondWins));
    // SAN with checks, promotions, a move number before Black's move.
    let r = read("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 30\"]\n30. a8=Q+ 30... Kd7 31.Qb7+ 1/2-1/2")
        .unwrap();
    assert_eq!(texts(&r), ["a8=Q+", "Kd7", "Qb7+"]);
    assert_eq!(r.fen(), Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 30"));
    // A `Result` tag wins over the termination marker.
    let r = read("[Result \"0-1\"]\n1. e4 *").unwrap();
    assert_eq!(r.recorded_result(), Some(RecordedResult::SecondWins));
}

#[test]
fn tamerlane_moves_keep_their_signs() {
    let r = read("1. a10@e5 f2~d5 2. c3c4 {x} e8e7").unwrap();
    assert_eq!(texts(&r), ["a10@e5", "f2~d5", "c3c4", "e8e7"]);
}

#[test]
fn glyphs_nags_and_numbers_alone_are_no_moves() {
    let r = read("1. e4 ! e5 +- 2... = $14 ±").unwrap();
    assert_eq!(texts(&r), ["e4", "e5"]);
    // `15.1` is no move number (a WXF soldier move may look like it).
    assert_eq!(move_text("15.1"), Some("15.1"));
    assert_eq!(move_text("15."), None);
    assert_eq!(move_text("15...Nf6"), Some("Nf6"));
    assert_eq!(move_text("…"), None);
}

#[test]
fn refuses_broken_records_with_the_line() {
    let broken = [
        ("1. e4 {open\n\n e5", PgnError::UnclosedComment { line: 1 }),
        (
            "1. e4 e5\n(1... c5 2. Nf3",
            PgnError::UnclosedVariation { line: 2 },
        ),
        ("1. e4 ) e5", PgnError::StrayParenthesis { line: 1 }),
        ("1. e4 1-0\n1. d4", PgnError::AfterResult { line: 2 }),
        (
            "[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *",
            PgnError::SecondGame { line: 4 },
        ),
        (" \n% only an escape\n", PgnError::Empty),
    ];
    for (text, error) in broken {
        assert_eq!(read(text), Err(error), "{text:?}");
    }
    assert_eq!(PgnError::SecondGame { line: 3 }.line(), Some(3));
}

#[test]
fn a_comment_may_hold_brackets_and_a_variation_comments() {
    let r = read("1. e4 {see [this] (and that)} e5 (1... c5 {a ) in a comment}) 2. Nf3").unwrap();
    assert_eq!(texts(&r), ["e4", "e5", "Nf3"]);
}

#[test]
fn a_damaged_tag_is_read_leniently_with_a_warning() {
    let r = read("[Event \"\"Huangshan Cup\" 2019\"]\n[Red \"Wang\"]\n[Site x]\n[]\n1. h2e2 *")
        .unwrap();
    assert_eq!(
        r.tags,
        [
            ("Event".to_owned(), "\"Huangshan Cup\" 2019".to_owned()),
            ("Red".to_owned(), "Wang".to_owned()),
            ("Site".to_owned(), "x".to_owned()),
        ]
    );
    assert_eq!(r.move_texts(), ["h2e2"]);
    assert_eq!(r.warnings.len(), 3);
    assert_eq!(
        r.warnings[0],
        PgnWarning::DamagedTag {
            line: 1,
            text: "[Event \"\"Huangshan Cup\" 2019\"]".to_owned(),
            read_as: Some(("Event".to_owned(), "\"Huangshan Cup\" 2019".to_owned())),
        }
    );
    assert!(matches!(
        r.warnings[2],
        PgnWarning::DamagedTag {
            line: 4,
            read_as: None,
            ..
        }
    ));
    // An unclosed quote or bracket: the rest of the line is the value.
    let r = read("[Event \"x]\n[Round \"3\"\n1. e4").unwrap();
    assert_eq!(r.tag("Event"), Some("x"));
    assert_eq!(r.tag("Round"), Some("3"));
    assert_eq!(r.move_texts(), ["e4"]);
    assert_eq!(read("[Event]").unwrap().tag("Event"), Some(""));
}

#[test]
fn full_width_numbers_dots_and_results() {
    let r = read("1．炮二平五 马８进７ ２．马二进三 ０－１").unwrap();
    assert_eq!(r.move_texts(), ["炮二平五", "马８进７", "马二进三"]);
    assert_eq!(r.termination, Some(RecordedResult::SecondWins));
    let r = read("1. Ｃ２＝５Ｈ８＋７ 2. Ｈ２＋３Ｒ９＝８").unwrap();
    assert_eq!(r.move_texts(), ["Ｃ２＝５Ｈ８＋７", "Ｈ２＋３Ｒ９＝８"]);
    assert_eq!(move_text("１２．．．"), None);
    assert_eq!(move_text("Ｐ７＋１！？"), Some("Ｐ７＋１"));
}

#[test]
fn a_file_of_many_games_is_read_game_by_game() {
    let file = "[Event \"a\"]\n[Red \"x\"]\n\n1. h2e2 h9g7\n\n[Event \"b\"]\n\n1. h2e2 ) 2. b0c2\n\
        \n[Event \"c\"]\n{ a comment\n[with a bracket] }\n1. b0c2 1-0\n[Event \"d\"]\n1. c3c4 *\n";
    let games = read_all(file);
    assert_eq!(games.len(), 4);
    assert_eq!(
        games.iter().map(|g| g.first_line).collect::<Vec<_>>(),
        [1, 6, 10, 14]
    );
    let first = games[0].record.as_ref().unwrap();
    assert_eq!(first.tag("Red"), Some("x"));
    assert_eq!(first.move_texts(), ["h2e2", "h9g7"]);
    // A damaged game is its own problem, on the file's line.
    assert_eq!(games[1].record, Err(PgnError::StrayParenthesis { line: 8 }));
    let third = games[2].record.as_ref().unwrap();
    assert_eq!(third.move_texts(), ["b0c2"]);
    assert_eq!(third.moves[0].line, 13);
    assert_eq!(games[3].record.as_ref().unwrap().tag("Event"), Some("d"));
    // One game reads as one.
    assert_eq!(read_all("1. e4 e5").len(), 1);
    assert!(read_all(" \n").is_empty());
}

#[test]
fn writes_what_it_reads() {
    let tags = vec![
        ("Event".to_owned(), "A \"quoted\" \\ name".to_owned()),
        ("Result".to_owned(), "0-1".to_owned()),
    ];
    let moves: Vec<String> = (0..40).map(|i| format!("m{i}")).collect();
    let text = write(
        &moves,
        &WriteOptions {
            tags: &tags,
            first_move_number: 12,
            second_mover_first: true,
            comment: Some("Red is checkmated {really}"),
            result: Some(RecordedResult::SecondWins),
        },
    );
    assert!(text.starts_with("[Event \"A \\\"quoted\\\" \\\\ name\"]\n"));
    assert!(text.contains("\n\n12... m0 13. m1 m2 14. m3"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() < 80), "{text}");
    assert!(text.contains("{Red is checkmated {really)}"));
    let back = read(&text).unwrap();
    assert_eq!(back.tags, tags);
    assert_eq!(back.move_texts(), moves);
    assert_eq!(back.termination, Some(RecordedResult::SecondWins));
}

#[test]
fn xqbase_trailer_is_kept_as_a_warning_not_read() {
    let text = "[Result \"0-1\"]\n  1. 炮八平五 马２进３\n 0-1\n============================\n欢迎访问《象棋百科全书》网站\nhttps://www.xqbase.com/\n";
    let r = read(text).unwrap();
    assert_eq!(r.move_texts(), ["炮八平五", "马２进３"]);
    assert_eq!(r.termination, Some(RecordedResult::SecondWins));
    assert_eq!(
        r.warnings,
        [PgnWarning::Trailer {
            line: 4,
            text: "欢迎访问《象棋百科全书》网站".to_owned()
        }]
    );
    // In a file, the game after a trailer is a game of its own.
    let two = format!("{text}\n[Result \"1-0\"]\n 1. 炮二平五 1-0\n");
    let games = read_all(&two);
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].first_line, 8);
    assert_eq!(games[1].record.as_ref().unwrap().move_texts(), ["炮二平五"]);
}

#[test]
fn a_record_of_tags_alone_is_a_game_of_its_own() {
    let text =
        "[Event \"a\"]\n[Result \"1-0\"]\n\n[Event \"b\"]\n[Result \"0-1\"]\n\n1. C2.5 H8+7 0-1\n";
    let games = read_all(text);
    assert_eq!(games.len(), 2);
    let first = games[0].record.as_ref().unwrap();
    assert_eq!(first.tag("Event"), Some("a"));
    assert!(first.moves.is_empty());
    assert_eq!(first.warnings, [PgnWarning::NoMoves]);
    let second = games[1].record.as_ref().unwrap();
    assert_eq!((second.tag("Event"), games[1].first_line), (Some("b"), 4));
    assert_eq!(second.move_texts(), ["C2.5", "H8+7"]);
}

#[test]
fn a_tag_named_twice_keeps_the_first_and_warns() {
    let r = read("[Red \"Lü\"]\n[Red \"Hu\"]\n1. C2.5").unwrap();
    assert_eq!(r.tags, [("Red".to_owned(), "Lü".to_owned())]);
    assert_eq!(
        r.warnings,
        [PgnWarning::DuplicateTag {
            line: 2,
            name: "Red".to_owned(),
            value: "Hu".to_owned()
        }]
    );
}

#[test]
fn text_with_nothing_of_a_game_is_refused_not_an_empty_game() {
    assert_eq!(
        read("[# what is this]\n[!]"),
        Err(PgnError::NotUnderstood {
            line: 1,
            text: "[# what is this]".to_owned()
        })
    );
}
