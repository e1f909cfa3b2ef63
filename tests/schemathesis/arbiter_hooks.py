"""Schemathesis hooks for arbiter (loaded by tests/schemathesis.rs through
SCHEMATHESIS_HOOKS): how to send a PGN body, which schemathesis does not
know by itself. A generated string is sent as its UTF-8 text."""

import schemathesis


@schemathesis.serializer("application/x-chess-pgn")
def pgn(ctx, value):
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8")
