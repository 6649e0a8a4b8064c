"""Calibrating Rose King's post-game analysis on real games (item 13). Run by hand:
``python bench/analysis_calibrate.py --games 4``.

Plays games of three kinds and runs the analysis of ``game.roseking.analysis`` over each, with
the window's search (``hard``, at ``--iterations`` per position; 4,500 stand for the window's
0.3 s, as ``hard#15000`` is hard's second in ``docs/ai.md``):

- ``careless``: Red plays the first legal stone move it finds (the first target), drawing only
  when it has none; White is ``medium``. The analysis must mark Red.
- ``random``: Red plays a random legal stone move (a random target), drawing only when it has
  none; White is ``medium``. What a new player's try played (a 121-533 loss).
- ``medium``: ``medium`` against ``easy`` (ordinary imperfect play).
- ``hard``: ``hard`` against ``hard`` (``--hard-iterations`` per move): moves the analysis should
  hardly ever mark, since they are what its own search would choose, give or take noise.

It prints, per game, Red's winning chance at the deal and the end, the final points, the moves
marked and the points lost per side; per kind and side, the percentiles of the share of the
remaining winning chance each move threw away (what marks a move) and of the points it lost,
the share of moves at or over each threshold of :mod:`game.roseking.analysis`, the marks per
game and the first marked move. ``--dump FILE`` keeps every game's chances and best moves (JSON
lines); ``--from-dump FILE`` judges those games again without searching (to try a measure or
thresholds). Measured figures are in the module docstring of ``game/roseking/analysis.py``.
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
    """The first stone move found (the first target), else a draw: the careless player."""
    moves = state.legal_moves()
    return next((m for m in moves if m.kind is not DRAW), moves[0])


def random_target(seed: int):
    """A careless player of another kind: a random legal stone move (a random target), drawing
    only when it has none (what a new player's 121-533 game played)."""
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


def report(kind: str, games: list[list[analysis.Review]]) -> None:
    """Per side of ``kind``'s games: the moves judged, the percentiles of the share of the
    remaining winning chance each move threw away (what marks it) and of the points it lost
    (the old measure), the share at or over each threshold, and the marks per game."""
    for color in (Color.RED, Color.WHITE):
        mine = [[r for r in reviews if r.player is color] for reviews in games]
        shares = [100 * r.share for g in mine for r in g]
        points = [r.points for g in mine for r in g]
        if len(shares) < 2:
            continue
        q, qp = statistics.quantiles(shares, n=20), statistics.quantiles(points, n=20)
        at = [sum(x >= 100 * t for x in shares) / len(shares) for t in analysis.THRESHOLDS]
        per_game = [sum(1 for g in mine for r in g if r.label == label) / len(games) for label in analysis.LABELS]
        first = [next((r.ply for r in g if r.label), None) for g in mine]
        print(f"  {color.name:5} {len(shares):4} moves  share p90 {q[17]:.1f}% p95 {q[18]:.1f}%  points p90 "
              f"{qp[17]:.1f} p95 {qp[18]:.1f}  "
              + "  ".join(f">={100 * t:g}%: {s:5.1%}" for t, s in zip(analysis.THRESHOLDS, at))
              + "  per game " + " / ".join(f"{n:.1f}" for n in per_game) + f"  first marked move {first}")


def from_dump(path: str) -> None:
    """The figures of the games a ``--dump`` file keeps, judged again by the current
    :func:`analysis.reviews` (no search: the chances and best moves are the file's). The games'
    deals are the bench's (seed 100 + the game's number within its kind)."""
    games: dict[str, list[list[analysis.Review]]] = {}
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    for row in rows:
        kind = row["kind"]
        s = State.random(Rng(100 + len(games.setdefault(kind, []))))
        for m in row["moves"]:
            s.push(Move.from_str(m))
        best = [None if b == "" else Move.from_str(b) for b in row["best"]]
        games[kind].append(analysis.reviews(s, row["red"], best))
    for kind, judged in games.items():
        print(f"{kind}: {len(judged)} games")
        report(kind, judged)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4, help="games of each kind (default 4)")
    ap.add_argument("--iterations", type=int, default=4500, help="analysis search per position (default 4500)")
    ap.add_argument("--hard-iterations", type=int, default=3000, help="hard's search per move (default 3000)")
    ap.add_argument("--kinds", default="careless,medium,hard")
    ap.add_argument("--dump", metavar="FILE", help="also write every game's chances and best moves as JSON lines")
    ap.add_argument("--from-dump", metavar="FILE", help="no games: judge the games of a --dump file again")
    args = ap.parse_args()
    if args.from_dump:
        from_dump(args.from_dump)
        return
    kinds = {
        "careless": lambda seed: (careless, make_player("medium", seed, seconds=None, iterations=1500)),
        "random": lambda seed: (random_target(seed), make_player("medium", seed, seconds=None, iterations=1500)),
        "medium": lambda seed: (make_player("medium", seed, seconds=None, iterations=1500),
                                make_player("easy", seed + 1)),
        "hard": lambda seed: (make_player("hard", seed, seconds=None, iterations=args.hard_iterations),
                              make_player("hard", seed + 1, seconds=None, iterations=args.hard_iterations)),
    }
    for kind in args.kinds.split(","):
        judged: list[list[analysis.Review]] = []
        curves = []
        t0 = time.process_time()
        for g in range(args.games):
            final = play(100 + g, *kinds[kind](100 + g))
            reviews, red, best = judge(final, args.iterations)
            if args.dump:
                with open(args.dump, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"kind": kind, "moves": [str(m) for m in final.move_stack], "red": red,
                                        "best": ["" if b is None else str(b) for b in best]}) + "\n")
            judged.append(reviews)
            curves.append((red[0], red[-1], final.scores()))
            summary = analysis.summary(reviews)
            print(f"  {kind} game {g}: Red's chance {red[0]:.2f} -> {red[-1]:.2f}, points {final.scores()}, "
                  f"marked R {summary[Color.RED].marked} W {summary[Color.WHITE].marked}, "
                  f"points lost R {summary[Color.RED].points:.0f} W {summary[Color.WHITE].points:.0f}",
                  flush=True)
        print(f"{kind}: {args.games} games, {time.process_time() - t0:.0f} s CPU")
        report(kind, judged)


if __name__ == "__main__":
    main()
