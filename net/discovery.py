"""LAN discovery: a host's UDP beacon and the join screen's listener (docs/protocol.md, "Discovery").

A beacon is one UDP datagram holding one msgpack map (no length header),
decoded with the same limits and schema machinery as the TCP frames::

    {"t": "beacon", "proto": "rose-king-lan", "pv": 1, "app": "0.1.0",
     "name": "Alice", "addr": "192.0.2.7", "port": 47123, "peer": <16 bytes>}

The destination is a setting. Its default is the loopback broadcast address
127.255.255.255, so development machines and tests never send to a LAN or a
public address; a real LAN needs ``--beacon-address`` (e.g. the LAN's
broadcast address). The listener lists the *source* address of each datagram
(the advertised ``addr`` is only informative), ignores its own beacons (same
peer id) and anything malformed, and forgets a game not heard for
:data:`EXPIRE` seconds.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Callable

import msgpack

from game import __version__ as APP_VERSION

from . import DISCOVERY_PORT, PROTOCOL_NAME, PROTOCOL_VERSION
from .framing import MAX_NAME, FrameError, _bin, _int, _NAME, _str, decode_payload

INTERVAL = 1.5  #: seconds between beacons
EXPIRE = 5.0  #: seconds after which a silent game leaves the list
DEFAULT_BEACON_ADDRESS = "127.255.255.255"
MAX_DATAGRAM = 512

BEACON_SCHEMAS = {"beacon": {"proto": _str(1, 32), "pv": _int(0, 65535), "app": _str(1, 32), "name": _NAME,
                             "addr": _str(0, 64), "port": _int(1, 65535), "peer": _bin(16)}}


@dataclass(frozen=True)
class FoundGame:
    """A host heard on the LAN. ``address``: where the datagram came from; ``compatible``:
    whether its protocol version is ours (the join screen may grey out the others)."""

    name: str
    address: str
    port: int
    app: str
    peer_id: bytes
    compatible: bool
    last_seen: float


def beacon_datagram(name: str, port: int, peer_id: bytes, addr: str = "") -> bytes:
    """The beacon bytes for a host ``name`` listening on ``port``. Raises ValueError for a bad name."""
    msg = {"t": "beacon", "proto": PROTOCOL_NAME, "pv": PROTOCOL_VERSION, "app": APP_VERSION,
           "name": name[:MAX_NAME], "addr": addr[:64], "port": port, "peer": peer_id}
    data = msgpack.packb(msg, use_bin_type=True)
    decode_payload(data, BEACON_SCHEMAS)  # our own beacon must pass our own checks
    return data


def parse_beacon(data: bytes, source: str, now: float) -> FoundGame | None:
    """A FoundGame from a datagram, or None if it is malformed or too large."""
    if len(data) > MAX_DATAGRAM:
        return None
    try:
        msg = decode_payload(data, BEACON_SCHEMAS)
    except FrameError:
        return None
    if msg["proto"] != PROTOCOL_NAME:
        return None
    return FoundGame(msg["name"], source, msg["port"], msg["app"], msg["peer"],
                     msg["pv"] == PROTOCOL_VERSION, now)


class Beacon:
    """Sends a beacon every :data:`INTERVAL` seconds from a background thread until :meth:`stop`.

    ``address``: the destination (default loopback broadcast); ``dest_port``: the
    listeners' port. Raises OSError if the UDP socket cannot be made.
    """

    def __init__(self, name: str, port: int, *, address: str = DEFAULT_BEACON_ADDRESS,
                 dest_port: int = DISCOVERY_PORT, peer_id: bytes | None = None, interval: float = INTERVAL,
                 advertised: str = "") -> None:
        self.peer_id = peer_id or os.urandom(16)
        self.destination = (address, dest_port)
        self.interval = interval
        self.sent = 0
        self._data = beacon_datagram(name, port, self.peer_id, advertised)
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rose-king-beacon", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._sock.sendto(self._data, self.destination)
                self.sent += 1
            except OSError:
                pass  # no route now; try again next time
            self._stop.wait(self.interval)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self._sock.close()


class BeaconListener:
    """Collects beacons in a background thread; :meth:`games` never blocks.

    ``bind``: the local address to listen on (``""``: all, which is what receives
    broadcasts; tests use 127.0.0.1). ``port``: 0 picks a free port (see
    :attr:`port`). ``ignore``: peer ids to skip (our own beacon's).
    """

    def __init__(self, *, bind: str = "", port: int = DISCOVERY_PORT, ignore: set[bytes] | frozenset = frozenset(),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ignore = set(ignore)
        self.malformed = 0
        self._clock = clock
        self._found: dict[tuple[str, int], FoundGame] = {}
        self._lock = threading.Lock()
        self._heard = threading.Condition(self._lock)
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self._sock.bind((bind, port))
        self._sock.settimeout(0.2)
        self.port = self._sock.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rose-king-discovery", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data, (source, _sport) = self._sock.recvfrom(MAX_DATAGRAM + 1)
            except socket.timeout:
                continue
            except OSError:
                return
            found = parse_beacon(data, source, self._clock())
            with self._lock:
                if found is None:
                    self.malformed += 1
                elif found.peer_id not in self.ignore:
                    self._found[(found.address, found.port)] = found
                self._heard.notify_all()

    def games(self) -> list[FoundGame]:
        """Hosts heard within the last :data:`EXPIRE` seconds, by name then address."""
        now = self._clock()
        with self._lock:
            for key in [k for k, g in self._found.items() if now - g.last_seen > EXPIRE]:
                del self._found[key]
            return sorted(self._found.values(), key=lambda g: (g.name, g.address, g.port))

    def wait_heard(self, timeout: float) -> bool:
        """Block until any datagram (good or bad) arrives or ``timeout`` passes (for tests)."""
        with self._lock:
            return self._heard.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self._sock.close()
