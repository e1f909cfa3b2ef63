-- wrk script: POST 200 ms searches, more than the pool takes (most get 503).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"moves": ["h2e2", "h9g7"], "movetime_ms": 200}'
