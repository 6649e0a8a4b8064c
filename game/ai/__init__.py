"""Computer players (pure Python, no pygame). See :mod:`game.ai.players`."""

from .players import LEVELS, GreedyPlayer, Player, RandomPlayer, Thinker, make_player

__all__ = ["LEVELS", "GreedyPlayer", "Player", "RandomPlayer", "Thinker", "make_player"]
