-- wrk script: GET an SVG diagram after a few moves.
wrk.method = "GET"
