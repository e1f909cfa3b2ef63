//! The image, proven without a Docker daemon: buildah builds the
//! Dockerfile's runtime stage around the binary these tests were built
//! with (`--build-context build=DIR` stands in for the build stage), and
//! podman runs it as an operator would harden it (runc, a read-only root,
//! every capability dropped). The container must answer `/healthz` and a
//! legal-moves call, pass its own `HEALTHCHECK`, run as uid 65532 with no
//! capabilities, and stop cleanly on SIGTERM.
//!
//! No registry is reachable on CI machines, so the runtime stage's base
//! (`gcr.io/distroless/cc-debian12:nonroot`) is a local stand-in built
//! from Debian's archive by `.ci/standin-base.sh` (this test builds it when
//! it is missing). Needs root, buildah, podman and runc; ignored without
//! them unless `ARBITER_REQUIRE_CONTAINERS=1` (set by `.ci/run`).

use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;

const BASE: &str = "gcr.io/distroless/cc-debian12:nonroot";

fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"))
}

/// Runs a command that must succeed; its standard output.
fn ok(program: &str, args: &[&str]) -> String {
    let out = run(program, args);
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Removes the container and the image even when the test fails.
struct Cleanup {
    container: String,
    image: String,
    context: std::path::PathBuf,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = run("podman", &["rm", "-f", "--ignore", &self.container]);
        let _ = run("podman", &["rmi", "-f", "--ignore", &self.image]);
        let _ = std::fs::remove_dir_all(&self.context);
    }
}

#[tokio::test]
#[cfg_attr(
    not(has_containers),
    ignore = "needs root, buildah, podman and runc (Debian's packages)"
)]
async fn the_image_builds_runs_hardened_and_stops_cleanly() {
    let root = env!("CARGO_MANIFEST_DIR");
    let port = common::free_port();
    let cleanup = Cleanup {
        container: format!("arbiter-test-{port}"),
        image: format!("localhost/arbiter:test-{port}"),
        context: std::env::temp_dir().join(format!("arbiter-image-{port}")),
    };
    let (name, image) = (cleanup.container.as_str(), cleanup.image.as_str());

    if !run("podman", &["image", "exists", BASE]).status.success() {
        ok("bash", &[&format!("{root}/.ci/standin-base.sh")]);
    }

    // The build stage's output, as the Dockerfile's COPY --from=build expects it.
    let release = cleanup.context.join("src/target/release");
    std::fs::create_dir_all(&release).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_arbiter"), release.join("arbiter")).unwrap();
    let started = Instant::now();
    ok(
        "buildah",
        &[
            "build",
            "--isolation",
            "chroot",
            "--format",
            "docker",
            "--pull=never",
            "--build-context",
            &format!("build={}", cleanup.context.display()),
            "-f",
            &format!("{root}/Dockerfile"),
            "-t",
            image,
            root,
        ],
    );
    let built = started.elapsed();

    // The docker format keeps what the Dockerfile says about running it.
    let inspect: serde_json::Value =
        serde_json::from_str(&ok("podman", &["image", "inspect", image])).unwrap();
    let (config, health) = (&inspect[0]["Config"], &inspect[0]["Healthcheck"]);
    assert_eq!(config["User"], "65532:65532", "{config}");
    assert_eq!(config["StopSignal"], "SIGTERM", "{config}");
    assert_eq!(
        health["Test"],
        serde_json::json!(["CMD", "/usr/local/bin/arbiter", "healthcheck"]),
        "{inspect}"
    );

    // Explicit limits within the current hard ones: podman's defaults are
    // above what a sandbox without CAP_SYS_RESOURCE may set.
    let nofile = ok("sh", &["-c", "ulimit -Hn"]).trim().to_owned();
    let nofile = if nofile == "unlimited" {
        "65536".to_owned()
    } else {
        nofile
    };
    ok(
        "podman",
        &[
            "run",
            "-d",
            "--name",
            name,
            "--runtime",
            "runc",
            "--read-only",
            "--cap-drop",
            "all",
            "--ulimit",
            &format!("nofile={nofile}:{nofile}"),
            "--ulimit",
            "nproc=4096:4096",
            "-p",
            &format!("127.0.0.1:{port}:8080"),
            image,
        ],
    );
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let up = Instant::now();
    loop {
        match client.get(format!("{base}/healthz")).send().await {
            Ok(r) if r.status() == 200 => break,
            _ if up.elapsed() > Duration::from_secs(20) => {
                let logs = run("podman", &["logs", name]);
                panic!(
                    "the container never answered /healthz: {}",
                    String::from_utf8_lossy(&logs.stderr)
                );
            }
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    let answering = up.elapsed();

    let r = client
        .post(format!("{base}/v1/variants/xiangqi/legal-moves"))
        .json(&serde_json::json!({"moves": ["h2e2", "h9g7"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    // The same answer as outside the container (`arbiter perft xiangqi 1 --fen ...`).
    assert_eq!(
        body["fen"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!(body["legal_moves"].as_array().unwrap().len(), 35, "{body}");

    // The image's own HEALTHCHECK, run by podman inside the container.
    ok("podman", &["healthcheck", "run", name]);
    let state: serde_json::Value =
        serde_json::from_str(&ok("podman", &["container", "inspect", name])).unwrap();
    let state = &state[0];
    assert_eq!(state["HostConfig"]["ReadonlyRootfs"], true);
    assert_eq!(state["State"]["Health"]["Status"], "healthy", "{state}");
    let pid = state["State"]["Pid"].as_u64().unwrap();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert!(field("Uid:").iter().all(|&u| u == "65532"), "{status}");
    assert_eq!(field("CapEff:"), ["0000000000000000"], "{status}");
    // SIGTERM (the image's STOPSIGNAL): a clean stop, well within the timeout.
    let stopping = Instant::now();
    ok("podman", &["stop", "-t", "10", name]);
    let stopped = stopping.elapsed();
    let exit = ok(
        "podman",
        &["inspect", name, "--format", "{{.State.ExitCode}}"],
    );
    assert_eq!(exit.trim(), "0", "exit code after SIGTERM");
    assert!(
        stopped < Duration::from_secs(8),
        "podman stop took {stopped:?}: the server ignored SIGTERM"
    );
    let logs = run("podman", &["logs", name]);
    let logs =
        String::from_utf8_lossy(&logs.stderr).into_owned() + &String::from_utf8_lossy(&logs.stdout);
    assert!(logs.contains("stopped"), "{logs}");
    eprintln!(
        "container: built in {} ms, answering {} ms after run, stopped in {} ms",
        built.as_millis(),
        answering.as_millis(),
        stopped.as_millis()
    );
}
