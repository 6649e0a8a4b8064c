"""Royals & Riots screening: variants of the ``hard`` search played against a level, seats
rotating and deals mirrored exactly as ``rose-king match`` (``game.royals.ai.match.run_one``).

Run by hand: ``python bench/royals_screen.py VARIANT OPPONENT [OPPONENT ...] --games N --seconds S``.

A variant is a level name of :mod:`game.royals.ai.levels`, ``LEVEL@N`` for that level with N
iterations a decision instead of ``--seconds`` (deterministic, independent of the load), or
``hard[@N]`` with search options after a colon, comma-separated, on top of the level's own
(``HAND_BIAS``, and ``MULTI`` with 3 or 4 players), played by the search of
``bench/royals_variants.py`` (:class:`VariantISMCTS`, whose docstring says what each does):
``hard@1000:low_lead=1,hand_bias=1.5,keep=1,c=0.7,noise=0.25,reward=mean,scale=10,win=0.7,specials=1,prior=100``
(``keep``: the hand choice by search; ``reward`` (``best``, ``mean``, ``rank``), ``scale``, ``win``:
the reward; ``specials``: the rule-based Thief and Executioner in the playouts; ``prior``: the
greedy's prior at the root, in virtual visits, ``prior_scale`` its reward per point). Prints one line
per match and the summary line of ``rose-king match`` (the first player's win rate with
Wilson's 95 % interval). Asserts nothing.

``--paired VARIANT BASELINE OPPONENT...``: the variant and the baseline each play every match
against the opponents in the same seat with the same deals and opponents' seeds (see
:func:`paired`); per match the difference of their totals less the opponents' mean, with its
standard error, and their wins.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the bench folder: royals_variants

from game.royals.ai.levels import MULTI, HardPlayer, make_player  # noqa: E402
from game.royals.ai.match import points_line, run_one, summary_line  # noqa: E402
from royals_variants import VariantISMCTS  # noqa: E402


def parse_options(text: str) -> dict:
    """``"low_lead=1,hand_bias=1.5"`` -> VariantISMCTS keyword arguments. Raises ValueError for an unknown option."""
    names = {"low_lead": ("low_lead", bool), "hand_bias": ("hand_bias", float), "keep": ("keep_search", bool),
             "c": ("c", float), "noise": ("noise", float), "reward": ("reward", str), "scale": ("scale", float),
             "win": ("win", float), "specials": ("specials", bool),
             "prior": ("prior", int), "prior_scale": ("prior_scale", float)}
    out: dict = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if key not in names:
            raise ValueError(f"unknown option {key!r} (choose from {', '.join(names)})")
        name, kind = names[key]
        out[name] = bool(int(value)) if kind is bool else kind(value)
    return out


def factory(level: str, seed: int | None = None, *, seconds: float | None = 1.0, iterations: int | None = None):
    """A player of ``level``, ``level@N`` (N iterations a decision instead of ``seconds``), or
    ``hard[@N]:OPTIONS`` (see the module docstring)."""
    head, _, opts = level.partition(":")
    base, at, its = head.partition("@")
    if at:
        seconds, iterations = None, int(its)
    if not opts:
        return make_player(base, seed, seconds=seconds, iterations=iterations)
    if base != "hard":
        raise ValueError(f"options only for hard, not {base!r}")
    player = HardPlayer(seed, seconds=seconds, iterations=iterations)
    kwargs = {"hand_bias": player.hand_bias, **parse_options(opts)}
    player.search = VariantISMCTS(player.rng, seconds, iterations, **kwargs)
    player.search_multi = VariantISMCTS(player.rng, seconds, iterations, **{**kwargs, **MULTI, **parse_options(opts)})
    return player


def margin(r, k: int = 0) -> float:
    """Player ``k``'s total less the mean of the others' totals in match result ``r``."""
    others = [x for j, x in enumerate(r.scores) if j != k]
    return r.scores[k] - sum(others) / len(others)


def paired(levels: list[str], a: argparse.Namespace) -> None:
    """``--paired``: ``levels[0]`` (the variant) and ``levels[1]`` (the baseline) each play every
    match index against ``levels[2:]`` in the same seat, with the same deals and the same
    opponents' seeds; per match the difference of their margins (:func:`margin`)."""
    var, base, opps = levels[0], levels[1], levels[2:]
    diffs: list[float] = []
    won = [0, 0]
    for i in range(a.start, a.start + a.games):
        rv = run_one([var, *opps], a.seed, i, a.seconds, factory=factory)
        rb = run_one([base, *opps], a.seed, i, a.seconds, factory=factory)
        won[0] += rv.winners == (0,)
        won[1] += rb.winners == (0,)
        diffs.append(margin(rv) - margin(rb))
        n = len(diffs)
        mean = sum(diffs) / n
        se = (sum((x - mean) ** 2 for x in diffs) / (n - 1) / n) ** 0.5 if n > 1 else float("nan")
        print(f"match {i + 1} (seat {rv.seat_of[0]}): {var} {rv.scores}, {base} {rb.scores}; margin "
              f"{margin(rv):+.2f} vs {margin(rb):+.2f}", flush=True)
        print(f"  {n} matches: {var} - {base} margin {mean:+.2f} (SE {se:.2f}); wins {won[0]} vs {won[1]}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", nargs="+")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="first match index (to continue a series)")
    ap.add_argument("--paired", action="store_true",
                    help="VARIANT BASELINE OPPONENT...: both play each match against the opponents (see paired)")
    a = ap.parse_args()
    levels = a.players
    for lv in levels:
        factory(lv, 0, seconds=a.seconds)  # refuse a bad option before the first match
    if a.paired:
        paired(levels, a)
        return
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
