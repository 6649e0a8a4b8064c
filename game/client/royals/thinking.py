"""Computer decisions of Royals & Riots that never hold the window's loop (no pygame here).

:class:`RoyalsThinker` answers ``start(state, seat, level)`` with a later ``poll()``:

- the search levels (``medium``, ``hard``: up to a second per decision) think in one worker
  process (:class:`game.worker.Worker`), started on first use at a lower priority, so the frame
  loop keeps its 60 updates a second while they think; the worker rebuilds the position
  from the action history and decides from the seat's observation only;
- the quick levels (``random``, ``greedy``, ``easy``) decide on a short thread.

If the worker cannot start or dies, the search levels think on a thread instead.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from game.royals.engine import Action, State
from game.worker import Worker

from game.royals.match import SEARCH_LEVELS, choose_for, computer_player

log = logging.getLogger(__name__)
WORKER_NICE = 5

#: a request to the worker: players, teams, the action history (text), the seat, its level, its seed
Request = tuple[int, bool, list[str], int, str, "int | None"]


def _decider(seconds: float) -> Callable[[Request, Callable[[], bool]], str]:  # pragma: no cover - the child
    """(In the worker.) Rebuild the position from its history and decide for the seat from its
    observation only; each seat's player (per level and seed) persists across requests."""
    players: dict[tuple[int, str, int | None], Any] = {}

    def decide(request: Request, stale: Callable[[], bool]) -> str:
        n, teams, history, seat, level, seed = request
        state = State(n, teams)
        for text in history:
            state.push(Action.from_str(text))
        player = players.get((seat, level, seed))
        if player is None:
            player = players[(seat, level, seed)] = computer_player(level, seed, seconds)
        return str(choose_for(state, seat, player))
    return decide


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
        self._worker: Worker | None = None
        self._local: dict[tuple[int, str], Any] = {}
        self._waiting_process = False

    @property
    def worker(self) -> Worker | None:
        """The worker process while one runs for the search levels (None before the first
        search decision, after :meth:`close`, or when they think on threads)."""
        return self._worker

    # ------------------------------------------------------------------ api
    def start(self, state: State, seat: int, level: str) -> None:
        """Begin deciding for ``seat`` (of ``level``) in ``state`` (copied; the caller may go on)."""
        self._req += 1
        req = self._req
        seed = None if self.seed is None else self.seed * 10 + seat
        if level in SEARCH_LEVELS and self.use_process and self._ensure_process():
            assert self._worker is not None
            try:
                self._worker.ask((state.players, state.teams, [str(a) for a in state.history], seat, level, seed))
                self._waiting_process = True
                return
            except (OSError, RuntimeError):
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
        if self._waiting_process and self._worker is not None:
            try:
                text = self._worker.poll()
            except RuntimeError:
                self._waiting_process = False
                if not self._worker.alive:
                    self._drop_process()
                raise
            if text is None:
                return None
            self._waiting_process = False
            return Action.from_str(text)
        with self._lock:
            if self._answer is not None and self._answer_req == self._req:
                a, self._answer = self._answer, None
                return a
        return None

    def cancel(self) -> None:
        """Forget the pending decision (an answer on its way is dropped)."""
        self._req += 1
        self._waiting_process = False
        if self._worker is not None:
            self._worker.cancel()
        with self._lock:
            self._answer = None

    def close(self) -> None:
        self.cancel()
        self._drop_process()

    # ------------------------------------------------------------------ the worker
    def _ensure_process(self) -> bool:
        if self._worker is not None and self._worker.alive:
            return True
        try:
            self._worker = Worker(_decider, (self.seconds,), name="royals-think", nice=WORKER_NICE)
            return True
        except (OSError, RuntimeError) as e:
            log.warning("cannot start the computer's worker process (%s); thinking on a thread", e)
            self.use_process = False
            self._worker = None
            return False

    def _drop_process(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.close(0.3)
