//! Xiangqi (Chinese chess): the rules this service implements are stated in
//! `docs/rules/xiangqi.md`.

pub mod board;
mod explain;
mod fen;
mod notation;
mod position;
mod repetition;

#[cfg(test)]
mod tests;

pub use board::{file_of, rank_of, sq, sq_name, Kind, Sq};
pub use fen::START_FEN;
pub use notation::Notation;
pub use position::{Move, Position, Undo};
pub use repetition::{judge, judge_cycle, Judgement};

use super::{
    Color, FenError, Game, MoveError, MoveNotations, NotationInfo, NotationName, Outcome, Reason,
    Variant, VariantId, VariantInfo, Warning, WarningCode,
};
use crate::variants::Refusal;
use board::{color_name, color_of, kind_of, piece_label};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Which repetition rules apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RepetitionRule {
    /// The Asian (WXF/AXF) rules: perpetual check and chase lose.
    #[default]
    Asian,
    /// No repetition verdicts at all.
    None,
}

/// The rule options of Xiangqi (`rules` with the path `xiangqi`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = XiangqiRules)]
pub struct Rules {
    /// Plies without a capture after which the game is drawn (soldier moves
    /// do not reset the count); 0 switches the rule off.
    #[serde(default = "default_move_limit")]
    #[schema(default = 100, minimum = 0, maximum = 4294967295_u64)]
    pub move_limit_plies: u32,
    /// Repetition rules: `asian` (WXF/AXF: at the third occurrence of a
    /// position, a side that checked or chased with every move of the repetition
    /// loses; otherwise drawn) or `none`.
    #[serde(default)]
    #[schema(default = "asian")]
    pub repetition: RepetitionRule,
}

fn default_move_limit() -> u32 {
    100
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            move_limit_plies: default_move_limit(),
            repetition: RepetitionRule::Asian,
        }
    }
}

pub type Xiangqi = Position;

impl Position {
    /// Whether either side still has a piece that can give mate (chariot,
    /// horse, cannon or soldier).
    pub fn has_mating_material(&self) -> bool {
        (0..board::POINTS as Sq).any(|s| {
            matches!(
                kind_of(self.piece_at(s)),
                Some(Kind::Chariot | Kind::Horse | Kind::Cannon | Kind::Soldier)
            )
        })
    }

    /// The same placement with the other side to move (a pass, for the
    /// search's null-move pruning).
    pub fn null_move(&self) -> Position {
        let mut p = self.clone();
        p.set_side(!self.side());
        p
    }

    pub fn kind_at(&self, s: Sq) -> Option<(Color, Kind)> {
        let p = self.piece_at(s);
        kind_of(p).map(|k| (color_of(p), k))
    }
}

impl Variant for Position {
    type Move = Move;
    type Undo = Undo;
    type Rules = Rules;
    type Notation = Notation;

    const ID: VariantId = VariantId::Xiangqi;
    const SIDES: [&'static str; 2] = ["red", "black"];

    fn info() -> VariantInfo {
        VariantInfo {
            id: VariantId::Xiangqi,
            name: "Xiangqi",
            description: "Chinese chess on 9x10 points: palace, river, elephant eye, horse leg, cannon screens and the flying general. A side without a legal move loses.",
            files: 9,
            ranks: 10,
            start_fen: START_FEN,
            sides: Self::SIDES,
            notations: vec![
                NotationInfo { name: NotationName::Iccs, aliases: &[NotationName::Ucci], description: "ICCS/UCCI coordinates, files a-i from Red's left, ranks 0-9 from Red's side (default)", example: "h2e2" },
                NotationInfo { name: NotationName::Fairy, aliases: &[NotationName::Uci], description: "Fairy-Stockfish's UCI coordinates, ranks 1-10 (what pyffish and pychess send)", example: "h3e3" },
                NotationInfo { name: NotationName::Wxf, aliases: &[], description: "WXF/AXF notation", example: "C2.5" },
                NotationInfo { name: NotationName::Chinese, aliases: &[], description: "Chinese notation, simplified or traditional characters", example: "炮二平五" },
            ],
        }
    }

    fn notation(name: NotationName) -> Option<Notation> {
        Notation::of(name)
    }

    fn start_position(_rules: &Rules) -> Position {
        fen::parse(START_FEN).expect("the start FEN is valid")
    }

    fn from_fen(text: &str, _rules: &Rules) -> Result<Position, FenError> {
        fen::parse(text)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    fn side_to_move(&self) -> Color {
        self.side()
    }

    fn in_check(&self) -> bool {
        self.general_attacked(self.side())
    }

    fn hash_key(&self) -> u64 {
        self.hash()
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal(out)
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Undo {
        self.make(mv)
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        self.unmake(mv, undo)
    }

    fn parse_move(&self, text: &str, notation: Notation) -> Result<Move, MoveError> {
        match notation {
            Notation::Iccs | Notation::Fairy => {
                let base = if notation == Notation::Iccs { 0 } else { 1 };
                let (from, to) = notation::parse_coordinates(text, base)?;
                explain::check(self, from, to)
            }
            Notation::Wxf | Notation::Chinese => {
                type Writer = fn(&Position, Move) -> String;
                let (normalize, write, name): (fn(&str) -> String, Writer, &str) =
                    if notation == Notation::Wxf {
                        (notation::normalize_wxf, notation::wxf, "WXF")
                    } else {
                        (notation::normalize_chinese, notation::chinese, "Chinese")
                    };
                let wanted = normalize(text);
                if wanted.chars().count() != 4 {
                    return Err(MoveError::new(
                        Refusal::BadNotation,
                        format!("'{text}' is not a {name} move (four symbols, like 'C2.5' or '炮二平五')"),
                    ));
                }
                let mut moves = Vec::new();
                self.legal(&mut moves);
                moves
                    .into_iter()
                    .find(|&m| normalize(&write(self, m)) == wanted)
                    .ok_or_else(|| {
                        MoveError::new(
                            Refusal::NoSuchMove,
                            format!(
                                "no legal move of {} is written '{text}' in {name} notation",
                                color_name(self.side())
                            ),
                        )
                    })
            }
        }
    }

    fn describe_move(&self, mv: Move, notation: Notation) -> MoveNotations {
        let (wxf, chinese) = notation::wxf_and_chinese(self, mv);
        let wire = match notation {
            Notation::Iccs => notation::coordinate_move(mv, 0),
            Notation::Fairy => notation::coordinate_move(mv, 1),
            Notation::Wxf => wxf.clone(),
            Notation::Chinese => chinese.clone(),
        };
        MoveNotations {
            wire,
            others: vec![
                ("iccs", notation::coordinate_move(mv, 0)),
                ("fairy", notation::coordinate_move(mv, 1)),
                ("wxf", wxf),
                ("chinese", chinese),
            ],
            capture: self.piece_at(mv.to) != board::EMPTY,
            gives_check: self.gives_check(mv),
            cost: None,
        }
    }

    fn move_to_string(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Iccs => notation::coordinate_move(mv, 0),
            Notation::Fairy => notation::coordinate_move(mv, 1),
            Notation::Wxf => notation::wxf(self, mv),
            Notation::Chinese => notation::chinese(self, mv),
        }
    }

    fn warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        for c in [Color::White, Color::Black] {
            for s in self.pieces(c) {
                let kind = kind_of(self.piece_at(s)).expect("a piece");
                if !board::reachable(kind, c, s) {
                    out.push(Warning {
                        code: WarningCode::UnreachablePlacement,
                        message: format!(
                            "the {} on {} stands where no game can bring it (a soldier never stands behind its starting rank or beside it before crossing the river): this position cannot arise in a game, and it is played by the ordinary rules",
                            piece_label(self.piece_at(s)),
                            sq_name(s)
                        ),
                    });
                }
            }
        }
        out
    }

    fn history_verdict_after(game: &Game<Position>, mv: Move) -> Option<Outcome> {
        if game.rules().repetition == RepetitionRule::None {
            return None;
        }
        let mut next = game.current().clone();
        next.make(mv);
        // Cheap filter first: the position must have stood twice already.
        let seen = game
            .positions()
            .iter()
            .filter(|p| p.same_placement(&next))
            .take(2)
            .count();
        if seen < 2 {
            return None;
        }
        // A move that leaves the opponent without a legal move wins first.
        let mut replies = Vec::new();
        next.legal(&mut replies);
        if replies.is_empty() {
            return None;
        }
        judge(game.positions(), game.moves(), Some((mv, &next))).map(Judgement::into_outcome)
    }

    fn adjudicate(game: &Game<Position>, has_legal_move: bool) -> Outcome {
        let pos = game.current();
        let us = pos.side();
        if !has_legal_move {
            let in_check = pos.general_attacked(us);
            let (reason, how) = if in_check {
                (Reason::Checkmate, "is checkmated")
            } else {
                (
                    Reason::Stalemate,
                    "has no legal move (stalemate, which loses in Xiangqi)",
                )
            };
            return Outcome::Decisive {
                winner: !us,
                reason,
                explanation: format!("{} {how}: {} wins", color_name(us), color_name(!us)),
                repetition: None,
            };
        }
        if game.rules().repetition == RepetitionRule::Asian {
            if let Some(j) = judge(game.positions(), game.moves(), None) {
                return j.into_outcome();
            }
        }
        if !pos.has_mating_material() {
            return Outcome::Drawn {
                reason: Reason::InsufficientMaterial,
                explanation:
                    "neither side has a chariot, horse, cannon or soldier left, so neither can win"
                        .to_owned(),
                repetition: None,
            };
        }
        let limit = game.rules().move_limit_plies;
        if limit > 0 && pos.halfmove_clock() >= limit {
            return Outcome::Drawn {
                reason: Reason::MoveLimit,
                explanation: format!(
                    "{} plies have been played without a capture (the limit is {limit})",
                    pos.halfmove_clock()
                ),
                repetition: None,
            };
        }
        Outcome::Ongoing
    }
}

#[cfg(test)]
mod repetition_tests;
