#!/usr/bin/env python3
"""Real master games through a running server, under both repetition codes.

Reads a folder of records as a Chinese site exports them (one game per
file, any encoding: the dataset `Yvonne761/Chinese-Chess-Practical-Dataset`,
folder `Dataset/對局/大師對局`, is the one measured in the README), drops
files with the same bytes, and sends them raw (no charset, no cleaning) in
bodies of 1,000 games to `POST /v1/variants/xiangqi/adjudicate/batch`, once
under the Asian code and once under the Chinese code, body by body in turn.

It prints: how many games were read, refused (and why) or held no move;
every game ended by the nine-move rule, with its record's result; and the
time each code took, in all and the worst body.

With `--legal-moves N`, it then times `legal-moves` at a repetition: in
the first N bodies, each game the Asian code ends by a repetition ruling
is cut just before the ruling move and sent as `pgn`, once under each code
(the Chinese request first; the rulings are found under the Asian code so
that the server has judged no move of that cycle before: the Chinese code
remembers natures, per thread, for a while), and the times are summarised.
`--validate N` does the same for `validate` of the ruling move (on a fresh
server, with `--skip-batches`, so that the judge has seen none of it).

    python3 benches/records/master_games.py DATASET_FOLDER [--url URL] [--legal-moves N]
        [--validate N] [--skip-batches]

Nothing of the project's build or tests runs it: it measures.
"""

import argparse
import collections
import hashlib
import json
import pathlib
import re
import time
import urllib.parse
import urllib.request

BATCH = 1000


def bodies(folder):
    seen, games = set(), []
    for path in sorted(pathlib.Path(folder).rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).digest()
        if digest in seen:
            continue
        seen.add(digest)
        games.append(data.rstrip() + b"\n")
    for i in range(0, len(games), BATCH):
        yield b"\n".join(games[i : i + BATCH])


REPETITION = {"repetition", "perpetual_check", "perpetual_chase",
              "perpetual_mate_threat", "forbidden_repetition", "nine_forbidden_moves"}
CODECS = {"Big5": "big5", "GB18030": "gb18030", "GBK": "gb18030", "UTF-8": "utf-8"}


def record_moves(text):
    """The record's moves (move numbers and comments dropped; a token is
    one move, as xqbase-style records write)."""
    body = re.sub(r"\{[^}]*\}", " ", "\n".join(
        line for line in text.splitlines() if not line.startswith("[")))
    return [t for t in body.split()
            if not re.fullmatch(r"\d+\.+", t) and t not in ("1-0", "0-1", "1/2-1/2", "*")]


def cut(text, plies):
    """The record's tags and its first `plies` moves."""
    tags = [line for line in text.splitlines() if line.startswith("[")]
    return "\n".join(tags) + "\n\n" + " ".join(record_moves(text)[:plies]) + "\n"


def timed_json(url, path, body):
    request = urllib.request.Request(f"{url}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=600) as answer:
            json.load(answer)
    except urllib.error.HTTPError as refusal:
        raise SystemExit(f"{path}: {refusal.code} {refusal.read().decode()[:300]}") from None
    return (time.perf_counter() - start) * 1000


def at_repetitions(url, bodies_, n, endpoint):
    """Times `endpoint` (legal-moves or validate of the ruling move) just
    before each repetition ruling of the first `n` bodies, the Chinese
    request first."""
    times = {"chinese": [], "asian": []}
    for body in list(bodies_)[:n]:
        _, answer = post(url, "asian", body)
        codec = CODECS.get(answer.get("encoding"), "utf-8")
        lines = body.decode(codec).splitlines()
        starts = [game["line"] for game in answer["results"]] + [len(lines) + 1]
        for k, game in enumerate(answer["results"]):
            result = game.get("result")
            if not result or result["reason"] not in REPETITION or not result["ended_at_ply"]:
                continue
            text = "\n".join(lines[starts[k] - 1 : starts[k + 1] - 1])
            plies = result["ended_at_ply"] - 1
            request = {"pgn": cut(text, plies)}
            if endpoint == "validate":
                request.update(move=record_moves(text)[plies], notation="chinese")
            for code in ("chinese", "asian"):
                times[code].append(timed_json(url, f"/v1/variants/xiangqi/{endpoint}",
                                              dict(request, rules={"repetition": code})))
    for code, xs in times.items():
        xs.sort()
        if not xs:
            continue
        pick = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))]
        print(f"{endpoint} at a repetition, {code}: {len(xs)} positions, median {pick(0.5):.1f} ms, "
              f"90th {pick(0.9):.1f}, 99th {pick(0.99):.1f}, slowest {xs[-1]:.1f}; "
              f"over 10 ms: {sum(1 for x in xs if x > 10)}")


def post(url, code, body):
    rules = urllib.parse.quote(json.dumps({"repetition": code}))
    request = urllib.request.Request(
        f"{url}/v1/variants/xiangqi/adjudicate/batch?rules={rules}",
        data=body,
        headers={"content-type": "application/x-chess-pgn"},
    )
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as answer:
        result = json.load(answer)
    return time.perf_counter() - start, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--url", default="http://localhost:8080")
    parser.add_argument("--legal-moves", type=int, default=0, metavar="N")
    parser.add_argument("--validate", type=int, default=0, metavar="N")
    parser.add_argument("--skip-batches", action="store_true",
                        help="time only the repetitions (a fresh server stays cold)")
    args = parser.parse_args()
    if not args.skip_batches:
        batches(args)
    if args.legal_moves:
        at_repetitions(args.url, bodies(args.folder), args.legal_moves, "legal-moves")
    if args.validate:
        at_repetitions(args.url, bodies(args.folder), args.validate, "validate")


def batches(args):
    counts = collections.Counter()
    refusals = collections.Counter()
    seconds = {"asian": [], "chinese": []}
    nine = []
    for n, body in enumerate(bodies(args.folder)):
        for code in ("asian", "chinese"):
            spent, answer = post(args.url, code, body)
            seconds[code].append(spent)
            for game in answer["results"]:
                if code == "asian":
                    counts["games"] += 1
                if "error" in game:
                    if code == "asian":
                        refusals[game["error"].get("reason_code") or game["error"]["code"]] += 1
                    continue
                result = game["result"]
                if code == "asian":
                    counts["read"] += 1
                    if result["plies"] + result["moves_after_end"] == 0:
                        counts["no moves"] += 1
                if code == "chinese" and result["reason"] == "nine_forbidden_moves":
                    nine.append((n, game["index"], game["tags"].get("Event", ""),
                                 result["recorded_result"], result["result"]))
    print(dict(counts), "refused:", dict(refusals))
    against = [x for x in nine if x[3] not in ("*", x[4])]
    print(f"nine-move endings (Chinese code): {len(nine)}, against the record: {len(against)}")
    for body, index, event, recorded, ours in nine:
        print(f"  body {body} game {index}: {event} — record {recorded}, ruled {ours}")
    asian, chinese = sum(seconds["asian"]), sum(seconds["chinese"])
    worst = max(c / a for a, c in zip(seconds["asian"], seconds["chinese"]))
    print(f"time: Asian {asian:.1f} s, Chinese {chinese:.1f} s ({chinese / asian:.2f}x); "
          f"worst body of {BATCH} games {worst:.2f}x")


if __name__ == "__main__":
    main()
