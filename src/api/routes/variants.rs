//! `GET /v1/variants` and `GET /v1/variants/{variant}`: what the service
//! supports, each variant with its board, notations and rule options.

use actix_web::{route, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::{ApiError, VariantError};
use crate::api::extract::VariantPath;
use crate::api::rules::rule_options;
use crate::api::wire::OptionType;
use crate::dispatch::{Playable, Visitor};
use crate::prose::Prose;
use crate::variants::Color;
use crate::variants::Side;
use crate::variants::{NotationName, VariantId};

/// A rule option of a variant, as `GET /v1/variants/{variant}` lists it
/// (read off the variant's rules schema: XiangqiRules, TaxiRules, TamerlaneRules).
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleOption {
    /// The option's name in `rules`.
    #[schema(example = "move_limit_plies")]
    pub name: String,
    /// JSON type of the value.
    pub r#type: OptionType,
    /// The values a string option takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// The value used when the request does not set it (of `type`).
    #[schema(value_type = serde_json::Value, example = 100)]
    pub default: serde_json::Value,
    /// What the option does.
    pub description: String,
}

/// A move notation a variant reads and writes.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotationDoc {
    /// Its name in `notation`.
    pub name: NotationName,
    /// Other names accepted for the same notation.
    pub aliases: Vec<NotationName>,
    /// What the notation is.
    pub description: String,
    /// A move written in it.
    #[schema(example = "h2e2")]
    pub example: String,
}

/// What the service knows about a variant.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantDetails {
    /// The name in paths: `/v1/variants/{id}`.
    pub id: VariantId,
    /// The variant's name in words.
    #[schema(example = "Xiangqi")]
    pub name: String,
    /// What the variant is.
    pub description: String,
    /// Board width.
    #[schema(example = 9)]
    pub files: u8,
    /// Board height.
    #[schema(example = 10)]
    pub ranks: u8,
    /// The standard start position.
    pub start_fen: String,
    /// The sides, first mover first.
    pub sides: Vec<Side>,
    /// Notations for moves; the first is the default.
    pub notations: Vec<NotationDoc>,
    /// Options a request may set in `rules`.
    pub rule_options: Vec<RuleOption>,
}

/// The supported variants.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantList {
    /// Every variant, in a stable order.
    pub variants: Vec<VariantDetails>,
}

/// List the supported variants.
#[utoipa::path(
    get,
    path = "/v1/variants",
    tag = "variants",
    responses((status = 200, description = "Every supported variant", body = VariantList))
)]
#[route("/v1/variants", method = "GET", method = "HEAD")]
pub async fn list_variants() -> web::Json<VariantList> {
    web::Json(VariantList {
        variants: variants(),
    })
}

/// Describe one variant: board, start position, notations and rule options.
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}",
    tag = "variants",
    params(VariantPath),
    responses(
        (status = 200, description = "The variant", body = VariantDetails),
        VariantError
    )
)]
#[route("/v1/variants/{variant}", method = "GET", method = "HEAD")]
pub async fn get_variant(
    path: web::Path<VariantPath>,
) -> Result<web::Json<VariantDetails>, ApiError> {
    Ok(web::Json(path.variant.visit(Describe)))
}

/// What `GET /v1/variants/{variant}` says about a variant.
pub struct Describe;

impl Visitor for Describe {
    type Output = VariantDetails;
    fn visit<V: Playable>(self) -> VariantDetails {
        variant_details::<V>()
    }
}

/// Every variant described, in the order of [`VariantId::ALL`].
fn variants() -> Vec<VariantDetails> {
    VariantId::ALL
        .iter()
        .map(|&id| id.visit(Describe))
        .collect()
}

/// What `GET /v1/variants/{variant}` says about a variant.
fn variant_details<V: Prose>() -> VariantDetails {
    let info = V::info();
    VariantDetails {
        id: info.id,
        name: V::NAME.to_owned(),
        description: V::DESCRIPTION.to_owned(),
        files: info.files,
        ranks: info.ranks,
        start_fen: info.start_fen.to_owned(),
        sides: vec![V::side(Color::White), V::side(Color::Black)],
        notations: info
            .notations
            .into_iter()
            .map(|n| NotationDoc {
                name: n.name,
                aliases: n.aliases.to_vec(),
                description: V::notation_description(n.name).to_owned(),
                example: n.example.to_owned(),
            })
            .collect(),
        rule_options: rule_options::<V>()
            .into_iter()
            .map(|o| RuleOption {
                r#type: o.kind,
                values: (!o.values.is_empty()).then(|| o.values.clone()),
                name: o.name,
                default: o.default,
                description: o.description,
            })
            .collect(),
    }
}
