//! Xiangqi in words.

use super::{no_move, Prose};
use crate::variants::xiangqi::board::{color_of, file_of, kind_of, rank_of, sq_name, Kind, Sq};
use crate::variants::xiangqi::{Notation, Position, RepetitionRule, Why, Xiangqi};
use crate::variants::{
    Color, Conduct, Game, Nature, NotationName, Pattern, Reason, RepetitionReport, Variant,
    Verdict, Warning,
};

/// A point as the request's notation names it: ranks 1-10 in Fairy
/// coordinates, 0-9 (ICCS) otherwise.
fn point(s: Sq, notation: Notation) -> String {
    match notation {
        Notation::Fairy => format!("{}{}", (b'a' + file_of(s) as u8) as char, rank_of(s) + 1),
        _ => sq_name(s),
    }
}

/// `Red chariot`, `Black horse`.
fn label(c: Color, kind: Kind) -> String {
    format!("{} {}", Xiangqi::side_name(c), kind.name())
}

fn article(kind: Kind) -> &'static str {
    if kind == Kind::Advisor || kind == Kind::Elephant {
        "an"
    } else {
        "a"
    }
}

impl Prose for Position {
    const NAME: &'static str = "Xiangqi";
    const DESCRIPTION: &'static str = "Chinese chess on 9x10 points: palace, river, elephant eye, horse leg, cannon screens and the flying general. A side without a legal move loses.";

    fn notation_description(name: NotationName) -> &'static str {
        match name {
            NotationName::Iccs | NotationName::Ucci => "ICCS/UCCI coordinates, files a-i from Red's left, ranks 0-9 from Red's side (default)",
            NotationName::Fairy | NotationName::Uci => "Fairy-Stockfish's UCI coordinates, ranks 1-10 (what pyffish and pychess send)",
            NotationName::Wxf => "WXF/AXF notation",
            _ => "Chinese notation, simplified or traditional characters",
        }
    }

    fn refusal(&self, why: &Why, text: &str, notation: Notation) -> String {
        let us = self.side();
        let at = |s: Sq| point(s, notation);
        match *why {
            Why::NoPiece { at: s } => format!("there is no piece on {}", at(s)),
            Why::NotYourPiece { at: s } => super::not_your_piece(self, &at(s)),
            Why::NullMove => "a move must go to another point".to_owned(),
            Why::OwnPiece { at: s, kind } => format!(
                "{} is occupied by {}'s own {}",
                at(s),
                Self::side_name(us),
                kind.name()
            ),
            Why::Shape { kind } => match kind {
                Kind::General => "a general moves one point orthogonally".to_owned(),
                Kind::Advisor => "an advisor moves one point diagonally".to_owned(),
                Kind::Elephant => "an elephant moves exactly two points diagonally".to_owned(),
                Kind::Horse => {
                    "a horse moves one point orthogonally and then one diagonally outward"
                        .to_owned()
                }
                Kind::Chariot | Kind::Cannon => {
                    format!("a {} moves along a rank or a file", kind.name())
                }
                Kind::Soldier => {
                    "a soldier moves one point forward, or sideways after crossing the river"
                        .to_owned()
                }
            },
            Why::Backward => "a soldier never moves backward".to_owned(),
            Why::LeavesPalace { kind, to } => {
                let who = if kind == Kind::General {
                    "the general".to_owned()
                } else {
                    format!("{} {}", article(kind), kind.name())
                };
                format!("{who} may not leave the palace ({} is outside it)", at(to))
            }
            Why::CrossesRiver => "an elephant may not cross the river".to_owned(),
            Why::EyeBlocked { at: s } => format!("the elephant's eye at {} is blocked", at(s)),
            Why::LegBlocked { at: s } => format!("the horse's leg at {} is blocked", at(s)),
            Why::PathBlocked { kind, at: s } => {
                format!("the {}'s path is blocked at {}", kind.name(), at(s))
            }
            Why::CannonScreens { from, to, screens } => format!(
                "a cannon captures by jumping exactly one piece, and there {} between {} and {}",
                match screens {
                    0 => "is none".to_owned(),
                    n => format!("are {n}"),
                },
                at(from),
                at(to)
            ),
            Why::NotCrossed => {
                "a soldier may move sideways only after crossing the river".to_owned()
            }
            Why::FlyingGeneral { file } => format!(
                "the generals would face each other on the {}-file",
                (b'a' + file) as char
            ),
            Why::SelfCheck {
                kind,
                to,
                was_in_check,
                by,
            } => {
                let by = by
                    .map(|(s, k)| format!(" by the {} on {}", label(!us, k), at(s)))
                    .unwrap_or_default();
                if kind == Kind::General {
                    format!("{} is attacked{by}", at(to))
                } else if was_in_check {
                    format!(
                        "it does not get the general out of check: it would still be attacked{by}"
                    )
                } else {
                    format!("it leaves the general in check{by}")
                }
            }
            Why::NotOnFile { kind, file } => format!(
                "{} has no {} on file {file} (files are counted 1-9 from {}'s right)",
                Self::side_name(us),
                kind.name(),
                Self::side_name(us)
            ),
            Why::Ambiguous { first, second } => {
                let reading = |m| {
                    let name = if notation == Notation::Chinese {
                        NotationName::Chinese
                    } else {
                        NotationName::Wxf
                    };
                    let described = self.describe_moves(&[m], notation);
                    let written = described[0]
                        .written
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, w)| w.clone())
                        .unwrap_or_default();
                    format!("{written} ({} to {})", at(m.from), at(m.to))
                };
                format!(
                    "'{text}' fits two legal moves of {}'s {}s on that file: {} or {}; write which one with {}",
                    Self::side_name(us),
                    kind_of(self.piece_at(first.from)).expect("a piece").name(),
                    reading(first),
                    reading(second),
                    if notation == Notation::Chinese {
                        "前 or 后"
                    } else {
                        "+ or - (front or rear)"
                    }
                )
            }
            Why::NoSuchMove => format!(
                "no legal move of {} is written '{text}' in {} notation",
                Self::side_name(us),
                if notation == Notation::Chinese {
                    "Chinese"
                } else {
                    "WXF"
                }
            ),
        }
    }

    fn unreadable(text: &str, notation: Notation) -> String {
        match notation {
            Notation::Iccs => {
                format!("'{text}' is not a coordinate move like 'h2e2' (files a-i, ranks 0-9)")
            }
            Notation::Fairy => {
                format!("'{text}' is not a coordinate move like 'h3e3' (files a-i, ranks 1-10)")
            }
            Notation::Wxf => {
                format!("'{text}' is not a WXF move (four symbols, like 'C2.5' or '炮二平五')")
            }
            Notation::Chinese => {
                format!("'{text}' is not a Chinese move (four symbols, like 'C2.5' or '炮二平五')")
            }
        }
    }

    fn explain(game: &Game<Position>, v: &Verdict) -> String {
        let pos = game.current();
        match v.reason {
            Reason::Checkmate | Reason::Stalemate => no_move(
                pos,
                v.reason,
                "has no legal move (stalemate, which loses in Xiangqi)",
            ),
            Reason::InsufficientMaterial => {
                "neither side has a chariot, horse, cannon or soldier left, so neither can win"
                    .to_owned()
            }
            Reason::MoveLimit => format!(
                "{} plies have been played without a capture (the limit is {})",
                pos.halfmove_clock(),
                game.rules().move_limit_plies
            ),
            Reason::TablebaseWin => format!(
                "the position is in the endgame tables, which show that {} wins with best play; the rules (tablebase_adjudication: all) end the game with that result",
                v.winner.map_or("neither side", Xiangqi::side_name)
            ),
            Reason::TablebaseDraw => {
                "the position is in the endgame tables, which show that neither side can force a win; the rules (tablebase_adjudication) end the game drawn"
                    .to_owned()
            }
            _ => repetition(game, v),
        }
    }

    fn chased(pos: &Position, square: u8) -> (String, String) {
        let p = pos.piece_at(square);
        let what = kind_of(p).map_or_else(String::new, |k| label(color_of(p), k));
        (sq_name(square), what)
    }

    fn warning(pos: &Position, w: &Warning) -> String {
        let (at, what) = Self::chased(pos, w.square);
        format!(
            "the {what} on {at} stands where no game can bring it (a soldier never stands behind its starting rank or beside it before crossing the river): this position cannot arise in a game, and it is played by the ordinary rules"
        )
    }
}

/// A repetition verdict: who breached, how, and the plies judged.
fn repetition(game: &Game<Position>, v: &Verdict) -> String {
    let Some(report) = v.repetition.as_deref() else {
        return "the position stood for the third time: drawn".to_owned();
    };
    let plies = format!("plies {}-{}", report.cycle.0 + 1, report.cycle.1);
    let side = Xiangqi::side_name;
    if v.reason == Reason::NineForbiddenMoves {
        let c = report.in_breach.unwrap_or(Color::White);
        let chases = chases_named(game, report, c);
        let chases = if chases.is_empty() {
            chases
        } else {
            format!("; {chases}")
        };
        return format!(
            "{} made nine forbidden moves in a row ({}{chases}) on three points or more ({plies}): under the Chinese rules it had to change and loses ({}方变着，不变作负), {} wins",
            side(c),
            natures(&report.conduct[c.index()]),
            chinese_side(c),
            side(!c)
        );
    }
    let judged = if game.rules().repetition == RepetitionRule::Chinese {
        chinese(game, report)
    } else {
        asian(game, v, report, &plies)
    };
    if v.reason == Reason::EarlyRepetition {
        return format!(
            "{judged}; but a repetition may not be drawn before move {} (tournament rule), so Red, who had to change, loses",
            game.rules().no_repetition_draw_before_move
        );
    }
    judged
}

/// The Asian rules' words for a repetition verdict.
fn asian(game: &Game<Position>, v: &Verdict, report: &RepetitionReport, plies: &str) -> String {
    let side = Xiangqi::side_name;
    let pattern = |c: Color| report.conduct[c.index()].pattern;
    match report.in_breach {
        Some(c) if v.reason == Reason::PerpetualCheck => format!(
            "the position stood for the third time; {} gave check with every move of the repetition ({plies}): perpetual check loses, {} wins",
            side(c),
            side(!c)
        ),
        Some(c) => format!(
            "the position stood for the third time; {} chased {} with every move of the repetition ({plies}): perpetual chase loses, {} wins",
            side(c),
            chased_names(game, report, c),
            side(!c)
        ),
        None if pattern(Color::White) == Pattern::PerpetualCheck
            && pattern(Color::Black) == Pattern::PerpetualCheck =>
        {
            format!(
                "the position stood for the third time and both sides checked perpetually ({plies}): drawn"
            )
        }
        None if pattern(Color::White) == Pattern::PerpetualChase
            && pattern(Color::Black) == Pattern::PerpetualChase =>
        {
            format!(
                "the position stood for the third time and both sides chased perpetually ({plies}): drawn"
            )
        }
        None => format!(
            "the position stood for the third time without a perpetual check or chase ({plies}): drawn"
        ),
    }
}

/// The Chinese rules' words for a repetition verdict: each side's pattern
/// in English and in the rule book's terms, and the ruling.
fn chinese(game: &Game<Position>, report: &RepetitionReport) -> String {
    let side = Xiangqi::side_name;
    let plies = format!("plies {}-{}", report.cycle.0 + 1, report.cycle.1);
    let conduct = |c: Color| {
        let k = &report.conduct[c.index()];
        let mut words = format!(
            "{} {} ({})",
            side(c),
            pattern_words(k.pattern),
            k.pattern.chinese_term()
        );
        if !k.chased.is_empty() {
            words.push_str(&format!(", going after {}", chased_names(game, report, c)));
        }
        if !k.chases.is_empty() {
            words.push_str(&format!(" ({})", chases_named(game, report, c)));
        }
        if k.joint {
            words.push_str(", with a joint chase (联合捉)");
        }
        words
    };
    let both = format!(
        "the position stood for the third time ({plies}): {}; {}",
        conduct(Color::White),
        conduct(Color::Black)
    );
    let forbidden = |c: Color| report.conduct[c.index()].pattern.is_forbidden();
    match report.in_breach {
        Some(c) => {
            let why = if !forbidden(!c) {
                "the Chinese rules forbid it and the other side's moves are allowed"
            } else if report.conduct[c.index()].pattern == Pattern::PerpetualCheck {
                "both are forbidden, and a perpetual check loses against any other pattern"
            } else {
                "both are forbidden, and single chases lose against a joint chase"
            };
            format!(
                "{both}; {why}: {} must change and loses ({}方变着，不变作负), {} wins",
                side(c),
                chinese_side(c),
                side(!c)
            )
        }
        None if forbidden(Color::White) && forbidden(Color::Black) => format!(
            "{both}; both are forbidden and neither outranks the other: drawn (双方不变作和)"
        ),
        None => format!("{both}; neither side's moves are forbidden: drawn (双方不变作和)"),
    }
}

/// A pattern in English.
fn pattern_words(p: Pattern) -> &'static str {
    match p {
        Pattern::PerpetualCheck => "checked with every move",
        Pattern::PerpetualMateThreat => "threatened mate with every move",
        Pattern::PerpetualChase => "chased with every move",
        Pattern::OneCheckOneMateThreat => "only checked and threatened mate",
        Pattern::OneCheckOneChase => "only checked and chased",
        Pattern::OneMateThreatOneChase => "only threatened mate and chased",
        Pattern::CheckMateThreatAndChase => "only checked, threatened mate and chased",
        Pattern::Allowed => "made an allowed move in the cycle",
    }
}

/// A side's moves' natures, in order: "check, chase, chase".
fn natures(conduct: &Conduct) -> String {
    conduct
        .natures
        .iter()
        .map(|n| match n {
            Nature::Check => "check",
            Nature::MateThreat => "mate threat",
            Nature::Chase => "chase",
            Nature::Idle => "idle",
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// 红 or 黑.
fn chinese_side(c: Color) -> &'static str {
    match c {
        Color::White => "红",
        Color::Black => "黑",
    }
}

/// Each chase of `c` as chaser and chased, where they stand at the end of
/// the cycle: "the Red chariot on h1 chases the Black horse on g1".
fn chases_named(game: &Game<Position>, report: &RepetitionReport, c: Color) -> String {
    let end = &game.positions()[report.cycle.1];
    report.conduct[c.index()]
        .chases
        .iter()
        .map(|&(chaser, chased)| {
            let (from, who) = Position::chased(end, chaser);
            let (at, what) = Position::chased(end, chased);
            format!("the {who} on {from} chases the {what} on {at}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The pieces `c` chased, named where they stand at the end of the cycle.
fn chased_names(game: &Game<Position>, report: &RepetitionReport, c: Color) -> String {
    let end = &game.positions()[report.cycle.1];
    report.conduct[c.index()]
        .chased
        .iter()
        .map(|&s| {
            let (at, what) = Position::chased(end, s);
            format!("the {what} (now on {at})")
        })
        .collect::<Vec<_>>()
        .join(" and ")
}
