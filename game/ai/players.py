"""The computer-player interface and the two simplest players.

A player chooses an *action*; it never chooses a draw's card. For a draw it
returns ``Move(color, DRAW, None)`` and whoever runs the game supplies the card
as a chance outcome (local :class:`~game.engine.Rng`, the network's joint coin,
or a record). Players therefore reason only over what a player can see.
"""

from __future__ import annotations

import threading
from typing import Callable, Protocol

from game.engine import DRAW, Move, Rng, State, score_of


class Player(Protocol):
    """Anything with ``choose(state) -> Move`` returning one of ``state.legal_moves()``."""

    name: str

    def choose(self, state: State) -> Move: ...


class RandomPlayer:
    """Uniformly random legal action (a draw counts as one action)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State) -> Move:
        return self.rng.choice(state.legal_moves())


class GreedyPlayer:
    """The action with the best immediate score difference (mover minus opponent).

    A draw keeps the current difference. Ties are broken at random with its own Rng.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        p = state.turn
        best: list[Move] = []
        best_value = None
        base = score_of(state.stones[p]) - score_of(state.stones[1 - p])
        for m in moves:
            if m.kind is DRAW:
                value = base
            else:
                state.push(m)
                value = score_of(state.stones[p]) - score_of(state.stones[1 - p])
                state.pop()
            if best_value is None or value > best_value:
                best, best_value = [m], value
            elif value == best_value:
                best.append(m)
        return self.rng.choice(best)


#: Level name -> factory(seed). The AI issue adds easy/medium/hard.
LEVELS: dict[str, Callable[[int | None], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


def make_player(level: str, seed: int | None = None) -> Player:
    """A player of level ``level`` (a key of :data:`LEVELS`). Raises ValueError for an unknown level."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown computer level {level!r} (choose from {', '.join(LEVELS)})") from None
    return factory(seed)


class Thinker:
    """Runs a player's choice off the caller's thread so a frame loop never waits.

    ``start(state)`` begins thinking on a copy; ``poll()`` returns the move once
    ready (else None); ``cancel()`` forgets a pending result. Errors inside the
    player are re-raised by ``poll``.
    """

    def __init__(self, player: Player) -> None:
        self.player = player
        self._lock = threading.Lock()
        self._result: Move | None = None
        self._error: BaseException | None = None
        self._token = 0

    def start(self, state: State) -> None:
        with self._lock:
            self._token += 1
            token = self._token
            self._result = None
            self._error = None
        snapshot = state.copy(stack=False)

        def work() -> None:
            try:
                move = self.player.choose(snapshot)
                err = None
            except BaseException as e:  # handed to poll()
                move, err = None, e
            with self._lock:
                if token == self._token:
                    self._result, self._error = move, err

        threading.Thread(target=work, name="rose-king-thinker", daemon=True).start()

    def poll(self) -> Move | None:
        with self._lock:
            if self._error is not None:
                err, self._error = self._error, None
                raise err
            move, self._result = self._result, None
            return move

    def cancel(self) -> None:
        with self._lock:
            self._token += 1
            self._result = None
            self._error = None

    def close(self) -> None:
        self.cancel()
