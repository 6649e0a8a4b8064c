"""Computer thinking that never holds the window: worker start-up off the frame loop.

:func:`game.roseking.ai.make_thinker` gives a :class:`~game.roseking.ai.process.ProcessThinker` for
the search levels; building one spawns a worker process, which holds the calling
thread for some 20 ms (more on a loaded machine) - longer than a frame at 60 Hz.
:class:`BackgroundThinker` builds it on a short-lived thread instead and offers
the same interface at once: a ``start(state)`` made before the worker is up is
remembered and handed over on the first ``poll()`` after it is.

:func:`computer_thinker` is what the window uses for a computer opponent: a
background-built process thinker for ``medium``/``hard``, the thread thinker for
the instant levels. No pygame in here.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from game.roseking.ai import DEFAULT_SECONDS, LEVELS, ProcessThinker, Thinker, make_player, make_thinker
from game.roseking.ai.process import SEARCH_LEVELS
from game.roseking.engine import Move, State
from game.roseking.match import ThinkerLike

log = logging.getLogger(__name__)

#: How long :meth:`BackgroundThinker.close` waits for a worker still being built, seconds.
BUILD_TIMEOUT = 10.0
#: How much the search worker's scheduling priority is lowered (POSIX nice), so the frame
#: loop wins the CPU on a machine with few or busy cores (see bench/think_frames.py).
WORKER_NICE = 5


class BackgroundThinker:
    """A thinker built by ``factory()`` on a background thread; usable at once.

    ``start(state)`` before the inner thinker exists keeps a stack-less copy of
    ``state`` (a later ``start`` replaces it, ``cancel`` drops it); ``poll()``
    hands it over once the inner thinker is ready and otherwise forwards. All
    calls except the build happen on the caller's thread. ``close()`` stops the inner
    thinker, waiting up to :data:`BUILD_TIMEOUT` seconds for a build still running, so
    no worker process outlives it.

    If the build fails, or the inner thinker fails later (its worker process died:
    ``poll`` raised RuntimeError), ``fallback()`` (if given) builds a replacement on
    the caller's thread, which is handed the latest request again, so the game goes
    on; :attr:`fell_back` then holds the reason. Without a fallback ``poll()``
    raises RuntimeError.
    """

    def __init__(self, factory: Callable[[], ThinkerLike],
                 fallback: Callable[[], ThinkerLike] | None = None) -> None:
        self._factory = factory
        self._fallback = fallback
        self.fell_back: str | None = None
        self._lock = threading.Lock()
        self._inner: ThinkerLike | None = None
        self._error: BaseException | None = None
        self._pending: State | None = None
        self._last: State | None = None  # the latest request, for a fallback to take over
        self._closed = False
        self._thread = threading.Thread(target=self._build, name="rose-king-thinker-start", daemon=True)
        self._thread.start()

    def _build(self) -> None:
        try:
            inner = self._factory()
        except BaseException as e:  # reported by poll()
            with self._lock:
                self._error = e
            return
        with self._lock:
            if not self._closed:
                self._inner = inner
                return
        inner.close()  # closed while it was being built

    @property
    def ready(self) -> bool:
        """Whether the inner thinker has been built (its worker is running)."""
        return self._inner is not None

    def start(self, state: State) -> None:
        """Begin thinking about ``state`` now, or as soon as the worker is up."""
        if self._closed:
            raise RuntimeError("thinker is closed")
        self._last = state.copy(stack=False)
        if self._inner is not None:
            self._pending = None
            self._inner.start(state)
        else:
            self._pending = self._last

    def poll(self) -> Move | None:
        """The move for the latest ``start`` once ready, else None. Never blocks."""
        if self._error is not None:
            self._fail(f"the computer player could not start: {self._error}", self._error)
            return None
        inner = self._inner
        if inner is None or self._closed:
            return None
        if self._pending is not None:
            state, self._pending = self._pending, None
            inner.start(state)
            return None
        try:
            return inner.poll()
        except RuntimeError as e:  # the worker process died
            self._fail(str(e), e)
            return None

    def _fail(self, reason: str, error: BaseException) -> None:
        """Swap in the fallback (handing it the latest request) or raise RuntimeError."""
        if self._fallback is None:
            raise RuntimeError(reason) from error
        log.warning("%s; thinking in this process from now on", reason)
        with self._lock:
            broken, self._inner = self._inner, None
        if broken is not None:
            try:
                broken.close()
            except Exception:  # it is broken already; the fallback takes over regardless
                log.exception("closing the failed thinker")
        self.fell_back = reason
        self._error = None
        self._inner = self._fallback()
        self._fallback = None
        self._pending = None
        if self._last is not None:
            self._inner.start(self._last)

    def cancel(self) -> None:
        """Forget the pending request and any answer on its way."""
        self._pending = self._last = None
        if self._inner is not None:
            self._inner.cancel()

    def close(self) -> None:
        """Stop the inner thinker (its worker process too). Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            inner, self._inner = self._inner, None
        self._pending = None
        if inner is None:
            # still being built: _build closes it when done; wait so nothing outlives us
            self._thread.join(BUILD_TIMEOUT)
            return
        inner.close()


def computer_thinker(level: str, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                     iterations: int | None = None, nice: int = WORKER_NICE) -> ThinkerLike:
    """The thinker for a computer opponent of ``level`` in the window.

    Search levels (``medium``, ``hard``) run in a worker process that is started
    on a background thread (:class:`BackgroundThinker`), falling back to a thread
    of this process if the worker cannot start or dies; the instant levels run on
    a thread (:class:`game.roseking.ai.Thinker`). ``seconds``/``iterations``: the budget, as
    for :func:`game.roseking.ai.make_player`; ``nice``: how much lower the worker's priority is.
    Raises ValueError for an unknown level.
    """
    if level in SEARCH_LEVELS:
        if level not in LEVELS:
            raise ValueError(f"unknown computer level {level!r}")
        return BackgroundThinker(lambda: ProcessThinker(level, seed, seconds, iterations, nice=nice),
                                 fallback=lambda: Thinker(make_player(level, seed, seconds=seconds,
                                                                      iterations=iterations)))
    return make_thinker(level, seed, seconds, iterations)


__all__ = ["BUILD_TIMEOUT", "WORKER_NICE", "BackgroundThinker", "ThinkerLike", "computer_thinker"]
