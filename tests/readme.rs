//! The README is tested: every `curl` example in it runs against a real
//! server (with curl itself), and its status and the fields shown after
//! `# ->` must be what the server answers. A status other than 200 is
//! written first (`# -> 422 {...}`); `"key":value` pairs with a string,
//! number, boolean or null value (or an array of those) are the fields
//! checked, wherever they stand in the answer; `...` marks what is left out.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;
use common::Server;

/// One example: the command, and what it should answer.
#[derive(Debug)]
struct Example {
    command: String,
    status: u16,
    /// The text after `# ->`, continuation lines joined.
    expected: String,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut lines = readme.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh" && !in_sh;
            continue;
        }
        if !in_sh || !line.starts_with("curl ") {
            continue;
        }
        // The command: continued by a trailing backslash or an open quote.
        let mut command = line.to_owned();
        while command.ends_with('\\') || command.matches('\'').count() % 2 == 1 {
            let next = lines.next().expect("a command ends");
            command.push('\n');
            command.push_str(next);
        }
        // What it answers.
        let mut expected = String::new();
        if let Some(first) = lines.peek().and_then(|l| l.strip_prefix("# -> ")) {
            expected.push_str(first);
            lines.next();
            while let Some(more) = lines.peek().and_then(|l| l.strip_prefix("#   ")) {
                expected.push(' ');
                expected.push_str(more.trim());
                lines.next();
            }
        }
        let (status, expected) = match expected.split_once(' ') {
            Some((code, rest)) if code.len() == 3 && code.bytes().all(|b| b.is_ascii_digit()) => {
                (code.parse().unwrap(), rest.to_owned())
            }
            _ => (200, expected),
        };
        out.push(Example {
            command,
            status,
            expected,
        });
    }
    out
}

/// The `"key":value` pairs of an answer as the README shows it.
fn shown_fields(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(start) = text[i..].find('"').map(|k| k + i) {
        // A JSON string: the key candidate.
        let Some((key, after)) = json_string(text, start) else {
            break;
        };
        i = after;
        let rest = text[after..].trim_start();
        if !rest.starts_with(':') {
            continue;
        }
        let value_at = text.len() - rest.len() + 1;
        let value_text = text[value_at..].trim_start();
        let value_start = text.len() - value_text.len();
        // A scalar, or an array of scalars.
        let mut stream = serde_json::Deserializer::from_str(value_text).into_iter::<Value>();
        if let Some(Ok(value)) = stream.next() {
            let scalar = |v: &Value| !v.is_object() && !v.is_array();
            let flat_array = value.as_array().is_some_and(|a| a.iter().all(scalar));
            if scalar(&value) || flat_array {
                out.push((key, value));
                i = value_start + stream.byte_offset();
                continue;
            }
        }
        i = value_start.min(bytes.len());
    }
    out
}

/// The JSON string starting at `text[start]` (a quote) and where it ends.
fn json_string(text: &str, start: usize) -> Option<(String, usize)> {
    let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<String>();
    match stream.next() {
        Some(Ok(s)) => Some((s, start + stream.byte_offset())),
        _ => None,
    }
}

/// Whether `value` holds `key: wanted` anywhere.
fn holds(value: &Value, key: &str, wanted: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.get(key) == Some(wanted) || map.values().any(|v| holds(v, key, wanted))
        }
        Value::Array(items) => items.iter().any(|v| holds(v, key, wanted)),
        _ => false,
    }
}

#[test]
fn the_parser_reads_the_readme_form() {
    let text = "```sh\ncurl -s localhost:8080/a \\\n  -d '{\"a\": 1,\n \"b\": 2}'\n# -> 422 {\"code\":\"x\",\"n\":[1,2],\n#     \"o\":{...},\"t\":true}\ncurl -s localhost:8080/b\n```\n";
    let ex = examples(text);
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].status, 422);
    assert!(ex[0].command.ends_with("\"b\": 2}'"));
    assert_eq!(
        shown_fields(&ex[0].expected),
        [
            ("code".to_owned(), Value::from("x")),
            ("n".to_owned(), serde_json::json!([1, 2])),
            ("t".to_owned(), Value::Bool(true)),
        ]
    );
    assert_eq!((ex[1].status, ex[1].expected.as_str()), (200, ""));
}

#[test]
#[cfg_attr(not(has_curl), ignore = "needs curl: apt-get install curl")]
fn every_curl_example_in_the_readme_answers_as_shown() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() >= 25, "only {} examples", examples.len());

    let server = Server::start(&[]);
    let (addr, port) = (
        server.addr.clone(),
        server.addr.rsplit(':').next().unwrap().to_owned(),
    );
    let dir = std::env::temp_dir().join(format!("arbiter-readme-{port}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked_fields = 0;
    let mut failures = Vec::new();
    for example in &examples {
        let headers = dir.join("headers");
        let command = example.command.replace("localhost:8080", &addr).replacen(
            "curl ",
            &format!("curl -D {} ", headers.display()),
            1,
        );
        let out = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(&dir)
            .output()
            .unwrap();
        let status = status_of(&headers);
        let body = String::from_utf8_lossy(&out.stdout).into_owned();
        if !out.status.success() || status != example.status {
            failures.push(format!(
                "{}\n  status {status}, expected {}: {body}",
                example.command, example.status
            ));
            continue;
        }
        let fields = shown_fields(&example.expected);
        if fields.is_empty() {
            continue;
        }
        let answer: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        for (key, value) in fields {
            checked_fields += 1;
            if !holds(&answer, &key, &value) {
                failures.push(format!(
                    "{}\n  \"{key}\": {value} is not in the answer: {body}",
                    example.command
                ));
            }
        }
    }
    // The redirected pictures landed.
    for picture in ["board.svg", "tamerlane.svg"] {
        let svg = std::fs::read_to_string(dir.join(picture)).unwrap_or_default();
        assert!(svg.starts_with("<svg"), "{picture}: {svg:.80}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        checked_fields >= 100,
        "only {checked_fields} fields checked"
    );
}

/// The status of the last response in a header dump.
fn status_of(headers: &Path) -> u16 {
    std::fs::read_to_string(headers)
        .unwrap_or_default()
        .lines()
        .rfind(|l| l.starts_with("HTTP/"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}
