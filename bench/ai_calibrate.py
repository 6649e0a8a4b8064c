"""What a time budget buys a searcher, as the count ``bench/ai_strength.py`` plays.
Run by hand on an idle machine: ``python bench/ai_calibrate.py hard@0.25 hard@1 mcts-2025@1``.

A strength figure plays fixed counts (``hard#3700``: MCTS iterations; nodes for the alpha-beta
searchers) so that it is reproducible and the machine's load cannot change the play; this
script says which count stands for a budget. For each spec ``LEVEL@SECONDS`` it runs a fresh
player (no tree kept from an earlier move) on ``--positions`` positions of real games
(``bench/ai.py``'s sample), ``--reps`` times over, the specs interleaved so that a change of
load hits them alike, and prints per spec the search count per CPU second (median and mean over
the positions) and what the budget buys: ``median x SECONDS``, rounded to a hundred.

The rate depends on the budget, not only on the searcher: a small tree is cheaper per iteration
than a big one (``hard`` at 0.25 s against 1 s), so calibrate at the budget the figure stands for.

``--checkout DIR`` measures the players of another checkout (e.g. the main of before the rules kernel:
``git worktree add /tmp/old cc58659^``; its ``make_player`` and its positions, by the same
sampling code): run it right before or after this checkout's run, on the same machine, to compare.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path



def parse(spec: str) -> tuple[str, float]:
    """``"hard@0.25"`` -> ``("hard", 0.25)``; raises ValueError without a budget."""
    level, sep, seconds = spec.rpartition("@")
    if not sep or not level:
        raise ValueError(f"{spec!r}: expected LEVEL@SECONDS, e.g. hard@0.25")
    return level, float(seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="+", metavar="LEVEL@SECONDS")
    ap.add_argument("--positions", type=int, default=12, help="positions of real games (default 12)")
    ap.add_argument("--reps", type=int, default=2, help="passes over the positions (default 2)")
    ap.add_argument("--checkout", metavar="DIR", help="measure the players of this checkout instead")
    args = ap.parse_args()
    try:
        specs = [parse(s) for s in args.specs]
    except ValueError as e:
        ap.error(str(e))
    root = Path(args.checkout).resolve() if args.checkout else Path(__file__).resolve().parents[1]
    sys.path[:0] = [str(root), str(root / "bench")]
    from ai import sample_positions  # the checkout's own positions and players
    from game.roseking.ai import make_player
    positions = sample_positions(args.positions, 7)
    rates: dict[tuple[str, float], list[float]] = {s: [] for s in specs}
    for _ in range(args.reps):
        for state in positions:
            for level, seconds in specs:
                player = make_player(level, 1, seconds=seconds)
                t = time.process_time()
                player.choose(state)
                cpu = time.process_time() - t
                last = getattr(player, "last", None)
                count = getattr(last, "nodes", None) or getattr(last, "iterations", 0)
                if count and cpu > 0:  # a forced move is not searched
                    rates[(level, seconds)].append(count / cpu)
    for (level, seconds), got in rates.items():
        if not got:
            print(f"{level}@{seconds:g}: no searched move")
            continue
        med = statistics.median(got)
        print(f"{level}@{seconds:g}: {med:,.0f} per CPU second (median; mean {statistics.mean(got):,.0f}, "
              f"{len(got)} moves); the budget buys about {round(med * seconds, -2):,.0f}", flush=True)


if __name__ == "__main__":
    main()
