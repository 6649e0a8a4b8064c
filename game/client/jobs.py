"""Heavy work off the frame loop for any game's screens: :class:`WorkerJob`.

A job runs ``target(conn, *args)`` in a spawned worker process (so the window keeps its frame
rate) that sends messages down a one-way pipe; the screen calls :meth:`WorkerJob.poll` each
frame, which never blocks and hands each message to :meth:`WorkerJob.receive`. ``("done",)``
and ``("error", text)`` end the job; :meth:`WorkerJob.cancel` ends it at once (the process is
terminated). Tests pass ``thread=True``: the same work in a thread, with a ``stop`` callable
that :meth:`cancel` turns true. Both games' post-game analyses are such jobs.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from typing import Any, Callable

from game.i18n import _


class WorkerJob:
    """Runs ``target(conn, *args)`` in a spawned process, or ``thread_target(conn, stop, *args)``
    in a thread when ``thread`` is true (``stop()`` turns true on :meth:`cancel`). Subclasses
    take the messages in :meth:`receive`. ``done``/``error`` say how it ended."""

    def __init__(self, target: Callable[..., None], args: tuple, *, thread: bool = False,
                 thread_target: Callable[..., None] | None = None) -> None:
        self.done = False
        self.error: str | None = None
        self._stop = False
        self._proc: Any = None
        if thread:
            self._conn, child = multiprocessing.Pipe(duplex=False)
            run = thread_target or (lambda conn, stop, *a: target(conn, *a))
            self._thread = threading.Thread(target=self._in_thread, args=(run, child, args), daemon=True)
            self._thread.start()
        else:
            ctx = multiprocessing.get_context("spawn")
            self._conn, child = ctx.Pipe(duplex=False)
            self._proc = ctx.Process(target=target, args=(child, *args), daemon=True)
            self._proc.start()
            child.close()

    def _in_thread(self, run: Callable[..., None], conn, args: tuple) -> None:
        try:
            run(conn, lambda: self._stop, *args)
        except (OSError, EOFError):
            pass

    def receive(self, msg: tuple) -> None:
        """One message of the worker's other than "done" and "error" (subclasses)."""

    def poll(self) -> bool:
        """Take the messages that arrived (never blocks); True if anything did."""
        got = False
        try:
            while not self.done and self._conn.poll():
                msg = self._conn.recv()
                got = True
                if msg[0] == "done":
                    self.done = True
                elif msg[0] == "error":
                    self.error, self.done = msg[1], True
                else:
                    self.receive(msg)
        except (EOFError, OSError):
            if not self.done:
                self.error, self.done = _("the analysis stopped"), True
            got = True
        return got

    def cancel(self) -> None:
        """Stop at once (the worker process ends; a thread stops at its next check)."""
        self._stop = True
        if self._proc is not None and self._proc.is_alive():
            self._proc.terminate()
            self._proc.join(1.0)
        try:
            self._conn.close()
        except OSError:
            pass

    def wait(self, timeout: float = 60.0) -> None:
        """Block until done or ``timeout`` seconds passed (tests)."""
        end = time.monotonic() + timeout
        while not self.done and time.monotonic() < end:
            if not self.poll():
                time.sleep(0.01)


__all__ = ["WorkerJob"]
