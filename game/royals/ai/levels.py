"""The computer levels of Royals & Riots, weakest first, the baseline ``hard-2025``, and :func:`make_player`.

- ``random``, ``greedy``, ``easy``: :mod:`.players` (rule-based).
- ``medium``: the search of :mod:`.ismcts` with a tenth of the budget, its determinizations
  uniform (no inference from the hand choices).
- ``hard``: the search of :mod:`.ismcts` at the full budget (``seconds`` of CPU time per
  decision, default 1 s; the wall clock is capped at 1 s per decision): the faster ISMCTS for
  the play, its determinizations inferring from the others' hand choices (:data:`HAND_BIAS`);
  the greedy's hand at set-up; with 3 or 4 players the options of :data:`MULTI` (the reward:
  the margin over the mean of the others).
- ``hard-2025``: ``hard`` before its ISMCTS rewrite (:mod:`.baselines`), the baseline of the
  strength figures, never offered in the window.

A team's starter is the greedy's rule (its lower scorer) at every level.
"""

from __future__ import annotations

from typing import Any, Callable

from game.rng import Rng

from ..engine.actions import Action
from ..engine.state import Observation, Phase
from .players import DEFAULT_SECONDS, EasyPlayer, GreedyPlayer, Player, RandomPlayer, decide_start
from .baselines import Hard2025Player
from .determinize import SearchResult
from .ismcts import ISMCTS

#: How strongly ``hard`` and ``medium`` infer from the others' hand choices that their piles hold
#: the cards a player lays aside (:class:`.search.Determinizer`'s ``hand_bias``). Chosen by the
#: screening of the ISMCTS rewrite (docs/royals-ai.md).
HAND_BIAS = 1.5
#: ``hard``'s and ``medium``'s search options with 3 or 4 players (no teams), on top of the
#: rest: chosen by the 4-player screening of the rewrite's fourth pass (docs/royals-ai.md): the
#: reward is the margin over the mean of the others (:func:`.ismcts.make_reward`), with which
#: a deeper search wins more. With 2 players or teams the search is the same as before.
MULTI: dict[str, Any] = {"reward": "mean"}


class SearchPlayer:
    """The search of :mod:`.ismcts` from the seat's observation: every play decision, and the
    greedy's hand at set-up; ``seconds`` per decision (None with ``iterations``)."""

    name = "hard"
    share = 1.0
    hand_bias = HAND_BIAS

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, **_: object) -> None:
        self.rng = Rng(seed)
        secs = None if seconds is None else seconds * self.share
        its = None if iterations is None else max(1, int(iterations * self.share))
        self.search = self._search(secs, its)
        #: the search with 3 or 4 players without teams (:data:`MULTI`)
        self.search_multi = self._search(secs, its, **MULTI)
        self.last: SearchResult | None = None

    def _search(self, seconds: float | None, iterations: int | None, **options: Any) -> ISMCTS:
        return ISMCTS(self.rng, seconds, iterations, hand_bias=self.hand_bias, **options)

    def choose(self, obs: Observation) -> Action:
        if obs.phase is Phase.START:
            return decide_start(obs)
        search = self.search_multi if obs.players > 2 and not obs.teams else self.search
        self.last = search.search(obs)
        return self.last.action


class HardPlayer(SearchPlayer):
    name = "hard"


class MediumPlayer(SearchPlayer):
    """``hard``'s search at a tenth of the budget, without the inference from the hand choices
    (uniform determinizations), so that the levels stay spaced."""

    name = "medium"
    share = 0.1
    hand_bias = 0.0


LEVELS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer, "easy": EasyPlayer, "greedy": GreedyPlayer,
    "medium": MediumPlayer, "hard": HardPlayer, "hard-2025": Hard2025Player,
}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)


def make_player(level: str, seed: int | None = None, *, seconds: float | None = DEFAULT_SECONDS,
                iterations: int | None = None) -> Player:
    """A player of ``level`` (a key of :data:`LEVELS`). Raises ValueError for an unknown level."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown computer level {level!r} (choose from {', '.join(LEVELS)})") from None
    return factory(seed, seconds=seconds, iterations=iterations)
