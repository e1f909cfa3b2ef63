//! Captures played out as exchanges: whether a capture comes out ahead
//! once every recapture that bears on it is played, and the captures by
//! which a side wins material.

use super::*;

impl Probe {
    /// The material `chaser` nets from here (whoever is to move) in the
    /// exchange that follows its capture: the opponent answers by taking
    /// back on a point of the exchange (`points`), or along a line the
    /// chaser's capturing piece opened by leaving its point (a pinned
    /// piece that captures loses what stood behind it, 图23); the chaser
    /// takes back on a point the opponent took on; either may stop unless in
    /// check; a side in check must answer it, and being mated is the worst.
    /// `opened`: the point the chaser's first capture left; `checks`: the
    /// checks that take nothing the opponent may still answer with;
    /// `window`: which values matter (alpha-beta: exact, and fast).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn exchange_with(
        &mut self,
        pos: &Position,
        chaser: Color,
        points: &[Sq],
        opened: Sq,
        plies: u32,
        checks: u32,
        window: Window,
    ) -> i32 {
        let Window {
            mut alpha,
            mut beta,
        } = window;
        let us = pos.side();
        let ours = us == chaser;
        let mut moves = Vec::new();
        let in_check = pos.general_attacked(us);
        if in_check {
            pos.legal(&mut moves);
            if moves.is_empty() {
                return if ours { -MATED } else { MATED };
            }
        } else if ours {
            pos.legal_captures(&mut moves);
            // The chaser takes back on the exchange's points, along a line
            // its first capture opened (参考图1: the horse's leg freed), or a
            // piece the exchange stripped of its defenders — taken by
            // another piece than a general or soldier: after an even
            // exchange, their capture is their own (参考图32, 参考图33).
            moves.retain(|m| {
                !self.standoffs.contains(&(m.from, m.to))
                    && (points.contains(&m.to)
                        || through(m.from, m.to, opened)
                        || (!general_or_soldier(pos, m.from) && self.stripped(pos, m.to, !chaser)))
            });
        } else {
            // Only a capture or a move that might check can pass.
            if checks > 0 {
                let might_check = check_points(pos.general(chaser));
                pos.legal_touching(might_check | pos.by_color[chaser.index()], &mut moves);
            } else {
                pos.legal_captures(&mut moves);
            }
            moves.retain(|&m| {
                let capture = pos.piece_at(m.to) != EMPTY;
                (capture
                    && Some(m.to) != self.immune
                    && self.bears_on(pos, m, points, opened, chaser))
                    || (checks > 0 && pos.gives_check(m))
            });
        }
        if plies == 0 || self.spent() {
            return 0;
        }
        // The biggest captures first: they settle the question soonest.
        moves.sort_by_key(|m| -worth(pos, m.to, chaser));
        // Not in check, a side may stop here.
        let mut best = if in_check {
            if ours {
                -INFINITE
            } else {
                INFINITE
            }
        } else {
            0
        };
        if !in_check {
            if ours {
                if best >= beta {
                    return best;
                }
                alpha = alpha.max(best);
            } else {
                if best <= alpha {
                    return best;
                }
                beta = beta.min(best);
            }
        }
        for m in moves {
            // Each side taking a piece: an answer to a check that takes off
            // the exchange's points takes a piece of its own (图28).
            // After the capture of a piece that cannot be taken back (无根子),
            // a capture with check elsewhere is a check that takes nothing
            // (参考图21: 车4退1 attacks the horse, and the rook that takes
            // the cannon the chariot left with check does not save it:
            // 捉; where the victim is guarded, the whole exchange counts,
            // 参考图31: "炮五进四打象" answers the cannon's capture).
            let off_point_check = self.unguarded
                && !ours
                && !in_check
                && pos.piece_at(m.to) != EMPTY
                && !self.bears_on(pos, m, points, opened, chaser);
            let taken = if off_point_check
                || (self.on_points && in_check && !ours && !points.contains(&m.to))
            {
                0
            } else {
                worth(pos, m.to, chaser)
            };
            let capture = pos.piece_at(m.to) != EMPTY;
            let mut next = pos.clone();
            next.make(m);
            let mut here = points.to_vec();
            if capture && !here.contains(&m.to) {
                here.push(m.to);
            }
            let left = if !ours && !capture {
                checks.saturating_sub(1)
            } else {
                checks
            };
            let delta = if ours { taken } else { -taken };
            let inner = Window {
                alpha: alpha - delta,
                beta: beta - delta,
            };
            let score =
                delta + self.exchange_with(&next, chaser, &here, opened, plies - 1, left, inner);
            if ours {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// What `chaser` nets in the exchange that follows its capture `c`
    /// (played: `after`), with the probe's counter-checks; only whether it
    /// lies above `above` matters.
    pub(super) fn played_out(
        &mut self,
        after: &Position,
        chaser: Color,
        c: Move,
        above: i32,
    ) -> i32 {
        self.exchange_with(
            after,
            chaser,
            &[c.to],
            c.from,
            EXCHANGE_PLIES,
            self.counter_checks,
            Window::above(above),
        )
    }

    /// Whether the opponent's capture `m` bears on the exchange: it takes
    /// back on one of its points, along the line the chaser's first capture
    /// opened (not when only the points count), a piece already threatened,
    /// or (before the move) a piece the exchange stripped of its defenders.
    fn bears_on(&self, pos: &Position, m: Move, points: &[Sq], opened: Sq, chaser: Color) -> bool {
        points.contains(&m.to)
            || (!self.on_points && through(m.from, m.to, opened))
            || self.hanging.contains(&m.to)
            || (self.threatened && self.stripped(pos, m.to, chaser))
    }

    /// Whether the piece of `side` on `s` was defended where the chase is
    /// weighed and the exchange has stripped it of its defenders.
    fn stripped(&self, pos: &Position, s: Sq, side: Color) -> bool {
        self.root.as_ref().is_some_and(|r| {
            r.piece_at(s) == pos.piece_at(s)
                && !r.attackers(s, side).is_empty()
                && pos.attackers(s, side).is_empty()
        })
    }

    /// The captures by which the side to move wins material: each comes out
    /// ahead once every recapture is played out and does not let the
    /// opponent mate at once or leave its mate threat standing. In the
    /// position a move left (`offers`), two pieces of one kind that can take
    /// each other offer an exchange (兑): the opponent, to move, takes first
    /// or not, so neither wins the other; at the end of checks the chaser is
    /// really to move, and takes.
    pub(super) fn captures_won(&mut self, pos: &Position, offers: bool) -> Vec<Win> {
        let asked = Asked {
            key: pos.hash(),
            offers,
            standoffs: self.standoffs.clone(),
            hanging: self.hanging.clone(),
            root: self.root.as_ref().map(Position::hash),
            threatened: self.threatened,
            on_points: self.on_points,
            counter_checks: self.counter_checks,
            moved: self.moved,
            mate_standing: self.mate_standing,
            immune: self.immune,
            unguarded: self.unguarded,
        };
        // The root is compared by its key: it is the position of the
        // question, itself compared in full where the question began.
        if let Some(wins) = recall(&self.memory.captures, &asked, pos) {
            return wins;
        }
        let wins = self.captures_won_now(pos, offers);
        // An answer cut short by the budget is not kept.
        if self.nodes <= BUDGET {
            self.memory
                .captures
                .insert(asked, (pos.clone(), wins.clone()));
        }
        wins
    }

    /// [`Probe::captures_won`], worked out.
    fn captures_won_now(&mut self, pos: &Position, offers: bool) -> Vec<Win> {
        let chaser = pos.side();
        let mut captures = Vec::new();
        pos.legal_captures(&mut captures);
        let mut wins = Vec::new();
        for c in captures {
            let taken = worth(pos, c.to, chaser);
            if taken == 0 || self.spent() {
                continue;
            }
            if offers && self.standoffs.contains(&(c.from, c.to)) {
                continue;
            }
            let mut after = pos.clone();
            after.make(c);
            // A capture that leaves a standing mate threat unparried is no
            // win (参考图35: the chariot that parries the horse's mate lets
            // the cannon's attack on the chariot become a chase, "车4平6解杀
            // 后形成炮捉车"); where the opponent's counter-checks are
            // ignored, a mate by up to three checks (图8: the chariot that
            // takes the soldier before the general steps back is mated,
            // "黑方退将后方可吃红兵，否则会被红方将死": the step back makes the
            // chase); else only a mate at once refutes it.
            let refuted = if self.mate_standing {
                self.mates(&after)
            } else if self.counter_checks == 0 {
                self.mates_by_checks(&after, PLAIN_MATE_CHECKS)
            } else {
                self.mates_in_one(&after)
            };
            if refuted {
                continue;
            }
            // The opponent's captures in answer (to the unguarded question
            // here, and to the single-or-joint question below).
            let mut replies = Vec::new();
            after.legal_captures(&mut replies);
            self.unguarded = !replies.iter().any(|r| r.to == c.to);
            // Only whether the capture comes out ahead matters.
            let rest = self.played_out(&after, chaser, c, -taken);
            // Even, with the opponent's part taken along the line the
            // capture opened (各吃各子, each side taking a piece): "价值相当
            // …按捉" (26.5; 参考图27: the cannon takes the chariot and the
            // rank it leaves gives up the other chariot). A losing one is
            // none (被牵子捉子, 图23).
            let even_elsewhere = taken + rest == 0 && {
                self.on_points = true;
                let on_points = self.played_out(&after, chaser, c, -taken);
                self.on_points = false;
                taken + on_points > 0
            };
            self.unguarded = false;
            if taken + rest <= 0 && !even_elsewhere {
                continue;
            }
            // Single: ahead even when the chaser takes nothing more,
            // against the answers that bear on the capture (taking back on
            // its point, along the line it opened, or a piece already
            // threatened); what the opponent could take elsewhere does not
            // make it joint (参考图7, 参考图13, 图27).
            // (Only the opponent's captures can take anything: its moves
            // that take nothing, in check or not, are worth nothing here.)
            let answer = replies
                .iter()
                .filter(|r| {
                    r.to == c.to || through(r.from, r.to, c.from) || self.hanging.contains(&r.to)
                })
                .map(|r| worth(&after, r.to, chaser))
                .max()
                .unwrap_or(0);
            // A capture with check that does not come out ahead by itself
            // is a check that ends in a capture: what it chases is what the
            // answers leave (图26: the cannon that would take the elephant
            // with check, 炮5进2, opens the rank to the other cannon:
            // "黑方长捉车").
            if taken - answer <= 0 && after.general_attacked(after.side()) {
                continue;
            }
            // A cannon whose screen, a piece of its own side, is the piece
            // just moved and could take the victim too chases with it
            // (车炮联合捉车, 参考图38); not a screen whose capture would let
            // the opponent mate (图25). Nor alone when its screen, which
            // cannot take the victim but the victim could take, is guarded
            // by the piece just moved (参考图39: 车三退一 steps out of the
            // horse's attack and guards the horse that screens the cannon
            // from the chariot, "车马炮联合捉车").
            let own_screen = kind_of(pos.piece_at(c.from)) == Some(Kind::Cannon)
                && screen_of(pos, c.from, c.to).is_some_and(|x| {
                    let by_screen = Move::new(x, c.to);
                    color_of(pos.piece_at(x)) == chaser
                        && self.moved.is_some_and(|moved| {
                            if x == moved {
                                pos.is_legal(by_screen) && {
                                    let mut taken = pos.clone();
                                    taken.make(by_screen);
                                    !self.mates_in_one(&taken)
                                }
                            } else {
                                !pos.is_legal(by_screen)
                                    && pos.attackers(x, !chaser).contains(&c.to)
                                    && pos.attackers(x, chaser).contains(&moved)
                            }
                        })
                });
            // A defender that cannot take back, pinned by another of the
            // chaser's pieces: the pinning piece chases too (图11: the
            // cannon pins the elephant that guards the chariot's victim,
            // "车炮联合捉子").
            let pinned = after.attackers(c.to, !chaser).iter().any(|&d| {
                kind_of(after.piece_at(d)) != Some(Kind::General)
                    && !after.is_legal(Move::new(d, c.to))
            });
            wins.push(Win {
                victim: c.to,
                capturer: c.from,
                joint: own_screen || pinned || taken - answer <= 0,
                alone: taken - answer > 0,
            });
        }
        wins
    }

    /// Whether the side to move can make the capture `c` safely: the
    /// exchange that follows leaves it no worse off, and the opponent
    /// cannot then mate by checks (an offer of exchange that can be taken
    /// up).
    pub(in crate::variants::xiangqi::repetition::chinese) fn takes_safely(
        &mut self,
        pos: &Position,
        c: Move,
    ) -> bool {
        let taker = pos.side();
        let taken = worth(pos, c.to, taker);
        let mut after = pos.clone();
        after.make(c);
        if self.threatens_mate(&after) {
            return false;
        }
        // Weighed in `pos` alone: no standing threats or offers of another
        // question.
        self.nodes = 0;
        self.standoffs.clear();
        self.hanging.clear();
        self.threatened = false;
        self.root = Some(pos.clone());
        let rest = self.played_out(&after, taker, c, -taken - 1);
        taken + rest >= 0
    }

    /// The pieces the piece on `from` wins by a capture that every
    /// recapture on its point loses to checks (吃子后将军得子): the
    /// recapturing piece is mated by checks, or its step off its post lets
    /// the chaser's checks win more than the exchange gave (参考图34: 炮9退2
    /// attacks the elephant; the general that takes back is mated by
    /// 车4平5, and the elephant that takes back opens the bottom rank to
    /// the chariot's checks: "红方如吃炮，黑方将军得车", 联合捉子). The
    /// side to move in `pos` chases; the captures it asks of are those
    /// that the opponent can take back.
    pub(in crate::variants::xiangqi::repetition::chinese) fn wins_through_recapture(
        &mut self,
        pos: &Position,
        from: Sq,
    ) -> Vec<Sq> {
        self.nodes = 0;
        let chaser = pos.side();
        let mut captures = Vec::new();
        pos.legal_captures(&mut captures);
        if !captures.iter().any(|c| c.from == from) {
            return Vec::new();
        }
        // Not a piece offered in exchange, nor the piece offered to it
        // (图21: 车四退二 backs the horse that offers itself, "兑").
        let offers = self.offers(pos, captures.clone());
        self.nodes = 0;
        let mut won = Vec::new();
        for c in captures.into_iter().filter(|c| c.from == from) {
            let taken = worth(pos, c.to, chaser);
            if taken == 0 || self.spent() {
                continue;
            }
            if offers.iter().any(|o| o.0 == c.from || o.1 == c.to) {
                continue;
            }
            let mut after = pos.clone();
            after.make(c);
            if self.mates_in_one(&after) {
                continue;
            }
            let mut replies = Vec::new();
            after.legal_captures(&mut replies);
            replies.retain(|r| r.to == c.to);
            if replies.is_empty() {
                continue;
            }
            let balance = taken - worth(&after, c.to, chaser);
            let refuted = replies.iter().all(|&r| {
                let mut next = after.clone();
                next.make(r);
                if self.mates_by_checks(&next, PLAIN_MATE_CHECKS) {
                    return true;
                }
                let mut by_checks = Vec::new();
                self.wins_by_checks(&next, chaser, WIN_CHECKS, balance, &mut by_checks);
                !by_checks.is_empty()
            });
            if refuted {
                won.push(c.to);
            }
        }
        won
    }
}
