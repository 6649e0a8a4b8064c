"""Engine speed: full-game validation against a naive reference engine, and random games per second.

Run by hand: ``python bench/engine.py [--seconds S] [--records N] [--rounds K]``. Prints figures;
asserts nothing (beyond both engines accepting every record).

1. **Full-game validation** (the kernel's yardstick): ``--records`` random finished games are
   generated once, as parsed record dicts (deal, move texts, result). Each round validates all
   of them with the engine (``Record.from_dict(d).replay()``: every move parsed and checked,
   the result checked) and with the naive reference engine of
   ``tests/roseking/engine/reference.py`` (each move checked rule by rule on a dict board,
   whether a player can act found by listing their moves, flood-fill scoring), and with
   ``--before CHECKOUT`` also with the engine of another checkout (loaded as a second
   package), all interleaved ``--chunk`` games at a time. The figure that counts is the
   **ratio** reference time / engine time per round, in the same process, on the thread's
   CPU clock (the machine is shared; absolute times are noisy); the median over the rounds
   is printed.
2. Random games per second: uniform legal actions with chance included (a draw's card uniform
   over the draw pile), from a fresh shuffled deal each game, with the raw kernel
   (``random_playout``) and through the ``State`` API (``legal_moves``/``push``).
3. ``rose-king check`` on record files (file reading and JSON included), records per second.

Figures of the kernel's pass (2026-11-23, the shared 2-core machine under load, 300 games of 110.7
plies, 11 rounds, ``--before`` a worktree of main at 17df973, three runs each):

====================  ===================  =====================  =====================
``--chunk``           engine before        engine after           after / before
====================  ===================  =====================  =====================
1 (game by game)      2.09-2.12 x ref      3.12-3.22 x ref        1.48-1.51
10 (default)          2.14-2.19 x ref      3.27-3.44 x ref        1.52-1.60
300 (whole rounds)    2.26-2.31 x ref      3.64-3.67 x ref        1.60-1.61
====================  ===================  =====================  =====================

On the CPU clock that is about 2,800 games/s (310,000 plies/s) for the reference,
6,100 games/s (680,000 plies/s) for the engine before and 9,600 games/s (1,060,000 plies/s)
after. Switching engines more often costs the engine more than the reference (cold caches),
so the ratio grows with the chunk; 10 is the default. Random games through the ``State`` API
got faster (the same kernel underneath); the raw-kernel random playout got slower (about 5,000
against 7,700 games/s on the wall clock) because the old one in ``engine/playout.py`` was a
second, hand-inlined copy of the rules, which the kernel removed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.commands.check import check_file  # noqa: E402
from game.roseking.engine import Record, Rng, State  # noqa: E402
from tests.roseking.engine import reference  # noqa: E402

try:  # the one rules kernel
    from game.roseking.engine.kernel import random_playout as _raw_playout  # noqa: E402

    def random_playout(s: State, rng: Rng) -> tuple[int, int, int]:
        return _raw_playout(s.raw(), rng)
except ImportError:  # before the kernel the playout had its own copy of the rules: to measure that tree
    from game.roseking.engine.playout import random_playout  # type: ignore  # noqa: E402


def random_record_dicts(count: int, seed: int = 7) -> list[dict]:
    """``count`` finished random games as parsed record dicts."""
    rng = Rng(seed)
    out = []
    for _ in range(count):
        s = State.random(rng)
        while not s.is_game_over():
            m = rng.choice(s.legal_moves())
            s.push(m if m.card else m.with_outcome(rng.choice(s.chance_outcomes())))
        out.append(Record.from_state(s).to_dict())
    return out


def load_engine(checkout: str):
    """The Rose King engine package of another checkout (e.g. ``git worktree add /tmp/before main``),
    loaded under the name ``before_engine`` beside this tree's, for a before/after in one process."""
    import importlib.util
    root = os.path.join(os.path.abspath(checkout), "game", "roseking", "engine")
    spec = importlib.util.spec_from_file_location("before_engine", os.path.join(root, "__init__.py"),
                                                  submodule_search_locations=[root])
    if spec is None or spec.loader is None:
        raise SystemExit(f"no Rose King engine under {checkout}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["before_engine"] = module
    spec.loader.exec_module(module)
    return module


def validation_times(records: list[dict], rounds: int, validators: dict, chunk: int = 10) -> dict[str, list[float]]:
    """Seconds per round of each validator over ``records``, interleaved ``chunk`` records at a
    time (the order rotating), so that a load change on the shared machine hits all of them
    alike while each still runs warm for a few games. The clock is this thread's CPU time, so
    time spent waiting for a core while other processes run is not counted."""
    clock = time.thread_time
    names = list(validators)
    times: dict[str, list[float]] = {n: [] for n in names}
    for k in range(rounds):
        sums = dict.fromkeys(names, 0.0)
        for c, i in enumerate(range(0, len(records), chunk)):
            part = records[i:i + chunk]
            j = (c + k) % len(names)
            for name in names[j:] + names[:j]:
                f = validators[name]
                t0 = clock()
                for d in part:
                    f(d)
                sums[name] += clock() - t0
        for n in names:
            times[n].append(sums[n])
    return times


def report_validation(records: list[dict], rounds: int, before: str | None, chunk: int) -> None:
    validators = {"engine": lambda d: Record.from_dict(d).replay(), "reference": reference.validate}
    if before:
        old = load_engine(before)
        validators["before"] = lambda d: old.Record.from_dict(d).replay()
    times = validation_times(records, rounds, validators, chunk)
    games, plies = len(records), sum(len(d["moves"]) for d in records)
    ref = times["reference"]
    for name in validators:
        t = statistics.median(times[name])
        label = {"engine": "this engine", "reference": "naive reference", "before": f"engine of {before}"}[name]
        line = f"full-game validation, {label:<22}: {games / t:8.0f} games/s ({plies / t:>10,.0f} plies/s)"
        if name != "reference":
            ratios = [r / e for r, e in zip(ref, times[name])]
            line += (f"  {statistics.median(ratios):.2f} x the reference (median of {rounds} rounds; "
                     f"min {min(ratios):.2f}, max {max(ratios):.2f}; best/best {min(ref) / min(times[name]):.2f})")
        print(line)
    if before:
        ratios = [b / e for b, e in zip(times["before"], times["engine"])]
        print(f"this engine / engine of {before}: {statistics.median(ratios):.2f} x "
              f"(median of {rounds} rounds; min {min(ratios):.2f}, max {max(ratios):.2f})")
    print(f"({games} games, {plies / games:.1f} plies/game)")


def games_per_second(seconds: float, kernel: bool) -> tuple[float, float]:
    rng = Rng(2026)
    n = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = State.random(rng)
        if kernel:
            plies += random_playout(s, rng)[2]
        else:
            while not s.is_game_over():
                m = rng.choice(s.legal_moves())
                if m.card is None:
                    m = m.with_outcome(rng.choice(s.chance_outcomes()))
                s.push(m)
            plies += s.ply
        n += 1
    el = time.perf_counter() - start
    return n / el, plies / n


def records_per_second(records: list[dict]) -> tuple[float, float]:
    import json
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, rec in enumerate(records):
            p = os.path.join(d, f"g{i}.json")
            with open(p, "w") as f:
                json.dump(rec, f)
            paths.append(p)
        start = time.perf_counter()
        ok = sum(check_file(p)[0] for p in paths)
        el = time.perf_counter() - start
        assert ok == len(records)
        return len(records) / el, el


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per random-games measurement (default 5)")
    ap.add_argument("--records", type=int, default=300, help="games to validate per round (default 300)")
    ap.add_argument("--rounds", type=int, default=9, help="interleaved validation rounds (default 9)")
    ap.add_argument("--only-validation", action="store_true", help="skip the random-games and check figures")
    ap.add_argument("--chunk", type=int, default=10, help="games validated in a row by one engine (default 10)")
    ap.add_argument("--before", metavar="CHECKOUT", help="also validate with the engine of another checkout "
                    "(e.g. a worktree of main before the kernel), interleaved in the same process")
    a = ap.parse_args()
    records = random_record_dicts(a.records)
    for d in records:  # both engines accept every record (and agree on its result)
        assert reference.validate(d) == Record.from_dict(d).replay().outcome().result()
    report_validation(records, a.rounds, a.before, a.chunk)
    if a.only_validation:
        return
    g, plies = games_per_second(a.seconds, kernel=True)
    print(f"random games, raw kernel        : {g:8.0f} games/s  ({plies:.1f} plies/game, {g * plies:,.0f} plies/s)")
    g, plies = games_per_second(a.seconds, kernel=False)
    print(f"random games, State.push API    : {g:8.0f} games/s  ({plies:.1f} plies/game, {g * plies:,.0f} plies/s)")
    r, el = records_per_second(records)
    print(f"records validated (check)       : {r:8.0f} records/s ({len(records)} files in {el:.2f} s, in-process)")


if __name__ == "__main__":
    main()
