use super::*;

#[test]
fn start_fen_round_trips() {
    assert_eq!(Position::start().to_fen(), START_FEN);
}

#[test]
fn perft_from_the_standard_start() {
    let p = Position::start();
    assert_eq!(perft(&p, 1), 24);
    assert_eq!(perft(&p, 2), 576);
}
