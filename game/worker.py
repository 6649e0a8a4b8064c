"""One worker process for a computer player's decisions, for every game (pure; no pygame).

A search in a thread would share the interpreter lock with the window's frame loop, so both
games think in a :class:`Worker`: a process started with the ``spawn`` method (safe next to SDL,
the same on every OS) at a lower scheduling priority, which builds its decider once and then
answers one request at a time; the newest request wins::

    worker = Worker(make_decider, (level, seed), name="rose-king-hard", nice=5)
    worker.ask(request)       # a picklable request (a position, a history, ...)
    reply = worker.poll()     # every frame: None until the answer to the latest ask is there
    worker.cancel()           # the position changed: forget it (a cooperative search stops)
    worker.close()            # stops the process

Protocol between the two ends (a duplex ``multiprocessing`` pipe): the parent sends
``(token, request)``, or ``None`` to stop; the worker answers ``(token, "ok", reply)``,
``(token, "error", text)`` or ``(token, "cancelled", None)``. A shared integer holds the newest
token: the decider gets ``stale()``, true once its request was cancelled or replaced, so a
search can stop early, and a request cancelled while queued is skipped.
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from typing import Any, Callable

#: ``make(*args)`` in the worker returns the decider: ``decide(request, stale) -> reply``.
Decider = Callable[[Any, Callable[[], bool]], Any]


def lower_priority(nice: int) -> None:
    """Lower this process's scheduling priority by ``nice`` (POSIX ``nice``; nothing where
    unsupported or refused), so a window's frame loop wins a contended CPU."""
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:
            pass


def _serve(conn: Any, shared: Any, make: Callable[..., Decider], args: tuple[Any, ...], nice: int) -> None:
    lower_priority(nice)
    decide = make(*args)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        token, request = msg
        if shared.value != token:  # cancelled while queued: skip the work
            reply: tuple[int, str, Any] = (token, "cancelled", None)
        else:
            def stale(t: int = token) -> bool:
                return bool(shared.value != t)
            try:
                reply = (token, "ok", decide(request, stale))
            except Exception as e:  # handed to poll() in the parent
                reply = (token, "error", f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
        try:
            conn.send(reply)
        except OSError:
            return


class Worker:
    """A worker process answering :meth:`ask` with ``make(*args)``'s decider (see the module
    docstring). ``make`` and ``args`` must be picklable (a module-level function and plain
    values); ``name``: the process's name; ``nice``: see :func:`lower_priority`. The process
    starts at construction (about 0.1-0.3 s, outside any decision's budget). Raises OSError or
    RuntimeError when it cannot start."""

    def __init__(self, make: Callable[..., Decider], args: tuple[Any, ...] = (), *, name: str,
                 nice: int = 0) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=True)
        self._shared = ctx.RawValue("q", 0)
        self._token = 0
        self._process = ctx.Process(target=_serve, name=name, args=(child, self._shared, make, args, nice),
                                    daemon=True)
        self._process.start()
        child.close()
        self._closed = False

    @property
    def alive(self) -> bool:
        """Whether the worker process runs (and was not closed)."""
        return not self._closed and self._process.is_alive()

    @property
    def pid(self) -> int | None:
        """The worker process's id."""
        return self._process.pid

    @property
    def exitcode(self) -> int | None:
        """The worker's exit status once it ended (0: it stopped by itself), else None."""
        return self._process.exitcode

    def ask(self, request: Any) -> None:
        """Send ``request`` (it replaces any pending one). Raises RuntimeError once closed,
        OSError if the worker is gone."""
        if self._closed:
            raise RuntimeError("the worker is closed")
        self._token += 1
        self._shared.value = self._token
        self._conn.send((self._token, request))

    def poll(self) -> Any:
        """The reply to the latest :meth:`ask` once it came (taken: a second poll gives None),
        else None. Never blocks. Raises RuntimeError if the decider failed (its traceback in the
        message) or the worker died."""
        if self._closed:
            return None
        try:
            while self._conn.poll():
                token, status, reply = self._conn.recv()
                if token != self._token or status == "cancelled":
                    continue  # an answer to a cancelled request
                if status == "error":
                    raise RuntimeError(f"the computer player failed: {reply}")
                return reply
        except (EOFError, OSError):
            raise RuntimeError("the computer player's worker process died") from None
        if not self._process.is_alive():
            raise RuntimeError("the computer player's worker process died")
        return None

    def cancel(self) -> None:
        """Forget the pending request; a decider that watches ``stale()`` stops at once."""
        self._token += 1
        self._shared.value = self._token

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker (waits up to ``timeout`` s, then terminates it). Idempotent."""
        if self._closed:
            return
        self._closed = True
        self.cancel()
        try:
            self._conn.send(None)
        except OSError:
            pass
        self._process.join(timeout)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout)
        self._conn.close()


__all__ = ["Decider", "Worker", "lower_priority"]
