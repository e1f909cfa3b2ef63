//! `setoption`: each option the engine declares, read into the session.

use crate::search::analysis::MAX_MULTIPV;
use crate::search::level::{Level, ELO_ANCHOR};
use crate::search::Network;
use crate::variants::xiangqi::RepetitionRule;
use crate::variants::VariantId;
use std::sync::Arc;

use super::go::*;
use super::session::*;

pub(super) fn set_option(s: &mut Session, words: &[&str], say: &impl Fn(&str)) {
    // setoption name <name...> [value <value...>]
    let text = words[1..].join(" ");
    let rest = text.strip_prefix("name ").unwrap_or(&text);
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        // `value` with nothing after it: an empty value.
        None => (rest.strip_suffix(" value").unwrap_or(rest).trim(), ""),
    };
    match name.to_ascii_lowercase().as_str() {
        "uci_variant" => match VariantId::parse(&value.to_ascii_lowercase()) {
            Some(v) => {
                s.variant = v;
                s.position = vec!["startpos".to_owned()];
            }
            None => say(&format!("info string unknown variant: {value}")),
        },
        "hash" => match value.parse::<usize>() {
            Ok(mb) => {
                // A running search holds the tables.
                stop(s);
                s.hash_mb = mb.clamp(1, 1024);
                s.tables.clear();
            }
            Err(_) => say(&format!("info string bad Hash value: {value}")),
        },
        "threads" => match value.parse::<usize>() {
            Ok(n) => s.threads = n.clamp(1, MAX_THREADS),
            Err(_) => say(&format!("info string bad Threads value: {value}")),
        },
        "uci_showwdl" => match value.to_ascii_lowercase().as_str() {
            "true" => s.show_wdl = true,
            "false" => s.show_wdl = false,
            _ => say(&format!("info string bad UCI_ShowWDL value: {value}")),
        },
        "skill level" => match value.parse::<u8>().ok().and_then(Level::new) {
            Some(l) => s.skill = l,
            None => say(&format!(
                "info string bad Skill Level value: {value} (1 to {})",
                Level::FULL
            )),
        },
        "uci_limitstrength" => match value.to_ascii_lowercase().as_str() {
            "true" => s.limit_strength = true,
            "false" => s.limit_strength = false,
            _ => say(&format!("info string bad UCI_LimitStrength value: {value}")),
        },
        "uci_elo" => match value.parse::<u32>() {
            Ok(e) => s.elo = e.clamp(ELO_ANCHOR, full_elo()),
            Err(_) => say(&format!("info string bad UCI_Elo value: {value}")),
        },
        "multipv" => match value.parse::<usize>() {
            Ok(n) => s.multipv = n.clamp(1, MAX_MULTIPV),
            Err(_) => say(&format!("info string bad MultiPV value: {value}")),
        },
        "repetition" => match RepetitionRule::parse(&value.to_ascii_lowercase()) {
            Some(r) => {
                let mut rules = s.rules.get(&VariantId::Xiangqi).cloned().unwrap_or_default();
                rules.insert("repetition".to_owned(), r.as_str().into());
                set_rules(s, VariantId::Xiangqi, rules);
                if s.variant != VariantId::Xiangqi {
                    say(&format!(
                        "info string Repetition applies to xiangqi only (kept for when it is the variant; now {})",
                        s.variant.as_str()
                    ));
                }
            }
            None => {
                let codes: Vec<&str> = RepetitionRule::ALL.iter().map(|r| r.as_str()).collect();
                say(&format!(
                    "info string bad Repetition value: {value} (one of {})",
                    codes.join(", ")
                ))
            }
        },
        "rules" => match serde_json::from_str(if value.is_empty() { "{}" } else { value }) {
            Ok(serde_json::Value::Object(rules)) => match s.variant.visit(RulesCheck(&rules)) {
                Ok(()) => set_rules(s, s.variant, rules),
                Err(e) => say(&format!("info string bad Rules value: {e}")),
            },
            _ => say(&format!(
                "info string bad Rules value: {value} (a JSON object of rule options, as the service's rules)"
            )),
        },
        "evaluation" => match value {
            "nnue" | "hce" => {
                // Scores kept under one evaluation are not the other's.
                stop(s);
                s.tables.clear();
                s.nnue = value == "nnue";
            }
            _ => say(&format!(
                "info string bad Evaluation value: {value} (nnue or hce)"
            )),
        },
        "evalfile" => {
            // Scores and evaluations kept under one evaluation are not the
            // other's (and a running search holds the tables).
            stop(s);
            s.tables.clear();
            if value.is_empty() || value == "<empty>" {
                s.network = None;
                return;
            }
            match std::fs::read(value) {
                Ok(bytes) => match Network::from_bytes(&bytes) {
                    Ok(net) => {
                        say(&format!(
                            "info string EvalFile {value}: a Xiangqi network of {} hidden units",
                            net.hidden()
                        ));
                        s.network = Some(Arc::new(net));
                    }
                    Err(e) => say(&format!("info string EvalFile {value} refused: {e}")),
                },
                Err(e) => say(&format!("info string EvalFile {value} cannot be read: {e}")),
            }
        }
        "usetablebases" => match value {
            "true" | "false" => {
                // Scores kept with the tables are not those without.
                stop(s);
                s.tables.clear();
                s.use_tablebases = value == "true";
            }
            _ => say(&format!("info string bad UseTablebases value: {value}")),
        },
        "egtbpath" => {
            if value.is_empty() || value == "<empty>" {
                return;
            }
            match crate::tablebase::install(std::path::Path::new(value)) {
                Ok(true) => say(&format!(
                    "info string EgtbPath {value}: {} endgame tables",
                    crate::tablebase::installed().materials().len()
                )),
                Ok(false) => say(&format!(
                    "info string EgtbPath {value} refused: the tables were already set up (set it before the first search)"
                )),
                Err(e) => say(&format!("info string EgtbPath {value} refused: {e}")),
            }
        }
        _ => say(&format!("info string unknown option: {name}")),
    }
}

/// A variant's rules from now on. Scores kept under other rules are not
/// these rules' (and a running search holds the tables).
fn set_rules(
    s: &mut Session,
    variant: VariantId,
    rules: serde_json::Map<String, serde_json::Value>,
) {
    if s.rules.get(&variant) != Some(&rules) {
        stop(s);
        s.tables.clear();
    }
    s.rules.insert(variant, rules);
}
