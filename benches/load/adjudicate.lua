-- wrk script: POST an adjudication of a perpetual-check record (a verdict).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"fen": "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1", "moves": ["a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8"]}'
