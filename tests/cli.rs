//! The `arbiter` binary itself.

use std::process::Command;

fn arbiter(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn openapi_matches_the_checked_in_document() {
    let (code, stdout, _) = arbiter(&["openapi"]);
    assert_eq!(code, 0);
    let printed: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let checked_in: serde_json::Value =
        serde_json::from_str(include_str!("../openapi/openapi.json")).unwrap();
    assert_eq!(
        printed, checked_in,
        "regenerate with `cargo run -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn perft_prints_the_total_last() {
    let (code, stdout, _) = arbiter(&["perft", "xiangqi", "3"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().last(), Some("79666"));
    let (code, stdout, _) = arbiter(&[
        "perft",
        "xiangqi",
        "2",
        "--fen",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        "--divide",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"424"));
    assert_eq!(lines.len(), 26, "25 first moves and the total");
    for (variant, total) in [("taxi", "8902"), ("tamerlane", "14518")] {
        let (code, stdout, _) = arbiter(&["perft", variant, "3"]);
        assert_eq!(code, 0);
        assert_eq!(stdout.lines().last(), Some(total), "{variant}");
    }
}

#[test]
fn bad_arguments_fail_cleanly() {
    let (code, _, stderr) = arbiter(&["perft", "chess", "1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown variant 'chess'"));
    let (code, _, stderr) = arbiter(&["perft", "xiangqi", "1", "--fen", "nonsense"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("invalid FEN"));
    let (code, _, stderr) = arbiter(&["serve", "--bind", "not-an-address"]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("cannot listen on 'not-an-address'"),
        "{stderr}"
    );
}

/// Runs `arbiter uci` with `input` on stdin and returns what it printed.
fn uci_session(input: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn uci_finds_the_mate_in_fairy_stockfish_coordinates() {
    let out = uci_session(
        "uci\nsetoption name UCI_Variant value xiangqi\nisready\n\
         position fen 4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1\ngo depth 5\nquit\n",
    );
    assert!(out.contains("\nuciok\n"), "{out}");
    assert!(out.contains("option name UCI_Variant type combo"));
    assert!(out.contains("readyok"));
    assert!(out.contains("score mate 2"), "{out}");
    // UCI for Xiangqi writes ranks 1-10, as Fairy-Stockfish does.
    assert_eq!(out.lines().last(), Some("bestmove a2e2"), "{out}");
}

#[test]
fn ucci_writes_iccs_and_replays_moves() {
    let out = uci_session(
        "ucci\nposition fen 4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1\ngo depth 5\n\
         position fen 4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1 moves a1e1 e9f9\ngo depth 3\nquit\n",
    );
    assert!(out.contains("\nucciok\n"), "{out}");
    let best: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best, ["bestmove a1e1", "bestmove b0b8"], "{out}");
}

#[test]
fn uci_plays_taxi_and_tamerlane_and_reports_no_move() {
    let out = uci_session(
        "uci\nsetoption name UCI_Variant value taxi\n\
         position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 16/16\ngo depth 3\n\
         setoption name UCI_Variant value tamerlane\nposition startpos moves b3b4\ngo nodes 2000\n\
         setoption name UCI_Variant value xiangqi\n\
         position fen 3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1 moves a1a10\ngo depth 2\nquit\n",
    );
    let best: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 3, "{out}");
    assert_eq!(best[0], "bestmove a1a8");
    assert!(best[1].len() > "bestmove ".len() && best[1] != "bestmove (none)");
    assert_eq!(best[2], "bestmove (none)", "{out}");
    assert!(out.contains("info string no legal move"));
}
