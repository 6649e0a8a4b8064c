"""Rose King over the LAN, on the one LAN layer (docs/protocol.md, "Rose King").

- :mod:`net.roseking.messages`: the match messages (``commit``, ``reveal``, ``move``, ``ack``)
  and their rate limits, on top of the one LAN layer's lobby.
- :mod:`net.roseking.match`: :class:`~net.roseking.match.RoseKingMatch`, one seat's match
  machine (pure; who owes what), and :data:`~net.roseking.match.LAN`, Rose King's
  :class:`net.match.LanPart` (registered as ``GAME.lan``).
"""
