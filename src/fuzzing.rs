//! The checks behind the fuzz targets in `fuzz/` (cargo-fuzz), kept in the
//! library so that the ordinary tests run them too, over the seed corpus.
//! Each function must return normally for every input; a panic is a bug.

use crate::dispatch::{Playable, Visitor};
use crate::search::{self, Control, Limits};
use crate::variants::{Game, Variant, VariantId};

/// FEN reading for every variant: never a panic, and whatever is accepted
/// writes back to a FEN that reads again to the same FEN.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for id in VariantId::ALL {
        id.visit(Fen(text));
    }
}

struct Fen<'a>(&'a str);

impl Visitor for Fen<'_> {
    type Output = ();
    fn visit<V: Playable>(self) {
        fen_for::<V>(self.0)
    }
}

fn fen_for<V: Variant>(text: &str) {
    let rules = V::Rules::default();
    if let Ok(pos) = V::from_fen(text, &rules) {
        let written = pos.to_fen();
        let again = V::from_fen(&written, &rules)
            .unwrap_or_else(|e| panic!("{} wrote {written:?}, which it refuses: {e}", V::ID));
        assert_eq!(
            again.to_fen(),
            written,
            "{} FEN is not a fixed point",
            V::ID
        );
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let _ = pos.in_check();
    }
    let _ = V::setup(Some(text), &rules, Some([3, 5]));
}

/// Record reading: the bytes as a file sent to the batch (XQF by its
/// signature, else text in the encoding found, in the format its body
/// shows), as XQF named by its media type, and as one record's text; then
/// each game read is replayed as Xiangqi. Never a panic.
pub fn records(data: &[u8]) {
    use crate::pgn;
    use crate::variants::xiangqi::{Notation, Position};
    let mut games = Vec::new();
    for xqf in [false, true] {
        if let Ok(r) = pgn::read_bytes(data, xqf, None) {
            games.extend(r.games.into_iter().filter_map(|g| g.record.ok()));
        }
    }
    if let Ok(r) = pgn::read_record(&String::from_utf8_lossy(data)) {
        games.push(r);
    }
    for record in games {
        let fen = record.fen().map(str::to_owned);
        // A file may place its pieces where no rules allow (a general
        // outside its palace): refused by the FEN reader, which is enough.
        let Ok(mut game) = Game::<Position>::from_fen(fen.as_deref(), Default::default()) else {
            continue;
        };
        let notation = if record.notation.is_some() {
            Notation::Iccs
        } else {
            Notation::Chinese
        };
        let _ = game.play_past_end(&record.move_texts(), notation);
    }
}

/// Move reading: the first line is a FEN (empty: the start), each further
/// line a move in every notation. Whatever is accepted is a legal move, and
/// its written form reads back to the same move.
pub fn moves(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let fen = lines.next().unwrap_or("");
    let moves: Vec<&str> = lines.collect();
    for id in VariantId::ALL {
        id.visit(Moves { fen, moves: &moves });
    }
}

struct Moves<'a> {
    fen: &'a str,
    moves: &'a [&'a str],
}

impl Visitor for Moves<'_> {
    type Output = ();
    fn visit<V: Playable>(self) {
        moves_for::<V>(self.fen, self.moves)
    }
}

/// Every notation of a variant.
fn notations<V: Variant>() -> Vec<V::Notation> {
    V::info()
        .notations
        .iter()
        .filter_map(|n| V::notation(n.name))
        .collect()
}

fn moves_for<V: Variant>(fen: &str, moves: &[&str]) {
    let rules = V::Rules::default();
    let pos = if fen.trim().is_empty() {
        V::start_position(&rules)
    } else {
        match V::from_fen(fen, &rules) {
            Ok(p) => p,
            Err(_) => return,
        }
    };
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    for text in moves {
        for n in notations::<V>() {
            if let Ok(mv) = pos.parse_move(text, n) {
                assert!(
                    legal.contains(&mv),
                    "{}: {text:?} read as an unlisted move",
                    V::ID
                );
                let written = pos.write_move(mv, n);
                assert_eq!(pos.parse_move(&written, n).ok(), Some(mv), "{written:?}");
                let _ = pos.describe_moves(&[mv], n);
            }
        }
    }
    // A whole record through the game, as the API replays it.
    let mut game = Game::new(pos, rules);
    let _ = game.play_all(moves, V::Notation::default());
    let _ = game.outcome();
}

/// Random games: each byte picks a legal move. Make/unmake restores the
/// position, the game is adjudicated after every move, and at the end a
/// small search must return a legal move.
pub fn play(data: &[u8]) {
    let Some((&which, bytes)) = data.split_first() else {
        return;
    };
    VariantId::ALL[which as usize % VariantId::ALL.len()].visit(Play(bytes));
}

struct Play<'a>(&'a [u8]);

impl Visitor for Play<'_> {
    type Output = ();
    fn visit<V: Playable>(self) {
        play_for::<V>(self.0)
    }
}

fn play_for<V: Playable>(bytes: &[u8]) {
    let rules = V::Rules::default();
    let mut game = Game::new(V::start_position(&rules), rules);
    let mut moves = Vec::new();
    for &b in bytes.iter().take(400) {
        if !game.outcome().is_ongoing() {
            break;
        }
        game.current().legal_moves(&mut moves);
        let mv = moves[b as usize % moves.len()];
        let mut pos = game.current().clone();
        let (fen, hash) = (pos.to_fen(), pos.hash_key());
        let undo = pos.make_move(mv);
        // The key kept move by move is the key of the position read afresh.
        let fresh = V::from_fen(&pos.to_fen(), game.rules()).expect("a written FEN reads");
        assert_eq!(
            fresh.hash_key(),
            pos.hash_key(),
            "{}: incremental key",
            V::ID
        );
        pos.unmake_move(mv, undo);
        assert_eq!((pos.to_fen(), pos.hash_key()), (fen, hash), "make/unmake");
        let _ = game.repetition_verdict_after(mv);
        game.play(mv);
    }
    if game.outcome().is_ongoing() {
        let limits = Limits {
            nodes: Some(300),
            multipv: 2,
            ..Limits::default()
        };
        let found = search::search(&game, &limits, &Control::default(), 1 << 10, None)
            .expect("an ongoing game has a move");
        game.current().legal_moves(&mut moves);
        assert!(moves.contains(&found.best_move));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The seed corpus of the fuzz targets, checked on every test run.
    #[test]
    fn the_seed_corpus_passes() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/corpus");
        let mut seen = 0;
        for (dir, check) in [
            ("fen", fen as fn(&[u8])),
            ("moves", moves),
            ("play", play),
            ("records", records),
        ] {
            for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
                let data = std::fs::read(entry.unwrap().path()).unwrap();
                check(&data);
                seen += 1;
            }
        }
        assert!(seen >= 12, "the corpus has {seen} inputs");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..200)) {
            fen(&data);
            moves(&data);
            play(&data);
            records(&data);
        }
    }
}
