"""The caller's side of a LAN session thread (:class:`net.session.Session`, the one LAN layer).

The session runs one background thread that owns every socket and the protocol state
machine. The caller (the window's frame loop, a headless script) talks to that thread
only through this mailbox: commands go in (``_command``, waking the thread through a socket
pair its selector watches), events come out (``poll``/``wait``), and the status line is read
under the same lock. Nothing here blocks the caller for longer than a lock hand-over, except
:meth:`Mailbox.wait`, which is meant to.
"""

from __future__ import annotations

from typing import Any

import socket
import threading
from collections import deque


class Mailbox:
    """Commands in, events out, status under one lock (see the module docstring).

    A subclass calls :meth:`_open_mailbox` first in its ``__init__``, registers ``_wake_r``
    for reading in its selector (a byte arrives there with every command), pops
    ``(name, args)`` tuples from ``_commands`` under ``_lock`` on its thread, and calls
    :meth:`_close_mailbox` when it is closed."""

    def _open_mailbox(self) -> None:
        self._lock = threading.Condition()
        self._events: deque[Any] = deque()
        self._commands: deque[tuple[str, tuple[Any, ...]]] = deque()
        self._status, self._status_text = "closed", ""
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)

    def _close_mailbox(self) -> None:
        for s in (self._wake_r, self._wake_w):
            try:
                s.close()
            except OSError:
                pass

    # ------------------------------------------------------------------ caller's side
    def poll(self) -> list[Any]:
        """Events since the last call, oldest first. Never blocks."""
        with self._lock:
            events = list(self._events)
            self._events.clear()
            return events

    def wait(self, timeout: float) -> list[Any]:
        """Like :meth:`poll`, but waits up to ``timeout`` seconds for a first event (for
        scripts and headless peers; a frame loop uses :meth:`poll`)."""
        with self._lock:
            if not self._events:
                self._lock.wait(timeout)
            events = list(self._events)
            self._events.clear()
            return events

    @property
    def status(self) -> str:
        """The session's status code (each session lists its codes in ``STATUSES``)."""
        return self._status

    @property
    def status_text(self) -> str:
        """The status as a line to show, already translated."""
        return self._status_text

    # ------------------------------------------------------------------ plumbing
    def _command(self, name: str, *args: object) -> None:
        """Queue command ``name`` with ``args`` for the session thread and wake it."""
        with self._lock:
            self._commands.append((name, args))
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass  # closed, or the wake pair is full: the thread is awake anyway

    def _emit(self, *events: object) -> None:
        """Hand ``events`` to the caller (any thread) and wake a :meth:`wait`."""
        if not events:
            return
        with self._lock:
            self._events.extend(events)
            self._lock.notify_all()

    def _new_status(self, status: str, text: str) -> bool:
        """Store ``status``/``text``; False (nothing stored) when both are unchanged, so the
        caller emits its status event only on a change."""
        if status == self._status and text == self._status_text:
            return False
        with self._lock:
            self._status, self._status_text = status, text
        return True
