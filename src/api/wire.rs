//! The small types of the wire that request and response bodies share:
//! the sides as each variant names them, balances, a game's id, PGN tags,
//! the `moves` field's two spellings, and the closed sets of values the
//! bodies use (each an enum whose schema is derived). The enums of the
//! rules core ([`VariantId`](crate::variants::VariantId),
//! [`NotationName`](crate::variants::NotationName), [`Reason`](crate::variants::Reason),
//! [`Refusal`](crate::variants::Refusal), [`GameResult`](crate::variants::GameResult))
//! are used as they are.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

/// Moves played from `fen`, oldest first, written in `notation`: an array of
/// move strings, or (the Lichess convention) one string of moves separated
/// by spaces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves(pub Vec<String>);

impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Moves, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Moves;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of move strings, or one string of moves separated by spaces")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Moves, E> {
                Ok(Moves(v.split_whitespace().map(str::to_owned).collect()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Moves, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
                while let Some(m) = seq.next_element::<String>()? {
                    out.push(m);
                }
                Ok(Moves(out))
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl PartialSchema for Moves {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ArrayBuilder::new()
                    .items(ObjectBuilder::new().schema_type(Type::String))
                    .description(Some("The moves, one string each"))
                    .examples([serde_json::json!(["h2e2", "h9g7"])]),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some("The moves in one string, separated by spaces"))
                    .examples([serde_json::json!("h2e2 h9g7")]),
            )
            .description(Some(
                "Moves played from `fen`, oldest first, written in `notation`: an array of move strings, or one string of moves separated by spaces",
            ))
            .into()
    }
}

impl ToSchema for Moves {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Moves")
    }
}

/// Both sides' balances in units (Taxi chess), before their next income.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Balances {
    /// White's balance.
    #[schema(example = 16, minimum = 0)]
    pub white: u32,
    /// Black's balance.
    #[schema(example = 16, minimum = 0)]
    pub black: u32,
}

/// A game's name in a batch, echoed in its result: a string or a number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum GameId {
    /// A text id.
    Text(String),
    /// A numeric id.
    Number(i64),
}

/// A game's PGN tags, in the order written (`{"Event": "…", "Red": "…"}`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags(pub Vec<(String, String)>);

impl Serialize for Tags {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl PartialSchema for Tags {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .additional_properties(Some(ObjectBuilder::new().schema_type(Type::String)))
            .description(Some(
                "A game's PGN tags, name to value, in the order written",
            ))
            .examples([serde_json::json!({"Event": "Club championship", "Red": "Zhang Wei", "Black": "Li Na"})])
            .into()
    }
}

impl ToSchema for Tags {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Tags")
    }
}

/// Whether a game goes on, was won, or was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The game has ended with a winner.
    Decisive,
    /// The game has ended in a draw.
    Drawn,
}

/// How a side played in a repetition cycle, in short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConductCode {
    /// Every move of the side in the cycle gave check.
    PerpetualCheck,
    /// Every move of the side chased (the same piece, under the Asian rules).
    PerpetualChase,
    /// Chinese rules: another forbidden pattern (see `pattern`).
    Forbidden,
    /// Nothing forbidden.
    Allowed,
}

/// What a repetition would mean for the side making the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MoverOutcome {
    /// The mover wins.
    Win,
    /// The game is drawn.
    Draw,
    /// The mover loses.
    Loss,
}

/// The JSON type of a rule option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OptionType {
    /// A whole number.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// One of `values`.
    String,
}

/// What a probe reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    /// Liveness: the process answers.
    Ok,
    /// Readiness: requests are welcome.
    Ready,
    /// Readiness: the server is draining before it stops.
    ShuttingDown,
}

/// Which evaluation the search scores positions with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Evaluation {
    /// The variant's network (Xiangqi's, shipped in the binary; the
    /// default where there is one).
    Nnue,
    /// The hand-written evaluation (the default for Taxi and Tamerlane
    /// chess, which have no network; always used by `level`s below 20,
    /// which were calibrated with it).
    Hce,
}

/// How `review` answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReviewFormat {
    /// The JSON review (`ReviewResponse`).
    #[default]
    Json,
    /// The evaluation graph as an SVG picture (`image/svg+xml`).
    Svg,
}

/// How `adjudicate` answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// The JSON result (`AdjudicateResponse`).
    #[default]
    Json,
    /// The game as PGN (`application/x-chess-pgn`), the verdict in
    /// `[Result]` and `[Termination]` and the explanation as a comment.
    Pgn,
}
