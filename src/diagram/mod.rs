//! Pictures: a self-contained SVG of any position (no external fonts, images
//! or scripts), one renderer per variant behind [`Draw`].
//!
//! Text uses generic font families with well-known fallbacks, so a viewer
//! needs nothing but its own fonts: Xiangqi pieces are the traditional
//! characters, chess pieces the Unicode chess symbols, Tamerlane pieces
//! letters explained in a legend drawn under the board.

pub mod graph;
mod tamerlane;
mod taxi;
mod xiangqi;

use std::fmt::Write;

use crate::variants::{Game, Variant};

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The second player at the bottom.
    pub flip: bool,
    /// File and rank labels around the board.
    pub coordinates: bool,
    /// Mark the last move and a royal piece in check.
    pub highlight: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            flip: false,
            coordinates: true,
            highlight: true,
        }
    }
}

/// A variant that can draw its positions.
pub trait Draw: Variant {
    /// The SVG of the game's current position; the last move (if any) and a
    /// check are marked when `opts.highlight`.
    fn diagram(game: &Game<Self>, opts: &Options) -> String;
}

/// A small SVG writer.
pub(crate) struct Svg {
    out: String,
}

pub(crate) const HIGHLIGHT: &str = "#f6d55c";
pub(crate) const CHECK: &str = "#e03131";

impl Svg {
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img"><title>{}</title>"#,
            escape(title)
        );
        Svg { out }
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, style: &str) {
        let _ = write!(
            self.out,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" {style}/>"#
        );
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, style: &str) {
        let _ = write!(
            self.out,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#
        );
    }

    pub fn circle(&mut self, x: f64, y: f64, r: f64, style: &str) {
        let _ = write!(
            self.out,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" {style}/>"#
        );
    }

    /// Text centred on (x, y).
    pub fn text(&mut self, x: f64, y: f64, size: f64, style: &str, text: &str) {
        let _ = write!(
            self.out,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="middle" dominant-baseline="central" {style}>{}</text>"#,
            escape(text)
        );
    }

    /// Text starting at (x, y).
    pub fn text_left(&mut self, x: f64, y: f64, size: f64, style: &str, text: &str) {
        let _ = write!(
            self.out,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" dominant-baseline="central" {style}>{}</text>"#,
            escape(text)
        );
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// A sans-serif stack that every desktop and Debian's Chromium can show.
pub(crate) const SANS: &str =
    r#"font-family="DejaVu Sans, Noto Sans, Segoe UI, Helvetica, Arial, sans-serif""#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{tamerlane, taxi, xiangqi};

    fn game<V: Variant>(fen: Option<&str>, moves: &[&str]) -> Game<V> {
        let mut g = Game::from_fen(fen, V::Rules::default()).unwrap();
        g.play_all(moves, V::Notation::default()).unwrap();
        g
    }

    /// The SVG is well formed enough for a browser: one root, balanced tags,
    /// nothing fetched from elsewhere.
    fn assert_self_contained(svg: &str) {
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<svg").count(), 1);
        for forbidden in ["href", "url(", "@import", "<script", "<image", "@font-face"] {
            assert!(!svg.contains(forbidden), "{forbidden} in the SVG");
        }
        let opens = svg.matches("<text").count();
        assert_eq!(opens, svg.matches("</text>").count());
    }

    #[test]
    fn xiangqi_shows_every_piece_with_its_character() {
        let g = game::<xiangqi::Xiangqi>(None, &["h2e2"]);
        let svg = xiangqi::Xiangqi::diagram(&g, &Options::default());
        assert_self_contained(&svg);
        // 32 pieces: red 帥仕相傌俥炮兵, black 將士象馬車砲卒.
        for (ch, n) in [
            ("帥", 1),
            ("仕", 2),
            ("相", 2),
            ("傌", 2),
            ("俥", 2),
            ("炮", 2),
            ("兵", 5),
            ("將", 1),
            ("士", 2),
            ("象", 2),
            ("馬", 2),
            ("車", 2),
            ("砲", 2),
            ("卒", 5),
        ] {
            assert_eq!(svg.matches(&format!(">{ch}<")).count(), n, "{ch}");
        }
        assert!(svg.contains("楚") && svg.contains("界"), "the river");
        // The last move is marked on its two points.
        assert_eq!(svg.matches(HIGHLIGHT).count(), 2);
        let plain = xiangqi::Xiangqi::diagram(
            &g,
            &Options {
                highlight: false,
                ..Options::default()
            },
        );
        assert!(!plain.contains(HIGHLIGHT));
    }

    #[test]
    fn a_check_is_marked_and_flip_turns_the_board() {
        let g = game::<xiangqi::Xiangqi>(Some("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"), &[]);
        let svg = xiangqi::Xiangqi::diagram(&g, &Options::default());
        assert!(svg.contains(CHECK));
        let flipped = xiangqi::Xiangqi::diagram(
            &g,
            &Options {
                flip: true,
                ..Options::default()
            },
        );
        assert_ne!(svg, flipped);
        assert_eq!(
            svg.matches("<circle").count(),
            flipped.matches("<circle").count()
        );
        let bare = xiangqi::Xiangqi::diagram(
            &g,
            &Options {
                coordinates: false,
                ..Options::default()
            },
        );
        assert!(svg.contains(">a<") && !bare.contains(">a<"));
    }

    #[test]
    fn taxi_shows_pieces_and_both_balances() {
        let g = game::<taxi::Taxi>(None, &["e2e4"]);
        let svg = taxi::Taxi::diagram(&g, &Options::default());
        assert_self_contained(&svg);
        assert_eq!(svg.matches(">♟<").count(), 16, "eight pawns a side");
        assert_eq!(svg.matches(">♚<").count(), 2);
        // e2e4 cost 2, paid out of 16 + 2 income.
        assert!(svg.contains("White: 16 (income +2 a turn)"));
        assert!(svg.contains("Black: 16 (income +2 a turn) ◀ to move"));
        assert_eq!(svg.matches(HIGHLIGHT).count(), 2);
    }

    #[test]
    fn tamerlane_draws_citadels_and_labels_every_kind() {
        let g = game::<tamerlane::Tamerlane>(None, &[]);
        let svg = tamerlane::Tamerlane::diagram(&g, &Options::default());
        assert_self_contained(&svg);
        assert!(svg.contains("citadel"));
        // 56 men in the start position, each a disc with a label.
        assert_eq!(svg.matches("class=\"man\"").count(), 56);
        let kinds = "shah, ferz, wazir, giraffe, talia, faras, rukh, pil, jamal, dabbaba, prince, \
                     adventitious king, pawn";
        for name in kinds.split(", ") {
            assert!(svg.contains(name), "{name} in the legend");
        }
        // A royal in a citadel is drawn there.
        let g = game::<tamerlane::Tamerlane>(
            Some("11/K10/11/11/11/11/11/11/11/10k w -/- - 0/0 0 1"),
            &["a9z9"],
        );
        let svg = tamerlane::Tamerlane::diagram(&g, &Options::default());
        assert_eq!(svg.matches("class=\"man\"").count(), 2);
    }
}
