//! Request bodies, with their OpenAPI schemas and examples.
//!
//! Every body that names a game (legal-moves, validate, analyze, diagram,
//! adjudicate, a batch's game) carries the same six fields: `fen`, `pgn`,
//! `moves`, `rules`, `notation` and `balances`. They are written once, in
//! [`game_request!`], which adds them (with their words, or the body's own
//! words where it says more) to each body's own fields: every schema stays
//! one flat object, and [`PositionFields`] reads the six of any body.

use std::borrow::Cow;

use utoipa::openapi::schema::AnyOfBuilder;
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::wire::Balances;
use crate::dispatch::{Playable, Visitor};
use crate::variants::{NotationName, VariantId};

/// The fields that say which game a request is about.
pub trait PositionFields {
    /// The `fen` field.
    fn fen(&self) -> Option<&str>;
    /// The `moves` field.
    fn moves(&self) -> &[String];
    /// The `rules` field, not yet read for the variant.
    fn rules(&self) -> Option<&serde_json::Value>;
    /// The `notation` field.
    fn notation(&self) -> Option<NotationName>;
    /// The `balances` field (Taxi chess).
    fn balances(&self) -> Option<&Balances>;
    /// The `pgn` field.
    fn pgn(&self) -> Option<&str>;
}

/// A request body that names a game: the six game fields, then the body's
/// own fields. A game field listed after the body (`notation: [/// words],`)
/// has the body's words instead of the common ones below (and no example).
/// Each body is a JSON object with no unknown member, and implements
/// [`PositionFields`].
macro_rules! game_request {
    (
        $(#[$($attr:tt)*])*
        pub struct $name:ident { $($own:tt)* }
        $(pgn: [$($pgn:tt)*],)?
        $(moves: [$($moves:tt)*],)?
        $(rules: [$($rules:tt)*],)?
        $(notation: [$($notation:tt)*],)?
        $(balances: [$($balances:tt)*],)?
    ) => {
        game_request!(@field [[$(#[$($attr)*])*] $name { $($own)* }] [
            /// The start position as FEN; the variant's start position when absent.
            pub fen: Option<String>,
        ]
        [$($($pgn)*)?] [
            /// A whole game record in PGN, instead of `fen` and `moves`: its `[FEN]`
            /// tag (if any) is the start, its main line the moves (comments,
            /// variations, NAGs and the result token are skipped). Xiangqi reads
            /// `[Format "ICCS"]`, `"WXF"` or `"Chinese"` (else the notation of the
            /// first move); Taxi chess reads SAN, its balances from `[Balances
            /// "16/16"]` or the seven-field FEN; Tamerlane chess reads coordinates.
            #[schema(example = json!("[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 *"))]
        ] { pub pgn: Option<String>, }
        [$($($moves)*)?] [
            /// The moves played from `fen`, in `notation`: an array, or one string with
            /// the moves separated by spaces.
        ] {
            #[serde(default)]
            #[schema(value_type = Moves)]
            pub moves: Moves,
        }
        [$($($rules)*)?] [
            /// The variant's rule options (`XiangqiRules`, `TaxiRules` or `TamerlaneRules`);
            /// the standard rules when absent.
        ] {
            #[schema(value_type = Option<AnyRules>)]
            pub rules: Option<serde_json::Value>,
        }
        [$($($notation)*)?] [
            /// How moves are written in this request and its answer.
        ] { pub notation: Option<NotationName>, }
        [$($($balances)*)?] [
            /// Taxi chess: both balances, instead of (or agreeing with) the FEN's seventh field.
        ] { pub balances: Option<Balances>, });
    };
    // The next game field, with the body's words or else the common ones.
    (@field $body:tt [$($done:tt)*] [] [$($common:tt)*] { $($field:tt)* } $($rest:tt)*) => {
        game_request!(@field $body [$($done)* $($common)* $($field)*] $($rest)*);
    };
    (@field $body:tt [$($done:tt)*] [$($words:tt)+] [$($common:tt)*] { $($field:tt)* } $($rest:tt)*) => {
        game_request!(@field $body [$($done)* $($words)+ $($field)*] $($rest)*);
    };
    // Every game field is written: the body.
    (@field [[$($attr:tt)*] $name:ident { $($own:tt)* }] [$($fields:tt)*]) => {
        #[derive(Debug, Deserialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        $($attr)*
        pub struct $name {
            $($fields)*
            $($own)*
        }

        impl PositionFields for $name {
            fn fen(&self) -> Option<&str> {
                self.fen.as_deref()
            }
            fn moves(&self) -> &[String] {
                &self.moves.0
            }
            fn rules(&self) -> Option<&serde_json::Value> {
                self.rules.as_ref()
            }
            fn notation(&self) -> Option<NotationName> {
                self.notation
            }
            fn balances(&self) -> Option<&Balances> {
                self.balances.as_ref()
            }
            fn pgn(&self) -> Option<&str> {
                self.pgn.as_deref()
            }
        }
    };
}
pub(crate) use game_request;

/// The rule options of the variant in the path: the `Rules` of each
/// variant of [`VariantId::ALL`]. Read once the variant is known; this type
/// only documents them.
pub struct AnyRules;

/// A variant's rules schema: its name, the schema, and the schemas it
/// refers to.
struct RulesSchema {
    name: String,
    schema: RefOr<Schema>,
    referenced: Vec<(String, RefOr<Schema>)>,
}

/// The rules schema of the variant visited.
struct RulesOf;

impl Visitor for RulesOf {
    type Output = RulesSchema;
    fn visit<V: Playable>(self) -> RulesSchema {
        let mut referenced = Vec::new();
        <V::Rules as ToSchema>::schemas(&mut referenced);
        RulesSchema {
            name: <V::Rules as ToSchema>::name().into_owned(),
            schema: <V::Rules as PartialSchema>::schema(),
            referenced,
        }
    }
}

/// Every variant's rules schema, in the order of [`VariantId::ALL`].
fn rules_schemas() -> impl Iterator<Item = RulesSchema> {
    VariantId::ALL.iter().map(|id| id.visit(RulesOf))
}

impl PartialSchema for AnyRules {
    fn schema() -> RefOr<Schema> {
        let names: Vec<String> = rules_schemas().map(|r| r.name).collect();
        let listed = match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, others)) => format!("{} or {last}", others.join(", ")),
            None => String::new(),
        };
        names
            .iter()
            .fold(AnyOfBuilder::new(), |any, name| {
                any.item(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(name)))
            })
            .description(Some(format!(
                "Rule options of the variant in the path ({listed}); every option is optional and defaults as documented there. `GET /v1/variants/{{variant}}` lists them too."
            )))
            .into()
    }
}

impl ToSchema for AnyRules {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Rules")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        for r in rules_schemas() {
            schemas.push((r.name, r.schema));
            schemas.extend(r.referenced);
        }
    }
}
