"""The 36 cards of Royals & Riots, their ranks, points and the hierarchy (rulings 1-3).

Cards are integers 0..35 inside the engine and :class:`Card` values at its surface.
The index order is the normal hierarchy from the top: ``KING`` (0), ``QUEEN`` (1),
``R1``..``R7`` (2..8), ``K1``..``K7`` (9..15), ``M1``..``M7`` (16..22), ``P1``..``P10``
(23..32), then the rankless ``THIEF`` (33), ``EXECUTIONER`` (34), ``BEGGAR`` (35).
This index order is *the* sorted order of cards wherever cards are sorted.

>>> Card.from_name("K4")
Card.from_name('K4')
>>> c = Card.from_name("P7"); (c.rank, c.number, c.points, c.is_rebels)
(<Rank.PEASANTS: 5>, 7, 3, True)
>>> sum(c.points for c in CARDS)
40
>>> stronger(Card.from_name("KING").index, Card.from_name("P10").index, revolution=True)
False
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import attrgetter, or_
from enum import IntEnum
from typing import Iterable, Iterator

NUM_CARDS = 36
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1


class Rank(IntEnum):
    """The six ranks (the rule text's *rangen*), highest first in the normal order (ruling 3)."""

    KING = 0
    QUEEN = 1
    ROYALS = 2
    KNIGHTS = 3
    MERCHANTS = 4
    PEASANTS = 5

    @property
    def title(self) -> str:
        """English name used in messages: ``"Merchants"``."""
        return _RANK_TITLES[self]

    def __str__(self) -> str:
        return _RANK_TITLES[self]


_RANK_TITLES = ("King", "Queen", "Royals", "Knights", "Merchants", "Peasants")
_PREFIX = {Rank.ROYALS: "R", Rank.KNIGHTS: "K", Rank.MERCHANTS: "M", Rank.PEASANTS: "P"}
_SIZES = {Rank.KING: 1, Rank.QUEEN: 1, Rank.ROYALS: 7, Rank.KNIGHTS: 7, Rank.MERCHANTS: 7, Rank.PEASANTS: 10}

_names: list[str] = []
_ranks: list[int] = []
_numbers: list[int] = []
for _r in Rank:
    for _n in range(1, _SIZES[_r] + 1):
        _names.append(_r.name if _r in (Rank.KING, Rank.QUEEN) else f"{_PREFIX[_r]}{_n}")
        _ranks.append(int(_r))
        _numbers.append(_n)
for _name in ("THIEF", "EXECUTIONER", "BEGGAR"):
    _names.append(_name)
    _ranks.append(-1)
    _numbers.append(0)

#: Card names by index (``CARD_NAMES[9] == "K1"``).
CARD_NAMES: tuple[str, ...] = tuple(_names)
#: Rank by index, -1 for the three rankless cards.
RANK_OF: tuple[int, ...] = tuple(_ranks)
#: Number within the rank by index (King and Queen are 1), 0 for the rankless cards.
NUMBER_OF: tuple[int, ...] = tuple(_numbers)
_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}

KING, QUEEN = 0, 1
THIEF, EXECUTIONER, BEGGAR = 33, 34, 35
REBELS = _BY_NAME["P7"]
PRINCES = (_BY_NAME["R3"], _BY_NAME["R5"])
PRINCES_MASK = (1 << PRINCES[0]) | (1 << PRINCES[1])
RANKLESS_MASK = (1 << THIEF) | (1 << EXECUTIONER) | (1 << BEGGAR)
RANKED_MASK = ALL_CARDS_MASK & ~RANKLESS_MASK
#: ``RANK_MASK[rank]`` is the bit set of every card of that rank.
RANK_MASK: tuple[int, ...] = tuple(sum(1 << i for i in range(NUM_CARDS) if RANK_OF[i] == r) for r in Rank)
#: ``GUILDMASTER[rank]`` is the index of the rank's Guildmaster (its 4), or -1 (King, Queen).
GUILDMASTER: tuple[int, ...] = tuple(_BY_NAME[f"{_PREFIX[r]}4"] if r in _PREFIX else -1 for r in Rank)


def _points(i: int) -> int:
    if i in (KING, QUEEN, REBELS) or i in PRINCES:
        return 3
    if i in (THIEF, EXECUTIONER):
        return 0
    if i == BEGGAR:
        return -3
    return 1


#: Points by index (ruling 2): King, Queen, each Prince and the Rebels 3; Thief and
#: Executioner 0; Beggar -3; every other card 1. The deck holds 40 points.
POINTS: tuple[int, ...] = tuple(_points(i) for i in range(NUM_CARDS))


def strength(i: int, revolution: bool) -> int:
    """The place of ranked card ``i`` in the order in force, higher wins (ruling 3).

    Normal order: King 32 .. Peasant 10 0 (index order reversed); during a revolution
    the whole order is reversed (Peasant 10 is 32, King 0). Rankless cards: -1.
    """
    if i >= THIEF:
        return -1
    return i if revolution else 32 - i


def stronger(a: int, b: int, revolution: bool) -> bool:
    """True if ranked card ``a`` beats ranked card ``b`` in the order in force (ruling 3)."""
    return strength(a, revolution) > strength(b, revolution)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 36 cards (ruling 1). Interned: ``Card.from_name("K4") is Card.from_name("K4")``.

    Ordering and ``index`` follow the canonical order KING, QUEEN, R1 .. P10, THIEF,
    EXECUTIONER, BEGGAR (the normal hierarchy from the top).
    """

    index: int

    @staticmethod
    def from_name(name: str) -> "Card":
        """Parse ``"K4"``, ``"KING"``, ``"THIEF"`` ... Raises ValueError (``unknown card``)."""
        try:
            return CARDS[_BY_NAME[name]]
        except (KeyError, TypeError):
            raise ValueError(f"unknown card {name!r}"[:80]) from None

    @property
    def name(self) -> str:
        return CARD_NAMES[self.index]

    @property
    def rank(self) -> Rank | None:
        """The card's rank, or None for Thief, Executioner and Beggar."""
        r = RANK_OF[self.index]
        return None if r < 0 else Rank(r)

    @property
    def number(self) -> int | None:
        """1..10 within the rank (King and Queen: 1); None for the rankless cards."""
        return NUMBER_OF[self.index] or None

    @property
    def points(self) -> int:
        return POINTS[self.index]

    @property
    def is_rankless(self) -> bool:
        return self.index >= THIEF

    @property
    def is_guildmaster(self) -> bool:
        return self.index in GUILDMASTER

    @property
    def is_prince(self) -> bool:
        return self.index in PRINCES

    @property
    def is_rebels(self) -> bool:
        return self.index == REBELS

    def __str__(self) -> str:
        return CARD_NAMES[self.index]

    def __repr__(self) -> str:
        return f"Card.from_name({CARD_NAMES[self.index]!r})"


_INDEX = attrgetter("index")
CARDS: tuple[Card, ...] = tuple(object.__new__(Card) for _ in range(NUM_CARDS))
for _i, _c in enumerate(CARDS):
    object.__setattr__(_c, "index", _i)
del _i, _c, _r, _n, _name


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a 36-bit card set, in canonical order."""
    return tuple(CARDS[i] for i in iter_bits(mask))


def mask_of(cards: Iterable[Card | int]) -> int:
    """The 36-bit card set of ``cards`` (Card values or indices)."""
    m = 0
    for c in cards:
        m |= 1 << (c if isinstance(c, int) else c.index)
    return m


_BIT = tuple(1 << i for i in range(NUM_CARDS))


def bits_of(cards: Iterable[Card]) -> int:
    """The 36-bit card set of :class:`Card` values (:func:`mask_of` for Cards only, faster)."""
    return reduce(or_, map(_BIT.__getitem__, map(_INDEX, cards)), 0)


def points_of(mask: int) -> int:
    """Sum of the points of a card set (ruling 2)."""
    return sum(POINTS[i] for i in iter_bits(mask))


def parse_cards(names: Iterable[str]) -> tuple[Card, ...]:
    """Cards from names. Raises ValueError (``unknown card``)."""
    return tuple(Card.from_name(n) for n in names)
