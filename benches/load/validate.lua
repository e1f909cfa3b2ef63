-- wrk script: POST a validate of one move after an 8-move record.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "b7b3"], "move": "b0c2"}'
