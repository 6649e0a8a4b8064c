"""Headless matches between computer levels (the engine behind ``rose-king match``).

A match of N games between player A (named first) and player B: in game ``i``
(counted from 0) A plays Red when ``i`` is even and White when it is odd. Each
game is reproducible from ``(seed, i)``: the deal and every draw's chance
outcome come from an engine :class:`~game.roseking.engine.Rng`, and each player gets its
own seed derived from the same pair. Results are counted per player, not per colour.

A *paired* match (``paired=True``; "duplicate" play, as engine testing plays each opening twice
with colours reversed) gives games ``2k`` and ``2k + 1`` the same deal and the same stream of
chance outcomes, so each player meets the other's cards of the pair's first game: the luck of
the deal cancels within a pair. (The draws stay the same cards until the draw pile is first
rebuilt from the discard pile, whose order follows the play.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterator

from game.roseking.engine import DRAW, Record, Rng, State, now_iso
from game.matchrun import run_parallel, wilson  # noqa: F401 (wilson: part of this module's API)

from .levels import make_player
from .players import Player


@dataclass(frozen=True)
class GameResult:
    """One finished game: its index, who played Red, the winner (``"a"``, ``"b"`` or None), the scores."""

    index: int
    a_is_red: bool
    winner: str | None
    red_score: int
    white_score: int
    plies: int
    record_json: str


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a match seeded ``seed`` (a 64-bit int)."""
    r = Rng(seed * 1_000_003 + index)
    return (r.next_u32() << 32) | r.next_u32()


def play_game(red: Player, white: Player, rng: Rng, max_plies: int = 2000) -> State:
    """Play one game to its end; ``rng`` deals and supplies every draw's chance outcome.

    Every move is pushed checked, so a player returning an illegal move raises
    :class:`~game.roseking.engine.IllegalMoveError`. Raises RuntimeError past ``max_plies``.
    """
    state = State.random(rng)
    players = (red, white)
    while not state.is_game_over():
        if state.ply >= max_plies:
            raise RuntimeError(f"game did not end within {max_plies} plies")
        move = players[state.turn].choose(state)
        if move.kind is DRAW:
            move = move.with_outcome(rng.choice(state.chance_outcomes()))
        state.push_checked(move)
    return state


def run_game(a: str, b: str, seed: int, index: int, seconds: float | None,
             factory: Callable[..., Player] = make_player, paired: bool = False) -> GameResult:
    """Play game ``index`` of the match ``a`` vs ``b`` (level names); see the module docstring.

    ``paired``: the deal and chance outcomes of game ``index // 2`` of an unpaired match, for both
    games of the pair (A is Red in the even one, as always)."""
    gs = game_seed(seed, index // 2 if paired else index)
    a_is_red = index % 2 == 0
    pa = factory(a, gs ^ 0xA, seconds=seconds)
    pb = factory(b, gs ^ 0xB, seconds=seconds)
    red, white = (pa, pb) if a_is_red else (pb, pa)
    state = play_game(red, white, Rng(gs))
    out = state.outcome()
    assert out is not None
    winner = None
    if out.winner is not None:
        winner = "a" if (int(out.winner) == 0) == a_is_red else "b"
    names = (a, b) if a_is_red else (b, a)
    record = Record.from_state(state, red=names[0], white=names[1], date=now_iso())
    return GameResult(index, a_is_red, winner, out.red_score, out.white_score, state.ply, record.to_json())


def _run_game_args(args: tuple[str, str, int, int, float | None]) -> GameResult:
    return run_game(*args)


def run_match(a: str, b: str, games: int, seconds: float | None, seed: int = 0,
              jobs: int = 1) -> Iterator[GameResult]:
    """Yield the results of ``games`` games in index order, using ``jobs`` processes (spawn) if > 1."""
    tasks = [(a, b, seed, i, seconds) for i in range(games)]
    yield from run_parallel(_run_game_args, tasks, jobs)


def summary_line(a: str, b: str, n: int, a_won: int, b_won: int, drawn: int) -> str:
    """The match's last line (documented in ``rose-king match --help``)::

        hard vs greedy: 200 games, hard won 190, greedy won 8, drawn 2; hard win rate 95.0% (95% CI 91.0%-97.3%)

    The win rate is ``a_won / n`` (a draw counts as not won) with its Wilson 95% interval.
    """
    lo, hi = wilson(a_won, n)
    rate = a_won / n if n else 0.0
    return (f"{a} vs {b}: {n} games, {a} won {a_won}, {b} won {b_won}, drawn {drawn}; "
            f"{a} win rate {100 * rate:.1f}% (95% CI {100 * lo:.1f}%-{100 * hi:.1f}%)")


def record_path(out_dir: str, a: str, b: str, index: int) -> str:
    """Where game ``index`` is written: ``DIR/A-vs-B-0001.json`` (1-based number)."""
    return os.path.join(out_dir, f"{a}-vs-{b}-{index + 1:04d}.json")
