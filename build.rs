//! Finds the outside tools some tests drive, so that a test whose tool is
//! missing is *ignored* (with its reason) instead of passing without doing
//! anything. Each tool sets a `cfg` when it is on the `PATH`, or when its
//! `ARBITER_REQUIRE_*` variable is `1` (then the test runs and fails loudly
//! if the tool is missing: `.ci/run` sets them after installing the tools).
//!
//! It watches only `PATH` and those variables: watching the `PATH`'s
//! folders would rebuild the whole crate whenever anything is installed.
//! A tool installed later is picked up by setting its variable (or by
//! `touch build.rs`); a tool removed later fails its test loudly.

use std::env;
use std::path::Path;

/// (cfg, executables, the variable that requires it)
const TOOLS: &[(&str, &[&str], &str)] = &[
    (
        "has_chromium",
        &["chromium", "chromium-browser"],
        "ARBITER_REQUIRE_BROWSER",
    ),
    (
        "has_schemathesis",
        &["schemathesis"],
        "ARBITER_REQUIRE_SCHEMATHESIS",
    ),
    (
        "has_spec_validator",
        &["openapi-spec-validator"],
        "ARBITER_REQUIRE_CLIENTS",
    ),
    (
        "has_python_client",
        &["openapi-python-client"],
        "ARBITER_REQUIRE_CLIENTS",
    ),
    ("has_curl", &["curl"], "ARBITER_REQUIRE_CURL"),
    ("has_containers", &["podman"], "ARBITER_REQUIRE_CONTAINERS"),
    ("has_hadolint", &["hadolint"], "ARBITER_REQUIRE_LINTERS"),
    ("has_balancer", &["haproxy"], "ARBITER_REQUIRE_BALANCER"),
    // wrk comes with haproxy in `.ci/run`.
    ("has_wrk", &["wrk"], "ARBITER_REQUIRE_BALANCER"),
    (
        "has_kubernetes_validate",
        &["kubernetes-validate"],
        "ARBITER_REQUIRE_LINTERS",
    ),
];

fn main() {
    let path = env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<_> = env::split_paths(&path).collect();
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-changed=build.rs");
    for (cfg, names, require) in TOOLS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        println!("cargo::rerun-if-env-changed={require}");
        let required = env::var(require).as_deref() == Ok("1");
        let found = names
            .iter()
            .any(|name| dirs.iter().any(|d| is_executable(&d.join(name))));
        if required || found {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
