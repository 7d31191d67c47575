"""Fake XBoard (CECP) engine: random legal moves, and every fault on demand (a test helper, not an engine).

It keeps the game as an XBoard engine does: `new` (it plays Black), `force`, `go` (it plays the side to
move), moves (``usermove m``, or bare with --no-usermove), `setboard`, `ping`, `result`, `quit`.

Flags (all optional):
  --seed N          seed of the random moves (default 1)
  --at N            the search on which the fault below happens (default 2; counted over the process)
  --ranks 0|1       its rank numbering (default 0)
  --no-usermove     no feature usermove=1: moves come bare
  --no-ping         no feature ping=1
  --no-setboard     no feature setboard=1
  --v1              no features at all (a protocol 1 engine)
  --done0           feature done=0 first, done=1 after half a second
  --variants TEXT   the variants feature (default "xiangqi")
  --name TEXT       myname
  --option TEXT     one `feature option=` value (repeatable), e.g. "Hash -spin 16 1 1024"
  --claim TEXT      at search --at: print TEXT (e.g. "1-0 {White mates}") after its move
  --claim-only TEXT at search --at: print TEXT instead of a move
  --resign          at search --at: print `resign` instead of a move
  --offer-draw      at every search: `offer draw` before the move
  --crash           at search --at: exit
  --hang            at search --at: never answer (until `?` is ignored too)
  --illegal         at search --at: play a move of the opponent's pieces
  --refuse          refuse the --at-th move it receives with `Illegal move: m`
  --log PATH        append every received line to PATH
"""
from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if any((ROOT / "engine").glob("_core*.so")) and str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import Position  # noqa: E402


class Fake:
    def __init__(self, argv: list[str]) -> None:
        self.seed, self.at, self.ranks = 1, 2, 0
        self.usermove = self.ping = self.setboard = True
        self.v1 = self.done0 = self.resign = self.offer_draw = self.crash = self.hang = False
        self.illegal = self.refuse = False
        self.variants, self.name = "xiangqi", "FakeXboard"
        self.options: list[str] = []
        self.claim = self.claim_only = None
        self.log = None
        args = list(argv)
        while args:
            flag = args.pop(0)
            if flag in ("--seed", "--at", "--ranks"):
                setattr(self, flag[2:], int(args.pop(0)))
            elif flag in ("--variants", "--name", "--log", "--claim"):
                setattr(self, flag[2:], args.pop(0))
            elif flag == "--claim-only":
                self.claim_only = args.pop(0)
            elif flag == "--option":
                self.options.append(args.pop(0))
            elif flag.startswith("--no-"):
                setattr(self, flag[5:], False)
            else:
                setattr(self, flag[2:].replace("-", "_"), True)
        self.rng = random.Random(self.seed)
        self.position = Position()
        self.force = False
        self.plays = "black"
        self.searches = 0
        self.received_moves = 0

    def say(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def note(self, line: str) -> None:
        if self.log:
            with open(self.log, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")

    # -- moves in its numbering ----------------------------------------------------------------------------
    def out(self, move: str) -> str:
        return f"{move[0]}{int(move[1]) + self.ranks}{move[2]}{int(move[3]) + self.ranks}"

    def read(self, text: str):
        import re

        m = re.match(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})$", text)
        if not m:
            return None
        r1, r2 = int(m.group(2)) - self.ranks, int(m.group(4)) - self.ranks
        if not (0 <= r1 <= 9 and 0 <= r2 <= 9):
            return None
        return f"{m.group(1)}{r1}{m.group(3)}{r2}"

    # -- the protocol -------------------------------------------------------------------------------------
    def loop(self) -> None:
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
            if cmd == "protover":
                self.features()
            elif cmd == "new":
                self.position, self.force, self.plays = Position(), False, "black"
            elif cmd == "force":
                self.force = True
            elif cmd == "go":
                self.force = False
                self.plays = self.position.turn.value
                self.think()
            elif cmd == "setboard":
                self.position = Position(" ".join(words[1:]))
            elif cmd == "ping" and len(words) > 1:
                self.say(f"pong {words[1]}")
            elif cmd == "result":
                self.force = True
            elif cmd == "quit":
                return
            elif cmd == "usermove" and len(words) > 1:
                self.user_move(words[1])
            elif self.read(cmd) is not None:
                if self.usermove:
                    self.say(f"Error (unknown command): {cmd}")
                else:
                    self.user_move(cmd)
            # xboard, accepted, rejected, variant, level, st, sd, time, otim, easy, post, option, memory,
            # cores, ?: nothing to do

    def features(self) -> None:
        if self.v1:
            return
        flags = [f"ping={int(self.ping)}", f"setboard={int(self.setboard)}", f"usermove={int(self.usermove)}",
                 "time=1", "sigint=0", "sigterm=0", "colors=0", "memory=1", "smp=1", "sjef=1",
                 f'myname="{self.name}"', f'variants="{self.variants}"']
        self.say("feature " + " ".join(flags))
        for option in self.options:
            self.say(f'feature option="{option}"')
        if self.done0:
            self.say("feature done=0")
            time.sleep(0.5)
        self.say("feature done=1")

    def user_move(self, text: str) -> None:
        self.received_moves += 1
        move = self.read(text)
        if move is None or not self.position.is_legal(move) or (self.refuse and self.received_moves == self.at):
            self.say(f"Illegal move: {text}")
            return
        self.position.push(move)
        if not self.force and self.position.turn.value == self.plays:
            self.think()

    def think(self) -> None:
        self.searches += 1
        now = self.searches == self.at
        if self.offer_draw:
            self.say("offer draw")
        if now and self.crash:
            sys.stdout.flush()
            os._exit(3)
        if now and self.hang:
            while True:
                time.sleep(1)
        if now and self.resign:
            self.say("resign")
            return
        if now and self.claim_only:
            self.say(self.claim_only)
            return
        moves = sorted(self.position.legal_moves())
        if not moves:
            self.say("0-1 {Black mates}" if self.position.turn.value == "red" else "1-0 {White mates}")
            return
        move = self.rng.choice(moves)
        if now and self.illegal:
            move = self.illegal_move() or move
            self.say(f"1 7 0 20\t{self.out(move)}")
            self.say(f"move {self.out(move)}")
            return
        self.say(f"1 7 0 20 1 2000 0\t{self.out(move)}")
        self.position.push(move)
        self.say(f"move {self.out(move)}")
        if now and self.claim:
            self.say(self.claim)

    def illegal_move(self):
        fields = self.position.fen().split()
        fields[1] = "b" if fields[1] == "w" else "w"
        mine = set(self.position.legal_moves())
        try:
            theirs = sorted(Position(" ".join(fields)).legal_moves())
        except Exception:
            return None
        return next((m for m in theirs if m not in mine), None)


if __name__ == "__main__":
    fake = Fake(sys.argv[1:])
    try:
        fake.loop()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    sys.stdout.flush()
    os._exit(0)
