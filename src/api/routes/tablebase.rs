//! `POST /v1/variants/xiangqi/tablebase`: what the endgame tables say of a
//! Xiangqi position: won, drawn or lost, the distance to mate, and every
//! legal move with the same, best first.

use actix_web::{post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::error::{guarded, ApiError, BodyErrors, Problem};
use crate::api::extract::Body;
use crate::api::replay::game_of;
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::wire::{Balances, Moves};
use crate::tablebase::{self as tb, Distance, Entry, Material};
use crate::variants::xiangqi::Position;
use crate::variants::{NotationName, Side, Variant};

game_request! {
    /// A Xiangqi position: a start FEN and the moves played since, or a
    /// PGN record.
    #[schema(example = json!({
        "fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"
    }))]
    pub struct TablebaseRequest {}
    notation: [
        /// How moves are written in this request and its answer: `iccs`
        /// (the default), `fairy`, `wxf` or `chinese`.
    ],
}

/// A result with best play, for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TablebaseWdl {
    /// The side wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side loses.
    Loss,
}

/// What decides a win or a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// Mate (or stalemate, which loses), `dtm` plies away.
    Mate,
    /// The perpetual-check rule: the loser could hold out only by checking
    /// for ever, which the rules forbid (`dtm` is null: there is no mate
    /// to count to).
    PerpetualCheck,
}

/// A result the tables give: win, draw or loss, and how far.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct TablebaseResult {
    /// The result with best play.
    pub wdl: TablebaseWdl,
    /// Plies to mate with best play (the winner mating as fast as it
    /// can, the loser holding out as long as it can); null for a draw and
    /// for a result the perpetual-check rule decides.
    pub dtm: Option<u32>,
    /// What decides the result; null for a draw.
    pub decided_by: Option<DecidedBy>,
}

impl From<Entry> for TablebaseResult {
    fn from(e: Entry) -> TablebaseResult {
        let (wdl, distance) = match e {
            Entry::Win(d) => (TablebaseWdl::Win, Some(d)),
            Entry::Loss(d) => (TablebaseWdl::Loss, Some(d)),
            Entry::Draw | Entry::Illegal => (TablebaseWdl::Draw, None),
        };
        TablebaseResult {
            wdl,
            dtm: match distance {
                Some(Distance::Mate(n)) => Some(n as u32),
                _ => None,
            },
            decided_by: distance.map(|d| match d {
                Distance::Mate(_) => DecidedBy::Mate,
                Distance::Rule(_) => DecidedBy::PerpetualCheck,
            }),
        }
    }
}

/// One legal move and where it leads.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TablebaseMove {
    /// The move, in the request's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether it captures (and so leads into a smaller table).
    pub capture: bool,
    /// The result after the move, for the side that plays it; `dtm`
    /// counts the move itself.
    #[serde(flatten)]
    pub result: TablebaseResult,
}

/// What the tables say of a position.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TablebaseProbe {
    /// The table: `K` and Red's other pieces in upper case, `k` and
    /// Black's in lower case, by their FEN letters (`KRkaabb`).
    #[schema(example = "KRk")]
    pub table: String,
    /// The result for the side to move.
    #[serde(flatten)]
    pub result: TablebaseResult,
    /// The best move (the first of `moves`); null when there is none
    /// (mated or stalemated).
    pub best_move: Option<String>,
    /// Every legal move, best first: the fastest mate, then wins the rule
    /// decides, draws, and losses, the longest defence first.
    pub moves: Vec<TablebaseMove>,
}

/// A position and what the tables say of it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
    "side_to_move": "red",
    "table": "KRk",
    "wdl": "win",
    "dtm": 1,
    "decided_by": "mate",
    "best_move": "a1d1",
    "moves": [
        {"move": "a1d1", "capture": false, "wdl": "win", "dtm": 1, "decided_by": "mate"},
        {"move": "a1a8", "capture": false, "wdl": "win", "dtm": 1, "decided_by": "mate"},
        {"move": "e0e1", "capture": false, "wdl": "win", "dtm": 3, "decided_by": "mate"}
    ]
}))]
pub struct TablebaseResponse {
    /// The position (after the request's moves).
    pub fen: String,
    /// The side to move.
    pub side_to_move: Side,
    /// What the tables say.
    #[serde(flatten)]
    pub probe: TablebaseProbe,
}

/// What the endgame tables say of a Xiangqi position.
///
/// The position is `fen` (or a `pgn` record) after `moves`. The tables
/// are solved by retrograde analysis under the Asian rules: mate and
/// stalemate lose, and a side that can only hold out by checking for ever
/// loses (`decided_by: "perpetual_check"`); chases are not judged inside
/// the tables. Built in: every ending with at most two pieces besides the
/// generals, and a chariot, horse, cannon or soldier against any advisors
/// and elephants (the server's `--tablebases DIR` adds more). A position
/// outside them is a 422 `not_in_tablebase` naming its material.
#[utoipa::path(
    post,
    path = "/v1/variants/xiangqi/tablebase",
    tag = "engine",
    request_body(content = TablebaseRequest, examples(
        ("chariot mates" = (summary = "A chariot and the facing generals: mate in one", value = json!({
            "fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"
        }))),
        ("chariot against full defence" = (summary = "A chariot against two advisors and two elephants (KRkaabb): usually a draw", value = json!({
            "fen": "2bak4/4a4/4b4/9/9/9/9/9/9/R2K5 w - - 0 1",
            "notation": "wxf"
        }))),
        ("horse against two advisors" = (summary = "A horse against two advisors (KNkaa): mostly a draw", value = json!({
            "fen": "3ak4/4a4/9/9/9/9/9/9/4N4/3K5 w - - 0 1"
        }))),
        ("perpetual check loses" = (summary = "Black can hold out only by checking for ever with its horse: lost under the rule", value = json!({
            "fen": "9/9/4k4/9/9/9/9/3n5/9/R2K5 b - - 0 1"
        })))
    )),
    responses(
        (status = 200, description = "What the tables say of the position", body = TablebaseResponse),
        BodyErrors
    )
)]
#[post("/v1/variants/xiangqi/tablebase")]
pub async fn tablebase(
    body: Body<TablebaseRequest>,
) -> Result<web::Json<TablebaseResponse>, ApiError> {
    Ok(web::Json(guarded(|| answer(&body.0))?))
}

fn answer(request: &TablebaseRequest) -> Result<TablebaseResponse, ApiError> {
    let r = game_of::<Position>(request)?;
    let pos = r.game.current();
    let tables = tb::installed();
    let probed = tables
        .probe_moves(pos)
        .ok_or_else(|| not_in_tablebase(pos, tables))?;
    let write = |m| pos.write_move(m, r.notation);
    let material = tb::material_of(pos).expect("a probed position has a material");
    Ok(TablebaseResponse {
        fen: pos.to_fen(),
        side_to_move: <Position as Variant>::side(pos.side_to_move()),
        probe: TablebaseProbe {
            table: material.name(),
            result: probed.entry.into(),
            best_move: probed.moves.first().map(|m| write(m.mv)),
            moves: probed
                .moves
                .iter()
                .map(|m| TablebaseMove {
                    mv: write(m.mv),
                    capture: m.capture,
                    result: m.entry.into(),
                })
                .collect(),
        },
    })
}

/// The 422 for a position outside the tables: its material and what the
/// tables hold.
fn not_in_tablebase(pos: &Position, tables: &tb::Tables) -> ApiError {
    let materials = tables.materials();
    let held = materials.len();
    let what = match tb::material_of(pos) {
        Some(m) if tables.contains(m) => format!(
            "its material ({}) has a table, but a soldier stands where none can come in a game",
            m.name()
        ),
        Some(m) => format!(
            "its material, {} ({} pieces besides the generals), has no table",
            m.name(),
            m.pieces()
        ),
        None => "it has more of a kind of piece than any table holds".to_owned(),
    };
    let largest = materials
        .into_iter()
        .map(Material::pieces)
        .max()
        .unwrap_or(0);
    ApiError::new(
        Problem::NotInTablebase,
        format!(
            "the position is in no endgame table: {what}; the server holds {held} tables (up to \
             {largest} pieces besides the generals): every ending with at most two pieces besides \
             the generals, and a chariot, horse, cannon or soldier against any advisors and \
             elephants{}",
            if held > tb::default_materials().len() {
                ", with those of its --tablebases directory"
            } else {
                ""
            }
        ),
    )
    .field("fen")
}
