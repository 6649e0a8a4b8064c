"""Headless Royals & Riots matches between computer levels (``rose-king match --game royals-riots``).

A series of N matches between 2-4 players (level names, ``A B [C [D]]``): in match ``i``
(counted from 0) the players' seats rotate by ``i`` (player ``k`` sits in seat
``(k + i) mod n + 1``). Each match is reproducible from ``(seed, i)``: every chance outcome
(round 1's starter, the deals, the pile orders, the Thief's picks) comes from one
:class:`~game.rng.Rng`, and each player gets its own seed from the same pair. The deals are
*mirrored*: the n matches of one rotation (``i`` from ``n * j`` to ``n * j + n - 1``) draw
their chance from the same seed, so each player is dealt each seat's cards once (the rounds
after the first can differ, for their starters depend on the play). Results are
counted per player: a player wins a match when its seat (with ``--teams``, its team) is the
only winner; a tie for the win is *shared* and counts for nobody.

The last line::

    A vs B vs C: N matches, A won X, B won Y, C won Z, shared S; A win rate R% (95% CI LO%-HI%)

with Wilson's interval, and the line before it the mean points per round of each player.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from game.rng import Rng
from game.matchrun import run_parallel, wilson  # noqa: F401 (wilson: part of this module's API)

from ..engine.actions import STEAL
from ..engine.record import Record, now_iso
from ..engine.state import State, team_of
from .levels import make_player
from .players import Player


@dataclass(frozen=True)
class MatchResult:
    """One finished match: ``seat_of[k]`` is player k's seat; ``winners``: the winning players
    (indices into the level list); ``scores``/``points`` per player (totals; summed round points);
    the decisions each player took, its CPU and wall seconds spent in them, the record JSON."""

    index: int
    seat_of: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    decisions: tuple[int, ...]
    think_cpu: tuple[float, ...]
    think_wall: tuple[float, ...]
    max_wall: tuple[float, ...]
    record_json: str


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a series seeded ``seed`` (a 64-bit int)."""
    r = Rng(seed * 1_000_003 + index)
    return (r.next_u32() << 32) | r.next_u32()


def play_match(players: Sequence[Player], rng: Rng, teams: bool = False) -> tuple[State, list[list[float]]]:
    """Play one match; ``players[s - 1]`` sits in seat s; ``rng`` supplies every chance outcome.

    Each player is handed only its observation; every decision is pushed checked, so an
    illegal one raises :class:`~game.royals.engine.IllegalMoveError`. Returns the final state
    and per seat ``[decisions, cpu seconds, wall seconds, longest wall]`` of thinking.
    """
    import time
    state = State(len(players), teams)
    stats = [[0, 0.0, 0.0, 0.0] for _ in players]
    while not state.is_over():
        event = state.chance()
        if event is not None:
            state.push(event.sample(rng))
            continue
        seat = state.to_act
        t0, c0 = time.perf_counter(), time.thread_time()
        action = players[seat - 1].choose(state.observation(seat))
        wall = time.perf_counter() - t0
        st = stats[seat - 1]
        st[0] += 1
        st[1] += time.thread_time() - c0
        st[2] += wall
        st[3] = max(st[3], wall)
        state.push_checked(action)
        if action.kind is STEAL and action.target is not None and action.card is None:
            event = state.chance()
            assert event is not None  # the card the Thief takes
            state.push(event.sample(rng))
    return state, stats


def run_one(levels: Sequence[str], seed: int, index: int, seconds: float | None, teams: bool = False,
            factory: Callable[..., Player] = make_player) -> MatchResult:
    """Play match ``index`` of the series (see the module docstring)."""
    n = len(levels)
    ms = match_seed(seed, index)
    deal_seed = match_seed(seed, index - index % n)  # the n matches of one seat rotation share their chance
    seat_of = tuple((k + index) % n + 1 for k in range(n))
    seated: dict[int, Player] = {}
    names = [""] * n
    for k, level in enumerate(levels):
        seated[seat_of[k]] = factory(level, ms ^ (0xA5 + k), seconds=seconds)
        names[seat_of[k] - 1] = level
    by_seat = [seated[s] for s in range(1, n + 1)]
    state, stats = play_match(by_seat, Rng(deal_seed), teams)
    out = state.outcome()
    assert out is not None
    if teams:
        win_teams = {team_of(s) for s in out.winners}
        shared = len(win_teams) > 1
    else:
        shared = len(out.winners) > 1
    winners = () if shared else tuple(k for k in range(n) if seat_of[k] in out.winners)
    record = Record.from_state(state, names, date=now_iso())
    return MatchResult(index, seat_of, winners, tuple(out.scores[seat_of[k] - 1] for k in range(n)),
                       tuple(int(stats[seat_of[k] - 1][0]) for k in range(n)),
                       tuple(stats[seat_of[k] - 1][1] for k in range(n)),
                       tuple(stats[seat_of[k] - 1][2] for k in range(n)),
                       tuple(stats[seat_of[k] - 1][3] for k in range(n)), record.to_json())


def _run_args(args: tuple[Any, ...]) -> MatchResult:
    return run_one(*args)


def run_series(levels: Sequence[str], games: int, seconds: float | None, seed: int = 0, jobs: int = 1,
               teams: bool = False) -> Iterator[MatchResult]:
    """Yield the results of ``games`` matches in index order, using ``jobs`` processes (spawn) if > 1."""
    tasks = [(tuple(levels), seed, i, seconds, teams) for i in range(games)]
    yield from run_parallel(_run_args, tasks, jobs)


def summary_line(levels: Sequence[str], n: int, won: Sequence[int], shared: int) -> str:
    """``A vs B vs C: N matches, A won X, B won Y, C won Z, shared S; A win rate R% (95% CI LO%-HI%)``."""
    lo, hi = wilson(won[0], n)
    rate = won[0] / n if n else 0.0
    counts = ", ".join(f"{lv} won {w}" for lv, w in zip(levels, won))
    return (f"{' vs '.join(levels)}: {n} matches, {counts}, shared {shared}; "
            f"{levels[0]} win rate {100 * rate:.1f}% (95% CI {100 * lo:.1f}%-{100 * hi:.1f}%)")


def points_line(levels: Sequence[str], n: int, points: Sequence[int]) -> str:
    """``mean points per round: A 12.3, B 10.1`` over ``n`` matches of 3 rounds."""
    rounds = 3 * n
    return "mean points per round: " + ", ".join(
        f"{lv} {(p / rounds if rounds else 0.0):.2f}" for lv, p in zip(levels, points))


def record_path(out_dir: str, levels: Sequence[str], index: int) -> str:
    """``DIR/A-vs-B-vs-C-0001.json`` (1-based number)."""
    return os.path.join(out_dir, f"{'-vs-'.join(levels)}-{index + 1:04d}.json")


def main_match(args: argparse.Namespace) -> int:
    """The ``match`` command for Royals & Riots: progress lines, then the points line and the
    summary line (see the module docstring). 130 if interrupted."""
    levels = list(args.players)
    teams = bool(getattr(args, "teams", False))
    if teams and len(levels) != 4:
        args.parser.error("--teams needs 4 players")  # exits 2
    n = 0
    won = [0] * len(levels)
    points = [0] * len(levels)
    shared = 0
    think = [[0, 0.0, 0.0, 0.0] for _ in levels]

    def finish() -> None:
        for k, lv in enumerate(levels):
            d, cpu, wall, mx = think[k]
            if d and lv in ("medium", "hard", "hard-2025"):
                print(f"{lv} (player {k + 1}): {d} decisions, mean {cpu / d:.3f} s CPU, {wall / d:.3f} s wall, "
                      f"longest {mx:.3f} s", flush=True)
        print(points_line(levels, n, points), flush=True)
        print(summary_line(levels, n, won, shared), flush=True)

    try:
        for r in run_series(levels, args.games, args.seconds, seed=args.seed, jobs=args.jobs, teams=teams):
            n += 1
            if not r.winners:
                shared += 1
            for k in r.winners:
                won[k] += 1
            for k in range(len(levels)):
                points[k] += r.scores[k]
                think[k][0] += r.decisions[k]
                think[k][1] += r.think_cpu[k]
                think[k][2] += r.think_wall[k]
                think[k][3] = max(think[k][3], r.max_wall[k])
            if args.out is not None:
                with open(record_path(args.out, levels, r.index), "w", encoding="utf-8") as f:
                    f.write(r.record_json)
            seats = ", ".join(f"{lv} (seat {r.seat_of[k]}) {r.scores[k]}" for k, lv in enumerate(levels))
            result = "shared" if not r.winners else " and ".join(f"{levels[k]} (seat {r.seat_of[k]})"
                                                                 for k in r.winners) + " won"
            print(f"match {r.index + 1}/{args.games}: {seats}; {result}", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {n} of {args.games} matches", flush=True)
        finish()
        return 130
    finish()
    return 0
