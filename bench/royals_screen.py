"""Royals & Riots screening: variants of the ``hard`` search played against a level, seats
rotating and deals mirrored exactly as ``rose-king match`` (``game.royals.ai.match.run_one``).

Run by hand: ``python bench/royals_screen.py VARIANT OPPONENT [OPPONENT ...] --games N --seconds S``.

A variant is a level name of :mod:`game.royals.ai.levels` or ``hard`` with search options after
a colon, comma-separated: ``hard:low_lead=1,hand_bias=1.5,keep=1,c=0.7,noise=0.25``
(``keep``: the hand choice by search). Prints one line per match and the summary line of
``rose-king match`` (the first player's win rate with Wilson's 95 % interval). Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.royals.ai.ismcts import ISMCTS  # noqa: E402
from game.royals.ai.levels import HardPlayer, make_player  # noqa: E402
from game.royals.ai.match import points_line, run_one, summary_line  # noqa: E402


def parse_options(text: str) -> dict:
    """``"low_lead=1,hand_bias=1.5"`` -> ISMCTS keyword arguments. Raises ValueError for an unknown option."""
    names = {"low_lead": ("low_lead", bool), "hand_bias": ("hand_bias", float), "keep": ("keep_search", bool),
             "c": ("c", float), "noise": ("noise", float)}
    out: dict = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if key not in names:
            raise ValueError(f"unknown option {key!r} (choose from {', '.join(names)})")
        name, kind = names[key]
        out[name] = bool(int(value)) if kind is bool else kind(value)
    return out


def factory(level: str, seed: int | None = None, *, seconds: float | None = 1.0, iterations: int | None = None):
    """A player of ``level``, or of ``hard:OPTIONS`` (see the module docstring)."""
    base, _, opts = level.partition(":")
    if not opts:
        return make_player(level, seed, seconds=seconds, iterations=iterations)
    if base != "hard":
        raise ValueError(f"options only for hard, not {base!r}")
    kwargs = {"keep_search": False, **parse_options(opts)}
    player = HardPlayer(seed, seconds=seconds, iterations=iterations)
    player.search = ISMCTS(player.rng, seconds, iterations, **kwargs)
    return player


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", nargs="+")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="first match index (to continue a series)")
    a = ap.parse_args()
    levels = a.players
    for lv in levels:
        factory(lv, 0, seconds=a.seconds)  # refuse a bad option before the first match
    won = [0] * len(levels)
    points = [0] * len(levels)
    shared = n = 0
    for i in range(a.start, a.start + a.games):
        r = run_one(levels, a.seed, i, a.seconds, factory=factory)
        n += 1
        shared += not r.winners
        for k in r.winners:
            won[k] += 1
        for k in range(len(levels)):
            points[k] += r.scores[k]
        seats = ", ".join(f"{lv} (seat {r.seat_of[k]}) {r.scores[k]}" for k, lv in enumerate(levels))
        res = "shared" if not r.winners else " and ".join(f"{levels[k]} (seat {r.seat_of[k]})" for k in r.winners) + " won"
        print(f"match {i + 1}: {seats}; {res}", flush=True)
        print("  " + summary_line(levels, n, won, shared), flush=True)
    print(points_line(levels, n, points), flush=True)
    print(summary_line(levels, n, won, shared), flush=True)


if __name__ == "__main__":
    main()
