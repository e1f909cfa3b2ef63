//! Perft: the leaf count of the legal move tree, the truth test of a move
//! generator.

use super::Variant;

/// Counts the leaf nodes of the legal move tree to `depth` (bulk-counted at
/// the last ply). The truth test of a move generator.
pub fn perft<V: Variant>(pos: &mut V, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<V::Move>> =
        (0..depth.max(1)).map(|_| Vec::with_capacity(128)).collect();
    perft_inner(pos, depth, &mut buffers)
}

fn perft_inner<V: Variant>(pos: &mut V, depth: u32, buffers: &mut [Vec<V::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.count_legal_moves(moves) as u64;
    }
    pos.legal_moves(moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        nodes += perft_inner(pos, depth - 1, rest);
        pos.unmake_move(mv, undo);
    }
    nodes
}

/// Perft split by first move: `(move, leaves)` in generation order.
pub fn perft_divide<V: Variant>(
    pos: &mut V,
    depth: u32,
    notation: V::Notation,
) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let name = pos.write_move(mv, notation);
            let undo = pos.make_move(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move(mv, undo);
            (name, n)
        })
        .collect()
}
