"""Computer decisions of Royals & Riots that never hold the window's loop (no pygame here).

:class:`RoyalsThinker` answers ``start(state, seat, level)`` with a later ``poll()``:

- the search levels (``medium``, ``hard``: up to a second per decision) think in one worker
  process, started on first use with the ``spawn`` method at a lower priority, so the frame
  loop keeps its 60 updates a second while they think; the worker rebuilds the position
  from the action history and decides from the seat's observation only;
- the quick levels (``random``, ``greedy``, ``easy``) decide on a short thread.

If the worker cannot start or dies, the search levels think on a thread instead.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from typing import Any

from game.royals.engine import Action, State

from .table import SEARCH_LEVELS, choose_for, computer_player

log = logging.getLogger(__name__)
WORKER_NICE = 5


def _worker(conn: Any, seconds: float, nice: int) -> None:  # pragma: no cover - runs in the child
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:
            pass
    players: dict[tuple[int, str, int | None], Any] = {}
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        req, n, teams, history, seat, level, seed = msg
        state = State(n, teams)
        for text in history:
            state.push(Action.from_str(text))
        key = (seat, level, seed)
        player = players.get(key)
        if player is None:
            player = players[key] = computer_player(level, seed, seconds)
        try:
            action = choose_for(state, seat, player)
            conn.send((req, str(action)))
        except Exception as e:  # noqa: BLE001 - reported to the window, which falls back
            conn.send((req, e))


class RoyalsThinker:
    """Computer decisions off the loop. ``seconds``: the search levels' time per decision;
    ``use_process``: False keeps every level on threads (tests)."""

    def __init__(self, seconds: float = 1.0, seed: int | None = None, use_process: bool = True) -> None:
        self.seconds = seconds
        self.seed = seed
        self.use_process = use_process
        self._req = 0
        self._answer: Action | None = None
        self._answer_req = -1
        self._lock = threading.Lock()
        self._proc: Any = None
        self._conn: Any = None
        self._local: dict[tuple[int, str], Any] = {}
        self._waiting_process = False

    # ------------------------------------------------------------------ api
    def start(self, state: State, seat: int, level: str) -> None:
        """Begin deciding for ``seat`` (of ``level``) in ``state`` (copied; the caller may go on)."""
        self._req += 1
        req = self._req
        seed = None if self.seed is None else self.seed * 10 + seat
        if level in SEARCH_LEVELS and self.use_process and self._ensure_process():
            try:
                self._conn.send((req, state.players, state.teams, [str(a) for a in state.history], seat, level, seed))
                self._waiting_process = True
                return
            except (OSError, BrokenPipeError):
                self._drop_process()
        self._waiting_process = False
        copy = state.copy()
        player = self._local.get((seat, level))
        if player is None:
            player = self._local[(seat, level)] = computer_player(level, seed, self.seconds)

        def think() -> None:
            action = choose_for(copy, seat, player)
            with self._lock:
                if req == self._req:
                    self._answer, self._answer_req = action, req

        threading.Thread(target=think, name="royals-think", daemon=True).start()

    def poll(self) -> Action | None:
        """The decision for the latest ``start`` once made, else None. Never blocks."""
        if self._waiting_process and self._conn is not None:
            try:
                while self._conn.poll():
                    req, answer = self._conn.recv()
                    if req == self._req:
                        self._waiting_process = False
                        if isinstance(answer, Exception):
                            raise RuntimeError(f"the computer player failed: {answer}")
                        return Action.from_str(answer)
            except (EOFError, OSError):
                self._drop_process()
                raise RuntimeError("the computer player's worker stopped") from None
            return None
        with self._lock:
            if self._answer is not None and self._answer_req == self._req:
                a, self._answer = self._answer, None
                return a
        return None

    def cancel(self) -> None:
        """Forget the pending decision (an answer on its way is dropped)."""
        self._req += 1
        self._waiting_process = False
        with self._lock:
            self._answer = None

    def close(self) -> None:
        self.cancel()
        self._drop_process()

    # ------------------------------------------------------------------ the worker
    def _ensure_process(self) -> bool:
        if self._proc is not None and self._proc.is_alive():
            return True
        try:
            ctx = multiprocessing.get_context("spawn")
            self._conn, child = ctx.Pipe(duplex=True)
            self._proc = ctx.Process(target=_worker, args=(child, self.seconds, WORKER_NICE),
                                     name="royals-think", daemon=True)
            self._proc.start()
            child.close()
            return True
        except (OSError, RuntimeError) as e:
            log.warning("cannot start the computer's worker process (%s); thinking on a thread", e)
            self.use_process = False
            self._proc = self._conn = None
            return False

    def _drop_process(self) -> None:
        conn, proc = self._conn, self._proc
        self._conn = self._proc = None
        if conn is not None:
            try:
                conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            conn.close()
        if proc is not None:
            proc.join(0.3)
            if proc.is_alive():
                proc.terminate()
                proc.join(1.0)
