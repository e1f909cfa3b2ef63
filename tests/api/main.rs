//! API tests through the real server: every route, every kind of error, the
//! OpenAPI document and its examples, all over HTTP on an ephemeral port.
//!
//! One test binary (one link), a module per route.

#[path = "../common/mod.rs"]
mod common;

mod adjudicate;
mod analyze;
mod diagram;
mod legal_moves;
mod limits;
mod openapi;
mod operations;
mod refusals;
mod review;
mod tablebase;
mod tablebase_use;
mod validate;
mod variants;

use arbiter::api::server::ServeArgs;
use common::http::{assert_problem, start, start_with, Server};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The sample `name` of the server's `/metrics` now.
async fn metric(s: &Server, name: &str) -> u64 {
    let text = s
        .client
        .get(format!("{}/metrics", s.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    common::metric_value(&text, name)
}

/// Whether the metric `name` reaches `value` within `tries` looks,
/// `every_ms` apart.
async fn reaches(s: &Server, name: &str, value: u64, tries: u32, every_ms: u64) -> bool {
    for _ in 0..tries {
        if metric(s, name).await == value {
            return true;
        }
        actix_rt::time::sleep(std::time::Duration::from_millis(every_ms)).await;
    }
    false
}

/// Waits until `n` searches run at once (a poll every 20 ms, 5 s at most).
async fn until_running(s: &Server, n: u64) {
    assert!(
        reaches(s, "arbiter_searches_running", n, 250, 20).await,
        "{n} searches never ran at once"
    );
}

const LM: &str = "/v1/variants/xiangqi/legal-moves";
const VALIDATE: &str = "/v1/variants/xiangqi/validate";
const ADJ: &str = "/v1/variants/xiangqi/adjudicate";
const ANALYZE: &str = "/v1/variants/xiangqi/analyze";
const TAXI_LM: &str = "/v1/variants/taxi/legal-moves";
const TAXI_VALIDATE: &str = "/v1/variants/taxi/validate";
const TAXI_ADJ: &str = "/v1/variants/taxi/adjudicate";
const TAM_LM: &str = "/v1/variants/tamerlane/legal-moves";
const TAM_VALIDATE: &str = "/v1/variants/tamerlane/validate";
const TAM_ADJ: &str = "/v1/variants/tamerlane/adjudicate";

/// The Chinese rule book's 图7 (《象棋竞赛规则（2020）》) after Red's first
/// move, 炮一平二 (`i0h0`): Red's cannon threatens mate from h0 and from i0
/// in turn, and Black's chariot blocks on h8 and on i8, attacking the
/// cannon each time. The Chinese code: a perpetual mate threat (长杀), Red
/// loses; the Asian code: mate threats are free, the chariot chases the
/// unprotected cannon, Black loses.
const FIG7_FEN: &str = "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K2C1 b - - 1 1";
/// Seven plies of 图7's cycle: Red's `i0h0` next would make the start
/// position stand for the third time.
const FIG7_BEFORE: &str = "i8h8 h0i0 h8i8 i0h0 i8h8 h0i0 h8i8";
/// The rule book's 图16 after Red's first move, 车二进三 (`h6h9`, check):
/// Red checks and chases the black chariot in turn. The Chinese code: one
/// check one chase (一将一捉) is forbidden, Red loses; the Asian code: a
/// check breaks a chase, drawn.
const FIG16_FEN: &str = "3a1k1R1/4a4/3cb4/P2rp4/6b2/9/9/5C3/4A4/4KA3 b - - 1 1";
/// Seven plies of 图16's cycle: Red's `h6h9` next would make the start
/// position stand for the third time.
const FIG16_BEFORE: &str = "f9f8 h9h6 f8f9 h6h9 f9f8 h9h6 f8f9";

/// `moves` followed by `last`, as one string of moves.
fn then(moves: &str, last: &str) -> String {
    format!("{moves} {last}")
}
