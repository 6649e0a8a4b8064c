"""Royals & Riots over TCP: the lobby, seats, resume and faults around the pure match machines
(docs/protocol.md, "Royals & Riots: connections, lobby, resume and faults").

A frame loop (the window) or a headless peer uses :class:`RoyalsSession` without ever waiting
on the network::

    s = RoyalsSession.host("Ann", seats=3, computers={3: "easy"}, port=0)   # or .join("Bo", "127.0.0.1", port)
    ...every frame:
    for event in s.poll():              # never blocks: StatusChanged, LobbyChanged, Acted, RoundChecked,
        ...                             # MatchOver, Failed, Refused, WriteFailed
    if s.status == "lobby" and s.can_start:
        s.start()                       # host only
    if s.my_turn:
        s.play(choice_from(s.view.observation(), s.legal_actions()))
    s.close()

Star topology: the host (seat 1) listens and relays; joiners (seats 2..4) talk only to it. One
background thread owns every socket, the :class:`~net.link.Link` of each connection and the live
match (:class:`net.royals.HostMatch` / :class:`net.royals.JoinerMatch`); the caller sees copies.
Computer seats run by the host decide in a worker thread, never on the network thread.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets as _secrets
import selectors
import socket
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from game import __version__ as APP_VERSION
from game.fsutil import atomic_write_text

from . import DEFAULT_PORT, PROTOCOL_NAME, PROTOCOL_VERSION
from .coin import GAME_LABEL, proof_ok, seat_proof
from .framing import MAX_NAME, SHARED_SCHEMAS, _bin, _bool, _enum, _int, _list, _name, _str, _tuple
from .limits import HANDSHAKE_TIMEOUT, RATES, name_problem
from .link import HEARTBEAT, SILENCE, Link, LinkClosed
from .mailbox import Mailbox
from .transport import Refused, WriteFailed, seat_path

GAME_KEY = "royals-riots"  #: the ``g`` of a Royals & Riots hello (what a joiner learns the game from)
MAX_SEATS = 4
RECV_SIZE = 65536
TICK = 0.2  #: seconds between ticks of the background thread (anything that happens wakes it at once)
MAX_CANDIDATES = 4  #: connections a host holds at once that have not settled a seat
SHUTDOWN_LINGER = 0.5  #: seconds close() waits at most for the peers to read our last word
LINGER = 2.0  #: seconds a closed connection is drained so the peer gets our error (see RoyalsSession._linger)
HOST_GRACE = 10.0  #: seconds a joiner keeps reconnecting to a host that dropped before it gives up
JOURNAL_FORMAT = "royals-lan-journal"

#: Statuses of :attr:`RoyalsSession.status`.
STATUSES = ("connecting", "lobby", "playing", "interrupted", "over", "failed", "closed")

_SEAT_KIND = _enum("host", "person", "computer", "open")

#: Messages of the connection layer on top of net.royals' (the match's) — see docs/protocol.md.
LOBBY_SCHEMAS: dict[str, dict] = {
    "hello": {**SHARED_SCHEMAS["hello"], "g": _enum(GAME_KEY)},
    "lobby": {"seats": _list(_tuple(_SEAT_KIND, _str(0, MAX_NAME), _bool), 2, MAX_SEATS), "you": _int(1, MAX_SEATS),
              "teams": _bool},
    "start": {"game": _bin(16), "seat": _int(2, MAX_SEATS), "players": _int(2, MAX_SEATS), "teams": _bool,
              "names": _list(_name, 2, MAX_SEATS), "date": _str(0, 32), "computers": _list(_int(1, MAX_SEATS), 0, 3)},
}

#: Rates (burst, refill per second) of the lobby messages, and defaults for the match's messages
#: (net.royals' own RATES, if it has them, take precedence). A resume replays a seat's whole view
#: at once (a few hundred messages), hence the bursts.
LOBBY_RATES = {"lobby": (20, 10), "start": (3, 0.1), "act": (600, 60), "you": (400, 40), "hidden": (400, 40),
               "commits": (400, 40), "round": (6, 1), "proxy": (20, 5), "ack": (800, 40)}


# --------------------------------------------------------------------------- events
@dataclass(frozen=True)
class SeatInfo:
    """One seat of the table: ``seat`` 1..4, ``kind`` ``"host"``|``"person"``|``"computer"``|
    ``"open"`` (a person seat nobody holds yet), ``name`` (``""`` when open; a computer's is
    ``"Computer (LEVEL)"``), ``connected`` (the host and computers always; a person while its
    connection is up — a dropped joiner's seat keeps its name and waits)."""

    seat: int
    kind: str
    name: str
    connected: bool


@dataclass(frozen=True)
class StatusChanged:
    """The session's status changed: ``status`` one of :data:`STATUSES`, ``reason`` the line to show."""

    status: str
    reason: str


@dataclass(frozen=True)
class LobbyChanged:
    """Who holds which seat changed (someone joined, left, dropped, came back, was handed to a computer)."""

    seats: tuple[SeatInfo, ...]


@dataclass(frozen=True)
class Acted:
    """Public action ``text`` (docs/royals-record-format.md) of ``seat`` at engine ply ``ply``
    (``seat`` 0 for a chance outcome; a hidden action reads ``"3 keep ?"``/``"3 pile ?"``)."""

    ply: int
    seat: int
    text: str


@dataclass(frozen=True)
class RoundChecked:
    """Round ``round`` (1..3) ended and this peer's check of the host's reveal passed."""

    round: int


@dataclass(frozen=True)
class MatchOver:
    """The match ended (three rounds played): ``record`` is the finished match's record
    (identical on every peer; ``rose-king check`` accepts it)."""

    record: object


@dataclass(frozen=True)
class Failed:
    """The match stopped: ``seat`` is at fault (0: nobody, e.g. the host left) at ``ply`` with
    ``action`` (its text, ``""`` if none); ``reason`` for people (English; it names the seat and
    the play); ``code`` the closing code of docs/protocol.md that stopped it (``illegal``,
    ``coin``, ``forfeit``, ``desync``, ``left``, ``version``, ``game``, ``seat`` ...; ``""``
    for a local failure), from which a screen words it in the player's language."""

    seat: int
    ply: int
    action: str
    reason: str
    code: str = ""


@dataclass(frozen=True)
class ViewSnapshot:
    """What :attr:`RoyalsSession.view` returns: a copy of our seat's view at one moment.
    ``state`` is a full State consistent with what ``seat`` knows — the other seats' cards in it
    are placeholders and must never be shown; :meth:`observation` is the seat's information state
    (what an AI decides from)."""

    seat: int
    state: object
    obs: object

    def observation(self):
        return self.obs

    def copy(self) -> "ViewSnapshot":
        return ViewSnapshot(self.seat, self.state.copy(), self.obs)


SessionEvent = StatusChanged | LobbyChanged | Acted | RoundChecked | MatchOver | Failed | Refused | WriteFailed


class _Peer:
    """Host side: one connection (settling, or holding seat ``seat``)."""

    __slots__ = ("sock", "link", "nonce", "key", "hello", "seat", "name")

    def __init__(self, sock: socket.socket, link: Link, nonce: bytes, key: bytes) -> None:
        self.sock, self.link, self.nonce, self.key = sock, link, nonce, key
        self.hello: dict | None = None
        self.seat = 0
        self.name = ""


@dataclass
class _Seat:
    """Host side: one seat of the table."""

    kind: str  # host | person | computer
    name: str = ""
    level: str = ""  # a computer's level
    peer: _Peer | None = None
    nonce: bytes = b""  # the joiner's hello nonce on the connection seated at the start
    key: bytes = b""  # the joiner's resume secret (its hello's key at the start)
    host_key: bytes = b""  # the resume secret the host gave this seat (its hello's key on that connection)
    held: bool = False  # a person seat whose joiner dropped after the start

    def info(self, seat: int) -> SeatInfo:
        if self.kind == "person" and not self.name:
            return SeatInfo(seat, "open", "", False)
        connected = self.kind != "person" or self.peer is not None
        return SeatInfo(seat, self.kind, self.name, connected)


def _hello(name: str, role: str, peer_id: bytes, nonce: bytes, key: bytes, game: bytes = b"", date: str = "") -> dict:
    from game.royals.engine.record import VERSION as RECORD_VERSION
    return {"t": "hello", "proto": PROTOCOL_NAME, "pv": PROTOCOL_VERSION, "app": APP_VERSION[:32],
            "rec": RECORD_VERSION, "name": name, "peer": peer_id, "role": role, "date": date[:32], "nonce": nonce,
            "key": key, "game": game, "ply": 0, "hash": b"", "over": False, "g": GAME_KEY}


def match_id(host_nonce: bytes, joiner_nonces: list[bytes]) -> bytes:
    """The game id of a new match: ``SHA-256("rose-king-lan game" ‖ host nonce ‖ the hello nonce
    of seat 2's connection ‖ seat 3's ‖ …)[:16]`` (the host's nonce drawn fresh at the start;
    computer seats add nothing)."""
    return hashlib.sha256(GAME_LABEL + host_nonce + b"".join(joiner_nonces)).digest()[:16]


def _schemas() -> dict:
    from . import royals
    return {**royals.SCHEMAS, **LOBBY_SCHEMAS}


def _rates() -> dict:
    from . import royals
    return {**RATES, **LOBBY_RATES, **getattr(royals, "ROYALS_RATES", {})}


def computer_name(level: str) -> str:
    """The shown name of a computer seat."""
    return f"Computer ({level})"[:MAX_NAME]


#: Errors of the match (net.royals.MATCH_FATAL): handed to the match, which ends it for all.
_MATCH_ERRORS = frozenset({"illegal", "coin", "forfeit", "desync", "left"})
#: Closing codes after which a joiner does not reconnect.
_FATAL = _MATCH_ERRORS | {"version", "role", "self", "game", "seat"}


class _Refuse(Exception):
    """Internal: close one connection with ``code``/``reason`` (the others go on)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


class RoyalsSession(Mailbox):
    """One peer of a Royals & Riots match over TCP (see the module docstring and
    docs/protocol.md, "Royals & Riots: connections, lobby, resume and faults"). Use
    :meth:`host` or :meth:`join`.

    Timing knobs (seconds; tests make them tiny): ``heartbeat`` (ping after this much
    sending nothing), ``silence`` (a connection that says nothing whole this long is dropped),
    ``handshake`` (a connection must settle its seat this fast), ``reconnect_delay`` (a joiner's
    pause between attempts), ``host_grace`` (how long a joiner tries to get back to a host
    that dropped before the match counts as ended). ``clock``: monotonic seconds.
    ``record``: the record file, rewritten after every checked round and at the end; the
    private journal of a joiner (its seat, resume secrets and coin secrets) is kept next to
    it as ``<record>.journal`` (mode 0600) so a restarted joiner takes its seat back.
    ``seed``: seeds the host's computer players (None: fresh). ``connected``: a joiner's first
    connection, already open, with the bytes read from it (:func:`probe_host`).
    Test hooks: ``on_bytes`` (joiner) is called in the network thread with every chunk of
    raw bytes received from the host; ``tamper`` rewrites each of our match messages (a
    joiner's after it was journaled) just before it is sent — a hostile peer for the attack
    tests.
    """

    def __init__(self, role: str, name: str, *, address: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 seats: int = 2, computers: dict[int, str] | None = None, teams: bool = False,
                 record: str | os.PathLike | None = None, date: str = "", heartbeat: float = HEARTBEAT,
                 silence: float = SILENCE, handshake: float = HANDSHAKE_TIMEOUT, reconnect_delay: float = 0.5,
                 host_grace: float = HOST_GRACE, clock: Callable[[], float] = time.monotonic,
                 seed: int | None = None, connected: tuple[socket.socket, bytes] | None = None,
                 on_bytes: Callable[[bytes], None] | None = None,
                 tamper: Callable[[dict], dict] | None = None) -> None:
        why = name_problem(name, MAX_NAME)
        if why:
            raise ValueError(f"a player name {why} (1..{MAX_NAME} printable characters), got {name!r:.80}")
        self._open_mailbox()
        self._status_code = ""  # the closing code of a "failed" status (its line is worded when read)
        self._status_away: tuple[str, ...] = ()  # whom a "playing" status waits for (likewise)
        self.role, self.name, self.address, self.port = role, name, address, port
        self.record_path = Path(record) if record else None
        self.date = date
        self.heartbeat, self.silence, self.handshake = heartbeat, silence, handshake
        self.reconnect_delay, self.host_grace = reconnect_delay, host_grace
        self.write_errors: list[WriteFailed] = []
        self._clock = clock
        self._seed = seed
        self._on_bytes = on_bytes  # tests: every chunk a joiner receives from the host, raw
        self._tamper = tamper  # tests: a hostile joiner rewrites its own match messages after journaling them
        self._schemas = _schemas()
        self._rates = _rates()
        self._peer_id = os.urandom(16)
        self._stopping = False
        self._match = None  # HostMatch / JoinerMatch: background thread only
        self._view = None  # a copy for the caller
        self._legal: list = []
        self._my_turn = False
        self._busy = False
        self._record = None
        self._lobby: tuple[SeatInfo, ...] = ()
        self._my_seat = 1 if role == "host" else 0
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._wake_r, selectors.EVENT_READ, None)
        self._listener: socket.socket | None = None
        self._closing: dict[socket.socket, float] = {}  # sockets closing gracefully -> when to give up
        self._executor: ThreadPoolExecutor | None = None
        self._thinking: dict[int, Future] = {}
        self._players: dict = {}
        self._hview = None  # host: seat 1's SeatView, fed like a joiner's (see _host_view)
        self._recorded_ply = 0  # the ply of the rounds in the record file
        self._turn_dirty = True  # host: the match changed since _collect_computers last asked whose turn it is
        self._mirror = None
        if role == "host":
            if not 2 <= seats <= MAX_SEATS:
                raise ValueError(f"a match has 2..{MAX_SEATS} seats, got {seats}")
            if teams and seats != 4:
                raise ValueError("teams are played with 4 seats")
            computers = dict(computers or {})
            from game.royals.ai.levels import LEVEL_NAMES
            for seat, level in computers.items():
                if not 2 <= seat <= seats:
                    raise ValueError(f"computer seat {seat}: seats 2..{seats} may be computers")
                if level not in LEVEL_NAMES:
                    raise ValueError(f"unknown computer level {level!r} (one of {', '.join(LEVEL_NAMES)})")
            self.seats, self.teams = seats, teams
            self._seats: dict[int, _Seat] = {1: _Seat("host", name)}
            for s in range(2, seats + 1):
                self._seats[s] = (_Seat("computer", computer_name(computers[s]), computers[s]) if s in computers
                                  else _Seat("person"))
            self._peers: dict[socket.socket, _Peer] = {}
            self._game_id = b""
            self._listener = socket.create_server((address, port), backlog=8)
            self._listener.setblocking(False)
            self.port = self._listener.getsockname()[1]
            self._sel.register(self._listener, selectors.EVENT_READ, None)
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="royals-computer")
            self._publish_lobby()
            self._set_status("lobby")
        else:
            self.seats, self.teams = 0, False
            self._sock: socket.socket | None = None
            self._link: Link | None = None
            self._nonce = b""
            self._host_hello: dict | None = None
            self._journal: dict | None = self._load_journal()
            self._next_connect = 0.0
            self._lost_at: float | None = None
            self._fatal = False
            self._first = connected  # a connection probe_host opened, and the bytes it read
            if self._journal is not None:
                self._my_seat = self._journal["seat"]
            self._set_status("connecting")
        self._thread = threading.Thread(target=self._run, name=f"royals-lan-{role}", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ constructors
    @classmethod
    def host(cls, name: str, *, seats: int, computers: dict[int, str] | None = None, port: int = DEFAULT_PORT,
             bind: str = "127.0.0.1", record: str | os.PathLike | None = None, teams: bool = False,
             **kw) -> "RoyalsSession":
        """Host a match of ``seats`` (2..4) seats: seat 1 is ours, ``computers`` maps seats 2..n
        to AI levels (game.royals.ai.levels.LEVEL_NAMES), the other seats wait for people.
        Listens on ``bind:port`` (``port=0``: any free port, see :attr:`port`). Raises OSError if
        the port cannot be opened, ValueError for a bad name, seat count or level."""
        return cls("host", name, address=bind, port=port, seats=seats, computers=computers, teams=teams,
                   record=record, **kw)

    @classmethod
    def join(cls, name: str, address: str, port: int = DEFAULT_PORT, record: str | os.PathLike | None = None,
             **kw) -> "RoyalsSession":
        """Join the host at ``address:port`` (connects in the background; see :attr:`status`).
        With a ``record`` whose journal ``<record>.journal`` holds an unfinished match, the
        joiner proves its seat and resumes it. Raises ValueError for a bad name or journal."""
        return cls("join", name, address=address, port=port, record=record, **kw)

    # ------------------------------------------------------------------ caller's API (any thread)
    @property
    def lobby(self) -> list[SeatInfo]:
        """The table's seats, seat 1 first (the joiner's copy comes from the host's ``lobby`` message)."""
        with self._lock:
            return list(self._lobby)

    @property
    def can_start(self) -> bool:
        """Host: in the lobby, every person seat taken by a connected joiner."""
        with self._lock:
            return (self.role == "host" and self._status == "lobby"
                    and all(i.kind != "open" and i.connected for i in self._lobby))

    @property
    def my_seat(self) -> int:
        """Our seat (1 on the host; a joiner's once the host seated it, else 0)."""
        return self._my_seat

    @property
    def view(self):
        """A copy of this seat's :class:`~game.royals.engine.view.SeatView` (None before the start).
        Only :attr:`my_seat`'s cards are real: the other seats' are placeholders, never to be shown."""
        with self._lock:
            return None if self._view is None else self._view.copy()

    @property
    def my_turn(self) -> bool:
        """Whether this seat must decide now (playing, its turn, nothing of ours in flight)."""
        with self._lock:
            return self._status == "playing" and self._my_turn and not self._busy

    def legal_actions(self) -> list:
        """Our seat's legal decisions now (empty when it is not our turn)."""
        with self._lock:
            return list(self._legal) if self._status == "playing" and self._my_turn and not self._busy else []

    def play(self, action) -> None:
        """Play our seat's decision (a :class:`~game.royals.engine.Action`). Raises
        :class:`~game.royals.engine.IllegalMoveError` at once when it is not our turn or the
        action is not legal now; otherwise the network thread sends it (a later refusal comes
        back as :class:`Refused`)."""
        from game.royals.engine import IllegalMoveError
        with self._lock:
            if self._status != "playing":
                raise IllegalMoveError(f"{action}: the match is not being played ({self._status})")
            if not self._my_turn or self._busy:
                raise IllegalMoveError(f"{action}: it is not our turn")
            if action not in self._legal:
                reason = self._view.state.illegal_reason(action) if self._view is not None else None
                raise IllegalMoveError(f"{action}: {reason or 'not a legal action now'}")
            self._busy = True
        self._command("play", action)

    def start(self) -> None:
        """Host: start the match (every person seat filled). Raises ValueError otherwise."""
        if self.role != "host":
            raise ValueError("only the host starts the match")
        if not self.can_start:
            raise ValueError("every person seat must be taken by a connected player first")
        self._command("start")

    def hand_to_computer(self, seat: int, level: str) -> None:
        """Host: a computer of ``level`` plays ``seat`` from now on (a person seat whose joiner
        dropped; it does not come back). Raises ValueError for another seat or an unknown level."""
        from game.royals.ai.levels import LEVEL_NAMES
        if self.role != "host":
            raise ValueError("only the host hands a seat to a computer")
        if level not in LEVEL_NAMES:
            raise ValueError(f"unknown computer level {level!r}")
        info = next((i for i in self.lobby if i.seat == seat), None)
        if info is None or info.kind != "person" or info.connected or self._status not in ("playing", "interrupted"):
            raise ValueError(f"seat {seat} is not a dropped player's seat of a match under way")
        self._command("computer", seat, level)

    @property
    def record(self):
        """The record of the match (its checked rounds; the whole match once over), or None
        until a first round is checked. After :meth:`close` it is there for every match that
        started (with no round if none was checked; also written to ``record``)."""
        with self._lock:
            return self._record

    def close(self, timeout: float = 2.0) -> None:
        """Tell the peers we leave, stop the thread, close every socket. Idempotent."""
        if self._thread.is_alive():
            self._command("close")
            self._thread.join(timeout)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._close_mailbox()

    # ------------------------------------------------------------------ plumbing
    @property
    def status_text(self) -> str:
        """The status as a line to show, worded now in the current language (so a screen that
        draws it every frame follows a language change at once; :class:`StatusChanged` carries
        the line in the language of the moment it changed)."""
        with self._lock:
            status, code, away = self._status, self._status_code, self._status_away
        return self._status_words(status, code, away)

    def _status_words(self, status: str, code: str = "", away: tuple[str, ...] = ()) -> str:
        """The line of ``status`` in the current language: a ``playing`` line names whom the
        table waits for (``away``, the names of the person seats whose connection is down), a
        ``failed`` line is the sentence of the closing ``code`` that stopped the match (the
        English reason stays in :class:`Failed` and the logs)."""
        from game.i18n import _
        from game.royals.phrases import stop_text
        if status == "playing" and away:
            return _("Connection interrupted, waiting for {name} to come back…").format(name=", ".join(away))
        if status == "connecting":
            return _("Connecting to {address}…").format(address=f"{self.address}:{self.port}")
        if status == "lobby":
            return (_("Waiting for players on port {port}").format(port=self.port) if self.role == "host"
                    else _("Seated; waiting for the host to start"))
        if status == "failed":
            return stop_text(code)
        if status == "playing":
            return _("Playing Royals & Riots")
        if status == "interrupted":
            return _("Connection interrupted, reconnecting…")
        if status == "over":
            return _("Match over")
        return _("Disconnected")  # closed

    def _set_status(self, status: str, code: str = "", away: tuple[str, ...] = ()) -> None:
        """Store ``status`` (with the closing ``code`` of a ``failed`` one, the ``away`` names of a
        ``playing`` one that waits for dropped players) and announce it with its line in the
        current language (:meth:`_status_words`; :attr:`status_text` words it again when read)."""
        text = self._status_words(status, code, away)
        with self._lock:  # (a Condition over an RLock: _new_status takes it again)
            self._status_code, self._status_away = code, away
            changed = self._new_status(status, text)
        if changed:
            self._emit(StatusChanged(status, text))

    def _run(self) -> None:
        try:
            while not self._stopping:
                if self.role == "join":
                    self._maybe_connect()
                for key, _mask in self._sel.select(TICK):
                    if key.fileobj is self._wake_r:
                        try:
                            self._wake_r.recv(4096)
                        except OSError:
                            pass
                    elif key.fileobj is self._listener:
                        self._accept()
                    else:
                        self._read(key.fileobj)  # type: ignore[arg-type]
                self._run_commands()
                self._tick(self._clock())
        except Exception as e:  # a bug must not leave the caller waiting forever
            import traceback
            traceback.print_exc()
            self._fail(0, 0, "", f"internal error: {type(e).__name__}: {e}", "internal")
        finally:
            self._shutdown()

    def _shutdown(self) -> None:
        if self.role == "host":
            if self._match is not None and self._status == "playing":
                try:
                    self._match_events(self._match.abandon("the host left"))
                except Exception:  # noqa: BLE001 - leaving must not fail
                    pass
            for peer in list(self._peers.values()):
                peer.link.close("bye", "the host left")
                if self._flush(peer.sock, peer.link):
                    self._linger(peer.sock)
                else:
                    self._unregister(peer.sock)
            self._peers.clear()
            if self._listener is not None:
                self._unregister(self._listener)
        elif self._sock is not None:
            if self._link is not None:
                self._link.close("bye", "the player left")
                self._flush(self._sock, self._link)
            self._linger(self._sock)
            self._sock = None
        end = self._clock() + SHUTDOWN_LINGER  # a short, bounded wait: the peers read our last word
        while self._closing and self._clock() < end:
            for key, _mask in self._sel.select(0.02):
                if key.fileobj in self._closing:
                    self._drain(key.fileobj)  # type: ignore[arg-type]
        for sock in list(self._closing):
            self._unregister(sock)
        self._closing.clear()
        self._sel.close()
        if self._match is not None and self._record is None:
            self._take_record()  # left before any round was checked: the record of none (saved games, --record)
            self._write_record()
        if self._status not in ("over", "failed"):
            self._set_status("closed")

    def _linger(self, sock: socket.socket) -> None:
        """Close gracefully: no more sending (FIN after our ``error``), read and discard until the
        peer closes or :data:`LINGER` seconds pass. Closing at once while the peer's bytes are
        unread makes the kernel reset the connection, and the peer may lose our ``error``."""
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            self._unregister(sock)
            return
        self._closing[sock] = self._clock() + LINGER

    def _drain(self, sock: socket.socket) -> None:
        try:
            data = sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return
        except OSError:
            data = b""
        if not data:
            self._closing.pop(sock, None)
            self._unregister(sock)

    def _unregister(self, sock: socket.socket) -> None:
        try:
            self._sel.unregister(sock)
        except (KeyError, ValueError):
            pass
        try:
            sock.close()
        except OSError:
            pass

    def _new_link(self) -> Link:
        return Link(self._schemas, rates=self._rates, now=self._clock(), heartbeat=self.heartbeat,
                    silence=self.silence, handshake=self.handshake)

    @staticmethod
    def _setup_sock(sock: socket.socket) -> None:
        sock.settimeout(5.0)  # a send blocks at most this long; reads happen only when readable
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _flush(self, sock: socket.socket, link: Link) -> bool:
        """Send what ``link`` queued; False if the socket failed."""
        data = link.data_to_send()
        if not data:
            return True
        try:
            sock.sendall(data)
            return True
        except OSError:
            return False

    def _read(self, sock: socket.socket) -> None:
        if sock in self._closing:
            self._drain(sock)
            return
        try:
            data = sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return
        except OSError:
            data = b""
        if self.role == "host":
            peer = self._peers.get(sock)
            if peer is not None:
                self._host_receive(peer, data)
        elif sock is self._sock and self._link is not None:
            if self._on_bytes is not None and data:
                self._on_bytes(data)
            self._join_receive(data)

    def _run_commands(self) -> None:
        while True:
            with self._lock:
                if not self._commands:
                    return
                name, args = self._commands.popleft()
            if name == "close":
                self._stopping = True
                return
            try:
                if name == "start":
                    self._host_start()
                elif name == "play":
                    self._local_play(args[0])
                elif name == "computer":
                    self._host_hand_to_computer(*args)
            except ValueError as e:  # IllegalMoveError is a ValueError
                with self._lock:
                    self._busy = False
                self._emit(Refused(name, str(e)))

    def _tick(self, now: float) -> None:
        for sock, until in list(self._closing.items()):
            if now >= until:
                del self._closing[sock]
                self._unregister(sock)
        if self.role == "host":
            for peer in list(self._peers.values()):
                peer.link.tick(now)
                self._after_link(peer)
            self._collect_computers()
        elif self._link is not None and self._sock is not None:
            self._link.tick(now)
            self._join_after_link()
        if self._match is not None:
            events = self._match.tick(now)
            if events:
                self._match_events(events)
            else:
                self._match_pump()  # nothing happened: no refresh (an idle session stays quiet)

    def _fail(self, seat: int, ply: int, action: str, reason: str, code: str = "") -> None:
        self._emit(Failed(seat, ply, action, reason, code))
        self._set_status("failed", code)

    # ------------------------------------------------------------------ host: connections and lobby
    def _accept(self) -> None:
        try:
            sock, _addr = self._listener.accept()  # type: ignore[union-attr]
        except OSError:
            return
        if sum(1 for p in self._peers.values() if not p.link.settled) >= MAX_CANDIDATES:
            sock.close()  # too many connections settling at once: refused without reading
            return
        self._setup_sock(sock)
        link = self._new_link()
        nonce, key = os.urandom(16), _secrets.token_bytes(32)
        peer = _Peer(sock, link, nonce, key)
        self._peers[sock] = peer
        self._sel.register(sock, selectors.EVENT_READ, None)
        link.send(_hello(self.name, "host", self._peer_id, nonce, key, self._game_id, self.date))
        self._flush(sock, link)

    def _host_receive(self, peer: _Peer, data: bytes) -> None:
        messages = peer.link.feed(data, self._clock())
        ended = peer.link.closed  # the peer's error (or a bad frame) after these messages: they still count
        for msg in messages:
            if peer.link.closed is not ended:  # we closed it while handling an earlier one
                break
            try:
                self._host_message(peer, msg)
            except _Refuse as e:
                peer.link.close(e.code, e.reason)
        self._after_link(peer)

    def _after_link(self, peer: _Peer) -> None:
        """Flush ``peer``'s link; drop it if it closed (or its socket failed)."""
        ok = self._flush(peer.sock, peer.link)
        if peer.link.closed is None and ok:
            return
        closed = peer.link.closed or LinkClosed("eof", "the connection failed", True)
        if peer.link.closed is None:
            peer.link.close("eof", closed.reason, send=False)
        if ok and not closed.by_peer:
            self._linger(peer.sock)  # our error must reach the peer before the socket goes
        else:
            self._unregister(peer.sock)
        self._peers.pop(peer.sock, None)
        seat = self._seats.get(peer.seat) if peer.seat else None
        if seat is None or seat.peer is not peer:
            probe = closed.code == "bye" and closed.by_peer and peer.hello is None  # detect_game looked
            if not peer.link.settled and not probe:
                self._emit(Refused("connect", f"a connection was refused: {closed.reason}", closed.code))
            return
        seat.peer = None
        if self._match is not None and closed.by_peer and closed.code in _MATCH_ERRORS:
            # a joiner's verdict (its round check failed, ...): the match hears it and may end for all
            self._match_events(self._match.receive(peer.seat, {"t": "error", "code": closed.code,
                                                               "reason": closed.reason}, self._clock()))
        if self._match is None:  # in the lobby: the seat is free again
            seat.name, seat.nonce, seat.key, seat.host_key = "", b"", b"", b""
        else:
            seat.held = True
            self._match_disconnect(peer.seat)
        self._publish_lobby()

    def _host_message(self, peer: _Peer, msg: dict) -> None:
        t = msg["t"]
        if peer.hello is None:
            if t != "hello":
                raise _Refuse("order", f"{t!r} message before the handshake")
            self._host_hello(peer, msg)
            return
        if t == "hello":
            raise _Refuse("order", "a second handshake on one connection")
        if t == "auth":
            self._host_auth(peer, msg)
            return
        if not peer.link.settled:
            raise _Refuse("order", f"{t!r} message before the seat proof")
        if self._match is None:
            raise _Refuse("order", f"{t!r} message before the match started")
        self._match_receive(peer.seat, msg)

    def _host_hello(self, peer: _Peer, msg: dict) -> None:
        if msg["role"] != "join":
            raise _Refuse("self" if msg["peer"] == self._peer_id else "role", "both sides are hosts")
        if msg["peer"] == self._peer_id or msg["nonce"] == peer.nonce:
            raise _Refuse("self", "the peer uses our own peer id")
        peer.hello, peer.name = msg, msg["name"]
        if msg["game"]:
            if not self._game_id or msg["game"] != self._game_id:
                raise _Refuse("game", "the peer holds a seat in another match")
            return  # waits for its seat proof (auth)
        if self._match is not None:
            raise _Refuse("seat", "the match has started: every seat is taken")
        free = next((s for s in range(2, self.seats + 1)
                     if self._seats[s].kind == "person" and not self._seats[s].name), None)
        if free is None:
            raise _Refuse("seat", "the table is full")
        seat = self._seats[free]
        seat.name, seat.peer, seat.nonce, seat.key, seat.host_key = msg["name"], peer, msg["nonce"], msg["key"], peer.key
        peer.seat = free
        peer.link.settled = True
        self._publish_lobby()

    def _host_auth(self, peer: _Peer, msg: dict) -> None:
        if peer.link.settled or not peer.hello or not peer.hello["game"]:
            raise _Refuse("order", "a seat proof that was not asked for")
        for s in range(2, self.seats + 1):
            seat = self._seats[s]  # a person seat, or one handed to a computer while its person was away
            if seat.key and proof_ok(seat.key, self._game_id, s - 1, peer.nonce, msg["proof"]):
                break
        else:
            raise _Refuse("seat", "the connection could not prove that it holds a seat of this match "
                                  "(wrong resume secret)")
        old = seat.peer
        if old is not None:  # the seat's owner came back on a new connection: the old one goes
            old.link.close("bye", "replaced by a new connection of the same player")
            old.seat = 0
            self._after_link(old)
        peer.link.send({"t": "auth", "proof": seat_proof(seat.host_key, self._game_id, 0, peer.hello["nonce"])})
        peer.seat, peer.link.settled, seat.peer, seat.held = s, True, peer, False
        peer.link.send(self._start_message(s))
        self._match_reconnect(s, peer.hello["ply"])
        if seat.kind == "computer":  # its person is back: the seat is given back (once no coin is open)
            seat.kind, seat.level = "person", ""
            self._thinking.pop(s, None)
            self._players.pop(s, None)
            self._match_events(self._match.set_computer(s, False, self._clock()))
        self._publish_lobby()

    def _publish_lobby(self) -> None:
        infos = tuple(self._seats[s].info(s) for s in sorted(self._seats))
        with self._lock:
            changed = infos != self._lobby
            self._lobby = infos
        if not changed:
            return
        if self._match is not None and self._status == "playing":
            self._set_status("playing", away=tuple(i.name for i in infos if not i.connected))
        rows = [[i.kind, i.name, i.connected] for i in infos]
        for s, seat in self._seats.items():
            if seat.peer is not None and seat.peer.link.settled:
                seat.peer.link.send({"t": "lobby", "seats": rows, "you": s, "teams": self.teams})
                self._flush(seat.peer.sock, seat.peer.link)
        self._emit(LobbyChanged(infos))

    def _start_message(self, seat: int) -> dict:
        return {"t": "start", "game": self._game_id, "seat": seat, "players": self.seats, "teams": self.teams,
                "names": self._names(), "date": self.date[:32],
                "computers": [s for s, x in sorted(self._seats.items()) if x.kind == "computer"]}

    def _names(self) -> list[str]:
        return [self._seats[s].name for s in range(1, self.seats + 1)]

    def _host_start(self) -> None:
        if self._match is not None:
            raise ValueError("the match has already started")
        if any(i.kind == "open" or not i.connected for i in self._lobby):
            raise ValueError("every person seat must be taken by a connected player first")
        joiners = [self._seats[s].nonce for s in range(2, self.seats + 1) if self._seats[s].kind == "person"]
        self._game_id = match_id(os.urandom(16), joiners)
        for s, seat in self._seats.items():
            if seat.peer is not None:
                seat.peer.link.send(self._start_message(s))
        self._match_create()
        self._set_status("playing")
        self._match_pump()

    # ------------------------------------------------------------------ joiner: connection, lobby, resume
    def _maybe_connect(self) -> None:
        now = self._clock()
        if self._sock is not None or self._fatal or self._stopping or now < self._next_connect:
            return
        if self._lost_at is not None and now - self._lost_at >= self.host_grace:
            self._fatal = True
            self._fail(0, self._ply(), "", "the host left; the match is over (its autosave is kept)", "left")
            return
        first, self._first = self._first, None
        if first is not None:
            sock, initial = first
        else:
            initial = b""
            try:
                sock = socket.create_connection((self.address, self.port), timeout=2.0)
            except OSError:
                self._next_connect = self._clock() + self.reconnect_delay
                return
        self._setup_sock(sock)
        self._sock, self._link = sock, self._new_link()
        self._nonce = os.urandom(16)
        self._host_hello = None
        j = self._journal
        key = bytes.fromhex(j["key"]) if j is not None else _secrets.token_bytes(32)
        self._offered_key = key
        self._sel.register(sock, selectors.EVENT_READ, None)
        hello = _hello(self.name, "join", self._peer_id, self._nonce, key,
                       bytes.fromhex(j["game"]) if j is not None else b"")
        if j is not None and self._match is not None:
            hello["ply"] = self._match.received  # the host's messages we hold: the catch-up starts after them
        self._link.send(hello)
        self._join_after_link()
        if initial:
            if self._on_bytes is not None:
                self._on_bytes(initial)
            self._join_receive(initial)

    def _join_receive(self, data: bytes) -> None:
        link = self._link
        assert link is not None
        messages = link.feed(data, self._clock())
        ended = link.closed  # the host's error after these messages (e.g. ack, then "left"): they still count
        for msg in messages:
            if link.closed is not ended:  # we closed it while handling an earlier one
                break
            try:
                self._join_message(msg)
            except _Refuse as e:
                link.close(e.code, e.reason)
            if self._link is not link:
                break
        self._join_after_link()

    def _join_after_link(self) -> None:
        sock, link = self._sock, self._link
        if sock is None or link is None:
            return
        ok = self._flush(sock, link)
        if link.closed is None and ok:
            return
        closed = link.closed or LinkClosed("eof", "the connection failed", True)
        if ok and not closed.by_peer:
            self._linger(sock)  # our error must reach the host before the socket goes
        else:
            self._unregister(sock)
        self._sock, self._link = None, None
        self._next_connect = self._clock() + self.reconnect_delay
        with self._lock:
            self._busy = False
        over = self._status in ("over", "failed")
        if over:
            self._fatal = True
            return
        if closed.by_peer and self._match is not None and closed.code in _MATCH_ERRORS:
            before = self._status  # the match hears the host's verdict (it may end the match itself)
            self._match_events(self._match.receive({"t": "error", "code": closed.code, "reason": closed.reason},
                                                   self._clock()))
            if self._status != before:
                self._fatal = True
                return
        if self._host_hello is None and not closed.by_peer and closed.code in ("schema", "frame", "version"):
            self._fatal = True  # the host's first words were not a Royals & Riots hello: trying again cannot help
            self._fail(0, 0, "", f"{self.address}:{self.port} does not host Royals & Riots for this version "
                                 f"({closed.reason})", "version")
            return
        if closed.code in _FATAL:
            self._fatal = True
            seat, ply, action = self._fault_of(closed.reason)
            reason = closed.reason if closed.code != "left" else f"the host left; the match is over ({closed.reason})"
            if closed.code in ("game", "seat") and self._journal is not None and self.record_path is not None:
                reason += (f" — {seat_path(self.record_path)} holds a seat in another match: use another --record "
                           f"(or remove that file) to join a new one")
            self._fail(seat, ply, action, reason, closed.code)
        elif closed.code == "bye" and closed.by_peer and self._match is None:
            self._fatal = True
            self._fail(0, 0, "", closed.reason, closed.code)
        else:
            if self._match is not None and self._lost_at is None:
                self._lost_at = self._clock()
            if self._match is None and self._journal is None:
                self._my_seat = 0
                with self._lock:
                    self._lobby = ()
            self._set_status("interrupted" if self._match is not None or self._journal is not None else "connecting")

    def _join_message(self, msg: dict) -> None:
        t, link = msg["t"], self._link
        assert link is not None
        if self._host_hello is None:
            if t != "hello":
                raise _Refuse("order", f"{t!r} message before the handshake")
            if msg["role"] != "host":
                raise _Refuse("self" if msg["peer"] == self._peer_id else "role", "both sides are joiners")
            if msg["nonce"] == self._nonce or msg["peer"] == self._peer_id:
                raise _Refuse("self", "the peer uses our own peer id")
            self._host_hello = msg
            if self._journal is not None:
                j = self._journal
                if msg["game"] != bytes.fromhex(j["game"]):
                    raise _Refuse("seat", "the host is not playing our match any more (it holds another or none)")
                link.send({"t": "auth", "proof": seat_proof(bytes.fromhex(j["key"]), msg["game"], j["seat"] - 1,
                                                            msg["nonce"])})
            return
        if t == "hello":
            raise _Refuse("order", "a second handshake on one connection")
        if t == "auth":
            j = self._journal
            if j is None or link.settled:
                raise _Refuse("order", "a seat proof that was not asked for")
            if not proof_ok(bytes.fromhex(j["host_key"]), bytes.fromhex(j["game"]), 0, self._nonce, msg["proof"]):
                raise _Refuse("seat", "the host could not prove that it holds this match (wrong resume secret)")
            link.settled = True
            self._lost_at = None
            return
        if t == "lobby":
            if self._journal is None and not link.settled:
                link.settled = True
            if msg["you"] != self._my_seat and self._match is not None:
                raise _Refuse("order", "the host moved our seat during the match")
            self._my_seat = msg["you"]
            self.teams = msg["teams"]
            infos = tuple(SeatInfo(s, k, n, c) for s, (k, n, c) in enumerate(msg["seats"], 1))
            with self._lock:
                changed, self._lobby = infos != self._lobby, infos
            if changed:
                self._emit(LobbyChanged(infos))
            if self._match is None and self._status in ("connecting", "interrupted") and self._journal is None:
                self._set_status("lobby")
            return
        if t == "start":
            self._join_start(msg)
            return
        if not link.settled or self._match is None:
            raise _Refuse("order", f"{t!r} message before the match started")
        self._match_receive(1, msg)

    def _join_start(self, msg: dict) -> None:
        j = self._journal
        if j is not None:  # a resumed seat: the host repeats the start; it must be ours
            if (msg["game"].hex() != j["game"] or msg["seat"] != j["seat"] or msg["players"] != j["players"]
                    or msg["names"] != j["names"]):
                raise _Refuse("seat", "the host's match is not the one we hold a seat in")
            if self._match is None:
                self._match_create()
            self._match_events(self._match.resumed(self._clock()))
            if self._status not in ("over", "failed"):
                self._set_status("playing")
            return
        if self._match is not None:
            raise _Refuse("order", "a second start")
        if msg["seat"] != self._my_seat or len(msg["names"]) != msg["players"]:
            raise _Refuse("order", "a start for another seat than the host gave us")
        hello = self._host_hello
        assert hello is not None
        self._journal = {"format": JOURNAL_FORMAT, "version": 1, "game": msg["game"].hex(), "seat": msg["seat"],
                         "players": msg["players"], "teams": msg["teams"], "names": msg["names"],
                         "date": msg["date"], "computers": msg["computers"], "key": self._offered_key.hex(),
                         "host_key": hello["key"].hex(), "address": self.address, "port": self.port, "match": None}
        self._link.settled = True  # type: ignore[union-attr]
        self.date = msg["date"]
        self._save_journal()
        self._match_create()
        self._set_status("playing")
        self._match_pump()

    # ------------------------------------------------------------------ joiner: the private journal
    def _load_journal(self) -> dict | None:
        if self.record_path is None:
            return None
        path = seat_path(self.record_path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise ValueError(f"{path}: {e.strerror or e}") from None
        try:
            j = json.loads(data[:1 << 22])
            if j.get("format") != JOURNAL_FORMAT:
                return None  # another game's journal (Rose King's): not ours to resume
            for k in ("game", "key", "host_key"):
                bytes.fromhex(j[k])
            int(j["seat"]), int(j["players"]), list(j["names"])
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"{path}: not a Royals & Riots LAN journal ({e})") from None
        if j.get("over"):
            return None
        return j

    def _save_journal(self) -> None:
        """Write ``<record>.journal`` (atomic, 0600) — before any promise of ours leaves."""
        if self.record_path is None or self._journal is None:
            return
        if self._match is not None:
            self._journal["match"] = self._match_state()
            self._journal["over"] = self._status in ("over", "failed")  # nothing left to resume
        path = seat_path(self.record_path)
        try:
            atomic_write_text(path, json.dumps(self._journal), mode=0o600)
        except OSError as e:
            self._write_failed(path, e)

    def _write_failed(self, path: Path, e: OSError) -> None:
        failure = WriteFailed(str(path), e.strerror or str(e))
        if failure not in self.write_errors:
            self.write_errors.append(failure)
            self._emit(failure)

    def _write_record(self) -> None:
        rec = self._record
        if self.record_path is None or rec is None:
            return
        try:
            atomic_write_text(self.record_path, rec.to_json())
        except OSError as e:
            self._write_failed(self.record_path, e)

    def _fault_of(self, reason: str) -> tuple[int, int, str]:
        """(seat, ply, action) from a reason ``"seat 3, ply 57 (3 play P4): ..."`` (0, 0, "" if not one)."""
        import re
        m = re.match(r"seat (\d), ply (\d+) \((.*?)\):", reason)
        return (int(m.group(1)), int(m.group(2)), m.group(3)) if m else (0, self._ply(), "")

    def _ply(self) -> int:
        v = self._view
        return v.state.ply if v is not None else 0

    # ------------------------------------------------------------------ the match (net.royals' pure machines)
    def _match_create(self) -> None:
        from . import royals
        now = self._clock()
        if self.role == "host":
            computers = {s for s, x in self._seats.items() if x.kind == "computer"}
            self._match = royals.HostMatch(self._game_id, self._names(), computers, teams=self.teams,
                                           date=self.date, now=now)
            for s, x in self._seats.items():  # the deadlines of a seated joiner run from the start
                if x.kind == "person" and x.peer is not None:
                    self._match.connected(s, now)
            self._match_events(self._match.start(now))
            return
        j = self._journal
        assert j is not None
        self.seats, self.teams, self._my_seat = j["players"], j["teams"], j["seat"]
        if j.get("match"):
            self._match = royals.JoinerMatch.from_journal(j["match"], now=now)
            self._match_events([])
        else:
            self._match = royals.JoinerMatch(bytes.fromhex(j["game"]), j["seat"], j["names"], teams=j["teams"],
                                             date=j["date"], now=now)
            self._match_events(self._match.start(now))

    def _match_state(self):
        return self._match.journal() if self._match is not None and self.role == "join" else None

    def _match_receive(self, seat: int, msg: dict) -> None:
        now = self._clock()
        if self.role == "host":
            events = self._match.receive(seat, msg, now)
        else:
            events = self._match.receive(msg, now)
        self._match_events(events)

    def _match_disconnect(self, seat: int) -> None:
        self._match_events(self._match.disconnected(seat, self._clock()))

    def _match_reconnect(self, seat: int, have: int) -> None:
        """A joiner proved its seat: its catch-up (the messages after the ``have`` it holds) is queued."""
        now = self._clock()
        try:
            events = self._match.resume(seat, have, now)
        except ValueError as e:
            raise _Refuse("order", f"resume: {e}") from None
        self._match_events(list(events) + list(self._match.connected(seat, now)))

    def _host_hand_to_computer(self, seat: int, level: str) -> None:
        s = self._seats.get(seat)
        if self._match is None or s is None or s.kind != "person" or s.peer is not None:
            raise ValueError(f"seat {seat} is not a dropped player's seat")
        s.kind, s.level, s.held = "computer", level, False  # the name stays: the person may come back
        self._turn_dirty = True
        self._match_events(self._match.set_computer(seat, True, self._clock()))
        self._publish_lobby()

    def _local_play(self, action) -> None:
        if self._match is None:
            raise ValueError("the match has not started")
        try:
            events = self._match.play(action, self._clock())
            self._match_events(events)  # refreshes my_turn before busy is cleared: no stale second play
        finally:
            with self._lock:
                self._busy = False

    def _collect_computers(self) -> None:
        """Host: hand finished computer decisions to the match; start the next one (worker thread)."""
        m = self._match
        if m is None or self._status != "playing":
            return
        if not self._turn_dirty and not any(f.done() for f in self._thinking.values()):
            return  # nothing changed since the last look: no Turn (and Observation) built
        for seat, fut in list(self._thinking.items()):
            if not fut.done():
                continue
            del self._thinking[seat]
            try:
                action = fut.result()
                events = m.decide(seat, action, self._clock())
            except Exception as e:  # noqa: BLE001 - an AI bug stops the match plainly
                self._fail(seat, self._ply(), "", f"the computer of seat {seat} failed: {e}", "internal")
                return
            self._match_events(events)
        turn = m.turn()
        self._turn_dirty = False  # this look saw every change so far, the decisions above included
        if turn is None or not turn.computer or turn.seat in self._thinking:
            return
        player = self._players.get(turn.seat)
        if player is None:
            from game.royals.ai.levels import make_player
            seed = None if self._seed is None else self._seed * 10 + turn.seat
            player = self._players[turn.seat] = make_player(self._seats[turn.seat].level or "easy", seed)
        fut = self._executor.submit(player.choose, turn.observation)  # type: ignore[union-attr]
        fut.add_done_callback(lambda _f: self._command("wake"))
        self._thinking[turn.seat] = fut

    def _match_pump(self) -> None:
        """Send what the match queued (host: per seat; a seat not connected gets it on catch-up)."""
        m = self._match
        if m is None:
            return
        if self.role == "host":
            for seat, msgs in m.outgoing().items():
                peer = self._seats[seat].peer
                if peer is None or not peer.link.settled:
                    continue
                for msg in msgs:
                    peer.link.send(msg if self._tamper is None else self._tamper(msg))
                self._after_link(peer)
        elif self._link is not None and self._sock is not None:
            msgs = m.outgoing()
            if msgs:
                self._save_journal()  # our promises (coin secrets, decisions) are durable before they leave
                for msg in msgs:
                    self._link.send(msg if self._tamper is None else self._tamper(msg))
                self._join_after_link()

    def _match_events(self, events) -> None:
        """Translate the match's events, send what it queued, refresh the caller's copies."""
        from . import royals
        self._turn_dirty = True
        out: list = []
        refused: list = []
        for e in events or ():
            if isinstance(e, royals.Applied):
                out.append(Acted(e.ply, e.seat, e.text))
            elif isinstance(e, royals.RoundChecked):
                out.append(RoundChecked(e.round))
            elif isinstance(e, royals.MatchOver):
                out.append(e)
            elif isinstance(e, royals.Refused):
                refused.append(e)
            elif isinstance(e, royals.SeatProxy) and self.role == "join":
                pass  # the host's lobby message says who plays it
        self._match_pump()
        for r in refused:  # the match queued the error for that seat: close that connection only
            if self.role == "host":
                peer = self._seats[r.seat].peer if r.seat in self._seats else None
                if peer is not None:
                    peer.link.close(r.code, r.reason, send=False)
                    self._after_link(peer)
            elif self._link is not None:
                self._link.close(r.code, r.reason, send=False)
                self._join_after_link()
        self._refresh()
        confirmed = getattr(self._match, "confirmed", None)  # the rounds every seat checked: the record's
        if confirmed is not None and confirmed.ply != self._recorded_ply:
            self._recorded_ply = confirmed.ply
            self._take_record()
            self._write_record()
        final = []
        for e in out:
            if isinstance(e, RoundChecked):
                if self.role == "join":
                    self._save_journal()
                final.append(e)
            elif isinstance(e, royals.MatchOver):
                self._take_record()
                self._write_record()
                if e.kind == "finished":
                    final.append(MatchOver(self._record))
                    self._emit(*final)
                    final = []
                    self._set_status("over")
                else:
                    seat, ply, action = self._fault_of(e.reason)
                    final.append(Failed(e.seat or seat, ply, action, e.reason, e.kind))
                    if self.role == "host":  # every joiner hears why (after the match's own error, if queued)
                        for x in self._seats.values():
                            if x.peer is not None:
                                x.peer.link.close(e.kind if e.kind in ("illegal", "coin", "forfeit") else "left",
                                                  e.reason)
                                self._after_link(x.peer)
                    self._emit(*final)
                    final = []
                    self._set_status("failed", e.kind)
                if self.role == "join":
                    self._fatal = True
                    self._save_journal()
            else:
                final.append(e)
        self._emit(*final)

    def _host_view(self, m):
        """Seat 1's :class:`~game.royals.engine.view.SeatView`, told exactly what a joiner in seat 1
        would be (:func:`net.royals.messages_for` of each action of the true match), so the host's
        window and AI see nothing of the other seats' hidden cards, by construction."""
        from game.royals.engine import State
        from game.royals.engine.view import SeatView

        from .royals import messages_for
        if self._hview is None:
            self._hview, self._mirror = SeatView(1, self.seats, self.teams), State(self.seats, self.teams)
        view, mirror, history = self._hview, self._mirror, m.state.history
        while mirror.ply < len(history):
            before = mirror.copy()
            action = history[mirror.ply]
            mirror.push(action)
            for msg in messages_for(before, action, mirror, 1):
                view.hear(msg)
        return view

    def _take_record(self) -> None:
        from game.royals.engine import Record
        rec = None
        if self._match is not None:
            try:
                rec = Record.from_dict(self._match.record())
            except ValueError:
                rec = None
        with self._lock:
            self._record = rec

    def _refresh(self) -> None:
        m = self._match
        if m is None:
            return
        if self.role == "host":
            view = self._host_view(m)
            turn = m.turn()
            mine = turn is not None and turn.seat == 1 and not turn.computer
        else:
            view = m.view
            mine = m.my_turn() is not None
        snap = None if view is None else ViewSnapshot(self._my_seat, view.state.copy(), view.observation())
        with self._lock:
            self._view = snap
            self._my_turn = bool(mine) and snap is not None
            self._legal = list(view.legal_actions()) if self._my_turn else []

# --------------------------------------------------------------------------- which game a host plays
def probe_host(address: str, port: int = DEFAULT_PORT, timeout: float = 3.0) -> tuple[str, socket.socket, bytes]:
    """Connect to a host and read its ``hello`` (a host sends it first, at once) to learn its game:
    returns ``(game, sock, data)`` — ``game`` is ``"royals-riots"`` (a hello with ``g``) or
    ``"rose-king"``; ``sock`` the open connection and ``data`` every byte read so far, to hand to
    the session of that game (``RoyalsSession.join(..., connected=(sock, data))`` or
    ``LanSession.join(..., connected=(sock, data))``) so the host sees one connection only.
    Raises OSError (no host there, ``timeout`` seconds) or ValueError (not a Rose King program)."""
    from .framing import HEADER, MAX_FRAME, FrameError, decode_payload
    from .framing import SCHEMAS as RK_SCHEMAS
    from .limits import HANDSHAKE_TIMEOUT
    sock = socket.create_connection((address, port), timeout=timeout)
    try:
        # the whole hello within the handshake deadline: a host trickling bytes cannot hold us
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
                raise ValueError(f"{address}:{port} closed the connection without a hello")
            data += chunk
            if need == HEADER.size and len(data) >= HEADER.size:
                (n,) = HEADER.unpack_from(data)
                if not 0 < n <= MAX_FRAME:
                    raise ValueError(f"{address}:{port} does not speak the Rose King LAN protocol")
                need = HEADER.size + n
        payload = data[HEADER.size:need]
        from .lobby import LAN_VERSION, hello_version, schemas_for
        pv = hello_version(payload)
        if pv is not None and pv >= LAN_VERSION:  # the one LAN layer: the hello names its game (g)
            try:
                msg = decode_payload(payload, schemas_for({}))
            except FrameError as e:
                raise ValueError(str(e)) from None  # e.g. a newer host: this program needs a newer version
            if msg["t"] != "hello" or msg["role"] != "host":
                raise ValueError(f"{address}:{port} is not a host")
            return msg["g"], sock, data
        for game, schemas in (("royals-riots", LOBBY_SCHEMAS), ("rose-king", RK_SCHEMAS)):
            try:
                msg = decode_payload(payload, schemas)
            except FrameError as e:
                if e.code == "version":
                    raise ValueError(str(e)) from None
                continue
            if msg["t"] != "hello" or msg["role"] != "host":
                raise ValueError(f"{address}:{port} is not a host")
            return game, sock, data
        raise ValueError(f"{address}:{port} sent a hello of no game this program knows")
    except BaseException:
        sock.close()
        raise


def detect_game(address: str, port: int = DEFAULT_PORT, timeout: float = 3.0) -> str:
    """Just the game of the host at ``address:port`` (see :func:`probe_host`; the probe
    connection is closed with ``error{bye}``). Raises OSError or ValueError."""
    from .framing import encode_frame
    game, sock, _data = probe_host(address, port, timeout)
    with sock:
        try:
            sock.sendall(encode_frame({"t": "error", "code": "bye", "reason": "looked up the game"}))
        except OSError:
            pass
    return game
