"""Computer players (pure Python, no pygame). See :mod:`game.ai.players`."""

from .players import (LEVEL_LABELS, LEVELS, EasyPlayer, GreedyPlayer, HardPlayer, MediumPlayer, Player,
                      RandomPlayer, SearchPlayer, Thinker, make_player)

__all__ = ["LEVEL_LABELS", "LEVELS", "EasyPlayer", "GreedyPlayer", "HardPlayer", "MediumPlayer", "Player",
           "RandomPlayer", "SearchPlayer", "Thinker", "make_player"]
