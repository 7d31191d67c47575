"""The protocol loop shared by the fake engines in this directory (test helpers, not real engines).

Each fake is a script calling ``run(name, behaviour)``; ``behaviour(go)`` is called for every ``go`` and returns
the move to print (ICCS, ranks 0..9) or None for "no move" (UCI ``bestmove (none)``, UCCI ``nobestmove``). It may
also misbehave itself (sleep, exit). The fakes answer whichever handshake they get (``uci`` or ``ucci``).

Command-line flags (all optional):
  --seed N        seed of the random move choice (default 1)
  --at N          the go on which the fake misbehaves (default 2; counted over the process lifetime)
  --ucci-only     exit at once when the first command is not ``ucci`` (as ElephantEye does)
  --silent-uci    ignore ``uci`` silently (a UCCI engine that does not know it)
  --no-millisec   in UCCI, do not advertise ``usemillisec`` (so times arrive in seconds)
  --name TEXT     the ``id name`` to print
  --log PATH      append every received line to PATH (tests read it to check what was sent)
  --stderr        write a line to stderr for every go (to check that stderr cannot block the engine)
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[2]
# Use this checkout when its extension is built in place (development); otherwise the installed
# package (CI installs it, and the checkout then has no compiled engine._core).
if any((ROOT / "engine").glob("_core*.so")) and str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import START_FEN, Position  # noqa: E402

NUMERIC = {"wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "time", "increment",
           "opptime", "oppincrement", "oppmovestogo", "mate"}


class Go:
    """What a behaviour function sees for one go."""

    def __init__(self, fake: "Fake", params: Dict[str, float], flags: List[str]) -> None:
        self.fake = fake
        self.proto: str = fake.proto
        self.count: int = fake.gos
        self.at: int = fake.at
        self.position: Position = fake.position.copy()
        self.params = params
        self.flags = flags
        self.rng = fake.rng

    @property
    def misbehave(self) -> bool:
        """Whether this is the go on which the fake misbehaves."""
        return self.count == self.at

    def random_move(self) -> Optional[str]:
        moves = sorted(self.position.legal_moves())
        return self.rng.choice(moves) if moves else None

    def illegal_move(self) -> str:
        """A move of one of the opponent's pieces (legal for the opponent, so well formed but illegal here)."""
        fields = self.position.fen().split()
        fields[1] = "b" if fields[1] == "w" else "w"
        try:
            theirs = sorted(Position(" ".join(fields)).legal_moves())
        except Exception:
            theirs = []
        mine = set(self.position.legal_moves())
        for move in theirs:
            if move not in mine:
                return move
        return "a0a0"

    def remaining_ms(self) -> Optional[float]:
        """The time the engine was given for this move, in ms (its clock, or movetime)."""
        p = self.params
        if self.proto == "uci":
            if "movetime" in p:
                return p["movetime"]
            key = "wtime" if self.position.turn == "red" else "btime"
            return p.get(key)
        if "time" in p:
            return p["time"] * (1 if self.fake.millisec else 1000)
        return None


class Fake:
    def __init__(self, name: str, behaviour: Callable[[Go], Optional[str]], argv: List[str]) -> None:
        self.name = name
        self.behaviour = behaviour
        self.proto = ""
        self.gos = 0
        self.position = Position()
        self.millisec = False
        self.seed, self.at = 1, 2
        self.ucci_only = self.silent_uci = self.no_millisec = self.stderr = False
        self.log: Optional[str] = None
        args = list(argv)
        while args:
            flag = args.pop(0)
            if flag == "--seed":
                self.seed = int(args.pop(0))
            elif flag == "--at":
                self.at = int(args.pop(0))
            elif flag == "--name":
                self.name = args.pop(0)
            elif flag == "--log":
                self.log = args.pop(0)
            elif flag == "--ucci-only":
                self.ucci_only = True
            elif flag == "--silent-uci":
                self.silent_uci = True
            elif flag == "--no-millisec":
                self.no_millisec = True
            elif flag == "--stderr":
                self.stderr = True
        self.rng = random.Random(self.seed)

    def say(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def note(self, line: str) -> None:
        if self.log:
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    def loop(self) -> None:
        first = True
        while True:
            raw = sys.stdin.readline()
            if not raw:
                return
            line = raw.strip()
            self.note(line)
            words = line.split()
            if not words:
                continue
            cmd = words[0]
            if first and self.ucci_only and cmd != "ucci":
                return
            first = False
            if cmd == "uci":
                if self.silent_uci:
                    continue
                self.proto = "uci"
                self.say(f"id name {self.name}")
                self.say("id author jiangjun tests")
                self.say("option name Hash type spin default 16 min 1 max 1024")
                self.say("option name Ponder type check default false")
                self.say("uciok")
            elif cmd == "ucci":
                self.proto = "ucci"
                self.say(f"id name {self.name}")
                self.say("id author jiangjun tests")
                if not self.no_millisec:
                    self.say("option usemillisec type check default true")
                self.say("option hashsize type spin min 1 max 1024 default 16")
                self.say("option newgame type button")
                self.say("ucciok")
            elif cmd == "isready":
                self.say("readyok")
            elif cmd == "setoption":
                if self.proto == "ucci" and len(words) >= 2 and words[1] == "usemillisec":
                    self.millisec = len(words) < 3 or words[2].lower() in ("true", "on")
            elif cmd == "position":
                self.set_position(words[1:])
            elif cmd == "go":
                self.go(words[1:])
            elif cmd == "quit":
                if self.proto == "ucci":
                    self.say("bye")
                return
            # stop, ucinewgame, ponderhit, banmoves ... : nothing to do (searches are instant)

    def set_position(self, words: List[str]) -> None:
        try:
            if "moves" in words:
                cut = words.index("moves")
                head, moves = words[:cut], words[cut + 1:]
            else:
                head, moves = words, []
            if head and head[0] == "startpos":
                position = Position(START_FEN)
            elif head and head[0] == "fen":
                position = Position(" ".join(head[1:]))
            else:
                raise ValueError("expected startpos or fen")
            for move in moves:
                position.push(move)
            self.position = position
        except Exception as exc:
            self.say(f"info string bad position: {exc}")

    def go(self, words: List[str]) -> None:
        self.gos += 1
        params: Dict[str, float] = {}
        flags: List[str] = []
        i = 0
        while i < len(words):
            if words[i] in NUMERIC and i + 1 < len(words):
                params[words[i]] = float(words[i + 1])
                i += 2
            else:
                flags.append(words[i])
                i += 1
        if self.stderr:
            sys.stderr.write(f"go #{self.gos}: " + "x" * 200 + "\n")
            sys.stderr.flush()
        move = self.behaviour(Go(self, params, flags))
        if move is None:
            if self.proto == "ucci":
                self.say("nobestmove")
            else:
                self.say("info depth 0 score mate 0")
                self.say("bestmove (none)")
            return
        if self.proto == "ucci":
            self.say(f"info depth 1 score 7 pv {move}")
            self.say("info time 0 nodes 20")
        else:
            self.say(f"info depth 1 seldepth 1 multipv 1 score cp 7 nodes 20 time 0 pv {move}")
        self.say(f"bestmove {move}")


def run(name: str, behaviour: Callable[[Go], Optional[str]]) -> None:
    fake = Fake(name, behaviour, sys.argv[1:])
    try:
        fake.loop()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    sys.stdout.flush()
    os._exit(0)
