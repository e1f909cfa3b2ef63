//! Xiangqi on its points: river, palaces, and the traditional characters on
//! red and black discs.

use super::{Draw, Options, Svg, CHECK, HIGHLIGHT, SANS};
use crate::variants::xiangqi::board::{color_of, kind_of};
use crate::variants::xiangqi::{file_of, rank_of, sq, Kind, Sq, Xiangqi};
use crate::variants::{Color, Game, Variant};

const CELL: f64 = 56.0;
const MARGIN: f64 = 48.0;
const CJK: &str = r#"font-family="Noto Serif CJK SC, Noto Sans CJK SC, Source Han Serif, SimSun, Songti SC, serif""#;

/// The traditional characters of each side's pieces, in the order of
/// [`Kind`] (general, advisor, elephant, horse, chariot, cannon, soldier).
const CHARACTERS: [[&str; 7]; 2] = [
    ["帥", "仕", "相", "傌", "俥", "炮", "兵"],
    ["將", "士", "象", "馬", "車", "砲", "卒"],
];

fn character(c: Color, kind: Kind) -> &'static str {
    CHARACTERS[c.index()][kind as usize - 1]
}

impl Draw for Xiangqi {
    fn diagram(game: &Game<Xiangqi>, opts: &Options) -> String {
        let pos = game.current();
        let point = |f: usize, r: usize| -> (f64, f64) {
            let (col, row) = if opts.flip { (8 - f, r) } else { (f, 9 - r) };
            (MARGIN + col as f64 * CELL, MARGIN + row as f64 * CELL)
        };
        let (w, h) = (2.0 * MARGIN + 8.0 * CELL, 2.0 * MARGIN + 9.0 * CELL);
        let mut svg = Svg::new(w, h, &format!("Xiangqi: {}", pos.to_fen()));
        svg.rect(0.0, 0.0, w, h, r##"fill="#e8c98f""##);
        let ink = r##"stroke="#5a3b1a" stroke-width="1.6""##;
        // The frame, the ranks, and the files (broken by the river inside).
        let (x0, y0) = point(0, 0);
        let (x8, y9) = point(8, 9);
        svg.rect(
            x0.min(x8) - 6.0,
            y0.min(y9) - 6.0,
            8.0 * CELL + 12.0,
            9.0 * CELL + 12.0,
            r##"fill="none" stroke="#5a3b1a" stroke-width="3""##,
        );
        for r in 0..10 {
            let (a, y) = point(0, r);
            let (b, _) = point(8, r);
            svg.line(a, y, b, y, ink);
        }
        for f in 0..9 {
            if f == 0 || f == 8 {
                let (x, a) = point(f, 0);
                let (_, b) = point(f, 9);
                svg.line(x, a, x, b, ink);
            } else {
                for (lo, hi) in [(0, 4), (5, 9)] {
                    let (x, a) = point(f, lo);
                    let (_, b) = point(f, hi);
                    svg.line(x, a, x, b, ink);
                }
            }
        }
        // Palaces.
        for (lo, hi) in [(0, 2), (7, 9)] {
            let (a, b) = (point(3, lo), point(5, hi));
            svg.line(a.0, a.1, b.0, b.1, ink);
            let (a, b) = (point(5, lo), point(3, hi));
            svg.line(a.0, a.1, b.0, b.1, ink);
        }
        // The river.
        let (_, y4) = point(0, 4);
        let (_, y5) = point(0, 5);
        let river_y = (y4 + y5) / 2.0;
        let style = format!(r##"{CJK} fill="#5a3b1a""##);
        let (left, right) = if opts.flip {
            ("漢 界", "楚 河")
        } else {
            ("楚 河", "漢 界")
        };
        svg.text(MARGIN + 2.0 * CELL, river_y, 30.0, &style, left);
        svg.text(MARGIN + 6.0 * CELL, river_y, 30.0, &style, right);
        if opts.coordinates {
            let label = format!(r##"{SANS} fill="#5a3b1a""##);
            for f in 0..9 {
                let (x, _) = point(f, 0);
                let name = ((b'a' + f as u8) as char).to_string();
                svg.text(x, h - MARGIN / 2.0 + 6.0, 15.0, &label, &name);
                svg.text(x, MARGIN / 2.0 - 6.0, 15.0, &label, &name);
            }
            for r in 0..10 {
                let (_, y) = point(0, r);
                svg.text(MARGIN / 2.0 - 10.0, y, 15.0, &label, &r.to_string());
                svg.text(w - MARGIN / 2.0 + 10.0, y, 15.0, &label, &r.to_string());
            }
        }
        if opts.highlight {
            if let Some(m) = game.moves().last() {
                for s in [m.from, m.to] {
                    let (x, y) = point(file_of(s), rank_of(s));
                    svg.circle(
                        x,
                        y,
                        27.0,
                        &format!(r#"fill="{HIGHLIGHT}" fill-opacity="0.85""#),
                    );
                }
            }
            if pos.in_check() {
                let g: Sq = pos.general(pos.side_to_move());
                let (x, y) = point(file_of(g), rank_of(g));
                svg.circle(x, y, 28.0, &format!(r#"fill="{CHECK}" fill-opacity="0.9""#));
            }
        }
        for f in 0..9 {
            for r in 0..10 {
                let p = pos.piece_at(sq(f, r));
                let Some(kind) = kind_of(p) else { continue };
                let c = color_of(p);
                let (x, y) = point(f, r);
                let colour = if c == Color::White {
                    "#c0392b"
                } else {
                    "#1d1d1d"
                };
                svg.circle(
                    x,
                    y,
                    24.0,
                    &format!(r##"fill="#fbf1dc" stroke="{colour}" stroke-width="2.5""##),
                );
                svg.circle(
                    x,
                    y,
                    19.5,
                    &format!(r#"fill="none" stroke="{colour}" stroke-width="1""#),
                );
                svg.text(
                    x,
                    y + 1.0,
                    25.0,
                    &format!(r#"{CJK} font-weight="bold" fill="{colour}""#),
                    character(c, kind),
                );
            }
        }
        svg.finish()
    }
}
