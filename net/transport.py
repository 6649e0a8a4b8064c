"""A thin TCP transport running :class:`net.protocol.Connection` in a background thread.

A frame loop uses :class:`LanSession` without ever waiting on the network::

    session = LanSession.host("Alice", port=47123)          # or LanSession.join("Bob", "127.0.0.1", 47123)
    ...every frame:
    for event in session.poll():                            # never blocks
        ...  # GameStarted, MoveMade (animate it), GameOver, StatusChanged, ...
    if session.my_turn():
        session.play(move)                                  # a draw: Move(color, DRAW, None)
    banner = session.status_text                            # "Connection interrupted, reconnecting…"
    session.close()

The host keeps listening for the whole session (a peer that comes back is let
in again and the game resumes); the joiner reconnects every
``reconnect_delay`` seconds until it succeeds, the game cannot go on (a fatal
error) or :meth:`LanSession.close` is called. Only the background thread
touches the sockets and the live :class:`~net.protocol.LanGame`; the caller
sees copies (:attr:`LanSession.state`, :meth:`LanSession.record`).
"""

from __future__ import annotations

import os
import selectors
import socket
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from game.fsutil import atomic_write_text
from game.i18n import _
from game.roseking.engine import DRAW, Color, IllegalMoveError, Move, Record, State
from game.roseking.phrases import stop_text

from . import DEFAULT_PORT
from .journal import Journal, seat_path
from .mailbox import Mailbox
from .roseking import (FORFEIT_TIMEOUT, Closed, Connection, Desync, Event, GameOver, GameStarted, Handshake,
                       LanGame, MoveMade, Role, Seated, apply_forfeit, forfeit_due)

RECV_SIZE = 65536
TICK = 0.05  #: seconds between protocol ticks in the background thread
MAX_CANDIDATES = 4  #: connections a host holds at once besides the seated one (each must settle in 5 s)


@dataclass(frozen=True)
class StatusChanged:
    """The session's status changed; ``status`` is a code, ``text`` the line to show."""

    status: str
    text: str


@dataclass(frozen=True)
class Refused:
    """A local action could not be carried out (``reason`` says why, in English, for logs);
    nothing was sent. ``action`` is the command (``"play"``, ``"resign"``, ``"rematch"``, ...),
    or ``"connect"`` for a connection turned away before it took a seat, with ``code`` the
    closing code it was sent (docs/protocol.md, "Closing codes"; ``""`` otherwise). Screens word
    it from ``action``, the reason's family and ``code`` (``game.roseking.phrases.refused_text``,
    ``game.royals.phrases.refused_text``), never showing ``reason``."""

    action: str
    reason: str
    code: str = ""


@dataclass(frozen=True)
class WriteFailed:
    """Writing the record or the journal failed (``path``, ``reason``): the game goes on in
    memory, but a restart could not resume it. Reported once per path and reason."""

    path: str
    reason: str


SessionEvent = Event | StatusChanged | Refused | WriteFailed

#: Status codes of :attr:`LanSession.status`.
STATUSES = ("listening", "connecting", "handshake", "playing", "interrupted", "over", "failed", "closed")


class LanSession(Mailbox):
    """One player's side of a LAN game over TCP (see the module docstring).

    Use :meth:`host` or :meth:`join`. ``journal``: a path where the game record is
    rewritten (atomically) after every move; this seat's private journal (secrets, coin
    promises, own moves) is kept next to it as ``<journal>.journal``. ``seat``: the
    :class:`~net.journal.Journal` to resume with (see :func:`load_seat`); ``game``: a game
    to put in a fresh journal (it cannot be resumed with a peer without its journal).
    ``log_dir``: where a desync report is written (``rose-king-desync-<game>-<role>.log``).
    ``clock``: a monotonic clock in seconds. ``forfeit_timeout``: seconds from our reveal
    after which a peer that did not reveal forfeits, connected or not. ``colour``: the
    host's colour for a new game (``"red"``, ``"white"``, ``""`` = random by the set-up coin).
    ``connected``: a joiner's first connection already open, with the bytes read from it
    (:func:`net.session.probe_host` reads the host's hello to learn its game).
    """

    def __init__(self, role: Role, name: str, *, address: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 game: LanGame | None = None, journal: str | os.PathLike | None = None,
                 seat: Journal | None = None, log_dir: str | os.PathLike | None = None, date: str = "",
                 reconnect_delay: float = 0.5, forfeit_timeout: float = FORFEIT_TIMEOUT,
                 clock: Callable[[], float] = time.monotonic, colour: str = "",
                 connected: tuple[socket.socket, bytes] | None = None) -> None:
        Connection(Role(role), name, colour=colour)  # validates name and colour now, in the caller's thread
        self._open_mailbox()
        self._status_code = ""  # the closing code of a "failed" status (its line is worded when read)
        self.colour = colour
        self.role = Role(role)
        self.name = name
        self.address = address
        self.port = port
        self.journal = Path(journal) if journal else None
        self.log_dir = Path(log_dir) if log_dir else None
        self.date = date
        self.reconnect_delay = reconnect_delay
        self.forfeit_timeout = forfeit_timeout
        self.desync_logs: list[Path] = []
        self.write_errors: list[WriteFailed] = []
        self._clock = clock
        self._seat = seat if seat is not None else Journal()  # background thread only
        if game is not None:
            self._seat.game = game
            if not self._seat.game_id:
                self._seat.game_id = game.game_id
        self._seat.sink = self._save_seat
        self._peer_id = os.urandom(16)
        self._conn: Connection | None = None  # the seated connection (or the joiner's only one)
        self._sock: socket.socket | None = None
        self._candidates: dict[socket.socket, Connection] = {}  # host: connections not seated yet
        self._listener: socket.socket | None = None
        game = self._seat.game
        self._snapshot: LanGame | None = game.snapshot() if game else None
        self._color: Color | None = None
        self._peer_name: str | None = None
        self._busy = False
        self._acked_all = True
        self._stopping = False
        self._fatal = False
        self._first = connected  # joiner: a connection already open (net.session.probe_host) and its bytes
        if self.role is Role.HOST:
            self._listener = socket.create_server((address, port), backlog=8)
            self._listener.setblocking(False)
            self.port = self._listener.getsockname()[1]
            self._set_status("listening")
        else:
            self._set_status("connecting")
        self._thread = threading.Thread(target=self._run, name=f"rose-king-lan-{self.role.value}", daemon=True)
        self._thread.start()

    @property
    def _game(self) -> LanGame | None:
        return self._seat.game

    # ------------------------------------------------------------------ constructors
    @classmethod
    def host(cls, name: str, port: int = DEFAULT_PORT, bind: str = "127.0.0.1", **kw) -> "LanSession":
        """Listen on ``bind:port`` (``port=0``: any free port, see :attr:`port`). Raises OSError
        if the port cannot be opened."""
        return cls(Role.HOST, name, address=bind, port=port, **kw)

    @classmethod
    def join(cls, name: str, address: str, port: int = DEFAULT_PORT, **kw) -> "LanSession":
        """Connect to a host (in the background; see :attr:`status`)."""
        return cls(Role.JOIN, name, address=address, port=port, **kw)

    # ------------------------------------------------------------------ caller's API (any thread)
    @property
    def state(self) -> State | None:
        """A copy of the game position (with its move stack), or None before a game."""
        with self._lock:
            return None if self._snapshot is None else self._snapshot.state.copy()

    @property
    def game(self) -> LanGame | None:
        """A copy of the game (names, colours, resigned/aborted, state), or None."""
        with self._lock:
            return None if self._snapshot is None else self._snapshot.snapshot()

    @property
    def color(self) -> Color | None:
        """The local player's colour in the current game."""
        return self._color

    @property
    def peer_name(self) -> str | None:
        return self._peer_name

    def record(self) -> Record | None:
        """The current game's record (identical on both peers), or None."""
        with self._lock:
            return None if self._snapshot is None else self._snapshot.record()

    def my_turn(self) -> bool:
        """Whether the local player may act now (connected, game on, our turn, no draw pending)."""
        with self._lock:
            g = self._snapshot
            return (self._status == "playing" and g is not None and not g.over and not self._busy
                    and g.state.turn == self._color)

    def seat_copy(self) -> Journal:
        """A copy of this seat's journal with a snapshot of its game (to hand to a new session
        after this one is closed: a program restarted with it takes its seat back)."""
        with self._lock:
            copy = Journal.from_json(self._seat.to_json().encode())
            copy.game = self._snapshot.snapshot() if self._snapshot is not None else None
            return copy

    def acked_all(self) -> bool:
        """Whether the peer has acknowledged every move of ours (so it holds the whole game)."""
        with self._lock:
            return self._acked_all

    def play(self, move: Move) -> None:
        """Play the local player's move; a draw is ``Move(color, DRAW, None)`` and its card
        comes back in a MoveMade event once the joint coin is tossed.

        Raises IllegalMoveError at once if the move cannot be played now (the
        engine's reason, not our turn, not connected); otherwise the move is
        handed to the network thread (a later failure arrives as :class:`Refused`).
        """
        with self._lock:
            g = self._snapshot
            if self._status != "playing" or g is None:
                raise IllegalMoveError(f"{move}: not connected to the other player")
            if g.over:
                raise IllegalMoveError(f"{move}: game already over")
            if move.player != self._color:
                raise IllegalMoveError(f"{move}: you play {self._color}")
            if self._busy:
                raise IllegalMoveError(f"{move}: the previous action (or a draw) is still being settled")
            if move.kind is DRAW:
                if Move(move.player, DRAW, None) not in g.state.legal_moves():
                    raise IllegalMoveError(f"{move}: {g.state.illegal_reason(move) or 'cannot draw now'}")
                move = Move(move.player, DRAW, None)
            else:
                reason = g.state.illegal_reason(move)
                if reason:
                    raise IllegalMoveError(f"{move}: {reason}")
            self._busy = True  # busy until the network thread has played it
        self._command("play", move)

    def resign(self) -> None:
        """Resign the current game."""
        self._command("resign")

    def offer_rematch(self) -> None:
        """Offer a rematch (or accept the peer's offer) once the game is over."""
        self._command("rematch")

    def close(self, timeout: float = 2.0) -> None:
        """Tell the peer we leave, stop the thread and close every socket. Idempotent."""
        self._command("close")
        self._thread.join(timeout)
        self._close_mailbox()

    give_up = close

    # ------------------------------------------------------------------ background thread
    @property
    def status_text(self) -> str:
        """The status as a line to show, worded now in the current language (so a screen that
        draws it every frame follows a language change at once; :class:`StatusChanged` carries
        the line in the language of the moment it changed)."""
        with self._lock:
            status, code = self._status, self._status_code
        return self._status_words(status, code)

    def _status_words(self, status: str, code: str = "") -> str:
        """The line of ``status`` in the current language; a ``failed`` line is the sentence of
        the closing ``code`` that stopped the game (the English reason stays in the
        :class:`Closed` event and the logs)."""
        peer = self._peer_name or _("the other player")
        if status == "listening":
            return _("Waiting for a player on port {port}").format(port=self.port)
        if status == "connecting":
            return _("Connecting to {address}…").format(address=f"{self.address}:{self.port}")
        if status == "handshake":
            return _("Connected, agreeing on the game…")
        if status == "playing":
            return _("Playing against {name}").format(name=peer)
        if status == "interrupted":
            return (_("Connection interrupted, reconnecting…") if self.role is Role.JOIN
                    else _("Connection interrupted, waiting for {name} to come back…").format(name=peer))
        if status == "over":
            return _("Game over")
        if status == "failed":
            return stop_text(code)
        return _("Disconnected")  # closed

    def _set_status(self, status: str, code: str = "") -> None:
        """Store and announce ``status`` (with the closing ``code`` of a ``failed`` one) and its
        line in the current language (:meth:`_status_words`)."""
        text = self._status_words(status, code)
        with self._lock:  # (a Condition over an RLock: _new_status takes it again)
            self._status_code = code
            changed = self._new_status(status, text)
        if changed:
            self._emit(StatusChanged(status, text))

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        if self._listener is not None:
            sel.register(self._listener, selectors.EVENT_READ, "listen")
        self._next_connect = 0.0
        try:
            while not self._stopping:
                now = self._clock()
                if (self.role is Role.JOIN and self._sock is None and not self._fatal and now >= self._next_connect):
                    if not self._connect(sel):
                        self._next_connect = self._clock() + self.reconnect_delay
                for key, _mask in sel.select(TICK):
                    if key.data == "wake":
                        try:
                            self._wake_r.recv(4096)
                        except OSError:
                            pass
                    elif key.data == "listen":
                        self._accept(sel)
                    elif key.fileobj is self._sock or key.fileobj in self._candidates:
                        self._read(sel, key.fileobj)  # type: ignore[arg-type]
                self._run_commands(sel)
                now = self._clock()
                if self._conn is not None and self._sock is not None:
                    self._handle(sel, self._sock, self._conn.tick(now))
                for sock, conn in list(self._candidates.items()):
                    self._handle(sel, sock, conn.tick(now))
                if self._conn is None or not self._conn.seated:
                    self._check_forfeit(now)
        finally:
            for sock in list(self._candidates):
                self._drop(sel, sock)
            if self._sock is not None:
                self._drop(sel, self._sock)
            if self._listener is not None:
                self._listener.close()
            sel.close()
            self._set_status("closed")

    def _check_forfeit(self, now: float) -> None:
        """While no connection is seated: a peer that withheld its reveal forfeits after the timeout."""
        reason = forfeit_due(self._seat, now, self.forfeit_timeout)
        game = self._seat.game
        setup = self._seat.coins.get(-1)
        if (game is None and self.role is Role.HOST and setup is not None and not setup.done
                and setup.their_commit is not None and setup.revealed_at is not None
                and now - setup.revealed_at >= self.forfeit_timeout):
            # The joiner saw the set-up's outcome and stays away: there is no game to forfeit, so
            # the seat is freed for the next player (issue 33, attack 4) instead of waiting for ever.
            why = (f"the joiner withheld its reveal of the set-up coin for {self.forfeit_timeout:g} seconds: "
                   "the seat is free again")
            self._seat.reset(b"", self._seat.seat, b"", b"")
            self._seat.save()
            self._emit(Refused("connect", why, "forfeit"))
            self._set_status("listening")
            return
        if reason is None or game is None:
            return
        loser = game.color_of(self.role.other)
        apply_forfeit(self._seat, loser, reason)
        self._write_journal()
        self._emit(GameOver("forfeit", loser.other, f"{loser} forfeits: {reason}"))
        with self._lock:
            self._snapshot = game.snapshot()
        self._set_status("over")

    def _connect(self, sel: selectors.BaseSelector) -> bool:
        first, self._first = self._first, None
        if first is not None:
            sock, initial = first
            self._attach(sel, sock)
            if initial and self._conn is not None:
                self._handle(sel, sock, self._conn.receive_data(initial))
            return True
        try:
            sock = socket.create_connection((self.address, self.port), timeout=2.0)
        except OSError:
            return False
        self._attach(sel, sock)
        return True

    def _accept(self, sel: selectors.BaseSelector) -> None:
        try:
            sock, _addr = self._listener.accept()  # type: ignore[union-attr]
        except OSError:
            return
        if self._conn is None:
            self._attach(sel, sock)
            return
        if len(self._candidates) >= MAX_CANDIDATES:
            sock.close()  # too many connections settling at once: refuse without reading
            return
        # Someone connects while a connection holds the seat (or is settling): it may take the
        # seat only by proving it holds the peer's resume secret; until then it touches nothing.
        self._setup_sock(sock)
        conn = self._new_connection(allow_new_game=False)
        self._candidates[sock] = conn
        sel.register(sock, selectors.EVENT_READ, "conn")
        self._flush(sel, sock)

    def _setup_sock(self, sock: socket.socket) -> None:
        sock.settimeout(5.0)  # sends block at most this long; reads happen only when readable
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _new_connection(self, allow_new_game: bool = True) -> Connection:
        conn = Connection(self.role, self.name, journal=self._seat, peer_id=self._peer_id, date=self.date,
                          now=self._clock(), colour=self.colour)
        conn.allow_new_game = allow_new_game
        return conn

    def _attach(self, sel: selectors.BaseSelector, sock: socket.socket) -> None:
        self._setup_sock(sock)
        self._sock = sock
        self._conn = self._new_connection()
        sel.register(sock, selectors.EVENT_READ, "conn")
        self._set_status("handshake")
        self._flush(sel, sock)

    def _drop(self, sel: selectors.BaseSelector, sock: socket.socket) -> None:
        try:
            sel.unregister(sock)
        except (KeyError, ValueError):
            pass
        sock.close()
        if sock is self._sock:
            self._sock = None
            self._conn = None
            self._next_connect = self._clock() + self.reconnect_delay
            with self._lock:
                self._busy = False
        self._candidates.pop(sock, None)

    def _conn_of(self, sock: socket.socket) -> Connection | None:
        return self._conn if sock is self._sock else self._candidates.get(sock)

    def _read(self, sel: selectors.BaseSelector, sock: socket.socket) -> None:
        conn = self._conn_of(sock)
        if conn is None:
            return
        try:
            data = sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return
        except OSError:
            data = b""  # reset by the peer: like an end of stream
        self._handle(sel, sock, conn.receive_data(data))

    def _flush(self, sel: selectors.BaseSelector, sock: socket.socket) -> None:
        conn = self._conn_of(sock)
        if conn is None:
            return
        data = conn.data_to_send()
        if data:
            try:
                sock.sendall(data)
            except OSError:
                self._handle(sel, sock, conn.receive_data(b""))

    def _run_commands(self, sel: selectors.BaseSelector) -> None:
        while True:
            with self._lock:
                if not self._commands:
                    return
                name, args = self._commands.popleft()
                arg = args[0] if args else None
            if name == "close":
                if self._conn is not None and self._sock is not None:
                    self._conn.close("the other player left")
                    self._flush(sel, self._sock)
                self._stopping = True
                return
            conn = self._conn
            try:
                if conn is None or self._sock is None or not conn.seated:
                    raise ValueError("not connected to the other player")
                if name == "play":
                    events = conn.play(arg)  # type: ignore[arg-type]
                elif name == "resign":
                    events = conn.resign()
                else:
                    events = conn.offer_rematch()
            except ValueError as e:  # IllegalMoveError is a ValueError
                if name == "play":
                    with self._lock:
                        self._busy = False
                self._emit(Refused(name, str(e)))
                continue
            self._handle(sel, self._sock, events)

    def _handle(self, sel: selectors.BaseSelector, sock: socket.socket, events: list[Event]) -> None:
        conn = self._conn_of(sock)
        if conn is None:
            return
        if sock is not self._sock:  # a candidate: seated now, refused, or still settling
            if any(isinstance(e, Seated) for e in events):
                old_sock, old = self._sock, self._conn
                if old is not None and old_sock is not None:
                    old.close("replaced by a new connection of the same player")
                    self._flush(sel, old_sock)
                    self._drop(sel, old_sock)
                self._candidates.pop(sock, None)
                self._sock, self._conn = sock, conn
            else:
                self._flush(sel, sock)
                closed = next((e for e in events if isinstance(e, Closed)), None)
                if closed is not None:
                    self._drop(sel, sock)
                    self._emit(Refused("connect", f"a connection was refused: {closed.reason}", closed.code))
                return
        self._flush(sel, sock)
        out: list[SessionEvent] = []
        closed: Closed | None = None
        for e in events:
            if isinstance(e, Handshake):
                self._peer_name = e.peer_name
            elif isinstance(e, GameStarted):
                self._color = e.color
                e = replace(e, game=e.game.snapshot())
            elif isinstance(e, Desync):
                self._write_desync(e)
            elif isinstance(e, Closed):
                closed = e
            out.append(e)
        if any(isinstance(e, (MoveMade, GameStarted, GameOver)) for e in events):
            self._write_journal()
        if events:
            # before a close drops the connection: an ack read together with a goodbye counts
            self._update_snapshot(conn)
        if closed is not None:
            self._drop(sel, sock)
            game = self._seat.game
            setup = self._seat.coins.get(-1)
            if (self.role is Role.HOST and game is None and self._seat.game_id and conn.seated
                    and (setup is None or setup.their_commit is None)):
                # The joiner left before committing to the set-up coin: nothing is bound (it saw no
                # secret), so an unconfirmed hello holds no seat (issue 33, attack 3).
                self._seat.reset(b"", self._seat.seat, b"", b"")
                self._seat.save()
                self._set_status("listening")
                self._emit(*out)
                return
            if not conn.seated:
                # never seated: a stranger, a wrong version, or a seat we could not prove
                if self.role is Role.JOIN and closed.fatal:
                    self._fatal = True
                    self._set_status("failed", closed.code)
                elif self.role is Role.JOIN:
                    self._set_status("interrupted")
                else:
                    out = [Refused("connect", f"a connection was refused: {closed.reason}", closed.code)]
                    if game is not None and not game.over:
                        self._set_status("interrupted")
                    else:
                        self._set_status("listening")
            elif closed.fatal:
                if self.role is Role.JOIN:
                    self._fatal = True
                self._set_status("over" if closed.code == "forfeit" else "failed", closed.code)
            elif closed.code == "bye" and closed.by_peer:
                if self.role is Role.JOIN:
                    self._fatal = True  # the host left on purpose: do not reconnect
                if game is not None and game.over:
                    self._set_status("over")
                elif self.role is Role.JOIN:
                    self._set_status("failed", "left")  # the host left on purpose
                else:
                    self._set_status("interrupted")
            elif game is not None and game.over:
                self._set_status("over")
            else:
                self._set_status("interrupted")
        elif self._seat.game is not None and conn.phase.value == "playing":
            self._set_status("over" if self._seat.game.over else "playing")
        # last: whoever sees the new position or an event also sees the journal and the status
        self._emit(*out)

    def _update_snapshot(self, conn: Connection) -> None:
        if conn is not self._conn:
            return
        with self._lock:
            self._snapshot = None if self._game is None else self._game.snapshot()
            self._busy = conn.coin_pending or any(name == "play" for name, _args in self._commands)
            game, me = self._game, conn.color
            if game is not None and me is not None:
                own = [i for i, m in enumerate(game.state.move_stack, 1) if m.player == me]
                self._acked_all = not own or conn.acked_ply >= own[-1]

    def _write_failed(self, path: Path, e: OSError) -> None:
        failure = WriteFailed(str(path), e.strerror or str(e))
        if failure not in self.write_errors:
            self.write_errors.append(failure)
            self._emit(failure)

    def _write_journal(self) -> None:
        """Rewrite the record file (atomic: write, fsync, rename); a failure is reported as
        :class:`WriteFailed`, and the game goes on."""
        if self.journal is None or self._game is None:
            return
        try:
            atomic_write_text(self.journal, self._game.record().to_json())
        except OSError as e:
            self._write_failed(self.journal, e)

    def _save_seat(self, seat: Journal) -> None:
        """The private journal's sink: ``<record>.journal``, atomic and durable, before a promise is sent."""
        if self.journal is None:
            return
        path = seat_path(self.journal)
        try:
            atomic_write_text(path, seat.to_json(), mode=0o600)  # it holds this seat's secrets
        except OSError as e:
            self._write_failed(path, e)

    def _write_desync(self, e: Desync) -> None:
        folder = self.log_dir or Path.cwd()
        gid = self._game.game_id.hex() if self._game else "nogame"
        path = folder / f"rose-king-desync-{gid}-{self.role.value}.log"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(e.log, encoding="utf-8")
            self.desync_logs.append(path)
        except OSError:
            pass


def load_seat(record: str | os.PathLike) -> Journal | None:
    """The seat to resume from a ``--record FILE``: the private journal ``FILE.journal`` with the
    game rebuilt from ``FILE`` (if the record is there; without it the peer asks for a checked
    copy). None when there is no journal, or its game is over (a new game will start).

    Raises ValueError (one line) for a file that cannot be read or does not fit.
    """
    from .journal import load_journal
    from game.records import RecordError
    journal = load_journal(seat_path(record))
    if journal is None:
        return None
    if os.path.lexists(record):
        try:
            rec = Record.load(record)
            game = LanGame.from_record(rec, journal)
        except (RecordError, ValueError) as e:
            raise ValueError(f"{record}: {e}") from None
        if game.game_id == journal.game_id:
            journal.game = game
    if journal.game is not None and journal.game.over:
        return None
    return journal
