"""Calibrating Rose King's post-game analysis on real games (issue 35, item 13). Run by hand:
``python bench/analysis_calibrate.py --games 4``.

Plays games of three kinds and runs the analysis of ``game.roseking.analysis`` over each, with
the window's search (``hard``, at ``--iterations`` per position; 4,500 stand for the window's
0.3 s, as ``hard#15000`` is hard's second in ``docs/ai.md``):

- ``careless``: Red plays the first legal stone move it finds (the first target), drawing only
  when it has none; White is ``medium``. What issue 35 played: the analysis must mark Red.
- ``medium``: ``medium`` against ``easy`` (ordinary imperfect play).
- ``hard``: ``hard`` against ``hard`` (``--hard-iterations`` per move): moves the analysis should
  hardly ever mark, since they are what its own search would choose, give or take noise.

It prints, per game, Red's winning chance at the deal and the end, the final points, the moves
marked and the points lost per side; per kind and side, the percentiles of the points each move
lost and the share at or over each threshold of :mod:`game.roseking.analysis`. ``--dump FILE``
keeps every game's chances and best moves (JSON lines) to try other measures offline. Measured
figures are in the module docstring of ``game/roseking/analysis.py``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.roseking import analysis  # noqa: E402
from game.roseking.ai import make_player  # noqa: E402
from game.roseking.engine import DRAW, Color, Move, Rng, State  # noqa: E402


def careless(state: State) -> Move:
    """The first stone move found (the first target), else a draw: issue 35's careless player."""
    moves = state.legal_moves()
    return next((m for m in moves if m.kind is not DRAW), moves[0])


def random_target(seed: int):
    """A careless player of another kind: a random legal stone move (a random target), drawing
    only when it has none (what issue 43's 121-533 game played)."""
    rng = Rng(seed)

    def choose(state: State) -> Move:
        stones = [m for m in state.legal_moves() if m.kind is not DRAW]
        return rng.choice(stones) if stones else state.legal_moves()[0]
    return choose


def play(seed: int, red, white) -> State:
    """One game from deal ``seed``; ``red``/``white``: a player, or :func:`careless`."""
    rng = Rng(seed)
    s = State.random(rng)
    while not s.is_game_over():
        p = red if s.turn is Color.RED else white
        m = p(s) if callable(p) else p.choose(s.copy(stack=False))
        if m.kind is DRAW and m.card is None:
            m = m.with_outcome(rng.choice(s.chance_outcomes()))
        s.push(m)
    return s


def judge(final: State, iterations: int) -> tuple[list[analysis.Review], list[float], list[Move | None]]:
    player = make_player("hard", 1, seconds=None, iterations=iterations)
    red: list[float] = [0.0] * (final.ply + 1)
    best: list[Move | None] = [None] * (final.ply + 1)
    for k, b, v in analysis.analyse(final, player):
        red[k], best[k] = v, b
    return analysis.reviews(final, red, best), red, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4, help="games of each kind (default 4)")
    ap.add_argument("--iterations", type=int, default=4500, help="analysis search per position (default 4500)")
    ap.add_argument("--hard-iterations", type=int, default=3000, help="hard's search per move (default 3000)")
    ap.add_argument("--kinds", default="careless,medium,hard")
    ap.add_argument("--dump", metavar="FILE", help="also write every game's chances and best moves as JSON lines")
    args = ap.parse_args()
    kinds = {
        "careless": lambda seed: (careless, make_player("medium", seed, seconds=None, iterations=1500)),
        "random": lambda seed: (random_target(seed), make_player("medium", seed, seconds=None, iterations=1500)),
        "medium": lambda seed: (make_player("medium", seed, seconds=None, iterations=1500),
                                make_player("easy", seed + 1)),
        "hard": lambda seed: (make_player("hard", seed, seconds=None, iterations=args.hard_iterations),
                              make_player("hard", seed + 1, seconds=None, iterations=args.hard_iterations)),
    }
    for kind in args.kinds.split(","):
        losses: dict[Color, list[float]] = {Color.RED: [], Color.WHITE: []}
        curves = []
        t0 = time.process_time()
        for g in range(args.games):
            final = play(100 + g, *kinds[kind](100 + g))
            reviews, red, best = judge(final, args.iterations)
            if args.dump:
                with open(args.dump, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"kind": kind, "moves": [str(m) for m in final.move_stack], "red": red,
                                        "best": ["" if b is None else str(b) for b in best]}) + "\n")
            for r in reviews:
                losses[r.player].append(r.points)
            curves.append((red[0], red[-1], final.scores()))
            summary = analysis.summary(reviews)
            print(f"  {kind} game {g}: Red's chance {red[0]:.2f} -> {red[-1]:.2f}, points {final.scores()}, "
                  f"marked R {summary[Color.RED].marked} W {summary[Color.WHITE].marked}, "
                  f"points lost R {summary[Color.RED].points:.0f} W {summary[Color.WHITE].points:.0f}",
                  flush=True)
        print(f"{kind}: {args.games} games, {time.process_time() - t0:.0f} s CPU")
        for color, xs in losses.items():
            if not xs:
                continue
            q = statistics.quantiles(xs, n=20)
            shares = [sum(x >= t for x in xs) / len(xs) for t in analysis.THRESHOLDS]
            print(f"  {color.name:5} {len(xs):4} moves  p50 {q[9]:.1f} p75 {q[14]:.1f} p90 {q[17]:.1f} "
                  f"p95 {q[18]:.1f} max {max(xs):.1f}  mean {statistics.fmean(xs):.2f}  "
                  + "  ".join(f">={t:g}: {s:5.1%}" for t, s in zip(analysis.THRESHOLDS, shares)))


if __name__ == "__main__":
    main()
