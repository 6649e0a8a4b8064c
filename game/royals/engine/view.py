"""One seat's view of a Royals & Riots match: what that seat knows, and a full State consistent with it.

A LAN joiner (and the window and AI of any seat that does not hold the whole match) never
sees the other hands, piles or the cards set aside. :class:`SeatView` is fed, in engine ply
order, exactly what its seat is told (docs/protocol.md, "Royals & Riots", "What each joiner
is told"):

- :meth:`SeatView.public` — a public action (``start 2``, ``3 play K4``, ``1 steal 2``,
  ``1 steal 2 K4`` (the stolen card goes face up to the Thief's loot, ruling 7), ``1 steal
  none``, ``2 execute R3``) and this seat's own decisions as the host relays them;
- :meth:`SeatView.dealt` — this seat's dealt cards (the DEAL chance outcome, its part only);
- :meth:`SeatView.kept` — this seat's own hand choice (KEEP);
- :meth:`SeatView.own_pile` — the cards of this seat's own draw pile (PILE), never their order;
- :meth:`SeatView.drew` — the card this seat drew from its pile after its play;
- :meth:`SeatView.hidden` — another seat's hidden KEEP or PILE happened at this ply.

:meth:`SeatView.hear` takes the protocol's ``act``/``you``/``hidden`` message dicts and calls
the above. :meth:`SeatView.observation` equals ``State.observation(seat)`` of the true match
at every ply (property-tested in tests/royals/engine/test_view.py). :attr:`SeatView.state` is a
full :class:`State` (with a history) that agrees with everything the seat knows: the unknown
cards (other hands and piles, the aside, the order of its own pile) are filled in by a
placeholder *determinization* which is repaired, by swapping two unknown cards throughout the
round, whenever a card is revealed (another seat plays it, a theft shows it, this seat draws
it) or a seat shows a void by not following. After a round has been checked against the
host's reveal, :meth:`SeatView.reset` puts the true state in.

Pure Python, no pygame, no randomness (the placeholder is deterministic).
"""

from __future__ import annotations

from typing import Iterable

from .actions import DEAL, EXECUTE, KEEP, PILE, PLAY, START, STEAL, Action, IllegalMoveError
from .cards import CARDS, Card
from .state import Observation, Phase, State

__all__ = ["SeatView", "ViewError"]


class ViewError(ValueError):
    """What the seat was told contradicts what it knows (a card it knows to be elsewhere,
    a hidden action when none is due, a message for another ply). ``ply``: the engine ply."""

    def __init__(self, ply: int, reason: str) -> None:
        super().__init__(f"ply {ply}: {reason}")
        self.ply, self.reason = ply, reason


class SeatView:
    """What seat ``seat`` (1..players) of a ``players``-seat match (``teams``: 4 seats, 1+3
    against 2+4) knows. ``base``: the true state to start from (default: a new match).

    Raises ValueError for a bad seat or seat count.
    """

    def __init__(self, seat: int, players: int, teams: bool = False, base: State | None = None) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ queries
    @property
    def ply(self) -> int:
        """The engine ply this view has reached (actions applied, hidden ones included)."""
        raise NotImplementedError

    @property
    def state(self) -> State:
        """A full State consistent with everything this seat knows (placeholder cards where it
        knows nothing). Do not push to it: it is rebuilt on every update (a copy is safe)."""
        raise NotImplementedError

    def observation(self) -> Observation:
        """This seat's :class:`Observation`, equal to ``State.observation(seat)`` of the true match."""
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:
        """This seat's legal decisions now (empty unless it is to act)."""
        raise NotImplementedError

    def check(self, action: Action) -> str | None:
        """Why ``action`` (another seat's or our own public decision at the current ply) cannot
        be legal as far as this seat can know, or None: the turn and seat, a card this seat
        knows to be elsewhere (its own hand or pile, a loot, out of the game, already played),
        a card of a rank the seat showed a void in... and, for our own seat, the full rules."""
        raise NotImplementedError

    # ------------------------------------------------------------------ updates (ViewError on a contradiction)
    def public(self, action: Action) -> None:
        """Apply a public action at the current ply (see the module docstring)."""
        raise NotImplementedError

    def dealt(self, cards: Iterable[Card]) -> None:
        """The DEAL at the current ply: ``cards`` are this seat's dealt cards (12, 9 or 14)."""
        raise NotImplementedError

    def kept(self, cards: Iterable[Card]) -> None:
        """This seat's own KEEP at the current ply."""
        raise NotImplementedError

    def own_pile(self, cards: Iterable[Card]) -> None:
        """This seat's own PILE at the current ply: its pile's cards (any order)."""
        raise NotImplementedError

    def drew(self, card: Card) -> None:
        """This seat's last play drew ``card`` from the top of its pile."""
        raise NotImplementedError

    def hidden(self, seat: int) -> None:
        """Another seat's hidden KEEP or PILE at the current ply."""
        raise NotImplementedError

    def hear(self, msg: dict) -> None:
        """Apply one protocol message: ``act{ply, a}``, ``you{ply, cards}``, ``hidden{ply, seat}``
        (docs/protocol.md). Raises ViewError for a wrong ply or a contradiction,
        InvalidMoveError for unreadable text."""
        raise NotImplementedError

    def reset(self, state: State) -> None:
        """Put the true state in (after a round was checked): the view starts over from it."""
        raise NotImplementedError
