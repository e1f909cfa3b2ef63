//! Xiangqi's rule options: the repetition code, the move limit and
//! adjudication by the endgame tables.

use serde::{Deserialize, Serialize};
use strum::{EnumString, IntoStaticStr, VariantArray};
use utoipa::ToSchema;

/// Which repetition rules apply: `asian`, `chinese` or `none`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    ToSchema,
    IntoStaticStr,
    EnumString,
    VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum RepetitionRule {
    /// The Asian (WXF/AXF) rules: perpetual check and chase lose.
    #[default]
    Asian,
    /// The Chinese Xiangqi Association's code (2020): every mix of checks,
    /// mate threats and chases is forbidden (长将, 长杀, 长捉, 一将一捉, …),
    /// with the joint-chase priority and the nine-move rule (`chinese/`;
    /// judged against the rule book's worked examples in
    /// `repetition/chinese/tests.rs`, where `NOT_YET` lists those it does not agree
    /// with yet).
    Chinese,
    /// No repetition verdicts at all.
    None,
}

impl RepetitionRule {
    /// Every code, in the order the service lists them.
    pub const ALL: &'static [RepetitionRule] = <RepetitionRule as VariantArray>::VARIANTS;

    /// The name on the wire: `asian`, `chinese`, `none`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Reads a name on the wire.
    pub fn parse(name: &str) -> Option<RepetitionRule> {
        name.parse().ok()
    }
}

/// Whether the endgame tables end a game: `none`, `draws` or `all`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TablebaseAdjudication {
    /// The tables end no game: it ends by the rules alone.
    #[default]
    None,
    /// A position the tables call drawn ends the game drawn (a dead draw).
    Draws,
    /// Any position in the tables ends the game with its result under best
    /// play (for sites that adjudicate unfinished games).
    All,
}

/// The rule options of Xiangqi (`rules` with the path `xiangqi`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = XiangqiRules)]
pub struct Rules {
    /// Plies without a capture after which the game is drawn (soldier moves
    /// do not reset the count); 0 switches the rule off.
    #[serde(default = "crate::variants::hundred_plies")]
    #[schema(default = 100, minimum = 0, maximum = 4294967295_u64)]
    pub move_limit_plies: u32,
    /// Repetition rules: `asian`, `chinese` or `none`. `asian` (WXF/AXF,
    /// the default): at the third occurrence of a position, a side that
    /// checked or chased the same piece with every move of the repetition
    /// loses; otherwise drawn. `chinese`: the Chinese Xiangqi Association's
    /// code (2020): every mix of checks, mate threats and chases is
    /// forbidden (长将, 长杀, 长捉, 一将一捉, …), joint-chase priority,
    /// nine-move rule; the judge agrees with every worked example of the
    /// rule book (the project's `docs/rules/xiangqi.md` records each
    /// decision). `none`: no repetition verdicts at all.
    #[serde(default)]
    #[schema(default = "asian")]
    pub repetition: RepetitionRule,
    /// Tournament option: a repetition that would be drawn before this
    /// move number (the FEN's move counter) is lost by Red, who had to
    /// change (some events allow no repetition draw in the first 25 moves:
    /// 26); 0, the default, switches it off.
    #[serde(default)]
    #[schema(default = 0, minimum = 0, maximum = 4294967295_u64)]
    pub no_repetition_draw_before_move: u32,
    /// Whether a repetition verdict ends the game (true: live play, where
    /// the server rules). False for over-the-board records, where the
    /// arbiter tells the offender to change and play goes on: a ruling is
    /// then reported in `repetition_events` and the game continues; it ends
    /// by repetition only where the record ends at a ruling.
    #[serde(default = "crate::variants::yes")]
    #[schema(default = true)]
    pub repetition_ends_game: bool,
    /// Whether the endgame tables end a game: `none` (the default): the
    /// rules alone end it. `draws`: a position the tables call drawn with
    /// best play ends the game drawn (`tablebase_draw`), a dead draw.
    /// `all`: any position in the tables ends the game with its result
    /// under best play (`tablebase_win` or `tablebase_draw`), for sites
    /// that adjudicate unfinished games. A win that rests on the
    /// perpetual-check rule is a draw under `repetition: none`; a draw
    /// the tables mark as one a chase may decide is not ended under a
    /// repetition code (the repetition judge rules it).
    #[serde(default)]
    #[schema(default = "none")]
    pub tablebase_adjudication: TablebaseAdjudication,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            move_limit_plies: crate::variants::hundred_plies(),
            repetition: RepetitionRule::Asian,
            no_repetition_draw_before_move: 0,
            repetition_ends_game: true,
            tablebase_adjudication: TablebaseAdjudication::None,
        }
    }
}
