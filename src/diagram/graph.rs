//! The evaluation graph of a reviewed game: the first mover's expected
//! score (win + draw / 2) after each ply, as a self-contained SVG with its
//! title, the sides named along the left, move numbers along the bottom,
//! the marked moves as dots (each dot's tooltip names the move and its
//! class) and a legend of the marks.

use std::fmt::Write;

use super::{escape, SANS};

/// How a ply is marked on the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// No mark.
    None,
    /// An inaccuracy.
    Inaccuracy,
    /// A mistake.
    Mistake,
    /// A blunder or a missed win.
    Blunder,
}

impl Mark {
    /// The dot's colour (Okabe and Ito's palette, readable to the colour
    /// blind), `None` for an unmarked ply.
    fn colour(self) -> Option<&'static str> {
        match self {
            Mark::None => None,
            Mark::Inaccuracy => Some("#56b4e9"),
            Mark::Mistake => Some("#e69f00"),
            Mark::Blunder => Some("#d55e00"),
        }
    }
}

/// One ply on the graph.
#[derive(Clone, Debug)]
pub struct GraphPly {
    /// The move's number (the first mover's and the reply share one).
    pub number: u32,
    /// Whether the first mover played it.
    pub first_mover: bool,
    /// The move as written, e.g. `h2e2`.
    pub text: String,
    /// Its mark.
    pub mark: Mark,
    /// Its class in words, for the tooltip (e.g. `blunder`).
    pub class: String,
}

/// What the graph shows.
#[derive(Clone, Debug)]
pub struct Graph<'a> {
    /// The title, shown above the plot (and given to screen readers).
    pub title: &'a str,
    /// The sides' names, first mover first (`Red`, `Black`).
    pub sides: [&'a str; 2],
    /// `points[0]` is the start, `points[k]` the first mover's expected
    /// score (0 to 1) after ply `k`.
    pub points: &'a [f64],
    /// One per ply: `plies[k - 1]` is ply `k`.
    pub plies: &'a [GraphPly],
    /// The words of the legend's marks, in the order inaccuracy, mistake,
    /// blunder (a missed win is marked as a blunder).
    pub legend: [&'a str; 3],
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 72.0;
const TEXT: &str = "#222222";

/// The graph as SVG.
pub fn evaluation_graph(g: &Graph) -> String {
    let points = g.points;
    let n = points.len().saturating_sub(1).max(1) as f64;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |i: usize| LEFT + plot_w * i as f64 / n;
    let y = |e: f64| TOP + plot_h * (1.0 - e.clamp(0.0, 1.0));
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="title"><title id="title">{title}</title><rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/><text x="{cx}" y="24" text-anchor="middle" font-size="16" font-weight="bold" {SANS} fill="{TEXT}">{title}</text>"##,
        title = escape(g.title),
        cx = WIDTH / 2.0,
    );
    // The plot: the second mover's ground, the first mover's area under
    // the curve, the even line.
    let mut area = format!("M{:.1},{:.1}", x(0), y(0.0));
    for (i, &e) in points.iter().enumerate() {
        let _ = write!(area, " L{:.1},{:.1}", x(i), y(e));
    }
    let _ = write!(
        area,
        " L{:.1},{:.1} Z",
        x(points.len().saturating_sub(1)),
        y(0.0)
    );
    let _ = write!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w:.1}" height="{plot_h:.1}" fill="#3a3a3a"/><path d="{area}" fill="#f2f2f2"/><line x1="{LEFT}" y1="{mid:.1}" x2="{right:.1}" y2="{mid:.1}" stroke="#999999" stroke-dasharray="4 3"/><rect x="{LEFT}" y="{TOP}" width="{plot_w:.1}" height="{plot_h:.1}" fill="none" stroke="{TEXT}"/>"##,
        mid = y(0.5),
        right = WIDTH - RIGHT,
    );
    // The left axis: who is winning where.
    for (e, label) in [
        (1.0, g.sides[0].to_owned()),
        (0.5, "=".to_owned()),
        (0.0, g.sides[1].to_owned()),
    ] {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end" dominant-baseline="middle" font-size="12" {SANS} fill="{TEXT}">{}</text>"#,
            LEFT - 6.0,
            y(e),
            escape(&label)
        );
    }
    // Move numbers along the bottom, at the first mover's moves, about a
    // dozen at most.
    let moves = g.plies.iter().filter(|p| p.first_mover).count().max(1);
    let step = [1, 2, 5, 10, 20, 25, 50, 100]
        .into_iter()
        .find(|s| moves / s <= 12)
        .unwrap_or(200) as u32;
    for (k, p) in g.plies.iter().enumerate() {
        if p.first_mover && (p.number % step == 0 || (k < 2 && step == 1)) {
            let cx = x(k + 1);
            let _ = write!(
                svg,
                r#"<line x1="{cx:.1}" y1="{b:.1}" x2="{cx:.1}" y2="{t:.1}" stroke="{TEXT}"/><text x="{cx:.1}" y="{ty:.1}" text-anchor="middle" font-size="12" {SANS} fill="{TEXT}">{}</text>"#,
                p.number,
                b = TOP + plot_h,
                t = TOP + plot_h + 5.0,
                ty = TOP + plot_h + 18.0,
            );
        }
    }
    let _ = write!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="12" {SANS} fill="{TEXT}">move</text>"#,
        LEFT + plot_w / 2.0,
        TOP + plot_h + 34.0
    );
    // The marks, each naming its move and class.
    for (k, p) in g.plies.iter().enumerate() {
        let Some(colour) = p.mark.colour() else {
            continue;
        };
        if let Some(&e) = points.get(k + 1) {
            let dots = if p.first_mover { "." } else { "..." };
            let _ = write!(
                svg,
                r##"<circle cx="{:.1}" cy="{:.1}" r="5" fill="{colour}" stroke="#ffffff"><title>{}{dots} {}: {}</title></circle>"##,
                x(k + 1),
                y(e),
                p.number,
                escape(&p.text),
                escape(&p.class)
            );
        }
    }
    // The legend.
    let mut lx = LEFT;
    let ly = HEIGHT - 14.0;
    for (mark, words) in [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder]
        .into_iter()
        .zip(g.legend)
    {
        let colour = mark.colour().unwrap_or(TEXT);
        let _ = write!(
            svg,
            r#"<circle cx="{:.1}" cy="{ly:.1}" r="5" fill="{colour}"/><text x="{:.1}" y="{ly:.1}" dominant-baseline="middle" font-size="12" {SANS} fill="{TEXT}">{}</text>"#,
            lx + 5.0,
            lx + 14.0,
            escape(words)
        );
        lx += 24.0 + 7.0 * words.chars().count() as f64;
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(number: u32, first_mover: bool, mark: Mark, class: &str) -> GraphPly {
        GraphPly {
            number,
            first_mover,
            text: format!("m{number}"),
            mark,
            class: class.to_owned(),
        }
    }

    #[test]
    fn a_graph_has_a_point_per_position_a_named_dot_per_mark_and_its_words() {
        let plies = [
            ply(1, true, Mark::None, "best"),
            ply(1, false, Mark::Blunder, "blunder"),
            ply(2, true, Mark::Inaccuracy, "inaccuracy"),
        ];
        let svg = evaluation_graph(&Graph {
            title: "a <game>",
            sides: ["Red", "Black"],
            points: &[0.5, 0.55, 0.3, 0.9],
            plies: &plies,
            legend: ["inaccuracy", "mistake", "blunder or missed win"],
        });
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        let points = svg.split("<path d=\"").nth(1).unwrap();
        let points = points.split('"').next().unwrap();
        // The start, a point a position, and the two corners closing it.
        assert_eq!(points.matches('L').count(), 4 + 1);
        // Two marks and three legend dots.
        assert_eq!(svg.matches("<circle").count(), 5);
        assert!(svg.contains("<title>1... m1: blunder</title>"), "{svg}");
        assert!(svg.contains("<title>2. m2: inaccuracy</title>"), "{svg}");
        // The title shown, not only told; the sides and the legend written.
        assert_eq!(svg.matches("a &lt;game&gt;").count(), 2);
        for words in [
            "Red",
            "Black",
            "move",
            "blunder or missed win",
            ">1<",
            ">2<",
        ] {
            assert!(svg.contains(words), "{words} in {svg}");
        }
    }

    #[test]
    fn a_long_game_numbers_about_a_dozen_moves() {
        let plies: Vec<GraphPly> = (0..160)
            .map(|k| ply(k / 2 + 1, k % 2 == 0, Mark::None, "good"))
            .collect();
        let points = vec![0.5; 161];
        let svg = evaluation_graph(&Graph {
            title: "t",
            sides: ["White", "Black"],
            points: &points,
            plies: &plies,
            legend: ["a", "b", "c"],
        });
        // Moves 10, 20, …, 80.
        assert_eq!(
            svg.matches("text-anchor=\"middle\" font-size=\"12\"")
                .count(),
            8 + 1
        );
        assert!(svg.contains(">80<") && !svg.contains(">5<"));
    }
}
