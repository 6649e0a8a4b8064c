"""What the table shows while beats play out: a display model of the table that moves one
:class:`~game.royals.match.Beat` at a time, and the timed animation of each beat.

The model (:class:`View`) is plain data rebuilt from the match state whenever no beat is
playing; an :class:`Anim` changes it at its start (the card leaves the hand) and at its end
(the card lands in the trick), and says what flies in between.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.royals.engine import Card, State

from game.royals.match import Beat

#: Seconds each beat takes at normal speed.
DURATIONS = {"deal": 0.7, "play": 0.32, "draw": 0.22, "steal": 0.7, "nosteal": 0.1, "execute": 0.7,
             "revolution": 5.0, "restore": 4.0, "trick": 1.15, "void": 0.7, "keep": 0.0, "start": 0.0,
             "round": 0.0, "over": 0.0}
#: Part of a trick's time that it lies still with its winner shown, before it slides away.
TRICK_HOLD = 0.65


@dataclass
class View:
    """The table as drawn: per seat (index 0 = seat 1) the hand, pile size, loot; the trick; the side."""

    hands: list[list[Card]]
    piles: list[int]
    loot: list[list[Card]]
    trick: list[tuple[int, Card]]
    revolution: bool
    round: int
    trick_no: int
    burning: Card | None = None
    winner: int = 0
    reason: str = ""
    turned: str = ""  # "revolution" / "restore": this trick turned the order (its caption says so)

    @classmethod
    def of(cls, s: State, prev: "View | None" = None) -> "View":
        """The table of state ``s``; ``prev`` keeps each loot in the order its cards arrived
        (only the top card of a loot is seen)."""
        loot = [list(_loot_order(s, i)) for i in range(s.players)]
        if prev is not None and len(prev.loot) == len(loot):
            for i, cards in enumerate(loot):
                have = set(cards)
                kept = [c for c in prev.loot[i] if c in have]
                loot[i] = kept + [c for c in cards if c not in set(kept)]
        return cls(hands=[list(s.hand(i)) for i in range(1, s.players + 1)],
                   piles=[len(p) for p in s.piles],
                   loot=loot,
                   trick=[(seat, Card.from_name(_name(c))) for seat, c in s.trick],
                   revolution=s.revolution, round=s.round, trick_no=s.trick_no)


def _name(c: int) -> str:
    from game.royals.engine import CARD_NAMES
    return CARD_NAMES[c]


def _loot_order(s: State, i: int) -> list[Card]:
    from game.royals.engine import cards_of
    return list(cards_of(s.loot[i]))


@dataclass
class Anim:
    """One beat playing: ``t`` seconds of ``duration`` so far."""

    beat: Beat
    duration: float
    t: float = 0.0
    data: dict = field(default_factory=dict)

    @property
    def progress(self) -> float:
        return 1.0 if self.duration <= 0 else min(1.0, self.t / self.duration)

    @property
    def done(self) -> bool:
        return self.t >= self.duration


def begin(view: View, beat: Beat) -> None:
    """What changes as ``beat`` starts."""
    k, i = beat.kind, beat.seat - 1
    if k == "play" and beat.card in view.hands[i]:
        view.hands[i].remove(beat.card)
    elif k == "draw":
        view.piles[i] = max(0, view.piles[i] - 1)
    elif k == "steal":
        t = beat.target - 1
        if beat.card in view.hands[t]:
            view.hands[t].remove(beat.card)
        view.trick = [(s, c) for s, c in view.trick if s != beat.target]
    elif k == "execute":
        view.burning = beat.card
    elif k in ("trick", "void"):
        view.winner = beat.seat
        view.reason = beat.reason


def end(view: View, beat: Beat) -> None:
    """What changes as ``beat`` ends."""
    k, i, card = beat.kind, beat.seat - 1, beat.card
    if k == "play":
        if card is not None:  # (a play, a draw, a theft: always of a card)
            view.trick.append((beat.seat, card))
    elif k == "draw":
        if card is not None:
            view.hands[i].append(card)
        view.hands[i].sort()
    elif k == "steal":
        if card is not None:
            view.loot[i].append(card)
        if beat.back is not None:
            view.hands[beat.target - 1].append(beat.back)
            view.hands[beat.target - 1].sort()
    elif k == "execute":
        view.trick = [(s, c) for s, c in view.trick if c != beat.card]
        view.burning = None
    elif k in ("revolution", "restore"):
        view.revolution = k == "revolution"
        view.turned = k
    elif k in ("trick", "void"):
        if k == "trick":
            view.loot[i].extend(c for _, c in beat.cards)
        view.trick = []
        view.winner = 0
        view.reason = ""
        view.turned = ""
