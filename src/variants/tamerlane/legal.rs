//! The legal moves of a Tamerlane position: each piece's targets, the
//! relocations of a royal in its citadel, the exchanges of places, each
//! move kept when it leaves no royal of the mover attacked.

use super::board::*;
use super::position::*;
use crate::variants::Color;

impl Position {
    /// Every legal move: none when the game is drawn by a citadel.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.citadel_draw().is_some() {
            return;
        }
        let us = self.side;
        let mut targets = Vec::with_capacity(48);
        let royal = self.single_royal(us);
        let several_royals = royal.is_none();
        for from in 0..SQUARES as Sq {
            let p = self.board[from as usize];
            if p == EMPTY || color_of(p) != us {
                continue;
            }
            if self.dormant(from) {
                self.relocations(from, out);
                continue;
            }
            targets.clear();
            self.targets(from, &mut targets);
            for &to in &targets {
                if self.second_arrival_barred(from, to) {
                    continue;
                }
                let m = Move::normal(from, to);
                // With two or more royals no check rules apply (a move never
                // lowers the count). With one, follow it: only a move of the
                // royal itself moves it, and a pawn reaching its last rank may
                // add a royal, so that case asks the full question.
                let legal = several_royals || {
                    let mut after = *self;
                    after.play(m);
                    let arriving = is_pawn(kind_of(p))
                        && !is_citadel(to)
                        && coords(to).1 == if us == Color::White { 9 } else { 0 };
                    if arriving {
                        !after.in_check_of(us)
                    } else {
                        let r = if Some(from) == royal {
                            to
                        } else {
                            royal.expect("one royal")
                        };
                        !after.attacked(r, !us)
                    }
                };
                if legal {
                    out.push(m);
                }
            }
        }
        self.exchanges(out);
    }

    /// Relocations of the dormant pawn of pawns on `from`.
    fn relocations(&self, from: Sq, out: &mut Vec<Move>) {
        let us = self.side;
        let fwd = if us == Color::White { 1 } else { -1 };
        for to in 0..BOARD_SQUARES {
            if to == from {
                continue;
            }
            let q = self.board[to as usize];
            if q != EMPTY && (is_royal(kind_of(q)) || (color_of(q) != us && self.dormant(to))) {
                continue;
            }
            let (f, r) = coords(to);
            if r == last_rank(us) {
                continue; // it would be dormant again and attack nothing
            }
            let victims: Vec<Sq> = [-1, 1]
                .into_iter()
                .filter_map(|dx| sq(f + dx, r + fwd))
                .filter(|&t| {
                    let v = self.board[t as usize];
                    v != EMPTY && color_of(v) != us && !self.dormant(t)
                })
                .collect();
            if victims.is_empty() {
                continue;
            }
            let m = Move {
                from,
                to,
                special: Special::Relocate,
            };
            let mut after = *self;
            after.play(m);
            if after.in_check_of(us) {
                continue;
            }
            let fork = victims.len() >= 2;
            let trapped = || {
                let mut replies = Vec::new();
                after.legal(&mut replies);
                victims
                    .iter()
                    .any(|&v| !replies.iter().any(|m| m.from == v))
            };
            if fork || trapped() {
                out.push(m);
            }
        }
    }

    /// The exchange (once per game): when the shah is the only royal and
    /// attacked, or when nothing else is legal; and the citadel form.
    fn exchanges(&self, out: &mut Vec<Move>) {
        let us = self.side;
        if !self.exchange[us.index()] {
            return;
        }
        let Some(shah) = self
            .royals(us)
            .find(|&s| kind_of(self.board[s as usize]) == SHAH)
        else {
            return;
        };
        if is_citadel(shah) {
            return;
        }
        // "No other legal move": nothing was listed before the exchanges.
        let no_other = out.is_empty();
        // Citadel form: the shah steps into the enemy citadel and a prince or
        // adventitious king on the board takes its place there.
        let enemy = own_citadel(!us);
        if gates(enemy).contains(&shah) && self.board[enemy as usize] == EMPTY {
            for partner in self.royals(us).filter(|&s| !is_citadel(s) && s != shah) {
                out.push(Move {
                    from: shah,
                    to: enemy,
                    special: Special::CitadelExchange(partner),
                });
            }
        }
        let only_royal_attacked = self.single_royal(us) == Some(shah) && self.attacked(shah, !us);
        if !(only_royal_attacked || no_other) {
            return;
        }
        for partner in 0..BOARD_SQUARES {
            let q = self.board[partner as usize];
            if q == EMPTY || color_of(q) != us || is_royal(kind_of(q)) || self.dormant(partner) {
                continue;
            }
            // A pawn may not be put on its last rank.
            if is_pawn(kind_of(q)) && coords(shah).1 == last_rank(us) {
                continue;
            }
            let m = Move {
                from: shah,
                to: partner,
                special: Special::Exchange,
            };
            let mut after = *self;
            after.play(m);
            if !after.attacked(partner, !us) {
                out.push(m);
            }
        }
    }
}
