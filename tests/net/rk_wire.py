"""Rose King on the one LAN layer, for the attack tests: an honest headless host (a
:class:`net.session.Session` whose computer plays in a thread) and Mallory, a joiner whose every
byte the test controls.

Mallory speaks the version-3 wire of docs/protocol.md through a raw socket on 127.0.0.1: its own
:class:`net.link.Link` (frames), :class:`net.lobby.JoinLobby` (hello, start, seat proof) and an
honest :class:`game.roseking.lan.match.RoseKingMatch` it drives by hand. By default it plays honestly
(the first legal move that is not a draw, else a draw); ``hold`` keeps back the message types the
test names (its reveal, its acks...), ``send``/``raw`` put anything on the wire. Every wait is
bounded (:data:`LIMIT`) and driven by what arrives, never by sleeps.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import threading
import time

from game.rng import Rng
from game.roseking.engine import DRAW, Move
from net.framing import encode_frame
from net.headless import HeadlessError, play_match
from net.link import Link
from net.lobby import HostLobby, JoinLobby, LChanged, LDrop, LSeated, LSend, LStarted, SeatMemo, schemas_for
from net.match import Over, Refusal, Save, Send, Table, Verdict
from game.roseking.lan.match import KEY, LAN, VERSION, RoseKingMatch
from net.session import Ended, Session

LIMIT = 20.0  #: seconds: no wait here comes near it
SCHEMAS = schemas_for(dict(LAN.schemas))


def frame(msg: dict) -> bytes:
    """``msg`` as a version-3 frame of Rose King's part (checked against its schemas)."""
    return encode_frame(msg, SCHEMAS)


def first_move(state) -> Move:
    """The first legal move that is not a draw, else a draw (a quick, predictable player)."""
    moves = state.legal_moves()
    return next((m for m in moves if m.kind is not DRAW), moves[0])


class Host:
    """An honest headless peer on 127.0.0.1 (a host by default, on any free port; ``role``
    ``"join"`` with ``port``: a joiner, named Bob) with ``--record`` ``tmp_path/<role>.json``: its
    computer plays (``net.headless.play_match``) in a thread; every event it sees is kept, and
    :meth:`wait` blocks (bounded) until one matches."""

    def __init__(self, tmp_path, player=None, play: bool = True, role: str = "host", port: int = 0, **kw) -> None:
        self.record = tmp_path / f"{role}.json"
        kw.setdefault("record", self.record)
        if role == "join":
            kw.setdefault("reconnect_delay", 0.05)
        self.session = Session(LAN, role, "Alice" if role == "host" else "Bob", port=port, **kw)
        self.port = self.session.port
        self.events: list = []
        self._cv = threading.Condition()
        self.result: Verdict | str | None = None
        self.thread = threading.Thread(target=self._play, args=(player or first_move,), daemon=True)
        if play:
            self.thread.start()

    def _on_event(self, e) -> None:
        with self._cv:
            self.events.append(e)
            self._cv.notify_all()

    def _play(self, player) -> None:
        try:
            self.result = play_match(self.session, player, timeout=LIMIT, on_event=self._on_event)
        except HeadlessError as e:
            self.result = str(e)
        end = time.monotonic() + LIMIT  # the player returns at the verdict: the events after it
        while time.monotonic() < end and not any(isinstance(e, Ended) for e in self.events):
            for e in self.session.wait(0.1):
                self._on_event(e)
            if self.session.status == "closed":
                break
        with self._cv:
            self._cv.notify_all()

    def wait(self, pred, what: str, timeout: float = LIMIT):
        """The first event (seen so far or to come) matching ``pred``; fails after ``timeout``."""
        end = time.monotonic() + timeout
        while True:
            with self._cv:
                found = next((e for e in self.events if pred(e)), None)
                if found is not None:
                    return found
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"host: no {what} within {timeout} s; saw {self.events[-6:]}")
                if self.thread.is_alive():
                    self._cv.wait(min(left, 0.2))
                    continue
            for e in self.session.wait(min(left, 0.1)):  # its player is done (the verdict): the
                self._on_event(e)                          # events after it, as they come

    def verdict(self, timeout: float = LIMIT) -> Verdict:
        """The verdict of the session's :class:`~net.session.Ended` event (its files are written
        by then); fails after ``timeout``."""
        return self.wait(lambda e: isinstance(e, Ended), "verdict", timeout).verdict

    def view(self, fn):
        return self.session.view(fn)

    def file(self) -> dict:
        """The host's record file as written (every write is atomic)."""
        return json.loads(self.record.read_text())

    def close(self) -> None:
        self.session.close()
        self.thread.join(LIMIT)


class Mallory:
    """A Rose King joiner over a raw socket (see the module docstring). ``memo``/``payload``: a
    seat it holds (from an earlier Mallory: :attr:`lobby.memo`, ``machine.payload()``), which it
    takes back with its seat proof. ``hello``: send its hello at once."""

    def __init__(self, port: int, name: str = "Mallory", memo: SeatMemo | None = None, payload: dict | None = None,
                 hello: bool = True, hold: tuple[str, ...] = ()) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=LIMIT)
        self.link = Link(SCHEMAS, rates={"*": (10_000, 10_000)}, now=time.monotonic())
        self.link.settled = True  # its lobby keeps its own handshake; the link keeps the heartbeat
        self.lobby = JoinLobby(KEY, VERSION, name, memo=memo)
        self.machine: RoseKingMatch | None = None
        if memo is not None:
            self.machine = RoseKingMatch(memo.seat, memo.table, os.urandom, payload)
        self.hold = set(hold)
        self.hold_if = None  #: or a test's ``msg -> bool``: keep back the messages it picks too
        self.held: list[dict] = []
        self.got: list[dict] = []  #: every message from the host, in order (pings removed)
        self.verdict: Verdict | None = None  #: its own machine's
        self.resumed = False
        self.eof = False
        if hello:
            have = self.machine.received() if self.machine is not None else 0
            for o in self.lobby.open(time.monotonic(), have):
                self.send(o.msg)

    # ------------------------------------------------------------------ output
    def send(self, msg: dict) -> None:
        self.raw(frame(msg))

    def raw(self, data: bytes) -> None:
        """Put ``data`` on the wire (a connection the host already closed takes nothing)."""
        try:
            self.sock.sendall(data)
        except OSError:
            self.eof = True

    def out(self, outputs: list) -> None:
        """Carry out its machine's outputs, keeping back the types in :attr:`hold`."""
        for o in outputs:
            if isinstance(o, Send):
                if o.msg["t"] in self.hold or self.hold_if is not None and self.hold_if(o.msg):
                    self.held.append(o.msg)
                else:
                    self.send(o.msg)
            elif isinstance(o, Over) and self.verdict is None:
                self.verdict = o.verdict

    # ------------------------------------------------------------------ input
    def pump(self, timeout: float = 0.05) -> list[dict]:
        """Read what came (up to ``timeout`` s for the first bytes) and answer it as its lobby and
        machine say. Returns the messages read."""
        self.link.tick(time.monotonic())  # its pings, as an honest peer's
        ping = self.link.data_to_send()
        if ping:
            self.raw(ping)
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            return []
        except OSError:
            data = b""
        self.eof = not data
        msgs = self.link.feed(data, time.monotonic())
        for msg in msgs:
            self.got.append(msg)
            self._handle(msg)
        return msgs

    def _handle(self, msg: dict) -> None:
        now = time.monotonic()
        if msg["t"] in ("hello", "lobby", "start", "auth"):
            for o in self.lobby.receive(msg, now):
                if isinstance(o, LStarted):
                    self.machine = RoseKingMatch(o.seat, o.table, os.urandom)
                    pending = self.machine.start(now)
                elif isinstance(o, LSend):
                    if o.msg["t"] not in self.hold:
                        self.send(o.msg)
                        if o.msg["t"] == "ready":
                            self.out(pending)  # its set-up commitment
                elif isinstance(o, LSeated):  # seated in the lobby, or back in its match
                    if o.resumed:
                        self.resumed = True
                        self.out(self.machine.catch_up(0, 0, now))  # type: ignore[union-attr]
                elif isinstance(o, LDrop):
                    raise AssertionError(f"Mallory's lobby refused the host: {o.code} {o.reason}")
                else:
                    assert isinstance(o, LChanged)
        elif msg["t"] in LAN.schemas and self.machine is not None:
            try:
                self.out(self.machine.receive(0, msg, now))
            except Refusal as e:
                raise AssertionError(f"Mallory's machine refused the host's {msg}: {e}") from None

    def until(self, cond, what: str, play: bool = True, timeout: float = LIMIT) -> None:
        """Read and answer until ``cond()``; with ``play`` (or while ``play()`` is true) its
        machine plays when it is its turn."""
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise AssertionError(f"Mallory: no {what} within {timeout} s; got {[m['t'] for m in self.got[-8:]]}")
            if self.eof or self.link.closed is not None:
                raise AssertionError(f"Mallory: the connection closed before {what}: {self.link.closed}")
            if (play() if callable(play) else play) and self.my_turn():
                self.play(first_move(self.machine.state))  # type: ignore[union-attr]
                continue
            self.pump()

    def closed_with(self, what: str = "the close", timeout: float = LIMIT) -> tuple[str, str]:
        """Read until the host closes the connection: its ``error``'s (code, reason)."""
        end = time.monotonic() + timeout
        while self.link.closed is None and not self.eof:
            if time.monotonic() > end:
                raise AssertionError(f"Mallory: no {what} within {timeout} s")
            self.pump()
        c = self.link.closed
        return (c.code, c.reason) if c is not None else ("eof", "")

    # ------------------------------------------------------------------ play
    def my_turn(self) -> bool:
        m = self.machine
        return m is not None and m.over is None and m.to_move() == m.seat

    def can_draw(self) -> bool:
        m = self.machine
        return self.my_turn() and Move(m.state.turn, DRAW, None) in m.state.legal_moves()  # type: ignore[union-attr]

    def play(self, move) -> None:
        self.out(self.machine.act(move, time.monotonic()))  # type: ignore[union-attr]

    def draw_and_see_the_card(self) -> int:
        """Play on until it may draw, open the draw's coin and read the host's commitment and
        reveal: Mallory knows its card; its own reveal is kept back. Returns the ply before it."""
        self.until(self.can_draw, "a turn where it can draw")
        m = self.machine
        ply = m.ply  # type: ignore[union-attr]
        self.hold |= {"reveal", "ack"}  # (its ack of the draw would show it holds the card)
        self.play(Move(m.state.turn, DRAW, None))  # type: ignore[union-attr]
        self.until(lambda: m.ply == ply + 1, "the host's reveal", play=False)  # type: ignore[union-attr]
        return ply

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def journal(self) -> dict:
        """A session journal of its seat (docs/protocol.md, "The session"), for a real joiner to
        take its place with ``--record``."""
        return {"format": "lan-journal", "version": 1, "g": KEY, "memo": self.lobby.memo.to_json(),  # type: ignore[union-attr]
                "match": self.machine.payload()}  # type: ignore[union-attr]


class EvilHost(Mallory):
    """A Rose King host whose every byte the test controls (see :class:`Mallory`): it listens on
    127.0.0.1 (:attr:`port`), seats the first joiner with its own :class:`net.lobby.HostLobby`,
    starts at once and plays seat 0 with an honest machine the test drives (and cheats with)."""

    def __init__(self, name: str = "Mallory", hold: tuple[str, ...] = ()) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.link = Link(SCHEMAS, rates={"*": (10_000, 10_000)}, now=time.monotonic())
        self.link.settled = True
        self.lobby = HostLobby(KEY, VERSION, name, ("host", "person"))  # type: ignore[assignment]
        self.machine = None
        self.cid = 1  #: its lobby's id of the current connection
        self.hold_if = None
        self.hold = set(hold)
        self.held, self.got, self.early = [], [], []
        self.verdict, self.resumed, self.eof = None, False, False
        self.sock = None  # type: ignore[assignment]

    def accept(self) -> None:
        """Take the joiner's connection and send our hello."""
        self.server.settimeout(LIMIT)
        self.sock, _ = self.server.accept()
        self._lobby(self.lobby.open(self.cid, time.monotonic()))  # type: ignore[call-arg]

    def accept_again(self, listen: bool = False) -> None:
        """The joiner's next connection (``listen``: on a new listening socket at the same port,
        after :meth:`leave`): our hello; its seat proof resumes the match, with the catch-up of
        our machine and ``caught``, as an honest host's."""
        if listen:
            self.server = socket.create_server(("127.0.0.1", self.port))
        self.server.settimeout(LIMIT)
        if self.sock is not None:
            super().close()
        self.sock, _ = self.server.accept()
        self.link = Link(SCHEMAS, rates={"*": (10_000, 10_000)}, now=time.monotonic())
        self.link.settled = True
        self.eof, self.resumed = False, False
        self.cid += 1
        self._lobby(self.lobby.open(self.cid, time.monotonic()))  # type: ignore[call-arg]

    def leave(self) -> None:
        """Vanish: the connection and the listening socket close (nothing is said)."""
        super().close()
        self.server.close()

    def _lobby(self, outputs: list) -> None:
        now = time.monotonic()
        for o in outputs:
            if isinstance(o, LDrop) and o.cid != self.cid:
                continue  # an older connection of the joiner, replaced
            if isinstance(o, LSeated) and o.resumed:
                self.resumed = True
                self.out(self.machine.catch_up(1, o.have, now))  # type: ignore[union-attr]
                self.send({"t": "caught"})
                continue
            if isinstance(o, LSend):
                if o.msg["t"] not in self.hold:
                    self.send(o.msg)
            elif isinstance(o, LStarted):
                self.machine = RoseKingMatch(0, o.table, os.urandom)
                self.out(self.machine.start(now))
                early, self.early = self.early, []
                for msg in early:
                    self._handle(msg)
            elif isinstance(o, LDrop):
                raise AssertionError(f"the evil host's lobby refused the joiner: {o.code} {o.reason}")
        if any(isinstance(o, LSeated) for o in outputs) and self.lobby.can_start():  # type: ignore[union-attr]
            self._lobby(self.lobby.start(now))  # type: ignore[union-attr]  # after the batch: its lobby first

    def _handle(self, msg: dict) -> None:
        if msg["t"] in ("hello", "auth", "ready"):
            self._lobby(self.lobby.receive(self.cid, msg, time.monotonic()))  # type: ignore[call-arg]
        elif msg["t"] in LAN.schemas:
            if self.machine is None:
                self.early.append(msg)  # the joiner's set-up commitment may come before its ready
                return
            try:
                self.out(self.machine.receive(1, msg, time.monotonic()))
            except Refusal as e:
                raise AssertionError(f"the evil host's machine refused the joiner's {msg}: {e}") from None

    def close(self) -> None:
        if self.sock is not None:
            super().close()
        self.server.close()


# =========================================================================== in memory
GID = bytes(range(16))


def det_tokens(seed: int):
    """A deterministic ``token_bytes`` (SHA-256 of a counter): a game that repeats exactly."""
    n = [0]

    def token_bytes(k: int) -> bytes:
        n[0] += 1
        return hashlib.sha256(f"{seed}:{n[0]}".encode()).digest()[:k]
    return token_bytes


def table(colour: str = "", computers: tuple = ()) -> Table:
    return Table(GID, ("Ann", "Bob"), "2026-11-27T08:00:00Z", {"colour": colour} if colour else {}, computers)


def chooser(seed: int, draw_first: bool = False):
    """A quick player: a draw whenever one is legal (``draw_first``), else a random legal move."""
    rng = Rng(seed)

    def choose(state):
        moves = state.legal_moves()
        draw = [m for m in moves if m.kind is DRAW]
        if draw_first and draw:
            return draw[0]
        return moves[rng.randbelow(len(moves))]
    return choose


class Pair:
    """Both seats' machines in memory; sends are delivered in order, verdicts judged as the
    session judges them (:func:`net.match.judge_stop` for a stop sent by a peer). ``tokens``:
    each seat's source of secrets (:func:`det_tokens` for a game that repeats)."""

    def __init__(self, colour: str = "", tokens=(os.urandom, os.urandom)) -> None:
        self.m = [RoseKingMatch(s, table(colour), tokens[s]) for s in (0, 1)]
        self.wire: list[tuple[int, dict]] = []
        self.verdicts: dict[int, Verdict] = {}
        self.saves = [0, 0]
        for s in (0, 1):
            self.out(s, self.m[s].start(0.0))

    def out(self, s: int, outputs: list) -> None:
        for o in outputs:
            if isinstance(o, Send):
                self.wire.append((1 - s, o.msg))
            elif isinstance(o, Save):
                self.saves[s] += 1
                payload = self.m[s].payload()  # every payload restores to the same machine
                again = RoseKingMatch(s, self.m[s].table, os.urandom, payload)
                assert again.payload() == payload
            elif isinstance(o, Over):
                self.end(s, o.verdict)

    def end(self, s: int, v: Verdict) -> None:
        if s not in self.verdicts:
            self.verdicts[s] = v
            self.m[s].end(v, 0.0)

    def deliver(self) -> None:
        while self.wire:
            to, msg = self.wire.pop(0)
            self.out(to, self.m[to].receive(1 - to, msg, 0.0))

    def play(self, players, plies: int = 10_000) -> None:
        while len(self.verdicts) < 2 and plies > 0:
            self.deliver()
            for s in (0, 1):
                obs = LAN.turn(self.m[s], s)
                if obs is not None:
                    self.out(s, self.m[s].act(players[s](obs), 0.0))
                    plies -= 1
                    break
            else:
                if not self.wire:
                    break


def drawn_by(p: Pair, drawer: int) -> None:
    """Play (the honest way) until seat ``drawer`` has opened a draw's coin and the other seat
    answered: the drawer holds both secrets (it knows its card), the other awaits its reveal."""
    players = [chooser(3), chooser(4)]
    for _ in range(400):
        p.deliver()
        s = next((s for s in (0, 1) if LAN.turn(p.m[s], s) is not None), None)
        assert s is not None, "nobody to move"
        state = LAN.turn(p.m[s], s)
        if s == drawer and Move(state.turn, DRAW, None) in state.legal_moves():
            p.out(s, p.m[s].act(Move(state.turn, DRAW, None), 0.0))
            to, commit = p.wire.pop(0)
            p.out(to, p.m[to].receive(s, commit, 0.0))  # the other commits and reveals at once
            return
        p.out(s, p.m[s].act(players[s](state), 0.0))
    raise AssertionError("no draw")


def run_both(host: Session, join: Session, players) -> dict:
    """Both seats play in threads (net.headless.play_match) with ``players`` (seat -> chooser);
    returns seat -> verdict (or the exception a seat's player raised)."""
    out: dict = {}

    def run(s, seat):
        try:
            out[seat] = play_match(s, players[seat], timeout=LIMIT)
        except Exception as e:  # reported by the callers' asserts
            out[seat] = e
    ts = [threading.Thread(target=run, args=(s, i)) for i, s in enumerate((host, join))]
    for t in ts:
        t.start()
    for t in ts:
        t.join(LIMIT + 5)
    return out

