//! Reading requests: a JSON body extractor whose every refusal names the
//! field in JSON terms and says what it expects, in our own words (no parser
//! wording reaches a client); a batch's body (JSON or a PGN file); the
//! diagram's query. A variant's `rules` are read the same way, once the
//! variant is known (see [`super::rules`]).

use std::any::TypeId;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::LazyLock;

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa::IntoParams;
use utoipa::ToSchema;

use super::engine::EngineConfig;
use super::error::{ApiError, Problem};
use super::state::AppState;
use crate::search::analysis::MAX_MULTIPV;
use crate::variants::{NotationName, VariantId};
use strum::VariantArray;

/// The largest request body accepted (1 MiB).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// A JSON request body of type `T`, at most `LIMIT` bytes: an object whose
/// fields are checked against `T`'s schema (no unknown field, every
/// required one present) before each is read.
pub struct Body<T, const LIMIT: usize = MAX_BODY_BYTES>(pub T);

impl<T: DeserializeOwned + ToSchema + 'static, const LIMIT: usize> FromRequest for Body<T, LIMIT> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json = is_json(req);
        let config = config_of(req);
        let payload = web::Payload::from_request(req, payload);
        Box::pin(async move {
            if !json {
                return Err(ApiError::new(
                    Problem::UnsupportedMediaType,
                    "send the body as JSON with 'Content-Type: application/json'",
                ));
            }
            let bytes = bytes_of(payload, LIMIT).await?;
            read_body(&bytes, &config).map(Body)
        })
    }
}

/// Whether a request says its body is JSON.
pub(crate) fn is_json(req: &HttpRequest) -> bool {
    matches!(req.mime_type(), Ok(Some(m))
        if m.subtype() == "json" || m.suffix().is_some_and(|s| s == "json"))
}

/// The server's search limits, for the words of a limit's refusal.
pub(crate) fn config_of(req: &HttpRequest) -> EngineConfig {
    req.app_data::<web::Data<AppState>>()
        .map(|s| s.engine.config.clone())
        .unwrap_or_default()
}

/// The whole body, at most `limit` bytes.
pub(crate) async fn bytes_of(
    payload: impl Future<Output = Result<web::Payload, actix_web::Error>>,
    limit: usize,
) -> Result<web::Bytes, ApiError> {
    let payload = payload
        .await
        .map_err(|_| ApiError::new(Problem::MalformedJson, "the body could not be read"))?;
    match payload.to_bytes_limited(limit).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(ApiError::new(
            Problem::MalformedJson,
            "the body could not be read to its end",
        )),
        Err(_) => Err(ApiError::new(
            Problem::PayloadTooLarge,
            format!("the body is larger than the limit of {limit} bytes"),
        )),
    }
}

/// A query string's name=value pairs.
pub(crate) fn query_pairs(query: &str) -> Result<Vec<(String, String)>, ApiError> {
    web::Query::<Vec<(String, String)>>::from_query(query)
        .map(web::Query::into_inner)
        .map_err(|_| {
            ApiError::new(
                Problem::InvalidRequest,
                "the query string cannot be read as name=value pairs",
            )
        })
}

/// A notation named in a query.
pub(crate) fn query_notation(value: String) -> Result<NotationName, ApiError> {
    let v = Value::String(value);
    serde_json::from_value(v.clone())
        .map_err(|_| field_error("notation", Some(&v), &EngineConfig::default()))
}

/// A query parameter that `what` does not take.
pub(crate) fn unknown_parameter(name: &str, what: &str, takes: &str) -> ApiError {
    ApiError::new(
        Problem::InvalidRequest,
        format!("unknown parameter '{name}'; {what} takes: {takes}"),
    )
    .field(name)
}

/// Reads a request body: JSON, an object, the fields of `T`.
pub fn read_body<T: DeserializeOwned + ToSchema + 'static>(
    bytes: &[u8],
    config: &EngineConfig,
) -> Result<T, ApiError> {
    // The usual body, an object `T` reads as it stands (every body type
    // refuses unknown fields), is read straight; any other is read again
    // below, where each refusal finds its words.
    let object = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if object {
        if let Ok(body) = serde_json::from_slice(bytes) {
            return Ok(body);
        }
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        let detail = if e.is_eof() {
            "the body is not valid JSON: it ends too soon".to_owned()
        } else {
            format!(
                "the body is not valid JSON: something is wrong at line {}, column {}",
                e.line(),
                e.column()
            )
        };
        ApiError::new(Problem::MalformedJson, detail)
    })?;
    let Value::Object(object) = &value else {
        return Err(ApiError::new(
            Problem::InvalidRequest,
            format!(
                "the body must be a JSON object, like {{\"moves\": [\"h2e2\"]}}; it is {}",
                describe(&value)
            ),
        ));
    };
    check_fields(object, Fields::of::<T>(), "", "this request")?;
    serde_path_to_error::deserialize(&value).map_err(|e| {
        let field = e.path().to_string();
        field_error(&field, at_path(&value, e.path()), config)
    })
}

/// The properties a schema of an object allows, and the required ones.
fn properties(schema: &RefOr<Schema>) -> (Vec<String>, Vec<String>) {
    match schema {
        RefOr::T(Schema::Object(o)) => (o.properties.keys().cloned().collect(), o.required.clone()),
        _ => (Vec::new(), Vec::new()),
    }
}

/// The members an object of a body or rules type may have, and the ones it
/// must: read from the type's schema the first time it is asked, then kept
/// (a schema is built afresh on every call, and a request must not pay for
/// that).
pub(super) struct Fields {
    known: Vec<String>,
    required: Vec<String>,
}

impl Fields {
    /// The fields of `T`.
    pub(super) fn of<T: ToSchema + 'static>() -> &'static Fields {
        type Kept = std::sync::RwLock<HashMap<TypeId, &'static Fields>>;
        static KEPT: LazyLock<Kept> = LazyLock::new(Kept::default);
        let id = TypeId::of::<T>();
        if let Some(&fields) = KEPT.read().unwrap_or_else(|e| e.into_inner()).get(&id) {
            return fields;
        }
        let (known, required) = properties(&T::schema());
        let mut kept = KEPT.write().unwrap_or_else(|e| e.into_inner());
        kept.entry(id)
            .or_insert_with(|| Box::leak(Box::new(Fields { known, required })))
    }
}

/// Refuses unknown members and missing required ones; `prefix` is the path
/// of the object (`""` for the body, `"rules."` for rules).
pub(super) fn check_fields(
    object: &Map<String, Value>,
    fields: &Fields,
    prefix: &str,
    what: &str,
) -> Result<(), ApiError> {
    let Fields { known, required } = fields;
    let problem = if prefix.is_empty() {
        Problem::InvalidRequest
    } else {
        Problem::InvalidRules
    };
    if let Some(name) = object.keys().find(|k| !known.contains(k)) {
        return Err(ApiError::new(
            problem,
            format!(
                "unknown field '{prefix}{name}'; {what} takes: {}",
                known.join(", ")
            ),
        )
        .field(format!("{prefix}{name}")));
    }
    if let Some(name) = required.iter().find(|k| !object.contains_key(*k)) {
        return Err(ApiError::new(
            problem,
            format!(
                "'{prefix}{name}' is required: {}",
                expectation(name).unwrap_or("see the schema")
            ),
        )
        .field(format!("{prefix}{name}")));
    }
    Ok(())
}

/// The value at a path of the body, if there is one.
pub(super) fn at_path<'v>(value: &'v Value, path: &serde_path_to_error::Path) -> Option<&'v Value> {
    use serde_path_to_error::Segment;
    let mut v = value;
    for segment in path.iter() {
        v = match segment {
            Segment::Seq { index } => v.get(index)?,
            Segment::Map { key } => v.get(key)?,
            Segment::Enum { .. } | Segment::Unknown => return Some(v),
        };
    }
    Some(v)
}

/// A JSON value in a few words, for "got …".
pub(super) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_text(n),
        Value::String(s) if s.chars().count() <= 40 => format!("the string \"{s}\""),
        Value::String(_) => "a long string".to_owned(),
        Value::Array(a) => format!("an array of {} elements", a.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// A JSON number as a person writes it: whole numbers without an exponent.
fn number_text(n: &serde_json::Number) -> String {
    match n.as_f64() {
        Some(f) if !n.is_i64() && !n.is_u64() && f.fract() == 0.0 && f.abs() < 1e21 => {
            format!("{f:.0}")
        }
        _ => n.to_string(),
    }
}

/// What `notation` takes: every notation name, in their order.
static NOTATION_NAMES: LazyLock<String> = LazyLock::new(|| {
    let names: Vec<&str> = NotationName::VARIANTS.iter().map(|n| n.as_str()).collect();
    format!("one of the notation names: {}", names.join(", "))
});

/// What `multipv` takes.
static MULTIPV_WORDS: LazyLock<String> =
    LazyLock::new(|| format!("a whole number from 1 to {MAX_MULTIPV}"));

/// What each field of a request body takes, in words. A test checks that
/// every field of every request schema is here.
pub fn expectation(field: &str) -> Option<&'static str> {
    Some(match field {
        "fen" => "a FEN string",
        "moves" => "an array of move strings, or one string of moves separated by spaces",
        "moves[]" | "move" => "a move string",
        "rules" => "an object of rule options",
        "notation" => NOTATION_NAMES.as_str(),
        "balances" => "an object of two whole numbers, like {\"white\": 16, \"black\": 16}",
        "balances.white" | "balances.black" => "a whole number of units, 0 or more",
        "depth" => "a whole number of plies, 1 or more",
        "movetime_ms" => "a whole number of milliseconds, 1 or more",
        "nodes" => "a whole number of nodes, 1 or more",
        "multipv" => MULTIPV_WORDS.as_str(),
        "level" => "a whole number from 1 (weakest) to 20 (full strength)",
        "seed" => "a whole number from 0 to 18446744073709551615",
        "evaluation" => "'nnue' or 'hce'",
        "flip" | "coordinates" | "highlight" | "all_moves" | "threat" => "true or false",
        "searchmoves" | "exclude" => "an array of move strings",
        "searchmoves[]" | "exclude[]" => "a move string",
        "pgn" => "one game record in PGN, as one string",
        "format" => "'json', or 'pgn' (adjudicate) or 'svg' (review)",
        "games" => "an array of 1 to 1,000 games",
        "games[]" => {
            "a game: an object with some of id, fen, moves, pgn, rules, notation, balances"
        }
        "id" => "a string or a whole number",
        _ => return None,
    })
}

/// The refusal of a field whose value has the wrong type or is out of range.
fn field_error(field: &str, value: Option<&Value>, config: &EngineConfig) -> ApiError {
    // A batch's `games[2].moves[3]` is described as a game's `moves[3]`,
    // and that as `moves[]`.
    let inner = field
        .strip_prefix("games[")
        .and_then(|rest| rest.split_once("]."))
        .map_or(field, |(_, rest)| rest);
    let generic = match inner.split_once('[') {
        Some((head, _)) => format!("{head}[]"),
        None => inner.to_owned(),
    };
    let root = inner.split(['.', '[']).next().unwrap_or(inner);
    let got = value.map(describe).unwrap_or_else(|| "nothing".to_owned());
    // A number that no whole number of the right size can hold is a limit
    // out of range, said the way the range check says it.
    let range = match root {
        "depth" => Some(u64::from(config.max_depth)),
        "movetime_ms" => Some(config.max_movetime.as_millis() as u64),
        "nodes" => Some(config.max_nodes),
        "multipv" => Some(MAX_MULTIPV as u64),
        _ => None,
    };
    if let (Some(max), Some(Value::Number(n))) = (range, value) {
        let whole = n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0);
        if whole {
            return ApiError::new(
                Problem::InvalidLimits,
                format!(
                    "{field}: {} is out of range; use 1 to {max}",
                    number_text(n)
                ),
            )
            .field(field);
        }
    }
    let problem = match root {
        "notation" => Problem::InvalidNotation,
        "balances" => Problem::InvalidBalances,
        "depth" | "movetime_ms" | "nodes" | "multipv" => Problem::InvalidLimits,
        _ => Problem::InvalidRequest,
    };
    let expected = expectation(&generic).unwrap_or("another value");
    ApiError::new(problem, format!("'{field}' must be {expected}; got {got}")).field(field)
}

/// The variant a route's path names: `/v1/variants/{variant}/…`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct VariantPath {
    /// The variant
    #[param(example = "xiangqi")]
    pub variant: VariantId,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::routes::adjudicate::AdjudicateRequest;
    use crate::api::routes::analyze::AnalyzeRequest;
    use crate::api::routes::batch::{BatchGame, BatchRequest};
    use crate::api::routes::diagram::DiagramRequest;
    use crate::api::routes::legal_moves::PositionRequest;
    use crate::api::routes::validate::ValidateRequest;
    use crate::api::wire::Balances;
    use utoipa::PartialSchema;

    /// Every field of every request body has words for what it takes, so a
    /// new field cannot be refused with "another value".
    #[test]
    fn every_request_field_is_described() {
        let schemas = [
            PositionRequest::schema(),
            ValidateRequest::schema(),
            AnalyzeRequest::schema(),
            DiagramRequest::schema(),
            AdjudicateRequest::schema(),
            BatchGame::schema(),
        ];
        for schema in &schemas {
            let (fields, _) = properties(schema);
            assert!(fields.len() >= 5);
            for field in fields {
                assert!(expectation(&field).is_some(), "{field}");
            }
        }
        for field in properties(&Balances::schema()).0 {
            assert!(expectation(&format!("balances.{field}")).is_some());
        }
        assert!(expectation("moves[]").is_some());
        for field in properties(&BatchRequest::schema()).0 {
            assert!(expectation(&field).is_some(), "{field}");
        }
        assert!(expectation("games[]").is_some());
    }

    #[test]
    fn numbers_read_as_written() {
        let n = |t: &str| number_text(&serde_json::from_str(t).unwrap());
        assert_eq!(n("-5"), "-5");
        assert_eq!(n("1.5"), "1.5");
        assert_eq!(n("99999999999999999999"), "100000000000000000000");
        assert_eq!(n("1e300"), "1e+300");
    }
}
