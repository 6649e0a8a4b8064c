"""Over the internet: the one LAN layer through magic-wormhole with Dilation (docs/protocol.md,
"Over the internet"). Pygame-free; nothing here knows a game.

A host invites with :class:`Invites` (one short code per free seat, ``"7-guitarist-revenge"``);
a friend joins with :class:`CodeDialer`. The library's PAKE turns the code into a shared key
(only the holder of the code connects), Dilation gives an encrypted, reliable stream that
reconnects by itself, direct or through a transit relay. Each stream is bridged to the
:class:`net.session.Session` as an ordinary socket: :func:`socket.socketpair`, one end for the
session (it frames, seats, judges and journals as on the LAN), the other adopted by the
library's reactor, which runs in one daemon thread of its own and pipes bytes both ways.

The host hands each connection that came by code to ``Session.adopt(sock)``; a joiner's
session reconnects with ``Session(dial=dialer.dial)`` instead of ``socket.create_connection``.
Reconnect design: while both programs live, a dropped connection comes back over the same
Dilation (a new subchannel; Dilation itself rebuilds its network connection); after a restart,
the two meet again at a *rejoin code* both derived from the first meeting's key (kept beside
the ``--record`` file, ``FILE.internet``, mode 0600), which the host keeps waiting at, so a
friend comes back to the same seat (the layer's seat proof) without a new code.

Everything the caller hears is a code (:class:`InviteEvent`, :class:`InternetError`'s
``code``), never words for a window; :attr:`InternetError.args` carries a plain sentence for
the command line.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol
from urllib.parse import urlsplit

#: The wormhole application id: peers of other programs never share a nameplate with ours.
APPID = "rose-king/lan-v4"
#: The Dilation subprotocol of one LAN-layer connection.
SUBPROTOCOL = "rose-king-lan"
MAILBOX_ENV = "ROSE_KING_MAILBOX"  #: the rendezvous (mailbox) server's URL
RELAY_ENV = "ROSE_KING_RELAY"  #: the transit relay, ``tcp:HOST:PORT``
#: What a typed invitation looks like (``N-word-word``), against ``HOST[:PORT]``.
CODE_SHAPE = re.compile(r"^[0-9]{1,6}(-[a-z]{2,12}){2,4}$")
REJOIN_PURPOSE = "rose-king rejoin v1"
#: seconds the joiner's Dilation may be down before it meets the host again at the rejoin code
REJOIN_AFTER = 4.0
#: Seconds between two round-trip measurements of a connection by code (Dilation's ping).
PING_S = 2.0
#: How many of the latest round trips :attr:`_Meeting.rtt` takes the median of.
RTT_SAMPLES = 5
#: Seconds of each stage of a first meeting before its error (rendezvous, the friend, a route).
STAGE_TIMEOUTS = {"rendezvous": 10.0, "peer": 30.0, "route": 20.0}


class InternetError(OSError):
    """A connection by code failed. ``code`` (for a window to translate): ``shape`` (not a
    code), ``rendezvous`` (the rendezvous server cannot be reached), ``wrong`` (a mistyped
    code), ``used`` (the code was used by someone else already), ``nobody`` (nobody waits with
    this code: used up, expired, or mistyped), ``route`` (the friend was reached, but no
    connection to them, direct or relayed), ``connecting`` (a reconnection is under way: try
    again soon), ``closed``. ``str(e)``: a plain sentence."""

    def __init__(self, code: str, sentence: str) -> None:
        super().__init__(sentence)
        self.code = code


#: A plain sentence per :class:`InternetError` / :class:`InviteEvent` failure code (the command
#: line's; a window translates the codes itself).
SENTENCES = {
    "shape": "that is not an invitation code: a code is a number and two words, such as 7-guitarist-revenge",
    "rendezvous": "the rendezvous server cannot be reached or refused (no internet, or the server is down)",
    "wrong": "the code is wrong: the two programs did not agree on it (a typo?)",
    "used": "this code was used already: ask for a new one",
    "nobody": "nobody is waiting with this code: it was used already, it expired, or it was mistyped",
    "route": "the other program was found, but no connection to it could be made, neither direct nor relayed",
    "closed": "the connection by code closed",
}


def is_code(text: str) -> bool:
    """True for an invitation's shape (``7-guitarist-revenge``), False for an address."""
    return bool(CODE_SHAPE.match(text.strip().lower()))


def check_code(text: str) -> str:
    """The code, normalised (trimmed, lower case, spaces as dashes), or InternetError ``shape``."""
    code = "-".join(text.strip().lower().split())
    if not CODE_SHAPE.match(code):
        raise InternetError("shape", f"{text.strip()[:40]!r} is not an invitation code: a code is a number and two "
                                     "words, such as 7-guitarist-revenge")
    return code


# ---------------------------------------------------------------------- servers
_LOCAL = {"127.0.0.1", "localhost", "::1"}


def _host_of(location: str) -> str:
    if location.startswith("tcp:"):
        return location.split(":")[1]
    return urlsplit(location).hostname or ""


@dataclass(frozen=True)
class Servers:
    """Where peers meet: ``mailbox`` (the rendezvous server's websocket URL) and ``relay`` (the
    transit relay, ``tcp:HOST:PORT``); ``direct``: offer direct connections (False: through the
    relay only). :meth:`resolve` picks them."""

    mailbox: str
    relay: str
    direct: bool = True

    @classmethod
    def resolve(cls, mailbox: str | None = None, relay: str | None = None, direct: bool = True) -> "Servers":
        """The option if given, else the environment (:data:`MAILBOX_ENV`, :data:`RELAY_ENV`),
        else the library's public servers. Raises ValueError (a sentence) for a malformed
        address, or for one off this machine while ``ROSE_KING_LAN_LOOPBACK=1``."""
        from wormhole.cli.public_relay import RENDEZVOUS_RELAY, TRANSIT_RELAY

        from .wormhole_patch import loopback_only
        m = mailbox or os.environ.get(MAILBOX_ENV) or RENDEZVOUS_RELAY
        r = relay or os.environ.get(RELAY_ENV) or TRANSIT_RELAY
        if not re.match(r"^wss?://[^/\s]+(:\d+)?/\S*$", m):
            raise ValueError(f"the rendezvous server must be a ws:// or wss:// URL, not {m!r}")
        if not re.match(r"^tcp:[^:\s]+:\d+$", r):
            raise ValueError(f"the relay must be tcp:HOST:PORT, not {r!r}")
        if loopback_only() and (_host_of(m) not in _LOCAL or _host_of(r) not in _LOCAL):
            raise ValueError("ROSE_KING_LAN_LOOPBACK=1: the rendezvous server and the relay must be on this "
                             f"machine (set {MAILBOX_ENV} and {RELAY_ENV}; python -m net.internet_servers runs both)")
        return cls(m, r, direct)


# ---------------------------------------------------------------------- the reactor thread
_lock = threading.Lock()
_thread: threading.Thread | None = None


def reactor() -> Any:
    """The library's reactor, running in its own daemon thread (started once per process, the
    patch of :mod:`net.wormhole_patch` applied first)."""
    global _thread
    with _lock:
        from twisted.internet import reactor as installed
        r: Any = installed  # (a module the typeshed describes as one; the reactor object at run time)
        if _thread is None:
            from .wormhole_patch import apply
            apply()
            _quiet_twisted_log()
            _thread = threading.Thread(target=r.run, kwargs={"installSignalHandlers": False},
                                       name="internet-reactor", daemon=True)
            _thread.start()
    return r


class LogFilter:
    """Twisted's log events to ``write`` (default stderr) as the library's errors only, without
    one the library makes on its own at close: a mailbox message that comes after the wormhole
    closed fails in its state machine (``automat``'s ``NoTransition``) inside a Deferred nobody
    waits on, logged as "Unhandled error in Deferred:" and then the failure. Any other failure,
    error or critical event is written."""

    def __init__(self, write: Callable[[str], Any] | None = None) -> None:
        import sys
        self.write = write or sys.stderr.write
        self._held: list[dict[str, Any]] = []

    def _show(self, event: dict[str, Any]) -> None:
        from twisted.logger import formatEventAsClassicLogText
        text = formatEventAsClassicLogText(event)
        if text:
            self.write(text)

    def __call__(self, event: dict[str, Any]) -> None:
        failure = event.get("log_failure")
        level = event.get("log_level")
        if failure is None and level is not None and level.name == "critical" and \
                str(event.get("log_format", "")).startswith("Unhandled error in Deferred"):
            self._held = [event]  # the failure comes next
            return
        header, self._held = self._held, []
        if failure is not None and type(failure.value).__name__ == "NoTransition":
            return
        if failure is None and (level is None or level.name not in ("error", "critical")):
            events = header
        else:
            events = header + [event]
        for e in events:
            self._show(e)


def _quiet_twisted_log() -> None:
    """Twisted's log through :class:`LogFilter` (once, when the reactor starts)."""
    from typing import cast

    from twisted.logger import ILogObserver, globalLogBeginner
    observer = cast(ILogObserver, LogFilter())  # (an ILogObserver by shape: a callable of an event)
    globalLogBeginner.beginLoggingTo([observer], discardBuffer=True, redirectStandardIO=False)


def _call(fn: Callable[..., Any], *args: Any) -> None:
    reactor().callFromThread(fn, *args)


# ---------------------------------------------------------------------- the bridge
def _protocols() -> tuple[Any, Any, Any, Any]:
    from twisted.internet.protocol import Factory, Protocol

    class SubSide(Protocol):
        """One Dilation subchannel; its bytes go to the adopted end of a socket pair."""

        def __init__(self, on_made: Callable[["SubSide"], None]) -> None:
            self.pump: Any = None
            self.early: list[bytes] = []
            self.on_made = on_made

        def connectionMade(self) -> None:
            self.on_made(self)

        def dataReceived(self, data: bytes) -> None:
            if self.pump is None:
                self.early.append(data)
            else:
                self.pump.transport.write(data)

        def connectionLost(self, reason: Any = None) -> None:
            if self.pump is not None:
                self.pump.transport.loseConnection()

        @property
        def out(self) -> Any:
            """Its transport (the subchannel), set once connected."""
            return self.transport

    class PumpSide(Protocol):
        """The reactor's end of the socket pair; its bytes go into the subchannel."""

        def __init__(self, sub: SubSide) -> None:
            self.sub = sub

        def dataReceived(self, data: bytes) -> None:
            self.sub.out.write(data)

        def connectionLost(self, reason: Any = None) -> None:
            self.sub.out.loseConnection()

    class One(Factory):
        def __init__(self, proto: Protocol) -> None:
            self.proto = proto

        def buildProtocol(self, addr: Any) -> Protocol:
            return self.proto

    class SubFactory(Factory):
        def __init__(self, on_made: Callable[[SubSide], None]) -> None:
            self.on_made = on_made

        def buildProtocol(self, addr: Any) -> Protocol:
            return SubSide(self.on_made)

    return SubSide, PumpSide, One, SubFactory


def _nodelay(s: socket.socket) -> None:
    if s.family in (socket.AF_INET, socket.AF_INET6):  # Windows: socketpair() is loopback TCP
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def bridge(sub: Any) -> socket.socket:
    """(Reactor thread.) A socket pair for subchannel protocol ``sub``: the reactor adopts one end
    and pipes it to ``sub``; the other end is returned, for the session. On Windows
    ``socketpair()`` is two loopback TCP sockets (``TCP_NODELAY`` on both), adopted as AF_INET."""
    _, PumpSide, One, _ = _protocols()
    app, pump = socket.socketpair()
    _nodelay(app)
    _nodelay(pump)
    pump.setblocking(False)
    p = PumpSide(sub)
    sub.pump = p
    reactor().adoptStreamConnection(pump.fileno(), pump.family, One(p))
    pump.close()  # the reactor keeps a duplicate of its own
    early, sub.early = sub.early, []
    for data in early:
        p.transport.write(data)
    return app


# ---------------------------------------------------------------------- one wormhole
def _route_of(status: Any) -> str:
    from wormhole._status import ConnectedPeer, ConnectingPeer, ReconnectingPeer
    pc = getattr(status, "peer_connection", None)
    if isinstance(pc, ConnectedPeer):
        return "relayed" if "relay" in pc.hint_description else "direct"
    if isinstance(pc, (ConnectingPeer, ReconnectingPeer)):
        return "connecting"
    return "waiting"


def _rejoin_code(key: bytes) -> str:
    """The code both sides derive from a meeting's key: a nameplate far above the ones a
    server hands out, and 128 bits of password."""
    return f"{100000 + int.from_bytes(key[:4], 'big') % 9000000}-{key[4:20].hex()}"


def _failure_code(f: Any) -> tuple[str, str]:
    from wormhole.errors import LonelyError, ServerConnectionError, ServerError, WelcomeError, WrongPasswordError
    e = f.value
    if isinstance(e, ServerConnectionError):
        return "rendezvous", f"cannot reach the rendezvous server: {e}"
    if isinstance(e, WrongPasswordError):
        return "wrong", "the code is wrong: the friend's program and this one did not agree on it (a typo?)"
    if isinstance(e, ServerError) and "crowded" in str(e):
        return "used", "this code was used already: ask for a new one"
    if isinstance(e, (ServerError, WelcomeError)):
        return "rendezvous", f"the rendezvous server refused: {e}"
    if isinstance(e, LonelyError):
        return "nobody", "nobody came with this code"
    return "closed", f"the connection by code closed ({type(e).__name__}: {e})"


def _nop(*a: Any) -> None:
    pass


class Callback(Protocol):
    """A :class:`_Meeting` callback (reactor thread)."""

    def __call__(self, *args: Any) -> None: ...


class _Meeting:
    """(Reactor thread.) One wormhole with Dilation: ``code`` (None: allocate one), ``listen``
    (host: accept subchannels; joiner: open them). Callbacks on the reactor thread:
    ``on_code(code)``, ``on_key(rejoin_code)``, ``on_sub(sub)`` (a subchannel, host and joiner),
    ``on_route(route)``, ``on_fail(code, sentence)``. :attr:`rtt`: the round trip (s) while
    connected, the median of the latest :data:`RTT_SAMPLES` Dilation pings (one every
    :data:`PING_S`), None before the first or while it reconnects."""

    def __init__(self, servers: Servers, code: str | None, listen: bool, **cb: Callback) -> None:
        import wormhole
        self.servers, self.listen, self.cb = servers, listen, cb
        self.stage = "rendezvous"
        self.route = "waiting"
        self.rtt: float | None = None
        self._rtts: deque[float] = deque(maxlen=RTT_SAMPLES)
        self._pinging: Any = None
        self.down_since: float | None = time.monotonic()
        self.closed = False
        r = reactor()
        self.w = wormhole.create(APPID, servers.mailbox, r, dilation=True)
        if code is None:
            self.w.allocate_code(2)
        else:
            self.w.set_code(code)
        self.w.get_welcome().addCallbacks(lambda _: self._stage("peer"), self._fail)
        self.w.get_code().addCallbacks(lambda c: cb.get("on_code", _nop)(c), self._fail)
        self.w.get_versions().addCallbacks(self._keyed, self._fail)  # the key confirmed
        self.dw = self.w.dilate(transit_relay_location=servers.relay, no_listen=not servers.direct,
                                on_status_update=self._status)
        *_, SubFactory = _protocols()
        if listen:
            self.dw.listener_for(SUBPROTOCOL).listen(SubFactory(self._sub)).addErrback(self._fail)
        else:
            self.open()

    def open(self) -> None:
        """Joiner: open a subchannel (it waits for Dilation's first connection)."""
        *_, SubFactory = _protocols()
        self.dw.connector_for(SUBPROTOCOL).connect(SubFactory(self._sub)).addErrback(self._fail)

    def _stage(self, s: str) -> None:
        if self.stage == "rendezvous" or s != "peer":
            self.stage = s

    def _keyed(self, _key: bytes) -> None:
        self.stage = "route"
        self.cb.get("on_key", _nop)(_rejoin_code(self.w.derive_key(REJOIN_PURPOSE, 32)))

    def _sub(self, sub: Any) -> None:
        self.stage = "open"
        self.cb.get("on_sub", _nop)(sub)

    def _status(self, status: Any) -> None:
        route = _route_of(status)
        if route in ("direct", "relayed"):
            self.down_since = None
        elif self.down_since is None:
            self.down_since = time.monotonic()
        if route != self.route:
            self.route = route
            if route not in ("direct", "relayed"):
                self.rtt = None
                self._rtts.clear()
            elif self._pinging is None and not self.closed:
                from twisted.internet.task import LoopingCall
                self._pinging = LoopingCall(self._ping)
                self._pinging.clock = reactor()
                self._pinging.start(PING_S, now=True)
            self.cb.get("on_route", _nop)(route)

    def _ping(self) -> None:
        """(Every :data:`PING_S`.) One Dilation ping while connected; its pong sets :attr:`rtt`."""
        from .wormhole_patch import ping
        if self.closed or self.route not in ("direct", "relayed"):
            return
        route = self.route

        def pong(seconds: float) -> None:
            if not self.closed and self.route == route:
                self._rtts.append(max(0.0, seconds))
                self.rtt = sorted(self._rtts)[len(self._rtts) // 2]
        ping(self.dw, pong)

    def _fail(self, f: Any) -> None:
        if self.closed:
            return
        from twisted.internet.defer import CancelledError
        if f.check(CancelledError):
            return
        self.closed = True
        self.cb.get("on_fail", _nop)(*_failure_code(f))
        self.close()

    def close(self) -> None:
        self.closed = True
        if self._pinging is not None and self._pinging.running:
            self._pinging.stop()
        try:
            self.w.close().addErrback(lambda f: None)
        except Exception:  # noqa: BLE001 (already closed)
            pass




def _read_state(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_state(path: Path | None, data: dict[str, Any]) -> None:
    if path is None:
        return
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def state_path(record: str | os.PathLike[str] | None) -> Path | None:
    """Where a peer keeps its rejoin codes: ``FILE.internet`` beside ``--record FILE``."""
    return None if not record else Path(str(record) + ".internet")


# ---------------------------------------------------------------------- events
@dataclass(frozen=True)
class InviteEvent:
    """What :class:`Invites` tells its caller: ``what`` is ``code`` (``detail``: the code to
    give a friend), ``joined`` (the friend's program arrived and proved the code),
    ``connection`` (a connection came by this invitation and went to the session), ``route``
    (``detail``: ``waiting``, ``connecting``, ``direct`` or ``relayed``), ``failed``
    (``detail``: an :class:`InternetError` code: ``rendezvous``, ``wrong``, ``used``, …; a
    ``wrong`` code is replaced by a fresh one, announced by another ``code``). ``slot``: the
    invitation (0, 1, …)."""

    what: str
    slot: int
    detail: str = ""


class _Events:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._events: deque[Any] = deque()

    def _emit(self, e: Any) -> None:
        with self._cond:
            self._events.append(e)
            self._cond.notify_all()

    def poll(self) -> list[Any]:
        """Events since the last call, oldest first. Never blocks."""
        with self._cond:
            out = list(self._events)
            self._events.clear()
            return out

    def wait(self, timeout: float) -> list[Any]:
        """Like :meth:`poll`, waiting up to ``timeout`` s for a first event."""
        with self._cond:
            if not self._events:
                self._cond.wait(timeout)
            out = list(self._events)
            self._events.clear()
            return out


# ---------------------------------------------------------------------- host
class Invites(_Events):
    """A host's invitations over the internet. ``adopt(sock)``: where a connection that came
    by code goes (``Session.adopt``; called on the reactor thread, so it must only hand the
    socket on). ``state``: the file of rejoin codes (:func:`state_path`); a host restarted on
    a journal waits at the codes it holds. Nothing blocks: :meth:`invite` returns at once and
    the code comes as an :class:`InviteEvent` (``code``); read them with :meth:`poll`/:meth:`wait`."""

    def __init__(self, adopt: Callable[[socket.socket], None], servers: Servers,
                 state: str | os.PathLike[str] | None = None) -> None:
        super().__init__()
        self.servers, self._adopt = servers, adopt
        self._state = Path(state) if state else None
        self._slots: dict[int, dict[str, Any]] = {}  # slot -> {"code", "route", "m": meeting, "rejoin", "wait"}
        self._next = 0
        self._closed = False
        saved = _read_state(self._state).get("rejoin", [])
        for code in saved if isinstance(saved, list) else []:
            if isinstance(code, str):
                slot = self._new_slot()
                self._slots[slot]["rejoin"] = code
                _call(self._arm_rejoin, slot)

    def _new_slot(self) -> int:
        slot, self._next = self._next, self._next + 1
        self._slots[slot] = {"code": None, "route": "waiting", "m": None, "rejoin": None, "wait": None}
        return slot

    def invite(self) -> int:
        """A new invitation (one per free seat); returns its slot. Its code comes as an event."""
        slot = self._new_slot()
        _call(self._open, slot)
        return slot

    def code(self, slot: int) -> str | None:
        """The code of invitation ``slot`` (None before it came)."""
        code: str | None = self._slots[slot]["code"]
        return code

    def route(self, slot: int) -> str:
        """``waiting`` (nobody yet), ``connecting``, ``direct`` or ``relayed``."""
        route: str = self._slots[slot]["route"]
        return route

    def rtt(self, slot: int) -> float | None:
        """The round trip (s) to the friend of invitation ``slot`` (:attr:`_Meeting.rtt`), None
        while it is not connected or not measured yet."""
        m = self._slots[slot]["m"]
        return None if m is None else m.rtt

    @property
    def slots(self) -> list[int]:
        return list(self._slots)

    def close(self) -> None:
        """Close every wormhole (the friends' connections go down with them)."""
        self._closed = True

        def shut() -> None:
            for s in self._slots.values():
                for m in (s["m"], s["wait"]):
                    if m is not None:
                        m.close()
        _call(shut)

    # reactor thread
    def _open(self, slot: int) -> None:
        if self._closed:
            return
        s = self._slots[slot]
        s["m"] = _Meeting(self.servers, None, True, on_code=lambda c: self._got_code(slot, c),
                          on_key=lambda r: self._got_key(slot, r), on_sub=self._got_sub(slot),
                          on_route=lambda r: self._got_route(slot, r), on_fail=lambda c, t: self._failed(slot, c))

    def _got_code(self, slot: int, code: str) -> None:
        self._slots[slot]["code"] = code
        self._emit(InviteEvent("code", slot, code))

    def _got_key(self, slot: int, rejoin: str) -> None:
        s = self._slots[slot]
        self._emit(InviteEvent("joined", slot))
        if s["rejoin"] is None:
            s["rejoin"] = rejoin
            self._save()
        if s["wait"] is None:
            self._arm_rejoin(slot)

    def _got_sub(self, slot: int) -> Callable[[Any], None]:
        def made(sub: Any) -> None:
            self._adopt(bridge(sub))
            self._emit(InviteEvent("connection", slot))
        return made

    def _got_route(self, slot: int, route: str) -> None:
        self._slots[slot]["route"] = route
        self._emit(InviteEvent("route", slot, route))

    def _failed(self, slot: int, code: str) -> None:
        s = self._slots[slot]
        self._emit(InviteEvent("failed", slot, code))
        if code in ("wrong", "used") and not self._closed and s["rejoin"] is None:
            reactor().callLater(0.5, self._open, slot)  # a burnt code: a fresh one for the same seat

    def _arm_rejoin(self, slot: int) -> None:
        """Wait at the slot's rejoin code (again: after each meeting there, a moment later, once
        the last one released its nameplate)."""
        if self._closed:
            return
        s = self._slots[slot]
        m: _Meeting  # (made below; the callbacks run later, on the reactor thread)

        def keyed(_r: str) -> None:
            old, s["m"], s["wait"] = s["m"], m, None
            if old is not None:
                old.close()  # the friend came back by the rejoin code: the old wormhole is dead
            self._emit(InviteEvent("joined", slot))
            reactor().callLater(2.0, self._arm_rejoin, slot)

        def failed(code: str, _t: str) -> None:
            if s["wait"] is m:
                s["wait"] = None
                reactor().callLater(2.0, self._arm_rejoin, slot)

        m = _Meeting(self.servers, s["rejoin"], True, on_key=keyed, on_sub=self._got_sub(slot),
                     on_route=lambda r: self._got_route(slot, r) if s["m"] is m else None, on_fail=failed)
        s["wait"] = m

    def _save(self) -> None:
        try:
            _write_state(self._state, {"rejoin": [s["rejoin"] for s in self._slots.values() if s["rejoin"]]})
        except OSError:
            pass


# ---------------------------------------------------------------------- joiner
class CodeDialer(_Events):
    """A joiner's connection by code. It starts meeting the host at once (in the reactor's
    thread); :meth:`first` waits for the first connection, :meth:`dial` (for
    ``Session(dial=...)``) never blocks: it returns a connection made meanwhile or raises
    :class:`InternetError` (``connecting``) having started one. ``state``: the file of the
    rejoin code (:func:`state_path`): when it holds one (a restart), the dialer meets the host
    there instead of at ``code`` (which was used up). :attr:`route`: as :meth:`Invites.route`;
    :attr:`error`: the InternetError that ended it, else None."""

    def __init__(self, code: str, servers: Servers, state: str | os.PathLike[str] | None = None) -> None:
        super().__init__()
        self.servers = servers
        self._state = Path(state) if state else None
        saved = _read_state(self._state).get("rejoin")
        self.resuming = isinstance(saved, str)
        self.code = saved if self.resuming else check_code(code)
        self.rejoin: str | None = saved if self.resuming else None
        self.route = "waiting"
        self.error: InternetError | None = None
        self._ready: deque[socket.socket] = deque()
        self._cond = threading.Condition()
        self._m: _Meeting | None = None
        self._pending = True
        self._started = time.monotonic()
        self._closed = False
        _call(self._meet, self.code)

    @property
    def stage(self) -> str:
        """``rendezvous``, ``peer`` (waiting for the friend), ``route`` (connecting), ``open``."""
        return self._m.stage if self._m is not None else "rendezvous"

    @property
    def rtt(self) -> float | None:
        """The round trip (s) to the host, as :meth:`Invites.rtt`."""
        m = self._m
        return None if m is None else m.rtt

    def first(self, timeout: float | None = None) -> socket.socket:
        """Wait for the first connection. Raises :class:`InternetError`: the stage's error
        after its time (:data:`STAGE_TIMEOUTS`, or ``timeout`` s in all), or a failure."""
        end = None if timeout is None else time.monotonic() + timeout
        stage, since = None, time.monotonic()
        while True:
            with self._cond:
                if self._ready:
                    return self._ready.popleft()
                if self.error is not None:
                    raise self.error
                self._cond.wait(0.05)
            now = time.monotonic()
            if self.stage != stage:
                stage, since = self.stage, now
            limit = STAGE_TIMEOUTS.get(stage or "", 30.0)
            if (now - since > limit and not (self.resuming and stage == "peer")) or (end is not None and now > end):
                self.close()
                raise self._timeout(stage or "rendezvous")

    def _timeout(self, stage: str) -> InternetError:
        if stage == "rendezvous":
            return InternetError("rendezvous", f"cannot reach the rendezvous server {self.servers.mailbox}: no "
                                               "answer (no internet, or the server is down)")
        if stage == "peer":
            return InternetError("nobody", "nobody is waiting with this code: it was used already, it expired, "
                                           "or it was mistyped")
        return InternetError("route", "the host was found, but no connection to it could be made, neither "
                                      f"direct nor through the relay {self.servers.relay}")

    def dial(self) -> socket.socket:
        """A new connection for the session, or InternetError (``connecting``: one is being
        made, ask again; another code: it failed)."""
        with self._cond:
            if self._ready:
                return self._ready.popleft()
            if self._closed:
                raise InternetError("closed", "the connection by code was closed")
            start = not self._pending
            self._pending = True
        if start:
            _call(self._redial)
        raise InternetError("connecting", "connecting by code")

    def close(self) -> None:
        self._closed = True
        with self._cond:
            ready, self._ready = list(self._ready), deque()
        for s in ready:
            s.close()
        if self._m is not None:
            _call(self._m.close)

    # reactor thread
    def _meet(self, code: str) -> None:
        if self._closed:
            return
        self._m = _Meeting(self.servers, code, False, on_key=self._keyed, on_sub=self._sub,
                           on_route=self._route, on_fail=self._failed)

    def _redial(self) -> None:
        m = self._m
        if m is None or self._closed:
            return
        down = m.down_since
        if not m.closed and (down is None or time.monotonic() - down < REJOIN_AFTER):
            m.open()  # the same Dilation: a new subchannel (queued while it reconnects)
        elif self.rejoin is not None:
            m.close()  # that Dilation is gone (the host restarted): meet again at the rejoin code
            self._meet(self.rejoin)
        else:
            with self._cond:
                self._pending = False

    def _keyed(self, rejoin: str) -> None:
        if self.rejoin is None:
            self.rejoin = rejoin
            try:
                _write_state(self._state, {"rejoin": rejoin})
            except OSError:
                pass

    def _sub(self, sub: Any) -> None:
        app = bridge(sub)
        with self._cond:
            self._ready.append(app)
            self._pending = False
            self._cond.notify_all()

    def _route(self, route: str) -> None:
        self.route = route
        self._emit(InviteEvent("route", 0, route))

    def _failed(self, code: str, sentence: str) -> None:
        with self._cond:
            self._pending = False
            if not self._ready and self.rejoin is None:
                self.error = InternetError(code, sentence)
            self._cond.notify_all()
        self._emit(InviteEvent("failed", 0, code))
