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

Protocol between the two ends (a duplex ``multiprocessing`` pipe): the parent
sends ``(token, state)`` with a stack-less copy of the position, or ``None`` to
stop; the worker answers ``(token, "ok", move_text)`` or ``(token, "error",
message)``. A shared integer holds the newest token: a search whose token is
stale stops within 16 iterations, so :meth:`cancel` frees the worker at once.
The worker's player persists, so one seed reproduces one sequence of choices.
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from typing import Any

from game.roseking.engine import Move, State

from .levels import make_player, parse_level
from .players import DEFAULT_SECONDS, Player, Thinker

#: Levels that search (and therefore belong in a worker process).
SEARCH_LEVELS = ("medium", "hard", "expert")
#: Baselines that search too (a parametrised name counts by its base name, see ``parse_level``).
_SEARCH_BASELINES = ("expectimax", "expectimax-fit", "alphabeta", "mcts-2025")


def _worker(conn: Any, shared_token: Any, level: str, seed: int | None, seconds: float | None,
            iterations: int | None, nice: int = 0) -> None:
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)  # yield the CPU to the window's frame loop when cores are scarce
        except OSError:
            pass
    player = make_player(level, seed, seconds=seconds, iterations=iterations)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        token, state = msg
        if hasattr(player, "stop"):
            player.stop = lambda t=token: shared_token.value != t
        if shared_token.value != token:  # cancelled while queued: skip the work
            conn.send((token, "cancelled", ""))
            continue
        try:
            move = player.choose(state)
            reply = (token, "ok", str(move))
        except Exception as e:  # handed to poll() in the parent
            reply = (token, "error", f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


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
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=True)
        self._shared = ctx.RawValue("q", 0)
        self._token = 0
        self._process = ctx.Process(target=_worker, name=f"rose-king-{level}",
                                    args=(child, self._shared, level, seed, seconds, iterations, nice), daemon=True)
        self._process.start()
        child.close()
        self._closed = False

    def start(self, state: State) -> None:
        """Begin thinking about ``state`` (copied; the caller may go on changing its own)."""
        if self._closed:
            raise RuntimeError("thinker is closed")
        self._token += 1
        self._shared.value = self._token
        self._conn.send((self._token, state.copy(stack=False)))

    def poll(self) -> Move | None:
        """The move for the latest ``start``, once ready; else None. Never blocks."""
        if self._closed:
            return None
        try:
            while self._conn.poll():
                token, status, text = self._conn.recv()
                if token != self._token or status == "cancelled":
                    continue  # an answer to a cancelled request
                if status == "error":
                    raise RuntimeError(f"computer player failed: {text}")
                return Move.from_str(text)
        except (EOFError, OSError):
            raise RuntimeError("computer player process died") from None
        if not self._process.is_alive():
            raise RuntimeError("computer player process died")
        return None

    def cancel(self) -> None:
        """Forget the pending answer; a running search stops within a few milliseconds."""
        self._token += 1
        self._shared.value = self._token

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker process (waits up to ``timeout`` seconds, then terminates it)."""
        if self._closed:
            return
        self._closed = True
        self.cancel()
        try:
            self._conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self._process.join(timeout)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout)
        self._conn.close()

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
