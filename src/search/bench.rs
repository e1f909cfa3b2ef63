//! The bench signature: fixed positions of each variant searched to a fixed
//! depth, one thread, a fresh table each, the shipped network where the
//! variant has one. The total of the nodes searched is the engine's
//! fingerprint: a change that moves it changes the search, and says so in
//! its commit message (`arbiter bench`; a test pins the number).

use crate::variants::{tamerlane::Tamerlane, taxi::Taxi, xiangqi::Xiangqi};
use crate::variants::{Game, VariantId};

use super::{search, Control, Evaluate, Limits, SearchStats};

/// The depth every bench position is searched to.
pub const DEPTH: u32 = 9;

/// The positions of each variant: its start and a few from play.
pub fn positions(variant: VariantId) -> &'static [&'static str] {
    match variant {
        VariantId::Xiangqi => &[
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "2bak4/4a4/4b4/p1p3p1p/9/2P3P2/P3r3P/2N1B1N2/4A4/2BAK4 b - - 0 1",
        ],
        VariantId::Taxi => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ],
        VariantId::Tamerlane => &[],
    }
}

/// One position's part of the signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The variant.
    pub variant: VariantId,
    /// The position (`None`: the variant's start).
    pub fen: Option<&'static str>,
    /// The nodes its search took.
    pub nodes: u64,
    /// Where they went.
    pub stats: SearchStats,
}

/// Searches every bench position and returns each one's nodes.
pub fn run() -> Vec<Entry> {
    VariantId::ALL
        .iter()
        .flat_map(|&variant| match variant {
            VariantId::Xiangqi => bench::<Xiangqi>(variant),
            VariantId::Taxi => bench::<Taxi>(variant),
            VariantId::Tamerlane => bench::<Tamerlane>(variant),
        })
        .collect()
}

/// The total of [`run`]'s nodes: the signature.
pub fn signature(entries: &[Entry]) -> u64 {
    entries.iter().map(|e| e.nodes).sum()
}

/// The bench positions of `variant` (whose type is `V`), each searched.
fn bench<V: Evaluate>(variant: VariantId) -> Vec<Entry> {
    let rules = V::Rules::default();
    let fens = positions(variant);
    let starts: Vec<(Option<&'static str>, V)> = if fens.is_empty() {
        vec![(None, V::start_position(&rules))]
    } else {
        fens.iter()
            .map(|&f| {
                (
                    Some(f),
                    V::from_fen(f, &rules).expect("a bench position reads"),
                )
            })
            .collect()
    };
    starts
        .into_iter()
        .map(|(fen, start)| {
            let game = Game::<V>::new(start, rules.clone());
            let limits = Limits {
                depth: Some(DEPTH),
                multipv: 1,
                threads: 1,
                network: V::shipped_network(),
                ..Limits::default()
            };
            let (nodes, stats) = search(&game, &limits, &Control::default(), 1 << 20, None)
                .map_or((0, SearchStats::default()), |r| (r.nodes, r.stats));
            Entry {
                variant,
                fen,
                nodes,
                stats,
            }
        })
        .collect()
}
