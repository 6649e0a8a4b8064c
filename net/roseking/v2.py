"""Rose King's LAN protocol (version 2) as a pure state machine (docs/protocol.md).

Built the way h11 is: a :class:`Connection` consumes bytes and returns events, and
local actions queue bytes; it never touches a socket, a thread or the clock. Time
comes in through :meth:`Connection.tick`. One ``Connection`` lives for one TCP
connection; the :class:`~net.journal.Journal` it is given (this peer's seat, its coin
promises, its own moves, and the live :class:`LanGame`) outlives it, so a protocol
error or a dropped connection closes the connection but keeps the game, and the next
connection resumes it once the peer has proved its seat.

Trust rules (issue 14): neither peer is trusted. Every chance outcome (colours and
deal, every draw) comes from a commit-reveal coin both peers took part in; a peer's
promises go into its journal before they are sent, so a coin is never tossed anew;
a new connection takes a seat back only with that seat's resume secret; catch-up and
copies of the game are checked move by move, coin by coin, against the journal.

Usage (the transport does this; tests do it with two objects and no socket)::

    host = Connection(Role.HOST, "Alice", now=0.0)
    join = Connection(Role.JOIN, "Bob", now=0.0)
    events = join.receive_data(host.data_to_send())   # Handshake, Seated, then the coin...
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

from game import __version__ as APP_VERSION
from game.rng import Rng
from game.roseking.engine import DRAW, Color, IllegalMoveError, InvalidMoveError, Move, Record, State
from game.roseking.engine.record import VERSION as RECORD_VERSION

from .. import PROTOCOL_NAME, PROTOCOL_VERSION
from ..coin import (GAME_LABEL, CoinEntry, coin_digest, commitment, game_id_from, proof_ok,
                   seat_proof)
from ..framing import MAX_NAME, SCHEMAS, FrameDecoder, FrameError, encode_frame
from ..journal import Journal
from ..limits import HANDSHAKE_TIMEOUT, RATES, RateLimiter, name_problem
from ..match import Owed, forfeit_claim_ok, stop_verdict
from .match import draw_from_coin, setup_from_coin

__all__ = ["HEARTBEAT", "TIMEOUT", "REVEAL_TIMEOUT", "COMMIT_TIMEOUT", "FORFEIT_TIMEOUT", "HANDSHAKE_TIMEOUT",
           "PING_FLOOD", "FATAL_CODES", "Role", "Phase", "LanGame", "Handshake", "Seated", "GameStarted",
           "MoveMade", "DrawStarted", "Acked", "GameOver", "Desync", "RematchOffered", "Closed", "Event",
           "Connection", "setup_from_coin", "draw_from_coin", "forfeit_due", "apply_forfeit", "Rng"]

HEARTBEAT = 2.0  #: seconds of sending nothing before a ping
TIMEOUT = 6.0  #: seconds without a whole message from the peer before the connection counts as interrupted
COMMIT_TIMEOUT = 6.0  #: seconds a coin may wait for the peer's commitment (then: interrupted)
REVEAL_TIMEOUT = 10.0  #: seconds, connected, from our reveal to the peer's: then the peer forfeits
FORFEIT_TIMEOUT = 60.0  #: seconds from our reveal, connected or not, after which a withheld reveal forfeits
PING_FLOOD = int(RATES["ping"][0])  #: pings tolerated at once (then 30 a second)
LOG_LINES = 400  #: protocol log lines kept per game for desync diagnosis

#: Closing codes after which reconnecting cannot help (the game is over, or another game or seat).
FATAL_CODES = frozenset({"version", "illegal", "desync", "game", "coin", "self", "role", "seat", "forfeit", "sync"})


class Role(str, Enum):
    """Which side opened the game: the host listens (seat 0), the joiner connects (seat 1)."""

    HOST = "host"
    JOIN = "join"

    @property
    def other(self) -> "Role":
        return Role.JOIN if self is Role.HOST else Role.HOST

    @property
    def seat(self) -> int:
        return 0 if self is Role.HOST else 1


class Phase(Enum):
    HELLO = "hello"  # waiting for the peer's hello
    AUTH = "auth"  # same game: waiting for the peer's seat proof
    SETUP = "setup"  # the joint coin for colours and the deal
    SYNC = "sync"  # waiting for the peer's copy of a game whose moves we do not hold
    PLAYING = "playing"  # a game exists (it may be over: then rematch offers)
    CLOSED = "closed"


Transcript = tuple[bytes, bytes, bytes, bytes]  # host commit, joiner commit, host secret, joiner secret


# --------------------------------------------------------------------------- the game
@dataclass
class LanGame:
    """A LAN game that outlives connections.

    ``hashes[i]`` is the state hash (32 bytes) after ply ``i`` (``hashes[0]``: the deal).
    ``coins[p]`` is the transcript of coin ``p`` (-1 the set-up, else the ply of a draw):
    ``(host commitment, joiner commitment, host secret, joiner secret)``. ``resigned`` /
    ``forfeited``: the colour that resigned or forfeited (the game ended at ``end_ply``).
    ``aborted`` holds the reason when the game was stopped (illegal move, desync, a false
    claim): it cannot resume.
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
    coins: dict[int, Transcript] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    forfeited: Color | None = None
    end_ply: int | None = None
    end_reason: str = ""
    #: ``"illegal"``/``"desync"`` once the game was stopped (with ``aborted``): kept in the record
    stopped: str = ""

    def __post_init__(self) -> None:
        if not self.hashes:
            self.hashes = [bytes.fromhex(self.state.state_hash())]

    def color_of(self, role: Role) -> Color:
        return self.host_color if role is Role.HOST else self.host_color.other

    @property
    def over(self) -> bool:
        return (self.state.is_game_over() or self.resigned is not None or self.forfeited is not None
                or self.aborted is not None)

    def winner(self) -> Color | None:
        """The winner once over: the opponent of who resigned or forfeited, or the engine's verdict."""
        loser = self.resigned if self.resigned is not None else self.forfeited  # (red is 0: never `or`)
        if loser is not None:
            return loser.other
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
                       list(self.log), self.forfeited, self.end_ply, self.end_reason, self.stopped)

    def note(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]

    def record(self) -> Record:
        """The game record (docs/record-format.md) with a ``"lan"`` key (game id in hex, the
        host's colour, who resigned or forfeited) and, for a resigned or forfeited game, the
        ``"termination"`` and ``"result"`` that make it a finished game. Both peers' records
        of a game are identical."""
        rec = Record.from_state(self.state, red=self.red_name, white=self.white_name, date=self.date or None)
        rec.extra["lan"] = {"game": self.game_id.hex(), "host": str(self.host_color),
                            "resigned": "" if self.resigned is None else str(self.resigned),
                            "forfeit": "" if self.forfeited is None else str(self.forfeited)}
        if self.aborted is not None:  # a stopped game stays stopped after a restart (issue 33, 4)
            rec.extra["lan"]["stopped"] = self.stopped or "illegal"
        loser = self.resigned if self.resigned is not None else self.forfeited
        if loser is not None and not self.state.is_game_over():
            rec.set_termination("resigned" if self.resigned is not None else "forfeit", loser, self.state)
        return rec

    @classmethod
    def from_record(cls, record: Record, journal: Journal | None = None) -> "LanGame":
        """Rebuild a game from its record (written by :meth:`record`); with this peer's
        ``journal``, the coin transcripts come back too (so catch-up can send draws).

        Raises RecordError for a bad record, ValueError if it is not a LAN record or does
        not belong to the journal's game.
        """
        lan = record.extra.get("lan")
        if not isinstance(lan, dict) or not isinstance(lan.get("game"), str):
            raise ValueError("not a LAN game record (no \"lan\" key)")
        try:
            game_id = bytes.fromhex(lan["game"])
            host = Color.from_name(lan.get("host"))
            resigned = lan.get("resigned") or ""
            forfeit = lan.get("forfeit") or ""
            resigned_color = Color.from_name(resigned) if resigned else None
            forfeit_color = Color.from_name(forfeit) if forfeit else None
            stopped = lan.get("stopped", "")
            if stopped not in ("", "illegal", "desync"):
                raise ValueError(f"stopped must be \"\", \"illegal\" or \"desync\", not {str(stopped)[:20]!r}")
        except (ValueError, TypeError, AttributeError) as e:
            raise ValueError(f"bad \"lan\" key in the record: {e}") from None
        if len(game_id) != 16:
            raise ValueError("bad \"lan\" key in the record: the game id must be 16 bytes")
        if journal is not None and journal.game_id != game_id:
            raise ValueError("the record and the journal are of different games")
        game = cls(game_id, host, record.red or "red", record.white or "white", record.date or "",
                   record.new_state())
        for text in record.moves:
            game.push(Move.from_str(text))
        if journal is not None:
            for p, entry in journal.coins.items():
                if entry.done and entry.their_commit is not None and entry.their_secret is not None:
                    game.coins[p] = _transcript(journal.seat, entry)
        game.resigned, game.forfeited = resigned_color, forfeit_color
        if stopped:
            game.stopped, game.aborted = stopped, f"the game was stopped ({stopped})"
        if resigned_color is not None or forfeit_color is not None:
            game.end_ply = game.state.ply
        return game


def _transcript(seat: int, entry: CoinEntry) -> Transcript:
    assert entry.their_commit is not None and entry.their_secret is not None
    if seat == 0:
        return entry.my_commit, entry.their_commit, entry.my_secret, entry.their_secret
    return entry.their_commit, entry.my_commit, entry.their_secret, entry.my_secret


def forfeit_due(journal: Journal, now: float, limit: float = FORFEIT_TIMEOUT) -> str | None:
    """Why the peer forfeits now, or None: a draw's coin for which we sent our reveal at
    ``revealed_at`` and the peer's reveal has not come within ``limit`` seconds (connected or
    not: dropping the connection does not escape it). Pure; the transport calls it while
    no connection is seated."""
    game = journal.game
    entry = journal.open_coin()
    if game is None or game.over or entry is None or entry.purpose < 0 or entry.revealed_at is None:
        return None
    if now - entry.revealed_at < limit:
        return None
    return f"the peer withheld its reveal for the draw at ply {entry.purpose + 1} for {limit:g} seconds"


def apply_forfeit(journal: Journal, loser: Color, reason: str) -> None:
    """End the journal's game by forfeit of ``loser`` at its current ply."""
    game = journal.game
    assert game is not None
    game.forfeited, game.end_ply, game.end_reason = loser, game.state.ply, reason
    game.note(f"forfeit by {loser}: {reason}")


# --------------------------------------------------------------------------- events
@dataclass(frozen=True)
class Handshake:
    """The peer said hello with compatible versions (its seat is not proved yet)."""

    peer_name: str
    peer_role: Role
    peer_id: bytes
    peer_app: str


@dataclass(frozen=True)
class Seated:
    """The peer holds the other seat: a new game was agreed, or it proved its resume secret."""

    resumed: bool


@dataclass(frozen=True)
class GameStarted:
    """A game is on: new from the coin (``resumed`` False), resumed, or (``adopted``) rebuilt
    from the peer's checked copy; a window asks its player before going on with an adopted game."""

    game: LanGame
    color: Color
    resumed: bool
    adopted: bool = False


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
    """The peer confirmed ply ``ply`` with the same state hash."""

    ply: int


@dataclass(frozen=True)
class GameOver:
    """The game ended: ``kind`` is ``"finished"``, ``"resigned"``, ``"forfeit"``, ``"illegal"`` or
    ``"desync"``; ``winner`` is None for a draw or a stopped game; ``reason`` is for people (English,
    for logs and records). ``ply``: for a stopped game (``illegal``, ``desync``) the number of the
    move where it stopped as the players count them (the Nth move of the game, passes not counted,
    draws counted, as the move log numbers its rows: a refused move is the one after the last
    move played), 0 if unknown or for other kinds."""

    kind: str
    winner: Color | None
    reason: str
    ply: int = 0


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


Event = (Handshake | Seated | GameStarted | MoveMade | DrawStarted | Acked | GameOver | Desync | RematchOffered
         | Closed)


class ProtocolViolation(Exception):
    """Internal: the peer broke the protocol; carries the closing code."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code


# --------------------------------------------------------------------------- connection
class Connection:
    """One connection's protocol state machine. Not thread-safe; no I/O.

    ``role``: HOST or JOIN. ``name``: this player's name (1..32 characters, no control,
    bidi or zero-width characters; else ValueError). ``journal``: this seat's
    :class:`~net.journal.Journal` shared by every connection of the session (a fresh one
    if None); ``game``: shorthand to put a game in a fresh journal (tests). ``date``: this
    side's ISO date (the host's becomes a new game's record date). ``now``: the clock, in
    seconds, of the caller's choosing (monotonic). ``token_bytes``: the source of secrets,
    nonces and keys (``secrets.token_bytes``; tests may pass their own).
    """

    def __init__(self, role: Role, name: str, *, journal: Journal | None = None, game: LanGame | None = None,
                 peer_id: bytes | None = None, date: str = "", now: float = 0.0,
                 token_bytes: Callable[[int], bytes] = secrets.token_bytes, colour: str = "") -> None:
        why = name_problem(name, MAX_NAME)
        if why:
            raise ValueError(f"a player name {why} (1..{MAX_NAME} printable characters), got {name!r:.80}")
        self.role = Role(role)
        if colour not in ("", "red", "white") or (colour and self.role is not Role.HOST):
            raise ValueError(f"only the host chooses a colour (red, white or \"\" for random), got {colour!r:.20}")
        self.seat, self.peer_seat = self.role.seat, self.role.other.seat
        self.name = name
        #: the host's colour choice offered for a new game ("" = random); the joiner sends ""
        self.colour = colour
        self.journal = journal if journal is not None else Journal()
        if game is not None:
            self.journal.game = game
        self._token = token_bytes
        self.peer_id = peer_id or token_bytes(16)
        self.nonce = token_bytes(16)
        self._new_key = token_bytes(32)
        self.date = date
        self.phase = Phase.HELLO
        self.peer: Handshake | None = None
        self.closed: Closed | None = None
        self.seated = False
        #: False when another connection holds the seat: then only a seat proof is accepted
        self.allow_new_game = True
        self.acked_ply = 0
        self._decoder = FrameDecoder(SCHEMAS)
        self._limiter = RateLimiter(RATES, now)
        self._out = bytearray()
        self._events: list[Event] = []
        self._now = now
        self._started = now
        self._last_sent = now
        self._last_recv = now
        self._coin: CoinEntry | None = None
        self._coin_started = now
        self._sent: set[tuple[str, int]] = set()
        self._got: set[tuple[str, int]] = set()
        self._their_hello: dict | None = None
        self._catch_up_to = 0
        self._catch_up_hash = b""
        self._rematch_sent = False
        self._rematch_received = False
        j, g = self.journal, self.journal.game
        self._send({"t": "hello", "proto": PROTOCOL_NAME, "pv": PROTOCOL_VERSION, "app": APP_VERSION[:32],
                    "rec": RECORD_VERSION, "name": name, "peer": self.peer_id, "role": self.role.value,
                    "date": date[:32], "nonce": self.nonce, "key": self._new_key, "game": j.game_id,
                    "ply": g.state.ply if g else 0, "hash": g.hashes[-1] if g else b"",
                    "over": bool(g is not None and g.over), "colour": colour})

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> LanGame | None:
        """The journal's game (shared with every connection of the session), or None."""
        return self.journal.game

    @property
    def color(self) -> Color | None:
        """This side's colour in the current game, or None before there is one."""
        g = self.journal.game
        return None if g is None else g.color_of(self.role)

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

        A frame or message that breaks the protocol closes the connection: an ``error``
        message is queued and a :class:`Closed` event returned. Only whole messages count
        as hearing from the peer (a peer trickling bytes times out).
        """
        if self.phase is Phase.CLOSED:
            return self._take()
        if not data:
            reason = ("the connection closed in the middle of a frame" if self._decoder.pending
                      else "the peer closed the connection")
            self._close("eof", reason, by_peer=True, send=False)
            return self._take()
        try:
            messages = self._decoder.feed(data)
        except FrameError as e:
            self._close(e.code, str(e), by_peer=False)
            return self._take()
        for msg in messages:
            if self.phase is Phase.CLOSED:
                break
            self._last_recv = self._now
            try:
                if not self._limiter.allow(msg["t"], self._now):
                    raise ProtocolViolation("flood", f"too many {msg['t']!r} messages (rate limit)")
                self._handle(msg)
            except (ProtocolViolation, FrameError) as e:
                self._close(e.code, str(e), by_peer=False)
        return self._take()

    def tick(self, now: float) -> list[Event]:
        """Advance the clock to ``now`` (seconds). In order: close if the seat is not settled
        :data:`HANDSHAKE_TIMEOUT` seconds after connecting, or nothing whole was heard for
        :data:`TIMEOUT` seconds; the peer forfeits if its reveal is :data:`REVEAL_TIMEOUT`
        seconds later than ours; close as ``withheld`` if its commitment is
        :data:`COMMIT_TIMEOUT` seconds late; send a heartbeat after :data:`HEARTBEAT` idle seconds."""
        self._now = now
        if self.phase is Phase.CLOSED:
            return self._take()
        coin, game = self._coin, self.game
        if not self.seated and now - self._started >= HANDSHAKE_TIMEOUT:
            self._close("timeout", f"no handshake within {HANDSHAKE_TIMEOUT:g} seconds", by_peer=False)
        elif now - self._last_recv >= TIMEOUT:
            self._close("timeout", f"no word from the peer for {TIMEOUT:g} seconds", by_peer=False, send=False)
        elif (coin is not None and coin.revealed_at is not None and coin.their_secret is None
              and now - coin.revealed_at >= REVEAL_TIMEOUT):
            reason = f"the peer withheld its reveal for {REVEAL_TIMEOUT:g} seconds"
            if coin.purpose >= 0 and game is not None and not game.over:
                self._forfeit_peer(reason)
            else:
                self._close("withheld", reason, by_peer=False)
        elif coin is not None and coin.their_commit is None and now - self._coin_started >= COMMIT_TIMEOUT:
            self._close("withheld", f"the peer withheld its commitment for {COMMIT_TIMEOUT:g} seconds",
                        by_peer=False)
        elif now - self._last_sent >= HEARTBEAT:
            self._send({"t": "ping"})
        return self._take()

    # ------------------------------------------------------------------ local actions
    def play(self, move: Move) -> list[Event]:
        """Play the local player's move. A draw is passed as ``Move(color, DRAW, None)``: it
        starts a coin (our commitment is journaled, then sent) and the card arrives later in
        a :class:`MoveMade`. Another move is journaled as ours, then sent as ``move``.

        Raises IllegalMoveError (the engine's reason, or not our turn / a draw already in
        progress / catching up); nothing is sent then.
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
        reason = state.illegal_reason(move)
        if reason:
            raise IllegalMoveError(f"{move}: {reason}")
        ply = state.ply + 1
        self.journal.own[ply] = str(move)
        self.journal.save()  # before the move leaves: it is ours
        game.push(move)
        game.note(f"sent move {ply} {move}")
        self._send({"t": "move", "ply": ply, "m": str(move), "hash": game.hashes[ply]})
        self._after_move(move, by_peer=False)
        return self._take()

    def resign(self) -> list[Event]:
        """Resign the current game at the ply this side holds (the peer wins). Raises
        ValueError if it is already over."""
        game = self._require_game()
        if game.over:
            raise ValueError("the game is already over")
        me = game.color_of(self.role)
        self.journal.resigned_at = game.state.ply
        self.journal.save()
        game.resigned, game.end_ply = me, game.state.ply
        game.end_reason = f"{me} resigned"
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
                self._begin_rematch()
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
        self._out += encode_frame(msg, SCHEMAS)
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
        """Stop the game for an illegal move or a desync, tell the peer, close. ``ply``: the
        number of the move at fault (a refused move: the one after the last played) or, for a
        desync, of the move after which the copies differ (see :class:`GameOver`)."""
        game = self.game
        assert game is not None
        game.aborted, game.stopped = reason, kind
        self._events.append(GameOver(kind, None, reason, ply))
        if kind == "desync":
            self._events.append(Desync(ply, self._diagnosis(ply, peer_hash, reason)))
        raise ProtocolViolation(kind, reason)

    def _forfeit_peer(self, reason: str) -> None:
        """The peer cheated with a coin or withheld its reveal: it loses by forfeit; close."""
        game = self.game
        assert game is not None
        loser = game.color_of(self.role.other)
        apply_forfeit(self.journal, loser, reason)
        self._events.append(GameOver("forfeit", loser.other, f"{loser} forfeits: {reason}"))
        self._close("forfeit", reason, by_peer=False)

    def _cheat(self, purpose: int, reason: str) -> None:
        if purpose >= 0 and self.game is not None and not self.game.over:
            self._forfeit_peer(reason)
            raise ProtocolViolation("forfeit", reason)  # unwinds; _close already ran
        raise ProtocolViolation("coin", reason)

    def _diagnosis(self, ply: int, peer_hash: bytes | None, reason: str) -> str:
        game = self.game
        assert game is not None
        lines = [f"Rose King LAN desync report ({self.role.value} side, {self.name})",
                 f"game {game.game_id.hex()} ply {ply}: {reason}",
                 f"peer hash: {peer_hash.hex() if peer_hash else '-'}", "", "moves (ply, move, hash after):"]
        lines += [f"{i} {m} {game.hashes[i].hex()}" for i, m in enumerate(game.state.move_stack, 1)]
        lines += ["", "position:", game.state.board_text(), "", "protocol log:"] + game.log
        return "\n".join(lines) + "\n"

    def _seat(self, resumed: bool) -> None:
        self.seated = True
        self._events.append(Seated(resumed))

    # ------------------------------------------------------------------ coins
    def _start_coin(self, purpose: int, their_commit: bytes | None = None) -> None:
        """Open (or, after a reconnection, re-open) our side of coin ``purpose``: the secret
        and commitment (and ``their_commit``, when the peer opened the coin) are journaled,
        in one write, before the commitment is sent; an existing entry is never replaced
        (no re-roll)."""
        j = self.journal
        entry = j.coins.get(purpose)
        if entry is None:
            secret = self._token(32)
            entry = CoinEntry(purpose, secret, commitment(j.game_id, purpose, self.seat, secret))
            mine = entry.my_commit
            entry.their_commit = their_commit if their_commit is not None and their_commit != mine else None
            j.coins[purpose] = entry
            j.save()
        self._coin = entry
        self._coin_started = self._now
        self._send_commit(entry)
        if entry.their_commit is not None:
            self._send_reveal(entry)

    def _send_commit(self, entry: CoinEntry) -> None:
        if ("commit", entry.purpose) not in self._sent:
            self._sent.add(("commit", entry.purpose))
            self._send({"t": "commit", "for": entry.purpose, "c": entry.my_commit})

    def _send_reveal(self, entry: CoinEntry) -> None:
        if ("reveal", entry.purpose) not in self._sent:
            self._sent.add(("reveal", entry.purpose))
            if entry.revealed_at is None:
                entry.revealed_at = self._now
            self._send({"t": "reveal", "for": entry.purpose, "s": entry.my_secret})

    def _resume_open_coin(self) -> None:
        """After catch-up: finish the coin this side committed to at the current ply, if any."""
        game = self.game
        entry = self.journal.open_coin()
        if entry is None or game is None or game.over:
            return
        if entry.purpose == game.state.ply:
            self._start_coin(entry.purpose)
            self._events.append(DrawStarted(game.state.turn, entry.purpose))

    def _begin_setup(self) -> None:
        self.phase = Phase.SETUP
        self._rematch_sent = self._rematch_received = False
        self._start_coin(-1)

    def _begin_rematch(self) -> None:
        j = self.journal
        new_id = hashlib.sha256(GAME_LABEL + j.game_id + b"rematch").digest()[:16]
        j.reset(new_id, self.seat, j.key, j.peer_key)
        self._sent.clear()
        self._got.clear()
        self._begin_setup()

    # ------------------------------------------------------------------ message handlers
    def _handle(self, msg: dict) -> None:
        t = msg["t"]
        if t == "error":
            self._on_error(msg)
            return
        if t == "ping":
            return
        if self.phase is Phase.HELLO:
            if t != "hello":
                raise ProtocolViolation("order", f"{t!r} message before the handshake")
            self._on_hello(msg)
            return
        if t == "hello":
            raise ProtocolViolation("order", "a second handshake on one connection")
        if self.phase is Phase.AUTH and t != "auth":
            raise ProtocolViolation("order", f"{t!r} message before the seat proof")
        getattr(self, "_on_" + t)(msg)

    def owed(self) -> list[Owed]:
        """Who owes a reveal right now (:class:`net.match.Owed`, seats 0 host / 1 joiner), the
        ground of every forfeit (docs/protocol.md, "The forfeit rule"):

        - the peer owes its reveal of the draw's coin at the current ply once we hold its
          commitment and not its secret (we journal its commitment and send our reveal in one
          step, so it has what it needs to know the card);
        - we owe ours for our own last draw only while the peer has not acknowledged it (it
          may never have got our reveal); an acknowledged draw owes nothing.

        The set-up coin owes nothing here (there is no game to forfeit yet)."""
        game, j = self.game, self.journal
        if game is None or game.over:
            return []
        out: list[Owed] = []
        entry = j.coins.get(game.state.ply)
        if entry is not None and entry.their_commit is not None and entry.their_secret is None:
            since = entry.revealed_at if entry.revealed_at is not None else self._coin_started
            out.append(Owed(self.peer_seat, "reveal", entry.purpose, self.seat, since, REVEAL_TIMEOUT,
                            FORFEIT_TIMEOUT, True))
        n = game.state.ply
        last = game.state.move_stack[-1] if n else None
        if (last is not None and last.kind is DRAW and last.player == game.color_of(self.role)
                and (n - 1) in game.coins and self.acked_ply < n):
            out.append(Owed(self.seat, "reveal", n - 1, self.peer_seat, self._now, REVEAL_TIMEOUT, FORFEIT_TIMEOUT,
                            True))
        return out

    def _on_error(self, msg: dict) -> None:
        code, reason = msg["code"][:32], msg["reason"]
        game = self.game
        # the move the peer stopped at, as we count (its text may lie): our draw being tossed, else our last move
        at = (game.state.ply + (1 if self._coin is not None else 0)) if game is not None else 0
        owed = self.owed()  # judged on what was owed when the stop came
        self._close(code, reason, by_peer=True, send=False)
        if game is None or game.over:
            return
        if stop_verdict(owed, self.peer_seat, code, game.state.ply) is not None:
            # it stopped (any code: a forfeit claim, illegal, desync, bye...) while it owed its
            # reveal, having seen ours: that is its forfeit, whatever it says (issue 33, 1a and 2)
            loser = game.color_of(self.role.other)
            why = f"the peer stopped ({code}) while it owed its reveal for the draw at ply {game.state.ply + 1}"
            apply_forfeit(self.journal, loser, why)
            self._events.append(GameOver("forfeit", loser.other, f"{loser} forfeits: {why}"))
            return
        if code in ("illegal", "desync"):
            game.aborted, game.stopped = f"the peer stopped the game: {reason}", code
            self._events.append(GameOver(code, None, game.aborted, at))
            if code == "desync":
                self._events.append(Desync(game.state.ply, self._diagnosis(game.state.ply, None, reason)))
        elif code == "forfeit" and self.seated:
            me = game.color_of(self.role)
            if forfeit_claim_ok(owed, self.seat, self.peer_seat):
                # our own last draw, never acknowledged: the peer may never have got our reveal,
                # so for it that draw never happened
                game.pop()
                game.coins.pop(game.state.ply, None)
                self.journal.coins.pop(game.state.ply, None)
                apply_forfeit(self.journal, me, reason)
                self._events.append(GameOver("forfeit", me.other, f"{me} forfeits: {reason}"))
            else:
                game.aborted = f"the peer claims that we forfeited, but we owed it no reveal: {reason}"
                game.stopped = "illegal"
                self._events.append(GameOver("illegal", None, game.aborted))

    def _on_hello(self, msg: dict) -> None:
        if msg["role"] == self.role.value:
            raise ProtocolViolation("self" if msg["peer"] == self.peer_id else "role",
                                    f"both sides are {self.role.value}s")
        if msg["peer"] == self.peer_id or msg["nonce"] == self.nonce:
            raise ProtocolViolation("self", "the peer uses our own peer id")
        if msg["colour"] and msg["role"] != Role.HOST.value:
            raise ProtocolViolation("schema", "hello: only the host chooses a colour")
        self.peer = Handshake(msg["name"], Role(msg["role"]), msg["peer"], msg["app"])
        self._events.append(self.peer)
        if self.role is Role.JOIN:
            self.date = msg["date"]  # a new game takes the host's date
        self._their_hello = msg
        j, g = self.journal, self.game
        mine, theirs = j.game_id, msg["game"]
        if mine and theirs == mine:
            self.phase = Phase.AUTH
            self._send({"t": "auth", "proof": seat_proof(j.key, mine, self.seat, msg["nonce"])})
            return
        mine_open = bool(mine) and not (g is not None and g.over)
        theirs_open = bool(theirs) and not msg["over"]
        if mine_open and theirs_open:
            raise ProtocolViolation("game", "the peer is in the middle of another game")
        if mine_open:
            raise ProtocolViolation("seat", "this seat is taken: the game under way belongs to another player, "
                                    "and only that player's program can take its seat back")
        if theirs_open:
            raise ProtocolViolation("seat", "the peer is in the middle of a game this side has no seat in")
        if not self.allow_new_game:
            raise ProtocolViolation("seat", "this seat is taken: the host is connected to another player")
        nonces = (self.nonce, msg["nonce"]) if self.role is Role.HOST else (msg["nonce"], self.nonce)
        j.reset(game_id_from(nonces), self.seat, self._new_key, msg["key"])
        j.host_colour = self.colour if self.role is Role.HOST else msg["colour"]  # fixed before any commitment
        self._seat(resumed=False)
        self._begin_setup()

    def _on_auth(self, msg: dict) -> None:
        if self.phase is not Phase.AUTH:
            raise ProtocolViolation("order", "a seat proof that was not asked for")
        j = self.journal
        if not proof_ok(j.peer_key, j.game_id, self.peer_seat, self.nonce, msg["proof"]):
            raise ProtocolViolation("seat", "the connection could not prove that it holds the other seat of "
                                    "this game (wrong resume secret)")
        self._seat(resumed=True)
        assert self._their_hello is not None
        self._resume(self._their_hello)

    def _resume(self, hello: dict) -> None:
        j, game = self.journal, self.game
        their_ply, their_hash = hello["ply"], hello["hash"]
        if game is None:
            if their_hash:
                self.phase = Phase.SYNC  # the peer holds the moves we lack: it sends its checked copy
            else:
                self.phase = Phase.SETUP  # neither holds the moves: the set-up coin is still open
                self._start_coin(-1)
            return
        self.phase = Phase.PLAYING
        color = game.color_of(self.role)
        ply = game.state.ply
        game.note(f"resume: our ply {ply}, the peer's {their_ply if their_hash else 'none (sync)'}")
        if not their_hash:
            self._events.append(GameStarted(game, color, True))
            self._send_sync()
            self.acked_ply = ply
        else:
            self._events.append(GameStarted(game, color, True))
            if game.forfeited == color.other:
                for n in range(min(their_ply, ply) + 1, ply + 1):
                    self._send_move(n)
                raise ProtocolViolation("forfeit", game.end_reason or "the peer forfeited")
            if their_ply <= ply:
                if game.hashes[their_ply] != their_hash:
                    self._abort("desync", f"desync on resume: the positions after ply {their_ply} differ",
                                their_ply, their_hash)
                for n in range(their_ply + 1, ply + 1):
                    self._send_move(n)
                self.acked_ply = their_ply
            else:
                self._catch_up_to, self._catch_up_hash = their_ply, their_hash
        self._after_resume()

    def _after_resume(self) -> None:
        """Once both hold the same plies: re-send our resignation, a verdict, or finish an open coin."""
        game = self.game
        assert game is not None
        if game.state.ply < self._catch_up_to and game.resigned is None:
            return
        me = game.color_of(self.role)
        if game.resigned == me and self.journal.resigned_at is not None:
            self._send({"t": "resign", "ply": self.journal.resigned_at})
        elif game.forfeited == me.other:
            raise ProtocolViolation("forfeit", game.end_reason or "the peer forfeited")
        else:
            self._resume_open_coin()

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
        self._send({"t": "sync", "game": game.game_id, "host": str(game.host_color), "red": game.red_name,
                    "white": game.white_name, "date": game.date[:32],
                    "moves": [str(m) for m in game.state.move_stack],
                    "coins": [[p, *game.coins[p]] for p in sorted(game.coins)], "hash": game.hashes[-1],
                    "resigned": "" if game.resigned is None else str(game.resigned),
                    "forfeit": "" if game.forfeited is None else str(game.forfeited)})

    def _check_transcript(self, purpose: int, t: Transcript, code: str) -> bytes:
        """Check a coin transcript against this side's journal; return the coin's digest.
        Our secret and commitment in it must be the journaled ones (we took part), the
        peer's secret must open the peer's commitment, which must be the one it sent us."""
        j = self.journal
        host_c, join_c, host_s, join_s = t
        mine_c, their_c = (host_c, join_c) if self.seat == 0 else (join_c, host_c)
        mine_s, their_s = (host_s, join_s) if self.seat == 0 else (join_s, host_s)
        entry = j.coins.get(purpose)
        what = "the set-up coin" if purpose < 0 else f"the coin of the draw at ply {purpose + 1}"
        if entry is None:
            raise ProtocolViolation(code, f"{what}: this side never took part in it")
        if mine_s != entry.my_secret or mine_c != entry.my_commit:
            raise ProtocolViolation(code, f"{what}: the secret given as ours is not ours")
        if commitment(j.game_id, purpose, self.peer_seat, their_s) != their_c:
            raise ProtocolViolation(code, f"{what}: the peer's secret does not open its commitment")
        if entry.their_commit is not None and entry.their_commit != their_c:
            raise ProtocolViolation(code, f"{what}: the peer's commitment is not the one it sent us")
        return coin_digest(j.game_id, purpose, (host_s, join_s))

    def _note_their_secret(self, purpose: int, t: Transcript) -> None:
        entry = self.journal.coins[purpose]
        entry.their_commit = t[1] if self.seat == 0 else t[0]
        entry.their_secret = t[3] if self.seat == 0 else t[2]

    def _on_sync(self, msg: dict) -> None:
        if self.phase is not Phase.SYNC:
            raise ProtocolViolation("order", "a game copy (sync) that this side did not ask for")
        j = self.journal
        if msg["game"] != j.game_id:
            raise ProtocolViolation("sync", "the copy is of another game")
        coins: dict[int, Transcript] = {c[0]: tuple(c[1:]) for c in msg["coins"]}  # type: ignore[misc]
        if -1 not in coins:
            raise ProtocolViolation("sync", "the copy lacks its set-up coin")
        host_color, red, white = setup_from_coin(self._check_transcript(-1, coins[-1], "sync"), j.host_colour)
        if str(host_color) != msg["host"]:
            raise ProtocolViolation("sync", "the copy's colours do not follow from the set-up coin"
                                    + (f" and the host's choice ({j.host_colour})" if j.host_colour else ""))
        game = LanGame(j.game_id, host_color, msg["red"], msg["white"], msg["date"], State(red, white))
        game.coins[-1] = coins[-1]
        me = game.color_of(self.role)
        for i, text in enumerate(msg["moves"], 1):
            try:
                move = Move.from_str(text)
            except InvalidMoveError as e:
                raise ProtocolViolation("schema", f"sync: move {i}: {e}") from None
            if move.kind is DRAW:
                t = coins.get(i - 1)
                if t is None:
                    raise ProtocolViolation("sync", f"move {i} {text}: a draw without its coin")
                if move.card != draw_from_coin(self._check_transcript(i - 1, t, "sync"), game.state):
                    raise ProtocolViolation("sync", f"move {i} {text}: the card does not follow from its coin")
                game.coins[i - 1] = t
            elif move.player == me and j.own.get(i) != text:
                raise ProtocolViolation("sync", f"move {i} {text}: a move in our colour that we did not make")
            try:
                game.push(move)
            except IllegalMoveError as e:
                raise ProtocolViolation("sync", f"the copy has an illegal move {i}: {e}") from None
        if game.hashes[-1] != msg["hash"]:
            raise ProtocolViolation("desync", "the peer's copy of the game does not give its own hash")
        for key, attr in (("resigned", "resigned"), ("forfeit", "forfeited")):
            if not msg[key]:
                continue
            loser = Color.from_name(msg[key])
            if loser == me:
                ours = (j.resigned_at == game.state.ply if key == "resigned" else
                        (j.open_coin() is not None and j.open_coin().purpose == game.state.ply))  # type: ignore[union-attr]
                if not ours:
                    raise ProtocolViolation("sync", f"the copy says that we {key} at ply {game.state.ply}; we did not")
            setattr(game, attr, loser)
            game.end_ply = game.state.ply
        for p, t in game.coins.items():
            self._note_their_secret(p, t)
        j.game = game
        j.save()
        game.note(f"adopted the peer's checked copy at ply {game.state.ply}")
        self.phase = Phase.PLAYING
        self.acked_ply = game.state.ply
        self._events.append(GameStarted(game, me, True, adopted=bool(msg["moves"])))
        self._after_resume()

    def _on_commit(self, msg: dict) -> None:
        purpose, their_commit = msg["for"], msg["c"]
        j = self.journal
        if self.phase is Phase.SETUP:
            if purpose != -1:
                raise ProtocolViolation("order", f"commitment for {purpose} during the set-up coin")
        elif self.phase is Phase.PLAYING:
            game = self.game
            assert game is not None
            ply = game.state.ply
            if purpose != ply:
                what = "gap in plies" if purpose > ply else "stale ply"
                raise ProtocolViolation("order", f"{what}: commitment for ply {purpose}, the game is at ply {ply}")
            if game.over:
                if game.resigned is not None or game.forfeited is not None:
                    return  # crossed the end of the game on the wire: nothing to toss
                self._abort("illegal", "the peer tried to draw after the game ended", ply + 1)
            if purpose not in j.coins:  # the peer starts a draw
                peer_color = game.color_of(self.role.other)
                if game.state.turn != peer_color:
                    self._abort("illegal", f"the peer ({peer_color}) tried to draw out of turn", ply + 1)
                if Move(peer_color, DRAW, None) not in game.state.legal_moves():
                    self._abort("illegal", f"the peer ({peer_color}) tried to draw with a full hand", ply + 1)
                self._start_coin(ply, their_commit)
                self._events.append(DrawStarted(peer_color, ply))
        else:
            raise ProtocolViolation("order", "a commitment while no coin is being tossed")
        entry = j.coins[purpose]
        if self._coin is None or self._coin.purpose != purpose:
            self._start_coin(purpose)  # a coin we hold from before this connection
        if their_commit == entry.my_commit:
            raise ProtocolViolation("coin", "the peer echoed our commitment")
        if entry.their_commit is not None and entry.their_commit != their_commit:
            self._cheat(purpose, f"a second, different commitment for coin {purpose}, already fixed (a re-roll)")
        if ("commit", purpose) in self._got:
            raise ProtocolViolation("order", f"the same commitment for coin {purpose} twice")
        self._got.add(("commit", purpose))
        if entry.their_commit is None:
            entry.their_commit = their_commit
            j.save()  # their commitment is fixed before our secret leaves
        self._send_reveal(entry)

    def _on_reveal(self, msg: dict) -> None:
        purpose, secret = msg["for"], msg["s"]
        j, game = self.journal, self.game
        entry = j.coins.get(purpose)
        if (entry is None and game is not None and game.over and purpose >= 0
                and (game.resigned is not None or game.forfeited is not None)):
            return  # a coin the end of the game made moot
        if entry is None or entry.their_commit is None or self.phase not in (Phase.SETUP, Phase.PLAYING):
            raise ProtocolViolation("order", f"reveal before commit (coin {purpose})")
        if entry.done:
            if entry.their_secret == secret:
                return  # a repeat after a reconnection
            raise ProtocolViolation("coin", f"a second, different reveal for coin {purpose}")
        if commitment(j.game_id, purpose, self.peer_seat, secret) != entry.their_commit:
            self._cheat(purpose, f"the peer's reveal for coin {purpose} does not open its commitment")
        if ("reveal", purpose) not in self._sent:  # it must hold our commitment; we reveal in turn
            self._send_commit(entry)
            self._send_reveal(entry)
        entry.their_secret = secret
        self._coin = None
        t = _transcript(self.seat, entry)
        digest = coin_digest(j.game_id, purpose, (t[2], t[3]))
        if purpose == -1:
            self._start_game(digest, t)
            j.save()
            return
        assert game is not None
        if game.over:
            return
        move = Move(game.state.turn, DRAW, draw_from_coin(digest, game.state))
        game.push(move)
        game.coins[purpose] = t
        j.save()
        n = game.state.ply
        game.note(f"coin {purpose} -> {move}")
        self._send({"t": "ack", "ply": n, "hash": game.hashes[n]})
        self._after_move(move, by_peer=move.player != game.color_of(self.role))

    def _start_game(self, digest: bytes, t: Transcript) -> None:
        host_color, red, white = setup_from_coin(digest, self.journal.host_colour)
        assert self.peer is not None
        j = self.journal
        host_name, join_name = ((self.name, self.peer.peer_name) if self.role is Role.HOST
                                else (self.peer.peer_name, self.name))
        red_name, white_name = (host_name, join_name) if host_color is Color.RED else (join_name, host_name)
        game = LanGame(j.game_id, host_color, red_name, white_name, self.date, State(red, white))
        game.coins[-1] = t
        game.note(f"new game {j.game_id.hex()}: host plays {host_color}")
        j.game = game
        self.phase = Phase.PLAYING
        self.acked_ply = 0
        self._catch_up_to = 0
        self._events.append(GameStarted(game, game.color_of(self.role), False))

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
        j = self.journal
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
        if game.resigned is not None or game.forfeited is not None:
            return  # crossed the end of the game on the wire: void
        if game.over:
            self._abort("illegal", f"refused {move}: the game is already over", ply)
        if move.player != peer_color:
            if not catching_up:
                self._abort("illegal", f"refused {move}: the peer plays {peer_color}", ply)
            if move.kind is not DRAW and j.own.get(ply) != str(move):
                self._abort("illegal", f"refused {move}: a move in our colour at ply {ply} that we did not make",
                            ply)
        transcript: Transcript | None = None
        if move.kind is DRAW:
            if secrets_ is None or not catching_up:
                self._abort("illegal", f"refused {move}: a draw comes only from a coin both sides took part in",
                            ply)
            assert secrets_ is not None
            entry = j.coins.get(n)
            if entry is None or entry.their_commit is None:
                self._abort("illegal", f"refused {move}: this side never took part in the coin of that draw", ply)
            assert entry is not None and entry.their_commit is not None
            host_s, join_s = secrets_
            mine_c = entry.my_commit
            t = ((mine_c, entry.their_commit, host_s, join_s) if self.seat == 0
                 else (entry.their_commit, mine_c, host_s, join_s))
            try:
                digest = self._check_transcript(n, t, "desync")
            except ProtocolViolation as e:
                self._abort("desync", str(e), ply)
            if move.card is None or draw_from_coin(digest, game.state) != move.card:
                self._abort("desync", f"the draw at ply {ply} does not follow from its coin", ply)
            transcript = t
        try:
            game.push(move)
        except IllegalMoveError as e:
            self._abort("illegal", f"refused the peer's move: {e}", ply)
        if game.hashes[ply] != their_hash:
            game.pop()
            self._abort("desync", f"desync after {move}: the state hashes differ at ply {ply}", ply, their_hash)
        if transcript is not None:
            game.coins[n] = transcript
            self._note_their_secret(n, transcript)
            j.save()
        self._send({"t": "ack", "ply": ply, "hash": their_hash})
        self._after_move(move, by_peer=move.player == peer_color)
        if catching_up and ply == self._catch_up_to:
            if game.hashes[ply] != self._catch_up_hash:
                self._abort("desync", f"after catching up to ply {ply} the position is not the one the peer "
                            "announced", ply, self._catch_up_hash)
            self._after_resume()

    def _on_ack(self, msg: dict) -> None:
        game = self.game
        if self.phase is not Phase.PLAYING or game is None:
            raise ProtocolViolation("order", "an ack outside a game")
        ply = msg["ply"]
        if ply > game.state.ply:
            if game.resigned is not None or game.forfeited is not None:
                return  # an ack of a move the end of the game made void
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
        n, asked = game.state.ply, msg["ply"]
        if asked > n:
            raise ProtocolViolation("order", f"resignation at ply {asked}, the game is at ply {n}")
        # The game ends at a ply both hold: never before a move of the resigner's (it holds it) nor
        # before one of ours it acknowledged. Only our unacknowledged moves after it are void.
        end = max(asked, self.acked_ply, *(i for i, m in enumerate(game.state.move_stack, 1) if m.player == peer_color))
        while game.state.ply > end:
            game.pop()
            self.journal.own.pop(game.state.ply + 1, None)
        self.journal.coins = {p: c for p, c in self.journal.coins.items() if p < end or c.done}
        game.resigned, game.end_ply, game.end_reason = peer_color, end, f"{peer_color} resigned"
        self._coin = None
        self.journal.save()
        game.note(f"peer resigned at ply {asked}; the game ends at ply {end}")
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
            self._begin_rematch()
