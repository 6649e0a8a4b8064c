"""The Royals & Riots rules engine: pure Python, no pygame (rulings 1-10 and A1-A7 of
``docs/royals-rules.md``).

The API in brief (python-chess and OpenSpiel are the models):

- :class:`Card` (``Card.from_name("K4")``, ``.name``, ``.rank``, ``.number``, ``.points``),
  :class:`Rank`; :class:`Action` (``Action.from_str("1 steal 2 M3")``, ``str(action)``).
- :class:`State` ``(players, teams)``: a whole match of 3 rounds. ``phase`` says what it
  waits for; ``to_act`` is the deciding seat (0 at chance events). :meth:`State.chance`
  gives the pending :class:`ChanceEvent` (round 1's starter, the deal, each draw pile's
  order, the card a Thief takes unseen) with ``outcomes()``/``sample(rng)``: the outcome
  comes from outside (a seeded :class:`~game.rng.Rng`, the network, a record).
  :meth:`State.legal_actions` lists the decisions (hand choice, play, steal target or none,
  execution, a team's starter); ``push`` is unchecked and fast, ``push_checked``/``push_str``
  raise :class:`IllegalMoveError` with the reason; ``pop`` undoes; ``history`` is the action
  list; ``copy(stack=False)`` for search; ``observation(seat)`` is one seat's information
  state; ``scores()``/``outcome()`` the results.
- :class:`SeatView` (``view.py``): what one seat knows when it is told only its own part
  (LAN joiners): its ``observation()`` and a consistent full ``state``.
- :class:`Record` (``from_dict``/``to_json``/``replay``), :func:`status_line`, :class:`RecordError`.

A whole match, every chance outcome from one seeded generator:

>>> from game.royals.engine import State, Rng
>>> s, rng = State(players=3), Rng(5)
>>> while not s.is_over():
...     event = s.chance()
...     if event is not None:
...         s.push(event.sample(rng))        # the deal, a pile order, a stolen card ...
...     else:
...         s.push_checked(rng.choice(s.legal_actions()))
>>> s.outcome().winners, sum(len(r) for r in s.outcome().rounds)
((2,), 9)
>>> s.push_str("1 play K4")
Traceback (most recent call last):
...
game.errors.IllegalMoveError: match already over
"""

from game.rng import Rng

from game.errors import IllegalMoveError, InvalidMoveError

from .actions import CHANCE_KINDS, DEAL, EXECUTE, KEEP, PILE, PLAY, START, STEAL, Action, Kind
from .cards import (CARD_NAMES, CARDS, NUM_CARDS, POINTS, Card, Rank, cards_of, mask_of, points_of, strength)
from .record import FORMAT, SAMPLE, VERSION, Record, RecordError, RoundRecord, now_iso, status_line
from .state import (ROUNDS, SETUP, ChanceEvent, Observation, Outcome, Phase, State, team_of, trick_winner)
from .view import SeatView, ViewError

__all__ = [
    "Rng", "CHANCE_KINDS", "DEAL", "EXECUTE", "KEEP", "PILE", "PLAY", "START", "STEAL", "Action",
    "IllegalMoveError", "InvalidMoveError", "Kind", "CARD_NAMES", "CARDS", "NUM_CARDS", "POINTS", "Card",
    "Rank", "cards_of", "mask_of", "points_of", "strength", "FORMAT", "SAMPLE", "VERSION", "Record",
    "RecordError", "RoundRecord", "now_iso", "status_line", "ROUNDS", "SETUP", "ChanceEvent", "Observation",
    "Outcome", "Phase", "State", "team_of", "trick_winner", "SeatView", "ViewError",
]
