"""The Rose King LAN protocol as a pure state machine (docs/protocol.md).

Built the way h11 is: a :class:`Connection` consumes bytes and returns events,
and local actions queue bytes; it never touches a socket, a thread or the
clock. Time comes in through :meth:`Connection.tick`. One ``Connection`` lives
for one TCP connection; the :class:`LanGame` it plays outlives it, so a
protocol error or a dropped connection closes the connection but keeps the
game, and the next connection resumes it.

Usage (the transport does this; tests do it with two objects and no socket)::

    host = Connection(Role.HOST, "Alice", now=0.0)
    join = Connection(Role.JOIN, "Bob", now=0.0)
    events = join.receive_data(host.data_to_send())   # Handshake, then the coin...
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

from game import __version__ as APP_VERSION
from game.roseking.engine import (CARDS, DRAW, Color, IllegalMoveError, InvalidMoveError, Move, Record, State,
                         random_deal)
from game.roseking.engine.record import VERSION as RECORD_VERSION
from game.rng import Rng

from . import PROTOCOL_NAME, PROTOCOL_VERSION
from .framing import MAX_NAME, FrameDecoder, FrameError, encode_frame

HEARTBEAT = 2.0  #: seconds of sending nothing before a ping
TIMEOUT = 6.0  #: seconds of hearing nothing before the connection counts as interrupted
REVEAL_TIMEOUT = 6.0  #: seconds a coin may wait for the peer's commitment or reveal
PING_FLOOD = 30  #: pings tolerated within one second
LOG_LINES = 400  #: protocol log lines kept per game for desync diagnosis

#: Closing codes after which reconnecting cannot help (the game is over or another game).
FATAL_CODES = frozenset({"version", "illegal", "desync", "game", "coin", "self", "role"})


class Role(str, Enum):
    """Which side opened the game: the host listens, the joiner connects."""

    HOST = "host"
    JOIN = "join"

    @property
    def other(self) -> "Role":
        return Role.JOIN if self is Role.HOST else Role.HOST


class Phase(Enum):
    HELLO = "hello"  # waiting for the peer's hello
    SETUP = "setup"  # the joint coin for colours and the deal
    SYNC = "sync"  # waiting for the peer's copy of a game we do not have
    PLAYING = "playing"  # a game exists (it may be over: then rematch offers)
    CLOSED = "closed"


def commitment(peer_id: bytes, secret: bytes) -> bytes:
    """A coin commitment: SHA-256 of the committer's 16-byte peer id and 32-byte secret."""
    return hashlib.sha256(peer_id + secret).digest()


def coin_digest(purpose: int, host_secret: bytes, join_secret: bytes) -> bytes:
    """The joint coin: SHA-256 over a label, the purpose (-1 for the set-up, else the
    ply of the draw) and both revealed secrets, host's first. Neither side alone can
    steer it once both commitments are exchanged."""
    return hashlib.sha256(b"rose-king coin" + purpose.to_bytes(4, "big", signed=True)
                          + host_secret + join_secret).digest()


def coin_rng(digest: bytes) -> Rng:
    """The engine's PCG32 seeded from the first 8 bytes of a coin digest."""
    return Rng(int.from_bytes(digest[:8], "big"))


def setup_from_coin(digest: bytes) -> tuple[bytes, Color, tuple, tuple]:
    """(game id, host's colour, red's hand, white's hand) from the set-up coin.

    The host plays red when the first ``randbelow(2)`` is 0; the deal then
    shuffles the 24 cards with the same generator (ruling 3).
    """
    rng = coin_rng(digest)
    host_color = Color.RED if rng.randbelow(2) == 0 else Color.WHITE
    red, white = random_deal(rng)
    game_id = hashlib.sha256(b"rose-king game" + digest).digest()[:16]
    return game_id, host_color, red, white


def draw_from_coin(digest: bytes, state: State):
    """The card a draw brings: ``state.chance_outcomes()[randbelow(n)]`` (the sorted draw pile)."""
    outcomes = state.chance_outcomes()
    return outcomes[coin_rng(digest).randbelow(len(outcomes))]


# --------------------------------------------------------------------------- the game
@dataclass
class LanGame:
    """A LAN game that outlives connections.

    ``hashes[i]`` is the state hash (32 bytes) after ply ``i`` (``hashes[0]``: the
    deal). ``coins[ply]`` keeps each draw's ``(host_commit, join_commit, host_secret,
    join_secret)`` so a draw re-sent on resume carries and is checked against them. ``aborted`` holds the
    reason when the game was stopped (illegal move, desync): it cannot resume.
    """

    game_id: bytes
    host_color: Color
    red_name: str
    white_name: str
    date: str
    state: State
    hashes: list[bytes] = field(default_factory=list)
    resigned: Color | None = None
    aborted: str | None = None
    coins: dict[int, tuple[bytes, bytes, bytes, bytes]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.hashes:
            self.hashes = [bytes.fromhex(self.state.state_hash())]

    def color_of(self, role: Role) -> Color:
        return self.host_color if role is Role.HOST else self.host_color.other

    @property
    def over(self) -> bool:
        return self.state.is_game_over() or self.resigned is not None or self.aborted is not None

    def winner(self) -> Color | None:
        """The winner once over: the resigner's opponent, or the engine's verdict."""
        if self.resigned is not None:
            return self.resigned.other
        outcome = self.state.outcome()
        return None if outcome is None else outcome.winner

    def push(self, move: Move) -> None:
        """Push a move checked by the engine (raises IllegalMoveError) and record its hash."""
        self.state.push_checked(move)
        self.hashes.append(bytes.fromhex(self.state.state_hash()))

    def pop(self) -> None:
        self.state.pop()
        self.hashes.pop()

    def snapshot(self) -> "LanGame":
        """An independent copy (for handing to another thread)."""
        return LanGame(self.game_id, self.host_color, self.red_name, self.white_name, self.date,
                       self.state.copy(), list(self.hashes), self.resigned, self.aborted, dict(self.coins),
                       list(self.log))

    def note(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]

    def record(self) -> Record:
        """The game record (docs/record-format.md) with a ``"lan"`` key: game id (hex),
        the host's colour and who resigned. Both peers' records of a game are identical."""
        rec = Record.from_state(self.state, red=self.red_name, white=self.white_name, date=self.date or None)
        rec.extra["lan"] = {"game": self.game_id.hex(), "host": str(self.host_color),
                            "resigned": "" if self.resigned is None else str(self.resigned)}
        return rec

    @classmethod
    def from_record(cls, record: Record) -> "LanGame":
        """Rebuild a game from its record (a journal written by :meth:`record`).

        Raises RecordError for a bad record, ValueError if it is not a LAN record.
        """
        lan = record.extra.get("lan")
        if not isinstance(lan, dict) or not isinstance(lan.get("game"), str):
            raise ValueError("not a LAN game record (no \"lan\" key)")
        try:
            game_id = bytes.fromhex(lan["game"])
            host = Color.from_name(lan.get("host"))
            resigned = lan.get("resigned") or ""
            resigned_color = Color.from_name(resigned) if resigned else None
        except (ValueError, TypeError) as e:
            raise ValueError(f"bad \"lan\" key in the record: {e}") from None
        if len(game_id) != 16:
            raise ValueError("bad \"lan\" key in the record: the game id must be 16 bytes")
        game = cls(game_id, host, record.red or "red", record.white or "white", record.date or "",
                   record.new_state())
        for text in record.moves:
            game.push(Move.from_str(text))
        game.resigned = resigned_color
        return game


# --------------------------------------------------------------------------- events
@dataclass(frozen=True)
class Handshake:
    """The peer said hello with compatible versions."""

    peer_name: str
    peer_role: Role
    peer_id: bytes
    peer_app: str


@dataclass(frozen=True)
class GameStarted:
    """A game is on: new from the coin (``resumed`` False), resumed, or adopted from the peer."""

    game: LanGame
    color: Color
    resumed: bool


@dataclass(frozen=True)
class MoveMade:
    """``move`` (a draw with its card) was applied as ply ``ply``; ``by_peer`` tells whose."""

    move: Move
    ply: int
    by_peer: bool


@dataclass(frozen=True)
class DrawStarted:
    """The commit-reveal for ``player``'s draw at ply ``ply`` began."""

    player: Color
    ply: int


@dataclass(frozen=True)
class Acked:
    """The peer confirmed our move ``ply`` with the same state hash."""

    ply: int


@dataclass(frozen=True)
class GameOver:
    """The game ended: ``kind`` is ``"finished"``, ``"resigned"``, ``"illegal"`` or ``"desync"``;
    ``winner`` is None for a draw or a stopped game; ``reason`` is for people."""

    kind: str
    winner: Color | None
    reason: str


@dataclass(frozen=True)
class Desync:
    """Both engines disagree at ply ``ply``; ``log`` is this side's diagnosis text."""

    ply: int
    log: str


@dataclass(frozen=True)
class RematchOffered:
    """The peer offers a rematch; :meth:`Connection.offer_rematch` accepts."""


@dataclass(frozen=True)
class Closed:
    """The connection is over. ``code`` says why (docs/protocol.md, "Errors"); ``by_peer``
    is True when the peer closed with that reason; ``fatal`` when reconnecting cannot help."""

    code: str
    reason: str
    by_peer: bool
    fatal: bool


Event = Handshake | GameStarted | MoveMade | DrawStarted | Acked | GameOver | Desync | RematchOffered | Closed


@dataclass
class _Coin:
    purpose: int  # -1 for the set-up, else the ply of the draw
    my_secret: bytes
    my_commit: bytes
    started: float
    their_commit: bytes | None = None
    their_secret: bytes | None = None


class ProtocolViolation(Exception):
    """Internal: the peer broke the protocol; carries the closing code."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code


# --------------------------------------------------------------------------- connection
class Connection:
    """One connection's protocol state machine. Not thread-safe; no I/O.

    ``role``: HOST or JOIN. ``name``: this player's name (1..32 printable characters,
    else ValueError). ``game``: a game to resume, or None. ``date``: this side's
    ISO date (the host's becomes a new game's record date). ``now``: the clock, in
    seconds, of the caller's choosing (monotonic). ``token_bytes``: the source of
    secrets (``secrets.token_bytes``; tests may pass their own).
    """

    def __init__(self, role: Role, name: str, *, game: LanGame | None = None, peer_id: bytes | None = None,
                 date: str = "", now: float = 0.0,
                 token_bytes: Callable[[int], bytes] = secrets.token_bytes) -> None:
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise ValueError(f"a player name needs 1..{MAX_NAME} printable characters, got {name!r}")
        self.role = Role(role)
        self.name = name
        self.game = game
        self._token = token_bytes
        self.peer_id = peer_id or token_bytes(16)
        self.date = date
        self.phase = Phase.HELLO
        self.peer: Handshake | None = None
        self.closed: Closed | None = None
        self.acked_ply = 0
        self._decoder = FrameDecoder()
        self._out = bytearray()
        self._events: list[Event] = []
        self._now = now
        self._last_sent = now
        self._last_recv = now
        self._coin: _Coin | None = None
        self._catch_up_to = 0
        self._rematch_sent = False
        self._rematch_received = False
        self._pings = 0
        self._ping_window = now
        g = game
        self._send({"t": "hello", "proto": PROTOCOL_NAME, "pv": PROTOCOL_VERSION, "app": APP_VERSION,
                    "rec": RECORD_VERSION, "name": name, "peer": self.peer_id, "role": self.role.value,
                    "date": date[:32], "game": g.game_id if g else b"", "ply": g.state.ply if g else 0,
                    "hash": g.hashes[-1] if g else b""})

    # ------------------------------------------------------------------ queries
    @property
    def color(self) -> Color | None:
        """This side's colour in the current game, or None before there is one."""
        return None if self.game is None else self.game.color_of(self.role)

    @property
    def coin_pending(self) -> bool:
        """Whether a commit-reveal is in progress (no move may be played meanwhile)."""
        return self._coin is not None

    def data_to_send(self) -> bytes:
        """The bytes queued for the peer (frames), emptied by this call."""
        data = bytes(self._out)
        self._out.clear()
        return data

    # ------------------------------------------------------------------ input
    def receive_data(self, data: bytes) -> list[Event]:
        """Feed bytes from the peer (``b""`` at end of stream). Returns the events they cause.

        A frame or message that breaks the protocol closes the connection: an
        ``error`` message is queued and a :class:`Closed` event returned.
        """
        if self.phase is Phase.CLOSED:
            return self._take()
        if not data:
            reason = ("the connection closed in the middle of a frame" if self._decoder.pending
                      else "the peer closed the connection")
            self._close("eof", reason, by_peer=True, send=False)
            return self._take()
        self._last_recv = self._now
        try:
            messages = self._decoder.feed(data)
        except FrameError as e:
            self._close(e.code, str(e), by_peer=False)
            return self._take()
        for msg in messages:
            if self.phase is Phase.CLOSED:
                break
            try:
                self._handle(msg)
            except ProtocolViolation as e:
                self._close(e.code, str(e), by_peer=False)
            except FrameError as e:
                self._close(e.code, str(e), by_peer=False)
        return self._take()

    def tick(self, now: float) -> list[Event]:
        """Advance the clock to ``now`` (seconds): send a heartbeat after ``HEARTBEAT``
        idle seconds; close as interrupted after ``TIMEOUT`` silent seconds or a coin
        left unanswered for ``REVEAL_TIMEOUT`` seconds (a withheld reveal)."""
        self._now = now
        if self.phase is Phase.CLOSED:
            return self._take()
        if now - self._ping_window >= 1.0:
            self._ping_window, self._pings = now, 0
        coin = self._coin
        if now - self._last_recv >= TIMEOUT:
            self._close("timeout", f"no word from the peer for {TIMEOUT:g} seconds", by_peer=False, send=False)
        elif coin is not None and coin.their_secret is None and now - coin.started >= REVEAL_TIMEOUT:
            what = "commitment" if coin.their_commit is None else "reveal"
            self._close("withheld", f"the peer withheld its {what} for {REVEAL_TIMEOUT:g} seconds",
                        by_peer=False)
        elif now - self._last_sent >= HEARTBEAT:
            self._send({"t": "ping"})
        return self._take()

    # ------------------------------------------------------------------ local actions
    def play(self, move: Move) -> list[Event]:
        """Play the local player's move. A draw is passed as ``Move(color, DRAW, None)``:
        it starts a commit-reveal and the card arrives later in a :class:`MoveMade`.

        Raises IllegalMoveError (the engine's reason, or not our turn / a draw
        already in progress); nothing is sent then.
        """
        game = self._require_game()
        me = game.color_of(self.role)
        if game.over:
            raise IllegalMoveError(f"{move}: game already over")
        if self._coin is not None:
            raise IllegalMoveError(f"{move}: a draw is being decided")
        if move.player != me:
            raise IllegalMoveError(f"{move}: you play {me}")
        if game.state.ply < self._catch_up_to:
            raise IllegalMoveError(f"{move}: still receiving the peer's moves")
        state = game.state
        if move.kind is DRAW:
            if Move(me, DRAW, None) not in state.legal_moves():
                raise IllegalMoveError(f"{move}: {state.illegal_reason(move) or 'cannot draw now'}")
            self._start_coin(state.ply)
            self._events.append(DrawStarted(me, state.ply))
            return self._take()
        game.push(move)
        ply = state.ply
        game.note(f"sent move {ply} {move}")
        self._send({"t": "move", "ply": ply, "m": str(move), "hash": game.hashes[ply]})
        self._after_move(move, by_peer=False)
        return self._take()

    def resign(self) -> list[Event]:
        """Resign the current game (the peer wins). Raises ValueError if it is already over."""
        game = self._require_game()
        if game.over:
            raise ValueError("the game is already over")
        me = game.color_of(self.role)
        game.resigned = me
        self._coin = None
        game.note(f"sent resign at ply {game.state.ply}")
        self._send({"t": "resign", "ply": game.state.ply})
        self._events.append(GameOver("resigned", me.other, f"{me} resigned"))
        return self._take()

    def offer_rematch(self) -> list[Event]:
        """Offer (or accept) a rematch once the game is over. Raises ValueError during a game."""
        game = self._require_game()
        if not game.over:
            raise ValueError("a rematch can be offered only when the game is over")
        if not self._rematch_sent:
            self._rematch_sent = True
            self._send({"t": "rematch"})
            if self._rematch_received:
                self._begin_setup()
        return self._take()

    def close(self, reason: str = "the peer left") -> list[Event]:
        """Close deliberately: a ``bye`` error is queued for the peer."""
        if self.phase is not Phase.CLOSED:
            self._close("bye", reason, by_peer=False)
        return self._take()

    # ------------------------------------------------------------------ internals
    def _require_game(self) -> LanGame:
        if self.phase is not Phase.PLAYING or self.game is None:
            raise IllegalMoveError("no game is being played on this connection")
        return self.game

    def _take(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def _send(self, msg: dict) -> None:
        self._out += encode_frame(msg)
        self._last_sent = self._now

    def _close(self, code: str, reason: str, *, by_peer: bool, send: bool = True) -> None:
        if send:
            self._send({"t": "error", "code": code, "reason": reason[:500]})
        self.phase = Phase.CLOSED
        self._coin = None
        if self.game is not None:
            self.game.note(f"closed {code}: {reason}")
        self.closed = Closed(code, reason, by_peer, code in FATAL_CODES)
        self._events.append(self.closed)

    def _abort(self, kind: str, reason: str, ply: int, peer_hash: bytes | None = None) -> None:
        """Stop the game for an illegal move or a desync, tell the peer, close."""
        game = self.game
        assert game is not None
        game.aborted = reason
        self._events.append(GameOver(kind, None, reason))
        if kind == "desync":
            self._events.append(Desync(ply, self._diagnosis(ply, peer_hash, reason)))
        raise ProtocolViolation(kind, reason)

    def _diagnosis(self, ply: int, peer_hash: bytes | None, reason: str) -> str:
        game = self.game
        assert game is not None
        lines = [f"Rose King LAN desync report ({self.role.value} side, {self.name})",
                 f"game {game.game_id.hex()} ply {ply}: {reason}",
                 f"peer hash: {peer_hash.hex() if peer_hash else '-'}", "", "moves (ply, move, hash after):"]
        lines += [f"{i} {m} {game.hashes[i].hex()}" for i, m in enumerate(game.state.move_stack, 1)]
        lines += ["", "position:", game.state.board_text(), "", "protocol log:"] + game.log
        return "\n".join(lines) + "\n"

    def _start_coin(self, purpose: int) -> None:
        secret = self._token(32)
        self._coin = _Coin(purpose, secret, commitment(self.peer_id, secret), self._now)
        self._send({"t": "commit", "for": purpose, "c": self._coin.my_commit})

    def _begin_setup(self) -> None:
        self.phase = Phase.SETUP
        self._rematch_sent = self._rematch_received = False
        self._start_coin(-1)

    # ------------------------------------------------------------------ message handlers
    def _handle(self, msg: dict) -> None:
        t = msg["t"]
        if t == "error":
            self._close(msg["code"][:32], msg["reason"], by_peer=True, send=False)
            if self.game is not None and msg["code"] in ("illegal", "desync") and not self.game.aborted:
                self.game.aborted = f"the peer stopped the game: {msg['reason']}"
                self._events.append(GameOver(msg["code"], None, self.game.aborted))
                if msg["code"] == "desync":
                    self._events.append(Desync(self.game.state.ply,
                                               self._diagnosis(self.game.state.ply, None, msg["reason"])))
            return
        if t == "ping":
            self._pings += 1
            if self._pings > PING_FLOOD:
                raise ProtocolViolation("flood", f"ping flood: more than {PING_FLOOD} pings in a second")
            return
        if self.phase is Phase.HELLO:
            if t != "hello":
                raise ProtocolViolation("order", f"{t!r} message before the handshake")
            self._on_hello(msg)
            return
        if t == "hello":
            raise ProtocolViolation("order", "a second handshake on one connection")
        handler = getattr(self, "_on_" + t)
        handler(msg)

    def _on_hello(self, msg: dict) -> None:
        if msg["role"] == self.role.value:
            raise ProtocolViolation("self" if msg["peer"] == self.peer_id else "role",
                                    f"both sides are {self.role.value}s")
        if msg["peer"] == self.peer_id:
            raise ProtocolViolation("self", "the peer uses our own peer id")
        self.peer = Handshake(msg["name"], Role(msg["role"]), msg["peer"], msg["app"])
        self._events.append(self.peer)
        if self.role is Role.JOIN:
            self.date = msg["date"]  # a new game takes the host's date
        game = self.game
        theirs, their_ply, their_hash = msg["game"], msg["ply"], msg["hash"]
        if game is not None and theirs == game.game_id:
            self._resume(their_ply, their_hash)
            return
        mine_active = game is not None and not game.over
        theirs_active = bool(theirs)
        if mine_active and theirs_active:
            raise ProtocolViolation("game", "the peer is in the middle of another game")
        if mine_active:
            self._send_sync()
            self.phase = Phase.PLAYING
            self._events.append(GameStarted(game, game.color_of(self.role), True))
        elif theirs_active:
            self.phase = Phase.SYNC
        else:
            self._begin_setup()

    def _resume(self, their_ply: int, their_hash: bytes) -> None:
        game = self.game
        assert game is not None
        ply = game.state.ply
        self.phase = Phase.PLAYING
        self._events.append(GameStarted(game, game.color_of(self.role), True))
        game.note(f"resume: our ply {ply}, the peer's {their_ply}")
        if their_ply <= ply:
            if game.hashes[their_ply] != their_hash:
                self._abort("desync", f"desync on resume: the positions after ply {their_ply} differ",
                            their_ply, their_hash)
            for n in range(their_ply + 1, ply + 1):
                self._send_move(n)
            self.acked_ply = their_ply
        else:
            self._catch_up_to = their_ply
        if game.resigned is not None and game.resigned == game.color_of(self.role):
            self._send({"t": "resign", "ply": ply})

    def _send_move(self, n: int) -> None:
        game = self.game
        assert game is not None
        move = game.state.move_stack[n - 1]
        coin = game.coins.get(n - 1)
        if move.kind is DRAW and coin is not None:
            self._send({"t": "draw", "ply": n, "m": str(move), "hash": game.hashes[n], "s": list(coin[2:])})
        else:
            self._send({"t": "move", "ply": n, "m": str(move), "hash": game.hashes[n]})

    def _send_sync(self) -> None:
        game = self.game
        assert game is not None
        deal = [c.index for c in game.state.deal[0]] + [c.index for c in game.state.deal[1]]
        self._send({"t": "sync", "game": game.game_id, "host": str(game.host_color), "red": game.red_name,
                    "white": game.white_name, "date": game.date[:32], "deal": deal,
                    "moves": [str(m) for m in game.state.move_stack], "hash": game.hashes[-1],
                    "resigned": "" if game.resigned is None else str(game.resigned)})

    def _on_sync(self, msg: dict) -> None:
        if self.phase is not Phase.SYNC:
            raise ProtocolViolation("order", "a game copy (sync) that was not expected")
        try:
            state = State([CARDS[i] for i in msg["deal"][:5]], [CARDS[i] for i in msg["deal"][5:]])
        except ValueError as e:
            raise ProtocolViolation("schema", f"sync: {e}") from None
        game = LanGame(msg["game"], Color.from_name(msg["host"]), msg["red"], msg["white"], msg["date"], state)
        for i, text in enumerate(msg["moves"], 1):
            try:
                game.push(Move.from_str(text))
            except (InvalidMoveError, IllegalMoveError) as e:
                raise ProtocolViolation("illegal", f"the peer's copy of the game has an illegal move {i}: {e}") \
                    from None
        if game.hashes[-1] != msg["hash"]:
            raise ProtocolViolation("desync", "the peer's copy of the game does not give its own hash")
        game.resigned = Color.from_name(msg["resigned"]) if msg["resigned"] else None
        game.note(f"adopted the peer's game at ply {state.ply}")
        self.game = game
        self.phase = Phase.PLAYING
        self._events.append(GameStarted(game, game.color_of(self.role), True))

    def _on_commit(self, msg: dict) -> None:
        purpose, their_commit = msg["for"], msg["c"]
        coin = self._coin
        if self.phase is Phase.SETUP:
            if purpose != -1 or coin is None:
                raise ProtocolViolation("order", f"commitment for {purpose} during the set-up coin")
        elif self.phase is Phase.PLAYING:
            game = self.game
            assert game is not None
            ply = game.state.ply
            if purpose != ply:
                what = "gap in plies" if purpose > ply else "stale ply"
                raise ProtocolViolation("order", f"{what}: commitment for ply {purpose}, the game is at ply {ply}")
            if coin is None:
                peer_color = game.color_of(self.role.other)
                if game.resigned is not None:
                    return  # the peer drew before it heard of the resignation: nothing to toss
                if game.over:
                    self._abort("illegal", "the peer tried to draw after the game ended", ply)
                if game.state.turn != peer_color:
                    self._abort("illegal", f"the peer ({peer_color}) tried to draw out of turn", ply)
                if Move(peer_color, DRAW, None) not in game.state.legal_moves():
                    self._abort("illegal", f"the peer ({peer_color}) tried to draw with a full hand", ply)
                self._start_coin(ply)
                coin = self._coin
                self._events.append(DrawStarted(peer_color, ply))
        else:
            raise ProtocolViolation("order", "a commitment while no coin is being tossed")
        assert coin is not None
        if coin.purpose != purpose:
            raise ProtocolViolation("order", f"commitment for {purpose} while tossing for {coin.purpose}")
        if coin.their_commit is not None:
            raise ProtocolViolation("coin", "a second commitment for one coin")
        if their_commit == coin.my_commit:
            raise ProtocolViolation("coin", "the peer echoed our commitment")
        coin.their_commit = their_commit
        self._send({"t": "reveal", "for": purpose, "s": coin.my_secret})

    def _on_reveal(self, msg: dict) -> None:
        coin = self._coin
        purpose = msg["for"]
        if coin is None and self.game is not None and self.game.resigned is not None and purpose >= 0:
            return  # a coin the resignation made moot
        if coin is None or coin.purpose != purpose or coin.their_commit is None:
            raise ProtocolViolation("order", f"reveal before commit (coin {purpose})")
        if coin.their_secret is not None:
            raise ProtocolViolation("coin", "a second reveal for one coin")
        assert self.peer is not None
        if commitment(self.peer.peer_id, msg["s"]) != coin.their_commit:
            raise ProtocolViolation("coin", "the peer's reveal does not match its commitment")
        coin.their_secret = msg["s"]
        self._coin = None
        mine_first = self.role is Role.HOST
        host_s, join_s = (coin.my_secret, coin.their_secret) if mine_first else (coin.their_secret, coin.my_secret)
        host_c, join_c = (coin.my_commit, coin.their_commit) if mine_first else (coin.their_commit, coin.my_commit)
        digest = coin_digest(purpose, host_s, join_s)
        if purpose == -1:
            self._start_game(digest)
            return
        game = self.game
        assert game is not None
        game.coins[purpose] = (host_c, join_c, host_s, join_s)
        move = Move(game.state.turn, DRAW, draw_from_coin(digest, game.state))
        game.push(move)
        n = game.state.ply
        game.note(f"coin {purpose} -> {move}")
        by_peer = move.player != game.color_of(self.role)
        if not by_peer:
            self._send({"t": "draw", "ply": n, "m": str(move), "hash": game.hashes[n], "s": [host_s, join_s]})
        self._after_move(move, by_peer=by_peer)

    def _start_game(self, digest: bytes) -> None:
        game_id, host_color, red, white = setup_from_coin(digest)
        assert self.peer is not None
        host_name, join_name = ((self.name, self.peer.peer_name) if self.role is Role.HOST
                                else (self.peer.peer_name, self.name))
        red_name, white_name = (host_name, join_name) if host_color is Color.RED else (join_name, host_name)
        self.game = LanGame(game_id, host_color, red_name, white_name, self.date, State(red, white))
        self.game.note(f"new game {game_id.hex()}: host plays {host_color}")
        self.phase = Phase.PLAYING
        self.acked_ply = 0
        self._catch_up_to = 0
        self._events.append(GameStarted(self.game, self.game.color_of(self.role), False))

    def _after_move(self, move: Move, by_peer: bool) -> None:
        game = self.game
        assert game is not None
        self._events.append(MoveMade(move, game.state.ply, by_peer))
        outcome = game.state.outcome()
        if outcome is not None:
            why = ("all 52 stones are on the board" if outcome.termination.name == "STONES"
                   else "neither player can move")
            self._events.append(GameOver("finished", outcome.winner, why))

    def _on_move(self, msg: dict) -> None:
        self._receive_move(msg, None)

    def _on_draw(self, msg: dict) -> None:
        self._receive_move(msg, msg["s"])

    def _receive_move(self, msg: dict, secrets_: list[bytes] | None) -> None:
        if self.phase is not Phase.PLAYING:
            raise ProtocolViolation("order", f"a move during the {self.phase.value} phase")
        game = self.game
        assert game is not None
        try:
            move = Move.from_str(msg["m"])
        except InvalidMoveError as e:
            raise ProtocolViolation("schema", f"move: {e}") from None
        ply, their_hash = msg["ply"], msg["hash"]
        n = game.state.ply
        game.note(f"got {msg['t']} {ply} {move}")
        if ply <= n:  # a repeat: identical -> acknowledge again; different -> desync
            if str(game.state.move_stack[ply - 1]) != str(move) or game.hashes[ply] != their_hash:
                self._abort("desync", f"ply {ply} differs: we have {game.state.move_stack[ply - 1]}, "
                            f"the peer sent {move}", ply, their_hash)
            self._send({"t": "ack", "ply": ply, "hash": game.hashes[ply]})
            return
        if ply > n + 1:
            raise ProtocolViolation("order", f"gap in plies: got ply {ply}, expected {n + 1}")
        if self._coin is not None:
            raise ProtocolViolation("order", f"a move while the draw at ply {self._coin.purpose} is decided")
        catching_up = ply <= self._catch_up_to
        peer_color = game.color_of(self.role.other)
        if game.resigned is not None:
            return  # crossed a resignation on the wire: the game ended before this move
        if game.over:
            self._abort("illegal", f"refused {move}: the game is already over", ply)
        if not catching_up and move.player != peer_color:
            self._abort("illegal", f"refused {move}: the peer plays {peer_color}", ply)
        if move.kind is DRAW:
            self._check_draw(move, n, secrets_, catching_up)
        try:
            game.push(move)
        except IllegalMoveError as e:
            self._abort("illegal", f"refused the peer's move: {e}", ply)
        if game.hashes[ply] != their_hash:
            game.pop()
            self._abort("desync", f"desync after {move}: the state hashes differ at ply {ply}", ply, their_hash)
        self._send({"t": "ack", "ply": ply, "hash": their_hash})
        self._after_move(move, by_peer=True)

    def _check_draw(self, move: Move, purpose: int, secrets_: list[bytes] | None, catching_up: bool) -> None:
        game = self.game
        assert game is not None
        if secrets_ is None:
            if not catching_up:
                self._abort("illegal", f"refused {move}: a draw must go through the joint coin", purpose + 1)
            return  # a peer that lost its coin memory re-sends a plain move; the engine checks it
        host_s, join_s = secrets_
        known = game.coins.get(purpose)
        if known is not None:
            host_c, join_c = known[0], known[1]
            assert self.peer is not None
            mine, theirs = (host_s, join_s) if self.role is Role.HOST else (join_s, host_s)
            my_c, their_c = (host_c, join_c) if self.role is Role.HOST else (join_c, host_c)
            if commitment(self.peer_id, mine) != my_c or commitment(self.peer.peer_id, theirs) != their_c:
                self._abort("desync", f"the draw at ply {purpose + 1} does not match the coin's commitments",
                            purpose + 1)
        if move.card is None or draw_from_coin(coin_digest(purpose, host_s, join_s), game.state) != move.card:
            self._abort("desync", f"the draw at ply {purpose + 1} does not follow from the coin", purpose + 1)

    def _on_ack(self, msg: dict) -> None:
        game = self.game
        if self.phase is not Phase.PLAYING or game is None:
            raise ProtocolViolation("order", "an ack outside a game")
        ply = msg["ply"]
        if ply > game.state.ply:
            raise ProtocolViolation("order", f"ack of ply {ply}, which was never made")
        if game.hashes[ply] != msg["hash"]:
            self._abort("desync", f"the peer's position after ply {ply} differs from ours", ply, msg["hash"])
        if ply > self.acked_ply:
            self.acked_ply = ply
            self._events.append(Acked(ply))

    def _on_resign(self, msg: dict) -> None:
        game = self.game
        if self.phase is not Phase.PLAYING or game is None:
            raise ProtocolViolation("order", "resign outside a game")
        peer_color = game.color_of(self.role.other)
        if game.resigned == peer_color:
            return  # a repeat
        if game.over:
            return  # the game ended first; nothing to resign
        if msg["ply"] > game.state.ply:
            raise ProtocolViolation("order", f"resignation at ply {msg['ply']}, the game is at ply {game.state.ply}")
        while game.state.ply > max(msg["ply"], self.acked_ply):
            game.pop()  # our moves that crossed the resignation on the wire are void
        game.resigned = peer_color
        self._coin = None
        game.note(f"peer resigned at ply {msg['ply']}")
        self._events.append(GameOver("resigned", peer_color.other, f"{peer_color} resigned"))

    def _on_rematch(self, msg: dict) -> None:
        game = self.game
        if self.phase is not Phase.PLAYING or game is None or not game.over:
            raise ProtocolViolation("order", "a rematch offer while a game is on")
        if self._rematch_received:
            return
        self._rematch_received = True
        self._events.append(RematchOffered())
        if self._rematch_sent:
            self._begin_setup()
