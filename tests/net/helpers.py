"""Shared set-ups of the in-memory protocol tests (a :class:`net.loopback.Pair` mid-game)."""

from __future__ import annotations

from game.roseking.ai import make_player
from game.roseking.engine import DRAW, Move
from net.loopback import Pair


def mid_game(plies: int, seed: int = 1) -> Pair:
    """A pair that played ``plies`` moves (random computer vs random computer), all delivered."""
    p = Pair(seed)
    p.pump()
    players = {p.host: make_player("random", 7), p.join: make_player("random", 8)}
    while p.host.game.state.ply < plies:
        m = p.mover()
        m.play(players[m].choose(m.game.state))
        p.pump()
    return p


def until_mover_can_draw(p: Pair) -> None:
    """Play non-draw moves until the side to move may draw."""
    g = p.host.game
    while Move(g.state.turn, DRAW, None) not in g.state.legal_moves():
        m = p.mover()
        m.play(next(x for x in m.game.state.legal_moves() if x.kind is not DRAW))
        p.pump()
