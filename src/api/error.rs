//! The one error type of the API, rendered as `application/problem+json`
//! (RFC 9457) with a stable `type` URI and `code` per kind of failure; and
//! the panic guard that turns a bug into a logged 500 problem.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::variants::{
    FenError, GameResult, NotationName, Outcome, Reason, Refusal, RulesError, Side, Variant,
    VariantId,
};

/// The kinds of failure, each with a stable code (`code` in a problem).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Problem {
    /// 400: the body is not JSON.
    MalformedJson,
    /// 422: the body is not a JSON object, or a field is unknown, missing or
    /// of the wrong type (named in `field`).
    InvalidRequest,
    /// 415: the body is not sent as `application/json`.
    UnsupportedMediaType,
    /// 413: the body is over 1 MiB.
    PayloadTooLarge,
    /// 404: no such route.
    NotFound,
    /// 405: the method is not allowed on the route (see `Allow`).
    MethodNotAllowed,
    /// 400: a cross-origin request (a CORS preflight) that the server's
    /// `--cors-origins` does not allow.
    CorsRefused,
    /// 404: no such variant.
    UnknownVariant,
    /// 422: the FEN is malformed or a position that cannot arise.
    InvalidFen,
    /// 422: a rule option is unknown or out of range.
    InvalidRules,
    /// 422: Taxi chess balances disagree with the FEN, or balances for a
    /// variant without money.
    InvalidBalances,
    /// 422: the notation is not one of the variant's.
    InvalidNotation,
    /// 422: a move cannot be read in the request's notation.
    InvalidMove,
    /// 422: a move of `moves` is illegal.
    IllegalMove,
    /// 422: a move of `moves` comes after the end of the game.
    GameOver,
    /// 422: more than 10,000 moves.
    TooManyMoves,
    /// 422: `/analyze` on a game that is over.
    GameEnded,
    /// 422: the `pgn` record cannot be read (its line is named), or a tag
    /// of it is not valid.
    InvalidPgn,
    /// 422: a batch with no game or more than 1,000.
    TooManyGames,
    /// 422: a search limit is out of range (named in `field`).
    InvalidLimits,
    /// 422: `/tablebase` on a position no endgame table holds (its
    /// material and the tables held are named).
    NotInTablebase,
    /// 429: the client sent more requests than its share (`--rate-limit`);
    /// retry after `Retry-After`.
    RateLimited,
    /// 429: the client already has as many searches running or waiting as
    /// one client may (`--max-searches-per-client`); retry after one ends.
    TooManySearches,
    /// 503: every search thread is busy; retry after `Retry-After`.
    EngineBusy,
    /// 500: a bug; it has been logged.
    Internal,
}

impl Problem {
    /// The code on the wire, e.g. `invalid_fen`.
    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The HTTP status this problem is answered with.
    pub const fn status(self) -> StatusCode {
        match self {
            Problem::MalformedJson | Problem::CorsRefused => StatusCode::BAD_REQUEST,
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
            | Problem::InvalidPgn
            | Problem::TooManyGames
            | Problem::InvalidLimits
            | Problem::NotInTablebase => StatusCode::UNPROCESSABLE_ENTITY,
            Problem::RateLimited | Problem::TooManySearches => StatusCode::TOO_MANY_REQUESTS,
            Problem::EngineBusy => StatusCode::SERVICE_UNAVAILABLE,
            Problem::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The problem's title: the same for every occurrence (RFC 9457).
    pub const fn title(self) -> &'static str {
        match self {
            Problem::MalformedJson => "The request body is not valid JSON",
            Problem::InvalidRequest => "The request body does not have the expected fields",
            Problem::UnsupportedMediaType => "The request body must be application/json",
            Problem::PayloadTooLarge => "The request body is too large",
            Problem::NotFound => "No such resource",
            Problem::MethodNotAllowed => "Method not allowed on this resource",
            Problem::CorsRefused => "The cross-origin request is not allowed",
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
            Problem::InvalidPgn => "The game record cannot be read",
            Problem::TooManyGames => "A batch holds 1 to 1,000 games",
            Problem::InvalidLimits => "The search limits are not valid",
            Problem::NotInTablebase => "The position is in no endgame table",
            Problem::RateLimited => {
                "Too many requests from this client; retry after the time given"
            }
            Problem::TooManySearches => {
                "This client has as many searches under way as one client may"
            }
            Problem::EngineBusy => "Every search thread is busy; retry after the time given",
            Problem::Internal => "Internal error",
        }
    }

    /// The RFC 9457 `type` URI.
    pub fn type_uri(self) -> String {
        format!("urn:arbiter:problem:{}", self.code().replace('_', "-"))
    }
}

/// An RFC 9457 problem: the body of every error response. Beside the
/// standard members it carries `code` and, where they apply, the members
/// below; no others.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ProblemDetails {
    /// A URI naming the kind of problem; stable.
    #[serde(rename = "type")]
    #[schema(example = "urn:arbiter:problem:illegal-move")]
    pub type_uri: String,
    /// A short summary of the kind of problem.
    pub title: String,
    /// The HTTP status code.
    #[schema(example = 422)]
    pub status: u16,
    /// What went wrong with this request, for a person.
    pub detail: String,
    /// The kind of problem as a stable machine-readable code.
    pub code: Problem,
    /// The request field at fault in JSON terms, e.g. `fen`, `moves[3]`,
    /// `rules.move_limit_plies`, `balances.white`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// For a bad move in `moves`: its index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_index: Option<usize>,
    /// For a bad move: the move as sent.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_text: Option<String>,
    /// For an illegal or unreadable move: the stable code of the reason
    /// (the same codes as `validate`'s `reason_code`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<Refusal>,
    /// For a bad move that is a legal move in another notation of the
    /// variant: that notation (send it as `notation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation_hint: Option<NotationName>,
    /// For `game_over` and `game_ended`: the result of the game that ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// For `game_over` and `game_ended`: the winner, when decisive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Side>,
    /// For `game_over` and `game_ended`: how the game ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_reason: Option<Reason>,
}

/// An error of a request. Boxed, so that `Result<_, ApiError>` stays small.
#[derive(Debug)]
pub struct ApiError(Box<ProblemDetails>);

impl std::ops::Deref for ApiError {
    type Target = ProblemDetails;
    fn deref(&self) -> &ProblemDetails {
        &self.0
    }
}

impl std::ops::DerefMut for ApiError {
    fn deref_mut(&mut self) -> &mut ProblemDetails {
        &mut self.0
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.code(), self.detail)
    }
}

impl ApiError {
    /// A problem with its detail sentence.
    pub fn new(problem: Problem, detail: impl Into<String>) -> ApiError {
        ApiError(Box::new(ProblemDetails {
            type_uri: problem.type_uri(),
            title: problem.title().to_owned(),
            status: problem.status().as_u16(),
            detail: detail.into(),
            code: problem,
            field: None,
            move_index: None,
            move_text: None,
            reason_code: None,
            notation_hint: None,
            result: None,
            winner: None,
            game_reason: None,
        }))
    }

    /// The kind of problem.
    pub fn problem(&self) -> Problem {
        self.code
    }

    /// Names the request field at fault (`field` in the body).
    pub fn field(mut self, field: impl Into<String>) -> ApiError {
        self.0.field = Some(field.into());
        self
    }

    /// Names the end of a game that is over.
    pub fn game<V: Variant>(mut self, outcome: &Outcome) -> ApiError {
        self.0.result = Some(outcome.result());
        self.0.winner = outcome.winner().map(V::side);
        self.0.game_reason = outcome.reason();
        self
    }

    /// The path names no variant we know; the detail lists those we do.
    pub fn unknown_variant(name: &str) -> ApiError {
        let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
        ApiError::new(
            Problem::UnknownVariant,
            format!(
                "there is no variant '{name}'; known variants: {}",
                known.join(", ")
            ),
        )
        .field("variant")
    }

    /// The request's FEN is refused, with the parser's reason.
    pub fn invalid_fen(e: FenError) -> ApiError {
        ApiError::new(Problem::InvalidFen, format!("fen: {}", e.message)).field("fen")
    }

    /// A rule option over its largest value.
    pub fn invalid_rules(e: RulesError) -> ApiError {
        ApiError::new(
            Problem::InvalidRules,
            format!("rules.{}: {}", e.option, crate::prose::rules_error(&e)),
        )
        .field(format!("rules.{}", e.option))
    }

    /// The problem body.
    pub fn body(&self) -> &ProblemDetails {
        &self.0
    }
}

/// Runs a request's work, turning a panic (a bug: the tests hunt for them)
/// into a logged 500 problem instead of a dropped connection.
pub fn guarded<T>(work: impl FnOnce() -> Result<T, ApiError>) -> Result<T, ApiError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        tracing::error!(panic = %panic_message(&*panic), "a request panicked");
        Err(internal())
    })
}

/// What a caught panic said, if it said it in text.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// The problem of a bug: logged where it happened, answered as 500.
pub fn internal() -> ApiError {
    ApiError::new(
        Problem::Internal,
        "the service failed on this request; the failure has been logged",
    )
}

/// "; 'h3e3' reads as …: send "notation": "fairy"", or nothing.
pub fn hint_sentence(text: &str, hint: Option<NotationName>) -> String {
    let Some(n) = hint else {
        return String::new();
    };
    let (what, _) = crate::prose::notation_words(n);
    format!(
        "; '{text}' reads as {what}: send \"notation\": \"{}\"",
        n.as_str()
    )
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    fn error_response(&self) -> HttpResponse {
        let body = serde_json::to_vec(self.body()).unwrap_or_else(|_| b"{}".to_vec());
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if matches!(self.code, Problem::EngineBusy | Problem::TooManySearches) {
            response.insert_header((header::RETRY_AFTER, "1"));
        }
        response.body(body)
    }
}

/// The problems every endpoint that reads a JSON body can answer, for the
/// OpenAPI document (`code` tells them apart); with [`VariantError`].
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum BodyErrors {
    /// The body is not JSON (`malformed_json`).
    #[response(status = 400, content_type = "application/problem+json", example = json!({
        "type": "urn:arbiter:problem:malformed-json",
        "title": "The request body is not valid JSON",
        "status": 400,
        "detail": "the body is not valid JSON: something is wrong at line 1, column 12",
        "code": "malformed_json"
    }))]
    Malformed(ProblemDetails),
    /// The body is over 1 MiB (`payload_too_large`).
    #[response(status = 413, content_type = "application/problem+json", example = json!({
        "type": "urn:arbiter:problem:payload-too-large",
        "title": "The request body is too large",
        "status": 413,
        "detail": "the body is larger than the limit of 1048576 bytes",
        "code": "payload_too_large"
    }))]
    TooLarge(ProblemDetails),
    /// The body is not sent as `application/json` (`unsupported_media_type`).
    #[response(status = 415, content_type = "application/problem+json", example = json!({
        "type": "urn:arbiter:problem:unsupported-media-type",
        "title": "The request body must be application/json",
        "status": 415,
        "detail": "send the body as JSON with 'Content-Type: application/json'",
        "code": "unsupported_media_type"
    }))]
    UnsupportedMediaType(ProblemDetails),
    /// A field is wrong: bad FEN, rules, notation, balances or limits, an
    /// illegal move in `moves` (named by index), a game that has ended, or an
    /// unknown, missing or mistyped field (`code` and `field` say which).
    #[response(status = 422, content_type = "application/problem+json", example = json!({
        "type": "urn:arbiter:problem:illegal-move",
        "title": "A move of the game is illegal",
        "status": 422,
        "detail": "move 0 ('h3e3'): there is no piece on h3; 'h3e3' reads as Fairy-Stockfish coordinates (ranks 1-10): send \"notation\": \"fairy\"",
        "code": "illegal_move",
        "field": "moves[0]",
        "move_index": 0,
        "move": "h3e3",
        "reason_code": "no_piece",
        "notation_hint": "fairy"
    }))]
    Unprocessable(ProblemDetails),
}

/// The problems of the `GET …/diagram.svg` query; with [`VariantError`].
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum QueryErrors {
    /// A bad parameter: FEN, rules, notation, an illegal move in `moves`, or
    /// an unknown parameter (`code` and `field` say which).
    #[response(status = 422, content_type = "application/problem+json", example = json!({
        "type": "urn:arbiter:problem:invalid-fen",
        "title": "The FEN is not a valid position",
        "status": 422,
        "detail": "fen: the board has 9 ranks; Xiangqi has 10",
        "code": "invalid_fen",
        "field": "fen"
    }))]
    Unprocessable(ProblemDetails),
}

/// The answer for a variant the service does not know: every route with a
/// variant in its path.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum VariantError {
    /// No such variant (`unknown_variant`).
    #[response(status = 404, content_type = "application/problem+json", example = json!({
        "type": "urn:arbiter:problem:unknown-variant",
        "title": "Unknown variant",
        "status": 404,
        "detail": "there is no variant 'shogi'; known variants: xiangqi, taxi, tamerlane",
        "code": "unknown_variant",
        "field": "variant"
    }))]
    UnknownVariant(ProblemDetails),
}

/// The answer when every search thread is busy.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum BusyError {
    /// Every search thread is busy (`engine_busy`), with `Retry-After`.
    #[response(status = 503, content_type = "application/problem+json",
        headers(("Retry-After" = u32, description = "Seconds to wait before retrying")),
        example = json!({
        "type": "urn:arbiter:problem:engine-busy",
        "title": "Every search thread is busy; retry after the time given",
        "status": 503,
        "detail": "all 1 search threads are busy; retry in a second",
        "code": "engine_busy"
    }))]
    Busy(ProblemDetails),
    /// The client's share is used up: too many requests (`rate_limited`,
    /// with `--rate-limit`) or too many of its searches under way at once
    /// (`too_many_searches`, with `--max-searches-per-client`).
    #[response(status = 429, content_type = "application/problem+json",
        headers(
            ("Retry-After" = u32, description = "Seconds to wait before retrying"),
            ("RateLimit-Policy" = String, description = "With --rate-limit: the client's rate, e.g. `\"client\";q=20;w=1` (20 requests a second)"),
            ("RateLimit" = String, description = "With --rate-limit: what is left of it, e.g. `\"client\";r=0;t=1`")
        ),
        example = json!({
        "type": "urn:arbiter:problem:too-many-searches",
        "title": "This client has as many searches under way as one client may",
        "status": 429,
        "detail": "this client already has 1 search running or waiting, as many as one client may (the server's --max-searches-per-client); retry when one has ended",
        "code": "too_many_searches"
    }))]
    TooMany(ProblemDetails),
}

/// The answer of every route but the probes when the client is over its
/// rate (`--rate-limit`); added to the document by [`super::limits_documented`].
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum RateLimitedError {
    /// The client sent more requests than its share (`rate_limited`).
    #[response(status = 429, content_type = "application/problem+json",
        headers(
            ("Retry-After" = u32, description = "Seconds to wait before retrying"),
            ("RateLimit-Policy" = String, description = "The client's rate: `q` requests over `w` seconds, e.g. `\"client\";q=20;w=1`"),
            ("RateLimit" = String, description = "What is left of it: `r` requests, all back in `t` seconds, e.g. `\"client\";r=0;t=1`")
        ),
        example = json!({
        "type": "urn:arbiter:problem:rate-limited",
        "title": "Too many requests from this client; retry after the time given",
        "status": 429,
        "detail": "the client at 192.0.2.1 sent more than its share: 20 requests a second, 20 at once (the server's --rate-limit and --rate-burst); this answer was held until its share came back: retry now",
        "code": "rate_limited"
    }))]
    RateLimited(ProblemDetails),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_problem() {
        let err = guarded::<()>(|| panic!("a bug")).unwrap_err();
        assert_eq!(err.problem(), Problem::Internal);
        assert_eq!(err.body().status, 500);
        assert_eq!(err.body().code.code(), "internal");
        assert_eq!(guarded(|| Ok::<_, ApiError>(7)).unwrap(), 7);
    }
}
