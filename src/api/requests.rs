//! Request bodies, with their OpenAPI schemas and examples.
//!
//! Every body that names a game (legal-moves, validate, analyze, diagram,
//! adjudicate, a batch's game) carries the same six fields: `fen`, `pgn`,
//! `moves`, `rules`, `notation` and `balances`. They are written once, in
//! [`game_request!`], which adds them (with their words, or the body's own
//! words where it says more) to each body's own fields: every schema stays
//! one flat object, and [`PositionFields`] reads the six of any body.

use std::borrow::Cow;

use serde::Deserialize;
use utoipa::openapi::schema::AnyOfBuilder;
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::wire::{Balances, Evaluation, GameId, Moves, OutputFormat, ReviewFormat};
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

game_request! {
    /// A position: a start FEN and the moves played since.
    #[schema(example = json!({
        "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "moves": ["h2e2", "h9g7"]
    }))]
    pub struct PositionRequest {}
    notation: [
        /// How moves are written in this request and its answer; `GET
        /// /v1/variants/{variant}` lists each variant's notations. Default: the
        /// variant's first (`iccs` for Xiangqi, `uci` for Taxi chess,
        /// `coordinate` for Tamerlane chess).
    ],
}

game_request! {
    /// A position and one more move to check.
    #[schema(example = json!({
        "moves": ["h2e2", "h9g7"],
        "move": "b0c2"
    }))]
    pub struct ValidateRequest {
        /// The move to check, in the position after `moves`.
        #[serde(rename = "move")]
        pub mv: String,
    }
}

game_request! {
    /// A position to analyse, and how long or deep to search it.
    #[schema(example = json!({
        "moves": ["h2e2", "h9g7"],
        "movetime_ms": 500,
        "multipv": 2
    }))]
    pub struct AnalyzeRequest {
        /// Search this many plies deep (at most the server's `--max-depth`).
        #[schema(minimum = 1, example = 8)]
        pub depth: Option<u32>,
        /// Search this long, in milliseconds (at most the server's
        /// `--max-movetime-ms`). With no limit at all the server's default applies
        /// (1,000 ms unless configured).
        #[schema(minimum = 1, example = 1000)]
        pub movetime_ms: Option<u64>,
        /// Search about this many nodes (at most the server's `--max-nodes`).
        #[schema(minimum = 1, example = 1000000)]
        pub nodes: Option<u64>,
        /// How many best lines to report, 1-5 (default 1).
        #[schema(minimum = 1, maximum = 5, example = 1)]
        pub multipv: Option<usize>,
        /// Score every legal move (of those `searchmoves` and `exclude`
        /// leave): one line per move, best first, within the time given
        /// (default false; `multipv` is then not needed).
        pub all_moves: Option<bool>,
        /// Choose only among these moves of the position (in `notation`).
        #[schema(example = json!(["h2e2", "b2e2"]))]
        pub searchmoves: Option<Vec<String>>,
        /// Leave these moves of the position out (in `notation`).
        #[schema(example = json!(["h0g2"]))]
        pub exclude: Option<Vec<String>>,
        /// Also say what the opponent would play were it its move (default
        /// false): a fifth of the time and nodes goes to that search.
        pub threat: Option<bool>,
        /// Play at this level, 1 (weakest) to 20 (full strength, the
        /// default): a weaker level searches fewer nodes and chooses its
        /// `best_move` among the moves it found nearly as good as its best
        /// (never one that loses by the rules while another does not).
        /// Each variant has its own levels, each scoring 55-80 % against
        /// the one below (the docs' tables give their approximate Elo).
        #[schema(minimum = 1, maximum = 20, example = 8)]
        pub level: Option<u32>,
        /// The seed of a level's choice: the same seed, position and limits
        /// give the same move (default: a new seed each request, given in
        /// the answer's `limits`).
        #[schema(example = 42)]
        pub seed: Option<u64>,
        /// `nnue` (the variant's network: Xiangqi's, the default there) or
        /// `hce` (the hand-written evaluation: the default for the other
        /// variants, and the only one a `level` below 20 plays with).
        #[schema(example = "nnue")]
        pub evaluation: Option<Evaluation>,
    }
    moves: [
        /// Moves played from `fen`; they count for the repetition rules of the
        /// search too.
    ],
}

game_request! {
    /// A game to review, and how long to search each of its positions.
    #[schema(example = json!({
        "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"],
        "movetime_ms": 50
    }))]
    pub struct ReviewRequest {
        /// Search each position this long, in milliseconds (default 100;
        /// at most the server's `--max-movetime-ms`; the whole review at
        /// most `--max-review-secs`).
        #[schema(minimum = 1, example = 50)]
        pub movetime_ms: Option<u64>,
        /// Search each position about this many nodes (at most the
        /// server's `--max-nodes`).
        #[schema(minimum = 1, example = 100000)]
        pub nodes: Option<u64>,
        /// Search each position this many plies deep (at most the server's
        /// `--max-depth`).
        #[schema(minimum = 1, example = 8)]
        pub depth: Option<u32>,
        /// `json` (the default) or `svg` (the evaluation graph); `Accept:
        /// image/svg+xml` asks for the graph too, `Accept:
        /// application/x-ndjson` for one line per ply as it goes.
        pub format: Option<ReviewFormat>,
    }
    pgn: [
        /// A whole game record in PGN, instead of `fen` and `moves` (see
        /// `PositionRequest.pgn`).
    ],
}

game_request! {
    /// A position to draw (`POST …/diagram`).
    #[schema(example = json!({"moves": ["h2e2", "h9g7"], "flip": false}))]
    pub struct DiagramRequest {
        /// Draw the board from the second player's side (default false).
        pub flip: Option<bool>,
        /// Label files and ranks (default true).
        pub coordinates: Option<bool>,
        /// Mark the last move and a general or king in check (default true).
        pub highlight: Option<bool>,
    }
    notation: [
        /// How `moves` are written.
    ],
}

/// A position to draw, as query parameters (`GET …/diagram.svg`).
#[derive(Debug, Default, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DiagramQuery {
    /// The start position as FEN; the variant's start position when absent.
    pub fen: Option<String>,
    /// Moves played from `fen`, separated by commas or spaces.
    #[param(value_type = Option<String>, example = "h2e2,h9g7")]
    pub moves: Option<Vec<String>>,
    /// Rule options as a JSON object, e.g. `{"setup":"feminine"}`.
    pub rules: Option<String>,
    /// How `moves` are written.
    pub notation: Option<NotationName>,
    /// Draw the board from the second player's side (default false).
    pub flip: Option<bool>,
    /// Label files and ranks (default true).
    pub coordinates: Option<bool>,
    /// Mark the last move and a general or king in check (default true).
    pub highlight: Option<bool>,
}

game_request! {
    /// A game to adjudicate: a start FEN and the moves played since, or a PGN
    /// record; and how to answer.
    #[schema(example = json!({
        "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        "moves": ["a0a9"]
    }))]
    pub struct AdjudicateRequest {
        /// `json` (the default) or `pgn`; `Accept: application/x-chess-pgn`
        /// asks for PGN too.
        pub format: Option<OutputFormat>,
    }
    pgn: [
        /// A whole game record in PGN, instead of `fen` and `moves` (see
        /// `PositionRequest.pgn`).
    ],
    notation: [
        /// How moves are written in this request and its answer. Default: the
        /// variant's first notation; for a `pgn` record, the record's.
    ],
}

game_request! {
    /// One game of a batch: as `adjudicate` takes it, with an id.
    pub struct BatchGame {
        /// The caller's name for the game, echoed in its result.
        pub id: Option<GameId>,
    }
    pgn: [
        /// A whole game record in PGN, instead of `fen` and `moves` (as in
        /// `adjudicate`).
    ],
    moves: [
        /// The moves played from `fen`, in `notation`.
    ],
    rules: [
        /// The variant's rule options; the standard rules when absent.
    ],
    notation: [
        /// How the moves are written.
    ],
    balances: [
        /// Taxi chess: both balances.
    ],
}

/// Games to adjudicate at once: `games`, or a PGN file of many games in
/// `pgn` (a PGN body, `Content-Type: application/x-chess-pgn`, does the
/// same, with `rules` and `notation` in the query).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"games": [
    {"id": "g1", "moves": ["h2e2", "h9g7"]},
    {"id": "g2", "fen": "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]},
    {"id": "g3", "moves": ["h2h8"]}
]}))]
pub struct BatchRequest {
    /// The games, 1 to 1,000.
    pub games: Option<Vec<BatchGame>>,
    /// A file of 1 to 1,000 games in PGN, as databases and sites export
    /// them, instead of `games`: a game begins at a tag line after another
    /// game's moves. Each game answers with its tags echoed and the line
    /// it begins on; a damaged game gets its problem and the others go on.
    #[schema(example = json!("[Event \"a\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 *\n\n[Event \"b\"]\n[Format \"WXF\"]\n\n1. P7+1 *\n"))]
    pub pgn: Option<String>,
    /// Rule options for every game that sets none (the variant's
    /// `XiangqiRules`, `TaxiRules` or `TamerlaneRules`).
    #[schema(value_type = Option<AnyRules>)]
    pub rules: Option<serde_json::Value>,
    /// The notation of every game that names none (a game of `pgn` with a
    /// `[Format]` tag reads that).
    pub notation: Option<NotationName>,
}

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
