"""Post-game analysis (issue 15): the strong computer level looks at every position of a game,
and each move is judged by how much of the mover's winning chance it gave away.

Pure Python, no pygame. It uses the AI only through its public interface: a player from
:func:`game.roseking.ai.make_player` and the figures of its last search (``player.last``:
the chosen action and its value, the mover's expected reward 0..1).

For each position ``k`` of the game (0 = the deal) :func:`evaluate` gives the search's best
move and Red's winning chance ``red[k]`` (a finished position scores 1, 0 or ½). The move
from ``k`` to ``k + 1`` by player ``m`` lost ``max(0, chance_m[k] - chance_m[k + 1])``: what
the best move was worth for ``m`` minus what the move played left. Losses of at least
:data:`INACCURACY`, :data:`MISTAKE` and :data:`BLUNDER` are marked, like chess sites do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from game.roseking.engine import DRAW, Color, Move, State

#: Loss of winning chance (0..1) from which a move is marked.
INACCURACY, MISTAKE, BLUNDER = 0.08, 0.15, 0.30
LABELS = ("inaccuracy", "mistake", "blunder")
THRESHOLDS = (INACCURACY, MISTAKE, BLUNDER)


def label_for(loss: float) -> str:
    """"blunder", "mistake", "inaccuracy" or "" for a loss of winning chance (0..1)."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return ""


@dataclass(frozen=True)
class Review:
    """The verdict on move ``ply`` (1-based): ``played`` vs the search's ``best`` from the same
    position, the winning chance the mover lost (``loss``, 0..1) and its ``label``."""

    ply: int
    played: Move
    best: Move | None
    loss: float
    label: str

    @property
    def player(self) -> Color:
        return self.played.player


def same_move(a: Move, b: Move | None) -> bool:
    """Whether ``b`` is the move ``a`` (a draw is a draw whatever card it brought)."""
    if b is None or a.player != b.player or a.kind != b.kind:
        return False
    return a.kind is DRAW or a.card == b.card


def terminal_red(state: State) -> float:
    """Red's result of a finished game: 1 win, 0 loss, ½ draw."""
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner is Color.RED else 0.0


def evaluate(state: State, player) -> tuple[Move | None, float | None]:
    """(best move, Red's winning chance 0..1) of ``state`` by a searching ``player``
    (from :func:`game.roseking.ai.make_player`, "hard"); a finished game is scored exactly.
    The chance is None for a forced move (one legal action: the search does not weigh it)."""
    if state.is_game_over():
        return None, terminal_red(state)
    best = player.choose(state.copy(stack=False))
    last = getattr(player, "last", None)
    if last is None or not last.iterations:
        return best, None
    value = float(last.value)
    return best, value if state.turn is Color.RED else 1.0 - value


def positions(final: State) -> list[State]:
    """Every position of ``final``'s game, from the deal (index 0) to the end (index ply)."""
    s = final.copy()
    out = [s.copy()]
    while s.move_stack:
        s.pop()
        out.append(s.copy())
    out.reverse()
    return out


def reviews(final: State, red: list[float], best: list[Move | None]) -> list[Review]:
    """Judge every move of ``final``'s game from the positions' values ``red`` and best moves
    ``best`` (index = position). Positions not evaluated yet (short lists) end the list."""
    drops: list[float] = []  # chance "lost" by moves that were the search's own choice
    steps = []
    for k, played in enumerate(final.move_stack):
        if k + 1 >= len(red):
            break
        m = played.player
        before = red[k] if m is Color.RED else 1.0 - red[k]
        after = red[k + 1] if m is Color.RED else 1.0 - red[k + 1]
        steps.append((k, played, before - after))
        if same_move(played, best[k]) and red[k] != red[k + 1]:
            drops.append(before - after)
    bias = search_bias(drops)
    out: list[Review] = []
    for k, played, drop in steps:
        loss = 0.0 if same_move(played, best[k]) else max(0.0, drop - bias)
        out.append(Review(k + 1, played, best[k], loss, label_for(loss)))
    return out


@dataclass(frozen=True)
class SideSummary:
    """One side's figures over a game's reviews: ``moves`` judged, how many were ``marked``
    (any label), the ``total_loss`` of winning chance (0..1 per move, summed) and ``mean_loss``
    per move judged (0 for no moves): the view's "average loss", like chess sites' accuracy."""

    moves: int
    marked: int
    total_loss: float

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.moves if self.moves else 0.0


def summary(judged: list[Review]) -> dict[Color, SideSummary]:
    """Per colour: :class:`SideSummary` of the moves of ``judged`` that colour made."""
    out = {}
    for color in (Color.RED, Color.WHITE):
        mine = [r for r in judged if r.player is color]
        out[color] = SideSummary(len(mine), sum(1 for r in mine if r.label), sum(r.loss for r in mine))
    return out


def search_bias(drops: list[float]) -> float:
    """How much each side's search overrates its own chances, measured on the moves that were
    the search's own choice (their true loss is 0): the median drop, 0..0.2. Each position is
    searched from the mover's side, so without this every move would seem to lose that much."""
    if len(drops) < 5:
        return 0.0
    ordered = sorted(drops)
    return min(0.2, max(0.0, ordered[len(ordered) // 2]))


def analyse(final: State, player, stop: Callable[[], bool] | None = None) -> Iterator[tuple[int, Move | None, float]]:
    """Evaluate each position of ``final``'s game in order with ``player``; yields
    ``(index, best move, Red's chance)``. Ends early once ``stop()`` is true."""
    pending: list[tuple[int, Move | None]] = []  # forced positions: worth what the next one is
    for k, state in enumerate(positions(final)):
        if stop is not None and stop():
            return
        best, value = evaluate(state, player)
        if value is None:
            pending.append((k, best))
            continue
        for j, forced in pending:
            yield j, forced, value
        pending.clear()
        yield k, best, value


def worker(conn, final: State, level: str, seconds: float | None, iterations: int | None,
           seed: int | None, nice: int = 0) -> None:
    """The analysis in a worker process: sends ``("pos", index, best move text or "", red chance)``
    for each position, then ``("done",)``; ``("error", text)`` if the search fails. Stops when the
    parent closes the pipe or terminates the process."""
    import os
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)  # the window's frame loop comes first
        except OSError:
            pass
    from game.roseking.ai import make_player
    try:
        player = make_player(level, seed, seconds=seconds, iterations=iterations)
        for k, best, value in analyse(final, player):
            conn.send(("pos", k, "" if best is None else str(best), value))
        conn.send(("done",))
    except (BrokenPipeError, EOFError, OSError):
        return
    except Exception as e:  # noqa: BLE001  (reported to the window, which says so)
        try:
            conn.send(("error", f"{type(e).__name__}: {e}"))
        except OSError:
            pass


__all__ = ["BLUNDER", "INACCURACY", "LABELS", "MISTAKE", "Review", "analyse", "evaluate", "label_for",
           "positions", "reviews", "same_move", "search_bias", "SideSummary", "summary", "THRESHOLDS", "terminal_red", "worker"]
