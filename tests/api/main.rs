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
mod openapi;
mod operations;
mod refusals;
mod validate;
mod variants;

use arbiter::api::server::ServeArgs;
use common::http::{assert_problem, start, start_with, Server};
use reqwest::StatusCode;
use serde_json::{json, Value};

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
