"""A headless peer: the computer plays one seat of a LAN match without a window.

Used by ``rose-king host/join --headless --ai LEVEL`` and by the tests: :func:`play_match` for
any game on the one LAN layer.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .match import Verdict
    from .session import Session


class HeadlessError(RuntimeError):
    """The game could not be finished (a fatal protocol error, or the time ran out)."""


class Stopped(HeadlessError):
    """The caller asked the peer to stop (``stop()`` returned true: ``rose-king host/join``
    got SIGTERM or SIGINT). Nothing failed: the caller closes the session, which says goodbye
    (``error{bye}``, docs/protocol.md)."""


def play_match(session: "Session", player: Callable[[Any], Any], *, timeout: float = 300.0, delay: float = 0.0,
               on_event: Callable[[object], None] | None = None, clock: Callable[[], float] = time.monotonic,
               stop: Callable[[], bool] | None = None) -> "Verdict":
    """Play one seat of a match of any game on the one LAN layer (:class:`net.session.Session`)
    with ``player`` (``observation -> action``, the game part's ``player(level, seed)``) until
    the match has a verdict; returns the :class:`net.match.Verdict`. A host of a game whose
    part does not start by itself (``auto_start`` false) starts the match as soon as every
    person seat is taken.

    The observation comes from the part's ``turn(machine, seat)`` under the session's lock; the player
    thinks outside it. ``delay``: seconds before each of our actions. Raises :class:`Stopped`
    once ``stop()`` is true, HeadlessError when the session failed (a fatal refusal: versions,
    another game, a seat) or closed, or after ``timeout`` seconds. Does not close the session."""
    from .session import Ended
    turn = session.part.turn
    deadline = clock() + timeout
    if session.verdict is not None:  # resumed from the journal of a match that had ended
        return session.verdict
    while True:
        if stop is not None and stop():
            raise Stopped("stopped before the end of the match")
        if clock() > deadline:
            raise HeadlessError(f"the match did not end within {timeout:g} seconds (status: {session.status})")
        for e in session.wait(0.1):
            if on_event is not None:
                on_event(e)
            if isinstance(e, Ended):
                return e.verdict
        if session.verdict is not None:
            # the session thread sets the verdict before it tells ``Ended`` (and then "over"):
            # wait for that, so ``on_event`` sees the end as every other event
            if session.status in ("over", "failed", "closed"):
                for e in session.poll():
                    if on_event is not None:
                        on_event(e)
                return session.verdict
            continue
        if session.status in ("failed", "closed"):
            raise HeadlessError(f"the session {session.status}")
        if session.role == "host" and session.machine is None and session.can_start():
            try:
                session.start()
            except ValueError:
                pass  # someone left meanwhile: wait on
            continue
        obs = session.view(lambda m: turn(m, m.seat)) if turn is not None and not session.catching_up else None
        if obs is None:
            continue
        action = player(obs)
        if delay:
            time.sleep(delay)
        try:
            session.act(action)
        except ValueError:
            continue  # the match moved on meanwhile; look again
