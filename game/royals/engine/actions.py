"""Action kinds and the :class:`Action` value type, with their text notation.

An action's text is its notation in the engine's history and, for the four trick
actions, in the record's ``actions`` list (``docs/royals-record-format.md``):

- ``"2 play K4"``: seat 2 plays K4 (ruling 5).
- ``"1 steal 2 M3"``: the Thief of seat 1 robs seat 2, and chance gives M3 (ruling 7);
  ``"1 steal 2"`` is the decision alone, before chance supplies the card;
  ``"1 steal none"``: the Thief declines ("mag").
- ``"2 execute R3"``: the Executioner of seat 2 takes R3 out of the game (ruling 7).

The set-up actions exist in the engine's history only (the record stores them as the
round's ``starter``/``deal``/``hand``/``pile`` fields):

- ``"start 3"``: seat 3 leads the round's first trick (a chance outcome in round 1, the
  starting team's decision in later team rounds; ruling 9, A1).
- ``"deal K4,THIEF/K1,R5/P7,BEGGAR/"``: chance: each seat's dealt cards, then the aside
  (empty unless 2 players), separated by ``/`` (ruling 4).
- ``"1 keep K4,THIEF,..."``: seat 1's hand choice (a decision, ruling 4).
- ``"1 pile R6,P10,..."``: chance: seat 1's draw pile, top first (ruling 4).

Seats are numbered from 1 in seat (clockwise) order.

>>> Action.from_str("1 steal 2 M3")
Action.from_str('1 steal 2 M3')
>>> Action.from_str("1 steal 2").with_outcome(Card.from_name("M3")) == Action.from_str("1 steal 2 M3")
True
>>> Action.from_str("3 play K2").card
Card.from_name('K2')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable

from game.errors import IllegalMoveError, InvalidMoveError, Reason

from .cards import Card


class Kind(str, Enum):
    """What an action does."""

    START = "start"
    DEAL = "deal"
    KEEP = "keep"
    PILE = "pile"
    PLAY = "play"
    STEAL = "steal"
    EXECUTE = "execute"

    def __str__(self) -> str:
        return self.value


START, DEAL, KEEP, PILE, PLAY, STEAL, EXECUTE = (Kind.START, Kind.DEAL, Kind.KEEP, Kind.PILE,
                                                  Kind.PLAY, Kind.STEAL, Kind.EXECUTE)
#: Kinds whose action is a chance outcome (supplied by an Rng, the network or a record).
CHANCE_KINDS = frozenset({DEAL, PILE})


# Both games raise the same two errors (game/errors.py): a Reason code and its params ride
# along with the English text; the phrases make the player's sentence from the code.
#: InvalidMoveError codes: ``unknown_seat`` {given}, ``unknown_card`` {given}, ``unknown_action``
#: {verb}, ``not_action`` {given}, ``not_text`` {type}.


def _invalid(code: str, text: str, **params: Any) -> InvalidMoveError:
    return InvalidMoveError(Reason(code, text, **params))


def _seat(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 4 or text != str(int(text)):
        raise _invalid("unknown_seat", f"unknown seat {text!r}"[:60], given=text[:20])
    return int(text)


def _card(text: str) -> Card:
    try:
        return Card.from_name(text)
    except ValueError as e:
        raise _invalid("unknown_card", str(e), given=text[:20]) from None


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(_card(t) for t in text.split(",")) if text else ()


@dataclass(frozen=True, slots=True)
class Action:
    """One action: ``Action(PLAY, 2, card=Card.from_name("K4"))``.

    - ``kind``: a :class:`Kind`.
    - ``seat``: the acting seat (1..4); for START the seat that will lead; 0 for DEAL.
    - ``card``: PLAY's card, EXECUTE's victim, STEAL's chance outcome (None before it is known).
    - ``target``: STEAL's robbed seat, or None for ``steal none``.
    - ``cards``: KEEP's hand, PILE's order (top first).
    - ``groups``: DEAL's dealt cards per seat, then the aside (an empty tuple unless 2 players).
    """

    kind: Kind
    seat: int = 0
    card: Card | None = None
    target: int | None = None
    cards: tuple[Card, ...] = ()
    groups: tuple[tuple[Card, ...], ...] = ()

    # ------------------------------------------------------------ constructors
    @staticmethod
    def play(seat: int, card: Card | str) -> "Action":
        return Action(PLAY, seat, card=card if isinstance(card, Card) else Card.from_name(card))

    @staticmethod
    def steal(seat: int, target: int | None, card: Card | str | None = None) -> "Action":
        """``target`` None is ``steal none``; ``card`` None is the decision before its outcome."""
        if isinstance(card, str):
            card = Card.from_name(card)
        return Action(STEAL, seat, card=card, target=target)

    @staticmethod
    def execute(seat: int, card: Card | str) -> "Action":
        return Action(EXECUTE, seat, card=card if isinstance(card, Card) else Card.from_name(card))

    @staticmethod
    def keep(seat: int, cards: Iterable[Card | str]) -> "Action":
        return Action(KEEP, seat, cards=tuple(sorted(c if isinstance(c, Card) else Card.from_name(c) for c in cards)))

    @staticmethod
    def pile(seat: int, cards: Iterable[Card | str]) -> "Action":
        return Action(PILE, seat, cards=tuple(c if isinstance(c, Card) else Card.from_name(c) for c in cards))

    @staticmethod
    def start(seat: int) -> "Action":
        return Action(START, seat)

    @staticmethod
    def deal(groups: Iterable[Iterable[Card | str]]) -> "Action":
        """``groups``: each seat's dealt cards, then the aside."""
        return Action(DEAL, 0, groups=tuple(tuple(c if isinstance(c, Card) else Card.from_name(c) for c in g)
                                            for g in groups))

    @property
    def is_chance(self) -> bool:
        """True for chance outcomes (DEAL, PILE); a STEAL with its card carries one too."""
        return self.kind in CHANCE_KINDS

    def with_outcome(self, card: Card) -> "Action":
        """This steal decision completed by its chance outcome ``card`` (the card taken)."""
        if self.kind is not STEAL or self.target is None:
            raise ValueError("only a steal from a seat takes a chance outcome")
        return Action(STEAL, self.seat, card=card, target=self.target)

    # ------------------------------------------------------------ text
    @staticmethod
    def from_str(text: str) -> "Action":
        """Parse the notation above. Raises :class:`InvalidMoveError` saying what is wrong
        (``unknown seat``, ``unknown card``, ``unknown action``)."""
        hit = _PARSED.get(text) if isinstance(text, str) else None
        if hit is not None:
            return hit
        if not isinstance(text, str):
            raise _invalid("not_text", f"an action must be a string, not {type(text).__name__}", type=type(text).__name__)
        parts = text.split(" ")
        if len(parts) == 2 and parts[0] == "start":
            return Action(START, _seat(parts[1]))
        if len(parts) == 2 and parts[0] == "deal":
            return Action(DEAL, 0, groups=tuple(_cards(g) for g in parts[1].split("/")))
        if len(parts) < 2:
            raise _invalid("not_action", f"not an action: {text!r}"[:80], given=text[:40])
        seat = _seat(parts[0])
        verb = parts[1]
        if verb == "play" and len(parts) == 3:
            return Action(PLAY, seat, card=_card(parts[2]))
        if verb == "execute" and len(parts) == 3:
            return Action(EXECUTE, seat, card=_card(parts[2]))
        if verb == "steal" and len(parts) == 3 and parts[2] == "none":
            return Action(STEAL, seat)
        if verb == "steal" and len(parts) in (3, 4):
            return Action(STEAL, seat, target=_seat(parts[2]), card=_card(parts[3]) if len(parts) == 4 else None)
        if verb in ("keep", "pile") and len(parts) == 3:
            return Action(Kind(verb), seat, cards=_cards(parts[2]))
        if verb not in ("play", "execute", "steal", "keep", "pile"):
            raise _invalid("unknown_action", f"unknown action {verb!r} (expected play, steal or execute)"[:80],
                           verb=verb[:20])
        raise _invalid("not_action", f"not an action: {text!r}"[:80], given=text[:40])

    def __str__(self) -> str:
        k = self.kind
        if k is PLAY or k is EXECUTE:
            return f"{self.seat} {k.value} {self.card}"
        if k is STEAL:
            if self.target is None:
                return f"{self.seat} steal none"
            return f"{self.seat} steal {self.target}" + ("" if self.card is None else f" {self.card}")
        if k is START:
            return f"start {self.seat}"
        if k is DEAL:
            return "deal " + "/".join(",".join(c.name for c in g) for g in self.groups)
        return f"{self.seat} {k.value} " + ",".join(c.name for c in self.cards)

    def __repr__(self) -> str:
        return f"Action.from_str({str(self)!r})"


_NEW = object.__new__
_SET_KIND, _SET_SEAT, _SET_CARD, _SET_TARGET, _SET_CARDS, _SET_GROUPS = (
    Action.__dict__[f].__set__ for f in ("kind", "seat", "card", "target", "cards", "groups"))


def setup_action(kind: Kind, seat: int, cards: tuple[Card, ...] = (),
                 groups: tuple[tuple[Card, ...], ...] = ()) -> Action:
    """``Action(kind, seat, cards=cards, groups=groups)``, equal to it, made without the
    dataclass's frozen ``__init__`` (half its cost): the record's replay makes ``1 + 2 x
    players`` set-up actions a round. ``cards`` and ``groups`` must be tuples."""
    a = _NEW(Action)
    _SET_KIND(a, kind)
    _SET_SEAT(a, seat)
    _SET_CARD(a, None)
    _SET_TARGET(a, None)
    _SET_CARDS(a, cards)
    _SET_GROUPS(a, groups)
    return a


#: The play/execute/steal texts for every seat and card, parsed once (actions are immutable).
_PARSED: dict[str, Action] = {}
from .cards import CARDS as _CARDS  # noqa: E402

for _s in (1, 2, 3, 4):
    _PARSED[f"{_s} steal none"] = Action(STEAL, _s)
    for _c in _CARDS:
        _PARSED[f"{_s} play {_c}"] = Action(PLAY, _s, card=_c)
        _PARSED[f"{_s} execute {_c}"] = Action(EXECUTE, _s, card=_c)
        for _t in (1, 2, 3, 4):
            _PARSED[f"{_s} steal {_t} {_c}"] = Action(STEAL, _s, card=_c, target=_t)
    for _t in (1, 2, 3, 4):
        _PARSED[f"{_s} steal {_t}"] = Action(STEAL, _s, target=_t)
