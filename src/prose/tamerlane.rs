//! Tamerlane chess in words.

use super::{no_move, Prose};
use crate::variants::tamerlane::board::{
    color_of, kind_name, kind_of, DABBABA, FARAS, FERZ, GIRAFFE, JAMAL, PIL, RUKH, TALIA, WAZIR,
};
use crate::variants::tamerlane::{sq_name, Geometry, Notation, Position, Rules, Tamerlane, Why};
use crate::variants::{Color, Game, NotationName, Reason, Verdict};

/// `white rukh`, `black shah`.
fn label(code: u8) -> String {
    format!(
        "{} {}",
        Tamerlane::side_name(color_of(code)).to_lowercase(),
        kind_name(kind_of(code))
    )
}

/// How a piece moves, for a move it cannot make.
fn movement(kind: u8) -> String {
    match kind {
        GIRAFFE => "a giraffe moves one square diagonally and then at least three squares straight outward".to_owned(),
        TALIA => "a talia moves diagonally".to_owned(),
        RUKH => "a rukh moves along a rank or a file".to_owned(),
        FERZ => "a ferz moves one square diagonally".to_owned(),
        WAZIR => "a wazir moves one square along a rank or a file".to_owned(),
        FARAS => "a faras moves like a knight: two squares one way and one the other".to_owned(),
        PIL => "a pil leaps exactly two squares diagonally".to_owned(),
        JAMAL => "a jamal leaps three squares one way and one square the other".to_owned(),
        DABBABA => "a dabbaba leaps exactly two squares along a rank or a file".to_owned(),
        k if crate::variants::tamerlane::board::is_royal(k) => {
            format!("a {} moves one square in any direction", kind_name(k))
        }
        _ => "a pawn moves one square straight forward and captures one square diagonally forward; it has no double step".to_owned(),
    }
}

impl Prose for Position {
    const NAME: &'static str = "Tamerlane chess";
    const DESCRIPTION: &'static str = "The 14th-century 11x10 game with citadels: giraffes, talias, camels, war engines, eleven kinds of pawn, the pawn of pawns, princes and adventitious kings, the shah's exchange, and citadel draws. A side without a legal move loses.";

    fn notation_description(_name: NotationName) -> &'static str {
        "<from><to> with squares a1-k10, l2, z9; relocation <from>@<to>; exchange <shah>~<square>; citadel exchange <from><citadel>~<square> (default)"
    }

    fn refusal(&self, why: &Why, _text: &str, _notation: Notation) -> String {
        let us = self.side();
        let name = Self::side_name;
        match *why {
            Why::CitadelDraw => "the game is drawn: a royal stands in the enemy citadel".to_owned(),
            Why::NoPiece { at } => format!("there is no piece on {}", sq_name(at)),
            Why::NotYourPiece { at } => super::not_your_piece(self, &sq_name(at)),
            Why::NullMove => "a move must go to another square".to_owned(),
            Why::RelocateNotDormant => "only a dormant pawn of pawns (one standing on its last rank) may be relocated with '@'".to_owned(),
            Why::RelocateIntoCitadel => "a pawn of pawns is never relocated into a citadel".to_owned(),
            Why::RelocateNowhere => "a relocation must go to another square".to_owned(),
            Why::RelocateOntoRoyal { at, piece } => format!(
                "a relocation may not land on the {} on {}",
                label(piece),
                sq_name(at)
            ),
            Why::RelocateOntoDormant => "a relocation may not land on the enemy's dormant pawn of pawns".to_owned(),
            Why::RelocateNoPurpose { to } => format!("from {} the pawn of pawns would neither fork two enemy pieces nor attack one that has no legal move (or it would leave the royal attacked)", sq_name(to)),
            Why::ExchangeNotShah => "only the shah exchanges".to_owned(),
            Why::ExchangeUsed => "the exchange has already been used".to_owned(),
            Why::CitadelExchangeStep => "the citadel exchange is the shah's step from a neighbouring square into the empty enemy citadel".to_owned(),
            Why::CitadelExchangePartner => "the shah's partner in the citadel exchange is a prince or adventitious king on the board".to_owned(),
            Why::CitadelExchangeOccupied => "the enemy citadel is occupied".to_owned(),
            Why::ExchangePartner => "the shah exchanges with a friendly piece that is not a royal".to_owned(),
            Why::ExchangeDormant => "a dormant pawn of pawns cannot be exchanged".to_owned(),
            Why::ExchangeNotAllowed => "the exchange is allowed only when the shah is the only royal and in check, or when there is no other legal move".to_owned(),
            Why::ExchangePawnLastRank => "a pawn may not be put on its last rank by the exchange".to_owned(),
            Why::ExchangeSelfCheck { at } => format!(
                "after the exchange the shah on {} would be attacked",
                sq_name(at)
            ),
            Why::Dormant => "a dormant pawn of pawns cannot move; it may only be relocated with '@'".to_owned(),
            Why::CitadelNotRoyal => "no piece but a royal ever enters a citadel".to_owned(),
            Why::CitadelNotFromGate { citadel } => format!(
                "{} is entered only by one step from its three neighbouring squares",
                sq_name(citadel)
            ),
            Why::CitadelOccupied { citadel } => format!("{} is occupied", sq_name(citadel)),
            Why::OwnCitadel => "only the adventitious king may enter its own citadel".to_owned(),
            Why::CitadelNotHighest => "only the highest-ranking royal may enter the enemy citadel".to_owned(),
            Why::OwnPiece { at, piece } => format!(
                "{} is occupied by {}'s own {}",
                sq_name(at),
                name(us),
                kind_name(kind_of(piece))
            ),
            Why::Immune => "a dormant pawn of pawns cannot be captured".to_owned(),
            Why::Geometry { kind, why } => match why {
                Geometry::Shape => movement(kind),
                Geometry::GiraffeDiagonal { at } => format!(
                    "the giraffe's diagonal square {} is occupied",
                    sq_name(at)
                ),
                Geometry::TaliaTooShort => "a talia must move at least two squares".to_owned(),
                Geometry::Blocked { at } => format!(
                    "the {}'s path is blocked at {}",
                    kind_name(kind),
                    sq_name(at)
                ),
                Geometry::CannotLand => format!("the {} cannot land there", kind_name(kind)),
            },
            Why::SecondArrivalBarred { home } => format!(
                "the second arrival would go to {}, where a royal stands",
                sq_name(home)
            ),
            Why::SelfCheck { royal, kind, by } => format!(
                "it leaves the {} on {} attacked{}",
                kind_name(kind),
                sq_name(royal),
                by.map(|(a, p)| format!(" by the {} on {}", label(p), sq_name(a)))
                    .unwrap_or_default()
            ),
            Why::Illegal { kind } => format!("the {}'s move is illegal here", kind_name(kind)),
        }
    }

    fn unreadable(text: &str, _notation: Notation) -> String {
        format!("'{text}' is not a Tamerlane move like 'b2c4', 'a10@e5', 'f2~d5' or 'a8z9~e5'")
    }

    fn explain(game: &Game<Tamerlane>, v: &Verdict) -> String {
        let pos = game.current();
        let rules: &Rules = game.rules();
        match v.reason {
            Reason::Citadel => format!(
                "{}'s highest-ranking royal stands in the enemy citadel: the game is drawn",
                Self::side_name(pos.citadel_draw().unwrap_or(Color::White))
            ),
            Reason::Checkmate | Reason::Stalemate => no_move(
                pos,
                v.reason,
                "has no legal move (stalemate, which loses in Tamerlane chess)",
            ),
            Reason::BareKing => match v.winner {
                None => "both sides have nothing but royals left: drawn".to_owned(),
                Some(w) => format!(
                    "{} has nothing but royals left (bare king): {} wins",
                    Self::side_name(!w),
                    Self::side_name(w)
                ),
            },
            Reason::Repetition => "the position stood for the third time: drawn".to_owned(),
            Reason::MoveLimit => format!(
                "{} plies without a capture or pawn move (the limit is {})",
                pos.halfmove_clock(),
                rules.move_limit_plies
            ),
            _ => "the game has ended".to_owned(),
        }
    }
}
