"""Royals & Riots speed: record validation against the plain reference engine, random matches
per second, ISMCTS iterations per second, and the hard player's decisions per second.

Run by hand: ``python bench/royals.py [--seconds S] [--records N] [--passes P] [--budget B]``.
Prints figures; asserts nothing (beyond both engines accepting every record).

1. **Record validation** (the kernel's yardstick): ``--records`` finished random matches
   (2, 3 and 4 players, and 4 in teams, in turn) are made once as parsed record dicts. Each
   pass validates all of them with the engine (``Record.from_dict(d).replay()``: every set-up
   and action parsed and checked, the result checked) and with the plain reference engine of
   ``tests/royals/reference.py``, interleaved in one process on the thread's CPU clock; the
   figure that counts is the **ratio** reference time / engine time, median over the passes.
2. Random matches per second (uniform decisions through ``State.legal_actions`` and checked
   pushes, every chance outcome from one seeded Rng), 2 and 4 players.
3. ISMCTS iterations per second of CPU for each search level (``--levels``), 2 and 4 players,
   over the decisions of random matches (positions with more than one legal action).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.royals.ai.levels import make_player  # noqa: E402
from game.royals.engine import Phase, Record, Rng, State, status_line  # noqa: E402
from tests.royals import reference  # noqa: E402
from tests.royals.helpers import random_action  # noqa: E402

CONFIGS = ((2, False), (3, False), (4, False), (4, True))


def make_records(n: int, seed: int = 2026) -> list[dict]:
    rng = Rng(seed)
    out = []
    for i in range(n):
        players, teams = CONFIGS[i % len(CONFIGS)]
        s = State(players, teams)
        while not s.is_over():
            s.push_checked(random_action(s, rng))
        out.append(Record.from_state(s).to_dict())
    return out


def validation(records: list[dict], passes: int) -> tuple[float, float, float]:
    """(engine records/s, reference records/s, median ratio) on the thread's CPU clock."""
    clock = time.thread_time
    for d in records[:4]:  # both must agree before timing means anything
        assert status_line(Record.from_dict(d).replay()) == reference.validate(d)
    ratios, eng, ref = [], [], []
    for _ in range(passes):
        t0 = clock()
        for d in records:
            Record.from_dict(d).replay()
        t1 = clock()
        for d in records:
            reference.validate(d)
        t2 = clock()
        eng.append(t1 - t0)
        ref.append(t2 - t1)
        ratios.append((t2 - t1) / (t1 - t0))
    n = len(records)
    return n / statistics.median(eng), n / statistics.median(ref), statistics.median(ratios)


def random_matches(seconds: float, players: int) -> tuple[float, float]:
    """(matches per CPU second, actions per match)."""
    rng = Rng(2026)
    n = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        s = State(players)
        while not s.is_over():
            s.push_checked(random_action(s, rng))
        actions += s.ply
        n += 1
    return n / (time.process_time() - start), actions / max(1, n)


def search_speed(seconds: float, players: int, level: str, budget: float) -> tuple[float, float, int]:
    """(ISMCTS iterations per CPU second, mean iterations per decision, decisions) of ``level``
    at ``budget`` seconds per decision over the decisions of random matches."""
    rng = Rng(7)
    player = make_player(level, 3, seconds=budget)
    n = its = 0
    cpu = 0.0
    while cpu < seconds:
        s = State(players)
        while not s.is_over() and cpu < seconds:
            if s.phase is Phase.PLAY and len(s.legal_actions()) > 1:
                c0 = time.process_time()
                player.choose(s.observation(s.to_act))
                cpu += time.process_time() - c0
                its += player.last.iterations
                n += 1
            s.push_checked(random_action(s, rng))
    return its / cpu if cpu else 0.0, its / max(1, n), n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU time per speed figure (default 5)")
    ap.add_argument("--records", type=int, default=400, help="records to validate (default 400)")
    ap.add_argument("--passes", type=int, default=5, help="interleaved validation passes (default 5)")
    ap.add_argument("--budget", type=float, default=0.2, help="search seconds per decision (default 0.2)")
    ap.add_argument("--levels", default="hard", help="search levels, comma-separated (default hard)")
    ap.add_argument("--skip", default="", help="figures to skip: validation,random,search")
    a = ap.parse_args()
    skip = set(a.skip.split(","))
    if "validation" not in skip:
        recs = make_records(a.records)
        e, r, ratio = validation(recs, a.passes)
        acts = sum(len(rnd["actions"]) for d in recs for rnd in d["rounds"]) / len(recs)
        print(f"record validation ({len(recs)} records, {acts:.0f} actions each, {a.passes} passes): "
              f"engine {e:,.0f}/s, reference {r:,.0f}/s, engine = {ratio:.2f} x reference (median)")
    for players in (2, 4):
        if "random" not in skip:
            mps, acts = random_matches(a.seconds, players)
            print(f"random matches ({players} players): {mps:,.1f} per CPU second ({acts:.0f} actions each, checked)")
        if "search" not in skip:
            for level in a.levels.split(","):
                ips, per, n = search_speed(a.seconds, players, level, a.budget)
                print(f"{level} ({players} players, {a.budget} s): {ips:,.0f} ISMCTS iterations per CPU second "
                      f"({per:,.0f} per decision, {n} decisions)")


if __name__ == "__main__":
    main()
