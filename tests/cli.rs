//! The `arbiter` binary itself.

use std::process::Command;

mod common;
use common::free_port;

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

/// The bench signature: the bench positions of every variant searched to
/// a fixed depth, the nodes of each and their total last. A change to the
/// search that moves the total says so in its commit message and updates
/// this number (docs/engine.md).
#[test]
fn bench_prints_the_engine_signature() {
    const SIGNATURE: &str = "180313";
    let (code, stdout, stderr) = arbiter(&["bench"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.last(), Some(&SIGNATURE), "{stdout}");
    assert_eq!(lines.len(), 7, "six positions and the total: {stdout}");
    let total: u64 = lines[..6]
        .iter()
        .map(|l| {
            l.rsplit(": ")
                .next()
                .unwrap()
                .trim_end_matches(" nodes")
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(total.to_string(), SIGNATURE);
    // The same search twice: the same nodes.
    let (_, again, _) = arbiter(&["bench"]);
    assert_eq!(again, stdout);
}

#[test]
fn bad_arguments_fail_cleanly() {
    let (code, _, stderr) = arbiter(&["perft", "chess", "1"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("invalid value 'chess'")
            && stderr.contains("known: xiangqi, taxi, tamerlane"),
        "{stderr}"
    );
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

/// `arbiter uci` started, its stdin and stdout piped.
fn uci_child() -> std::process::Child {
    use std::process::Stdio;
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Runs `arbiter uci` with `input` on stdin and returns what it printed.
fn uci_session(input: &str) -> String {
    use std::io::Write;
    let mut child = uci_child();
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
    // UCI for Xiangqi writes ranks 1-10, as Fairy-Stockfish does: the three
    // moves that mate in two, in those coordinates.
    let best = out.lines().last().unwrap();
    assert!(
        ["bestmove a2e2", "bestmove a2a9", "bestmove b1b9"].contains(&best),
        "{out}"
    );
}

/// A capture into an endgame table is resolved by the tables (an exact
/// mate a shallow search cannot see), unless `UseTablebases` is off.
#[test]
fn uci_search_probes_the_endgame_tables() {
    let go = "position fen 4k4/4a4/9/9/9/9/9/5r3/9/3K2N2 w - - 0 1\ngo depth 2\n";
    let with = uci_session(&format!("uci\n{go}quit\n"));
    assert!(
        with.contains("option name UseTablebases type check default true"),
        "{with}"
    );
    let last_info = |out: &str| {
        out.lines()
            .rfind(|l| l.starts_with("info depth"))
            .unwrap()
            .to_owned()
    };
    assert!(last_info(&with).contains("score mate"), "{with}");
    assert_eq!(with.lines().last().unwrap(), "bestmove g1f3", "{with}");
    let without = uci_session(&format!(
        "uci\nsetoption name UseTablebases value false\n{go}quit\n"
    ));
    assert!(last_info(&without).contains("score cp"), "{without}");
}

#[test]
fn uci_shows_wdl_and_searches_only_searchmoves() {
    let out = uci_session(
        "uci\nsetoption name UCI_ShowWDL value true\n\
         position fen 4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1\ngo depth 3 searchmoves a2a3 d1d2\nquit\n",
    );
    assert!(
        out.contains("option name UCI_ShowWDL type check default false"),
        "{out}"
    );
    let best = out.lines().last().unwrap();
    assert!(["bestmove a2a3", "bestmove d1d2"].contains(&best), "{out}");
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "{out}");
    for info in infos {
        let words: Vec<&str> = info.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "wdl").expect("a wdl");
        let sum: u32 = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse::<u32>().unwrap())
            .sum();
        assert_eq!(sum, 1000, "{info}");
        let pv = words.iter().position(|&w| w == "pv").unwrap();
        assert!(["a2a3", "d1d2"].contains(&words[pv + 1]), "{info}");
    }
    // Off by default.
    let out =
        uci_session("uci\nposition fen 4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1\ngo depth 2\nquit\n");
    assert!(!out.contains(" wdl "), "{out}");
}

/// A search stopped inside an iteration may answer with a line no
/// iteration reported (the unfinished one's, or a new best move): the last
/// `info` before each `bestmove` is the line played, and depths never fall.
#[test]
fn uci_last_info_names_the_move_played() {
    let mut input = String::from("uci\n");
    for nodes in [3_000, 7_000, 12_000, 20_000, 33_000, 50_000] {
        input.push_str(&format!(
            "ucinewgame\nposition startpos\ngo nodes {nodes}\n"
        ));
    }
    input.push_str("quit\n");
    let out = uci_session(&input);
    let mut searches = 0;
    let mut last: Option<(u32, String)> = None;
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("info depth ") {
            let depth: u32 = rest.split_whitespace().next().unwrap().parse().unwrap();
            let words: Vec<&str> = line.split_whitespace().collect();
            let pv = words.iter().position(|&w| w == "pv").expect("a pv");
            if let Some((d, _)) = &last {
                assert!(depth >= *d, "{out}");
            }
            last = Some((depth, words[pv + 1].to_owned()));
        } else if let Some(mv) = line.strip_prefix("bestmove ") {
            let (_, first) = last.take().expect("an info line before the bestmove");
            assert_eq!(first, mv, "{out}");
            searches += 1;
        }
    }
    assert_eq!(searches, 6, "{out}");
}

/// `Skill Level` and `UCI_LimitStrength`/`UCI_Elo`: a weak level still
/// plays a legal move, still mates in one, and a bad value is named.
#[test]
fn uci_plays_at_a_level() {
    let out = uci_session(
        "uci\nsetoption name Skill Level value 1\nposition startpos\ngo movetime 500\n",
    );
    assert!(
        out.contains("option name Skill Level type spin default 20 min 1 max 20"),
        "{out}"
    );
    assert!(
        out.contains("option name UCI_LimitStrength type check default false"),
        "{out}"
    );
    assert!(out.contains("option name UCI_Elo type spin"), "{out}");
    let best = out.lines().last().unwrap();
    let mv = best.strip_prefix("bestmove ").expect("a bestmove");
    // Level 1 searches one ply: its info lines say depth 1 and every move.
    let deepest = out
        .lines()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split_whitespace().next().unwrap().parse::<u32>().unwrap())
        .max();
    assert_eq!(deepest, Some(1), "{out}");
    assert!(
        out.contains(&format!(" pv {mv}")),
        "the level's move is one it searched: {out}"
    );
    // A mate in one (b1b10 or a9f9, Fairy-Stockfish's ranks) at the lowest
    // Elo.
    for _ in 0..5 {
        let out = uci_session(
            "uci\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 0\n\
             position fen 4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\ngo depth 3\n",
        );
        let best = out.lines().last().unwrap();
        assert!(["bestmove b1b10", "bestmove a9f9"].contains(&best), "{out}");
    }
    let out = uci_session("uci\nsetoption name Skill Level value 21\nquit\n");
    assert!(
        out.contains("info string bad Skill Level value: 21 (1 to 20)"),
        "{out}"
    );
}

#[test]
fn ucci_writes_iccs_and_replays_moves() {
    let out = uci_session(
        "ucci\nposition fen 4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1\ngo depth 5\n\
         position fen 4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1 moves a1e1 e9f9\ngo depth 3\nquit\n",
    );
    assert!(out.contains("\nucciok\n"), "{out}");
    let best: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert!(
        ["bestmove a1e1", "bestmove a1a8", "bestmove b0b8"].contains(&best[0]),
        "{out}"
    );
    // After a1e1 e9f9 two moves win at once, both leaving Black without a
    // move (f8 and e9 covered): b0b8 and e1e8.
    assert!(
        ["bestmove b0b8", "bestmove e1e8"].contains(&best[1]),
        "{out}"
    );
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

#[test]
fn uci_plays_on_where_the_gui_does() {
    // After a2 the Xiangqi game has run 100 plies without a capture: our
    // rules draw it, the GUI's (Fairy-Stockfish's count soldier moves too)
    // may not. The GUI referees: the moves after our end are played, and the
    // engine still answers with a move, searching without the move limit.
    let out = uci_session(
        "uci\nsetoption name UCI_Variant value xiangqi\n\
         position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 99 60 moves a1a2 d10d9\ngo depth 4\nquit\n",
    );
    let best: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{out}");
    assert_ne!(best[0], "bestmove (none)", "{out}");
    assert!(!out.contains("bad move"), "{out}");
    // With the limit switched off the chariot's advantage shows.
    let last_info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(!last_info.contains("score cp 0 "), "{last_info}");
}

#[test]
fn uci_repetition_option_chooses_the_code() {
    // The Chinese rule book's 图7 after 炮一平二, seven plies into its cycle:
    // i0h0 would make the start stand a third time. Under the Asian rules
    // (the default) Black's chariot chased the cannon with every move, and
    // i0h0 wins; under the Chinese code Red threatened mate with every
    // move (长杀), and i0h0 loses. UCCI, for ICCS moves. One search a
    // session, run to its end (end of input lets it finish).
    let position = "position fen 2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K2C1 b - - 1 1 \
                    moves i8h8 h0i0 h8i8 i0h0 i8h8 h0i0 h8i8\ngo depth 3\n";
    let best = |options: &str| {
        let out = uci_session(&format!("ucci\n{options}{position}"));
        let best = out
            .lines()
            .rfind(|l| l.starts_with("bestmove"))
            .map(str::to_owned);
        (best.unwrap_or_else(|| panic!("no bestmove: {out}")), out)
    };
    let (asian, out) = best("");
    assert!(
        out.contains(
            "\noption name Repetition type combo default asian var asian var chinese var none\n"
        ),
        "{out}"
    );
    assert_eq!(asian, "bestmove i0h0", "{out}");
    let (chinese, out) = best("setoption name Repetition value chinese\n");
    assert!(
        chinese.starts_with("bestmove ") && chinese != "bestmove i0h0",
        "{out}"
    );
    assert!(!out.contains("info string"), "{out}");
    // A bad value is reported the way other bad values are, and changes
    // nothing.
    let (kept, out) =
        best("setoption name Repetition value chinese\nsetoption name Repetition value bogus\n");
    assert!(
        out.contains("info string bad Repetition value: bogus (one of asian, chinese, none)\n"),
        "{out}"
    );
    assert_eq!(kept, chinese, "{out}");
}

#[test]
fn uci_repetition_option_stops_a_running_search_and_names_its_variant() {
    use std::io::Write;
    // A new code or hash size clears the tables a running search uses: the
    // search stops first and reports its move, as at `ucinewgame`. The
    // child is killed, and the test fails, if it has not finished after a
    // minute (a search left running).
    let mut child = uci_child();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"uci\nposition startpos\ngo infinite\nsetoption name Repetition value chinese\n\
              setoption name Hash value 8\ngo infinite\nsetoption name Hash value 4\n\
              setoption name UCI_Variant value tamerlane\nsetoption name Repetition value none\nisready\nquit\n",
        )
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("the engine did not stop: a setoption waited for the running search");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    // Each infinite search ended with its best move when an option came.
    assert_eq!(
        out.lines().filter(|l| l.starts_with("bestmove")).count(),
        2,
        "{out}"
    );
    assert!(out.contains("\nreadyok\n"), "{out}");
    // The option is Xiangqi's: under another variant it is kept and said so.
    assert!(
        out.contains("info string Repetition applies to xiangqi only (kept for when it is the variant; now tamerlane)\n"),
        "{out}"
    );
}

/// An HTTP/1.0 exchange with `addr`: the whole answer, or `None` when it fails.
fn http(addr: &str, request: &str) -> Option<String> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.write_all(request.as_bytes()).ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    Some(out)
}

fn get(addr: &str, path: &str) -> Option<String> {
    http(
        addr,
        &format!("GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n"),
    )
}

#[test]
fn sigterm_drains_cuts_searches_and_exits_zero() {
    use std::time::{Duration, Instant};
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let mut server = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "serve",
            "--bind",
            &addr,
            "--drain-secs",
            "1",
            "--shutdown-timeout-secs",
            "3",
        ])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while get(&addr, "/healthz").is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the server never came up"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The healthcheck command agrees.
    let (code, _, _) = arbiter(&["healthcheck", "--addr", &addr]);
    assert_eq!(code, 0);
    // A long search, from another thread.
    let search_addr = addr.clone();
    let search = std::thread::spawn(move || {
        let body = r#"{"movetime_ms": 9000}"#;
        http(
            &search_addr,
            &format!(
                "POST /v1/variants/xiangqi/analyze HTTP/1.0\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            ),
        )
    });
    std::thread::sleep(Duration::from_millis(300));
    let signalled = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // Draining: not ready, but still answering.
    std::thread::sleep(Duration::from_millis(300));
    let ready = get(&addr, "/readyz").expect("still serving while draining");
    assert!(ready.starts_with("HTTP/1.0 503"), "{ready}");
    assert!(ready.contains("shutting_down"));
    assert!(get(&addr, "/healthz").unwrap().starts_with("HTTP/1.0 200"));
    // The search is cut before the 3 s deadline and still answers 200.
    let answer = search.join().unwrap().expect("the search answered");
    assert!(answer.starts_with("HTTP/1.0 200"), "{answer}");
    assert!(answer.contains("\"best_move\""));
    let status = server.wait().unwrap();
    assert!(status.success(), "exit status {status}");
    let took = signalled.elapsed();
    assert!(took < Duration::from_secs(8), "shutdown took {took:?}");
    assert!(get(&addr, "/healthz").is_none(), "nothing listens any more");
    let (code, _, err) = arbiter(&["healthcheck", "--addr", &addr]);
    assert_eq!(code, 1);
    assert!(err.contains("unhealthy"));
}

/// What a server writes to its (piped, so not a terminal) standard error
/// while it answers one request with the given ID and stops.
fn logs_of_one_request(format: &str, request_id: &str) -> String {
    use std::io::Read;
    use std::time::{Duration, Instant};
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let mut server = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--bind", &addr])
        .env("ARBITER_LOG_FORMAT", format)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while get(&addr, "/healthz").is_none() {
        assert!(start.elapsed() < Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(50));
    }
    let answer = http(
        &addr,
        &format!(
            "GET /v1/variants/nope HTTP/1.0\r\nHost: {addr}\r\nX-Request-Id: {request_id}\r\n\r\n"
        ),
    )
    .unwrap();
    assert!(answer
        .to_ascii_lowercase()
        .contains(&format!("x-request-id: {request_id}")));
    Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(server.wait().unwrap().success());
    let mut logs = String::new();
    server
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut logs)
        .unwrap();
    logs
}

#[test]
fn json_logs_carry_the_request_id() {
    let logs = logs_of_one_request("json", "log-me-7");
    let lines: Vec<serde_json::Value> = logs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect();
    let answered = lines
        .iter()
        .find(|l| l["span"]["request_id"] == "log-me-7")
        .unwrap_or_else(|| panic!("no line for the request in {logs}"));
    assert_eq!(answered["fields"]["status"], 404);
    assert_eq!(answered["span"]["route"], "/v1/variants/{variant}");
    // The duration in whole microseconds.
    assert!(answered["fields"]["us"].is_u64(), "{answered}");
}

/// Text logs written to a file or a pipe are plain: no colour codes, and
/// the duration as a whole number of microseconds.
#[test]
fn text_logs_off_a_terminal_are_plain() {
    let logs = logs_of_one_request("text", "plain-9");
    assert!(!logs.contains('\u{1b}'), "colour codes in {logs:?}");
    let answered = logs
        .lines()
        .find(|l| l.contains("request_id=plain-9") && l.contains("answered"))
        .unwrap_or_else(|| panic!("no line for the request in {logs}"));
    let us = answered
        .split_whitespace()
        .find_map(|w| w.strip_prefix("us="))
        .unwrap_or_else(|| panic!("no duration in {answered}"));
    assert!(us.parse::<u64>().is_ok(), "{answered}");
    assert!(!answered.contains("ms="), "{answered}");
}

#[test]
fn uci_keeps_its_table_between_searches_until_a_new_game() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = uci_child();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    // One search to depth 7; the node count of its last iteration.
    let mut search = |before: &str| -> u64 {
        writeln!(
            input,
            "{before}position startpos moves h3e3 h10g8\ngo depth 7"
        )
        .unwrap();
        input.flush().unwrap();
        let mut nodes = None;
        let mut line = String::new();
        loop {
            line.clear();
            assert!(output.read_line(&mut line).unwrap() > 0, "the engine quit");
            if line.starts_with("info depth 7 ") {
                let words: Vec<&str> = line.split_whitespace().collect();
                let i = words.iter().position(|w| *w == "nodes").unwrap();
                nodes = words[i + 1].parse().ok();
            }
            if line.starts_with("bestmove") {
                return nodes.expect("an iteration at depth 7");
            }
        }
    };
    let first = search("");
    let second = search("");
    let fresh = search("ucinewgame\n");
    // A search is deterministic for a given table: the second one differs
    // only because it starts from the first one's table, and after
    // ucinewgame the count is the first one's again.
    assert_ne!(
        second, first,
        "the second search starts from the first's table"
    );
    assert_eq!(fresh, first, "ucinewgame starts afresh");
    writeln!(input, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn uci_evaluates_with_the_shipped_network_a_file_or_by_hand_and_refuses_a_damaged_file() {
    let mut model = arbiter::training::Model::random(32, 3);
    for (i, b) in model.bias.iter_mut().enumerate() {
        *b = (i % 4) as f32 * 0.15;
    }
    let bytes = model.quantise().expect("quantises").to_bytes();
    let dir = std::env::temp_dir().join(format!("arbiter-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("net.nnue");
    std::fs::write(&good, &bytes).unwrap();
    let mut damaged = bytes.clone();
    damaged[5_000] ^= 4;
    let bad = dir.join("damaged.nnue");
    std::fs::write(&bad, &damaged).unwrap();
    let search = "position startpos moves h3e3 h10g8\ngo depth 6\n";
    // No `quit`: at the end of its input the session finishes the search.
    let session = |option: &str| uci_session(&format!("uci\n{option}isready\n{search}"));
    let score = |out: &str| {
        out.lines()
            .rfind(|l| l.starts_with("info depth 6 "))
            .and_then(|l| l.split(" score ").nth(1))
            .map(|s| s.split(" nodes").next().unwrap_or(s).to_owned())
            .unwrap_or_else(|| panic!("no depth 6 in {out}"))
    };
    let shipped = session("");
    assert!(
        shipped.contains("option name EvalFile type string"),
        "{shipped}"
    );
    assert!(
        shipped.contains("option name Evaluation type combo default nnue var nnue var hce"),
        "{shipped}"
    );
    let hce = session("setoption name Evaluation value hce\n");
    assert_ne!(
        score(&shipped),
        score(&hce),
        "the shipped network's search scored as the hand-written one"
    );
    let nn = session(&format!(
        "setoption name EvalFile value {}\n",
        good.display()
    ));
    assert!(nn.contains("a Xiangqi network of 32 hidden units"), "{nn}");
    assert!(nn.lines().last().unwrap().starts_with("bestmove "), "{nn}");
    assert_ne!(
        score(&nn),
        score(&shipped),
        "the file's network scored as the shipped one"
    );
    assert_ne!(score(&nn), score(&hce));
    // The file is the network `Evaluation hce` turns off.
    let off = session(&format!(
        "setoption name EvalFile value {}\nsetoption name Evaluation value hce\n",
        good.display()
    ));
    assert_eq!(score(&off), score(&hce));
    let refused = session(&format!(
        "setoption name EvalFile value {}\n",
        bad.display()
    ));
    assert!(
        refused.contains("refused: the network file is damaged"),
        "{refused}"
    );
    assert_eq!(
        score(&refused),
        score(&shipped),
        "a refused file left the evaluation as it was"
    );
    let back = session(&format!(
        "setoption name EvalFile value {}\nsetoption name EvalFile value <empty>\n",
        good.display()
    ));
    assert_eq!(score(&back), score(&shipped));
    let bad_value = session("setoption name Evaluation value best\n");
    assert!(
        bad_value.contains("info string bad Evaluation value: best (nnue or hce)"),
        "{bad_value}"
    );
    assert_eq!(score(&bad_value), score(&shipped));
    std::fs::remove_dir_all(&dir).ok();
}

/// POSTs `body` to `url` and returns the status and the JSON answer.
fn post_json(url: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let r = reqwest::Client::new().post(url).json(&body).send().await?;
            let status = r.status().as_u16();
            Ok::<_, reqwest::Error>((status, r.json().await?))
        })
        .unwrap()
}

/// `tablebase generate` makes a table outside the default set (with the
/// smaller ones it needs), verified and written; `serve --tablebases DIR`
/// probes it; a damaged file stops the server at start.
#[test]
fn generated_tables_are_served() {
    let dir = std::env::temp_dir().join(format!("arbiter-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let (code, stdout, stderr) = arbiter(&["tablebase", "generate", "--out", out, "KAAkaa"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().any(|l| l.starts_with("KAAkaa ")), "{stdout}");
    assert!(dir.join("KAAkaa.xtb").is_file());
    let (code, _, stderr) = arbiter(&["tablebase", "generate", "--out", out, "KXk"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("not a material: KXk"), "{stderr}");
    // A set by name: an unknown one is refused, naming those there are.
    let (code, _, stderr) = arbiter(&["tablebase", "generate", "--out", out, "--set", "all"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("defended"), "{stderr}");

    let body = serde_json::json!({"fen": "3ak4/4a4/9/9/9/9/9/9/4A4/3A1K3 w - - 0 1"});
    let plain = common::Server::start(&[]);
    let (status, answer) = post_json(
        &format!("{}/v1/variants/xiangqi/tablebase", plain.base),
        body.clone(),
    );
    assert_eq!(status, 422, "{answer}");
    assert_eq!(answer["code"], "not_in_tablebase");
    drop(plain);
    let with = common::Server::start(&["--tablebases", out]);
    let (status, answer) = post_json(
        &format!("{}/v1/variants/xiangqi/tablebase", with.base),
        body,
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["table"], "KAAkaa");
    assert_eq!(answer["wdl"], "draw");
    drop(with);

    // The UCI engine takes the directory too, once, before its first search.
    let out_uci = uci_session(&format!(
        "uci\nsetoption name EgtbPath value {out}\nsetoption name EgtbPath value {out}\nquit\n"
    ));
    assert!(
        out_uci.contains("option name EgtbPath type string"),
        "{out_uci}"
    );
    let taken: Vec<&str> = out_uci
        .lines()
        .filter(|l| l.starts_with("info string EgtbPath"))
        .collect();
    assert_eq!(taken.len(), 2, "{out_uci}");
    assert!(taken[0].ends_with("endgame tables"), "{out_uci}");
    assert!(taken[1].contains("already set up"), "{out_uci}");

    // One byte of the codes changed: refused at start, naming the file.
    let path = dir.join("KAAkaa.xtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 2;
    bytes[last] ^= 0x5A;
    std::fs::write(&path, bytes).unwrap();
    let addr = format!("127.0.0.1:{}", free_port());
    let (code, _, stderr) = arbiter(&["serve", "--bind", &addr, "--tablebases", out]);
    assert_ne!(code, 0);
    assert!(stderr.contains("KAAkaa.xtb"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
