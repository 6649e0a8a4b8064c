"""Thinking in another process, so the window keeps its 60 frames a second.

A search in a thread would share the interpreter lock with the frame loop;
:class:`ProcessThinker` runs the player in a worker process instead (started
with the ``spawn`` method, which is safe next to SDL and works on every OS).
It has the same interface as :class:`~game.roseking.ai.players.Thinker`::

    thinker = make_thinker("hard", seed=None, seconds=1.0)   # once per game
    thinker.start(state)            # when the computer is to move (or for a hint)
    move = thinker.poll()           # every frame: None until the move is ready
    thinker.cancel()                # the position changed: forget the pending answer
    thinker.close()                 # when the game ends: stops the worker process

The worker is the app's one :class:`game.worker.Worker`: the parent sends a stack-less copy
of the position, the worker answers with the move's text; a cancelled search stops within 16
iterations (the player's ``stop`` is the worker's ``stale``), so :meth:`cancel` frees it at once.
The worker's player persists, so one seed reproduces one sequence of choices.
"""

from __future__ import annotations

from typing import Callable

from game.roseking.engine import Move, State
from game.worker import Worker

from .levels import make_player, parse_level
from .players import DEFAULT_SECONDS, Player, Thinker

#: Levels that search (and therefore belong in a worker process).
SEARCH_LEVELS = ("medium", "hard", "expert")
#: Baselines that search too (a parametrised name counts by its base name, see ``parse_level``).
_SEARCH_BASELINES = ("expectimax", "expectimax-fit", "alphabeta", "mcts-2025")


def _decider(level: str, seed: int | None, seconds: float | None,
             iterations: int | None) -> Callable[[State, Callable[[], bool]], str]:
    """(In the worker.) The level's player, deciding a position's move as text."""
    player = make_player(level, seed, seconds=seconds, iterations=iterations)

    def decide(state: State, stale: Callable[[], bool]) -> str:
        if hasattr(player, "stop"):
            player.stop = stale
        return str(player.choose(state))
    return decide


class ProcessThinker:
    """Runs a level's choice in a worker process; same interface as :class:`~game.roseking.ai.players.Thinker`.

    ``level``, ``seed``, ``seconds``, ``iterations``: as for :func:`~game.roseking.ai.levels.make_player`.
    ``nice``: how much to lower the worker's scheduling priority (POSIX ``nice``; 0 leaves it
    alone) so a window's frame loop wins a contended CPU; ignored where unsupported.
    The worker starts at construction (about 0.1-0.3 s of process start-up, outside
    any move's budget). ``poll()`` never blocks; it raises RuntimeError if the worker
    failed or died.
    """

    def __init__(self, level: str, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, nice: int = 0) -> None:
        parse_level(level)  # raises ValueError for an unknown level
        #: the worker process (:class:`game.worker.Worker`)
        self.worker = Worker(_decider, (level, seed, seconds, iterations), name=f"rose-king-{level}", nice=nice)

    def start(self, state: State) -> None:
        """Begin thinking about ``state`` (copied; the caller may go on changing its own).
        Raises RuntimeError once closed."""
        self.worker.ask(state.copy(stack=False))

    def poll(self) -> Move | None:
        """The move for the latest ``start``, once ready; else None. Never blocks. Raises
        RuntimeError if the player failed or its process died."""
        text = self.worker.poll()
        return None if text is None else Move.from_str(text)

    def cancel(self) -> None:
        """Forget the pending answer; a running search stops within a few milliseconds."""
        self.worker.cancel()

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker process (waits up to ``timeout`` seconds, then terminates it)."""
        self.worker.close(timeout)

    def __enter__(self) -> "ProcessThinker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_thinker(level: str, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None) -> ProcessThinker | Thinker:
    """The thinker a client should use for ``level``: a :class:`ProcessThinker` for the
    search levels (:data:`SEARCH_LEVELS`), a thread :class:`~game.roseking.ai.players.Thinker` for
    the instant ones. Raises ValueError for an unknown level.

    For the hint key: ``make_thinker("hard")``, ``start(state)`` for the player to move,
    and show the move ``poll()`` returns.
    """
    if parse_level(level)[0] in SEARCH_LEVELS + _SEARCH_BASELINES:  # raises ValueError for an unknown level
        return ProcessThinker(level, seed, seconds, iterations)
    player: Player = make_player(level, seed, seconds=seconds, iterations=iterations)
    return Thinker(player)
