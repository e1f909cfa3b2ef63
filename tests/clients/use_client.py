"""Drives arbiter through a client that openapi-python-client generated from
the served OpenAPI document: every call a bot or game site makes, in every
variant, with the answers parsed into the generated models.

Run by tests/clients.rs: python3 use_client.py <client dir> <base URL>.
"""

import sys

sys.path.insert(0, sys.argv[1])

from arbiter_client import Client  # noqa: E402
from arbiter_client.api.engine import analyze, review, tablebase  # noqa: E402
from arbiter_client.api.operations import healthz, metrics  # noqa: E402
from arbiter_client.api.pictures import diagram_get, diagram_post  # noqa: E402
from arbiter_client.api.rules import (  # noqa: E402
    adjudicate,
    adjudicate_batch,
    legal_moves,
    validate,
)
from arbiter_client.api.variants import get_variant, list_variants  # noqa: E402
from arbiter_client.models import (  # noqa: E402
    AdjudicateResponse,
    BatchRequest,
    BatchResponse,
    DiagramRequest,
    AnalyzeRequest,
    AnalyzeResponse,
    GameResult,
    LegalMovesResponse,
    PositionRequest,
    ProblemDetails,
    ReviewRequest,
    ReviewResponse,
    Reason,
    Refusal,
    Side,
    Status,
    TablebaseRequest,
    TablebaseResponse,
    TablebaseWdl,
    ValidateRequest,
    ValidateResponse,
    VariantDetails,
    VariantId,
    VariantList,
)

client = Client(base_url=sys.argv[2], raise_on_unexpected_status=True, timeout=30.0)
calls = 0


def expect(value, kind):
    global calls
    calls += 1
    assert isinstance(value, kind), f"expected {kind.__name__}, got {value!r}"
    return value


# Per variant: a position and its legal move count; an illegal move and its
# refusal code; a game that ends in mate; a position to analyse.
CASES = {
    VariantId.XIANGQI: dict(
        moves=["h2e2", "h9g7"],
        count=35,
        illegal=("b0b3", Refusal.BAD_GEOMETRY),
        mate=("3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", ["a0a9"], Side.RED),
        analyze=("4k4/9/9/9/9/9/9/9/R8/1R1K4p w - - 0 1", "b0b8"),
    ),
    VariantId.TAXI: dict(
        moves="e2e4 e7e5",
        count=None,
        illegal=("e1e3", Refusal.BAD_GEOMETRY),
        mate=("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 16/16", ["a1a8"], Side.WHITE),
        analyze=("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 16/16", "a1a8"),
    ),
    VariantId.TAMERLANE: dict(
        moves=["b3b4"],
        count=None,
        illegal=("b2b5", Refusal.BAD_GEOMETRY),
        mate=("k10/11/11/11/11/1R9/11/11/11/2R7K w -/- - 0/0 0 1", ["c1a1"], Side.WHITE),
        analyze=("k10/11/11/11/11/1R9/11/11/11/2R7K w -/- - 0/0 0 1", "c1a1"),
    ),
}

expect(healthz.sync(client=client), object)
listed = expect(list_variants.sync(client=client), VariantList)
assert [v.id for v in listed.variants] == list(CASES), listed.variants

for variant, case in CASES.items():
    details = expect(get_variant.sync(variant, client=client), VariantDetails)
    assert details.id == variant

    moves = expect(
        legal_moves.sync(variant, client=client, body=PositionRequest(moves=case["moves"])),
        LegalMovesResponse,
    )
    assert moves.status == Status.ONGOING, moves
    assert moves.result == GameResult.ONGOING, moves.result
    if case["count"] is not None:
        assert len(moves.legal_moves) == case["count"], len(moves.legal_moves)
    assert moves.legal_moves, "some legal moves"

    move, refusal = case["illegal"]
    verdict = expect(
        validate.sync(variant, client=client, body=ValidateRequest(move=move)),
        ValidateResponse,
    )
    assert verdict.legal is False and verdict.reason_code == refusal, verdict

    fen, record, winner = case["mate"]
    ended = expect(
        adjudicate.sync(variant, client=client, body=PositionRequest(fen=fen, moves=record)),
        AdjudicateResponse,
    )
    assert ended.status == Status.DECISIVE, ended
    assert ended.reason == Reason.CHECKMATE, ended
    assert ended.winner == winner, ended
    expected = GameResult.FIRST_WINS if winner in (Side.RED, Side.WHITE) else GameResult.SECOND_WINS
    assert ended.result == expected, ended.result

    # Pictures come back as the SVG's bytes, by GET and by POST.
    svg = expect(diagram_get.sync(variant, client=client), bytes)
    assert svg.startswith(b"<svg") and svg.rstrip().endswith(b"</svg>"), svg[:40]
    svg = expect(
        diagram_post.sync(variant, client=client, body=DiagramRequest(moves=case["moves"])),
        bytes,
    )
    assert b"<svg" in svg[:100], svg[:40]

    fen, best = case["analyze"]
    found = expect(
        analyze.sync(variant, client=client, body=AnalyzeRequest(fen=fen, depth=5)),
        AnalyzeResponse,
    )
    assert found.lines, found
    if best is not None:
        assert found.best_move == best, found.best_move
    wdl = found.lines[0].wdl
    assert wdl.win + wdl.draw + wdl.loss == 1000, wdl

    # The game reviewed: a ply each, both sides' figures.
    reviewed = expect(
        review.sync(variant, client=client, body=ReviewRequest(moves=case["moves"], depth=2)),
        ReviewResponse,
    )
    played = case["moves"].split() if isinstance(case["moves"], str) else case["moves"]
    assert [p.ply for p in reviewed.plies] == list(range(1, len(played) + 1)), reviewed
    assert len(reviewed.sides) == 2 and reviewed.complete, reviewed
    assert reviewed.limits.repeatable and reviewed.limits.first.depth == 2, reviewed.limits
    assert all(isinstance(p.verified, bool) for p in reviewed.plies), reviewed
    assert reviewed.verified_plies == [p.ply for p in reviewed.plies if p.verified], reviewed

    # A problem parses into the generated ProblemDetails.
    problem = expect(
        legal_moves.sync(variant, client=client, body=PositionRequest(fen="not a fen")),
        ProblemDetails,
    )
    assert problem.status == 422 and problem.field == "fen", problem

# A file of many games in PGN, each answered with its tags.
FILE = (
    '[Event "a"]\n[Red "Zhang"]\n[Black "Li"]\n\n1. Ｃ２＝５Ｈ８＋７ 2. Ｈ２＋３Ｒ９＝８\n\n'
    '[Event "b"]\n[Red "Li"]\n[Black "Zhang"]\n\n1. 炮二平五 马８进７\n'
)
batch = expect(
    adjudicate_batch.sync(VariantId.XIANGQI, client=client, body=BatchRequest(pgn=FILE)),
    BatchResponse,
)
assert batch.games == 2 and batch.errors == 0, batch
assert [r.tags.additional_properties["Event"] for r in batch.results] == ["a", "b"], batch
assert batch.results[0].result.plies == 4, batch.results[0]
assert str(batch.to_dict()["format"]) == "pgn", batch

# A DhtmlXQ block, as dpxq.com exports a game: read in its format, with a
# start position from its binit and its moves in coordinates.
UBB = (
    "[DhtmlXQ][DhtmlXQ_red]Zhang[/DhtmlXQ_red][DhtmlXQ_result]红胜[/DhtmlXQ_result]"
    "[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]"
    "[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]"
)
ubb = expect(
    adjudicate_batch.sync(VariantId.XIANGQI, client=client, body=BatchRequest(pgn=UBB)),
    BatchResponse,
)
assert ubb.games == 1 and ubb.errors == 0, ubb
assert ubb.to_dict()["format"] == "dhtmlxq", ubb
assert ubb.results[0].to_dict()["format"] == "dhtmlxq", ubb.results[0]
assert ubb.results[0].result.plies == 2, ubb.results[0]
assert ubb.results[0].tags.additional_properties["Red"] == "Zhang", ubb.results[0]

# The endgame tables: a chariot mates at once; the position after it is lost.
probed = expect(
    tablebase.sync(client=client, body=TablebaseRequest(fen="3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1")),
    TablebaseResponse,
)
assert probed.table == "KRk" and probed.wdl == TablebaseWdl.WIN and probed.dtm == 1, probed
assert probed.best_move == probed.moves[0].move and probed.moves[0].dtm == 1, probed
mated = expect(
    tablebase.sync(
        client=client,
        body=TablebaseRequest(fen="3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", moves=[probed.best_move]),
    ),
    TablebaseResponse,
)
assert mated.wdl == TablebaseWdl.LOSS and mated.dtm == 0 and mated.best_move is None, mated
outside = expect(tablebase.sync(client=client, body=TablebaseRequest()), ProblemDetails)
assert outside.status == 422 and str(outside.code) == "not_in_tablebase", outside

# The metrics, as text.
text = expect(metrics.sync(client=client), str)
assert "arbiter_http_requests_total" in text, text[:200]

print(f"ok: {calls} calls")
