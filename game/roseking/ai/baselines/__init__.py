"""Rose King's baselines for measuring: documented opponents of ``rose-king match`` and of the
benches, never offered in the window (``docs/ai.md`` has their figures; :func:`make_player
<game.roseking.ai.levels.make_player>` makes them by name):

- ``alphabeta``: a plain depth-5 alpha-beta (:mod:`.alphabeta`; ``alphabeta7`` or
  ``alphabeta:7`` for depth 7);
- ``expectimax``: iterative-deepening expectimax alpha-beta with chance nodes
  (:mod:`.expectimax`) and the plain evaluation (margin, heroes, half the tempo term);
- ``expectimax-fit``: the same search with the evaluation fitted to the final score margin
  (:data:`~game.roseking.ai.evaluation.LEVEL_CONFIG`; the one ``hard``'s implicit minimax values use);
- ``mcts-2025``: the plain MCTS that ``hard`` was before the rules kernel (no tree reuse, plain
  UCT), kept so that the measurements of ``docs/ai.md`` stay reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from game.roseking.engine import Move, Rng, State

import game.roseking.ai.kernel as K
from game.roseking.ai.evaluation import LEVEL_CONFIG, win_chance
from game.roseking.ai.players import DEFAULT_SECONDS, Player, SearchPlayer

from .alphabeta import AlphaBetaPlayer
from .expectimax import Expectimax, ExpectimaxConfig, ExpectimaxResult


class MctsBaselinePlayer(SearchPlayer):
    """The ``mcts-2025`` baseline: the MCTS ``hard`` played before the rules kernel (1 s per move by
    default; no tree reuse, plain UCT), kept so that the measurements of ``docs/ai.md`` stay
    reproducible."""

    name = "mcts-2025"


@dataclass
class LevelResult:
    """What the fitted expectimax found (``player.last`` of ``expectimax-fit``).

    ``action``: the kernel action; ``iterations``: nodes searched (0 for a forced move);
    ``seconds``: wall time; ``value``: the mover's winning chance 0..1 (a logistic of
    ``points``, :func:`~.expectimax.win_chance`); ``points``: the search's value
    in score points for the mover; ``depth``: the deepest iteration that counted, in plies.
    """

    action: int
    iterations: int
    seconds: float
    value: float
    points: float
    depth: int


class FittedExpectimaxPlayer:
    """The ``expectimax-fit`` baseline: :class:`~.expectimax.Expectimax` with the
    fitted evaluation (:data:`~.expectimax.LEVEL_CONFIG`), 1 s per move by default
    (a candidate for ``hard``; ``docs/ai.md`` has its figures).

    ``seconds``: wall-clock budget per move (None for none); ``iterations``: a node budget
    instead (None for none), which makes the choices reproducible from ``seed`` on any
    machine. The seed fixes the salt that picks the sampled chance outcomes; the
    transposition table is kept from one choice to the next (tree reuse). ``last`` holds
    the last :class:`LevelResult`; ``stop`` is an optional callable polled during a search
    (returning True ends it early, see ProcessThinker). Other keyword arguments are
    :class:`~.expectimax.ExpectimaxConfig` fields (for benches).
    """

    name = "expectimax-fit"
    #: Share of the budget this player uses.
    share = 1.0

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, **knobs: Any) -> None:
        rng = Rng(seed)
        config = {**LEVEL_CONFIG, **knobs}
        self.config = ExpectimaxConfig(seconds=None if seconds is None else seconds * self.share,
                                       max_nodes=None if iterations is None else max(1, int(iterations * self.share)),
                                       **config)
        self.search = Expectimax(self.config, salt=(rng.next_u32() << 32) | rng.next_u32())
        self.last: LevelResult | None = None
        self.stop: Callable[[], bool] | None = None

    def choose(self, state: State) -> Move:
        st = K.from_state(state)
        r = self.search.search(st, self.stop)
        self.last = LevelResult(r.action, r.nodes, r.seconds, win_chance(r.value), r.value, r.depth)
        return K.to_move(st[K.TURN], r.action)


class ExpectimaxPlayer:
    """The ``expectimax`` baseline: :class:`~.expectimax.Expectimax` for each choice.

    ``seconds``: wall-clock budget per move (default 1.0; None for none); ``iterations``:
    a node budget instead (None for none), which makes the choices reproducible from
    ``seed`` on any machine. The seed fixes the salt that picks the sampled chance
    outcomes; the transposition table is kept from one choice to the next (it stays
    valid: the salt does not change). ``last`` holds the last
    :class:`~.expectimax.ExpectimaxResult`; ``stop`` is an optional callable
    polled during a search (returning True ends it early, see ProcessThinker).
    Other keyword arguments are :class:`~.expectimax.ExpectimaxConfig` fields.
    """

    name = "expectimax"

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, **knobs: Any) -> None:
        rng = Rng(seed)
        self.config = ExpectimaxConfig(seconds=seconds, max_nodes=iterations, **knobs)
        self.search = Expectimax(self.config, salt=(rng.next_u32() << 32) | rng.next_u32())
        self.last: ExpectimaxResult | None = None
        self.stop: Callable[[], bool] | None = None

    def choose(self, state: State) -> Move:
        st = K.from_state(state)
        self.last = self.search.search(st, self.stop)
        return K.to_move(st[K.TURN], self.last.action)


#: Baselines for measuring, not offered in the window: name -> factory(seed, seconds=..., iterations=...).
BASELINES: dict[str, Callable[..., Player]] = {
    "alphabeta": AlphaBetaPlayer,
    "expectimax": ExpectimaxPlayer,
    "expectimax-fit": FittedExpectimaxPlayer,
    "mcts-2025": MctsBaselinePlayer,
}
