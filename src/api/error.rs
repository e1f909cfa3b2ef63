//! The one error type of the API, rendered as `application/problem+json`
//! (RFC 9457) with a stable `type` URI and `code` per kind of failure.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::variants::{FenError, PlayError, RulesError};

/// The kinds of failure, each with a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    MalformedJson,
    InvalidRequest,
    UnsupportedMediaType,
    PayloadTooLarge,
    NotFound,
    MethodNotAllowed,
    UnknownVariant,
    InvalidFen,
    InvalidRules,
    InvalidBalances,
    InvalidNotation,
    InvalidMove,
    IllegalMove,
    GameOver,
    TooManyMoves,
    GameEnded,
    InvalidLimits,
    EngineBusy,
    Internal,
}

impl Problem {
    pub const ALL: &'static [Problem] = &[
        Problem::MalformedJson,
        Problem::InvalidRequest,
        Problem::UnsupportedMediaType,
        Problem::PayloadTooLarge,
        Problem::NotFound,
        Problem::MethodNotAllowed,
        Problem::UnknownVariant,
        Problem::InvalidFen,
        Problem::InvalidRules,
        Problem::InvalidBalances,
        Problem::InvalidNotation,
        Problem::InvalidMove,
        Problem::IllegalMove,
        Problem::GameOver,
        Problem::TooManyMoves,
        Problem::GameEnded,
        Problem::InvalidLimits,
        Problem::EngineBusy,
        Problem::Internal,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            Problem::MalformedJson => "malformed_json",
            Problem::InvalidRequest => "invalid_request",
            Problem::UnsupportedMediaType => "unsupported_media_type",
            Problem::PayloadTooLarge => "payload_too_large",
            Problem::NotFound => "not_found",
            Problem::MethodNotAllowed => "method_not_allowed",
            Problem::UnknownVariant => "unknown_variant",
            Problem::InvalidFen => "invalid_fen",
            Problem::InvalidRules => "invalid_rules",
            Problem::InvalidBalances => "invalid_balances",
            Problem::InvalidNotation => "invalid_notation",
            Problem::InvalidMove => "invalid_move",
            Problem::IllegalMove => "illegal_move",
            Problem::GameOver => "game_over",
            Problem::TooManyMoves => "too_many_moves",
            Problem::GameEnded => "game_ended",
            Problem::InvalidLimits => "invalid_limits",
            Problem::EngineBusy => "engine_busy",
            Problem::Internal => "internal",
        }
    }

    pub const fn status(self) -> StatusCode {
        match self {
            Problem::MalformedJson => StatusCode::BAD_REQUEST,
            Problem::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Problem::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Problem::NotFound | Problem::UnknownVariant => StatusCode::NOT_FOUND,
            Problem::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Problem::InvalidRequest
            | Problem::InvalidFen
            | Problem::InvalidRules
            | Problem::InvalidBalances
            | Problem::InvalidNotation
            | Problem::InvalidMove
            | Problem::IllegalMove
            | Problem::GameOver
            | Problem::TooManyMoves
            | Problem::GameEnded
            | Problem::InvalidLimits => StatusCode::UNPROCESSABLE_ENTITY,
            Problem::EngineBusy => StatusCode::SERVICE_UNAVAILABLE,
            Problem::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub const fn title(self) -> &'static str {
        match self {
            Problem::MalformedJson => "The request body is not valid JSON",
            Problem::InvalidRequest => "The request body does not have the expected fields",
            Problem::UnsupportedMediaType => "The request body must be application/json",
            Problem::PayloadTooLarge => "The request body is too large",
            Problem::NotFound => "No such resource",
            Problem::MethodNotAllowed => "Method not allowed on this resource",
            Problem::UnknownVariant => "Unknown variant",
            Problem::InvalidFen => "The FEN is not a valid position",
            Problem::InvalidRules => "The rule options are not valid",
            Problem::InvalidBalances => "The balances are not valid",
            Problem::InvalidNotation => "Unknown move notation",
            Problem::InvalidMove => "The move cannot be read",
            Problem::IllegalMove => "A move of the game is illegal",
            Problem::GameOver => "A move was played after the game had ended",
            Problem::TooManyMoves => "Too many moves",
            Problem::GameEnded => "The game has ended: there is nothing to search",
            Problem::InvalidLimits => "The search limits are not valid",
            Problem::EngineBusy => "Every search thread is busy; retry after the time given",
            Problem::Internal => "Internal error",
        }
    }

    /// The RFC 9457 `type` URI.
    pub fn type_uri(self) -> String {
        format!("urn:arbiter:problem:{}", self.code().replace('_', "-"))
    }
}

/// An RFC 9457 problem: the body of every error response.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:arbiter:problem:illegal-move",
    "title": "A move of the game is illegal",
    "status": 422,
    "detail": "move 2 ('h9g7'): the horse's leg at h8 is blocked",
    "code": "illegal_move",
    "field": "moves[2]",
    "move_index": 2,
    "move": "h9g7",
    "reason_code": "blocked"
}))]
pub struct ProblemDetails {
    /// A URI naming the kind of problem; stable.
    #[serde(rename = "type")]
    pub type_uri: String,
    /// A short summary of the kind of problem.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong with this request, for a person.
    pub detail: String,
    /// The kind of problem as a stable machine-readable code, e.g. `invalid_fen`.
    pub code: String,
    /// The request field at fault, e.g. `fen` or `moves[3]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// For a bad move in `moves`: its index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_index: Option<usize>,
    /// For a bad move: the move as sent.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_text: Option<String>,
    /// For an illegal move: the stable code of the reason (see `validate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<String>,
    /// Further members specific to the problem.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub extra: Map<String, Value>,
}

/// An error of a request. Boxed, so that `Result<_, ApiError>` stays small.
#[derive(Debug)]
pub struct ApiError(Box<ApiErrorInner>);

#[derive(Debug)]
pub struct ApiErrorInner {
    pub problem: Problem,
    pub detail: String,
    pub field: Option<String>,
    pub move_index: Option<usize>,
    pub move_text: Option<String>,
    pub reason_code: Option<String>,
    pub extra: Map<String, Value>,
}

impl std::ops::Deref for ApiError {
    type Target = ApiErrorInner;
    fn deref(&self) -> &ApiErrorInner {
        &self.0
    }
}

impl std::ops::DerefMut for ApiError {
    fn deref_mut(&mut self) -> &mut ApiErrorInner {
        &mut self.0
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.problem.code(), self.detail)
    }
}

impl ApiError {
    pub fn new(problem: Problem, detail: impl Into<String>) -> ApiError {
        ApiError(Box::new(ApiErrorInner {
            problem,
            detail: detail.into(),
            field: None,
            move_index: None,
            move_text: None,
            reason_code: None,
            extra: Map::new(),
        }))
    }

    pub fn field(mut self, field: impl Into<String>) -> ApiError {
        self.field = Some(field.into());
        self
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> ApiError {
        self.extra.insert(key.to_owned(), value.into());
        self
    }

    pub fn unknown_variant(name: &str, known: &[&str]) -> ApiError {
        ApiError::new(
            Problem::UnknownVariant,
            format!(
                "there is no variant '{name}'; known variants: {}",
                known.join(", ")
            ),
        )
        .field("variant")
    }

    pub fn invalid_fen(e: FenError) -> ApiError {
        ApiError::new(Problem::InvalidFen, format!("fen: {}", e.message)).field("fen")
    }

    pub fn invalid_rules(e: RulesError) -> ApiError {
        ApiError::new(Problem::InvalidRules, format!("rules: {}", e.message)).field("rules")
    }

    /// A move of the `moves` record could not be played.
    pub fn from_play(e: PlayError, side_names: [&str; 2]) -> ApiError {
        match e {
            PlayError::Illegal { index, text, error } => {
                let problem = if error.is_syntax() {
                    Problem::InvalidMove
                } else {
                    Problem::IllegalMove
                };
                let mut err = ApiError::new(
                    problem,
                    format!("move {index} ('{text}'): {}", error.message),
                )
                .field(format!("moves[{index}]"));
                err.move_index = Some(index);
                err.move_text = Some(text);
                err.reason_code = Some(error.code.to_owned());
                err
            }
            PlayError::GameOver {
                index,
                text,
                outcome,
            } => {
                let mut err = ApiError::new(
                    Problem::GameOver,
                    format!(
                        "move {index} ('{text}') was played after the game had ended ({}): {}",
                        outcome.result(),
                        outcome.explanation()
                    ),
                )
                .field(format!("moves[{index}]"));
                err.move_index = Some(index);
                err.move_text = Some(text);
                if let Some(reason) = outcome.reason() {
                    err = err.with("game_reason", reason.code());
                }
                if let Some(w) = outcome.winner() {
                    err = err.with("winner", side_names[w.index()]);
                }
                err.with("result", outcome.result())
            }
        }
    }

    pub fn body(&self) -> ProblemDetails {
        ProblemDetails {
            type_uri: self.problem.type_uri(),
            title: self.problem.title().to_owned(),
            status: self.problem.status().as_u16(),
            detail: self.detail.clone(),
            code: self.problem.code().to_owned(),
            field: self.field.clone(),
            move_index: self.move_index,
            move_text: self.move_text.clone(),
            reason_code: self.reason_code.clone(),
            extra: self.extra.clone(),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.problem.status()
    }

    fn error_response(&self) -> HttpResponse {
        let body = serde_json::to_vec(&self.body()).unwrap_or_else(|_| b"{}".to_vec());
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if self.problem == Problem::EngineBusy {
            response.insert_header((header::RETRY_AFTER, "1"));
        }
        response.body(body)
    }
}

/// The problems every endpoint that reads a JSON body can answer, for the
/// OpenAPI document (`code` tells them apart).
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum BodyErrors {
    /// The body is not JSON (`malformed_json`).
    #[response(status = 400, content_type = "application/problem+json")]
    Malformed(ProblemDetails),
    /// No such variant (`unknown_variant`).
    #[response(status = 404, content_type = "application/problem+json")]
    UnknownVariant(ProblemDetails),
    /// The body is over 1 MiB (`payload_too_large`).
    #[response(status = 413, content_type = "application/problem+json")]
    TooLarge(ProblemDetails),
    /// The body is not sent as `application/json` (`unsupported_media_type`).
    #[response(status = 415, content_type = "application/problem+json")]
    UnsupportedMediaType(ProblemDetails),
    /// A field is wrong: bad FEN, rules, notation, balances or limits, an
    /// illegal move in `moves` (named by index), a game that has ended, or an
    /// unknown field (`code` says which).
    #[response(status = 422, content_type = "application/problem+json")]
    Unprocessable(ProblemDetails),
}
