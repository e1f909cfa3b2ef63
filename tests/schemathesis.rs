//! API fuzzing: schemathesis (from PyPI) generates requests from the served
//! OpenAPI document and checks every answer: no 5xx, every status and content
//! type documented, every body valid against its schema. A short run.
//!
//! Without schemathesis the test is ignored, with its reason (see
//! `build.rs`), unless `ARBITER_REQUIRE_SCHEMATHESIS=1` (set by `.ci/run`,
//! which installs it).

use std::process::Command;

mod common;
use common::Server;

#[test]
#[cfg_attr(
    not(has_schemathesis),
    ignore = "needs schemathesis: pip install schemathesis"
)]
fn schemathesis_finds_nothing() {
    let server = Server::start(&["--max-searches", "2", "--max-movetime-ms", "1000"]);
    let addr = &server.addr;
    let seconds = std::env::var("ARBITER_SCHEMATHESIS_SECS").unwrap_or_else(|_| "40".into());
    // Its cache goes to the working directory: keep it out of the tree.
    let work = std::env::temp_dir().join(format!("arbiter-schemathesis-{}", common::free_port()));
    std::fs::create_dir_all(&work).unwrap();
    let out = Command::new("schemathesis")
        .current_dir(&work)
        .args([
            "run",
            &format!("http://{addr}/api-docs/openapi.json"),
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
            "--max-examples",
            "25",
            "--workers",
            "1",
            "--max-time",
            &seconds,
        ])
        .env("NO_COLOR", "1")
        // How to send a PGN body (the batch takes one).
        .env("SCHEMATHESIS_HOOKS", "arbiter_hooks")
        .env(
            "PYTHONPATH",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemathesis"),
        )
        .output()
        .unwrap();
    drop(server);
    let _ = std::fs::remove_dir_all(&work);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "schemathesis found problems:\n{report}"
    );
    assert!(report.contains("passed"), "{report}");
}
