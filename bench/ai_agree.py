"""How often two Rose King searchers choose the same action. Run by hand.

A win rate says how much stronger one setting is; this says how often it decides differently
at all. Each player spec (as in ``bench/ai_strength.py``: ``LEVEL[#N][,knob=value...]``) chooses
an action in each of ``--positions`` positions of real games (``bench/ai.py``'s sample), once per
seed (``--seeds``, players built afresh: no tree reuse). Prints, for each spec, how often two
of its own runs with different seeds agree (the search's noise), and for each pair of specs how
often their runs agree (every seed of one against every seed of the other), as a share of the
comparisons, with the number of positions where they never agreed. Example::

    nice -n 19 python bench/ai_agree.py 'hard#15000' 'expert#6000' --positions 30 --seeds 2
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from ai import sample_positions  # noqa: E402
from ai_strength import factory  # noqa: E402


def choices(spec: str, positions, seeds: int) -> list[list[str]]:
    """``choices[s][p]``: the action (as the move's text) chosen by ``spec`` with seed ``s`` in position ``p``."""
    out = []
    for seed in range(seeds):
        row = []
        for state in positions:
            player = factory(spec, 1000 + seed)
            row.append(str(player.choose(state.copy(stack=False))))
        out.append(row)
    return out


def agreement(x: list[list[str]], y: list[list[str]], same: bool) -> tuple[float, int]:
    """(share of (seed, seed, position) comparisons that agree, positions with no agreement);
    ``same``: ``x`` is ``y``, so a seed is never compared with itself."""
    pairs = list(itertools.combinations(range(len(x)), 2) if same
                 else itertools.product(range(len(x)), range(len(y))))
    agrees = [sum(x[i][p] == y[j][p] for i, j in pairs) for p in range(len(x[0]))]
    return sum(agrees) / (len(pairs) * len(agrees)), agrees.count(0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="+", help="player specs, as in bench/ai_strength.py")
    ap.add_argument("--positions", type=int, default=30, help="positions of real games (default 30)")
    ap.add_argument("--seeds", type=int, default=2, help="runs of each spec with different seeds (default 2)")
    args = ap.parse_args()
    if args.seeds < 2 and len(args.specs) < 2:
        ap.error("nothing to compare: give two specs or --seeds 2 or more")
    positions = sample_positions(args.positions, 7)
    print(f"{len(positions)} positions (bench/ai.py's sample, seed 7), {args.seeds} seeds per spec")
    runs = {spec: choices(spec, positions, args.seeds) for spec in args.specs}
    if args.seeds > 1:
        for spec, run in runs.items():
            share, never = agreement(run, run, same=True)
            print(f"{spec} with itself (another seed): {100 * share:.0f} % the same; "
                  f"never the same in {never} positions")
    for a, b in itertools.combinations(args.specs, 2):
        share, never = agreement(runs[a], runs[b], same=False)
        print(f"{a} and {b}: {100 * share:.0f} % the same; never the same in {never} positions")


if __name__ == "__main__":
    main()
