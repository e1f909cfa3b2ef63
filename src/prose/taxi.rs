//! Taxi chess in words.

use super::{no_move, Prose};
use crate::variants::taxi::{sq_name, Cost, Kind, Notation, Position, Taxi, Why};
use crate::variants::{Game, NotationName, Reason, Verdict};

/// How a piece moves, for a move it cannot make.
fn movement(kind: Kind) -> &'static str {
    match kind {
        Kind::Pawn => "a pawn moves one square straight forward (two from its starting rank) and captures one square diagonally forward",
        Kind::Knight => "a knight moves two squares one way and one square the other",
        Kind::Bishop => "a bishop moves diagonally",
        Kind::Rook => "a rook moves along a rank or a file",
        Kind::Queen => "a queen moves along a rank, a file or a diagonal",
        Kind::King => "a king moves one square (castling: two squares toward a rook with the right)",
    }
}

/// The parts of a price: `travel 1 + removal from b4 2`.
fn cost_parts(parts: Cost) -> String {
    match parts {
        Cost::Castle { king_side } => format!(
            "castling {}",
            if king_side { "king side" } else { "queen side" }
        ),
        Cost::Parts {
            travel,
            removal,
            promotion,
        } => {
            let mut out = vec![format!("travel {travel}")];
            if let Some((s, r)) = removal {
                out.push(format!("removal from {} {r}", sq_name(s)));
            }
            if promotion {
                out.push("promotion 2".to_owned());
            }
            out.join(" + ")
        }
    }
}

impl Prose for Position {
    const NAME: &'static str = "Taxi chess";
    const DESCRIPTION: &'static str = "FIDE chess where every step costs money (Ralph Betza, 1996): moves cost travel, removal of captured pieces and promotion; a move you cannot pay for is illegal, and check means a threat the opponent can afford.";

    fn notation_description(name: NotationName) -> &'static str {
        match name {
            NotationName::San => "Standard algebraic notation",
            _ => "UCI coordinates, promotion as a fifth letter, castling as the king's move (default)",
        }
    }

    fn refusal(&self, why: &Why, text: &str, _notation: Notation) -> String {
        let us = self.side();
        let name = Self::side_name;
        match *why {
            Why::NoPiece { at } => format!("there is no piece on {}", sq_name(at)),
            Why::NotYourPiece { at } => super::not_your_piece(self, &sq_name(at)),
            Why::NullMove => "a move must go to another square".to_owned(),
            Why::OwnPiece { at, kind } => format!(
                "{} is occupied by {}'s own {}",
                sq_name(at),
                name(us),
                kind.name()
            ),
            Why::PromotionRequired { from, to } => format!(
                "a pawn reaching the last rank must promote: write e.g. {}{}q",
                sq_name(from),
                sq_name(to)
            ),
            Why::BadPromotion => "only a pawn reaching the last rank promotes".to_owned(),
            Why::CastlingNotAllowed => "castling is not possible: the right is lost or a square between king and rook is occupied".to_owned(),
            Why::PathBlocked { kind, at } => {
                format!("the {}'s path is blocked at {}", kind.name(), sq_name(at))
            }
            Why::PawnBlocked { at } => {
                format!("{} is occupied: a pawn captures diagonally", sq_name(at))
            }
            Why::PawnDoubleStep => {
                "a pawn steps two squares only from its starting rank and over an empty square"
                    .to_owned()
            }
            Why::PawnNoCapture { at } => format!(
                "a pawn moves diagonally only to capture, and {} is empty",
                sq_name(at)
            ),
            Why::Shape { kind } => movement(kind).to_owned(),
            Why::InsufficientFunds {
                cost,
                parts,
                budget,
                balance,
                income,
            } => format!(
                "it costs {cost} ({}), and {} has {budget} ({balance} plus income {income})",
                cost_parts(parts),
                name(us)
            ),
            Why::CastlingThroughThreat { at } => {
                format!("castling is illegal: {} is threatened", sq_name(at))
            }
            Why::SelfCheck {
                king_moves,
                to,
                by: (x, kind),
                budget,
            } => {
                let what = format!(
                    "the {} {} on {} could take it next turn ({} has {budget} units then)",
                    name(!us),
                    kind.name(),
                    sq_name(x),
                    name(!us)
                );
                if king_moves {
                    format!("{} is threatened: {what}", sq_name(to))
                } else {
                    format!("it leaves the king in check: {what}")
                }
            }
            Why::NoSuchMove => format!(
                "no legal move of {} is written '{text}' in SAN",
                name(us)
            ),
            Why::Illegal => "the move is illegal".to_owned(),
        }
    }

    fn unreadable(text: &str, notation: Notation) -> String {
        match notation {
            Notation::Uci => format!("'{text}' is not a UCI move like 'e2e4' or 'e7e8q'"),
            Notation::San => format!("'{text}' is not a SAN move like 'Nf3'"),
        }
    }

    fn explain(game: &Game<Taxi>, v: &Verdict) -> String {
        let pos = game.current();
        let us = pos.side();
        match v.reason {
            Reason::Checkmate => no_move(pos, v.reason, ""),
            Reason::Bankruptcy => format!(
                "{} is in check and cannot afford any move out of it (mate by bankruptcy): {} wins",
                Self::side_name(us),
                Self::side_name(!us)
            ),
            Reason::Stalemate => format!(
                "{} is not in check and has no legal move{}: stalemate is a draw",
                Self::side_name(us),
                if pos.priced_out() {
                    " because it cannot afford any move (stalemate by poverty)"
                } else {
                    ""
                }
            ),
            Reason::FivefoldRepetition => format!(
                "the position (with both balances) has stood {} times: drawn automatically",
                game.occurrences().len()
            ),
            Reason::SeventyFiveMoves => format!(
                "{} plies without a capture or a pawn move: drawn automatically",
                pos.halfmove_clock()
            ),
            Reason::InsufficientMaterial => {
                "neither side has the material to mate (a dead position)".to_owned()
            }
            _ => "the game is drawn".to_owned(),
        }
    }

    fn claimable(game: &Game<Taxi>, reason: Reason) -> String {
        match reason {
            Reason::ThreefoldRepetition => format!(
                "the position (with both balances) has stood {} times",
                game.occurrences().len()
            ),
            _ => format!(
                "{} plies without a capture or a pawn move",
                game.current().halfmove_clock()
            ),
        }
    }
}
