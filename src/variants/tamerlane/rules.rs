//! Tamerlane chess's rule options: the start arrays and their FENs, the repetition rule, the move limit.

use super::board::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The standard start position (the citadels empty).
pub const START_FEN: &str = "e1c1d1d1c1e/rntgwkfgtnr/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/RNTGFKWGTNR/E1C1D1D1C1E w -/- Kk 0/0 0 1";
/// The start position of the "feminine" arrangement.
pub const FEMININE_FEN: &str = "e1c1wkf1c1e/rntgdpkdgtnr/prpnptpgpw1pfpepcpdpp/11/11/11/11/PPPDPCPEPF1PWPGPTPNPR/RNTGDPKDGTNR/E1C1FKW1C1E w -/- Kk 0/0 0 1";
/// The start position of the third arrangement.
pub const THIRD_FEN: &str = "e1c1wkf1c1e/rndtgpkgtdnr/prpnptpgpw1pfpepcpdpp/11/11/11/11/PPPDPCPEPF1PWPGPTPNPR/RNDTGPKGTDNR/E1C1FKW1C1E w -/- Kk 0/0 0 1";

/// The named start arrays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = TamerlaneSetup)]
pub enum Setup {
    /// The common "masculine" array: shahs on f2/f9, shah's pawns on f3/f8.
    #[default]
    Standard,
    /// The "feminine" array: shahs on f1/f10, shah's pawns on f2/f9.
    Feminine,
    /// The third array of the seed: shahs on f1/f10, shah's pawns on f2/f9.
    Third,
}

impl Setup {
    pub(super) fn fen(self) -> &'static str {
        match self {
            Setup::Standard => START_FEN,
            Setup::Feminine => FEMININE_FEN,
            Setup::Third => THIRD_FEN,
        }
    }

    /// Where a pawn of pawns' second arrival goes: the shah's pawn's start.
    pub(super) fn second_arrival(self) -> [Sq; 2] {
        match self {
            Setup::Standard => [sq(5, 2).expect("f3"), sq(5, 7).expect("f8")],
            Setup::Feminine | Setup::Third => [sq(5, 1).expect("f2"), sq(5, 8).expect("f9")],
        }
    }
}

/// Which repetition rule applies in Tamerlane chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = TamerlaneRepetition)]
pub enum RepetitionRule {
    /// The third occurrence of a position draws.
    #[default]
    Threefold,
    /// No repetition rule (the historical game).
    None,
}

/// The rule options of Tamerlane chess (`rules` with the path `tamerlane`).
///
/// By default the game ends as modern implementations of historical games
/// end it: the third occurrence of a position draws, and so do 100 plies
/// without a capture or a pawn move. `{"repetition": "none",
/// "move_limit_plies": 0}` gives the purely historical game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TamerlaneRules)]
pub struct Rules {
    /// The start array: `standard`, `feminine` or `third`; it also decides
    /// where a pawn of pawns' second arrival goes (f3/f8, or f2/f9).
    #[serde(default)]
    #[schema(default = "standard")]
    pub setup: Setup,
    /// A side left with nothing but royals loses if the other side has more;
    /// both bare: drawn.
    #[serde(default)]
    #[schema(default = false)]
    pub bare_king: bool,
    /// Repetition rules: `threefold` (the third occurrence of a position,
    /// with the same side to move, exchange rights and pawn-of-pawns
    /// arrivals, is a draw) or `none`.
    #[serde(default)]
    #[schema(default = "threefold")]
    pub repetition: RepetitionRule,
    /// Plies without a capture or pawn move after which the game is drawn;
    /// 0 means no limit.
    #[serde(default = "crate::variants::hundred_plies")]
    #[schema(default = 100, minimum = 0, maximum = 4294967295_u64)]
    pub move_limit_plies: u32,
    /// Whether a repetition verdict ends the game (true: live play). False
    /// for over-the-board records: a ruling is reported in
    /// `repetition_events` and the game goes on; it ends by repetition only
    /// where the record ends at a ruling.
    #[serde(default = "crate::variants::yes")]
    #[schema(default = true)]
    pub repetition_ends_game: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            setup: Setup::Standard,
            bare_king: false,
            repetition: RepetitionRule::Threefold,
            move_limit_plies: crate::variants::hundred_plies(),
            repetition_ends_game: true,
        }
    }
}
