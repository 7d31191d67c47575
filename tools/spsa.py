"""SPSA tuning of the search's parameters (ext/params.pxi) by self-play, as fishtest tunes Stockfish.

    python tools/spsa.py run --params rfp_margin futility_margin lmr_scale --iterations 2000 \\
        --tc nodes=20000 --concurrency 2 --state spsa.json
    python tools/spsa.py run --state spsa.json                # go on where a stopped run left off
    python tools/spsa.py show --state spsa.json               # the values now, and how far they moved
    python tools/spsa.py apply --state spsa.json              # write them into ext/params.pxi as defaults

Each iteration k perturbs every tuned parameter by +-c_k (the signs drawn at random), plays one game pair
between the engine with the plus values and the engine with the minus values (one opening, both
colours), and moves every value by a_k * result * sign / c_k, where result is the plus engine's wins
less its losses in the pair (-2..2). A pair with a game that an engine lost by failing (it did not
start, crashed or hung) is not counted and is played again; three batches in a row without a counted
pair stop the run. The gains follow fishtest's schedule:

    c_k = c / k^gamma,  a_k = a / (A + k)^alpha,  gamma = 0.101, alpha = 0.602, A = 0.1 N (N iterations)

with c chosen so that c_N is the parameter's `c_end` (by default a tenth of its value) and a so
that a_N / c_N^2 is `r_end` (0.002, fishtest's default). Integer parameters are played rounded.

The engines are this project's (`python -m engine` with JIANGJUN_TUNE=1, which offers every search
parameter as a spin option; --engine for another command) and the games are the match runner's
(engine.match: the rules, adjudication, clocks or node limits). `--concurrency N` plays N game pairs at
once, each with its own perturbation; `--cluster tcp://HOST:8786` or `local:N` plays them on a Dask
cluster (jiangjun[cluster]). The state file is written after every batch, so a run can be stopped and
resumed; a tuned set is kept only after an SPRT against the defaults (CONTRIBUTING.md).
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shlex
import sys
import tempfile
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.client import EngineConfig  # noqa: E402
from engine.match.endings import MatchTermination  # noqa: E402
from engine.match.record import GameRecord  # noqa: E402
from engine.match.referee import Adjudication  # noqa: E402
from engine.match.openings import Opening, default_book, load_openings  # noqa: E402
from engine.match.table import EngineSpec, GameRules, GameTable, Job  # noqa: E402
from engine.match.timecontrol import TimeControl  # noqa: E402

PARAMS_FILE = ROOT / "ext" / "params.pxi"
ALPHA = 0.602
GAMMA = 0.101
R_END = 0.002
MAX_BATCHES_WITHOUT_A_PAIR = 3   # then the engines cannot play: stop rather than spin through the schedule
# Games that say nothing about the parameters: an engine that did not start, died or stopped answering.
# A pair with one of them (or an unfinished game) is played again rather than counted.
FAILURES = (MatchTermination.CRASH, MatchTermination.HANG, MatchTermination.PROTOCOL_ERROR)


@dataclass
class Tuned:
    """One parameter under tuning: its current value (a float between its bounds) and its gains."""

    name: str
    value: float
    minimum: int
    maximum: int
    c_end: float
    r_end: float = R_END
    start: float = 0.0        # the value the run began with

    def clamp(self, value: float) -> float:
        return min(max(value, self.minimum), self.maximum)


@dataclass
class SpsaState:
    """A run: its parameters, its schedule and how far it has come (the JSON state file)."""

    params: list[Tuned]
    iterations: int
    tc: str
    seed: int = 1
    done: int = 0                              # iterations finished
    pairs: list[float] = field(default_factory=list)   # each iteration's result, -2..2

    # -- the schedule -----------------------------------------------------------------------
    @property
    def stability(self) -> float:
        """A: a tenth of the run, which keeps the first steps from being the largest by far."""
        return 0.1 * self.iterations

    def c_k(self, param: Tuned, k: int) -> float:
        return param.c_end * self.iterations ** GAMMA / k ** GAMMA

    def a_k(self, param: Tuned, k: int) -> float:
        a_end = param.r_end * param.c_end ** 2
        return a_end * (self.stability + self.iterations) ** ALPHA / (self.stability + k) ** ALPHA

    # -- one iteration ------------------------------------------------------------------------
    def perturb(self, k: int, rng: random.Random) -> tuple[list[int], dict[str, int], dict[str, int]]:
        """The signs of iteration k and the values the plus and the minus engine play with."""
        signs = [rng.choice((-1, 1)) for _ in self.params]
        plus = {p.name: round(p.clamp(p.value + s * self.c_k(p, k))) for p, s in zip(self.params, signs)}
        minus = {p.name: round(p.clamp(p.value - s * self.c_k(p, k))) for p, s in zip(self.params, signs)}
        return signs, plus, minus

    def update(self, k: int, signs: Sequence[int], result: float) -> None:
        """Count a finished pair played at iteration k's perturbation: move each value towards the engine
        that did better, by a_k * result * sign / c_k."""
        for param, sign in zip(self.params, signs):
            param.value = param.clamp(param.value + self.a_k(param, k) * result * sign / self.c_k(param, k))
        self.pairs.append(result)
        self.done += 1

    def values(self) -> dict[str, int]:
        return {p.name: round(p.value) for p in self.params}

    # -- the state file -------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        temporary = path.with_suffix(path.suffix + ".tmp")
        temporary.write_text(json.dumps(asdict(self), indent=1))
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> "SpsaState":
        data = json.loads(path.read_text())
        data["params"] = [Tuned(**p) for p in data["params"]]
        return cls(**data)


def default_c_end(value: int, low: int, high: int) -> float:
    """The final perturbation when none is given: a tenth of the value (fishtest's usual order), at
    least one unit and a two-hundredth of the range (for a value near 0)."""
    return max(1.0, abs(value) / 10, (high - low) / 200)


def new_state(names: Sequence[str], iterations: int, tc: str, seed: int,
              c_end: Optional[dict[str, float]] = None, r_end: float = R_END) -> SpsaState:
    """A run of `names` from their values in force (the kernel's table)."""
    from engine import _core

    table = {name: (value, low, high) for name, value, low, high, _ in _core.search_parameters()}
    params = []
    for name in names:
        if name not in table:
            raise SystemExit(f"spsa: unknown search parameter {name!r} (see engine._core.search_parameters())")
        value, low, high = table[name]
        step = (c_end or {}).get(name, default_c_end(value, low, high))
        params.append(Tuned(name, float(value), low, high, step, r_end, start=float(value)))
    return SpsaState(params, iterations, tc, seed)


# -- playing the pairs -----------------------------------------------------------------------------
def default_engine() -> str:
    """This checkout's engine with its tuning options on: the in-place build when there is one, else the
    installed package."""
    words = ["env", "JIANGJUN_TUNE=1"]
    if any((ROOT / "engine").glob("_core*.so")):
        words.append(f"PYTHONPATH={ROOT}")
    return shlex.join(words + [sys.executable, "-m", "engine"])


def engine_config(command: str, name: str, values: dict[str, int]) -> EngineConfig:
    # Run outside the checkout: `python -m engine` there would find the source tree before the package.
    return EngineConfig(command, name=name, proto="uci", options={k: str(v) for k, v in values.items()},
                        workdir=tempfile.gettempdir())


def pair_rules(command: str, batch: list[tuple[dict[str, int], dict[str, int]]], tc: str,
               max_moves: int) -> GameRules:
    """Engines 2b (plus) and 2b + 1 (minus) for each pair b of the batch."""
    control = TimeControl.parse(tc)
    engines = []
    for b, (plus, minus) in enumerate(batch):
        engines.append(EngineSpec(engine_config(command, f"plus{b}", plus), control))
        engines.append(EngineSpec(engine_config(command, f"minus{b}", minus), control))
    return GameRules(engines, Adjudication(max_moves=max_moves))


def pair_jobs(openings: list[Opening], batch_size: int) -> list[Job]:
    """Two games per pair b, the plus engine Red first, then Black, from the pair's opening."""
    jobs = []
    for b in range(batch_size):
        jobs.append(Job(2 * b + 1, 2 * b, 2 * b + 1, openings[b]))
        jobs.append(Job(2 * b + 2, 2 * b + 1, 2 * b, openings[b]))
    return jobs


def plus_points(job: Job, record: GameRecord) -> float:
    """The plus engine's points in one game (it is the even-numbered engine)."""
    red_points = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[record.result]
    return red_points if job.first % 2 == 0 else 1 - red_points


def play_batch(rules: GameRules, jobs: list[Job], concurrency: int, cluster: Optional[str]) -> dict[int, GameRecord]:
    """Play the jobs, here in `concurrency` threads (one game pair per thread, so the pair's two engine
    processes serve both its games) or on a cluster; returns the games by number, finished or not (an
    unfinished one has the result "*" and says why in its detail)."""
    finished: dict[int, GameRecord] = {}
    lock = threading.Lock()
    stop = threading.Event()

    def accept(job: Job, record: GameRecord) -> None:
        with lock:
            finished[job.number] = record

    if cluster:
        from engine.match.cluster import play_on_cluster

        play_on_cluster(cluster, rules, jobs, accept, lambda index, name: rules.engines[index].config.name or name,
                        stop, lambda line: None)
        return finished
    by_pair = [jobs[i:i + 2] for i in range(0, len(jobs), 2)]

    def work(pairs: list[list[Job]]) -> None:
        for pair in pairs:
            table = GameTable(rules, lambda index, process: rules.engines[index].config.name or process.name)
            try:
                for job in pair:
                    accept(job, table.play(job, stop))
            finally:
                table.close()

    threads = [threading.Thread(target=work, args=(by_pair[t::concurrency],), daemon=True)
               for t in range(max(1, concurrency))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return finished


def run(state: SpsaState, state_path: Path, command: str, openings: list[Opening], concurrency: int,
        cluster: Optional[str], max_moves: int, say: Callable[[str], None] = print) -> SpsaState:
    """Play the run's remaining iterations, a batch of `concurrency` (cluster: as many) pairs at a time."""
    rng = random.Random(state.seed * 1_000_003 + state.done)
    batch_size = max(1, concurrency)
    batches_without_a_pair = 0
    while state.done < state.iterations:
        first = state.done + 1
        ks = list(range(first, min(state.iterations, first + batch_size - 1) + 1))
        perturbations = [state.perturb(k, rng) for k in ks]
        chosen = [rng.choice(openings) for _ in ks]
        rules = pair_rules(command, [(plus, minus) for _, plus, minus in perturbations], state.tc, max_moves)
        jobs = pair_jobs(chosen, len(ks))
        games = play_batch(rules, jobs, concurrency, cluster)
        counted, why = 0, ""
        for b, (k, (signs, _, _)) in enumerate(zip(ks, perturbations)):
            records = [games.get(job.number) for job in (jobs[2 * b], jobs[2 * b + 1])]
            failed = [r for r in records if r is None or r.result == "*" or r.termination in FAILURES]
            if failed:
                why = (failed[0].detail if failed[0] is not None else "not played") or "interrupted"
                say(f"iteration {k}: a game failed ({why}); the pair is not counted and is played again")
                continue
            points = sum(plus_points(job, record) for job, record in zip((jobs[2 * b], jobs[2 * b + 1]), records))
            state.update(k, signs, 2 * points - 2)        # wins less losses of the plus engine
            counted += 1
        state.save(state_path)
        batches_without_a_pair = 0 if counted else batches_without_a_pair + 1
        if batches_without_a_pair >= MAX_BATCHES_WITHOUT_A_PAIR:
            raise SystemExit(f"spsa: no game pair finished in {batches_without_a_pair} batches in a row "
                             f"({why}); stopped at {state.done} of {state.iterations} "
                             f"pairs, the state is saved in {state_path}")
        say(f"iteration {state.done}/{state.iterations}: " +
            " ".join(f"{p.name}={p.value:.1f}" for p in state.params))
    return state


# -- writing the values back ---------------------------------------------------------------------------
def apply_defaults(values: dict[str, int], path: Path = PARAMS_FILE) -> list[str]:
    """Write `values` as the defaults of their rows of ext/params.pxi; returns the rows changed."""
    text = path.read_text(encoding="utf-8")
    changed = []
    for name, value in values.items():
        row = re.compile(rf'(\(\w+, "{re.escape(name)}", )(-?\d+)(,)')
        match = row.search(text)
        if match is None:
            raise SystemExit(f"spsa: no row {name!r} in {path}")
        if int(match.group(2)) != value:
            changed.append(f"{name}: {match.group(2)} -> {value}")
            text = text[:match.start(2)] + str(value) + text[match.end(2):]
    path.write_text(text, encoding="utf-8")
    return changed


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="tune (a new run with --params, else go on with --state)")
    p_run.add_argument("--state", type=Path, required=True, help="the run's state file (JSON), written as it goes")
    p_run.add_argument("--params", nargs="+", help="the parameters to tune (a new run)")
    p_run.add_argument("--c-end", nargs="*", default=[], metavar="NAME=STEP",
                       help="the final perturbation of a parameter (default: a tenth of its value, at least "
                            "one unit)")
    p_run.add_argument("--r-end", type=float, default=R_END,
                       help="a_N / c_N^2 of every parameter (a new run; fishtest's 0.002 suits runs of tens "
                            "of thousands of pairs, a short run needs more)")
    p_run.add_argument("--iterations", type=int, default=1000, help="game pairs in all (a new run)")
    p_run.add_argument("--tc", default="nodes=20000", help="the match runner's time control (a new run)")
    p_run.add_argument("--seed", type=int, default=1)
    p_run.add_argument("--engine", default=default_engine(),
                       help="the engine's command; it must offer the parameters as UCI options "
                            "(default: this checkout's, with JIANGJUN_TUNE=1)")
    p_run.add_argument("--openings", default=str(ROOT / "benchmarks" / "openings-ccpd.txt"))
    p_run.add_argument("--concurrency", type=int, default=1, help="game pairs at once (on a cluster: per batch)")
    p_run.add_argument("--cluster", help="play on a Dask cluster: tcp://HOST:8786 or local:N")
    p_run.add_argument("--max-moves", type=int, default=200, help="a game is drawn after this many full moves")
    for name in ("show", "apply"):
        sub.add_parser(name).add_argument("--state", type=Path, required=True)
    args = parser.parse_args(argv)

    if args.command == "run":
        if args.params:
            if args.state.exists():
                raise SystemExit(f"spsa: {args.state} exists: resume it without --params, or choose another file")
            steps = {key: float(value) for key, _, value in (item.partition("=") for item in args.c_end)}
            state = new_state(args.params, args.iterations, args.tc, args.seed, steps, args.r_end)
        else:
            state = SpsaState.load(args.state)
        openings = load_openings(args.openings) if args.openings else default_book()
        run(state, args.state, args.engine, openings, args.concurrency, args.cluster, args.max_moves)
        return 0
    state = SpsaState.load(args.state)
    if args.command == "show":
        print(f"{state.done}/{state.iterations} iterations at {state.tc}; mean pair result "
              f"{sum(state.pairs) / max(1, len(state.pairs)):+.3f}")
        for p in state.params:
            print(f"  {p.name:28} {p.start:8.1f} -> {p.value:8.1f}  ({p.minimum}..{p.maximum}, c_end {p.c_end:g})")
        return 0
    for line in apply_defaults(state.values()) or ["no default changed"]:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
