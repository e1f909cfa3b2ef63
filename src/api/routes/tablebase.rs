//! `POST /v1/variants/xiangqi/tablebase`: what the endgame tables say of a
//! Xiangqi position: won, drawn or lost, the distance to mate, and every
//! legal move with the same, best first.

use actix_web::{post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::answers::tablebase_doc;
use crate::api::error::{guarded, ApiError, BodyErrors, Problem};
use crate::api::extract::Body;
use crate::api::replay::game_of;
use crate::api::requests::{game_request, AnyRules, PositionFields};
use crate::api::responses::TablebaseProbe;
use crate::api::wire::{Balances, Moves};
use crate::tablebase::{self as tb, Material};
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

/// A position and what the tables say of it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
    "side_to_move": "red",
    "table": "KRk",
    "wdl": "win",
    "dtm": 1,
    "decided_by": "mate",
    "chase": null,
    "best_move": "a1d1",
    "moves": [
        {"move": "a1d1", "capture": false, "wdl": "win", "dtm": 1, "decided_by": "mate", "chase": null},
        {"move": "a1a8", "capture": false, "wdl": "win", "dtm": 1, "decided_by": "mate", "chase": null},
        {"move": "e0e1", "capture": false, "wdl": "win", "dtm": 3, "decided_by": "mate", "chase": null}
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
/// the tables, but a draw that may rest on one says so (`chase`:
/// `must_chase` for the side that would have to chase, `forces_chase` for
/// the other). Built in: every ending with at most two pieces besides the
/// generals, and a chariot, horse, cannon or soldier against any advisors
/// and elephants (the server's `--tablebases DIR` adds more). A position
/// outside them is a 422 `not_in_tablebase` naming its material.
#[utoipa::path(
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
    let probe =
        tablebase_doc(pos, r.notation).ok_or_else(|| not_in_tablebase(pos, tb::installed()))?;
    Ok(TablebaseResponse {
        fen: pos.to_fen(),
        side_to_move: <Position as Variant>::side(pos.side_to_move()),
        probe,
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
