"""LAN play for Rose King: framing, the pure protocol state machine, the TCP
transport and UDP discovery (issue 7; documented in ``docs/protocol.md``).

Nothing here imports pygame. The layers, bottom up:

- :mod:`net.framing`: 4-byte length + one msgpack map, tight decoding limits, schema check.
- :mod:`net.protocol`: :class:`~net.protocol.Connection`, bytes in -> events, events -> bytes,
  ``tick(now)`` for the heartbeat; no sockets, threads or clock reads (the way h11 is built).
- :mod:`net.transport`: :class:`~net.transport.LanSession`, the protocol over TCP in a
  background thread with a non-blocking ``poll()`` for a frame loop.
- :mod:`net.discovery`: the UDP beacon and its listener.
"""

PROTOCOL_NAME = "rose-king-lan"
PROTOCOL_VERSION = 2
DEFAULT_PORT = 47123
DISCOVERY_PORT = 47124
