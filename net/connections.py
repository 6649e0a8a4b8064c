"""The sockets of one LAN session (docs/protocol.md, "The LAN layer: session"): TCP with
``TCP_NODELAY``, one :class:`~net.link.Link` per connection, a selector, the host's listener,
and closing without losing our last frames (a connection we close is read on until the peer
closes its side, or :data:`LINGER` seconds, so a reset never swallows a verdict or a ``bye``).

:class:`Connections` knows nothing of lobbies or matches: :class:`net.session.Session` asks it
for what became readable, feeds the bytes to the link it holds and decides what a message
means. :func:`probe_host` reads a host's hello before any session exists (to learn its game).
"""

from __future__ import annotations

import math
import selectors
import socket
import time
from typing import Any, Callable, Iterator

from . import DEFAULT_PORT
from .events import HostBusy, JoinError
from .framing import FrameError
from .link import Link
from .lobby import LAN_VERSION, schemas_for

RECV_SIZE = 65536
LINGER = 1.0  #: seconds a leaving peer reads on, at most, so that its goodbye is not lost


class Peer:
    """One connection: its id ``cid``, ``sock``, ``link``; ``seat`` once it holds one (a
    joiner's connection to the host holds seat 0); ``early``: host, match messages of a ready
    joiner that came before the last ``ready``; ``back``: when it was seated (the session's
    clock; -inf before): a seat back from a drop gets its connected time again (:func:`net.match.overdue`)."""

    def __init__(self, cid: int, sock: socket.socket, link: Link) -> None:
        self.cid, self.sock, self.link = cid, sock, link
        self.seat: int | None = None
        self.early: list[dict[str, Any]] = []
        self.back = -math.inf


class Connections:
    """Every socket of one session (see the module docstring). ``make_link()`` makes the
    :class:`~net.link.Link` of a new connection; ``clock``: the session's (s). ``peers``: the
    open connections by id; ``lingering``: closed ones read on until a time (s)."""

    def __init__(self, make_link: Callable[[], Link], clock: Callable[[], float]) -> None:
        self.sel = selectors.DefaultSelector()
        self.peers: dict[int, Peer] = {}
        self.lingering: dict[socket.socket, float] = {}
        self.listener: socket.socket | None = None
        self._make_link, self._clock = make_link, clock
        self._next_cid = 1

    def listen(self, address: str, port: int) -> int:
        """Open the host's listening socket on ``address``:``port`` (0: any free port); returns
        the port. Raises OSError when it cannot be opened."""
        self.listener = socket.create_server((address, port), backlog=8)
        self.listener.setblocking(False)
        self.sel.register(self.listener, selectors.EVENT_READ, "listen")
        bound: int = self.listener.getsockname()[1]
        return bound

    def watch(self, sock: socket.socket) -> None:
        """Wake :meth:`ready` when ``sock`` is readable (the session's command socket)."""
        self.sel.register(sock, selectors.EVENT_READ, "wake")

    def ready(self, timeout: float) -> Iterator[tuple[str, Any]]:
        """Wait up to ``timeout`` s; yields ``("wake", sock)``, ``("accept", sock)`` for each new
        connection, ``("read", peer)`` for each readable one (lingering ones are served here)."""
        for key, _ in self.sel.select(timeout):
            if key.data == "wake":
                yield "wake", key.fileobj
            elif key.data == "listen":
                assert self.listener is not None  # (registered by listen())
                try:
                    sock, _ = self.listener.accept()
                except OSError:
                    continue
                yield "accept", sock
            elif key.data is _LINGER:
                assert isinstance(key.fileobj, socket.socket)  # (registered by forget())
                self._linger_read(key.fileobj)
            else:
                p = self.peers.get(key.data)
                if p is not None:
                    yield "read", p

    def add(self, sock: socket.socket) -> Peer:
        """A new connection (accepted or made): ``TCP_NODELAY``, its link, watched for reading."""
        sock.settimeout(5.0)
        if sock.family in (socket.AF_INET, socket.AF_INET6):  # (a connection by code: one end of a socket pair)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        p = Peer(self._next_cid, sock, self._make_link())
        self._next_cid += 1
        self.peers[p.cid] = p
        self.sel.register(sock, selectors.EVENT_READ, p.cid)
        return p

    def receive(self, p: Peer) -> list[dict[str, Any]]:
        """Read what ``p`` sent (end of stream and errors included) and return the messages its
        link decoded (the link may close meanwhile: see ``p.link.closed``)."""
        try:
            data = p.sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return []
        except OSError:
            data = b""
        return p.link.feed(data, self._clock())

    def flush(self, p: Peer) -> None:
        """Send what ``p``'s link has queued; a failed send closes the link as an end of stream."""
        data = p.link.data_to_send()
        if data:
            try:
                p.sock.sendall(data)
            except OSError:
                p.link.feed(b"", self._clock())

    def forget(self, p: Peer, close: bool = True) -> None:
        """Forget ``p`` and shut its write side; ``close``: close its socket here (else the
        caller does, see :func:`linger`): at once if the peer closed first, else once the peer
        closes its side or :data:`LINGER` seconds passed, its bytes read and dropped meanwhile,
        without holding up the thread (a socket closed with unread bytes sends a reset, which
        may lose our last frames: an error code, the verdict)."""
        self.peers.pop(p.cid, None)
        try:
            self.sel.unregister(p.sock)
        except (KeyError, ValueError):
            pass
        try:
            p.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        if close:
            c = p.link.closed
            if c is not None and c.code == "eof" and c.by_peer:
                p.sock.close()  # the peer closed first: nothing of ours can be lost to a reset
            else:  # our last frames (an error code, a verdict) must not be lost to a reset
                try:
                    self.sel.register(p.sock, selectors.EVENT_READ, _LINGER)
                except (KeyError, ValueError, OSError):  # (a socket the selector cannot watch: closed now)
                    p.sock.close()
                else:
                    self.lingering[p.sock] = self._clock() + LINGER

    def tick(self, now: float) -> None:
        """Close the lingering connections whose time is up."""
        for sock, end in list(self.lingering.items()):
            if now >= end:
                self._unlinger(sock)

    def take_lingering(self) -> list[socket.socket]:
        """The lingering sockets, no longer watched (the caller closes them, see :func:`linger`)."""
        socks = list(self.lingering)
        for sock in socks:
            self.lingering.pop(sock)
            self.sel.unregister(sock)
        return socks

    def close(self) -> None:
        """Close every socket at once (the session's thread ends)."""
        for p in list(self.peers.values()):
            self.forget(p, close=False)
            p.sock.close()
        for sock in list(self.lingering):
            self._unlinger(sock)
        if self.listener is not None:
            self.listener.close()
        self.sel.close()

    def _linger_read(self, sock: socket.socket) -> None:
        """A closed connection's peer sent more (read and dropped) or closed its side (done)."""
        try:
            sock.setblocking(False)
            done = not sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            done = True
        if done:
            self._unlinger(sock)

    def _unlinger(self, sock: socket.socket) -> None:
        self.lingering.pop(sock, None)
        try:
            self.sel.unregister(sock)
        except (KeyError, ValueError):
            pass
        sock.close()


_LINGER = object()  #: the selector's mark of a closed connection lingering (see Connections.forget)


def linger(socks: list[socket.socket], clock: Callable[[], float], limit: float) -> None:
    """Close ``socks`` (their write sides already shut) once each peer has closed its side or
    ``limit`` seconds passed: a socket closed with unread bytes sends a reset, and a reset may
    make the peer drop our last frames (the goodbye) before reading them."""
    end = clock() + limit
    for sock in socks:
        try:
            while (left := end - clock()) > 0:
                sock.settimeout(left)
                if not sock.recv(RECV_SIZE):
                    break
        except OSError:
            pass
        sock.close()


def probe_host(address: str, port: int = DEFAULT_PORT, timeout: float = 3.0) -> tuple[str, socket.socket, bytes]:
    """Connect to a host and read its ``hello`` (a host sends it first, at once) to learn its
    game: returns ``(game, sock, data)``: ``game`` the hello's ``g`` (a registry key), ``sock`` the open
    connection and ``data`` every byte read so far, to hand on to that game's joiner
    (``Session(..., connected=(sock, data))``) so the host sees one connection only. The whole
    hello must come within the handshake deadline (a host trickling bytes cannot hold us).
    Raises OSError (no host there, ``timeout`` seconds; :class:`HostBusy`: the host refused the
    connection with ``busy``, try again) or :class:`JoinError` (not a host of this
    program: the reason, e.g. "this table needs a newer version"; a host of an older layer
    version: "the host needs a newer version")."""
    sock = socket.create_connection((address, port), timeout=timeout)
    game, data = read_hello(sock, f"{address}:{port}", timeout)
    return game, sock, data


def read_hello(sock: socket.socket, label: str, timeout: float = 3.0) -> tuple[str, bytes]:
    """:func:`probe_host` on a connection already open (one by code, :mod:`net.internet`):
    ``(game, data)``; ``label`` names the host in the errors. Closes ``sock`` when it raises."""
    from .framing import HEADER, MAX_FRAME, decode_payload
    from .limits import HANDSHAKE_TIMEOUT
    from .lobby import hello_version
    try:
        deadline = time.monotonic() + min(timeout, HANDSHAKE_TIMEOUT)
        data = b""
        need = HEADER.size
        while len(data) < need:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout(f"{label} sent no whole hello within {min(timeout, HANDSHAKE_TIMEOUT):g} s")
            sock.settimeout(left)
            chunk = sock.recv(RECV_SIZE)
            if not chunk:
                raise JoinError("no-hello", f"{label} closed the connection without a hello")
            data += chunk
            if need == HEADER.size and len(data) >= HEADER.size:
                (n,) = HEADER.unpack_from(data)
                if not 0 < n <= MAX_FRAME:
                    raise JoinError("protocol", f"{label} does not speak this program's LAN protocol")
                need = HEADER.size + n
        payload = data[HEADER.size:need]
        pv = hello_version(payload)
        if pv is not None and pv < LAN_VERSION:  # an older program (version 2: per game; 3: no sk)
            raise JoinError("version", f"incompatible versions: this program speaks LAN protocol {LAN_VERSION}, the host "
                             f"{pv}; the host needs a newer version")
        try:  # the hello names its game (g)
            msg = decode_payload(payload, schemas_for({}))
        except FrameError as e:
            raise JoinError("version" if e.code == "version" else "protocol", str(e)) from None  # e.g. a newer host
        if msg["t"] == "error" and msg["code"] == "busy":
            raise HostBusy(f"{label} is busy (too many connections settling at once); try again")
        if msg["t"] != "hello" or msg["role"] != "host":
            raise JoinError("not-host", f"{label} is not a host")
        return msg["g"], data
    except BaseException:
        sock.close()
        raise
