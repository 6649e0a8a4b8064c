"""Colours, move kinds and the :class:`Move` value type (ruling 4).

A move's text is its record notation: ``"red play NE2"``, ``"white hero W1"``,
``"red draw S3"`` (the card a draw brought). A draw whose outcome is not known
yet (the decision to draw, before chance supplies the card) is ``"red draw"``.
"""

from __future__ import annotations

from game.errors import IllegalMoveError, InvalidMoveError, Reason  # noqa: F401 (re-exported)

from dataclasses import dataclass
from enum import Enum, IntEnum

from .cards import CARDS, Card


class Color(IntEnum):
    """RED (Lancaster, south edge, moves first) = 0, WHITE (York, north edge) = 1."""

    RED = 0
    WHITE = 1

    @property
    def other(self) -> "Color":
        return Color(1 - self)

    def __str__(self) -> str:
        return self.name.lower()

    @staticmethod
    def from_name(name: str) -> "Color":
        """``"red"`` or ``"white"``. Raises ValueError otherwise."""
        if name == "red":
            return Color.RED
        if name == "white":
            return Color.WHITE
        raise ValueError(f"not a colour: {name!r} (expected red or white)")


RED, WHITE = Color.RED, Color.WHITE


class Kind(str, Enum):
    """The three actions of ruling 4."""

    PLAY = "play"
    HERO = "hero"
    DRAW = "draw"

    def __str__(self) -> str:
        return self.value


PLAY, HERO, DRAW = Kind.PLAY, Kind.HERO, Kind.DRAW
_KINDS = {"play": PLAY, "hero": HERO, "draw": DRAW}


# InvalidMoveError (text that cannot be parsed) and IllegalMoveError (a move the rules refuse,
# carrying the kernel's reason code) are the errors both games share (game/errors.py).


@dataclass(frozen=True, slots=True)
class Move:
    """One action of one player: ``Move(RED, PLAY, Card.from_name("NE2"))``.

    ``card`` is the power card played (PLAY, HERO) or drawn (DRAW); it is None
    only for a draw whose chance outcome has not been supplied yet.

    >>> Move.from_str("red hero NE2")
    Move.from_str('red hero NE2')
    >>> str(Move.from_str("white draw"))
    'white draw'
    """

    player: Color
    kind: Kind
    card: Card | None = None

    @staticmethod
    def from_str(text: str) -> "Move":
        """Parse record notation. Raises :class:`InvalidMoveError` saying what is wrong."""
        move = _PARSED.get(text) if isinstance(text, str) else None
        if move is not None:
            return move
        if not isinstance(text, str):
            raise InvalidMoveError(Reason("not_text", f"a move must be a string, not {type(text).__name__}",
                                          type=type(text).__name__))
        parts = text.split(" ")
        if len(parts) not in (2, 3):
            raise InvalidMoveError(Reason("not_move", f"not a move: {text!r} (expected '<colour> <play|hero|draw> <card>')",
                                          given=text[:40]))
        try:
            player = Color.from_name(parts[0])
        except ValueError as e:
            raise InvalidMoveError(Reason("unknown_colour", str(e), given=parts[0][:20])) from None
        kind = _KINDS.get(parts[1])
        if kind is None:
            raise InvalidMoveError(Reason("unknown_action", f"unknown action {parts[1]!r} in {text!r} (expected play, hero or draw)",
                                          verb=parts[1][:20]))
        if len(parts) == 2:
            if kind is not DRAW:
                raise InvalidMoveError(Reason("needs_card", f"{parts[1]} needs a card: {text!r}", kind=parts[1]))
            return Move(player, kind, None)
        try:
            card = Card.from_name(parts[2])
        except ValueError as e:
            raise InvalidMoveError(Reason("unknown_card", str(e), given=parts[2][:20])) from None
        return Move(player, kind, card)

    def with_outcome(self, card: Card) -> "Move":
        """This draw decision completed by its chance outcome ``card``."""
        if self.kind is not DRAW:
            raise ValueError("only a draw takes a chance outcome")
        return Move(self.player, DRAW, card)

    def __str__(self) -> str:
        if self.card is None:
            return f"{self.player} {self.kind.value}"
        return f"{self.player} {self.kind.value} {self.card}"

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"


#: Every well-formed move text (146 of them) parsed once: moves are immutable, so they are shared.
_PARSED: dict[str, Move] = {}
for _p in (Color.RED, Color.WHITE):
    _PARSED[f"{_p} draw"] = Move(_p, DRAW, None)
    for _k in (PLAY, HERO, DRAW):
        for _c in CARDS:
            _PARSED[f"{_p} {_k.value} {_c}"] = Move(_p, _k, _c)
