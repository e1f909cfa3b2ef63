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
