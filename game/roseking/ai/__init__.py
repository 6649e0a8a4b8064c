"""Computer players (pure Python, no pygame).

- :mod:`game.roseking.ai.players`: the :class:`Player` protocol, the levels (:data:`LEVELS`,
  :data:`LEVEL_LABELS`), the thread :class:`Thinker`; :mod:`game.roseking.ai.levels`:
  :func:`make_player` by name (levels and baselines).
- :mod:`game.roseking.ai.process`: :class:`ProcessThinker` and :func:`make_thinker` (what a
  window should use: the search runs in another process).
- :mod:`game.roseking.ai.evaluation`: the fitted margin evaluation (and the plain one);
- :mod:`game.roseking.ai.baselines`: the baselines for measuring, never offered in the window
  (``alphabeta``, ``expectimax``, ``expectimax-fit``, ``mcts-2025``);
- :mod:`game.roseking.ai.mcts`: MCTS with chance nodes (``medium``, ``hard``, ``expert``, the ``mcts-2025`` baseline);
  :mod:`game.roseking.ai.kernel`: the fast raw-int rules, playout policy and evaluation it runs on.
- How the levels were chosen and measured: ``docs/ai.md``.
- :mod:`game.roseking.ai.match`: headless matches (``rose-king match``).
"""

from .baselines import BASELINES, ExpectimaxPlayer
from .levels import LEVEL_NAMES, make_player, parse_level
from .players import (DEFAULT_SECONDS, LEVEL_LABELS, LEVELS, EasyPlayer, ExpertPlayer, GreedyPlayer, HardPlayer,
                      MediumPlayer, Player, RandomPlayer, SearchPlayer, Thinker)
from .process import ProcessThinker, make_thinker

__all__ = ["BASELINES", "DEFAULT_SECONDS", "LEVEL_LABELS", "LEVEL_NAMES", "LEVELS", "EasyPlayer", "ExpectimaxPlayer",
           "ExpertPlayer",
           "GreedyPlayer", "HardPlayer", "MediumPlayer", "Player", "ProcessThinker", "RandomPlayer", "SearchPlayer",
           "Thinker", "make_player", "make_thinker", "parse_level"]
