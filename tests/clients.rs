//! Real clients against the real binary: the served OpenAPI document passes
//! `openapi-spec-validator`; a Python client generated from it by
//! `openapi-python-client` makes every call in every variant (and probes
//! the endgame tables); and headless
//! Chromium on a page of another origin calls the API when
//! `--cors-origins` names that origin, and is refused when it does not.
//!
//! A test whose tool is missing is ignored with its reason (see `build.rs`);
//! `.ci/run` installs the tools and requires these tests.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};

mod common;
use common::{free_port, Server};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

#[test]
#[cfg_attr(
    not(has_spec_validator),
    ignore = "needs openapi-spec-validator: pip install openapi-spec-validator"
)]
fn the_served_document_is_valid_openapi_3_1() {
    let server = Server::start(&[]);
    let served = get(&server, "/api-docs/openapi.json");
    let mut validator = Command::new("openapi-spec-validator")
        .args(["--schema", "3.1", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    validator
        .stdin
        .take()
        .unwrap()
        .write_all(served.as_bytes())
        .unwrap();
    let out = validator.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.trim(), "stdin: OK");
}

/// The body of a GET, over a plain HTTP/1.0 connection.
fn get(server: &Server, path: &str) -> String {
    let addr = server.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(
        head.starts_with("HTTP/1.0 200") || head.starts_with("HTTP/1.1 200"),
        "{head}"
    );
    body.to_owned()
}

#[test]
#[cfg_attr(
    not(has_python_client),
    ignore = "needs openapi-python-client: pip install openapi-python-client"
)]
fn a_generated_python_client_makes_every_call() {
    let server = Server::start(&[]);
    let dir = scratch("python-client");
    let generated = run(Command::new("openapi-python-client")
        .current_dir(&dir)
        .args(["generate", "--meta", "none", "--url"])
        .arg(format!("{}/api-docs/openapi.json", server.base)));
    // Every response is modelled: the SVG and the metrics included.
    assert!(!generated.contains("Cannot parse response"), "{generated}");
    assert!(dir
        .join("arbiter_client/api/rules/legal_moves.py")
        .is_file());
    let out = run(Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/clients/use_client.py"
        ))
        .arg(&dir)
        .arg(&server.base));
    assert!(out.contains("ok: 35 calls"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Serves one HTML page on a free port (another origin than the API's) until
/// the test ends.
fn serve_page(html: String) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{html}",
                html.len()
            );
        }
    });
    port
}

/// What the page shows once its call to the API has answered.
fn page_after_call(page_port: u16) -> String {
    let profile = scratch(&format!("chromium-{page_port}"));
    let chromium = ["chromium", "chromium-browser"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .expect("chromium is installed");
    let out = run(Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=10000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("http://127.0.0.1:{page_port}/")));
    let _ = std::fs::remove_dir_all(&profile);
    // The text of <pre id="out">, as the page's script left it.
    let shown = out
        .split_once(r#"<pre id="out">"#)
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .unwrap_or_else(|| panic!("no output element in:\n{out}"));
    shown.0.to_owned()
}

#[test]
#[cfg_attr(not(has_chromium), ignore = "needs Chromium: apt-get install chromium")]
fn a_page_on_another_origin_calls_the_api_when_allowed() {
    let html = |api: &str| {
        format!(
            r#"<!doctype html><html><body><pre id="out">waiting</pre><script>
fetch("{api}/v1/variants/xiangqi/legal-moves", {{
  method: "POST",
  headers: {{"Content-Type": "application/json"}},
  body: JSON.stringify({{moves: ["h2e2"]}})
}}).then(r => r.json())
  .then(j => {{ document.getElementById("out").textContent =
      "answer: " + j.side_to_move + " has " + j.legal_moves.length + " moves"; }})
  .catch(e => {{ document.getElementById("out").textContent = "refused: " + e; }});
</script></body></html>"#
        )
    };
    // The page's origin is only known once it listens: serve it first,
    // calling an API port chosen now, then start the API there.
    let api_port = free_port();
    let page = serve_page(html(&format!("http://127.0.0.1:{api_port}")));
    let origins = format!("https://other.example,http://127.0.0.1:{page}");
    let allowed = Server::on(api_port, &["--cors-origins", &origins]);
    let shown = page_after_call(page);
    assert_eq!(shown, "answer: black has 45 moves");
    drop(allowed);

    // The same page against a server that names another origin only.
    let _refused = Server::on(api_port, &["--cors-origins", "https://other.example"]);
    let shown = page_after_call(page);
    assert_eq!(shown, "refused: TypeError: Failed to fetch");
}
