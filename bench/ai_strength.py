"""Strength matches between Rose King searchers at *fixed* budgets. Run by hand.

Time budgets are unreliable on a shared machine, so this runs matches with node or
iteration budgets calibrated to what one second buys on an idle core (see
``docs/ai.md``, "Measuring strength"), and each game is reproducible on any machine.

A player is ``LEVEL[#N][,knob=value...]``:

- ``LEVEL``: any name :func:`game.roseking.ai.levels.make_player` accepts (``hard``, ``expectimax-fit``,
  ``mcts-2025``, ``alphabeta:7``, ``expectimax``...);
- ``#N``: the search budget as a count (nodes for the alpha-beta searchers, MCTS
  iterations for the MCTS levels) instead of seconds; without it, ``--seconds``;
- ``,knob=value``: fields of the searcher's config (``ExpectimaxConfig`` /
  ``SearchConfig``), e.g. ``expectimax#180000,tempo_weight=0.7``; ``@NAME`` is a constant of
  :mod:`game.roseking.ai.evaluation` (``eval_weights=@EVAL_WEIGHTS``).

``--first K --games N`` plays games K..K+N-1 (to split a figure over machines or resume it);
``--jobs J`` plays J games at once, one process each. ``--tally LOG...`` plays nothing: it adds
up the game lines of earlier runs' logs of the same pairing (each game once) and prints the
summary line and the games missing below the highest index (from ``--first`` on, for a figure
that does not start at game 0).

Colours alternate (A is Red in even games); game ``i`` of seed ``s`` is the same deal
and the same chance outcomes as in ``rose-king match --seed s``. Prints one line per
game and the summary line with the Wilson 95% interval.

``--paired`` plays duplicate pairs (:mod:`game.roseking.ai.match`): games ``2k`` and ``2k + 1``
share the deal and the draws with colours reversed, so the luck of the deal cancels within a
pair and a screening needs fewer games to see a difference. Its game lines say the pair
(``game 5 (pair 2): ...``), ``--first`` and ``--games`` must be even, and the summary adds how
the finished pairs went: won by A in both games, split, won by B in both. (The Wilson interval
treats the games as independent, which the two games of a pair are not: read it as a guide, and
the pairs won in both games as the sign test of a screening.) Example (the full figure)::

    nice -n 19 python bench/ai_strength.py 'expectimax-fit#80000' 'mcts-2025#17000' --games 200
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.roseking.ai import evaluation as expectimax  # noqa: E402
from game.roseking.ai.match import run_game, summary_line  # noqa: E402
from game.roseking.ai.baselines import BASELINES  # noqa: E402
from game.roseking.ai.levels import parse_level  # noqa: E402
from game.roseking.ai.players import LEVELS  # noqa: E402
from game.matchrun import run_parallel  # noqa: E402


def parse_spec(spec: str) -> tuple[str, int | None, dict]:
    """``(level, count budget or None, knobs)`` of a player spec (see the module docstring)."""
    head, *knob_parts = spec.split(",")
    level, _, count = head.partition("#")
    knobs: dict = {}
    for part in knob_parts:
        key, _, value = part.partition("=")
        if not key or not value:
            raise ValueError(f"bad knob {part!r} in {spec!r}: expected name=value")
        if value.startswith("@"):  # a constant of the expectimax module, e.g. eval_weights=@EVAL_WEIGHTS
            knobs[key] = getattr(expectimax, value[1:])
            continue
        try:
            knobs[key] = int(value)
        except ValueError:
            knobs[key] = None if value == "None" else float(value)
    return level, (int(count) if count else None), knobs


def factory(spec: str, seed: int, seconds: float | None = None):
    """A player for ``spec`` (module docstring) seeded ``seed``."""
    level, count, knobs = parse_spec(spec)
    name, params, own_seconds = parse_level(level)
    make = LEVELS.get(name) or BASELINES[name]
    if count is not None:
        return make(seed, seconds=None, iterations=count, **params, **knobs)
    return make(seed, seconds=own_seconds or seconds, **params, **knobs)


def _play(task: tuple) -> tuple:
    """One game of ``(a, b, seed, index, seconds, paired)`` and its wall seconds (a process pool's task)."""
    *args, paired = task
    t0 = time.perf_counter()
    r = run_game(*args, factory=factory, paired=paired)
    return r, time.perf_counter() - t0


GAME_LINE = re.compile(r"game (\d+)( \(pair \d+\))?: A (?:red|white), winner ([ab-])")


def tally(lines, games: dict[int, str] | None = None, paired: set[bool] | None = None) -> dict[int, str]:
    """Game index -> winner (``"a"``, ``"b"`` or ``"-"`` for a draw) from the game lines of a log
    of this script (other lines are skipped), added to ``games`` if given; ``paired`` collects
    whether the lines were of a ``--paired`` run. Raises ValueError if one game has two winners
    (logs of different pairings or seeds mixed) or if paired and unpaired lines are mixed."""
    games = {} if games is None else games
    paired = set() if paired is None else paired
    for line in lines:
        m = GAME_LINE.match(line)
        if m:
            i, w = int(m.group(1)), m.group(3)
            paired.add(m.group(2) is not None)
            if len(paired) > 1:
                raise ValueError("these logs mix paired and unpaired games")
            if games.setdefault(i, w) != w:
                raise ValueError(f"game {i} has two different winners in these logs")
    return games


def pair_line(games: dict[int, str]) -> str:
    """How the finished pairs of a ``--paired`` run went (games ``2k`` and ``2k + 1`` both present)::

        pairs: 30 finished; A won both 9, split 17, B won both 4
    """
    both = [(games[i], games[i + 1]) for i in sorted(games) if i % 2 == 0 and i + 1 in games]
    a2 = sum(p == ("a", "a") for p in both)
    b2 = sum(p == ("b", "b") for p in both)
    return f"pairs: {len(both)} finished; A won both {a2}, split {len(both) - a2 - b2}, B won both {b2}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="index of the first game (to resume or split a run)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=1.0, help="budget of a player without #N (default 1.0)")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once in spawned processes, one core "
                    "each (default 1); the games and their lines stay in index order")
    ap.add_argument("--paired", action="store_true", help="duplicate pairs: games 2k and 2k+1 share the deal "
                    "and the draws, colours reversed (--first and --games even)")
    ap.add_argument("--tally", nargs="+", metavar="LOG", help="add up these logs of A vs B instead of playing")
    args = ap.parse_args()
    if args.paired and (args.first % 2 or args.games % 2):
        ap.error("--paired plays whole pairs: --first and --games must be even")
    if args.tally:
        games: dict[int, str] = {}
        kinds: set[bool] = set()
        for path in args.tally:
            with open(path, encoding="utf-8") as f:
                try:
                    tally(f, games, kinds)
                except ValueError as e:
                    sys.exit(f"{path}: {e}")
        won = [sum(w == k for w in games.values()) for k in "ab-"]
        missing = sorted(set(range(args.first, max(games, default=-1) + 1)) - set(games))
        spans: list[list[int]] = []
        for i in missing:  # as ranges: "3, 40-47"
            if spans and spans[-1][1] == i - 1:
                spans[-1][1] = i
            else:
                spans.append([i, i])
        print("missing:", ", ".join(f"{lo}-{hi}" if hi > lo else str(lo) for lo, hi in spans) or "none")
        print(summary_line(args.a, args.b, len(games), won[0], won[1], won[2]))
        if True in kinds:
            print(pair_line(games))
        return
    for s in (args.a, args.b):
        factory(s, 0, args.seconds)  # fail early on a bad spec
    a_won = b_won = drawn = 0
    winners: dict[int, str] = {}
    tasks = [(args.a, args.b, args.seed, i, args.seconds, args.paired)
             for i in range(args.first, args.first + args.games)]
    for r, took in run_parallel(_play, tasks, args.jobs):
        i = r.index
        winners[i] = r.winner or "-"
        if r.winner == "a":
            a_won += 1
        elif r.winner == "b":
            b_won += 1
        else:
            drawn += 1
        pair = f" (pair {i // 2})" if args.paired else ""
        print(f"game {i}{pair}: A {'red' if r.a_is_red else 'white'}, winner {r.winner or '-'}, "
              f"score {r.red_score}-{r.white_score}, {r.plies} plies, {took:.0f} s; "
              f"running A {a_won} B {b_won} D {drawn}", flush=True)
    print(summary_line(args.a, args.b, a_won + b_won + drawn, a_won, b_won, drawn), flush=True)
    if args.paired:
        print(pair_line(winners), flush=True)


if __name__ == "__main__":
    main()
