"""LAN play: framing, the connection skeleton every game shares, Rose King's protocol, the
TCP transport and UDP discovery (issues 7 and 14; documented in ``docs/protocol.md``).

Nothing here imports pygame. The layers, bottom up:

- :mod:`net.framing`: 4-byte length + one msgpack map, tight decoding limits, schema check
  (the shared messages in ``SHARED_SCHEMAS``, Rose King's on top in ``SCHEMAS``).
- :mod:`net.coin`: commitments, coin digests and seat proofs (SHA-256 / HMAC over documented
  byte layouts), the chance outcome's generator; :mod:`net.journal`: a seat's promises,
  journaled before they are sent; :mod:`net.limits`: rate limits, deadlines, names.
- :mod:`net.roseking`: Rose King's match machine on the one layer (``match.py``, ``messages.py``)
  and, until the window is ported, the version-2 :mod:`net.roseking.v2` (alias :mod:`net.protocol`,
  its names re-exported by :mod:`net.roseking`): :class:`~net.roseking.v2.Connection`,
  bytes in -> events, events -> bytes, ``tick(now)`` for time; no sockets, threads or clock
  reads (the way h11 is built).
- :mod:`net.transport`: :class:`~net.transport.LanSession`, the protocol over TCP in a
  background thread with a non-blocking ``poll()`` for a frame loop; a host holds strangers'
  connections apart until they prove a seat.
- :mod:`net.discovery`: the UDP beacon (the LAN's broadcast addresses) and its listener.

The one LAN layer every game is moving to (issue 33; docs/protocol.md, "The LAN layer"):
:mod:`net.match` (what a game brings: its :class:`~net.match.LanPart` and match machine; who
owes what, and the forfeit rules read from it), :mod:`net.lobby` (the hello with the game's
key and versions, seats, start/ready, seat proofs; pure) and :mod:`net.session` (threads,
sockets, journal and record files, computer seats, events as codes; :func:`net.session.probe_host`
tells a host's game from its hello), over :mod:`net.link` (one connection's frames, limits and
heartbeat). :mod:`net.royals`: Royals & Riots' match machine with no trusted dealer
(:mod:`net.royals.fair`, on :mod:`net.deck` and :mod:`net.signed`), registered on the layer.
"""

PROTOCOL_NAME = "rose-king-lan"
PROTOCOL_VERSION = 2
DEFAULT_PORT = 47123
DISCOVERY_PORT = 47124
