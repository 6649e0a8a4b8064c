"""LAN discovery: a host's UDP beacon and the join screen's listener (docs/protocol.md, "Discovery").

A beacon is one UDP datagram holding one msgpack map (no length header),
decoded with the same limits and schema machinery as the TCP frames::

    {"t": "beacon", "proto": "rose-king-lan", "pv": 2, "app": "0.1.0", "g": "rose-king",
     "name": "Alice", "addr": "192.0.2.7", "port": 47123, "peer": <16 bytes>}

``g`` is the key of the game the table plays (the registry's, ``""`` when the sender does not
say), so the one join screen shows each table's game. Beside each beacon a host whose table is
known sends a second datagram, the **table**::

    {"t": "table", "peer": <16 bytes>, "players": ["Alice", "Computer (easy)"], "free": 1,
     "state": "open"}

(the seated players' names, the free seats, ``open``/``playing``/``over``), which the listener
joins to the beacon of the same ``peer`` (an older listener ignores it as malformed).

In the product a beacon goes to the LAN's broadcast addresses (:func:`broadcast_targets`:
each IPv4 interface's broadcast address, and 255.255.255.255) and the listener listens on
all interfaces. Loopback only (:func:`loopback_only`: the environment variable
``ROSE_KING_LAN_LOOPBACK=1``, which ``--loopback`` and the test suite set) sends to
127.0.0.1 and listens there; then a beacon refuses any other destination. The listener
lists the *source* address of each datagram (the advertised ``addr`` is only
informative), ignores its own beacons (same peer id) and anything malformed, forgets a
game not heard for :data:`EXPIRE` seconds, and keeps at most :data:`MAX_FOUND` games.
"""

from __future__ import annotations

import os
import socket
import struct
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Callable

import msgpack

from game import __version__ as APP_VERSION

from . import DISCOVERY_PORT, PROTOCOL_NAME, PROTOCOL_VERSION
from .framing import MAX_NAME, FrameError, binary, decode_payload, integer, list_of, one_of, player_name, string

INTERVAL = 1.5  #: seconds between beacons
EXPIRE = 5.0  #: seconds after which a silent game leaves the list
MAX_FOUND = 32  #: games listed at once; beacons of further hosts are ignored until one expires
LOOPBACK_ENV = "ROSE_KING_LAN_LOOPBACK"
LOOPBACK_TARGET = "127.0.0.1"
LIMITED_BROADCAST = "255.255.255.255"
DEFAULT_BEACON_ADDRESS = LOOPBACK_TARGET  #: kept for callers that name one address
MAX_DATAGRAM = 512


def loopback_only(environ: "os._Environ[str] | dict[str, str] | None" = None) -> bool:
    """Whether LAN traffic must stay on this machine (``ROSE_KING_LAN_LOOPBACK`` set and not "0")."""
    env = os.environ if environ is None else environ
    return env.get(LOOPBACK_ENV, "") not in ("", "0")


def _is_loopback(address: str) -> bool:
    return address.startswith("127.") or address in ("::1", "localhost")


def _each_interface(read: Callable[[int, bytes], "str | None"]) -> list[str]:
    """``read(fd, ifreq)`` for every network interface (Linux ioctls on a UDP socket that
    sends nothing), skipping interfaces where it raises OSError or returns None; [] where
    the platform has no ``fcntl`` or ``if_nameindex``."""
    try:
        import fcntl  # noqa: F401  (only to know the ioctls exist here)
        names = [name for _index, name in socket.if_nameindex()]
    except (ImportError, OSError, AttributeError):
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                value = read(s.fileno(), struct.pack("256s", name.encode()[:15]))
            except OSError:  # e.g. no IPv4 address on this interface
                continue
            if value is not None:
                found.append(value)
    return found


def _broadcast_of(fd: int, req: bytes) -> str | None:
    import fcntl
    flags = struct.unpack("H", fcntl.ioctl(fd, 0x8913, req)[16:18])[0]  # SIOCGIFFLAGS
    if not flags & 0x1 or not flags & 0x2 or flags & 0x8:  # up, broadcast, not loopback
        return None
    return socket.inet_ntoa(fcntl.ioctl(fd, 0x8919, req)[20:24])  # SIOCGIFBRDADDR


def _address_of(fd: int, req: bytes) -> str:
    import fcntl
    return socket.inet_ntoa(fcntl.ioctl(fd, 0x8915, req)[20:24])  # SIOCGIFADDR


def interface_broadcasts() -> list[str]:
    """The broadcast address of every IPv4 interface that is up and can broadcast (not
    loopback), read with ioctls (Linux; elsewhere an empty list). Sends nothing."""
    return _each_interface(_broadcast_of)


def interface_addresses() -> list[str]:
    """The IPv4 address of every network interface (loopback included), read with ioctls
    (Linux; elsewhere an empty list). Sends nothing: a host reads these out to its guests."""
    return _each_interface(_address_of)


def broadcast_targets(loopback: bool | None = None,
                      interfaces: Callable[[], list[str]] = interface_broadcasts) -> list[str]:
    """Where a host's beacon goes: with ``loopback`` (default :func:`loopback_only`) only
    127.0.0.1; else each interface's broadcast address, then 255.255.255.255."""
    if loopback_only() if loopback is None else loopback:
        return [LOOPBACK_TARGET]
    seen = [a for a in dict.fromkeys(interfaces()) if not _is_loopback(a) and a != LIMITED_BROADCAST]
    return seen + [LIMITED_BROADCAST]


def listen_address(loopback: bool | None = None) -> str:
    """Where the join screen listens: all interfaces (``""``), or 127.0.0.1 when loopback only."""
    return LOOPBACK_TARGET if (loopback_only() if loopback is None else loopback) else ""

BEACON_SCHEMAS = {"beacon": {"proto": string(1, 32), "pv": integer(0, 65535), "app": string(1, 32), "g": string(0, 32),
                             "name": player_name, "addr": string(0, 64), "port": integer(1, 65535), "peer": binary(16)}}
#: Where a table's match stands: seats to take, a match under way, a match over.
TABLE_STATES = ("open", "playing", "over")
#: The table beside a beacon: who sits there, how many seats are free, where the match stands.
TABLE_SCHEMAS = {"table": {"peer": binary(16), "players": list_of(player_name, 0, 8), "free": integer(0, 8),
                           "state": one_of(*TABLE_STATES)}}
#: An older program's beacon, without ``g`` (listed with its game unknown).
OLD_BEACON_SCHEMAS = {"beacon": {k: v for k, v in BEACON_SCHEMAS["beacon"].items() if k != "g"}}


@dataclass(frozen=True)
class FoundGame:
    """A host heard on the LAN. ``address``: where the datagram came from; ``compatible``:
    whether its protocol version is ours (the join screen may grey out the others); ``game``:
    the key of the game the table plays (``""``: not said)."""

    name: str
    address: str
    port: int
    app: str
    peer_id: bytes
    compatible: bool
    last_seen: float
    game: str = ""
    #: from the table datagram (empty, -1 and "" until one came): the seated players' names,
    #: the free seats, and ``open`` (seats to take), ``playing`` or ``over``
    players: tuple[str, ...] = ()
    free: int = -1
    state: str = ""


def beacon_datagram(name: str, port: int, peer_id: bytes, addr: str = "", game: str = "") -> bytes:
    """The beacon bytes for a host ``name`` listening on ``port`` whose table plays ``game`` (a
    registry key, ``""``: not said). Raises ValueError for a bad name or game key."""
    msg = {"t": "beacon", "proto": PROTOCOL_NAME, "pv": PROTOCOL_VERSION, "app": APP_VERSION, "g": game,
           "name": name[:MAX_NAME], "addr": addr[:64], "port": port, "peer": peer_id}
    data: bytes = msgpack.packb(msg, use_bin_type=True)
    decode_payload(data, BEACON_SCHEMAS)  # our own beacon must pass our own checks
    return data


def table_datagram(peer_id: bytes, players: list[str] | tuple[str, ...], free: int, state: str) -> bytes:
    """The table datagram sent beside the beacon of ``peer_id`` (see the module docstring):
    ``players`` the seated players' names (at most 8), ``free`` the seats still open (0..8),
    ``state`` one of :data:`TABLE_STATES`. Raises ValueError for anything its schema refuses."""
    msg = {"t": "table", "peer": peer_id, "players": [p[:MAX_NAME] for p in players], "free": free, "state": state}
    data: bytes = msgpack.packb(msg, use_bin_type=True)
    try:
        decode_payload(data, TABLE_SCHEMAS)
    except FrameError as e:
        raise ValueError(f"not a table datagram: {e}") from None
    return data


def parse_table(data: bytes) -> dict[str, Any] | None:
    """The checked table datagram (``peer``, ``players``, ``free``, ``state``), or None."""
    if len(data) > MAX_DATAGRAM:
        return None
    try:
        return decode_payload(data, TABLE_SCHEMAS)
    except FrameError:
        return None


def parse_beacon(data: bytes, source: str, now: float) -> FoundGame | None:
    """A FoundGame from a datagram, or None if it is malformed or too large."""
    if len(data) > MAX_DATAGRAM:
        return None
    try:
        msg = decode_payload(data, BEACON_SCHEMAS)
    except FrameError:
        try:
            msg = {**decode_payload(data, OLD_BEACON_SCHEMAS), "g": ""}
        except FrameError:
            return None
    if msg["proto"] != PROTOCOL_NAME:
        return None
    return FoundGame(msg["name"], source, msg["port"], msg["app"], msg["peer"],
                     msg["pv"] == PROTOCOL_VERSION, now, msg["g"])


class Beacon:
    """Sends a beacon every :data:`INTERVAL` seconds to each of :attr:`targets` from a
    background thread until :meth:`stop`.

    ``address``: one destination; without it, :func:`broadcast_targets` (the LAN's
    broadcast addresses, or 127.0.0.1 when loopback only). ``dest_port``: the listeners'
    port. ``game``: the key of the game the table plays (the beacon's ``g``). ``sock``: the UDP socket to use (tests pass a fake one that records instead of
    sending). Raises ValueError for a destination off this machine while
    :func:`loopback_only`, OSError if the UDP socket cannot be made.
    """

    def __init__(self, name: str, port: int, *, address: str | None = None, dest_port: int = DISCOVERY_PORT,
                 peer_id: bytes | None = None, interval: float = INTERVAL, advertised: str = "",
                 targets: list[str] | None = None, sock: socket.socket | None = None, game: str = "") -> None:
        self.peer_id = peer_id or os.urandom(16)
        self.targets = [address] if address else list(targets) if targets else broadcast_targets()
        if loopback_only() and not all(_is_loopback(t) for t in self.targets):
            raise ValueError(f"loopback only ({LOOPBACK_ENV} is set): will not send a beacon to {self.targets}")
        self.destination = (self.targets[0], dest_port)
        self.dest_port = dest_port
        self.interval = interval
        self.sent = 0
        self._data = beacon_datagram(name, port, self.peer_id, advertised, game)
        self._table: bytes | None = None
        self._sock = sock if sock is not None else socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rose-king-beacon", daemon=True)
        self._thread.start()

    def set_table(self, players: list[str] | tuple[str, ...], free: int, state: str) -> None:
        """Say who sits at the table from now on (see :func:`table_datagram`; sent beside each
        beacon from the next one on). Raises ValueError for what a table datagram cannot carry."""
        self._table = table_datagram(self.peer_id, players, free, state)

    def _run(self) -> None:
        while not self._stop.is_set():
            for target in self.targets:
                for data in (self._data, self._table):
                    if data is None:
                        continue
                    try:
                        self._sock.sendto(data, (target, self.dest_port))
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

    ``bind``: the local address to listen on (default :func:`listen_address`: all
    interfaces, which is what receives broadcasts, or 127.0.0.1 when loopback only).
    ``port``: 0 picks a free port (see :attr:`port`). ``ignore``: peer ids to skip (our
    own beacon's). At most :data:`MAX_FOUND` games are kept (:attr:`dropped` counts the
    beacons ignored because the list was full).
    """

    def __init__(self, *, bind: str | None = None, port: int = DISCOVERY_PORT,
                 ignore: set[bytes] | frozenset[bytes] = frozenset(), clock: Callable[[], float] = time.monotonic,
                 max_found: int = MAX_FOUND) -> None:
        bind = listen_address() if bind is None else bind
        self.ignore = set(ignore)
        self.malformed = 0
        self.dropped = 0
        self.max_found = max_found
        self._clock = clock
        self._found: dict[tuple[str, int], FoundGame] = {}
        self._tables: dict[bytes, dict[str, Any]] = {}  # the latest table datagram of each peer id heard
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
            table = parse_table(data) if found is None else None
            with self._lock:
                if table is not None:
                    if table["peer"] not in self.ignore:
                        self._table_heard(table)
                elif found is None:
                    self.malformed += 1
                elif found.peer_id not in self.ignore:
                    key = (found.address, found.port)
                    if key not in self._found and len(self._found) >= self.max_found:
                        self._expire(found.last_seen)
                    if key in self._found or len(self._found) < self.max_found:
                        self._found[key] = self._with_table(found)
                    else:
                        self.dropped += 1
                self._heard.notify_all()

    def _with_table(self, found: FoundGame) -> FoundGame:
        t = self._tables.get(found.peer_id)
        if t is None:
            return found
        return replace(found, players=tuple(t["players"]), free=t["free"], state=t["state"])

    def _table_heard(self, table: dict[str, Any]) -> None:
        if table["peer"] not in self._tables and len(self._tables) >= 4 * self.max_found:
            self._tables.clear()  # (peer ids of tables long gone)
        self._tables[table["peer"]] = table
        for key, g in self._found.items():
            if g.peer_id == table["peer"]:
                self._found[key] = self._with_table(g)

    def games(self) -> list[FoundGame]:
        """Hosts heard within the last :data:`EXPIRE` seconds, by name then address."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            return sorted(self._found.values(), key=lambda g: (g.name, g.address, g.port))

    def _expire(self, now: float) -> None:
        for key in [k for k, g in self._found.items() if now - g.last_seen > EXPIRE]:
            del self._found[key]

    def wait_heard(self, timeout: float) -> bool:
        """Block until any datagram (good or bad) arrives or ``timeout`` passes (for tests)."""
        with self._lock:
            return self._heard.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self._sock.close()
