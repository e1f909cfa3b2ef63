//! Xiangqi (Chinese chess): the rules this service implements are stated in
//! `docs/rules/xiangqi.md`.

mod attacks;
pub mod bitboards;
pub mod board;
mod fen;
mod legal;
mod notation;
mod position;
mod repetition;
mod rules;
mod verdict;
mod why;

#[cfg(test)]
mod chase_tests;
#[cfg(test)]
mod notation_tests;
#[cfg(test)]
mod tests;

pub use attacks::Standing;
pub use board::{file_of, rank_of, sq, sq_name, Kind, Sq};
pub use fen::START_FEN;
pub use notation::Notation;
pub use position::{Move, Position, Undo};
pub use repetition::chinese::forget_judgements;
pub use repetition::judge_cycle;
pub use rules::{RepetitionRule, Rules, TablebaseAdjudication};
pub use verdict::{set_table_oracle, TableOracle, TableResult};
pub use why::Why;

use super::{
    Color, FenError, MoveError, MoveNotations, NotationInfo, NotationName, Played, Reason, Repeats,
    Side, Variant, VariantId, VariantInfo, Verdict, Warning, WarningCode,
};
use board::{color_of, kind_of, RANKS};
use notation::{Meant, Written};

/// The Xiangqi position, the type that implements [`Variant`].
pub type Xiangqi = Position;

impl Position {
    /// Whether either side still has a piece that can give mate (chariot,
    /// horse, cannon or soldier).
    pub fn has_mating_material(&self) -> bool {
        [Color::White, Color::Black].into_iter().any(|c| {
            self.pieces(c).any(|s| {
                matches!(
                    kind_of(self.piece_at(s)),
                    Some(Kind::Chariot | Kind::Horse | Kind::Cannon | Kind::Soldier)
                )
            })
        })
    }

    /// The piece on a point, as colour and kind.
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
    type Why = Why;

    const ID: VariantId = VariantId::Xiangqi;
    const SIDES: [Side; 2] = [Side::Red, Side::Black];

    fn info() -> VariantInfo {
        VariantInfo {
            id: VariantId::Xiangqi,
            files: 9,
            ranks: 10,
            start_fen: START_FEN,
            notations: vec![
                NotationInfo {
                    name: NotationName::Iccs,
                    aliases: &[NotationName::Ucci],
                    example: "h2e2",
                },
                NotationInfo {
                    name: NotationName::Fairy,
                    aliases: &[NotationName::Uci],
                    example: "h3e3",
                },
                NotationInfo {
                    name: NotationName::Wxf,
                    aliases: &[],
                    example: "C2.5",
                },
                NotationInfo {
                    name: NotationName::Chinese,
                    aliases: &[],
                    example: "炮二平五",
                },
            ],
        }
    }

    fn repetition_ends_game(rules: &Rules) -> bool {
        rules.repetition_ends_game
    }

    fn waive(rules: &mut Rules, reason: Reason) {
        match reason {
            Reason::MoveLimit => rules.move_limit_plies = 0,
            r if r.is_repetition() => rules.repetition = RepetitionRule::None,
            Reason::TablebaseWin | Reason::TablebaseDraw => {
                rules.tablebase_adjudication = TablebaseAdjudication::None
            }
            _ => {}
        }
    }

    fn notation(name: NotationName) -> Option<Notation> {
        Notation::of(name)
    }

    fn start_position(_rules: &Rules) -> Position {
        // Read once: every request without a FEN starts here.
        static START: std::sync::LazyLock<Position> =
            std::sync::LazyLock::new(|| fen::parse(START_FEN).expect("the start FEN is valid"));
        START.clone()
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
    fn fullmove_number(&self) -> u32 {
        Position::fullmove_number(self)
    }

    fn in_check(&self) -> bool {
        self.general_attacked(self.side())
    }

    fn hash_key(&self) -> u64 {
        self.hash()
    }

    fn same_position(&self, other: &Position) -> bool {
        self.same_placement(other)
    }

    fn reversible_plies(&self) -> usize {
        self.halfmove_clock() as usize
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal(out)
    }

    #[inline]
    fn count_legal_moves(&self, _scratch: &mut Vec<Move>) -> usize {
        self.count_legal()
    }

    fn has_legal_move(&self, _scratch: &mut Vec<Move>) -> bool {
        self.has_legal()
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Undo {
        self.make(mv)
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        self.unmake(mv, undo)
    }

    fn parse_move(&self, text: &str, notation: Notation) -> Result<Move, MoveError<Why>> {
        match notation {
            Notation::Iccs | Notation::Fairy => {
                let base = usize::from(notation == Notation::Fairy);
                let (from, to) =
                    notation::parse_coordinates(text, base).ok_or(MoveError::Unreadable)?;
                let m = Move::new(from, to);
                if self.is_legal(m) {
                    Ok(m)
                } else {
                    Err(MoveError::Illegal(why::why(self, from, to)))
                }
            }
            Notation::Wxf | Notation::Chinese => {
                let written = Written::read(text, notation == Notation::Chinese)
                    .ok_or(MoveError::Unreadable)?;
                let mut legal = Vec::new();
                self.legal(&mut legal);
                if let Some(&m) = legal.iter().find(|&&m| written.names(self, m)) {
                    return Ok(m);
                }
                // A piece of two on its file, named by the file (`车６退１`):
                // the one that can make the move, as real records mean it.
                let mut by_file = legal.iter().filter(|&&m| written.names_by_file(self, m));
                match (by_file.next(), by_file.next()) {
                    (Some(&m), None) => return Ok(m),
                    (Some(&a), Some(&b)) => {
                        // The front piece's reading first.
                        let ahead = |m: Move| match self.side() {
                            Color::White => rank_of(m.from),
                            Color::Black => RANKS - rank_of(m.from),
                        };
                        let (first, second) = if ahead(a) >= ahead(b) { (a, b) } else { (b, a) };
                        return Err(MoveError::Illegal(Why::Ambiguous { first, second }));
                    }
                    _ => {}
                }
                // Refused: say why as the coordinates of the move meant would.
                Err(MoveError::Illegal(match written.meant(self) {
                    Meant::Move(m) if !self.is_legal(m) => why::why(self, m.from, m.to),
                    Meant::Absent { kind, file } => Why::NotOnFile { kind, file },
                    _ => Why::NoSuchMove,
                }))
            }
        }
    }

    fn split_record_token(text: &str, notation: Notation) -> Vec<String> {
        match notation {
            Notation::Wxf | Notation::Chinese => notation::split_run(text),
            Notation::Iccs | Notation::Fairy => None,
        }
        .unwrap_or_else(|| vec![text.to_owned()])
    }

    fn describe_moves(&self, moves: &[Move], notation: Notation) -> Vec<MoveNotations> {
        moves
            .iter()
            .map(|&mv| {
                let (wxf, chinese) = notation::wxf_and_chinese(self, mv);
                let iccs = notation::coordinate_move(mv, 0);
                let fairy = notation::coordinate_move(mv, 1);
                MoveNotations {
                    wire: match notation {
                        Notation::Iccs => iccs.clone(),
                        Notation::Fairy => fairy.clone(),
                        Notation::Wxf => wxf.clone(),
                        Notation::Chinese => chinese.clone(),
                    },
                    written: vec![
                        (NotationName::Iccs, iccs),
                        (NotationName::Fairy, fairy),
                        (NotationName::Wxf, wxf),
                        (NotationName::Chinese, chinese),
                    ],
                    capture: self.piece_at(mv.to) != board::EMPTY,
                    gives_check: self.gives_check(mv),
                    cost: None,
                }
            })
            .collect()
    }

    fn write_move(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::Iccs => notation::coordinate_move(mv, 0),
            Notation::Fairy => notation::coordinate_move(mv, 1),
            Notation::Wxf => notation::wxf(self, mv),
            Notation::Chinese => notation::chinese(self, mv),
        }
    }

    fn warnings(&self) -> Vec<Warning> {
        [Color::White, Color::Black]
            .into_iter()
            .flat_map(|c| self.pieces(c).map(move |s| (c, s)))
            .filter(|&(c, s)| {
                let kind = kind_of(self.piece_at(s)).expect("a piece");
                !board::reachable(kind, c, s)
            })
            .map(|(_, s)| Warning {
                code: WarningCode::UnreachablePlacement,
                square: s,
            })
            .collect()
    }

    /// The same placement with the other side to move (a pass, for the
    /// search's null-move pruning).
    fn pass(&self) -> Position {
        let mut p = self.clone();
        p.set_side(!self.side());
        p
    }

    fn verdict(played: Played<Self>, has_legal_move: bool, repeats: &Repeats) -> Option<Verdict> {
        verdict::verdict(played, has_legal_move, repeats)
    }
}

#[cfg(test)]
mod repetition_book_tests;
#[cfg(test)]
mod repetition_tests;
