//! Tamerlane chess: the 11x10 board with both citadels beside it (l2 to the
//! right of k2, z9 to the left of a9), every man a disc with a letter, pawns
//! smaller and marked with the letter of the piece they become, and a legend
//! under the board.

use super::{Draw, Options, Svg, CHECK, HIGHLIGHT, SANS};
use crate::variants::tamerlane::board::*;
use crate::variants::tamerlane::{Tamerlane, L2, Z9};
use crate::variants::{Color, Game, Variant};

const CELL: f64 = 52.0;
const MARGIN: f64 = 34.0;
const LEGEND: f64 = 104.0;

/// The label of a piece kind (not a pawn).
fn letter(kind: u8) -> char {
    PIECE_LETTERS[kind as usize]
}

const NAMES: [(char, &str); 12] = [
    ('K', "shah"),
    ('S', "prince"),
    ('A', "adventitious king"),
    ('F', "ferz"),
    ('W', "wazir"),
    ('G', "giraffe"),
    ('T', "talia"),
    ('N', "faras"),
    ('R', "rukh"),
    ('E', "pil"),
    ('C', "jamal"),
    ('D', "dabbaba"),
];

impl Draw for Tamerlane {
    fn diagram(game: &Game<Tamerlane>, opts: &Options) -> String {
        let pos = game.current();
        // Columns -1..=11 (the citadels stand in columns -1 and 11).
        let corner = |s: Sq| -> (f64, f64) {
            let (f, r) = coords(s);
            let (col, row) = if opts.flip { (10 - f, r) } else { (f, 9 - r) };
            (MARGIN + (col + 1) as f64 * CELL, MARGIN + row as f64 * CELL)
        };
        let (w, h) = (
            2.0 * MARGIN + 13.0 * CELL,
            2.0 * MARGIN + 10.0 * CELL + LEGEND,
        );
        let mut svg = Svg::new(w, h, &format!("Tamerlane chess: {}", pos.to_fen()));
        svg.rect(0.0, 0.0, w, h, r##"fill="#f7f3ea""##);
        let last = game.moves().last().copied();
        let squares = (0..BOARD_SQUARES).chain([L2, Z9]);
        for s in squares.clone() {
            let (x, y) = corner(s);
            let citadel = s == L2 || s == Z9;
            let fill = if citadel { "#c9b79c" } else { "#efe2c4" };
            let stroke = if citadel {
                r##"stroke="#6b4f2a" stroke-width="3""##
            } else {
                r##"stroke="#8a7350" stroke-width="1""##
            };
            svg.rect(x, y, CELL, CELL, &format!(r#"fill="{fill}" {stroke}"#));
            if citadel {
                // Battlements on top of the citadel square.
                for i in 0..3 {
                    svg.rect(
                        x + 6.0 + i as f64 * 16.0,
                        y + 3.0,
                        8.0,
                        6.0,
                        r##"fill="#6b4f2a""##,
                    );
                }
            }
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
        let label = format!(r##"{SANS} fill="#555555""##);
        for (s, text) in [(L2, "l2 citadel"), (Z9, "z9 citadel")] {
            let (x, y) = corner(s);
            svg.text(x + CELL / 2.0, y + CELL + 9.0, 10.0, &label, text);
        }
        if opts.coordinates {
            for f in 0..11 {
                let (x, _) = corner(f as Sq);
                let name = ((b'a' + f as u8) as char).to_string();
                svg.text(
                    x + CELL / 2.0,
                    MARGIN + 10.0 * CELL + 13.0,
                    13.0,
                    &label,
                    &name,
                );
                svg.text(x + CELL / 2.0, MARGIN - 13.0, 13.0, &label, &name);
            }
            for r in 0..10 {
                let (_, y) = corner((r * 11) as Sq);
                let text = (r + 1).to_string();
                svg.text(MARGIN / 2.0, y + CELL / 2.0, 13.0, &label, &text);
                svg.text(w - MARGIN / 2.0, y + CELL / 2.0, 13.0, &label, &text);
            }
        }
        if opts.highlight && pos.in_check() {
            if let Some(royal) = pos.single_royal(pos.side_to_move()) {
                let (x, y) = corner(royal);
                svg.circle(
                    x + CELL / 2.0,
                    y + CELL / 2.0,
                    CELL / 2.0 - 1.0,
                    &format!(r#"fill="{CHECK}" fill-opacity="0.85""#),
                );
            }
        }
        for s in squares {
            let p = pos.at(s);
            if p == EMPTY {
                continue;
            }
            let (x, y) = corner(s);
            let (cx, cy) = (x + CELL / 2.0, y + CELL / 2.0);
            let kind = kind_of(p);
            let (fill, ink) = if color_of(p) == Color::White {
                ("#fdfaf2", "#1b1b1b")
            } else {
                ("#2b2b2b", "#f5f0e6")
            };
            let disc =
                format!(r##"class="man" fill="{fill}" stroke="#1b1b1b" stroke-width="1.8""##);
            let text_style = format!(r#"{SANS} font-weight="bold" fill="{ink}""#);
            if is_pawn(kind) {
                svg.circle(cx, cy, 15.0, &disc);
                let t = PAWN_TYPES[(kind - PAWN) as usize];
                let text = if kind == PAWN_OF_PAWNS {
                    "pp".to_owned()
                } else {
                    format!("p{t}")
                };
                svg.text(cx, cy, 13.0, &text_style, &text);
            } else {
                svg.circle(cx, cy, 21.0, &disc);
                if is_royal(kind) {
                    svg.circle(
                        cx,
                        cy,
                        17.5,
                        &format!(r#"fill="none" stroke="{ink}" stroke-width="1""#),
                    );
                }
                svg.text(cx, cy + 1.0, 22.0, &text_style, &letter(kind).to_string());
            }
        }
        // The legend.
        let legend_y = MARGIN + 10.0 * CELL + 34.0;
        let style = format!(r##"{SANS} fill="#222222""##);
        let (first, second) = NAMES.split_at(6);
        for (row, names) in [first, second].into_iter().enumerate() {
            let text = names
                .iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join("   ");
            svg.text_left(MARGIN, legend_y + row as f64 * 20.0, 14.0, &style, &text);
        }
        for (i, text) in [
            "small discs are pawns: pX becomes X (pK becomes the prince), pp is the pawn of pawns",
            "ringed discs are royal; the citadels stand beside a9 (z9, Black's) and k2 (l2, White's)",
        ]
        .into_iter()
        .enumerate()
        {
            svg.text_left(MARGIN, legend_y + 40.0 + 20.0 * i as f64, 14.0, &style, text);
        }
        svg.finish()
    }
}
