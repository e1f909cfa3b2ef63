//! The tables the process probes: the default set, built into the binary
//! (`default.xtbs`, made by `arbiter tablebase generate --bundle`), and
//! what `--tablebases DIR` adds at start.

use std::path::Path;
use std::sync::OnceLock;

use super::entry::{Chase, Distance, Entry};
use super::file::TableFileError;
use super::material::{closure, default_set, Material};
use super::tables::{Probed, Tables};
use crate::variants::xiangqi::{set_table_oracle, Position, RepetitionRule, Rules, TableResult};
use crate::variants::Variant;

/// The default set as built into the binary.
static BUNDLE: &[u8] = include_bytes!("default.xtbs");

static INSTALLED: OnceLock<Tables> = OnceLock::new();

/// The default set alone (every table decoded when first probed).
pub fn default_tables() -> Tables {
    Tables::from_bundle(BUNDLE).expect("the built-in bundle is checked by the tests")
}

/// The tables this process probes: those [`install`] set up, or the
/// default set.
pub fn installed() -> &'static Tables {
    INSTALLED.get_or_init(default_tables)
}

/// Sets up the tables to probe: the default set and every table file in
/// `dir` (which wins where both hold a material). Once, before the first
/// probe; `false` when the tables were already set up.
pub fn install(dir: &Path) -> Result<bool, TableFileError> {
    let mut set = default_tables();
    set.extend(Tables::load_dir(dir)?);
    Ok(INSTALLED.set(set).is_ok())
}

/// The default set's own endings and every smaller one they need.
pub fn default_materials() -> Vec<Material> {
    closure(&default_set())
}

/// Lets the rule option `tablebase_adjudication` consult the installed
/// tables (the rules core asks through [`set_table_oracle`]). Called by
/// whatever serves games (the server, the UCI engine) before the first
/// game; `false` when an oracle was already set.
pub fn adjudicate_with_installed() -> bool {
    set_table_oracle(table_result)
}

/// What the installed tables say of `pos` under `rules`
/// ([`Endgames::probe_under`]), as a verdict needs it.
fn table_result(pos: &Position, rules: &Rules) -> Option<TableResult> {
    let us = pos.side();
    match pos.probe_under(rules)? {
        Entry::Illegal => None,
        Entry::Draw(_) => Some(TableResult::Draw),
        Entry::Win(_) => Some(TableResult::Win(us)),
        Entry::Loss(_) => Some(TableResult::Win(us.other())),
    }
}

/// A variant's endgame tables, as the service and the search ask them:
/// only Xiangqi has any (the installed set); the others answer `None`.
pub trait Endgames: Variant {
    /// What the installed tables say of the position and of each of its
    /// legal moves, best first; `None` outside them.
    fn probe_tables(&self) -> Option<Probed<Self::Move>> {
        None
    }

    /// What the installed tables say of the position alone.
    fn probe_entry(&self) -> Option<Entry> {
        None
    }

    /// What the installed tables say of the position as a game under
    /// `rules` goes: `None` where the rules could change the result (a
    /// win too far for the move limit, or the tables' silence).
    fn probe_under(&self, _rules: &Self::Rules) -> Option<Entry> {
        None
    }

    /// The tables' best moves from the position, one after another, at
    /// most `plies` of them (fewer at the mate or outside the tables).
    fn table_line(&self, plies: usize) -> Vec<Self::Move> {
        let mut pos = self.clone();
        let mut line = Vec::new();
        while line.len() < plies {
            let Some(best) = pos.probe_tables().and_then(|t| t.moves.into_iter().next()) else {
                break;
            };
            pos.make_move(best.mv);
            line.push(best.mv);
        }
        line
    }
}

impl Endgames for Position {
    fn probe_tables(&self) -> Option<Probed> {
        installed().probe_moves(self)
    }

    fn probe_entry(&self) -> Option<Entry> {
        installed().probe(self)
    }

    /// Without repetition rules a win by the perpetual-check rule is a
    /// draw (the loser checks for ever); with them, a draw marked as one
    /// that may rest on a chase ([`Chase`]) is left to the game. A win
    /// must come within the move limit: by mate, `plies` before it; by the
    /// rule, with room for the repetition too ([`RULE_ROOM`]). Under the
    /// Chinese code a win must come before the nine-move rule could judge
    /// the winner's moves (within [`NINE_MOVES`] plies: nine moves of the
    /// winner, the last of them the mate).
    fn probe_under(&self, rules: &Rules) -> Option<Entry> {
        under_rules(self.probe_entry()?, self.halfmove_clock(), rules)
    }
}

/// What a table's `entry` says of a game under `rules` whose halfmove
/// clock stands at `clock` ([`Endgames::probe_under`]).
pub(super) fn under_rules(entry: Entry, clock: u32, rules: &Rules) -> Option<Entry> {
    let distance = match entry {
        Entry::Win(d) | Entry::Loss(d) => d,
        Entry::Draw(Chase::Free) | Entry::Illegal => return Some(entry),
        // The chase rules, which the tables do not judge, may decide.
        Entry::Draw(_) if rules.repetition == RepetitionRule::None => return Some(entry),
        Entry::Draw(_) => return None,
    };
    let rule = matches!(distance, Distance::Rule(_));
    if rule && rules.repetition == RepetitionRule::None {
        return Some(Entry::Draw(Chase::Free));
    }
    if rules.repetition == RepetitionRule::Chinese && distance.plies() > NINE_MOVES {
        return None;
    }
    let limit = rules.move_limit_plies;
    let room = if rule { RULE_ROOM } else { 0 };
    let reached = clock + u32::from(distance.plies()) + room;
    (limit == 0 || reached <= limit).then_some(entry)
}

/// Plies a win by the perpetual-check rule needs past its distance: the
/// loser's checks until a position stands for the third time.
pub const RULE_ROOM: u32 = 12;

/// The longest win the Chinese code's nine-move rule cannot touch: nine
/// moves of the winner (seventeen plies), the ninth of them the mate.
pub const NINE_MOVES: u16 = 17;

impl Endgames for crate::variants::taxi::Taxi {}

impl Endgames for crate::variants::tamerlane::Tamerlane {}
