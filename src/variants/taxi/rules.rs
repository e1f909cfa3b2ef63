//! Taxi chess's rule options: the money at the start and the income.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The rule options of Taxi chess (`rules` with the path `taxi`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TaxiRules)]
pub struct Rules {
    /// Units each side starts with; fills in the balances of a six-field FEN.
    #[serde(default = "default_start_money")]
    #[schema(default = 16, minimum = 0, maximum = 1_000_000_000)]
    pub start_money: u32,
    /// Units each side receives at the start of each of its turns, before moving.
    #[serde(default = "default_income")]
    #[schema(default = 2, minimum = 0, maximum = 1_000_000)]
    pub income: u32,
    /// Whether the automatic fivefold repetition draw ends the game (true:
    /// live play). False for over-the-board records: it is reported in
    /// `repetition_events` and the game goes on; it ends by repetition only
    /// where the record ends at it. (Threefold is a claim, never automatic.)
    #[serde(default = "crate::variants::yes")]
    #[schema(default = true)]
    pub repetition_ends_game: bool,
}

fn default_start_money() -> u32 {
    16
}

fn default_income() -> u32 {
    2
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            start_money: default_start_money(),
            income: default_income(),
            repetition_ends_game: true,
        }
    }
}
