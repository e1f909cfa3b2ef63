//! Taxi chess: a chess board with the Unicode chess symbols and both balances
//! (with the income) beside the players' edges.

use super::{Draw, Options, Svg, CHECK, HIGHLIGHT, SANS};
use crate::variants::taxi::{Kind, Taxi};
use crate::variants::{Color, Game, Variant};

const CELL: f64 = 60.0;
const MARGIN: f64 = 30.0;
const BAND: f64 = 40.0;
const SYMBOLS: &str = r#"font-family="DejaVu Sans, Noto Sans Symbols 2, Segoe UI Symbol, Arial Unicode MS, sans-serif""#;

fn symbol(kind: Kind) -> &'static str {
    // The solid shapes for both colours; the fill tells them apart.
    match kind {
        Kind::King => "♚",
        Kind::Queen => "♛",
        Kind::Rook => "♜",
        Kind::Bishop => "♝",
        Kind::Knight => "♞",
        Kind::Pawn => "♟",
    }
}

impl Draw for Taxi {
    fn diagram(game: &Game<Taxi>, opts: &Options) -> String {
        let pos = game.current();
        let top = MARGIN + BAND;
        let corner = |s: u8| -> (f64, f64) {
            let (f, r) = ((s & 7) as f64, (s >> 3) as f64);
            let (col, row) = if opts.flip {
                (7.0 - f, r)
            } else {
                (f, 7.0 - r)
            };
            (MARGIN + col * CELL, top + row * CELL)
        };
        let (w, h) = (
            2.0 * MARGIN + 8.0 * CELL,
            2.0 * (MARGIN + BAND) + 8.0 * CELL,
        );
        let mut svg = Svg::new(w, h, &format!("Taxi chess: {}", pos.to_fen()));
        svg.rect(0.0, 0.0, w, h, r##"fill="#f7f3ea""##);
        let last = game.moves().last().copied();
        for s in 0..64u8 {
            let (x, y) = corner(s);
            let dark = ((s & 7) + (s >> 3)) % 2 == 0;
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            svg.rect(x, y, CELL, CELL, &format!(r#"fill="{fill}""#));
            if opts.highlight && last.is_some_and(|m| m.from == s || m.to == s) {
                svg.rect(
                    x,
                    y,
                    CELL,
                    CELL,
                    &format!(r#"fill="{HIGHLIGHT}" fill-opacity="0.75""#),
                );
            }
        }
        if opts.highlight && pos.in_check() {
            let (x, y) = corner(pos.king(pos.side_to_move()));
            svg.circle(
                x + CELL / 2.0,
                y + CELL / 2.0,
                CELL / 2.0 - 2.0,
                &format!(r#"fill="{CHECK}" fill-opacity="0.85""#),
            );
        }
        for s in 0..64u8 {
            let Some((c, kind)) = pos.piece_at(s) else {
                continue;
            };
            let (x, y) = corner(s);
            let style = if c == Color::White {
                format!(r##"{SYMBOLS} fill="#ffffff" stroke="#111111" stroke-width="1.4""##)
            } else {
                format!(r##"{SYMBOLS} fill="#111111" stroke="#111111" stroke-width="0.6""##)
            };
            svg.text(
                x + CELL / 2.0,
                y + CELL / 2.0 + 2.0,
                46.0,
                &style,
                symbol(kind),
            );
        }
        if opts.coordinates {
            let label = format!(r##"{SANS} fill="#555555""##);
            for i in 0..8u8 {
                let (x, _) = corner(i);
                svg.text(
                    x + CELL / 2.0,
                    top + 8.0 * CELL + 12.0,
                    13.0,
                    &label,
                    &((b'a' + i) as char).to_string(),
                );
                let (_, y) = corner(i * 8);
                svg.text(
                    MARGIN / 2.0,
                    y + CELL / 2.0,
                    13.0,
                    &label,
                    &(i + 1).to_string(),
                );
            }
        }
        // Balances: each side's at its own edge.
        let [white, black] = pos.balances();
        let income = pos.income();
        let to_move = pos.side_to_move();
        let line = |c: Color, balance: u32| {
            let name = if c == Color::White { "White" } else { "Black" };
            let arrow = if c == to_move { " ◀ to move" } else { "" };
            format!("{name}: {balance} (income +{income} a turn){arrow}")
        };
        let style = format!(r##"{SANS} font-weight="bold" fill="#222222""##);
        let (bottom, upper) = if opts.flip {
            ((Color::Black, black), (Color::White, white))
        } else {
            ((Color::White, white), (Color::Black, black))
        };
        svg.text_left(
            MARGIN,
            MARGIN + BAND / 2.0 - 6.0,
            18.0,
            &style,
            &line(upper.0, upper.1),
        );
        svg.text_left(
            MARGIN,
            top + 8.0 * CELL + BAND / 2.0 + 14.0,
            18.0,
            &style,
            &line(bottom.0, bottom.1),
        );
        svg.finish()
    }
}
