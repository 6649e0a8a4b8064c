"""Royals & Riots speed: random matches per second and the hard player's decisions per second.

Run by hand: ``python bench/royals.py [--seconds S] [--players N] [--budget B]``. Prints
figures; asserts nothing. Random matches use uniform legal decisions (a random hand at
set-up) with every chance outcome from one seeded Rng, checked pushes, on one core. The
hard player's figure is decisions per second at a budget of B seconds each (wall and CPU),
plus its ISMCTS iterations per decision.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.royals.ai.levels import make_player  # noqa: E402
from game.royals.ai.players import RandomPlayer  # noqa: E402
from game.royals.engine import Phase, Rng, State  # noqa: E402


def random_matches(seconds: float, players: int) -> tuple[float, float]:
    """(matches per second, actions per match)."""
    rng = Rng(2026)
    pl = RandomPlayer(1)
    n = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = State(players)
        while not s.is_over():
            ev = s.chance()
            s.push_checked(ev.sample(rng) if ev is not None else pl.choose(s.observation(s.to_act)))
        actions += s.ply
        n += 1
    return n / (time.perf_counter() - start), actions / max(1, n)


def hard_decisions(seconds: float, players: int, budget: float) -> tuple[float, float, float]:
    """(decisions per second wall, per second CPU, mean iterations per decision) over random positions."""
    rng = Rng(7)
    hard = make_player("hard", 3, seconds=budget)
    pl = RandomPlayer(2)
    n = its = 0
    wall = cpu = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = State(players)
        while not s.is_over() and time.perf_counter() - start < seconds:
            ev = s.chance()
            if ev is not None:
                s.push(ev.sample(rng))
                continue
            o = s.observation(s.to_act)
            if s.phase is Phase.PLAY and len(o.legal_actions()) > 1:
                t0, c0 = time.perf_counter(), time.process_time()
                a = hard.choose(o)
                wall += time.perf_counter() - t0
                cpu += time.process_time() - c0
                its += hard.last.iterations
                n += 1
            else:
                a = pl.choose(o)
            s.push_checked(a)
            if s.phase is Phase.STOLEN:
                s.push(s.chance().sample(rng))
    return n / wall if wall else 0.0, n / cpu if cpu else 0.0, its / max(1, n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per figure (default 5)")
    ap.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    ap.add_argument("--budget", type=float, default=1.0, help="hard's seconds per decision (default 1)")
    a = ap.parse_args()
    mps, acts = random_matches(a.seconds, a.players)
    print(f"random matches ({a.players} players): {mps:.1f} per second ({acts:.0f} actions each, checked)")
    w, c, its = hard_decisions(a.seconds, a.players, a.budget)
    print(f"hard decisions at {a.budget} s each: {w:.2f} per second wall, {c:.2f} per second CPU, "
          f"{its:.0f} ISMCTS iterations each")


if __name__ == "__main__":
    main()
