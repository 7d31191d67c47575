"""The PGN of one match game: its tags, and its moves with the engines' comments.

Beside the roster (`Red`, `Black`: the display names, `-engine name=` or else the engine's `id name`)
every game names the engines that played and how they were set, in four tags of its own:

* ``RedEngine``, ``BlackEngine``: the engine's own name, its UCI/UCCI `id name` (the command when it
  gave none). This project's engine names itself with its version and commit, ``jiangjun 0.1.0
  (5a2f245)`` (engine.version), so the PGN says which build played.
* ``RedOptions``, ``BlackOptions``: every option the client set, in the order sent, as ``name=value``
  separated by ``; `` (``UCI_Variant=xiangqi; OwnBook=false; Hash=64``); empty when none was set.

A game whose engine could not be started has neither pair.

Each side's time control is the ``TimeControl`` tag when both play the same, else ``RedTimeControl`` and
``BlackTimeControl`` (cutechess's WhiteTimeControl and BlackTimeControl, named by side as the engine tags
are): a time-odds match (`-engine ... tc=20+0.2`) says who had which clock.
"""
from __future__ import annotations

import datetime

from ..fen import START_FEN
from .record import EngineIdentity, GameRecord


def options_text(options: dict[str, str]) -> str:
    """The value of an `...Options` tag: ``name=value; name=value``."""
    return "; ".join(f"{name}={value}" for name, value in options.items())


def engine_tags(identities: list[EngineIdentity]) -> dict[str, str]:
    """The RedEngine/BlackEngine and RedOptions/BlackOptions tags of a game's engines."""
    if len(identities) != 2:
        return {}
    tags = {}
    for side, identity in zip(("Red", "Black"), identities):
        tags[f"{side}Engine"] = identity.id_name
    for side, identity in zip(("Red", "Black"), identities):
        tags[f"{side}Options"] = options_text(identity.options)
    return tags


def time_control_tags(red: str, black: str) -> dict[str, str]:
    """The tags of the two sides' time controls (their PGN forms, TimeControl.pgn_tag)."""
    if red == black:
        return {"TimeControl": red}
    return {"RedTimeControl": red, "BlackTimeControl": black}


def game_pgn(record: GameRecord, round_number: int, event: str, time_controls: tuple[str, str],
             notation: str) -> str:
    """The PGN text of a finished game, in `notation` (engine.pgn.write_game's); `time_controls`: Red's
    and Black's."""
    from ..pgn import Game, write_game
    from ..pgn.xboard import eval_comment

    headers = {
        "Game": "Chinese Chess",
        "Event": event,
        "Site": "?",
        "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": str(round_number),
        "Red": record.red,
        "Black": record.black,
        "Result": record.result,
    }
    if record.opening.fen != START_FEN:
        headers["FEN"] = record.opening.fen
    headers["Opening"] = record.opening.name
    headers.update(time_control_tags(*time_controls))
    headers["Termination"] = record.termination.words if record.termination is not None else ""
    headers["PlyCount"] = str(len(record.moves))
    headers.update(engine_tags(record.identities))
    comments = list(record.comments)
    if notation == "san":  # XBoard's own comments, {+0.12/9 4}, which it reads back
        comments = [comment if note is None else eval_comment(note.score, note.depth, (note.time_ms or 0) / 1000)
                    for comment, note in zip(comments, record.evals)]
    game = Game(headers=headers, moves=list(record.moves), comments=comments,
                result=record.result, start_comment=record.detail)
    return write_game(game, notation=notation)
