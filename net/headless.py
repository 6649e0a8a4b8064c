"""A headless peer: the computer plays one side of a LAN game without a window.

Used by ``rose-king host/join --headless --ai LEVEL`` and by the tests.
"""

from __future__ import annotations

import time
from typing import Callable

from game.roseking.ai import Player

from .protocol import Closed, GameOver
from .transport import LanSession, SessionEvent


class HeadlessError(RuntimeError):
    """The game could not be finished (a fatal protocol error, or the time ran out)."""


class Stopped(HeadlessError):
    """The caller asked the peer to stop (``stop()`` returned true: ``rose-king host/join``
    got SIGTERM or SIGINT). Nothing failed: the caller closes the session, which says goodbye
    (``error{bye}``, docs/protocol.md)."""


def play_headless(session: LanSession, player: Player, *, timeout: float = 120.0, delay: float = 0.0,
                  on_event: Callable[[SessionEvent], None] | None = None,
                  clock: Callable[[], float] = time.monotonic, stop: Callable[[], bool] | None = None) -> None:
    """Play ``player``'s moves in ``session`` until the game is over and our last move
    is acknowledged (so the peer holds the whole game), then return.

    ``delay``: seconds to pause before each of our moves (to watch a game, or to
    give a test time to kill a peer mid-game). Interruptions are waited out (the session reconnects or the peer comes back).
    Returns at once when the game ends by forfeit (a peer withheld its reveal). Raises
    HeadlessError after a fatal error (illegal move, desync, versions, a refused seat) or
    when ``timeout`` seconds pass. Connections refused by a host (strangers) do not
    disturb it. ``stop``: asked about every 0.1 s (and before each of our moves); once it
    returns true, raises :class:`Stopped`. Does not close the session.
    """
    deadline = clock() + timeout
    over = False
    while True:
        if stop is not None and stop():
            raise Stopped(f"stopped at ply {session.state.ply if session.state is not None else 0}")
        if clock() > deadline:
            raise HeadlessError(f"the game did not end within {timeout:g} seconds (status: {session.status})")
        batch = session.wait(0.1)
        fatal: Closed | None = None
        for e in batch:  # the whole batch first: a verdict may follow the close that carried it
            if on_event is not None:
                on_event(e)
            if isinstance(e, GameOver):
                over = True
                if e.kind in ("illegal", "desync"):
                    raise HeadlessError(e.reason)
                if e.kind == "forfeit":
                    return  # a verdict: nothing is left to acknowledge
            elif isinstance(e, Closed) and e.fatal and fatal is None:
                fatal = e
        if fatal is not None:
            raise HeadlessError(fatal.reason)
        game = session.game
        if game is not None and game.aborted is not None:
            raise HeadlessError(game.aborted)  # stopped: never "played to its end" (issue 33, 4)
        if game is not None and (game.resigned is not None or game.forfeited is not None):
            return  # a verdict: nothing is left to acknowledge (a peer withholding acks cannot hold us)
        if game is not None and (game.over or over) and session.acked_all():
            return
        if session.status == "failed":
            raise HeadlessError(session.status_text)
        if session.status == "closed":  # closed under us (the caller left): nothing more will come
            raise HeadlessError("the session was closed")
        if game is None or game.over or over:
            continue
        if session.my_turn():
            state = session.state
            if state is not None and not state.is_game_over() and state.turn == session.color:
                move = player.choose(state)
                if delay:
                    time.sleep(delay)
                if stop is not None and stop():
                    continue  # a stop came while we thought: leave without this move
                try:
                    session.play(move)
                except ValueError:
                    continue  # the position moved on meanwhile; look again


def play_match(session, player, *, timeout: float = 300.0, delay: float = 0.0,
               on_event: Callable[[object], None] | None = None, clock: Callable[[], float] = time.monotonic,
               stop: Callable[[], bool] | None = None):
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
            return session.verdict
        if session.status in ("failed", "closed"):
            raise HeadlessError(f"the session {session.status}")
        if session.role == "host" and session.machine is None and session.lobby.can_start():
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
