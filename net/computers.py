"""A host's computer seats on the LAN layer (docs/protocol.md, "The LAN layer: session"): each
is played here by the game's computer player (:attr:`net.match.LanPart.player`) in a worker
thread, so the session's network thread goes on serving while it thinks. A joiner's seat whose
person is away may be handed over for a while (:meth:`ComputerSeats.hand_over`) and is given
back when the person proves the seat again.

Pure bookkeeping plus the worker threads; the decision comes back through ``done(seat,
action)``, called on the worker thread (the session turns it into a command for its own thread).
"""

from __future__ import annotations

import threading
from typing import Any, Callable


class ComputerSeats:
    """The seats played here by computer players. ``levels``: seat -> level of each computer
    seat of the table; ``make(level, seat)``: the game's player (a ``choose(observation)``
    callable); ``done(seat, action)``: where a decision goes (``action`` None: the player
    failed; the seat waits and the match goes on)."""

    def __init__(self, levels: dict[int, str], make: Callable[[str, int], Callable[[Any], Any]] | None,
                 done: Callable[[int, Any], None]) -> None:
        self.levels = dict(levels)
        self._make, self._done = make, done
        self.players: dict[int, Callable[[Any], Any]] = \
            {s: make(level, s) for s, level in self.levels.items()} if make is not None else {}
        self.thinking: set[int] = set()
        self.handed: set[int] = set()  # joiner seats handed over while their person is away

    def plays(self, seat: int) -> bool:
        """Seat ``seat`` is played here by a computer (a computer seat, or one handed over)."""
        return seat in self.levels or seat in self.handed

    def hand_over(self, seat: int, level: str) -> None:
        """Play a joiner's seat at ``level`` until :meth:`give_back`."""
        assert self._make is not None
        self.players[seat] = self._make(level, seat)
        self.handed.add(seat)

    def give_back(self, seat: int) -> bool:
        """The person of a handed-over seat is back: stop playing it. Returns whether it was handed."""
        if seat not in self.handed:
            return False
        self.handed.discard(seat)
        self.players.pop(seat, None)
        return True

    def think(self, observe: Callable[[int], Any]) -> None:
        """Start a worker for every seat not already thinking whose ``observe(seat)`` is not None
        (the observation it decides on: its turn has come)."""
        for seat, choose in list(self.players.items()):
            if seat in self.thinking:
                continue
            obs = observe(seat)
            if obs is None:
                continue
            self.thinking.add(seat)

            def work(seat: int = seat, choose: Callable[[Any], Any] = choose, obs: Any = obs) -> None:
                try:
                    action = choose(obs)
                except Exception:  # a bug in a computer player: the seat waits, the match goes on
                    action = None
                self._done(seat, action)
            threading.Thread(target=work, name=f"lan-computer-{seat}", daemon=True).start()

    def finished(self, seat: int) -> None:
        """Seat ``seat``'s worker came back (its decision is being applied)."""
        self.thinking.discard(seat)
