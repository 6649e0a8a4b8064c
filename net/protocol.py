"""Compatibility name for Rose King's LAN protocol: everything lives in :mod:`net.roseking`
(the game's messages and rules) on top of :mod:`net.coin`, :mod:`net.journal` and
:mod:`net.limits` (the skeleton every game's protocol shares)."""

from .coin import CoinEntry, coin_digest, coin_rng, commitment, seat_proof  # noqa: F401
from .journal import Journal  # noqa: F401
from .roseking import *  # noqa: F401,F403
from .roseking import __all__  # noqa: F401
