"""Calibrating Royals & Riots' post-match analysis. Run by hand:
``python bench/royals_analysis.py --games 2 --levels hard,random,greedy``.

Plays ``--games`` matches of the seats ``--levels`` (the search levels at ``--player-iterations``)
and runs :func:`game.royals.analysis.analyse` over each, with the window's budget (``hard`` at
``--iterations`` per decision, ``--playouts`` playouts). Prints per match the scores and the
points each level's decisions cost in all, then per level the decisions judged, the percentiles
of the cost (points), the mean, and the share at or over 1, 1.5, 2, 3, 4 and 6 points and over
each threshold of the module. ``--flat`` judges instead by a flat Monte-Carlo over every legal
action (best = the action the playouts value most), the design the module's docstring measured
against. CPU seconds per match are printed too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.royals import analysis  # noqa: E402
from game.royals.ai.levels import make_player
from game.royals.ai.match import play_match  # noqa: E402
from game.royals.engine import Rng, State  # noqa: E402


def play(levels: list[str], seed: int, iterations: int) -> State:
    players = [make_player(level, seed * 7 + i, seconds=None, iterations=iterations) for i, level in enumerate(levels)]
    return play_match(players, Rng(seed))[0]


def flat_best(playouts: int):
    """The flat Monte-Carlo judge: best = the legal action the playouts value most."""
    policy = make_player("greedy", 1)

    def best_of(obs):
        legal = obs.legal_actions()
        return max(legal, key=lambda a: sum(analysis.playout_value(obs, a, 1 + k, policy) for k in range(playouts)))
    return best_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--levels", default="hard,random,greedy")
    ap.add_argument("--iterations", type=int, default=analysis.ITERATIONS)
    ap.add_argument("--playouts", type=int, default=analysis.PLAYOUTS)
    ap.add_argument("--player-iterations", type=int, default=1000)
    ap.add_argument("--flat", action="store_true")
    args = ap.parse_args()
    levels = args.levels.split(",")
    costs: dict[str, list[float]] = {level: [] for level in levels}
    for g in range(args.games):
        final = play(levels, 200 + g, args.player_iterations)
        t0 = time.process_time()
        best_of = flat_best(args.playouts) if args.flat else \
            make_player("hard", 1, seconds=None, iterations=args.iterations).choose
        verdicts = list(analysis.analyse(final.history, final.players, final.teams, best_of, args.playouts))
        spent = time.process_time() - t0
        for v in verdicts:
            costs[levels[v.seat - 1]].append(v.cost)
        per = {level: round(sum(v.cost for v in verdicts if levels[v.seat - 1] == level), 1) for level in set(levels)}
        print(f"match {g}: scores {final.scores()}, points lost {per}, {len(verdicts)} decisions, "
              f"{spent:.0f} s CPU", flush=True)
    for level, xs in costs.items():
        q = statistics.quantiles(xs, n=20)
        shares = "  ".join(f">={t:g}: {sum(x >= t for x in xs) / len(xs):4.0%}"
                           for t in (1, 1.5, 2, 3, 4, 6))
        print(f"{level:7} {len(xs):4} decisions  p75 {q[14]:.2f} p90 {q[17]:.2f} p95 {q[18]:.2f} "
              f"max {max(xs):.1f} mean {statistics.fmean(xs):.2f}  {shares}")


if __name__ == "__main__":
    main()
