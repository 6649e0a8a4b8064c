"""Rose King over the LAN.

- :mod:`net.roseking.messages`: the match messages (``commit``, ``reveal``, ``move``, ``ack``)
  and their rate limits, on top of the one LAN layer's lobby (docs/protocol.md, "Rose King").
- :mod:`net.roseking.match`: :class:`~net.roseking.match.RoseKingMatch`, one seat's match
  machine (pure; who owes what), and :data:`~net.roseking.match.LAN`, Rose King's
  :class:`net.match.LanPart` (registered as ``GAME.lan``).
- :mod:`net.roseking.v2`: the version-2 stack's ``Connection`` (framing, handshake, resume,
  coins and moves in one class), still used by :mod:`net.transport` and the window until the
  port to the layer is finished (issue 33); its names are re-exported here for those callers.
"""

from __future__ import annotations

from .v2 import *  # noqa: F401,F403  (the version-2 names, until the port is finished)
from .v2 import __all__  # noqa: F401
