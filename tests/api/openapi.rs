//! The OpenAPI document: served as checked in, every example request working, every closed set an enum, every problem member documented, the answer examples real answers.

use super::*;

#[actix_rt::test]
async fn swagger_ui_and_openapi() {
    let s = start().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = client
        .get(format!("{}/swagger-ui", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(r.headers()["location"], "/swagger-ui/");
    let r = client
        .get(format!("{}/swagger-ui/", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.text().await.unwrap().contains("swagger-ui"));

    let (st, _, served) = s.get("/api-docs/openapi.json").await;
    assert_eq!(st, StatusCode::OK);
    assert!(served["openapi"].as_str().unwrap().starts_with("3.1"));
    let checked_in: Value =
        serde_json::from_str(include_str!("../../openapi/openapi.json")).unwrap();
    if let Some(at) = first_difference(&served, &checked_in, String::new()) {
        panic!("openapi/openapi.json is stale at {at}: regenerate it with `cargo run -- openapi > openapi/openapi.json`");
    }
}

/// The JSON pointer of the first place where two documents differ.
fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(u), Some(v)) => first_difference(u, v, format!("{at}/{k}")),
                _ => Some(format!("{at}/{k}")),
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (u, v))| first_difference(u, v, format!("{at}/{i}"))),
        _ => (a != b).then_some(at),
    }
}

/// Every example request of the OpenAPI document works against the server.
#[actix_rt::test]
async fn every_openapi_example_works() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let mut tried = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        let path = path.replace("{variant}", "xiangqi");
        for (method, op) in item.as_object().unwrap() {
            if method == "get" {
                let (st, _, body) = s.get(&path).await;
                assert_eq!(st, StatusCode::OK, "GET {path}: {body}");
                tried += 1;
                continue;
            }
            let examples = op["requestBody"]["content"]["application/json"]["examples"].as_object();
            let examples =
                examples.unwrap_or_else(|| panic!("{method} {path} has no request examples"));
            assert!(!examples.is_empty());
            for (name, ex) in examples {
                // Examples named "taxi: ..." or "tamerlane: ..." are for those paths.
                let path = match name.split_once(':') {
                    Some((variant @ ("taxi" | "tamerlane"), _)) => {
                        path.replace("/xiangqi/", &format!("/{variant}/"))
                    }
                    _ => path.clone(),
                };
                let (st, _, body) = s.post(&path, ex["value"].clone()).await;
                assert_eq!(st, StatusCode::OK, "example '{name}' of {path}: {body}");
                tried += 1;
            }
        }
    }
    assert!(tried >= 12, "only {tried} examples");
}

/// Every closed set of values is an enum in the document, the lists are
/// complete, and every path names its variant by the enum.
#[actix_rt::test]
async fn the_document_types_every_closed_set() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let schemas = &doc["components"]["schemas"];
    let values = |name: &str| -> Vec<String> {
        schemas[name]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{name} is not an enum"))
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(values("VariantId"), ["xiangqi", "taxi", "tamerlane"]);
    assert_eq!(values("Status"), ["ongoing", "decisive", "drawn"]);
    assert_eq!(values("RepetitionRule"), ["asian", "chinese", "none"]);
    assert_eq!(values("GameResult"), ["1-0", "0-1", "1/2-1/2", "*"]);
    assert_eq!(values("Side"), ["red", "white", "black"]);
    assert_eq!(
        values("NotationName"),
        [
            "iccs",
            "ucci",
            "fairy",
            "uci",
            "wxf",
            "chinese",
            "san",
            "coordinate"
        ]
    );
    let reasons = values("Reason");
    for r in [
        "checkmate",
        "stalemate",
        "perpetual_chase",
        "bankruptcy",
        "citadel",
        "bare_king",
        "seventy_five_moves",
    ] {
        assert!(reasons.contains(&r.to_owned()), "{r}");
    }
    assert_eq!(
        values("RecordFormat"),
        [
            "pgn",
            "dhtmlxq",
            "dpxq_text",
            "playok_wxf",
            "compact",
            "xqf"
        ]
    );
    let warnings = values("WarningCode");
    for w in [
        "damaged_tag",
        "trailer",
        "no_moves",
        "duplicate_tag",
        "variations_skipped",
    ] {
        assert!(warnings.contains(&w.to_owned()), "{w}");
    }
    let refusals = values("Refusal");
    assert_eq!(refusals.len(), 30);
    for r in [
        "blocked",
        "ambiguous",
        "flying_general",
        "insufficient_funds",
        "castling_through_threat",
        "promotion_required",
        "citadel",
        "dormant",
        "immune",
        "bad_relocation",
        "exchange_used",
        "second_arrival_barred",
        "bad_notation",
    ] {
        assert!(refusals.contains(&r.to_owned()), "{r}");
    }
    let problems = values("Problem");
    for p in [
        "malformed_json",
        "invalid_request",
        "unknown_variant",
        "illegal_move",
        "game_over",
        "engine_busy",
        "rate_limited",
        "too_many_searches",
        "cors_refused",
    ] {
        assert!(problems.contains(&p.to_owned()), "{p}");
    }
    // Fields refer to the enums.
    let reference = |schema: &Value| -> String {
        let s = schema.get("$ref").or_else(|| {
            schema["oneOf"]
                .as_array()?
                .iter()
                .find_map(|x| x.get("$ref"))
        });
        s.and_then(Value::as_str).unwrap_or_default().to_owned()
    };
    let field = |schema: &str, name: &str| {
        let props = schemas[schema]["properties"]
            .as_object()
            .or_else(|| {
                schemas[schema]["allOf"]
                    .as_array()?
                    .iter()
                    .find_map(|x| x["properties"].as_object())
            })
            .unwrap_or_else(|| panic!("{schema} has no properties"));
        reference(&props[name])
    };
    for (schema, name, target) in [
        ("GameStatus", "status", "Status"),
        ("GameStatus", "result", "GameResult"),
        ("GameStatus", "winner", "Side"),
        ("GameStatus", "reason", "Reason"),
        ("PositionSummary", "side_to_move", "Side"),
        ("ValidateResponse", "reason_code", "Refusal"),
        ("ValidateResponse", "variant", "VariantId"),
        ("ProblemDetails", "code", "Problem"),
        ("ProblemDetails", "reason_code", "Refusal"),
        ("ProblemDetails", "winner", "Side"),
        ("ProblemDetails", "game_reason", "Reason"),
        ("PositionRequest", "notation", "NotationName"),
        ("PositionRequest", "rules", "Rules"),
        ("PositionRequest", "moves", "Moves"),
        ("RepetitionDoc", "in_breach", "Side"),
        ("SideConduct", "conduct", "ConductCode"),
        ("RepetitionMark", "outcome", "MoverOutcome"),
        ("Health", "status", "HealthStatus"),
    ] {
        assert_eq!(
            field(schema, name),
            format!("#/components/schemas/{target}"),
            "{schema}.{name}"
        );
    }
    // Rules: documented per variant, every option with a type, a default and words.
    let rules: Vec<&str> = schemas["Rules"]["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["$ref"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "#/components/schemas/XiangqiRules",
            "#/components/schemas/TaxiRules",
            "#/components/schemas/TamerlaneRules"
        ]
    );
    for name in ["XiangqiRules", "TaxiRules", "TamerlaneRules"] {
        let rules = &schemas[name];
        assert_eq!(rules["additionalProperties"], false, "{name}");
        for (option, spec) in rules["properties"].as_object().unwrap() {
            assert!(
                spec.get("default").is_some(),
                "{name}.{option} has no default"
            );
            assert!(
                spec["description"].as_str().is_some_and(|d| d.len() > 10),
                "{name}.{option}"
            );
        }
    }
    assert_eq!(
        schemas["TamerlaneRules"]["properties"]["repetition"]["default"],
        "threefold"
    );
    assert_eq!(
        schemas["TamerlaneRules"]["properties"]["move_limit_plies"]["default"],
        100
    );
    // Every path with a variant takes the enum.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for p in op["parameters"].as_array().into_iter().flatten() {
                if p["name"] == "variant" {
                    assert_eq!(
                        p["schema"]["$ref"], "#/components/schemas/VariantId",
                        "{method} {path}"
                    );
                }
            }
            // Each error status has its own example, of that status.
            for (status, response) in op["responses"].as_object().unwrap() {
                assert!(
                    response["description"]
                        .as_str()
                        .is_some_and(|d| !d.is_empty()),
                    "{method} {path} {status}"
                );
                if let Some(problem) = response["content"].get("application/problem+json") {
                    let example = &problem["example"];
                    assert_eq!(
                        example["status"].to_string(),
                        *status,
                        "{method} {path} {status}: {example}"
                    );
                    assert!(problems.contains(&example["code"].as_str().unwrap().to_owned()));
                }
            }
        }
    }
}

/// Every member an error body can carry is in the problem's schema: a
/// spread of real problems, each checked against it.
#[actix_rt::test]
async fn every_problem_member_is_documented() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let documented = doc["components"]["schemas"]["ProblemDetails"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect::<Vec<_>>();
    let problems = [
        s.post(LM, json!({"moves": ["h3e3"]})).await,
        s.post(
            ADJ,
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9", "d9e9"]}),
        )
        .await,
        s.post(
            "/v1/variants/xiangqi/analyze",
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]}),
        )
        .await,
        s.post(LM, json!({"rules": {"x": 1}})).await,
        s.post(VALIDATE, json!({"move": "C2.5"})).await,
        s.get("/v1/variants/go").await,
        s.get(LM).await,
        s.get("/nothing").await,
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (status, _, body) in &problems {
        assert!(status.is_client_error(), "{body}");
        for key in body.as_object().unwrap().keys() {
            assert!(
                documented.contains(key),
                "'{key}' of {body} is not documented"
            );
            seen.insert(key.clone());
        }
    }
    for key in [
        "game_reason",
        "result",
        "winner",
        "notation_hint",
        "reason_code",
        "move_index",
    ] {
        assert!(seen.contains(key), "{key} was not exercised");
    }
}

/// The 200 examples of the document are real answers: each equals what the
/// server answers to the request it stands for (long lists shortened, and
/// the timing of a search left aside).
#[actix_rt::test]
async fn the_answer_examples_are_real_answers() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let example = |name: &str| doc["components"]["schemas"][name]["example"].clone();
    let (_, _, mut real) = s.post(LM, json!({"moves": ["h2e2", "h9g7"]})).await;
    let shown = example("LegalMovesResponse");
    let n = shown["legal_moves"].as_array().unwrap().len();
    real["legal_moves"].as_array_mut().unwrap().truncate(n);
    assert_eq!(shown, real);
    let (_, _, real) = s
        .post(
            ADJ,
            json!({"fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]}),
        )
        .await;
    assert_eq!(example("AdjudicateResponse"), real);
    let (_, _, real) = s
        .post(VALIDATE, json!({"fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1R7/1NBAKABNR w - - 0 1", "move": "b0c2"}))
        .await;
    assert_eq!(example("ValidateResponse"), real);
    let (_, _, mut real) = s
        .post(
            "/v1/variants/xiangqi/analyze",
            json!({"fen": "4k4/9/9/9/9/9/9/9/R8/1R1K4p w - - 0 1", "depth": 5}),
        )
        .await;
    let mut shown = example("AnalyzeResponse");
    for timing in ["nodes", "nps", "time_ms"] {
        assert!(real[timing].as_u64().is_some());
        real[timing] = Value::Null;
        shown[timing] = Value::Null;
    }
    assert_eq!(shown, real);
}

/// The 429 of the per-client limits is documented on every operation but
/// the probes', with the headers that come with it.
#[actix_rt::test]
async fn every_limited_route_documents_its_429() {
    let s = start().await;
    let (_, _, doc) = s.get("/api-docs/openapi.json").await;
    let mut limited = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let probe = ["/healthz", "/readyz", "/metrics"].contains(&path.as_str());
            let answer = &op["responses"]["429"];
            if probe {
                assert!(answer.is_null(), "{method} {path} is never limited");
                continue;
            }
            for h in ["Retry-After", "RateLimit", "RateLimit-Policy"] {
                assert!(
                    answer["headers"][h].is_object(),
                    "{method} {path}: 429 without {h}"
                );
            }
            let example = &answer["content"]["application/problem+json"]["example"];
            assert_eq!(example["status"], 429, "{method} {path}");
            limited += 1;
        }
    }
    assert!(limited >= 10, "{limited} operations");
}
