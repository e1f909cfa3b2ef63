//! The rule options of a request: `rules` read for the variant once it is
//! known (every refusal names the option at fault, in our own words), and
//! each variant's options listed from its rules' schema and defaults, for
//! `GET /v1/variants/{variant}`.

use std::collections::BTreeMap;

use serde_json::Value;
use utoipa::openapi::schema::{Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::error::{ApiError, Problem};
use super::extract::{at_path, check_fields, describe, Fields};
use super::wire::OptionType;
use crate::variants::Variant;

/// Reads the rule options of `V` from a request's `rules` (absent or `null`:
/// the defaults), refusing unknown options and naming the one at fault.
pub fn rules_of<V: Variant>(value: Option<&Value>) -> Result<V::Rules, ApiError> {
    let rules = match value {
        None | Some(Value::Null) => V::Rules::default(),
        Some(Value::Object(object)) => {
            let what = format!("{}'s rules", V::ID);
            check_fields(object, Fields::of::<V::Rules>(), "rules.", &what)?;
            serde_path_to_error::deserialize(Value::Object(object.clone())).map_err(|e| {
                let option = e.path().to_string();
                let got = at_path(value.expect("an object"), e.path())
                    .map(describe)
                    .unwrap_or_else(|| "nothing".to_owned());
                let options = rule_options::<V>();
                let expected = options
                    .iter()
                    .find(|o| o.name == option)
                    .map(|o| o.expectation())
                    .unwrap_or_else(|| "another value".to_owned());
                ApiError::new(
                    Problem::InvalidRules,
                    format!("'rules.{option}' must be {expected}; got {got}"),
                )
                .field(format!("rules.{option}"))
            })?
        }
        Some(other) => {
            return Err(ApiError::new(
                Problem::InvalidRules,
                format!(
                    "'rules' must be an object of rule options; got {}",
                    describe(other)
                ),
            )
            .field("rules"))
        }
    };
    V::check_rules(&rules).map_err(ApiError::invalid_rules)?;
    Ok(rules)
}

/// One rule option of a variant, read off its rules schema and defaults.
#[derive(Clone, Debug)]
pub struct RuleOptionSpec {
    /// The option's name in `rules`.
    pub name: String,
    /// The JSON type of its value.
    pub kind: OptionType,
    /// For a string option, its values.
    pub values: Vec<String>,
    /// The smallest value allowed, if bounded.
    pub minimum: Option<f64>,
    /// The largest value allowed, if bounded.
    pub maximum: Option<f64>,
    /// The value used when a request does not set it.
    pub default: Value,
    /// What the option does, from its doc comment.
    pub description: String,
}

impl RuleOptionSpec {
    /// What the option takes, in words.
    pub fn expectation(&self) -> String {
        match self.kind {
            OptionType::Boolean => "true or false".to_owned(),
            OptionType::String => format!(
                "one of {}",
                self.values
                    .iter()
                    .map(|v| format!("'{v}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            OptionType::Integer => match (self.minimum, self.maximum) {
                (Some(lo), Some(hi)) => format!("a whole number from {lo} to {hi}"),
                (Some(lo), None) => format!("a whole number, {lo} or more"),
                _ => "a whole number".to_owned(),
            },
        }
    }
}

/// The rule options of `V`: names, types, values and descriptions from the
/// schema of `V::Rules`, defaults from `V::Rules::default()`. Nothing here
/// is written twice, so the list cannot go stale.
pub fn rule_options<V: Variant>() -> Vec<RuleOptionSpec> {
    let defaults = serde_json::to_value(V::Rules::default()).unwrap_or_default();
    let mut referenced = Vec::new();
    <V::Rules as ToSchema>::schemas(&mut referenced);
    let referenced: BTreeMap<String, RefOr<Schema>> = referenced.into_iter().collect();
    let RefOr::T(Schema::Object(object)) = V::Rules::schema() else {
        return Vec::new();
    };
    object
        .properties
        .iter()
        .map(|(name, schema)| {
            let resolved = match schema {
                RefOr::Ref(r) => r
                    .ref_location
                    .rsplit('/')
                    .next()
                    .and_then(|n| referenced.get(n))
                    .cloned()
                    .unwrap_or_else(|| schema.clone()),
                RefOr::T(_) => schema.clone(),
            };
            let mut spec = RuleOptionSpec {
                name: name.clone(),
                kind: OptionType::Integer,
                values: Vec::new(),
                minimum: None,
                maximum: None,
                default: defaults.get(name).cloned().unwrap_or(Value::Null),
                description: String::new(),
            };
            if let RefOr::T(Schema::Object(o)) = &resolved {
                spec.kind = match &o.schema_type {
                    utoipa::openapi::schema::SchemaType::Type(Type::Boolean) => OptionType::Boolean,
                    utoipa::openapi::schema::SchemaType::Type(Type::String) => OptionType::String,
                    _ => OptionType::Integer,
                };
                spec.values = o
                    .enum_values
                    .iter()
                    .flatten()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect();
                spec.minimum = o.minimum.as_ref().and_then(number);
                spec.maximum = o.maximum.as_ref().and_then(number);
                spec.description = o.description.clone().unwrap_or_default();
            }
            // The field's own words (beside a `$ref`, or on the field) win
            // over the referenced type's.
            match schema {
                RefOr::T(Schema::Object(o)) => {
                    if let Some(d) = &o.description {
                        spec.description = d.clone();
                    }
                    spec.minimum = spec.minimum.or(o.minimum.as_ref().and_then(number));
                    spec.maximum = spec.maximum.or(o.maximum.as_ref().and_then(number));
                }
                RefOr::Ref(r) if !r.description.is_empty() => {
                    spec.description = r.description.clone()
                }
                _ => {}
            }
            // Doc comments wrap; a description is one paragraph.
            spec.description = spec
                .description
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            spec
        })
        .collect()
}

fn number(n: &utoipa::Number) -> Option<f64> {
    match n {
        utoipa::Number::Int(i) => Some(*i as f64),
        utoipa::Number::UInt(u) => Some(*u as f64),
        utoipa::Number::Float(f) => Some(*f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{tamerlane::Tamerlane, taxi::Taxi, xiangqi::Xiangqi};

    /// The rule options are read off the rules' schemas and defaults.
    #[test]
    fn rule_options_come_from_the_rules_themselves() {
        let xiangqi = rule_options::<Xiangqi>();
        let names: Vec<&str> = xiangqi.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "move_limit_plies",
                "no_repetition_draw_before_move",
                "repetition",
                "repetition_ends_game",
                "tablebase_adjudication"
            ]
        );
        assert_eq!(xiangqi[4].values, ["none", "draws", "all"]);
        assert_eq!(xiangqi[4].default, serde_json::json!("none"));
        assert_eq!(xiangqi[1].default, serde_json::json!(0));
        assert_eq!(xiangqi[3].default, serde_json::json!(true));
        assert_eq!(xiangqi[3].kind, OptionType::Boolean);
        assert_eq!(xiangqi[0].default, serde_json::json!(100));
        assert_eq!(xiangqi[2].values, ["asian", "chinese", "none"]);
        assert_eq!(
            xiangqi[2].expectation(),
            "one of 'asian', 'chinese', 'none'"
        );
        // Each value is described in the option's words.
        for value in ["`asian` (WXF/AXF", "`chinese`: the Chinese", "`none`: no"] {
            assert!(xiangqi[2].description.contains(value), "{value}");
        }
        let taxi = rule_options::<Taxi>();
        assert_eq!(
            taxi.iter()
                .map(|o| (o.name.as_str(), o.default.clone()))
                .collect::<Vec<_>>(),
            [
                ("income", serde_json::json!(2)),
                ("repetition_ends_game", serde_json::json!(true)),
                ("start_money", serde_json::json!(16))
            ]
        );
        let tamerlane = rule_options::<Tamerlane>();
        let get = |n: &str| tamerlane.iter().find(|o| o.name == n).unwrap();
        // The same JSON type as Xiangqi's `repetition`: a string.
        assert_eq!(get("repetition").default, serde_json::json!("threefold"));
        assert_eq!(get("repetition").kind, OptionType::String);
        assert_eq!(get("repetition").values, ["threefold", "none"]);
        assert_eq!(get("repetition_ends_game").kind, OptionType::Boolean);
        assert_eq!(get("move_limit_plies").default, serde_json::json!(100));
        assert_eq!(get("setup").values, ["standard", "feminine", "third"]);
        assert!(tamerlane.iter().all(|o| !o.description.is_empty()));
    }
}
