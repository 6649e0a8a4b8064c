"""Computer players (pure Python, no pygame).

- :mod:`game.roseking.ai.players`: the :class:`Player` protocol, the levels (:data:`LEVELS`,
  :data:`LEVEL_LABELS`), :func:`make_player`, the thread :class:`Thinker`.
- :mod:`game.roseking.ai.process`: :class:`ProcessThinker` and :func:`make_thinker` (what a
  window should use: the search runs in another process).
- :mod:`game.roseking.ai.expectimax`: expectimax alpha-beta with chance nodes and the fitted
  evaluation (the ``expectimax-fit`` baseline; the ``expectimax`` baseline with the plain one);
  :mod:`game.roseking.ai.alphabeta`: the plain alpha-beta baseline (``alphabeta``);
- :mod:`game.roseking.ai.mcts`: MCTS with chance nodes (``medium``, ``hard``, ``expert``, the ``mcts-2025`` baseline);
  :mod:`game.roseking.ai.kernel`: the fast raw-int rules, playout policy and evaluation it runs on.
- How the levels were chosen and measured: ``docs/ai.md``.
- :mod:`game.roseking.ai.match`: headless matches (``rose-king match``).
"""

from .players import (BASELINES, DEFAULT_SECONDS, LEVEL_LABELS, LEVEL_NAMES, LEVELS, EasyPlayer, ExpectimaxPlayer,
                      ExpertPlayer, GreedyPlayer, HardPlayer, MediumPlayer, Player, RandomPlayer, SearchPlayer, Thinker,
                      make_player, parse_level)
from .process import ProcessThinker, make_thinker

__all__ = ["BASELINES", "DEFAULT_SECONDS", "LEVEL_LABELS", "LEVEL_NAMES", "LEVELS", "EasyPlayer", "ExpectimaxPlayer",
           "ExpertPlayer",
           "GreedyPlayer", "HardPlayer", "MediumPlayer", "Player", "ProcessThinker", "RandomPlayer", "SearchPlayer",
           "Thinker", "make_player", "make_thinker", "parse_level"]
