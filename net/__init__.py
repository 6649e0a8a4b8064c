"""LAN play: framing, the one LAN layer every game uses, each game's match machine, and UDP
discovery (14 and 33; documented in ``docs/protocol.md``).

Nothing here imports pygame. The layers, bottom up:

- :mod:`net.framing`: 4-byte length + one msgpack map, tight decoding limits, schema check
  (the connection skeleton every game shares, ``SHARED_SCHEMAS``: commit, reveal, ping, error).
- :mod:`net.coin`: commitments, coin digests and seat proofs (SHA-256 / HMAC over documented
  byte layouts), the chance outcome's generator; :mod:`net.limits`: rate limits, deadlines, names.
- The one LAN layer (docs/protocol.md, "The LAN layer"): :mod:`net.link` (one framed
  connection, limits, heartbeat), :mod:`net.match` (what a game brings: its
  :class:`~net.match.LanPart` and match machine; who owes what, and the forfeit rules read from
  it), :mod:`net.lobby` (the hello with the game's key and versions, seats, start/ready, seat
  proofs; pure) and :mod:`net.session` (the thread that drives them, on :mod:`net.connections`: sockets;
  :mod:`net.computers`: computer seats; :mod:`net.journal`: journal and record files;
  :mod:`net.events`: events as codes), in the way h11 is built: machines consume events and return events.
- :mod:`game.roseking.lan`: Rose King's match machine and messages on the layer. :mod:`game.royals.lan`:
  Royals & Riots' match machine with no trusted dealer (:mod:`game.royals.lan.match`, on
  :mod:`net.deck` and :mod:`net.signed`), on the layer too.
- :mod:`net.headless`: a computer playing one seat without a window.
- :mod:`net.discovery`: the UDP beacon (the LAN's broadcast addresses) and its listener.
"""

PROTOCOL_NAME = "rose-king-lan"
#: The LAN layer's protocol version: every hello's and every discovery beacon's ``pv``
#: (2: the per-game protocols; 3: the one layer before signing keys; 4: the hello's ``sk``).
PROTOCOL_VERSION = 4
DEFAULT_PORT = 47123
DISCOVERY_PORT = 47124
