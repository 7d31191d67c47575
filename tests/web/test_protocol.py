"""engine.web.protocol: every request the page may send checked whole, every other refused with its reason."""
from __future__ import annotations

import json

import pytest

from engine.web.protocol import (MAX_LINE_MOVES, MAX_MESSAGE_CHARS, MAX_MOVE_CHARS, QUOTED_CHARS, REQUESTS,
                                 BadRequest, decode, quoted)


def refused(text, data=None) -> str:
    with pytest.raises(BadRequest) as caught:
        decode(text, data)
    return str(caught.value)


def test_the_page_requests_pass_as_they_are():
    for request in ({"type": "hello", "mode": "play", "engine_color": "black", "level": 3, "movetime": 200,
                     "analysis_ms": 2000, "multipv": 3},
                    {"type": "move", "move": "炮二平五"}, {"type": "play_line", "moves": ["h2e2", "h9g7"]},
                    {"type": "undo"}, {"type": "new"}, {"type": "new", "fen": "9/9/9/9/9/9/9/9/9/9 w"},
                    {"type": "load_text", "text": "1. h2e2"}, {"type": "load_pgn", "data": "AAAA"},
                    {"type": "choose", "index": 0}, {"type": "truncate", "plies": 0}, {"type": "review"},
                    {"type": "engine_move"}, {"type": "save_pgn", "notation": "wxf"}, {"type": "save_svg", "flip": True}):
        assert decode(json.dumps(request)) == request


@pytest.mark.parametrize("text, words", [
    ("{not json", "malformed: not JSON"),
    ("[1, 2]", "a JSON object with a type is expected, not list"),
    ('"move"', "not str"),
    ("{}", "unknown request type null"),
    ('{"type": 7}', "unknown request type 7"),
    ('{"type": "rm -rf /"}', "unknown request type 'rm -rf /'"),
    ('{"type": "move"}', "move: the field move is missing"),
    ('{"type": "move", "move": 5}', "move: move must be text, not 5"),
    ('{"type": "move", "move": "h2e2", "engine": "/bin/sh"}', "move: unknown field 'engine'"),
    ('{"type": "undo", "a": 1, "b": 2}', "unknown field 'a' (and 1 more)"),
    ('{"type": "settings", "level": true}', "level must be a whole number, not true"),
    ('{"type": "settings", "level": 2.0}', "level must be a whole number, not 2.0"),
    ('{"type": "settings", "level": 21}', "level must be from 0 to 20, not 21"),
    ('{"type": "settings", "movetime": NaN}', "NaN is not a number"),
    ('{"type": "settings", "movetime": -Infinity}', "-Infinity is not a number"),
    ('{"type": "settings", "mode": ["play"]}', "mode must be one of play, analyse, free, not a list"),
    ('{"type": "save_svg", "flip": "yes"}', "flip must be true or false, not 'yes'"),
    ('{"type": "play_line", "moves": "h2e2"}', "moves must be a list of moves"),
    ('{"type": "play_line", "moves": [1]}', "moves[0] must be text, not 1"),
    ('{"type": "choose", "index": -1}', "index must be from 0"),
    ('{"type": "move", "move": "\\ud800"}', "lone surrogate"),
    ('{"type": "settings", "level": ' + "9" * 5000 + "}", "malformed: not JSON"),
])
def test_a_bad_request_is_refused_with_its_reason(text, words):
    assert words in refused(text)


def test_sizes_are_bounded_before_reading():
    assert "too large" in refused(" " * (MAX_MESSAGE_CHARS + 1))
    assert "too long" in refused(json.dumps({"type": "move", "move": "a" * (MAX_MOVE_CHARS + 1)}))
    assert "too many moves" in refused(json.dumps({"type": "play_line", "moves": ["h2e2"] * (MAX_LINE_MOVES + 1)}))
    assert "binary frame (3 bytes)" in refused(None, b"abc")
    assert "nested too deeply" in refused("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in refused('{"a":' * 100_000 + "1" + "}" * 100_000)


def test_a_message_quotes_little_of_what_was_sent():
    message = refused(json.dumps({"type": "x" * 1_000_000}))
    assert len(message) < 300 and "…" in message
    assert len(quoted("y" * 10_000)) == QUOTED_CHARS + 1


def test_every_request_type_has_a_handler():
    pytest.importorskip("starlette", reason="starlette (the [web] extra) is not installed")
    from engine.web.app import Tab

    assert all(callable(getattr(Tab, f"on_{kind}", None)) for kind in REQUESTS)
