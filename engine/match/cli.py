"""`jiangjun match`: the command line in the style of cutechess-cli and fastchess, read by the option table
(engine.match.options) into a MatchConfig, and the help text and docs/match.md's option reference generated
from the same table.

    jiangjun match -engine cmd=jiangjun name=jj -engine cmd=/usr/games/fairy-stockfish proto=ucci \\
        -each tc=10+0.1 option.Hash=64 -games 2 -rounds 50 -repeat -concurrency 2 -pgnout games.pgn

    python -m engine.match.cli --markdown [docs/match.md]   # the reference; with a file: rewrite its copy
"""
from __future__ import annotations

import sys
import textwrap
from typing import Any, Optional, Sequence

from ..client import XBOARD_NAMES, EngineConfig
from ..cluster import ClusterError
from .openings import OpeningError, default_book, load_openings
from .options import BY_FLAG, TABLE, Key, MatchOption, UsageError, prefixed, read_command_line, read_settings
from .referee import Adjudication
from .runner import EngineSpec, Match, MatchConfig
from .stats import Sprt
from .timecontrol import TimeControl, TimeControlError

__all__ = ["UsageError", "build_config", "help_text", "main", "markdown_reference", "parse_args"]

#: Where docs/match.md's copy of the reference begins and ends.
DOCS_BEGIN = "<!-- option reference: generated from engine/match/options.py by python -m engine.match.cli --markdown -->"
DOCS_END = "<!-- end of the option reference -->"


class HelpRequested(UsageError):
    """-help: print the help, and nothing else."""


def main(argv: Sequence[str]) -> int:
    try:
        config = parse_args(list(argv))
    except HelpRequested:
        print(help_text())
        return 0
    except (UsageError, TimeControlError, OpeningError) as exc:
        print(f"jiangjun match: {exc}", file=sys.stderr)
        print("(jiangjun match -help lists the options)", file=sys.stderr)
        return 2
    try:
        Match(config).run()
    except ValueError as exc:      # also a journal of another match (engine.match.journal.JournalError)
        print(f"jiangjun match: {exc}", file=sys.stderr)
        return 2
    except ClusterError as exc:
        print(f"jiangjun match: {exc}", file=sys.stderr)
        return 1
    return 0


def parse_args(argv: list[str]) -> MatchConfig:
    """Turn cutechess-style arguments into a MatchConfig."""
    return build_config(read_command_line(argv))


# -- the values of the table into a MatchConfig -------------------------------------------------------------
def build_config(values: dict[str, Any]) -> MatchConfig:
    """The MatchConfig of the options' values (engine.match.options.read_command_line)."""
    if values["help"]:
        raise HelpRequested("help requested")
    pgn = _settings("-pgnout", values) or {}
    sprt = _settings("-sprt", values)
    each = values["each"] or {}
    engines = [_engine_spec({**each, **own}, values["tc"], values["scale"]) for own in values["engine"]]
    if len(engines) < 2:
        raise UsageError("a match needs at least two -engine options")
    openings = _settings("-openings", values)
    return MatchConfig(
        engines=engines, openings=_openings(openings), tournament=values["tournament"],
        games=values["games"], rounds=values["rounds"], concurrency=values["concurrency"],
        repeat=values["repeat"], random_order=openings is not None and openings["order"] == "random",
        seed=values["seed"], adjudication=_adjudication(values),
        sprt=None if sprt is None else Sprt(sprt["elo0"], sprt["elo1"], sprt["alpha"], sprt["beta"]),
        pgn_path=pgn.get("FILE"), pgn_notation=pgn.get("notation", "iccs"), time_margin=values["timemargin"] / 1000,
        event=values["event"], cluster=values["cluster"], resume_path=values["resume"],
    )


def _settings(flag: str, values: dict[str, Any]) -> Optional[dict[str, Any]]:
    row = BY_FLAG[flag]
    return read_settings(row, values[row.name])


def _openings(settings: Optional[dict[str, Any]]) -> list:
    if settings is None:
        return default_book()
    return load_openings(settings["file"], settings.get("format"), settings["encoding"])


def _adjudication(values: dict[str, Any]) -> Adjudication:
    """-draw, -resign and -maxmoves; or -noadjudicate, which takes none of them."""
    draw, resign = _settings("-draw", values), _settings("-resign", values)
    if values["noadjudicate"]:
        given = [flag for flag, value in (("-draw", draw), ("-resign", resign), ("-maxmoves", values["maxmoves"]))
                 if value]
        if given:
            raise UsageError(f"-noadjudicate adjudicates nothing: it cannot go with {' or '.join(given)}")
        return Adjudication(rules_only=True)
    adjudication = Adjudication(max_moves=values["maxmoves"])
    if draw is not None:
        adjudication.draw_movenumber, adjudication.draw_movecount, adjudication.draw_score = (
            draw["movenumber"], draw["movecount"], draw["score"])
    if resign is not None:
        adjudication.resign_movecount, adjudication.resign_score, adjudication.resign_twosided = (
            resign["movecount"], resign["score"], resign["twosided"])
    return adjudication


def _engine_spec(given: dict[str, Any], global_tc: Optional[str], scale: float) -> EngineSpec:
    """An engine of -engine's settings merged over -each's: how to start it and its time control."""
    settings = read_settings(BY_FLAG["-engine"], given)
    assert settings is not None
    config = EngineConfig(cmd=settings["cmd"], name=settings.get("name"), proto=settings["proto"],
                          options=prefixed(settings, "option."), workdir=settings.get("dir"),
                          rank_base=settings.get("ranks"))
    who = f"engine {config.name or config.cmd}"
    tc_text = settings.get("tc") or global_tc
    for limit in ("st", "depth", "nodes"):       # a limit of its own wins over any tc
        if limit in settings:
            tc_text = f"{limit}={settings[limit]}"
            break
    if not tc_text:
        raise UsageError(f"no time control for {who}: use -tc or tc=")
    tc = TimeControl.parse(tc_text, scale=scale)
    if config.proto in XBOARD_NAMES:
        # What CECP cannot say (engine.client.cecp): a node limit, and st in fractions of a second.
        if tc.nodes is not None:
            raise UsageError(f"{who}: an XBoard engine takes no node limit")
        if tc.movetime is not None and (tc.movetime < 1 or not float(tc.movetime).is_integer()):
            raise UsageError(f"{who}: an XBoard engine's st is whole seconds, not {tc.movetime:g}")
    return EngineSpec(config, tc)


# -- the help text and the docs' reference, from the table ---------------------------------------------------
def usage(row: MatchOption) -> str:
    """How an option is written: ``-games N``, ``-pgnout FILE [notation=iccs|wxf|chinese|san]``."""
    if row.takes == "flag":
        return row.flag
    if row.takes in ("value", "words"):
        return f"{row.flag} {row.metavar or '|'.join(row.choices)}"
    if row.repeated or row.merged:
        return f"{row.flag} KEY=VALUE ..."
    words = [row.first.name] if row.first is not None else []
    words += [key.spelling() if key.required else f"[{key.spelling()}]" for key in row.keys]
    return " ".join([row.flag, *words])


def _shown(value: Any) -> str:
    """A default as it is written on the command line: ``true``, ``0.05``, ``iccs``."""
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


def _default_text(row: MatchOption) -> str:
    if row.takes in ("flag", "settings") or row.default is None:
        return ""
    return _shown(row.default)


def help_text(width: int = 110) -> str:
    """`jiangjun match -help`."""
    lines = ["usage: jiangjun match -engine cmd=CMD [KEY=VALUE ...] -engine ... [options]", ""]
    for row in TABLE:
        default = _default_text(row)
        lines += _help_entry(usage(row), row.help + (f" (default {default})" if default else ""), 2, width)
        if row.takes == "settings" and not row.merged:
            for key in row.keys:
                lines += _help_entry(key.spelling(), _key_help(key), 6, width)
    return "\n".join(lines)


def _key_help(key: Key) -> str:
    default = "" if key.default is None else f" (default {_shown(key.default)})"
    return key.help + default + (" (required)" if key.required else "")


def _help_entry(left: str, text: str, indent: int, width: int) -> list[str]:
    """``  -games N                 games per pair ...``, the text wrapped in its column."""
    column = 30
    head = " " * indent + left
    wrapped = textwrap.wrap(text, width - column)
    if len(head) + 2 > column:
        return [head] + [" " * column + line for line in wrapped]
    return [head.ljust(column) + wrapped[0]] + [" " * column + line for line in wrapped[1:]]


def markdown_reference() -> str:
    """docs/match.md's option reference: a table of the options, then one of an engine's settings."""
    lines = [DOCS_BEGIN, "", "| option | meaning | default |", "|---|---|---|"]
    for row in TABLE:
        keys = "" if row.repeated or row.merged or row.takes != "settings" else "; ".join(
            f"`{key.name}`: {_key_help(key)}" for key in row.keys)
        meaning = row.help + (f". {keys}" if keys else "")
        lines.append(f"| `{_cell(usage(row))}` | {_cell(meaning)} | {_cell(_default_text(row))} |")
    lines += ["", "An engine's settings (`-engine`, `-each`):", "", "| setting | meaning | default |", "|---|---|---|"]
    for key in BY_FLAG["-engine"].keys:
        default = "" if key.default is None else _shown(key.default)
        lines.append(f"| `{_cell(key.spelling())}` | {_cell(key.help)} | {_cell(default)} |")
    return "\n".join(lines + ["", DOCS_END])


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def with_reference(document: str) -> str:
    """`document` (docs/match.md) with its copy of the reference replaced by the table's."""
    start, end = document.find(DOCS_BEGIN), document.find(DOCS_END)
    if start < 0 or end < start:
        raise ValueError(f"no generated option reference ({DOCS_BEGIN} ... {DOCS_END}) in the document")
    return document[:start] + markdown_reference() + document[end + len(DOCS_END):]


if __name__ == "__main__":
    if sys.argv[1:2] != ["--markdown"]:
        sys.exit("usage: python -m engine.match.cli --markdown [FILE]  (FILE: rewrite its option reference)")
    if len(sys.argv) > 2:
        with open(sys.argv[2], encoding="utf-8") as handle:
            text = with_reference(handle.read())
        with open(sys.argv[2], "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        print(markdown_reference())
