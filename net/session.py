"""The one LAN session: threads and sockets around a game's match machine (docs/protocol.md,
"The LAN layer: session").

A :class:`Session` owns one background thread, every socket (TCP, ``TCP_NODELAY``), one
:class:`~net.link.Link` per connection, the :mod:`net.lobby` machine and, once the match
begins, the game's :class:`~net.match.MatchMachine` (from the game's :class:`~net.match.LanPart`).
The caller (the window's frame loop, a headless peer, a test) never waits on the network: it
reads events with :meth:`poll`/:meth:`wait` and acts with :meth:`act`, :meth:`start`,
:meth:`close`. Events carry codes and plain data, never words (the window translates):

- :class:`Status` (``listening``, ``connecting``, ``lobby``, ``playing``, ``interrupted``,
  ``over``, ``failed``, ``closed``), :class:`LobbySeats` (the lobby's rows),
- :class:`Started` (the table, our seat, resumed or new), :class:`Noticed` (the match
  machine's :class:`~net.match.Notice`), :class:`Ended` (the :class:`~net.match.Verdict`),
- :class:`Dropped` (a connection closed: code, reason for logs, by whom, whether fatal),
  :class:`Refused` (host: a stranger turned away), :class:`WriteFailed` (journal or record).

The journal (``FILE.journal`` beside ``--record FILE``, JSON, mode 0600, atomic) holds the
lobby's :class:`~net.lobby.SeatMemo` and the machine's payload; it is written when the match
starts (before ``ready`` leaves) and at every :class:`~net.match.Save` (before the sends that
follow). The record (``FILE``) is the machine's :meth:`~net.match.MatchMachine.record`,
written at every ``Notice("record")`` and at the end.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import selectors
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import DEFAULT_PORT
from .framing import MAX_NAME, FrameError
from .journal import seat_path as journal_path
from .limits import name_problem
from .link import Link
from .lobby import (LAN_VERSION, LOBBY_TYPES, HostLobby, JoinLobby, LChanged, LDrop, LSeated, LSend, LStarted,
                    SeatMemo, rates_for, schemas_for)
from .mailbox import Mailbox
from .match import (ALL, LanPart, MatchMachine, Notice, Over, Refusal, Save, Send, Verdict, deadline_verdict,
                    judge_stop, overdue)

RECV_SIZE = 65536
TICK = 0.05  #: seconds between clock ticks of the thread
JOURNAL_FORMAT = "lan-journal"
JOURNAL_VERSION = 1
#: Closing codes after which a joiner stops reconnecting (docs/protocol.md, "Errors").
FATAL_CODES = frozenset({"version", "game", "role", "self", "seat", "illegal", "coin", "desync", "forfeit",
                         "left", "sync", "bye", "finished", "resigned", "disputed"})


# --------------------------------------------------------------------------- events
@dataclass(frozen=True)
class Status:
    code: str


@dataclass(frozen=True)
class LobbySeats:
    rows: tuple


@dataclass(frozen=True)
class Started:
    table: Any
    seat: int
    resumed: bool


@dataclass(frozen=True)
class Noticed:
    code: str
    data: Any


@dataclass(frozen=True)
class Ended:
    verdict: Verdict


@dataclass(frozen=True)
class Dropped:
    code: str
    reason: str
    by_peer: bool
    fatal: bool
    seat: int = -1


@dataclass(frozen=True)
class Refused:
    code: str
    reason: str


@dataclass(frozen=True)
class WriteFailed:
    path: str
    reason: str


class JoinError(ValueError):
    """Why a table cannot be joined (or resumed), as a code the window words
    (:func:`game.lan.join_error_text`); ``str(error)`` is the English detail for logs.

    Codes: ``version`` (the two programs speak different LAN versions), ``no-hello`` (the
    host closed without its hello), ``protocol`` (not this program's frames or messages),
    ``not-host`` (a hello, but not a host's), ``name`` (our player name cannot be sent),
    ``journal`` (the seat's journal cannot be read)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


class HostBusy(ConnectionError):
    """The host refused the connection with ``error{busy}`` (too many connections were settling
    at once, docs/protocol.md "Errors"): an OSError, so a caller waits and tries again as it
    does when nobody answers."""


def load_journal(path: str | os.PathLike, game_key: str) -> tuple[SeatMemo, dict] | None:
    """(seat memo, match payload) from a journal file, or None when there is none. Raises
    :class:`JoinError` (a ValueError, code ``journal``) for a file that is not a journal of ``game_key``."""
    from game.records import RecordError, parse_json, read_bytes
    if not os.path.lexists(path):
        return None
    try:
        d = parse_json(read_bytes(path, 1 << 20))
    except RecordError as e:
        raise JoinError("journal", f"not a LAN journal: {e}") from None
    if not isinstance(d, dict) or d.get("format") != JOURNAL_FORMAT or d.get("version") != JOURNAL_VERSION:
        raise JoinError("journal", "not a LAN journal (format or version)")
    if d.get("g") != game_key:
        raise JoinError("journal", f"a LAN journal of {str(d.get('g'))[:32]}, not {game_key}")
    if not isinstance(d.get("match"), dict):
        raise JoinError("journal", "not a LAN journal: no match payload")
    return SeatMemo.from_json(d["memo"]), d["match"]


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
    from .framing import HEADER, MAX_FRAME, decode_payload
    from .limits import HANDSHAKE_TIMEOUT
    from .lobby import hello_version
    sock = socket.create_connection((address, port), timeout=timeout)
    try:
        deadline = time.monotonic() + min(timeout, HANDSHAKE_TIMEOUT)
        data = b""
        need = HEADER.size
        while len(data) < need:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout(f"{address}:{port} sent no whole hello within {min(timeout, HANDSHAKE_TIMEOUT):g} s")
            sock.settimeout(left)
            chunk = sock.recv(RECV_SIZE)
            if not chunk:
                raise JoinError("no-hello", f"{address}:{port} closed the connection without a hello")
            data += chunk
            if need == HEADER.size and len(data) >= HEADER.size:
                (n,) = HEADER.unpack_from(data)
                if not 0 < n <= MAX_FRAME:
                    raise JoinError("protocol", f"{address}:{port} does not speak this program's LAN protocol")
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
            raise HostBusy(f"{address}:{port} is busy (too many connections settling at once); try again")
        if msg["t"] != "hello" or msg["role"] != "host":
            raise JoinError("not-host", f"{address}:{port} is not a host")
        return msg["g"], sock, data
    except BaseException:
        sock.close()
        raise


LINGER = 1.0  #: seconds a leaving peer reads on, at most, so that its goodbye is not lost


def _linger(socks: list[socket.socket], clock: Callable[[], float], limit: float) -> None:
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


_LINGER = object()  #: the selector's mark of a closed connection lingering (see Session._close_peer)


class _Peer:
    def __init__(self, cid: int, sock: socket.socket, link: Link) -> None:
        self.cid, self.sock, self.link = cid, sock, link
        self.seat: int | None = None
        self.early: list[dict] = []  # host: match messages of a ready joiner before the last ready
        self.back = -math.inf  # when it was seated (the session's clock), see Session._back


class Session(Mailbox):
    """One peer of a LAN match of game ``part`` (see the module docstring).

    ``role``: ``"host"`` or ``"join"``. Host: ``kinds`` (per seat: ``"host"``, then
    ``"person"``/``"computer"``), ``computers`` (seat -> level of each computer seat, played
    here by the part's ``player`` in a worker thread; named by ``computer_names``),
    ``options`` (the game's lobby options), ``bind``/``port``
    (0: any free port, see :attr:`port`). Joiner: ``address``/``port`` of the host;
    ``host_grace``: seconds it keeps reconnecting after losing the host in a match before the
    match counts as left by the host. ``record``: ``--record FILE`` (its journal resumes a
    match); ``connected``: a joiner's first connection, already open, with the bytes read from
    it (``probe_host`` read the host's hello to learn its game). Raises OSError when the port
    cannot be opened, ValueError for a bad journal or a ``name`` no hello may carry (1..32
    characters, no control, bidi or zero-width characters: docs/protocol.md, "Messages")."""

    def __init__(self, part: LanPart, role: str, name: str, *, address: str = "127.0.0.1",
                 port: int = DEFAULT_PORT, kinds: tuple[str, ...] = ("host", "person"), options: dict | None = None,
                 record: str | os.PathLike | None = None, date: str = "", reconnect_delay: float = 0.5,
                 host_grace: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 token_bytes: Callable[[int], bytes] = secrets.token_bytes,
                 connected: tuple[socket.socket, bytes] | None = None, computers: dict[int, str] | None = None,
                 computer_names: dict[int, str] | None = None) -> None:
        why = name_problem(name, MAX_NAME)
        if why is not None:  # refused here, never on the wire (the hello would fail its schema)
            raise JoinError("name", f"a player name {why}")
        self.computers = dict(computers or {})
        if any(s >= len(kinds) or kinds[s] != "computer" for s in self.computers) or \
                any(k == "computer" and s not in self.computers for s, k in enumerate(kinds)):
            raise ValueError("every computer seat needs a level, and only computer seats have one")
        if self.computers and (part.turn is None or part.player is None):
            raise ValueError(f"{part.key} has no computer players")
        self._players = {s: part.player(level, s) for s, level in self.computers.items()} if self.computers else {}
        self._thinking: set[int] = set()
        self._handed: set[int] = set()  # joiner seats handed to the computer while their person is away
        #: joiner: resumed, and the host's ``caught`` (the end of its catch-up) has not come yet:
        #: no decision on a view that lacks what it is owed
        self.catching_up = False
        #: outputs of the caller's act(), in the order the machine made them; the thread carries
        #: them out before it next asks the machine anything, so every send keeps that order
        self._queued: deque[list] = deque()
        self._open_mailbox()
        self._first = connected  # joiner: a connection already open (it read the host's hello) and its bytes
        self.part, self.role, self.name = part, role, name
        self.address, self.port = address, port
        self.record_path = Path(record) if record else None
        self.reconnect_delay, self.host_grace = reconnect_delay, host_grace
        self._clock, self._token = clock, token_bytes
        self._schemas = schemas_for(dict(part.schemas), part.max_bin)
        self._rates = rates_for(dict(part.rates))
        self._mlock = threading.RLock()  # the match machine: the caller's act() and the thread
        self.machine: MatchMachine | None = None
        self.verdict: Verdict | None = None
        self.write_errors: list[WriteFailed] = []
        memo, payload = None, None
        if self.record_path is not None:
            loaded = load_journal(journal_path(self.record_path), part.key)
            if loaded is not None:
                memo, payload = loaded
        self._peers: dict[int, _Peer] = {}
        self._lingering: dict[socket.socket, float] = {}  # closed by us: read on until the peer closes (LINGER)
        self._next_cid = 1
        self._stopping = False
        self._fatal = False
        self._lost_host_at: float | None = None
        self._listener: socket.socket | None = None
        self._kinds = kinds
        self._sign_seeds: dict[int, bytes] = {}
        if role == "host":
            self.lobby: HostLobby | JoinLobby = HostLobby(part.key, part.version, name, kinds, date=date,
                                                          options=options, memo=memo, token_bytes=token_bytes,
                                                          computer_names=computer_names)
            self._listener = socket.create_server((address, port), backlog=8)
            self._listener.setblocking(False)
            self.port = self._listener.getsockname()[1]
        elif role == "join":
            self.lobby = JoinLobby(part.key, part.version, name, memo=memo, token_bytes=token_bytes)
        else:
            raise ValueError(f"role must be host or join, not {role!r}")
        self._new_sign_keys()
        if memo is not None:
            self.machine = part.from_payload(memo.seat, memo.table, payload, token_bytes)  # type: ignore[arg-type]
            self.verdict = self.machine.over
        self._set_status("listening" if role == "host" else "connecting")
        if role == "host":  # the seats as they start (the window's lobby shows them at once)
            self._emit(LobbySeats(tuple(tuple(r) for r in self._rows())))
        self._thread = threading.Thread(target=self._run, name=f"lan-{part.key}-{role}", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ caller's API
    def act(self, action: Any) -> None:
        """Play this seat's decision now. Raises ValueError (the game's reason) when it is not
        legal, or when there is no match; nothing is sent then."""
        with self._mlock:
            if self.machine is None:
                raise ValueError("no match is being played")
            if self.catching_up:
                raise ValueError("still catching up with the host: this view lacks what it is owed")
            self._queued.append(self.machine.act(action, self._clock()))
        self._command("drain")

    def start(self) -> None:
        """Host: start the match now (every person seat taken). Raises ValueError otherwise."""
        if not isinstance(self.lobby, HostLobby) or not self.lobby.can_start():
            raise ValueError("not every seat is taken")
        self._command("start")

    def set_options(self, options: dict) -> None:
        """Host: the game's lobby options (:attr:`net.match.Table.options`, e.g. the host's colour)
        for the match to come, while none is being set up; a choice that comes too late (a
        joiner's hello started the match meanwhile) changes nothing. Raises ValueError for
        options that do not check or on a joiner."""
        from .lobby import _opts
        why = _opts(options)
        if why is not None or self.role != "host":
            raise ValueError(f"lobby options {why}" if why else "only the host sets the table's options")
        self._command("options", dict(options))

    @property
    def options(self) -> dict:
        """The game's lobby options: the host's as set now, a joiner's as its host sent them."""
        if isinstance(self.lobby, HostLobby):
            return dict(self.lobby.options)
        return dict(getattr(self.lobby, "options", None) or {})

    def can_start(self) -> bool:
        """Host: every person seat is taken and no match is under way (:meth:`start` may be called)."""
        return isinstance(self.lobby, HostLobby) and self.lobby.can_start()

    def hand_to_computer(self, seat: int, level: str) -> None:
        """Host: a joiner's seat whose person is away is played by the part's computer player
        at ``level`` until the person proves the seat again (then it is given back). Raises
        ValueError (the reason) when it cannot be handed over now."""
        if self.role != "host" or self.part.player is None:
            raise ValueError("only a host with computer players hands a seat over")
        with self._mlock:
            if self.machine is None or self.verdict is not None:
                raise ValueError("no match is being played")
            if any(p.seat == seat for p in list(self._peers.values())):
                raise ValueError(f"seat {seat}'s player is connected")
            self._queued.append(self.machine.set_computer(seat, True, self._clock()))
            self._players[seat], self._handed = self.part.player(level, seat), self._handed | {seat}
        self._command("drain")

    def view(self, fn: Callable[[MatchMachine], Any]) -> Any:
        """``fn(machine)`` under the machine's lock (a snapshot for the window), or None."""
        with self._mlock:
            return None if self.machine is None else fn(self.machine)

    def close(self, timeout: float = 2.0) -> None:
        """Leave: every connection is told ``bye`` (a match in progress: the others judge the
        stop by who owes what), files are written, the thread ends."""
        self._command("leave")
        self._thread.join(timeout)

    # ------------------------------------------------------------------ thread
    def _set_status(self, code: str) -> None:
        if self._new_status(code, code):
            self._emit(Status(code))

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        self._sel = sel
        sel.register(self._wake_r, selectors.EVENT_READ, None)
        if self._listener is not None:
            sel.register(self._listener, selectors.EVENT_READ, "listen")
        next_connect = 0.0
        if self.role == "host" and self.part.auto_start and self.lobby.can_start():  # type: ignore[union-attr]
            self._lobby_out(self.lobby.start(self._clock()))  # type: ignore[union-attr]  # no person seat to wait for
        try:
            while not self._stopping:
                now = self._clock()
                if self.role == "join" and not self._peers and not self._fatal and now >= next_connect:
                    if not self._connect():
                        next_connect = self._clock() + self.reconnect_delay
                for key, _ in sel.select(TICK):
                    if key.data is None:
                        try:
                            self._wake_r.recv(4096)
                        except OSError:
                            pass
                    elif key.data == "listen":
                        self._accept()
                    elif key.data is _LINGER:
                        self._linger_read(key.fileobj)  # type: ignore[arg-type]
                    else:
                        self._read(key.data)
                self._commands_run()
                self._tick(self._clock())
                if self.role == "join" and not self._peers and not self._fatal and next_connect <= now:
                    next_connect = self._clock() + self.reconnect_delay
        except OSError:
            pass  # the journal could not be written (WriteFailed said so): no promise leaves without it
        finally:
            for p in list(self._peers.values()):
                self._close_peer(p, None, close=False)
                p.sock.close()
            for sock in list(self._lingering):
                self._unlinger(sock)
            if self._listener is not None:
                self._listener.close()
            sel.close()
            self._close_mailbox()
            self._set_status("closed")

    def _commands_run(self) -> None:
        while True:
            with self._lock:
                if not self._commands:
                    return
                name, args = self._commands.popleft()
            if name == "drain":
                self._drain()
            elif name == "computed":
                self._computed(*args)
            elif name == "options":
                try:
                    self._lobby_out(self.lobby.set_options(*args))  # type: ignore[union-attr]
                except ValueError:
                    pass  # too late: the match was set up meanwhile
            elif name == "start":
                if self.lobby.can_start():  # type: ignore[union-attr]  # (a repeated start: under way)
                    self._lobby_out(self.lobby.start(self._clock()))  # type: ignore[union-attr]
            elif name == "leave":
                peers = list(self._peers.values())
                for p in peers:
                    self._close_peer(p, ("bye", "the player left"), close=False)
                socks = [p.sock for p in peers] + list(self._lingering)
                for sock in list(self._lingering):
                    self._lingering.pop(sock)
                    self._sel.unregister(sock)
                _linger(socks, self._clock, LINGER)
                self._write_record()
                self._stopping = True
                return

    def _tick(self, now: float) -> None:
        self._drain()
        for sock, end in list(self._lingering.items()):
            if now >= end:
                self._unlinger(sock)
        for p in list(self._peers.values()):
            p.link.tick(now)
            self._flush(p)
            if p.link.closed is not None:
                self._link_closed(p)
        self._lobby_out(self.lobby.tick(now))
        host_owes = False
        if self.machine is not None and self.verdict is None:
            with self._mlock:
                outputs = self.machine.tick(now)
                owed = self.machine.owed()
                late = overdue(owed, now, self._is_connected, self._back)
            host_owes = self.role == "join" and any(  # (a step the host owes us, or every seat)
                o.seat == 0 and o.to in (self.machine.seat, ALL) and o.forfeits and math.isfinite(o.since + o.total)
                for o in owed)
            self._carry_out(outputs)
            self._think()
            if late is not None and self.verdict is None:
                v = deadline_verdict(late, self._is_connected(late.seat), self.machine.received())
                if v is not None:
                    self._end(v)
                else:  # nothing seen yet: the seat is only cut off, and may come back
                    for p in list(self._peers.values()):  # (seated: a connection mid-handshake has its own deadline)
                        if p.seat is not None and p.seat == late.seat:
                            p.link.close("withheld", f"seat {late.seat} withheld its {late.step} for {late.ref}")
                            self._flush(p)
                            self._link_closed(p)
        # a host away while it owes us a forfeiting step is judged by that step's total deadline
        # (rule 1), as a joiner away owing one is: the same fault, the same verdict, whichever seat
        if (self.role == "join" and self._lost_host_at is not None and self.machine is not None
                and self.verdict is None and not host_owes and now - self._lost_host_at >= self.host_grace):
            self._end(Verdict("left", 0, (), 0, f"the host was gone for {self.host_grace:g} seconds"), tell_later=False)

    # ------------------------------------------------------------------ sockets
    def _add_peer(self, sock: socket.socket) -> _Peer:
        sock.settimeout(5.0)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        link = Link(self._schemas, rates=self._rates, now=self._clock())
        p = _Peer(self._next_cid, sock, link)
        self._next_cid += 1
        self._peers[p.cid] = p
        self._sel.register(sock, selectors.EVENT_READ, p.cid)
        return p

    def _accept(self) -> None:
        try:
            sock, _ = self._listener.accept()  # type: ignore[union-attr]
        except OSError:
            return
        p = self._add_peer(sock)
        self._lobby_out(self.lobby.open(p.cid, self._clock()))  # type: ignore[union-attr]

    def _connect(self) -> bool:
        first, self._first = self._first, None
        if first is not None:
            sock, initial = first
        else:
            try:
                sock = socket.create_connection((self.address, self.port), timeout=2.0)
            except OSError:
                if self.machine is not None and self._lost_host_at is None:
                    self._lost_host_at = self._clock()  # (a journaled match whose host is not there)
                return False
            initial = b""
        p = self._add_peer(sock)
        have = self.machine.received() if self.machine is not None else 0
        out = self.lobby.open(self._clock(), have)  # type: ignore[call-arg]
        self._lobby_out([LSend(p.cid, o.msg) if isinstance(o, LSend) else o for o in out])
        if initial:
            for msg in p.link.feed(initial, self._clock()):
                if p.cid not in self._peers:
                    break
                self._message(p, msg)
            self._flush(p)
            if p.link.closed is not None:
                self._link_closed(p)
        return True

    def _read(self, cid: int) -> None:
        p = self._peers.get(cid)
        if p is None:
            return
        try:
            data = p.sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return
        except OSError:
            data = b""
        for msg in p.link.feed(data, self._clock()):
            if p.cid not in self._peers:
                break
            self._message(p, msg)
        self._flush(p)
        if p.link.closed is not None:
            self._link_closed(p)

    def _flush(self, p: _Peer) -> None:
        data = p.link.data_to_send()
        if data:
            try:
                p.sock.sendall(data)
            except OSError:
                p.link.feed(b"", self._clock())

    def _close_peer(self, p: _Peer, why: tuple[str, str] | None, close: bool = True) -> None:
        """Forget ``p`` (saying ``why``, a closing code and reason, first); ``close``: close its
        socket here (else the caller does, see :func:`_linger`): at once if the peer closed
        first, else once the peer closes its side or :data:`LINGER` seconds passed, its bytes
        read and dropped meanwhile, without holding up the thread (a socket closed with unread
        bytes sends a reset, which may lose our last frames: an error code, the verdict)."""
        if why is not None:
            p.link.close(*why)
            self._flush(p)
        self._peers.pop(p.cid, None)
        try:
            self._sel.unregister(p.sock)
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
                    self._sel.register(p.sock, selectors.EVENT_READ, _LINGER)
                except (KeyError, ValueError, OSError):  # (a socket the selector cannot watch: closed now)
                    p.sock.close()
                else:
                    self._lingering[p.sock] = self._clock() + LINGER

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
        self._lingering.pop(sock, None)
        try:
            self._sel.unregister(sock)
        except (KeyError, ValueError):
            pass
        sock.close()

    def _link_closed(self, p: _Peer) -> None:
        """A link closed (by us or the peer): the lobby and the machine hear of it."""
        self._drain()
        closed = p.link.closed
        assert closed is not None
        if p.cid not in self._peers:
            return
        self._close_peer(p, None)
        now = self._clock()
        seat = p.seat
        # joiner: a connection at the host's address that never held our seat (a stranger, a stale
        # process, a forged seat proof) cannot end the match or our tries: only it is refused
        unproven = self.role == "join" and seat is None and self.machine is not None
        fatal = closed.code in FATAL_CODES and not unproven
        self._emit(Dropped(closed.code, closed.reason, closed.by_peer, fatal, -1 if seat is None else seat))
        if self.role == "host":
            if seat is None and not closed.by_peer:
                self._emit(Refused(closed.code, closed.reason))
            self._lobby_out(self.lobby.closed(p.cid, now))  # type: ignore[call-arg]
        if (self.role == "host" and seat is not None and self.machine is not None and self.verdict is None
                and self.machine.abortable()):
            with self._mlock:
                self.machine = None  # nothing was bound: the seat goes to whoever comes next
            for q in list(self._peers.values()):  # the others join again, as new (nothing of theirs is lost)
                if q.seat is not None:
                    q.link.close("reopen", "the match was called off: a seat left before anything was bound")
                    self._flush(q)
                    self._close_peer(q, None)
                    self._lobby_out(self.lobby.closed(q.cid, now))  # type: ignore[call-arg]
            self._new_sign_keys()  # a key per match: the next one is another match
            self._lobby_out(self.lobby.reopen())  # type: ignore[union-attr]
            self._set_status("listening")
            return
        if seat is not None and self.machine is not None and self.verdict is None:
            mseat = seat if self.role == "host" else 0
            if closed.by_peer and closed.code != "eof":
                self._stop(mseat, closed.code, -1)
            if self.verdict is None:
                with self._mlock:
                    outputs = self.machine.disconnected(mseat, now)
                self._carry_out(outputs)
        if (self.role == "join" and closed.by_peer and closed.code == "reopen" and self.verdict is None
                and seat is not None):
            self._forget_match()  # called off before anything was bound: join the table again, as new
            self._set_status("connecting")
            return
        if self.role == "join":
            if fatal and closed.by_peer or not unproven and closed.code in ("version", "game", "role", "self", "seat"):
                self._fatal = True
                if self.verdict is None:
                    self._set_status("failed")
            elif self.machine is not None and self._lost_host_at is None:
                self._lost_host_at = now
            if self.verdict is None and not self._fatal:
                self._set_status("interrupted" if self.machine is not None else "connecting")
        if self.verdict is not None and self.role == "join":
            self._fatal = True

    # ------------------------------------------------------------------ messages
    def _message(self, p: _Peer, msg: dict) -> None:
        self._drain()
        now = self._clock()
        if msg["t"] == "caught":
            if self.role == "host" or p.seat is None:
                p.link.close("order", "a caught message from a joiner, or before the seat")
            else:
                self.catching_up = False
            return
        if msg["t"] == "over":
            if p.seat is None or self.machine is None:
                p.link.close("order", "a verdict before the match")
            elif self.verdict is None:
                self._stop(p.seat if self.role == "host" else 0, msg["kind"], msg["seat"], msg["ply"])
            return
        if msg["t"] in LOBBY_TYPES:
            if self.role == "host":
                self._lobby_out(self.lobby.receive(p.cid, msg, now))  # type: ignore[call-arg]
            else:
                self._lobby_out([LSend(p.cid, o.msg) if isinstance(o, LSend) else
                                 LDrop(p.cid, o.code, o.reason, o.send) if isinstance(o, LDrop) else o
                                 for o in self.lobby.receive(msg, now)])  # type: ignore[call-arg]
            return
        if (self.role == "host" and self.machine is None and p.seat is not None and self.lobby.starting
                and len(p.early) < 64):
            p.early.append(msg)  # it confirmed the start; the others have not yet
            return
        if p.seat is None or self.machine is None or (self.role == "join" and not self.lobby.seated):
            p.link.close("order", f"a {msg['t']!r} message before the match")
            return
        with self._mlock:
            try:
                outputs = self.machine.receive(p.seat if self.role == "host" else 0, msg, now)
            except Refusal as e:
                p.link.close(e.code, str(e))
                return
        self._carry_out(outputs)

    def _lobby_out(self, outputs: list) -> None:
        now = self._clock()
        changed = False
        for o in outputs:
            if isinstance(o, LSend):
                p = self._peers.get(o.cid) if self.role == "host" else next(iter(self._peers.values()), None)
                if p is not None:
                    p.link.send(o.msg)
                    self._flush(p)
            elif isinstance(o, LDrop):
                p = self._peers.get(o.cid) if self.role == "host" else next(iter(self._peers.values()), None)
                if p is not None:
                    p.link.close(o.code, o.reason, send=o.send)
                    self._flush(p)
                    self._link_closed(p)
            elif isinstance(o, LSeated):
                p = self._peers.get(o.cid) if self.role == "host" else next(iter(self._peers.values()), None)
                if p is not None:
                    p.seat = o.seat if self.role == "host" else 0
                    p.link.settled = True
                    p.back = now
                if o.resumed and self.machine is not None:
                    self._lost_host_at = None
                    if self.role == "join":
                        self.catching_up = True
                    self._emit(Started(self.machine.table, self.machine.seat, True))
                    if self.verdict is None:
                        self._set_status("playing")
                    with self._mlock:
                        try:
                            outs = self.machine.catch_up(o.seat if self.role == "host" else 0, o.have, now)
                            outs += self.machine.connected(o.seat if self.role == "host" else 0, now)
                            if self.role == "host" and o.seat in self._handed and self.verdict is None:
                                outs += self.machine.set_computer(o.seat, False, now)  # its person is back
                                self._handed.discard(o.seat)
                                self._players.pop(o.seat, None)
                            if self.role == "host":
                                outs.append(Send(o.seat, {"t": "caught"}))  # the end of its catch-up
                        except Refusal as e:
                            if p is not None:
                                p.link.close(e.code, str(e))
                                self._flush(p)
                                self._link_closed(p)
                            continue
                    self._carry_out(outs)
                    if self.verdict is not None and p is not None and p.link.closed is None:
                        v = self.verdict  # it comes back to a match already judged: it hears the verdict
                        p.link.send({"t": "over", "kind": v.kind, "seat": v.seat, "ply": min(v.ply, 1 << 20)})
                        p.link.close(v.kind, v.detail[:500])
                        self._flush(p)
                        self._link_closed(p)
                else:  # a seat in the lobby (a joiner's too: it is no longer connecting)
                    self._set_status("lobby")
            elif isinstance(o, LStarted):
                self._begin(o, now)
            elif isinstance(o, LChanged):
                changed = True
        if changed:  # after the batch: a joiner hears its seat in the lobby before the start
            self._emit(LobbySeats(tuple(tuple(r) for r in self._rows())))
            if self.role == "host" and self.part.auto_start and self.lobby.can_start():  # type: ignore[union-attr]
                self._lobby_out(self.lobby.start(now))  # type: ignore[union-attr]

    def _forget_match(self) -> None:
        """Joiner: the host called the match off (``reopen``): its machine, seat memo and
        journal go (nothing of it was bound), and the next connection is a new hello."""
        with self._mlock:
            self.machine = None
        self.lobby.memo, self.lobby.seated = None, False  # type: ignore[union-attr]
        self._new_sign_keys()
        self._lost_host_at = None
        if self.record_path is not None:
            try:
                os.unlink(journal_path(self.record_path))
            except OSError:
                pass

    def _think(self) -> None:
        """Host: a computer seat that must decide gets a worker thread for its player (the
        network thread goes on serving meanwhile); its decision comes back as a command."""
        turn = self.part.turn
        for seat, choose in list(self._players.items()):
            if seat in self._thinking or self.machine is None or self.verdict is not None:
                continue
            with self._mlock:
                obs = turn(self.machine, seat)  # type: ignore[misc]
            if obs is None:
                continue
            self._thinking.add(seat)

            def work(seat: int = seat, choose=choose, obs=obs) -> None:
                try:
                    action = choose(obs)
                except Exception as e:  # a bug in a computer player: the seat waits, the match goes on
                    action, obs = None, e
                self._command("computed", seat, action)
            threading.Thread(target=work, name=f"lan-computer-{seat}", daemon=True).start()

    def _computed(self, seat: int, action: Any) -> None:
        self._drain()
        self._thinking.discard(seat)
        if action is None or self.machine is None or self.verdict is not None:
            return
        with self._mlock:
            try:
                outputs = self.machine.act(action, self._clock(), seat)
            except ValueError:
                return  # the match moved on while it thought: it thinks again at the next tick
        self._carry_out(outputs)

    def _is_connected(self, seat: int) -> bool:
        if seat == (self.machine.seat if self.machine is not None else -1) or seat in self.computers \
                or seat in self._handed:
            return True
        # a connection counts once it holds the seat (for a resume: the host proved the match and
        # repeated its start), never while its handshake is under way: the connected deadline of
        # a step the host owes runs from that seating, with its catch-up on the way
        return any(p.seat == (0 if self.role == "join" else seat) for p in self._peers.values())

    def _back(self, seat: int) -> float:
        """When seat ``seat``'s current connection was seated (s; -inf for a seat played here,
        or while it is away), for :func:`~net.match.overdue`: a seat back from a drop gets its
        connected time again, never past a forfeiting step's total deadline."""
        if self.machine is not None and seat == self.machine.seat or seat in self.computers or seat in self._handed:
            return -math.inf
        if self.role == "join":
            return max((p.back for p in self._peers.values()), default=-math.inf)
        return max((p.back for p in self._peers.values() if p.seat == seat), default=-math.inf)

    def _rows(self) -> list:
        if isinstance(self.lobby, HostLobby):
            return self.lobby.table_rows()
        return list(self.lobby.rows)

    def _new_sign_keys(self) -> None:
        """A game that signs (:attr:`LanPart.signing`): fresh signing seeds for the next match,
        one per seat this side plays, their public keys in the lobby's hellos."""
        if self.part.signing is None:
            return
        seats = [0] + [s for s, k in enumerate(self._kinds) if k == "computer"] if self.role == "host" else [-1]
        self._sign_seeds = {s: self._token(32) for s in seats}
        pub = {s: self.part.signing(seed) for s, seed in self._sign_seeds.items()}
        if isinstance(self.lobby, HostLobby):
            self.lobby.sign_keys = pub
        else:
            self.lobby.sign_key = pub[-1]

    def _begin(self, o: LStarted, now: float) -> None:
        with self._mlock:
            if self.part.signing is not None:
                seeds = {o.seat if s < 0 else s: seed for s, seed in self._sign_seeds.items()}
                self.machine = self.part.new_match(o.seat, o.table, self._token, seeds)  # type: ignore[call-arg]
            else:
                self.machine = self.part.new_match(o.seat, o.table, self._token)
        if self.role == "join":
            p = next(iter(self._peers.values()), None)
            if p is not None:
                p.seat = 0
                p.link.settled = True
        self._save_journal()  # the seat and its keys are durable before ``ready`` leaves
        self._emit(Started(o.table, o.seat, False))
        self._set_status("playing")
        with self._mlock:
            outputs = self.machine.start(now)
            if self.role == "host":
                for s in o.peer_keys:
                    outputs += self.machine.connected(s, now)
        self._carry_out(outputs)
        for p in list(self._peers.values()):
            early, p.early = p.early, []
            for msg in early:
                if p.cid in self._peers:
                    self._message(p, msg)

    def _drain(self) -> None:
        """Carry out the outputs of the caller's act() made so far (see :attr:`_queued`)."""
        while True:
            with self._mlock:
                if not self._queued:
                    return
                outputs = self._queued.popleft()
            self._carry_out(outputs)

    def _carry_out(self, outputs: list) -> None:
        """The machine's outputs in order: a Save is written before the sends after it."""
        for o in outputs:
            if isinstance(o, Send):
                if self.role == "join":
                    targets = [p for p in self._peers.values() if p.seat == 0]
                elif o.to == ALL:
                    targets = [p for p in self._peers.values() if p.seat is not None and p.seat != 0]
                else:
                    targets = [p for p in self._peers.values() if p.seat == o.to]
                for p in targets:
                    try:
                        p.link.send(o.msg)
                    except FrameError as e:  # a bug on our side: never sent
                        raise RuntimeError(f"the match machine made a bad message: {e}") from None
                    self._flush(p)
            elif isinstance(o, Save):
                self._save_journal()
            elif isinstance(o, Notice):
                self._emit(Noticed(o.code, dict(o.data)))
                if o.code == "record":
                    self._write_record()
            elif isinstance(o, Over):
                self._end(o.verdict)

    def _stop(self, sender: int, code: str, named: int, ply: int | None = None) -> None:
        """Seat ``sender`` stopped the match (``over`` or ``error``): judged by who owes what
        (:func:`net.match.judge_stop`), never by who says so."""
        self._drain()
        assert self.machine is not None
        with self._mlock:
            owed, me = self.machine.owed(), self.machine.seat
            at = self.machine.received() if ply is None else ply
        v = judge_stop(owed, me, sender, code, named, at, self.computers)
        check = getattr(self.machine, "check_verdict", None)  # a machine that holds evidence checks it
        if v is not None and check is not None:
            with self._mlock:
                v = check(v, sender)
        if v is not None:
            self._end(v)

    def _end(self, verdict: Verdict, tell_later: bool = True) -> None:
        """The match is over: the machine records the verdict, files are written, every peer
        still connected gets ``over{kind, seat, ply}`` and the connection closes. A joiner whose
        connection to the host is down then (it resigned meanwhile, say) reconnects to tell it
        (its seat proof, then ``over``), unless ``tell_later`` is False (the host is gone)."""
        if self.verdict is not None or self.machine is None:
            return
        self.verdict = verdict
        with self._mlock:
            outputs = self.machine.end(verdict, self._clock())
            verdict = self.verdict = self.machine.over or verdict  # the game knows its winners
        self._carry_out([o for o in outputs if not isinstance(o, Over)])
        self._save_journal()
        self._write_record()
        told = False
        for p in list(self._peers.values()):
            if p.seat is not None and p.link.closed is None:
                p.link.send({"t": "over", "kind": verdict.kind, "seat": verdict.seat, "ply": min(verdict.ply, 1 << 20)})
                p.link.close(verdict.kind, verdict.detail[:500])
                self._flush(p)
                told = True
        self._emit(Ended(verdict))
        self._set_status("over")
        if self.role == "join" and (told or not tell_later):
            self._fatal = True

    # ------------------------------------------------------------------ files
    def _save_journal(self) -> None:
        memo = self.lobby.memo
        if self.record_path is None or memo is None or self.machine is None:
            return
        from game.fsutil import atomic_write_text
        path = journal_path(self.record_path)
        data = {"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, "g": self.part.key, "memo": memo.to_json(),
                "match": self.machine.payload()}
        try:
            atomic_write_text(path, json.dumps(data, indent=1) + "\n", mode=0o600)
        except OSError as e:
            self._write_failed(path, e)
            raise

    def _write_record(self) -> None:
        if self.record_path is None or self.machine is None:
            return
        from game.fsutil import atomic_write_text
        with self._mlock:
            rec = self.machine.record()
        try:
            atomic_write_text(self.record_path, json.dumps(rec, indent=1) + "\n")
        except OSError as e:
            self._write_failed(self.record_path, e)

    def _write_failed(self, path: Path, e: OSError) -> None:
        w = WriteFailed(str(path), e.strerror or str(e))
        self.write_errors.append(w)
        self._emit(w)
