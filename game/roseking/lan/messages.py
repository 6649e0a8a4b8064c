"""Rose King's match messages on the one LAN layer (docs/protocol.md, "Rose King").

Every message is a map with ``t`` (the type) besides the keys below; the lobby's messages
(``hello``, ``auth``, ``start``, ``ready``, ``caught``, ``over``, ``ping``, ``error``) come
from :mod:`net.lobby` and are never redefined here.

- ``commit{for, c}``: a seat's 32-byte commitment to its secret for coin ``for`` (-1: the
  set-up coin of colours and deal; ``p`` >= 0: the draw made at ply ``p``, i.e. when ``p``
  plies have been played), :func:`net.coin.commitment`.
- ``reveal{for, s}``: the 32-byte secret that opens it.
- ``move{ply, m, hash}``: the sender's play or hero move (record notation, ``m``), which
  makes ply ``ply`` (1-based), and the 32-byte state hash after it
  (:meth:`game.roseking.engine.State.state_hash`). A draw is never a ``move``: it is its coin.
- ``ack{ply, hash}``: the sender holds ply ``ply`` with that state hash (sent for each of the
  other seat's moves and for each draw it resolved).
"""

from __future__ import annotations

from net.framing import MAX_PLY, SHARED_SCHEMAS, Check, binary, integer, string

#: The match messages (type -> key checks), added to the lobby's by the session.
SCHEMAS: dict[str, dict[str, Check]] = {
    "commit": SHARED_SCHEMAS["commit"],
    "reveal": SHARED_SCHEMAS["reveal"],
    "move": {"ply": integer(1, MAX_PLY), "m": string(6, 24), "hash": binary(32)},
    "ack": {"ply": integer(0, MAX_PLY), "hash": binary(32)},
}

#: Token buckets (burst, refill per second). A resumed joiner re-sends its whole outbox at
#: once (a long game: some 70 moves, 130 acks, 25 commits and reveals), hence the bursts.
RATES: dict[str, tuple[float, float]] = {
    "commit": (150, 5), "reveal": (150, 5), "move": (400, 20), "ack": (800, 40),
}
