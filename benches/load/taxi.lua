-- wrk script: POST the legal moves of a Taxi chess position (UCI, SAN, cost each).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"moves": ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]}'
