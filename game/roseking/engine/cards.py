"""Board geometry, power cards and the crown's target table.

Squares are integers 0..80: ``square = rank * 9 + file`` with files a..i (0..8)
running west to east and ranks 1..9 (0..8) running south to north (ruling 1).
So a1 = 0, i1 = 8, a2 = 9, e5 = 40 (the crown's start), i9 = 80.

Power cards are integers 0..23 inside the engine and :class:`Card` values at its
surface: ``index = direction * 3 + (distance - 1)`` with directions in the order
N, NE, E, SE, S, SW, W, NW (ruling 2). This index order is *the* sorted order of
cards used wherever cards are sorted (draw-pile outcomes, the network's joint coin).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

FILES = "abcdefghi"
SIZE = 9
NUM_SQUARES = SIZE * SIZE
CENTER = 4 * SIZE + 4  # e5

DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: (file step, rank step) per direction; N is towards rank 9 (ruling 2).
DIRECTION_STEPS: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1),
)
NUM_CARDS = 24
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1


def square(file: int, rank: int) -> int:
    """Square index of ``file`` 0..8 (a..i) and ``rank`` 0..8 (1..9)."""
    return rank * SIZE + file


def square_file(sq: int) -> int:
    """File 0..8 (a..i) of square ``sq``."""
    return sq % SIZE


def square_rank(sq: int) -> int:
    """Rank 0..8 (ranks 1..9) of square ``sq``."""
    return sq // SIZE


def square_name(sq: int) -> str:
    """``"e5"`` for 40. Raises IndexError outside 0..80."""
    if not 0 <= sq < NUM_SQUARES:
        raise IndexError(f"square {sq} is not on the board")
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


def parse_square(name: str) -> int:
    """40 for ``"e5"``. Raises ValueError for anything that is not a1..i9."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "123456789":
        raise ValueError(f"not a square: {name!r} (expected a1..i9)")
    return square(FILES.index(name[0]), int(name[1]) - 1)


def _step(sq: int, card: int) -> int:
    df, dr = DIRECTION_STEPS[card // 3]
    dist = card % 3 + 1
    f, r = sq % SIZE + df * dist, sq // SIZE + dr * dist
    if 0 <= f < SIZE and 0 <= r < SIZE:
        return r * SIZE + f
    return -1


#: ``TARGET[sq * 24 + card]`` is where card ``card`` moves a crown on ``sq``, or -1 off the board.
TARGET: tuple[int, ...] = tuple(_step(sq, c) for sq in range(NUM_SQUARES) for c in range(NUM_CARDS))

CARD_NAMES: tuple[str, ...] = tuple(f"{d}{n}" for d in DIRECTIONS for n in (1, 2, 3))
_CARD_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A power card: a direction (N..NW) and a distance 1..3 (ruling 2).

    Cards are interned: ``Card.from_name("NE2") is Card.from_name("NE2")``.
    Ordering and ``index`` follow the canonical card order N1, N2, N3, NE1 ... NW3.

    >>> Card.from_name("NE2")
    Card.from_name('NE2')
    >>> Card.from_name("NE2").distance, Card.from_name("NE2").direction
    (2, 'NE')
    """

    index: int

    @staticmethod
    def from_name(name: str) -> "Card":
        """Parse ``"NE2"``. Raises ValueError naming the bad text."""
        try:
            return CARDS[_CARD_BY_NAME[name]]
        except (KeyError, TypeError):
            raise ValueError(f"not a power card: {name!r} (expected N1..NW3)") from None

    @property
    def name(self) -> str:
        return CARD_NAMES[self.index]

    @property
    def direction(self) -> str:
        return DIRECTIONS[self.index // 3]

    @property
    def distance(self) -> int:
        return self.index % 3 + 1

    @property
    def step(self) -> tuple[int, int]:
        """(file step, rank step) of one square in this card's direction."""
        return DIRECTION_STEPS[self.index // 3]

    def target(self, sq: int) -> int | None:
        """Square the crown on ``sq`` moves to, or None if that is off the board."""
        t = TARGET[sq * NUM_CARDS + self.index]
        return None if t < 0 else t

    def __str__(self) -> str:
        return CARD_NAMES[self.index]

    def __repr__(self) -> str:
        return f"Card.from_name({CARD_NAMES[self.index]!r})"


CARDS: tuple[Card, ...] = tuple(object.__new__(Card) for _ in range(NUM_CARDS))
for _i, _c in enumerate(CARDS):
    object.__setattr__(_c, "index", _i)
del _i, _c


def cards_of(mask: int) -> list[Card]:
    """The cards of a 24-bit card set, in canonical order."""
    return [CARDS[i] for i in iter_bits(mask)]


def mask_of(cards: Iterable[Card]) -> int:
    """The 24-bit card set of ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
