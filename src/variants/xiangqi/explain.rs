//! Checking one move and saying, in the game's own terms, why it is illegal.

use super::board::*;
use super::position::{Move, Position};
use crate::variants::MoveError;
use crate::variants::Refusal;

fn refuse(code: Refusal, message: String) -> Result<Move, MoveError> {
    Err(MoveError::new(code, message))
}

/// Points strictly between two points on one line.
fn between(from: Sq, to: Sq) -> Vec<Sq> {
    let (ff, fr) = (file_of(from) as i32, rank_of(from) as i32);
    let (tf, tr) = (file_of(to) as i32, rank_of(to) as i32);
    let (df, dr) = ((tf - ff).signum(), (tr - fr).signum());
    let mut out = Vec::new();
    let (mut f, mut r) = (ff + df, fr + dr);
    while (f, r) != (tf, tr) {
        out.push(sq(f as usize, r as usize));
        f += df;
        r += dr;
    }
    out
}

/// Checks the move `from`-`to` for the side to move, by the piece's movement
/// rule first and then for the general's safety, and explains a refusal.
pub fn check(pos: &Position, from: Sq, to: Sq) -> Result<Move, MoveError> {
    let us = pos.side();
    let p = pos.piece_at(from);
    let m = Move::new(from, to);
    let Some(kind) = kind_of(p) else {
        return Err(MoveError::no_piece(&sq_name(from)));
    };
    if color_of(p) != us {
        return Err(MoveError::not_your_piece(
            &sq_name(from),
            color_name(!us),
            color_name(us),
        ));
    }
    if from == to {
        return Err(MoveError::null_move("point"));
    }
    let target = pos.piece_at(to);
    if target != EMPTY && color_of(target) == us {
        return Err(MoveError::own_piece(
            &sq_name(to),
            color_name(us),
            kind_of(target).map_or("", |k| k.name()),
        ));
    }
    let (df, dr) = (
        file_of(to).abs_diff(file_of(from)),
        rank_of(to).abs_diff(rank_of(from)),
    );
    let name = kind.name();
    match kind {
        Kind::General => {
            if df + dr != 1 {
                return refuse(
                    Refusal::BadGeometry,
                    "a general moves one point orthogonally".to_owned(),
                );
            }
            if !in_palace(to, us) {
                return refuse(
                    Refusal::LeavesPalace,
                    format!(
                        "the general may not leave the palace ({} is outside it)",
                        sq_name(to)
                    ),
                );
            }
        }
        Kind::Advisor => {
            if df != 1 || dr != 1 {
                return refuse(
                    Refusal::BadGeometry,
                    "an advisor moves one point diagonally".to_owned(),
                );
            }
            if !in_palace(to, us) {
                return refuse(
                    Refusal::LeavesPalace,
                    format!(
                        "an advisor may not leave the palace ({} is outside it)",
                        sq_name(to)
                    ),
                );
            }
        }
        Kind::Elephant => {
            if df != 2 || dr != 2 {
                return refuse(
                    Refusal::BadGeometry,
                    "an elephant moves exactly two points diagonally".to_owned(),
                );
            }
            if !own_side(to, us) {
                return refuse(
                    Refusal::CrossesRiver,
                    "an elephant may not cross the river".to_owned(),
                );
            }
            let eye = sq(
                (file_of(from) + file_of(to)) / 2,
                (rank_of(from) + rank_of(to)) / 2,
            );
            if pos.piece_at(eye) != EMPTY {
                return refuse(
                    Refusal::Blocked,
                    format!("the elephant's eye at {} is blocked", sq_name(eye)),
                );
            }
        }
        Kind::Horse => {
            if !((df == 1 && dr == 2) || (df == 2 && dr == 1)) {
                return refuse(
                    Refusal::BadGeometry,
                    "a horse moves one point orthogonally and then one diagonally outward"
                        .to_owned(),
                );
            }
            let t = &HORSE_MOVES[from as usize];
            let leg = (0..t.count as usize)
                .find(|&i| t.to[i] == to)
                .map(|i| t.via[i])
                .expect("a horse-shaped move is in the table");
            if pos.piece_at(leg) != EMPTY {
                return refuse(
                    Refusal::Blocked,
                    format!("the horse's leg at {} is blocked", sq_name(leg)),
                );
            }
        }
        Kind::Chariot | Kind::Cannon => {
            if df != 0 && dr != 0 {
                return refuse(
                    Refusal::BadGeometry,
                    format!("a {name} moves along a rank or a file"),
                );
            }
            let screens: Vec<Sq> = between(from, to)
                .into_iter()
                .filter(|&s| pos.piece_at(s) != EMPTY)
                .collect();
            if kind == Kind::Chariot || target == EMPTY {
                if let Some(&b) = screens.first() {
                    return refuse(
                        Refusal::Blocked,
                        format!("the {name}'s path is blocked at {}", sq_name(b)),
                    );
                }
            } else if screens.len() != 1 {
                return refuse(
                    Refusal::CannonScreen,
                    format!(
                        "a cannon captures by jumping exactly one piece, and there {} between {} and {}",
                        match screens.len() {
                            0 => "is none".to_owned(),
                            n => format!("are {n}"),
                        },
                        sq_name(from),
                        sq_name(to)
                    ),
                );
            }
        }
        Kind::Soldier => {
            let forward = match us {
                crate::variants::Color::White => rank_of(to) as i32 - rank_of(from) as i32,
                crate::variants::Color::Black => rank_of(from) as i32 - rank_of(to) as i32,
            };
            if forward < 0 {
                return refuse(
                    Refusal::BadGeometry,
                    "a soldier never moves backward".to_owned(),
                );
            }
            if df + dr != 1 {
                return refuse(
                    Refusal::BadGeometry,
                    "a soldier moves one point forward, or sideways after crossing the river"
                        .to_owned(),
                );
            }
            if df == 1 && own_side(from, us) {
                return refuse(
                    Refusal::NotCrossed,
                    "a soldier may move sideways only after crossing the river".to_owned(),
                );
            }
        }
    }
    // The movement is right; now the general's safety.
    let mut after = pos.clone();
    after.make(m);
    if after.general_attacked(us) {
        let mine = after.general(us);
        let theirs = after.general(!us);
        let attackers = after.attackers(mine, !us);
        if attackers.contains(&theirs) {
            return refuse(
                Refusal::FlyingGeneral,
                format!(
                    "the generals would face each other on the {}-file",
                    (b'a' + file_of(mine) as u8) as char
                ),
            );
        }
        let by = attackers
            .first()
            .map(|&a| {
                format!(
                    " by the {} on {}",
                    piece_label(after.piece_at(a)),
                    sq_name(a)
                )
            })
            .unwrap_or_default();
        let was_in_check = pos.general_attacked(us);
        let what = if kind == Kind::General {
            format!("{} is attacked{by}", sq_name(to))
        } else if was_in_check {
            format!("it does not get the general out of check: it would still be attacked{by}")
        } else {
            format!("it leaves the general in check{by}")
        };
        return refuse(Refusal::SelfCheck, what);
    }
    Ok(m)
}
