//! Tamerlane chess: the 11x10 board with citadels. The rules this service
//! implements are stated in `docs/rules/tamerlane.md`.

pub mod board;
mod position;

#[cfg(test)]
mod tests;

pub use board::{parse_sq, sq, sq_name, Sq, L2, Z9};
pub use position::{Move, Position, Special};

use crate::variants::Refusal;
use board::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    Color, FenError, Game, MoveError, MoveNotations, NotationInfo, NotationName, Outcome, Reason,
    Variant, VariantId, VariantInfo,
};

pub const START_FEN: &str = "e1c1d1d1c1e/rntgwkfgtnr/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/RNTGFKWGTNR/E1C1D1D1C1E w -/- Kk 0/0 0 1";
pub const FEMININE_FEN: &str = "e1c1wkf1c1e/rntgdpkdgtnr/prpnptpgpw1pfpepcpdpp/11/11/11/11/PPPDPCPEPF1PWPGPTPNPR/RNTGDPKDGTNR/E1C1FKW1C1E w -/- Kk 0/0 0 1";
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
    fn fen(self) -> &'static str {
        match self {
            Setup::Standard => START_FEN,
            Setup::Feminine => FEMININE_FEN,
            Setup::Third => THIRD_FEN,
        }
    }

    /// Where a pawn of pawns' second arrival goes: the shah's pawn's start.
    fn second_arrival(self) -> [Sq; 2] {
        match self {
            Setup::Standard => [sq(5, 2).expect("f3"), sq(5, 7).expect("f8")],
            Setup::Feminine | Setup::Third => [sq(5, 1).expect("f2"), sq(5, 8).expect("f9")],
        }
    }
}

/// The rule options of Tamerlane chess (`rules` with the path `tamerlane`).
///
/// By default the game ends as modern implementations of historical games
/// end it: the third occurrence of a position draws, and so do 100 plies
/// without a capture or a pawn move. `{"repetition": false,
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
    /// The third occurrence of a position (placement, side to move, exchange
    /// rights and pawn-of-pawns arrivals) is a draw.
    #[serde(default = "yes")]
    #[schema(default = true)]
    pub repetition: bool,
    /// Plies without a capture or pawn move after which the game is drawn;
    /// 0 means no limit.
    #[serde(default = "default_move_limit")]
    #[schema(default = 100, minimum = 0, maximum = 4294967295_u64)]
    pub move_limit_plies: u32,
}

fn yes() -> bool {
    true
}

fn default_move_limit() -> u32 {
    100
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            setup: Setup::Standard,
            bare_king: false,
            repetition: yes(),
            move_limit_plies: default_move_limit(),
        }
    }
}

/// How moves are written: the only notation is the coordinate form of the
/// rules document.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Notation;

pub type Tamerlane = Position;

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn label(p: u8) -> String {
    format!(
        "{} {}",
        color_name(color_of(p)).to_lowercase(),
        kind_name(kind_of(p))
    )
}

/// Splits `a10a9` into squares (`l2` and `z9` included).
fn squares(text: &str) -> Option<Vec<Sq>> {
    // Squares are ASCII; slicing by bytes below relies on it.
    if !text.is_ascii() {
        return None;
    }
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        out.push(parse_sq(&text[start..i])?);
    }
    Some(out)
}

impl Position {
    pub fn move_string(m: Move) -> String {
        match m.special {
            Special::None => format!("{}{}", sq_name(m.from), sq_name(m.to)),
            Special::Relocate => format!("{}@{}", sq_name(m.from), sq_name(m.to)),
            Special::Exchange => format!("{}~{}", sq_name(m.from), sq_name(m.to)),
            Special::CitadelExchange(p) => {
                format!("{}{}~{}", sq_name(m.from), sq_name(m.to), sq_name(p))
            }
        }
    }

    fn read_move(text: &str) -> Result<Move, MoveError> {
        let bad = || {
            MoveError::new(
                Refusal::BadNotation,
                format!(
                    "'{text}' is not a Tamerlane move like 'b2c4', 'a10@e5', 'f2~d5' or 'a8z9~e5'"
                ),
            )
        };
        let t = text.trim();
        if let Some((a, b)) = t.split_once('@') {
            return match (squares(a).as_deref(), squares(b).as_deref()) {
                (Some([from]), Some([to])) => Ok(Move {
                    from: *from,
                    to: *to,
                    special: Special::Relocate,
                }),
                _ => Err(bad()),
            };
        }
        if let Some((a, b)) = t.split_once('~') {
            return match (squares(a).as_deref(), squares(b).as_deref()) {
                (Some([shah]), Some([partner])) => Ok(Move {
                    from: *shah,
                    to: *partner,
                    special: Special::Exchange,
                }),
                (Some([from, citadel]), Some([partner])) => Ok(Move {
                    from: *from,
                    to: *citadel,
                    special: Special::CitadelExchange(*partner),
                }),
                _ => Err(bad()),
            };
        }
        match squares(t).as_deref() {
            Some([from, to]) => Ok(Move::normal(*from, *to)),
            _ => Err(bad()),
        }
    }

    /// Why `m` (read from the wire, not legal here) is refused.
    fn explain(&self, m: Move) -> MoveError {
        let us = self.side;
        let refuse = |code: Refusal, msg: String| MoveError::new(code, msg);
        if self.citadel_draw().is_some() {
            return refuse(
                Refusal::GameOver,
                "the game is drawn: a royal stands in the enemy citadel".to_owned(),
            );
        }
        let p = self.at(m.from);
        if p == EMPTY {
            return MoveError::no_piece(&sq_name(m.from));
        }
        if color_of(p) != us {
            return MoveError::not_your_piece(
                &sq_name(m.from),
                color_name(color_of(p)),
                color_name(us),
            );
        }
        let kind = kind_of(p);
        let name = kind_name(kind);
        match m.special {
            Special::Relocate => {
                if !self.dormant(m.from) {
                    return refuse(Refusal::BadRelocation, "only a dormant pawn of pawns (one standing on its last rank) may be relocated with '@'".to_owned());
                }
                if m.to >= 110 {
                    return refuse(
                        Refusal::BadRelocation,
                        "a pawn of pawns is never relocated into a citadel".to_owned(),
                    );
                }
                let q = self.at(m.to);
                if m.to == m.from {
                    return refuse(
                        Refusal::BadRelocation,
                        "a relocation must go to another square".to_owned(),
                    );
                }
                if q != EMPTY && is_royal(kind_of(q)) {
                    return refuse(
                        Refusal::BadRelocation,
                        format!(
                            "a relocation may not land on the {} on {}",
                            label(q),
                            sq_name(m.to)
                        ),
                    );
                }
                if q != EMPTY && color_of(q) != us && self.dormant(m.to) {
                    return refuse(
                        Refusal::BadRelocation,
                        "a relocation may not land on the enemy's dormant pawn of pawns".to_owned(),
                    );
                }
                return refuse(
                    Refusal::BadRelocation,
                    format!("from {} the pawn of pawns would neither fork two enemy pieces nor attack one that has no legal move (or it would leave the royal attacked)", sq_name(m.to)),
                );
            }
            Special::Exchange | Special::CitadelExchange(_) => {
                if kind != SHAH {
                    return refuse(Refusal::BadExchange, "only the shah exchanges".to_owned());
                }
                if !self.exchange[us.index()] {
                    return refuse(
                        Refusal::ExchangeUsed,
                        "the exchange has already been used".to_owned(),
                    );
                }
                if let Special::CitadelExchange(partner) = m.special {
                    let q = self.at(partner);
                    if m.to != own_citadel(!us) || !gates(m.to).contains(&m.from) {
                        return refuse(Refusal::BadExchange, "the citadel exchange is the shah's step from a neighbouring square into the empty enemy citadel".to_owned());
                    }
                    if q == EMPTY
                        || color_of(q) != us
                        || !matches!(kind_of(q), PRINCE | ADVENTITIOUS)
                        || partner >= 110
                    {
                        return refuse(Refusal::BadExchange, "the shah's partner in the citadel exchange is a prince or adventitious king on the board".to_owned());
                    }
                    return refuse(
                        Refusal::BadExchange,
                        "the enemy citadel is occupied".to_owned(),
                    );
                }
                let q = self.at(m.to);
                if q == EMPTY || color_of(q) != us || is_royal(kind_of(q)) {
                    return refuse(
                        Refusal::BadExchange,
                        "the shah exchanges with a friendly piece that is not a royal".to_owned(),
                    );
                }
                if self.dormant(m.to) {
                    return refuse(
                        Refusal::BadExchange,
                        "a dormant pawn of pawns cannot be exchanged".to_owned(),
                    );
                }
                let attacked = self.single_royal(us) == Some(m.from) && self.attacked(m.from, !us);
                if !attacked {
                    return refuse(Refusal::ExchangeNotAllowed, "the exchange is allowed only when the shah is the only royal and in check, or when there is no other legal move".to_owned());
                }
                if is_pawn(kind_of(q)) && coords(m.from).1 == if us == Color::White { 9 } else { 0 }
                {
                    return refuse(
                        Refusal::BadExchange,
                        "a pawn may not be put on its last rank by the exchange".to_owned(),
                    );
                }
                return refuse(
                    Refusal::SelfCheck,
                    format!(
                        "after the exchange the shah on {} would be attacked",
                        sq_name(m.to)
                    ),
                );
            }
            Special::None => {}
        }
        if self.dormant(m.from) {
            return refuse(
                Refusal::Dormant,
                "a dormant pawn of pawns cannot move; it may only be relocated with '@'".to_owned(),
            );
        }
        if m.from == m.to {
            return MoveError::null_move("square");
        }
        let q = self.at(m.to);
        if m.to >= 110 {
            if !is_royal(kind) {
                return refuse(
                    Refusal::Citadel,
                    "no piece but a royal ever enters a citadel".to_owned(),
                );
            }
            if !gates(m.to).contains(&m.from) {
                return refuse(
                    Refusal::Citadel,
                    format!(
                        "{} is entered only by one step from its three neighbouring squares",
                        sq_name(m.to)
                    ),
                );
            }
            if q != EMPTY {
                return refuse(Refusal::Citadel, format!("{} is occupied", sq_name(m.to)));
            }
            if m.to == own_citadel(us) {
                return refuse(
                    Refusal::Citadel,
                    "only the adventitious king may enter its own citadel".to_owned(),
                );
            }
            if !self.may_enter(us, kind, m.to) {
                return refuse(
                    Refusal::Citadel,
                    "only the highest-ranking royal may enter the enemy citadel".to_owned(),
                );
            }
        } else if q != EMPTY && color_of(q) == us {
            return MoveError::own_piece(&sq_name(m.to), color_name(us), &kind_name(kind_of(q)));
        } else if q != EMPTY && self.dormant(m.to) {
            return refuse(
                Refusal::Immune,
                "a dormant pawn of pawns cannot be captured".to_owned(),
            );
        }
        let mut targets = Vec::new();
        self.targets(m.from, &mut targets);
        if !targets.contains(&m.to) {
            return refuse(Refusal::BadGeometry, self.geometry(kind, m.from, m.to));
        }
        if kind == PAWN_OF_PAWNS
            && self.arrivals[us.index()] == 1
            && m.to < 110
            && coords(m.to).1 == if us == Color::White { 9 } else { 0 }
        {
            let home = self.second_arrival[us.index()];
            return refuse(
                Refusal::SecondArrivalBarred,
                format!(
                    "the second arrival would go to {}, where a royal stands",
                    sq_name(home)
                ),
            );
        }
        let mut after = *self;
        after.make(m);
        if let Some(r) = after.single_royal(us) {
            let them = !us;
            let attacker = (0..SQUARES as Sq)
                .filter(|&a| {
                    let x = after.at(a);
                    x != EMPTY && color_of(x) == them
                })
                .find(|&a| {
                    let mut only = after;
                    for s in 0..SQUARES as Sq {
                        if s != a && s != r {
                            let x = only.at(s);
                            if x != EMPTY && color_of(x) == them {
                                only.board[s as usize] = EMPTY;
                            }
                        }
                    }
                    only.attacked(r, them)
                });
            let by = attacker
                .map(|a| format!(" by the {} on {}", label(after.at(a)), sq_name(a)))
                .unwrap_or_default();
            return refuse(
                Refusal::SelfCheck,
                format!(
                    "it leaves the {} on {} attacked{by}",
                    kind_name(kind_of(after.at(r))),
                    sq_name(r)
                ),
            );
        }
        refuse(
            Refusal::Illegal,
            format!("the {name}'s move is illegal here"),
        )
    }

    /// The movement rule a piece broke.
    fn geometry(&self, kind: u8, from: Sq, to: Sq) -> String {
        let (f, r) = coords(from);
        let (tf, tr) = coords(to);
        let (dx, dy) = (tf - f, tr - r);
        let blocked_at = |sx: i32, sy: i32, n: i32| -> Option<Sq> {
            (1..n)
                .map(|k| sq(f + sx * k, r + sy * k))
                .find_map(|s| s.filter(|&s| self.at(s) != EMPTY))
        };
        match kind {
            GIRAFFE => {
                let shape = (dx.abs() == 1 && dy.abs() >= 4) || (dy.abs() == 1 && dx.abs() >= 4);
                if !shape {
                    return "a giraffe moves one square diagonally and then at least three squares straight outward".to_owned();
                }
                let diag = sq(f + dx.signum(), r + dy.signum()).expect("on the board");
                if self.at(diag) != EMPTY {
                    return format!("the giraffe's diagonal square {} is occupied", sq_name(diag));
                }
                let (ox, oy) = if dx.abs() == 1 { (0, dy.signum()) } else { (dx.signum(), 0) };
                let steps = dx.abs().max(dy.abs()) - 1;
                let (df, dr) = coords(diag);
                match (1..steps).map(|k| sq(df + ox * k, dr + oy * k)).find_map(|s| s.filter(|&s| self.at(s) != EMPTY)) {
                    Some(b) => format!("the giraffe's path is blocked at {}", sq_name(b)),
                    None => "the giraffe cannot land there".to_owned(),
                }
            }
            TALIA => {
                if dx.abs() != dy.abs() {
                    "a talia moves diagonally".to_owned()
                } else if dx.abs() < 2 {
                    "a talia must move at least two squares".to_owned()
                } else if let Some(b) = blocked_at(dx.signum(), dy.signum(), dx.abs()) {
                    format!("the talia's path is blocked at {}", sq_name(b))
                } else {
                    "the talia cannot land there".to_owned()
                }
            }
            RUKH => {
                if dx != 0 && dy != 0 {
                    "a rukh moves along a rank or a file".to_owned()
                } else if let Some(b) = blocked_at(dx.signum(), dy.signum(), dx.abs().max(dy.abs())) {
                    format!("the rukh's path is blocked at {}", sq_name(b))
                } else {
                    "the rukh cannot land there".to_owned()
                }
            }
            FERZ => "a ferz moves one square diagonally".to_owned(),
            WAZIR => "a wazir moves one square along a rank or a file".to_owned(),
            FARAS => "a faras moves like a knight: two squares one way and one the other".to_owned(),
            PIL => "a pil leaps exactly two squares diagonally".to_owned(),
            JAMAL => "a jamal leaps three squares one way and one square the other".to_owned(),
            DABBABA => "a dabbaba leaps exactly two squares along a rank or a file".to_owned(),
            SHAH | PRINCE | ADVENTITIOUS => format!("a {} moves one square in any direction", kind_name(kind)),
            _ => "a pawn moves one square straight forward and captures one square diagonally forward; it has no double step".to_owned(),
        }
    }

    /// Pieces of `c` that are not royals.
    /// The same position with the other side to move (a pass, for the
    /// search's null-move pruning).
    pub fn null_move(&self) -> Position {
        let mut p = *self;
        p.side = !p.side;
        p
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Whether `c` has a piece or pawn that is not royal.
    pub fn has_non_royals(&self, c: Color) -> bool {
        (0..SQUARES as Sq).any(|s| {
            let p = self.at(s);
            p != EMPTY && color_of(p) == c && !is_royal(kind_of(p))
        })
    }
}

impl Variant for Position {
    type Move = Move;
    type Undo = Position;
    type Rules = Rules;
    type Notation = Notation;

    const ID: VariantId = VariantId::Tamerlane;
    const SIDES: [&'static str; 2] = ["white", "black"];

    fn info() -> VariantInfo {
        VariantInfo {
            id: VariantId::Tamerlane,
            name: "Tamerlane chess",
            description: "The 14th-century 11x10 game with citadels: giraffes, talias, camels, war engines, eleven kinds of pawn, the pawn of pawns, princes and adventitious kings, the shah's exchange, and citadel draws. A side without a legal move loses.",
            files: 11,
            ranks: 10,
            start_fen: START_FEN,
            sides: Self::SIDES,
            notations: vec![NotationInfo {
                name: NotationName::Coordinate,
                aliases: &[],
                description: "<from><to> with squares a1-k10, l2, z9; relocation <from>@<to>; exchange <shah>~<square>; citadel exchange <from><citadel>~<square> (default)",
                example: "b2c4",
            }],
        }
    }

    fn notation(name: NotationName) -> Option<Notation> {
        (name == NotationName::Coordinate).then_some(Notation)
    }

    fn start_position(rules: &Rules) -> Position {
        Position::from_fen(rules.setup.fen(), rules.setup.second_arrival())
            .expect("the setup FENs are valid")
    }

    fn from_fen(text: &str, rules: &Rules) -> Result<Position, FenError> {
        Position::from_fen(text, rules.setup.second_arrival())
    }

    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn in_check(&self) -> bool {
        self.in_check_of(self.side)
    }

    fn hash_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.board, self.side, self.exchange, self.arrivals).hash(&mut h);
        h.finish()
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal(out)
    }

    fn make_move(&mut self, mv: Move) -> Position {
        let undo = *self;
        self.make(mv);
        undo
    }

    fn unmake_move(&mut self, _mv: Move, undo: Position) {
        *self = undo;
    }

    fn parse_move(&self, text: &str, _notation: Notation) -> Result<Move, MoveError> {
        let m = Position::read_move(text)?;
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if legal.contains(&m) {
            Ok(m)
        } else {
            Err(self.explain(m))
        }
    }

    fn describe_move(&self, mv: Move, _notation: Notation) -> MoveNotations {
        let mut after = *self;
        after.make(mv);
        MoveNotations {
            wire: Position::move_string(mv),
            others: Vec::new(),
            capture: matches!(mv.special, Special::None | Special::Relocate)
                && self.at(mv.to) != EMPTY,
            gives_check: after.in_check_of(after.side),
            cost: None,
        }
    }

    fn move_to_string(&self, mv: Move, _notation: Notation) -> String {
        Position::move_string(mv)
    }

    fn adjudicate(game: &Game<Position>, has_legal_move: bool) -> Outcome {
        let pos = game.current();
        let rules = game.rules();
        if let Some(c) = pos.citadel_draw() {
            return Outcome::Drawn {
                reason: Reason::Citadel,
                explanation: format!(
                    "{}'s highest-ranking royal stands in the enemy citadel: the game is drawn",
                    color_name(c)
                ),
                repetition: None,
            };
        }
        let us = pos.side;
        if !has_legal_move {
            let (reason, how) = if pos.in_check_of(us) {
                (Reason::Checkmate, "is checkmated")
            } else {
                (
                    Reason::Stalemate,
                    "has no legal move (stalemate, which loses in Tamerlane chess)",
                )
            };
            return Outcome::Decisive {
                winner: !us,
                reason,
                explanation: format!("{} {how}: {} wins", color_name(us), color_name(!us)),
                repetition: None,
            };
        }
        if rules.bare_king {
            let bare = [
                !pos.has_non_royals(Color::White),
                !pos.has_non_royals(Color::Black),
            ];
            match bare {
                [true, true] => {
                    return Outcome::Drawn {
                        reason: Reason::BareKing,
                        explanation: "both sides have nothing but royals left: drawn".to_owned(),
                        repetition: None,
                    }
                }
                [true, false] | [false, true] => {
                    let loser = if bare[0] { Color::White } else { Color::Black };
                    return Outcome::Decisive {
                        winner: !loser,
                        reason: Reason::BareKing,
                        explanation: format!(
                            "{} has nothing but royals left (bare king): {} wins",
                            color_name(loser),
                            color_name(!loser)
                        ),
                        repetition: None,
                    };
                }
                _ => {}
            }
        }
        if rules.repetition {
            // The same position: placement, side to move, rights and arrivals
            // (not the move counters).
            let same = |p: &Position| {
                p.board == pos.board
                    && p.side == pos.side
                    && p.exchange == pos.exchange
                    && p.arrivals == pos.arrivals
            };
            let count = game.positions().iter().filter(|p| same(p)).count();
            if count >= 3 {
                return Outcome::Drawn {
                    reason: Reason::Repetition,
                    explanation: "the position stood for the third time: drawn".to_owned(),
                    repetition: None,
                };
            }
        }
        if rules.move_limit_plies > 0 && pos.halfmove >= rules.move_limit_plies {
            return Outcome::Drawn {
                reason: Reason::MoveLimit,
                explanation: format!(
                    "{} plies without a capture or pawn move (the limit is {})",
                    pos.halfmove, rules.move_limit_plies
                ),
                repetition: None,
            };
        }
        Outcome::Ongoing
    }
}
