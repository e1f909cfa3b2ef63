-- wrk script: POST the legal moves of the Tamerlane chess start position.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"moves": ["b3b4", "j8j7"]}'
