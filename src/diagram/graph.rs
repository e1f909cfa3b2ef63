//! The evaluation graph of a reviewed game: the first mover's expected
//! score (win + draw / 2) after each ply, as a self-contained SVG.

use std::fmt::Write;

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

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 240.0;
const MARGIN: f64 = 24.0;

/// The graph: `points[0]` is the start, `points[k]` the first mover's
/// expected score (0 to 1) after ply `k`; `marks[k - 1]` marks ply `k`.
/// `title` names the picture for screen readers.
pub fn evaluation_graph(points: &[f64], marks: &[Mark], title: &str) -> String {
    let n = points.len().saturating_sub(1).max(1) as f64;
    let x = |i: usize| MARGIN + (WIDTH - 2.0 * MARGIN) * i as f64 / n;
    let y = |e: f64| MARGIN + (HEIGHT - 2.0 * MARGIN) * (1.0 - e.clamp(0.0, 1.0));
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="title"><title id="title">{}</title><rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##,
        escape(title)
    );
    // The first mover's area above the curve's baseline at the bottom.
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
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{:.1}" height="{:.1}" fill="#3a3a3a"/><path d="{area}" fill="#f2f2f2"/>"##,
        WIDTH - 2.0 * MARGIN,
        HEIGHT - 2.0 * MARGIN
    );
    let _ = write!(
        svg,
        r##"<line x1="{MARGIN}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#999999" stroke-dasharray="4 3"/>"##,
        y(0.5),
        WIDTH - MARGIN,
        y(0.5)
    );
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, &e)| format!("{:.1},{:.1}", x(i), y(e)))
        .collect();
    let _ = write!(
        svg,
        r##"<polyline points="{}" fill="none" stroke="#d08a00" stroke-width="2"/>"##,
        line.join(" ")
    );
    for (k, mark) in marks.iter().enumerate() {
        let colour = match mark {
            Mark::None => continue,
            Mark::Inaccuracy => "#56b4e9",
            Mark::Mistake => "#e69f00",
            Mark::Blunder => "#d55e00",
        };
        let i = k + 1;
        if let Some(&e) = points.get(i) {
            let _ = write!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{colour}"><title>ply {i}</title></circle>"#,
                x(i),
                y(e)
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_has_a_point_per_position_and_a_mark_per_marked_ply() {
        let svg = evaluation_graph(
            &[0.5, 0.55, 0.3, 0.9],
            &[Mark::None, Mark::Blunder, Mark::Inaccuracy],
            "a <game>",
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        let points = svg.split("<polyline points=\"").nth(1).unwrap();
        let points = points.split('"').next().unwrap();
        assert_eq!(points.split(' ').count(), 4);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("a &lt;game&gt;"));
    }
}
