"""10,000 malformed or hostile WebSocket requests to a real `jiangjun web` (uvicorn on 127.0.0.1), while a
second tab plays against the engine: every request gets one clear error, the second tab keeps working, the
fuzzed tab still plays afterwards, and the server lives on.

The requests are drawn from a seeded generator (the same ones at every run): text that is not JSON, JSON
that is not an object, unknown types and fields, missing fields, values of the wrong kind or out of range,
strings too long, lone surrogates, numbers JSON should not have (NaN, 1e999, 5,000 digits), JSON nested
100,000 deep, binary frames, requests beyond the size limit, bad FENs, illegal moves and move lines, PGN
files that do not read. The game's requests have an oracle: the same request to a WebGame of this process
(engine.web.game) gives the message the server must send. After each request the fuzzer sends a marker,
a request of an unknown type numbered as the case; the answers between two markers are the case's. The
requests are sent without waiting for the answers (a flood: the server reads them as fast as it serves
them), while another task reads.

Run by pytest (slow), or by hand against a running server:

    python tests/web/test_fuzz_socket.py --url http://127.0.0.1:8000/ --messages 100000 --seed 7
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import json
import random
import string
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Union

import pytest

if __name__ == "__main__":                    # run by hand: the checkout and tests/ on the path
    sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

from engine import START_FEN  # noqa: E402
from engine.web.game import MAX_UPLOAD_BYTES, WebGame, WebInputError  # noqa: E402
from engine.web.protocol import (MAX_FEN_CHARS, MAX_LINE_MOVES, MAX_MESSAGE_CHARS,  # noqa: E402
                                 MAX_MOVE_CHARS, REQUESTS, SETTINGS)
from support.web import HANG_GUARD, SocketTab, socket_url  # noqa: E402

SEED = 43
MESSAGES = 10_000
#: Rounds of play the second tab must finish, at the least, while the fuzz runs.
SECOND_TAB_ROUNDS = 3
#: The first characters of an expected message that the answer must hold (the server cuts a long one).
MATCHED_CHARS = 300
#: The answer to a marker: an unknown type, which names the case.
MARK = "fuzz-mark-"


@dataclass
class Case:
    """One hostile frame and what the error must say (`words` in it, or the oracle's message exactly)."""

    kind: str
    frame: Union[str, bytes]
    words: str


# -- the cases ---------------------------------------------------------------------------------------------
def _junk(rng: random.Random, length: int) -> str:
    alphabet = string.printable + "将軍炮二平五马８进７\u202e\u0000\ufeff😀"
    return "".join(rng.choice(alphabet) for _ in range(length))


def _request(rng: random.Random) -> dict:
    """A request the page could send (the start of several cases)."""
    return rng.choice([{"type": "move", "move": "h2e2"}, {"type": "settings", "level": 3, "mode": "free"},
                       {"type": "new", "fen": START_FEN}, {"type": "play_line", "moves": ["h2e2", "h9g7"]},
                       {"type": "save_svg", "flip": False}, {"type": "choose", "index": 0}])


def not_json(rng):
    text = json.dumps(_request(rng))
    return Case("not JSON", rng.choice([text[:rng.randrange(1, len(text))], "x" + _junk(rng, rng.randrange(40)),
                                        "{'type': 'move'}", "", "{\"type\": \"undo\",}"]), "malformed: not JSON")


def not_an_object(rng):
    value = rng.choice([[], [1, 2], 7, -0.5, "move", None, True, [{"type": "undo"}]])
    return Case("not an object", json.dumps(value), "a JSON object with a type is expected")


def unknown_type(rng):
    kind = rng.choice([_junk(rng, rng.randrange(1, 2000)), "engine", "setoption", "quit", "__class__", "eval",
                       "on_move", 7, None, ["move"], {"type": "move"}, "MOVE", "move "])
    text = json.dumps({"type": kind, "cmd": "/bin/sh -c reboot"})
    return Case("unknown type", text, "unknown request type")


def unknown_field(rng):
    request = _request(rng)
    request[rng.choice(["engine", "command", "path", "__proto__", _junk(rng, rng.randrange(1, 300))])] = 1
    return Case("unknown field", json.dumps(request), "unknown field")


def missing_field(rng):
    kind = rng.choice([kind for kind, spec in REQUESTS.items() if spec.required])
    return Case("missing field", json.dumps({"type": kind}), "is missing")


WRONG_VALUES = [None, True, 1, -1, 2.5, "x", "", [], ["h2e2"], {}, {"type": "move"}, 10**30, "20", "１"]


def wrong_kind(rng):
    kind = rng.choice([kind for kind, spec in REQUESTS.items() if spec.fields])
    name = rng.choice(sorted(REQUESTS[kind].fields))
    field_kind = REQUESTS[kind].fields[name]
    while True:
        value = rng.choice(WRONG_VALUES)
        try:
            field_kind.check(name, value)
        except ValueError:
            break
    return Case("wrong kind", json.dumps({"type": kind, name: value}), f"{kind}: {name}")


def out_of_range(rng):
    name = rng.choice(sorted(SETTINGS))
    if name in ("mode", "engine_color"):
        return Case("out of range", json.dumps({"type": "settings", name: rng.choice(["Play", "", "both", "白"])}),
                    "must be one of")
    value = rng.choice([-1, -10**9, 10**9, 10**4000 - 1, 61_000, 0 if name != "level" else 21])
    return Case("out of range", json.dumps({"type": "settings", name: value}), "must be from")


def odd_numbers(rng):
    value = rng.choice(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1.0", "3e1", "1" * 5000])
    words = {"NaN": "is not a number", "Infinity": "is not a number", "-Infinity": "is not a number",
             "1" * 5000: "malformed: not JSON"}.get(value, "must be a whole number")
    return Case("odd number", '{"type": "settings", "level": %s}' % value, words)


def too_long(rng):
    name, limit = rng.choice([("move", MAX_MOVE_CHARS), ("fen", MAX_FEN_CHARS)])
    kind = "move" if name == "move" else "new"
    return Case("too long", json.dumps({"type": kind, name: "a" * rng.randrange(limit + 1, 20_000)}), "too long")


def too_many_moves(rng):
    moves = ["h2e2"] * rng.randrange(MAX_LINE_MOVES + 1, 5000)
    return Case("too many moves", json.dumps({"type": "play_line", "moves": moves}), "too many moves")


def lone_surrogate(rng):
    kind, name = rng.choice([("move", "move"), ("new", "fen"), ("load_text", "text")])
    return Case("lone surrogate", '{"type": "%s", "%s": "a\\udc80b"}' % (kind, name), "lone surrogate")


def deeply_nested(rng):
    depth = rng.randrange(5_000, 100_000)
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    return Case("nested", opener * depth + "1" + closer * depth, "nested too deeply")


def nested_value(rng):
    depth = rng.randrange(2, 500)
    return Case("nested value", '{"type": "move", "move": %s"h2e2"%s}' % ("[" * depth, "]" * depth), "must be text")


def binary_frame(rng):
    return Case("binary", bytes(rng.randrange(256) for _ in range(rng.randrange(0, 4096))), "binary frame")


def too_large(rng):
    return Case("too large", json.dumps({"type": "load_text", "text": "x" * (MAX_MESSAGE_CHARS + rng.randrange(1, 10**5))}),
                "the request is too large")


def duplicate_keys(rng):
    return Case("duplicate keys", '{"type": "move", "move": "h2e2", "type": "%s"}' % rng.choice(["x", "rm", "ls"]),
                "unknown request type")


# The game's requests: the oracle says what must come back (an error only: a case the game would accept is
# drawn again, so that the fuzzed tab's game stays the starting position and every case has one answer).
def _oracle(apply: Callable[[WebGame], object]) -> Optional[str]:
    try:
        apply(WebGame())
    except WebInputError as exc:
        return str(exc)
    return None


MOVE_WORDS = ["h2e2", "h2h9", "h0h9", "e0e1", "e0e2", "a0a9", "z9z9", "炮二平五", "炮二进七", "帅五进二", "马8进7",
              "C2.5", "C2+7", "H8+7", "Ch2e2", "P", "进", "０", "i9i0", "h2e2e2", "e3e4e5", "前炮平五"]


def bad_move(rng):
    text = rng.choice(MOVE_WORDS) if rng.random() < 0.6 else _junk(rng, rng.randrange(0, MAX_MOVE_CHARS + 1))
    expected = _oracle(lambda game: game.play(text))
    return None if expected is None else Case("bad move", json.dumps({"type": "move", "move": text}), expected)


def bad_line(rng):
    moves = [rng.choice(MOVE_WORDS) for _ in range(rng.randrange(1, 12))]
    expected = _oracle(lambda game: game.play_line(moves))
    return None if expected is None else Case("bad line", json.dumps({"type": "play_line", "moves": moves}), expected)


def _fen_mutation(rng) -> str:
    ranks, side = START_FEN.split(" ")[0].split("/"), START_FEN.split(" ")[1]
    change = rng.randrange(6)
    if change == 0:
        del ranks[rng.randrange(10)]
    elif change == 1:
        i = rng.randrange(10)
        ranks[i] += rng.choice(["1", "p", "K", "9"])
    elif change == 2:
        i = rng.randrange(10)
        ranks[i] = ranks[i].replace(rng.choice(ranks[i]), rng.choice("xyzXYZ0-+!中"), 1)
    elif change == 3:
        side = rng.choice(["z", "white", "红", "", "w w"])
    elif change == 4:
        return _junk(rng, rng.randrange(1, MAX_FEN_CHARS))
    else:
        ranks = ["9"] * 10
        ranks[rng.randrange(3)] = "4k4"
        ranks[9 - rng.randrange(3)] = rng.choice(["4K4", "3KK4", "9"])
    return "/".join(ranks) + " " + side


def bad_fen(rng):
    fen = _fen_mutation(rng)
    expected = _oracle(lambda game: game.new(fen))
    return None if expected is None else Case("bad FEN", json.dumps({"type": "new", "fen": fen}), expected)


def bad_text(rng):
    text = rng.choice(["1. h2e2 h9g7 2. zz", "[Event \"x\"]\n\n1. 炮二平五 炮二平五 *", "1. " + _junk(rng, 30),
                       "rnbakabnr/9/9 w", "[FEN \"bad\"]\n\n1. h2e2 *", "\u3000", "1. h2e2 h9g7 " * 50 + "i9i0",
                       _junk(rng, rng.randrange(1, 3000))])
    expected = _oracle(lambda game: game.load_text(text))
    return None if expected is None else Case("bad text", json.dumps({"type": "load_text", "text": text}), expected)


def bad_pgn(rng):
    if rng.random() < 0.3:
        return Case("bad base64", json.dumps({"type": "load_pgn", "data": _junk(rng, rng.randrange(1, 500))}),
                    "did not arrive whole")
    raw = rng.choice([bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000))),
                      "[Event \"x\"]\n\n1. 炮二平五 炮二平五 *".encode("gbk"), b"\xff\xfe" + "1. h2e2".encode("utf-16-le"),
                      b"[Event \"x\"]\n\n1. h2e2 h9g7 2. h2e2 *", b"", b"\x00" * 100])
    expected = _oracle(lambda game: game.load_pgn(raw))
    data = base64.b64encode(raw).decode()
    return None if expected is None else Case("bad PGN", json.dumps({"type": "load_pgn", "data": data}), expected)


def oversized_file(rng):
    raw = b"1. h2e2 " * (MAX_UPLOAD_BYTES // 8) + b"*" * rng.randrange(1, 500)
    return Case("file too large", json.dumps({"type": "load_pgn", "data": base64.b64encode(raw).decode()}),
                "the file is too large")


#: Each generator with its weight: rare ones for the costly frames (megabytes each).
GENERATORS = [(not_json, 10), (not_an_object, 5), (unknown_type, 10), (unknown_field, 8), (missing_field, 4),
              (wrong_kind, 12), (out_of_range, 6), (odd_numbers, 4), (too_long, 4), (too_many_moves, 1),
              (lone_surrogate, 3), (deeply_nested, 1), (nested_value, 2), (binary_frame, 4), (duplicate_keys, 2),
              (bad_move, 12), (bad_line, 5), (bad_fen, 5), (bad_text, 3), (bad_pgn, 3)]
#: Cases of megabytes: sent this many times in a run, whatever its length.
RARE = [(too_large, 3), (oversized_file, 2)]


def cases(seed: int, count: int) -> list[Case]:
    """`count` hostile cases, the same for the same seed."""
    rng = random.Random(seed)
    generators, weights = zip(*GENERATORS)
    out: list[Case] = []
    for generator, times in RARE:
        out.extend(generator(rng) for _ in range(times))
    while len(out) < count:
        case = rng.choices(generators, weights)[0](rng)
        if case is not None:
            out.append(case)
    rng.shuffle(out)
    return out[:count]


# -- the run -----------------------------------------------------------------------------------------------
async def fuzz_tab(tab: SocketTab, run: list[Case]) -> list[str]:
    """Send every case, each followed by its marker, without waiting; check the answers as they come.
    Returns the failures (empty when every case got its one error)."""
    async def write() -> None:
        for number, case in enumerate(run):
            await tab.socket.send(case.frame)
            await tab.socket.send(json.dumps({"type": f"{MARK}{number}"}))

    writer = asyncio.create_task(write())
    failures = []
    for number, case in enumerate(run):
        answers = []
        try:
            while True:
                answer = await tab.next(("state", "error", "file", "config"))
                if answer["type"] == "error" and f"'{MARK}{number}'" in answer["message"]:
                    break
                answers.append(answer)
        except (ConnectionError, asyncio.TimeoutError) as exc:
            writer.cancel()
            return failures + [f"case {number} ({case.kind}, {str(case.frame)[:80]!r}): {exc or 'no answer'}"]
        errors = [a for a in answers if a["type"] == "error"]
        if len(answers) != 1 or len(errors) != 1 or case.words[:MATCHED_CHARS] not in errors[0]["message"]:
            failures.append(f"case {number} ({case.kind}, {str(case.frame)[:80]!r}): expected one error with "
                            f"{case.words[:100]!r}, got {[(a['type'], a.get('message', '')[:120]) for a in answers]}")
    await writer
    return failures


async def second_tab(tab: SocketTab, fuzz_done: asyncio.Event) -> int:
    """Play the engine's first reply again and again until the fuzz is done (and SECOND_TAB_ROUNDS at least);
    every answer must be the right one. Returns the rounds played."""
    first = await tab.ask({"type": "hello", "mode": "play", "engine_color": "black", "level": 0, "movetime": 50})
    assert first["type"] == "state", first
    rounds = 0
    while rounds < SECOND_TAB_ROUNDS or not fuzz_done.is_set():
        assert (await tab.ask({"type": "new"}))["moves"] == []
        state = await tab.ask({"type": "move", "move": "h2e2"})
        assert [m["iccs"] for m in state["moves"]] == ["h2e2"], state
        state = await tab.next()                        # the engine's reply
        assert state["type"] == "state" and len(state["moves"]) == 2, state
        rounds += 1
    return rounds


async def run_fuzz(url: str, seed: int = SEED, count: int = MESSAGES) -> tuple[list[str], int]:
    from websockets.asyncio.client import connect

    address, run = socket_url(url), cases(seed, count)
    async with connect(address, max_size=None) as fuzzed, connect(address, max_size=None) as other:
        fuzz, player = SocketTab(fuzzed), SocketTab(other)
        assert (await fuzz.ask({"type": "hello", "mode": "free"}))["type"] == "state"
        done = asyncio.Event()
        playing = asyncio.create_task(second_tab(player, done))
        failures = await fuzz_tab(fuzz, run)
        done.set()
        rounds = await playing
        # the fuzzed tab plays on: its game is the starting position, as every case was refused
        state = await fuzz.ask({"type": "move", "move": "炮二平五"})
        if state["type"] != "state" or [m["iccs"] for m in state["moves"]] != ["h2e2"]:
            failures.append(f"the fuzzed tab does not play on: {state}")
    return failures, rounds


# -- the tests ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("starlette", reason="starlette (the [web] extra) is not installed")
    pytest.importorskip("uvicorn", reason="uvicorn (the [web] extra) is not installed")
    pytest.importorskip("websockets.asyncio.client", reason="websockets >= 13 (the [web] extra) is not installed")
    from support.web import serve

    yield from serve(tmp_path_factory.mktemp("web-fuzz"))


def test_the_cases_are_the_same_for_the_same_seed_and_all_kinds_are_drawn():
    first, again = cases(SEED, 2000), cases(SEED, 2000)
    assert [c.frame for c in first] == [c.frame for c in again]
    assert {c.kind for c in first} >= {"not JSON", "binary", "nested", "bad move", "bad FEN", "bad PGN", "too large"}


@pytest.mark.slow
def test_ten_thousand_hostile_requests_each_get_an_error_and_the_other_tab_plays_on(server):
    failures, rounds = asyncio.run(run_fuzz(server))
    assert not failures, f"{len(failures)} of {MESSAGES} cases failed; the first: " + "\n".join(failures[:10])
    assert rounds >= SECOND_TAB_ROUNDS


@pytest.mark.slow
def test_a_frame_beyond_the_limit_closes_only_its_connection(server):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from engine.web.protocol import MAX_FRAME_BYTES

    async def scenario() -> tuple:
        address = socket_url(server)
        async with connect(address, max_size=None) as bystander:
            other = SocketTab(bystander)
            await other.ask({"type": "hello", "mode": "free"})
            async with connect(address, max_size=None) as socket:
                try:
                    await socket.send("x" * (MAX_FRAME_BYTES + 1))
                    await asyncio.wait_for(socket.recv(), HANG_GUARD)
                except ConnectionClosed:
                    pass
                code = socket.close_code
            state = await other.ask({"type": "move", "move": "h2e2"})
        return code, state

    code, state = asyncio.run(scenario())
    assert code == 1009                                 # "message too big"
    assert [m["iccs"] for m in state["moves"]] == ["h2e2"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the page of a running jiangjun web (http://127.0.0.1:PORT/)")
    parser.add_argument("--messages", type=int, default=MESSAGES)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    failures, rounds = asyncio.run(run_fuzz(args.url, args.seed, args.messages))
    print(f"{args.messages} cases, seed {args.seed}: {len(failures)} failed; the second tab played {rounds} rounds")
    for failure in failures[:20]:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
