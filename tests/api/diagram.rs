//! `GET …/diagram.svg` and `POST …/diagram`.

use super::*;

#[actix_rt::test]
async fn diagrams_by_get_and_post() {
    let s = start().await;
    let r = s
        .client
        .get(format!(
            "{}/v1/variants/xiangqi/diagram.svg?moves=h2e2,h9g7&flip=true",
            s.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert!(r.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("max-age"));
    let svg = r.text().await.unwrap();
    assert!(svg.starts_with("<svg") && svg.contains(">帥<") && svg.contains(">將<"));
    // Errors are problems, as everywhere.
    let r = s
        .get("/v1/variants/xiangqi/diagram.svg?moves=h2e2,h2e2")
        .await;
    assert_problem(&r, 422, "illegal_move");
    let r = s.get("/v1/variants/xiangqi/diagram.svg?flip=perhaps").await;
    assert_problem(&r, 422, "invalid_request");
    let r = s.get("/v1/variants/xiangqi/diagram.svg?colour=red").await;
    assert_problem(&r, 422, "invalid_request");
    let r = s.get("/v1/variants/shogi/diagram.svg").await;
    assert_problem(&r, 404, "unknown_variant");
    let r = s
        .get("/v1/variants/tamerlane/diagram.svg?rules=%7B%22setup%22%3A%22feminine%22%7D")
        .await;
    assert_eq!(r.0, 200);
    let r = s.get("/v1/variants/tamerlane/diagram.svg?rules=nope").await;
    assert_problem(&r, 422, "invalid_rules");
    // POST with JSON, Taxi chess with its balances.
    let r = s
        .client
        .post(format!("{}/v1/variants/taxi/diagram", s.base))
        .json(&json!({"moves": ["e2e4"], "balances": {"white": 16, "black": 16}, "coordinates": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let svg = r.text().await.unwrap();
    assert!(svg.contains("White: 16") && svg.contains("Black: 16"));
    let r = s
        .post(
            "/v1/variants/taxi/diagram",
            json!({"fen": "8/8/8/8/8/8/8/8 w - - 0 1 0/0"}),
        )
        .await;
    assert_problem(&r, 422, "invalid_fen");
}
