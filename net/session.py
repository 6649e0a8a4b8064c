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

The journal (``FILE.journal`` beside ``--record FILE``, :mod:`net.journal`) holds the
lobby's :class:`~net.lobby.SeatMemo` and the machine's payload; it is written when the match
starts (before ``ready`` leaves) and at every :class:`~net.match.Save` (before the sends that
follow). The record (``FILE``) is the machine's :meth:`~net.match.MatchMachine.record`,
written at every ``Notice("record")`` and at the end.

The parts, each readable alone: :mod:`net.events` (what the caller hears),
:mod:`net.connections` (sockets, links, lingering closes, :func:`~net.connections.probe_host`),
:mod:`net.computers` (the host's computer seats and their worker threads), :mod:`net.journal`
(the files), :mod:`net.lobby` (the lobby machine) and the game's match machine. This module
drives them: the thread's loop, the lobby's outputs, the match's outputs and verdicts.
"""

from __future__ import annotations

import math
import os
import secrets
import socket
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable

from . import DEFAULT_PORT
from .computers import ComputerSeats
from .connections import LINGER, Connections, Peer, linger, probe_host
from .events import Dropped, Ended, HostBusy, JoinError, LobbySeats, Noticed, Refused, Started, Status, WriteFailed
from .framing import MAX_NAME, FrameError
from .journal import JOURNAL_FORMAT, load_journal, write_journal, write_record
from .journal import seat_path as journal_path
from .limits import name_problem
from .link import Link
from .lobby import (LOBBY_TYPES, HostLobby, JoinLobby, LChanged, LDrop, LOutput, LSeated, LSend, LStarted,
                    rates_for, schemas_for)
from .mailbox import Mailbox
from .match import (ALL, LanPart, MatchMachine, Notice, Output, Over, Refusal, Save, Send, Verdict,
                    deadline_verdict, judge_stop, overdue)

__all__ = ["FATAL_CODES", "JOURNAL_FORMAT", "LINGER", "TICK", "Dropped", "Ended", "HostBusy", "JoinError",
           "LobbySeats", "Noticed", "Refused", "Session", "Started", "Status", "WriteFailed", "load_journal",
           "probe_host"]

TICK = 0.05  #: seconds between clock ticks of the thread
#: Closing codes after which a joiner stops reconnecting (docs/protocol.md, "Errors").
FATAL_CODES = frozenset({"version", "game", "role", "self", "seat", "illegal", "coin", "desync", "forfeit",
                         "left", "sync", "bye", "finished", "resigned", "disputed"})


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
    it (``probe_host`` read the host's hello to learn its game); ``dial``: a joiner's way to
    (re)connect instead of ``socket.create_connection((address, port))``: returns a new
    connection or raises OSError (tried again after ``reconnect_delay``; a connection by code,
    :class:`net.internet.CodeDialer`). Raises OSError when the port
    cannot be opened, ValueError for a bad journal or a ``name`` no hello may carry (1..32
    characters, no control, bidi or zero-width characters: docs/protocol.md, "Messages")."""

    def __init__(self, part: LanPart, role: str, name: str, *, address: str = "127.0.0.1",
                 port: int = DEFAULT_PORT, kinds: tuple[str, ...] = ("host", "person"),
                 options: dict[str, Any] | None = None, record: str | os.PathLike[str] | None = None,
                 date: str = "", reconnect_delay: float = 0.5,
                 host_grace: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 token_bytes: Callable[[int], bytes] = secrets.token_bytes,
                 connected: tuple[socket.socket, bytes] | None = None, computers: dict[int, str] | None = None,
                 computer_names: dict[int, str] | None = None,
                 dial: Callable[[], socket.socket] | None = None) -> None:
        why = name_problem(name, MAX_NAME)
        if why is not None:  # refused here, never on the wire (the hello would fail its schema)
            raise JoinError("name", f"a player name {why}")
        self.computers = dict(computers or {})
        if any(s >= len(kinds) or kinds[s] != "computer" for s in self.computers) or \
                any(k == "computer" and s not in self.computers for s, k in enumerate(kinds)):
            raise ValueError("every computer seat needs a level, and only computer seats have one")
        if self.computers and (part.turn is None or part.player is None):
            raise ValueError(f"{part.key} has no computer players")
        #: the seats played here by computer players (their worker threads)
        self.computer_seats = ComputerSeats(self.computers, part.player,
                                            lambda seat, action: self._command("computed", seat, action))
        #: joiner: resumed, and the host's ``caught`` (the end of its catch-up) has not come yet:
        #: no decision on a view that lacks what it is owed
        self.catching_up = False
        #: outputs of the caller's act(), in the order the machine made them; the thread carries
        #: them out before it next asks the machine anything, so every send keeps that order
        self._queued: deque[list[Output]] = deque()
        self._open_mailbox()
        self._first = connected  # joiner: a connection already open (it read the host's hello) and its bytes
        self.part, self.role, self.name = part, role, name
        self.address, self.port = address, port
        self.record_path = Path(record) if record else None
        self.reconnect_delay, self.host_grace = reconnect_delay, host_grace
        self._dial = dial or (lambda: socket.create_connection((self.address, self.port), timeout=2.0))
        self._clock, self._token = clock, token_bytes
        self._schemas = schemas_for(dict(part.schemas), part.max_bin)
        self._rates = rates_for(dict(part.rates))
        self._mlock = threading.RLock()  # the match machine: the caller's act() and the thread
        self.machine: MatchMachine | None = None
        self.verdict: Verdict | None = None
        self.write_errors: list[WriteFailed] = []
        loaded = load_journal(journal_path(self.record_path), part.key) if self.record_path is not None else None
        memo = loaded[0] if loaded is not None else None
        #: every socket and link (:class:`~net.connections.Connections`)
        self.conns = Connections(lambda: Link(self._schemas, rates=self._rates, now=self._clock()), clock)
        self._peers = self.conns.peers  # the open connections by id (the connections' own dict)
        self._stopping = False
        self._fatal = False
        self._lost_host_at: float | None = None
        self._kinds = kinds
        self._sign_seeds: dict[int, bytes] = {}
        if role == "host":
            self.lobby: HostLobby | JoinLobby = HostLobby(part.key, part.version, name, kinds, date=date,
                                                          options=options, memo=memo, token_bytes=token_bytes,
                                                          computer_names=computer_names)
            self.port = self.conns.listen(address, port)
        elif role == "join":
            self.lobby = JoinLobby(part.key, part.version, name, memo=memo, token_bytes=token_bytes)
        else:
            raise ValueError(f"role must be host or join, not {role!r}")
        self._new_sign_keys()
        if loaded is not None:
            memo, payload = loaded
            self.machine = part.from_payload(memo.seat, memo.table, payload, token_bytes)
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

    def set_options(self, options: dict[str, Any]) -> None:
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
    def options(self) -> dict[str, Any]:
        """The game's lobby options: the host's as set now, a joiner's as its host sent them."""
        return dict(self.lobby.options)

    def can_start(self) -> bool:
        """Host: every person seat is taken and no match is under way (:meth:`start` may be called)."""
        return isinstance(self.lobby, HostLobby) and self.lobby.can_start()

    def hand_to_computer(self, seat: int, level: str) -> None:
        """Host: a joiner's seat whose person is away is played by the part's computer player
        at ``level`` until the person proves the seat again (then it is given back). Raises
        ValueError (the reason) when it cannot be handed over now."""
        if self.role != "host" or self.part.player is None or self.part.turn is None:
            raise ValueError("only a host with computer players hands a seat over")
        with self._mlock:
            if self.machine is None or self.verdict is not None:
                raise ValueError("no match is being played")
            if any(p.seat == seat for p in list(self._peers.values())):
                raise ValueError(f"seat {seat}'s player is connected")
            self._queued.append(self.machine.set_computer(seat, True, self._clock()))
            self.computer_seats.hand_over(seat, level)
        self._command("drain")

    def adopt(self, sock: socket.socket) -> None:
        """Host: take ``sock``, a connection that came another way than to our port (by code
        over the internet, :class:`net.internet.Invites`), as if it had been accepted. Any
        thread may call it."""
        if self.role != "host":
            raise ValueError("only a host adopts connections")
        self._command("adopt", sock)

    def view(self, fn: Callable[[MatchMachine], Any]) -> Any:
        """``fn(machine)`` under the machine's lock (a snapshot for the window), or None."""
        with self._mlock:
            return None if self.machine is None else fn(self.machine)

    def close(self, timeout: float = 2.0) -> None:
        """Leave: every connection is told ``bye`` (a match in progress: the others judge the
        stop by who owes what), files are written, the thread ends."""
        self._command("leave")
        self.join(timeout)

    def join(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` s (None: for ever) for the session's thread to end (after
        :meth:`close`, or a fault that stopped it); True once it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def running(self) -> bool:
        """Whether the session's thread still runs (its sockets, deadlines and journal)."""
        return self._thread.is_alive()

    # ------------------------------------------------------------------ the lobby, by role
    @property
    def _host_lobby(self) -> HostLobby:
        """A host's lobby (only a host's code asks for it)."""
        assert isinstance(self.lobby, HostLobby), "a host's lobby on a joiner"
        return self.lobby

    @property
    def _join_lobby(self) -> JoinLobby:
        """A joiner's lobby (only a joiner's code asks for it)."""
        assert isinstance(self.lobby, JoinLobby), "a joiner's lobby on a host"
        return self.lobby

    # ------------------------------------------------------------------ thread
    def _set_status(self, code: str) -> None:
        if self._new_status(code, code):
            self._emit(Status(code))

    def _run(self) -> None:
        conns = self.conns
        conns.watch(self._wake_r)
        next_connect = 0.0
        if self.role == "host" and self.part.auto_start and self._host_lobby.can_start():
            self._lobby_out(self._host_lobby.start(self._clock()))  # no person seat to wait for
        try:
            while not self._stopping:
                now = self._clock()
                if self.role == "join" and not self._peers and not self._fatal and now >= next_connect:
                    if not self._connect():
                        next_connect = self._clock() + self.reconnect_delay
                for what, obj in conns.ready(TICK):
                    if what == "wake":
                        try:
                            self._wake_r.recv(4096)
                        except OSError:
                            pass
                    elif what == "accept":
                        self._accept(obj)
                    else:
                        self._read(obj)
                self._commands_run()
                self._tick(self._clock())
                if self.role == "join" and not self._peers and not self._fatal and next_connect <= now:
                    next_connect = self._clock() + self.reconnect_delay
        except OSError:
            pass  # the journal could not be written (WriteFailed said so): no promise leaves without it
        finally:
            conns.close()
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
            elif name == "adopt":
                self._accept(*args)
            elif name == "computed":
                self._computed(*args)
            elif name == "options":
                try:
                    self._lobby_out(self._host_lobby.set_options(*args))  # (queued by a host only)
                except ValueError:
                    pass  # too late: the match was set up meanwhile
            elif name == "start":
                if self._host_lobby.can_start():  # (queued by a host only; a repeated start: under way)
                    self._lobby_out(self._host_lobby.start(self._clock()))
            elif name == "leave":
                peers = list(self._peers.values())
                for p in peers:
                    self._close_peer(p, ("bye", "the player left"), close=False)
                linger([p.sock for p in peers] + self.conns.take_lingering(), self._clock, LINGER)
                self._write_record()
                self._stopping = True
                return

    def _tick(self, now: float) -> None:
        self._drain()
        self.conns.tick(now)
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
    def _accept(self, sock: socket.socket) -> None:
        p = self.conns.add(sock)
        self._lobby_out(self._host_lobby.open(p.cid, self._clock()))  # (a host's connection)

    def _connect(self) -> bool:
        first, self._first = self._first, None
        if first is not None:
            sock, initial = first
        else:
            try:
                sock = self._dial()
            except OSError:
                if self.machine is not None and self._lost_host_at is None:
                    self._lost_host_at = self._clock()  # (a journaled match whose host is not there)
                return False
            initial = b""
        p = self.conns.add(sock)
        have = self.machine.received() if self.machine is not None else 0
        out = self._join_lobby.open(self._clock(), have)
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

    def _read(self, p: Peer) -> None:
        for msg in self.conns.receive(p):
            if p.cid not in self._peers:
                break
            self._message(p, msg)
        self._flush(p)
        if p.link.closed is not None:
            self._link_closed(p)

    def _flush(self, p: Peer) -> None:
        self.conns.flush(p)

    def _close_peer(self, p: Peer, why: tuple[str, str] | None, close: bool = True) -> None:
        """Forget ``p``, saying ``why`` (a closing code and reason) first; ``close``: see
        :meth:`net.connections.Connections.forget`."""
        if why is not None:
            p.link.close(*why)
            self._flush(p)
        self.conns.forget(p, close)

    def _link_closed(self, p: Peer) -> None:
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
            self._lobby_out(self._host_lobby.closed(p.cid, now))
        if (self.role == "host" and seat is not None and self.machine is not None and self.verdict is None
                and self.machine.abortable()):
            with self._mlock:
                self.machine = None  # nothing was bound: the seat goes to whoever comes next
            for q in list(self._peers.values()):  # the others join again, as new (nothing of theirs is lost)
                if q.seat is not None:
                    q.link.close("reopen", "the match was called off: a seat left before anything was bound")
                    self._flush(q)
                    self._close_peer(q, None)
                    self._lobby_out(self._host_lobby.closed(q.cid, now))
            self._new_sign_keys()  # a key per match: the next one is another match
            self._lobby_out(self._host_lobby.reopen())
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
    def _message(self, p: Peer, msg: dict[str, Any]) -> None:
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
                self._lobby_out(self._host_lobby.receive(p.cid, msg, now))
            else:
                self._lobby_out([LSend(p.cid, o.msg) if isinstance(o, LSend) else
                                 LDrop(p.cid, o.code, o.reason, o.send) if isinstance(o, LDrop) else o
                                 for o in self._join_lobby.receive(msg, now)])
            return
        if (self.role == "host" and self.machine is None and p.seat is not None and self._host_lobby.starting
                and len(p.early) < 64):
            p.early.append(msg)  # it confirmed the start; the others have not yet
            return
        if p.seat is None or self.machine is None or (self.role == "join" and not self._join_lobby.seated):
            p.link.close("order", f"a {msg['t']!r} message before the match")
            return
        with self._mlock:
            try:
                outputs = self.machine.receive(p.seat if self.role == "host" else 0, msg, now)
            except Refusal as e:
                p.link.close(e.code, str(e))
                return
        self._carry_out(outputs)

    def _lobby_out(self, outputs: list[LOutput]) -> None:
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
                            if self.role == "host" and o.seat in self.computer_seats.handed and self.verdict is None:
                                outs += self.machine.set_computer(o.seat, False, now)  # its person is back
                                self.computer_seats.give_back(o.seat)
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
            if self.role == "host" and self.part.auto_start and self._host_lobby.can_start():
                self._lobby_out(self._host_lobby.start(now))

    def _forget_match(self) -> None:
        """Joiner: the host called the match off (``reopen``): its machine, seat memo and
        journal go (nothing of it was bound), and the next connection is a new hello."""
        with self._mlock:
            self.machine = None
        lobby = self._join_lobby
        lobby.memo, lobby.seated = None, False
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
        if self.machine is None or self.verdict is not None or not self.computer_seats.players:
            return
        turn, machine = self.part.turn, self.machine
        if turn is None:  # (never: computer seats need a part with turn and player, see __init__)
            return

        def observe(seat: int) -> Any:
            with self._mlock:
                return turn(machine, seat)
        self.computer_seats.think(observe)

    def _computed(self, seat: int, action: Any) -> None:
        self._drain()
        self.computer_seats.finished(seat)
        if action is None or self.machine is None or self.verdict is not None:
            return
        with self._mlock:
            try:
                outputs = self.machine.act(action, self._clock(), seat)
            except ValueError:
                return  # the match moved on while it thought: it thinks again at the next tick
        self._carry_out(outputs)

    def _is_connected(self, seat: int) -> bool:
        if seat == (self.machine.seat if self.machine is not None else -1) or self.computer_seats.plays(seat):
            return True
        # a connection counts once it holds the seat (for a resume: the host proved the match and
        # repeated its start), never while its handshake is under way: the connected deadline of
        # a step the host owes runs from that seating, with its catch-up on the way
        return any(p.seat == (0 if self.role == "join" else seat) for p in self._peers.values())

    def _back(self, seat: int) -> float:
        """When seat ``seat``'s current connection was seated (s; -inf for a seat played here,
        or while it is away), for :func:`~net.match.overdue`: a seat back from a drop gets its
        connected time again, never past a forfeiting step's total deadline."""
        if self.machine is not None and seat == self.machine.seat or self.computer_seats.plays(seat):
            return -math.inf
        if self.role == "join":
            return max((p.back for p in self._peers.values()), default=-math.inf)
        return max((p.back for p in self._peers.values() if p.seat == seat), default=-math.inf)

    def _rows(self) -> list[list[Any]]:
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
                self.machine = self.part.new_match(o.seat, o.table, self._token, seeds)
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

    def _carry_out(self, outputs: list[Output]) -> None:
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
        if v is not None:  # a machine that holds evidence checks it
            with self._mlock:
                v = self.machine.check_verdict(v, sender)
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
        try:
            write_journal(self.record_path, self.part.key, memo, self.machine.payload())
        except OSError as e:
            self._write_failed(journal_path(self.record_path), e)
            raise

    def _write_record(self) -> None:
        if self.record_path is None or self.machine is None:
            return
        with self._mlock:
            rec = self.machine.record()
        try:
            write_record(self.record_path, rec)
        except OSError as e:
            self._write_failed(self.record_path, e)

    def _write_failed(self, path: Path, e: OSError) -> None:
        w = WriteFailed(str(path), e.strerror or str(e))
        self.write_errors.append(w)
        self._emit(w)
