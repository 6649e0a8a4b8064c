"""Rose King over the LAN, on the one LAN layer (docs/protocol.md, "Rose King").

- :mod:`game.roseking.lan.messages`: the match messages (``commit``, ``reveal``, ``move``, ``ack``)
  and their rate limits, on top of the one LAN layer's lobby.
- :mod:`game.roseking.lan.match`: :class:`~game.roseking.lan.match.RoseKingMatch`, one seat's match
  machine (pure; who owes what), and :data:`~game.roseking.lan.match.LAN`, Rose King's
  :class:`net.match.LanPart` (registered as ``GAME.lan``).
"""
