"""Engine speed: full-game validation against a naive reference engine, and random games per second.

Run by hand: ``python bench/engine.py [--seconds S] [--records N] [--rounds K]``. Prints figures;
asserts nothing (beyond both engines accepting every record).

1. **Full-game validation** (issue 16's yardstick): ``--records`` random finished games are
   generated once, as parsed record dicts (deal, move texts, result). Each round validates all
   of them with the engine (``Record.from_dict(d).replay()``: every move parsed and checked,
   the result checked) and with the naive reference engine of
   ``tests/roseking/engine/reference.py`` (each move checked rule by rule on a dict board,
   whether a player can act found by listing their moves, flood-fill scoring), the two
   interleaved record by record. The figure that counts is the **ratio** reference time /
   engine time per round, in the same process (the machine is shared; absolute times are
   noisy); the median over the rounds is printed.
2. Random games per second: uniform legal actions with chance included (a draw's card uniform
   over the draw pile), from a fresh shuffled deal each game, with the raw kernel
   (``random_playout``) and through the ``State`` API (``legal_moves``/``push``).
3. ``rose-king check`` on record files (file reading and JSON included), records per second.
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

try:  # the one rules kernel (issue 16)
    from game.roseking.engine.kernel import random_playout as _raw_playout  # noqa: E402

    def random_playout(s: State, rng: Rng) -> tuple[int, int, int]:
        return _raw_playout(s.raw(), rng)
except ImportError:  # before issue 16 the playout had its own copy of the rules: to measure that tree
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


def validation_ratio(records: list[dict], rounds: int) -> dict:
    """Engine and reference validation of ``records``, interleaved record by record (the order
    alternating), so that a load change on the shared machine hits both alike; per round the
    summed times give one ratio. Times in seconds."""
    plies = sum(len(d["moves"]) for d in records)
    clock = time.perf_counter
    from_dict, validate = Record.from_dict, reference.validate
    ratios, te, tr = [], [], []
    for k in range(rounds):
        e = r = 0.0
        for i, d in enumerate(records):
            if (i + k) % 2:
                t0 = clock()
                from_dict(d).replay()
                t1 = clock()
                validate(d)
                t2 = clock()
                e += t1 - t0
                r += t2 - t1
            else:
                t0 = clock()
                validate(d)
                t1 = clock()
                from_dict(d).replay()
                t2 = clock()
                r += t1 - t0
                e += t2 - t1
        te.append(e)
        tr.append(r)
        ratios.append(r / e)
    e, r = statistics.median(te), statistics.median(tr)
    return {"ratio": statistics.median(ratios), "ratios": ratios, "best_ratio": min(tr) / min(te),
            "games": len(records), "plies": plies,
            "engine_games_s": len(records) / e, "engine_plies_s": plies / e,
            "ref_games_s": len(records) / r, "ref_plies_s": plies / r}


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
    a = ap.parse_args()
    records = random_record_dicts(a.records)
    for d in records:  # both engines accept every record (and agree on its result)
        assert reference.validate(d) == Record.from_dict(d).replay().outcome().result()
    v = validation_ratio(records, a.rounds)
    print(f"full-game validation, engine    : {v['engine_games_s']:8.0f} games/s "
          f"({v['engine_plies_s']:,.0f} plies/s; {v['plies'] / v['games']:.1f} plies/game)")
    print(f"full-game validation, reference : {v['ref_games_s']:8.0f} games/s ({v['ref_plies_s']:,.0f} plies/s)")
    print(f"engine / reference speed ratio  : {v['ratio']:8.2f} x (median of {a.rounds} rounds; "
          f"min {min(v['ratios']):.2f}, max {max(v['ratios']):.2f}; best time / best time {v['best_ratio']:.2f})")
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
