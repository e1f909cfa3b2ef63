//! Response bodies, with their OpenAPI schemas and examples: what the
//! endpoints answer, built in [`super::answers`].

use serde::Serialize;
use utoipa::ToSchema;

use super::wire::{Balances, ConductCode, MoverOutcome, Status};
use crate::dispatch::{Playable, Visitor};
use crate::pgn::RecordFormat;
use crate::prose;
use crate::tablebase::{Chase, Distance, Entry};
use crate::variants::{
    GameResult, Nature, NotationInfo, NotationName, Pattern, Reason, Side, VariantId, WarningCode,
};

/// A draw a player may claim now.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimableDraw {
    /// `threefold_repetition` or `fifty_moves`.
    pub reason: Reason,
    /// The claim, in words.
    pub explanation: String,
}

/// Whether the game goes on, and if not, how it ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameStatus {
    /// Whether the game goes on, was won, or was drawn.
    pub status: Status,
    /// `1-0` (the first player wins), `0-1`, `1/2-1/2` or `*` (ongoing).
    pub result: GameResult,
    /// The winning side, when decisive.
    pub winner: Option<Side>,
    /// How the game ended, when it has.
    pub reason: Option<Reason>,
    /// One sentence saying what happened.
    pub explanation: String,
    /// Draws that may be claimed now (Taxi chess: threefold repetition, 50
    /// moves); the game goes on unless one is claimed. Automatic draws
    /// (fivefold, 75 moves) end the game instead.
    pub claimable_draws: Vec<ClaimableDraw>,
    /// For a repetition verdict: what was judged and found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionDoc>,
}

/// A repetition verdict's grounds.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RepetitionDoc {
    /// Plies (0 = the start FEN) at which the repeated position stood.
    #[schema(example = json!([2, 6, 10]))]
    pub occurrences: Vec<usize>,
    /// The cycle judged: the moves with indices `from_ply` to `to_ply - 1`
    /// of `moves` (between the last two occurrences).
    pub cycle: PlyRange,
    /// The side that broke the rules, if exactly one did.
    pub in_breach: Option<Side>,
    /// How each side played in the cycle, first mover first.
    pub sides: Vec<SideConduct>,
}

/// A half-open range of plies.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlyRange {
    /// The first ply of the range.
    #[schema(example = 6)]
    pub from_ply: usize,
    /// The ply after the last one of the range.
    #[schema(example = 10)]
    pub to_ply: usize,
}

/// One side's conduct in a repetition cycle.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SideConduct {
    /// The side.
    pub side: Side,
    /// What the side did throughout the repetition, in short.
    pub conduct: ConductCode,
    /// The pattern the rules name (`perpetual_mate_threat`,
    /// `one_check_one_chase`, …; under the Asian rules only
    /// `perpetual_check`, `perpetual_chase` and `allowed`).
    pub pattern: Pattern,
    /// The pattern's name in the Chinese rule book (长将, 长杀, 长捉, 一将一捉, …).
    #[schema(example = "长捉")]
    pub term: String,
    /// The nature of each of the side's moves in the cycle, in order.
    pub natures: Vec<Nature>,
    /// The pieces chased, as they stand at the end: under the Asian rules
    /// every piece chased with every move of a perpetual chase; under the
    /// Chinese rules every piece a forbidden side's chases went after (in
    /// board order).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chased: Vec<ChasedPiece>,
    /// Chinese rules: some chase of the side needed two pieces or more (a
    /// joint chase, 联合捉, or an under-protected piece, 少根子), which
    /// outranks single chases when both sides are forbidden.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub joint_chase: bool,
}

/// A chased piece.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChasedPiece {
    /// Where the chased piece stands, in the request's notation.
    #[schema(example = "b7")]
    pub square: String,
    /// The chased piece, in words.
    #[schema(example = "Black chariot")]
    pub piece: String,
}

/// What a move would bring about by completing a repetition.
#[derive(Debug, Serialize, ToSchema)]
pub struct RepetitionMark {
    /// The result for the side making the move.
    pub outcome: MoverOutcome,
    /// `perpetual_check`, `perpetual_chase`, `repetition` or
    /// `early_repetition`; under the Chinese rules also
    /// `perpetual_mate_threat` and `forbidden_repetition`, and
    /// `nine_forbidden_moves` when the move also completes the ninth
    /// forbidden move. Only moves that make a position stand again are
    /// marked: a ninth forbidden move that repeats nothing is not (adjudicate
    /// rules it once played).
    pub reason: Reason,
}

/// A position reached by the request's moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionSummary {
    /// The position as FEN.
    pub fen: String,
    /// The side to move.
    pub side_to_move: Side,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Plies played from the start FEN.
    pub plies: usize,
    /// Taxi chess: both balances before their next income.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balances: Option<Balances>,
    /// Whether the game goes on, and if not, how it ended.
    #[serde(flatten)]
    pub status: GameStatus,
    /// Repetition rulings that the game played past, in order: only under
    /// rules with `repetition_ends_game: false` (over-the-board records,
    /// where the offender is told to change and play goes on). A cycle
    /// played on is ruled at every ply; each run of such plies is one
    /// event, at its first ply. Absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repetition_events: Vec<RepetitionEventDoc>,
    /// Remarks on the request that the rules handle: a composed start
    /// position no game reaches, a damaged tag line of a `pgn` record read
    /// leniently; absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<WarningDoc>,
    /// For a game sent as a record (`pgn`): the kind of record it was
    /// read as (`pgn`, `dhtmlxq`, `dpxq_text`, `playok_wxf`, `compact`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_format: Option<RecordFormat>,
    /// Xiangqi: what the endgame tables say of the position (the same
    /// object as `POST /v1/variants/xiangqi/tablebase` gives), whenever a
    /// table holds it; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TablebaseProbe>,
}

/// A repetition ruling the game played past.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "ply": 66,
    "result": "1-0",
    "winner": "red",
    "reason": "perpetual_check",
    "explanation": "the position stood for the third time; Black gave check with every move of the repetition (plies 59-66): perpetual check loses, Red wins",
    "repetition": {"occurrences": [58, 62, 66], "cycle": {"from_ply": 58, "to_ply": 66}, "in_breach": "black",
                   "sides": [{"side": "red", "conduct": "allowed"}, {"side": "black", "conduct": "perpetual_check"}]}
}))]
pub struct RepetitionEventDoc {
    /// The ply at which the ruling was due (0 = the start FEN): the
    /// position after that many moves.
    pub ply: usize,
    /// What the ruling would have made the result.
    pub result: GameResult,
    /// The side the ruling favoured, if decisive.
    pub winner: Option<Side>,
    /// `perpetual_check`, `perpetual_chase`, `repetition`, ….
    pub reason: Reason,
    /// The ruling in a sentence.
    pub explanation: String,
    /// The ruling's grounds, as `repetition` gives them for a game that ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionDoc>,
}

/// A remark on an accepted position.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarningDoc {
    /// What kind of remark.
    pub code: WarningCode,
    /// What the remark is, for a person.
    pub message: String,
}

/// One legal move in every notation the variant writes.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMove {
    /// The move in the request's notation.
    #[serde(rename = "move")]
    #[schema(example = "h2e2")]
    pub mv: String,
    /// The move in each notation of its variant, where it has several
    /// (`iccs`, `fairy`, `wxf`, `chinese`; `uci`, `san`): documented from
    /// the variants by [`Written::document`].
    #[serde(flatten)]
    #[schema(ignore)]
    pub written: Written,
    /// What the move costs in units (Taxi chess): travel + removal + promotion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<u32>,
    /// Whether the move captures.
    pub capture: bool,
    /// Whether the move gives check.
    pub check: bool,
    /// Whether the move would complete a repetition that the mover loses by
    /// under the request's repetition code (a perpetual check or chase; under
    /// `chinese` also perpetual mate threats and every mix of checks, mate
    /// threats and chases): play it and you lose.
    pub forbidden_repetition: bool,
    /// Present when the move would make a position stand for the third time:
    /// what the repetition rules would then rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionMark>,
}

/// Writes `moves` into `out` as the JSON array serde writes for them, the
/// same bytes, without serde's map of each move: a `legal-moves` answer is
/// mostly this list (about 600 strings for a Xiangqi middlegame), and
/// serde's flattened map of each move, with every key escaped again, was a
/// sixth of the server's time. Strings that need no escape (every move
/// text and notation name) are copied; any other goes through serde.
pub fn write_legal_moves(out: &mut Vec<u8>, moves: &[LegalMove]) {
    out.push(b'[');
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"move\":");
        push_json_str(out, &m.mv);
        for (name, text) in &m.written.0 {
            out.push(b',');
            push_json_str(out, name.as_str());
            out.push(b':');
            push_json_str(out, text);
        }
        if let Some(cost) = m.cost {
            out.extend_from_slice(b",\"cost\":");
            push_json(out, &cost);
        }
        for (key, value) in [
            (&b",\"capture\":"[..], m.capture),
            (b",\"check\":", m.check),
            (b",\"forbidden_repetition\":", m.forbidden_repetition),
        ] {
            out.extend_from_slice(key);
            out.extend_from_slice(if value { b"true" } else { b"false" });
        }
        if let Some(r) = &m.repetition {
            out.extend_from_slice(b",\"repetition\":");
            push_json(out, r);
        }
        out.push(b'}');
    }
    out.push(b']');
}

/// `s` as a JSON string: copied between quotes when nothing in it needs an
/// escape (what serde_json escapes: control characters, `"` and `\`).
fn push_json_str(out: &mut Vec<u8>, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        push_json(out, s);
    }
}

/// `value` as serde_json writes it.
fn push_json<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    serde_json::to_writer(out, value).expect("a value of the answer is always JSON");
}

/// A move in each notation its variant writes beside `move`, keyed by the
/// notation's name: every notation of a variant that has several.
#[derive(Debug, Default)]
pub struct Written(pub Vec<(NotationName, String)>);

impl Serialize for Written {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, text) in &self.0 {
            map.serialize_entry(name.as_str(), text)?;
        }
        map.end()
    }
}

/// The notations of the variant visited, with its name.
struct NotationsOf;

impl Visitor for NotationsOf {
    type Output = (&'static str, Vec<NotationInfo>);
    fn visit<V: Playable>(self) -> Self::Output {
        (V::NAME, V::info().notations)
    }
}

impl Written {
    /// A move's notations as a variant writes them, kept beside `move`
    /// where the variant has several.
    pub fn of(written: Vec<(NotationName, String)>) -> Written {
        if Written::beside(written.len()) {
            Written(written)
        } else {
            Written::default()
        }
    }

    /// Whether a variant with `notations` notations writes them beside
    /// `move`: where it has several.
    fn beside(notations: usize) -> bool {
        notations >= 2
    }

    /// Adds to the `LegalMove` schema one optional string per notation a
    /// variant writes beside `move`, described in its words with the
    /// variants that write it; its example is the first variant's.
    pub fn document(doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        use utoipa::openapi::{RefOr, Schema};
        let Some(RefOr::T(Schema::Object(legal_move))) = doc
            .components
            .as_mut()
            .and_then(|c| c.schemas.get_mut("LegalMove"))
        else {
            return;
        };
        let mut fields: Vec<(NotationName, Vec<&str>, Option<&str>)> = Vec::new();
        for (i, &id) in VariantId::ALL.iter().enumerate() {
            let (variant, notations) = id.visit(NotationsOf);
            if !Written::beside(notations.len()) {
                continue;
            }
            for n in notations {
                match fields.iter_mut().find(|f| f.0 == n.name) {
                    Some(f) => f.1.push(variant),
                    None => fields.push((n.name, vec![variant], (i == 0).then_some(n.example))),
                }
            }
        }
        for (name, variants, example) in fields {
            let words = format!(
                "{} ({}).",
                prose::notation_words(name).1,
                variants.join(", ")
            );
            #[allow(deprecated)]
            let property = ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                .description(Some(words))
                .example(example.map(serde_json::Value::from));
            legal_move
                .properties
                .insert(name.as_str().to_owned(), property.into());
        }
    }
}

/// The result of a game.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "variant": "xiangqi",
    "fen": "R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 1 1",
    "side_to_move": "black",
    "in_check": true,
    "plies": 1,
    "status": "decisive",
    "result": "1-0",
    "winner": "red",
    "reason": "checkmate",
    "explanation": "Black is checkmated: Red wins",
    "claimable_draws": [],
    "ended_at_ply": 1,
    "moves_after_end": 0,
    "recorded_result": null,
    "recorded_result_agrees": null,
    "tablebase": {"table": "KRRk", "wdl": "loss", "dtm": 0, "decided_by": "mate",
                  "chase": null, "best_move": null, "moves": []}
}))]
pub struct AdjudicateResponse {
    /// The variant in the path.
    pub variant: VariantId,
    /// When the game has ended: the ply at which it ended (the position
    /// described is the one at that ply).
    pub ended_at_ply: Option<usize>,
    /// How many moves of the record followed the end of the game (each was
    /// still checked for legality); 0 when the record stops at the end.
    pub moves_after_end: usize,
    /// For a `pgn` record: the result it states (its `[Result]` tag, else
    /// its termination marker); null otherwise.
    pub recorded_result: Option<GameResult>,
    /// For a `pgn` record that states a result: whether it is `result`.
    /// A decisive record of a game the moves leave going on is usually a
    /// resignation or a loss on time, which no move shows.
    pub recorded_result_agrees: Option<bool>,
    /// The position where the game ended (or the last position, if it goes on).
    #[serde(flatten)]
    pub position: PositionSummary,
}

/// A score from the side to move: exactly one of `cp` and `mate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreDoc {
    /// Centipawns (a pawn is 100; a Xiangqi soldier before the river is 30).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Moves to a won end of the game as UCI counts them: 1 when the best
    /// move wins at once (checkmate, a stalemate that wins, a repetition
    /// verdict); negative when the side to move is the one losing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

/// Win, draw and loss chances in per mille, from the side to move's point
/// of view, summing to 1000: the engine's model of how games with this
/// score and this much material on the board end (fitted on its own games;
/// `docs/engine.md`). A mate found is 1000 (or 0).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"win": 412, "draw": 371, "loss": 217}))]
pub struct WdlDoc {
    /// The side to move wins.
    pub win: u32,
    /// A draw.
    pub draw: u32,
    /// The side to move loses.
    pub loss: u32,
}

impl From<crate::search::wdl::Wdl> for WdlDoc {
    fn from(w: crate::search::wdl::Wdl) -> WdlDoc {
        WdlDoc {
            win: w.win,
            draw: w.draw,
            loss: w.loss,
        }
    }
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

/// A draw the chase rules may change: the tables judge the perpetual-check
/// rule but not chases, and say where a draw may rest on one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TablebaseChase {
    /// The side to move keeps the draw only by checking or chasing for
    /// ever (every other move loses), while the other side answers
    /// quietly: under the chase rules it may lose.
    MustChase,
    /// The side to move can answer the other side's checks and chases
    /// quietly, leaving it nothing else that keeps the draw: under the
    /// chase rules it may win.
    ForcesChase,
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
    /// For a draw that may rest on a chase, which side would have to
    /// chase; null otherwise. Such a draw is left to the game's own
    /// repetition judge: `tablebase_adjudication` does not end it, and
    /// `/analyze` and the review search it.
    pub chase: Option<TablebaseChase>,
}

impl From<Entry> for TablebaseResult {
    fn from(e: Entry) -> TablebaseResult {
        let (wdl, distance) = match e {
            Entry::Win(d) => (TablebaseWdl::Win, Some(d)),
            Entry::Loss(d) => (TablebaseWdl::Loss, Some(d)),
            Entry::Draw(_) | Entry::Illegal => (TablebaseWdl::Draw, None),
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
            chase: match e {
                Entry::Draw(Chase::Must) => Some(TablebaseChase::MustChase),
                Entry::Draw(Chase::Forces) => Some(TablebaseChase::ForcesChase),
                _ => None,
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A table draw that may rest on a chase names the side that would
    /// have to chase; a move's result is seen from the side that plays it.
    #[test]
    fn table_results_carry_the_chase_mark() {
        let chase = |e: Entry| TablebaseResult::from(e).chase;
        assert_eq!(
            chase(Entry::Draw(Chase::Must)),
            Some(TablebaseChase::MustChase)
        );
        assert_eq!(
            chase(Entry::Draw(Chase::Must).before()),
            Some(TablebaseChase::ForcesChase)
        );
        assert_eq!(chase(Entry::Draw(Chase::Free)), None);
        let won = TablebaseResult::from(Entry::Win(Distance::Mate(1)));
        assert_eq!((won.chase, won.dtm), (None, Some(1)));
    }
}
