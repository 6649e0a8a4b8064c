"""Engine speed: random full games per second and records validated per second.

Run by hand: ``python bench/engine.py [--seconds S]``. Prints figures; asserts nothing.
Random games use uniform legal actions with chance included (a draw's card uniform
over the draw pile), from a fresh shuffled deal each game, on one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.commands.check import check_file  # noqa: E402
from game.roseking.engine import Record, Rng, State  # noqa: E402
from game.roseking.engine.playout import random_playout  # noqa: E402


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


def records_per_second(count: int) -> tuple[float, float]:
    rng = Rng(7)
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i in range(count):
            s = State.random(rng)
            while not s.is_game_over():
                m = rng.choice(s.legal_moves())
                s.push(m if m.card else m.with_outcome(rng.choice(s.chance_outcomes())))
            p = os.path.join(d, f"g{i}.json")
            with open(p, "w") as f:
                f.write(Record.from_state(s).to_json())
            paths.append(p)
        start = time.perf_counter()
        ok = sum(check_file(p)[0] for p in paths)
        el = time.perf_counter() - start
        assert ok == count
        return count / el, el


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement (default 5)")
    ap.add_argument("--records", type=int, default=2000, help="records to validate (default 2000)")
    a = ap.parse_args()
    g, plies = games_per_second(a.seconds, kernel=True)
    print(f"random games, playout kernel : {g:8.0f} games/s  ({plies:.1f} plies/game, {g * plies:,.0f} plies/s)")
    g, plies = games_per_second(a.seconds, kernel=False)
    print(f"random games, State.push API : {g:8.0f} games/s  ({plies:.1f} plies/game, {g * plies:,.0f} plies/s)")
    r, el = records_per_second(a.records)
    print(f"records validated (check)    : {r:8.0f} records/s ({a.records} in {el:.2f} s, in-process)")


if __name__ == "__main__":
    main()
