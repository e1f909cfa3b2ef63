//! The diagrams in a real browser: headless Chromium (Debian's `chromium`
//! package) renders one diagram per variant through the running service, and
//! the pictures are checked pixel by pixel for what must be there.
//!
//! Without Chromium the test is ignored, with its reason (see `build.rs`),
//! unless `ARBITER_REQUIRE_BROWSER=1` (set by `.ci/run`, which installs it).

mod common;

use std::path::Path;
use std::process::Command;

struct Picture {
    width: u32,
    height: u32,
    rgb: Vec<[u8; 3]>,
}

fn load(path: &Path) -> Picture {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    Picture {
        width: info.width,
        height: info.height,
        rgb,
    }
}

impl Picture {
    /// Pixels within `tolerance` of `colour` on every channel.
    fn count(&self, colour: [u8; 3], tolerance: u8) -> usize {
        self.rgb
            .iter()
            .filter(|p| (0..3).all(|i| p[i].abs_diff(colour[i]) <= tolerance))
            .count()
    }
}

#[test]
#[cfg_attr(
    not(has_chromium),
    ignore = "needs Chromium: apt-get install chromium fonts-noto-cjk"
)]
fn chromium_renders_a_diagram_of_every_variant() {
    let out = std::env::temp_dir().join(format!("arbiter-render-{}", std::process::id()));
    let server = common::Server::start(&["--workers", "1"]);
    let status = Command::new("bash")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/browser/render.sh"
        ))
        .arg(&server.base)
        .arg(&out)
        .status()
        .expect("bash runs");
    assert!(status.success(), "render.sh failed");

    // Xiangqi: the wooden board, red and black discs, the last move marked.
    let x = load(&out.join("xiangqi.png"));
    assert_eq!((x.width, x.height), (544, 600));
    assert!(x.count([0xe8, 0xc9, 0x8f], 2) > 100_000, "the board");
    assert!(x.count([0xc0, 0x39, 0x2b], 40) > 2_000, "red pieces");
    assert!(x.count([0x1d, 0x1d, 0x1d], 30) > 2_000, "black pieces");
    assert!(x.count([0xf6, 0xd5, 0x5c], 10) > 500, "the last move");

    // Taxi chess: both square colours, the pieces, the balances' text.
    let t = load(&out.join("taxi.png"));
    assert!(t.count([0xb5, 0x88, 0x63], 3) > 50_000, "dark squares");
    assert!(t.count([0xf0, 0xd9, 0xb5], 3) > 50_000, "light squares");
    assert!(t.count([0x11, 0x11, 0x11], 30) > 5_000, "black pieces");
    assert!(t.count([0xff, 0xff, 0xff], 5) > 2_000, "white pieces");
    assert!(t.count([0x22, 0x22, 0x22], 40) > 800, "balance lines");

    // Tamerlane chess: the board, both citadels, white and black men.
    let m = load(&out.join("tamerlane.png"));
    assert!(m.count([0xef, 0xe2, 0xc4], 2) > 100_000, "the board");
    assert!(m.count([0xc9, 0xb7, 0x9c], 2) > 3_000, "two citadels");
    assert!(m.count([0x2b, 0x2b, 0x2b], 10) > 10_000, "black men");
    assert!(m.count([0xfd, 0xfa, 0xf2], 2) > 10_000, "white men");

    // The review's graph: the plot, the first mover's area, the marks in
    // their colours (on the curve and in the legend), the words around it:
    // the title above, the side names at the left, move numbers below.
    let g = load(&out.join("review.png"));
    assert_eq!((g.width, g.height), (720, 320));
    assert!(g.count([0x3a, 0x3a, 0x3a], 2) > 20_000, "the plot");
    assert!(
        g.count([0xf2, 0xf2, 0xf2], 2) > 20_000,
        "the first mover's area"
    );
    assert!(
        g.count([0xd5, 0x5e, 0x00], 30) > 100,
        "blunders and their legend"
    );
    assert!(
        g.count([0x56, 0xb4, 0xe9], 30) > 40,
        "the inaccuracies' legend"
    );
    assert!(g.count([0xe6, 0x9f, 0x00], 30) > 40, "the mistakes' legend");
    let text = |x0: u32, y0: u32, x1: u32, y1: u32| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let p = g.rgb[(y * g.width + x) as usize];
                p.iter().all(|&c| c < 0x80)
            })
            .count()
    };
    assert!(text(100, 0, 620, 36) > 300, "the title");
    assert!(text(0, 36, 60, 60) > 30, "Red at the top left");
    assert!(text(0, 230, 60, 260) > 30, "Black at the bottom left");
    assert!(
        text(64, 252, 720, 290) > 60,
        "move numbers and their caption"
    );
    assert!(text(64, 296, 720, 320) > 200, "the legend's words");
    let _ = std::fs::remove_dir_all(&out);
}
