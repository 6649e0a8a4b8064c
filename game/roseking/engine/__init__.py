"""The Rose King rules engine: pure Python, no pygame.

The rules live once, on raw ints, in :mod:`game.roseking.engine.kernel`; :class:`State` is
the value-typed surface over it (and the computer players search the kernel directly).

>>> from game.roseking.engine import State, Move, Rng
>>> s = State.random(Rng(1))
>>> s.turn
<Color.RED: 0>
"""

from .cards import (CARDS, CARD_NAMES, CENTER, DIRECTIONS, NUM_CARDS, NUM_SQUARES, SIZE, Card,
                    parse_square, square, square_file, square_name, square_rank)
from game.errors import IllegalMoveError, InvalidMoveError

from .moves import DRAW, HERO, PLAY, RED, WHITE, Color, Kind, Move
from .record import FORMAT, VERSION, Record, RecordError, now_iso, status_line
from game.rng import Rng
from .kernel import HAND_LIMIT, HEROES_PER_PLAYER, TOTAL_STONES, score_of, territories
from .state import Outcome, State, Termination, decide, random_deal

__all__ = [
    "CARDS", "CARD_NAMES", "CENTER", "DIRECTIONS", "NUM_CARDS", "NUM_SQUARES", "SIZE", "Card",
    "parse_square", "square", "square_file", "square_name", "square_rank",
    "DRAW", "HERO", "PLAY", "RED", "WHITE", "Color", "IllegalMoveError", "InvalidMoveError", "Kind", "Move",
    "FORMAT", "VERSION", "Record", "RecordError", "now_iso", "status_line", "Rng",
    "HAND_LIMIT", "HEROES_PER_PLAYER", "TOTAL_STONES", "Outcome", "State", "Termination", "decide",
    "random_deal", "score_of", "territories",
]
