"""The lobby of the one LAN layer, pure (docs/protocol.md, "The LAN layer: lobby").

Written once for every game: the ``hello`` (the LAN protocol and version, the game's key and
version, names, nonces, resume secrets), seats, the ``start`` of a match and each joiner's
``ready``, seat proofs on resume, and the handshake deadline. No sockets, threads or clock:
the session feeds :class:`HostLobby`/:class:`JoinLobby` with connection ids, checked messages
and ``now``, and carries out what they return (:class:`LSend`, :class:`LDrop`,
:class:`LSeated`, :class:`LStarted`, :class:`LChanged`).

Rules every game gets from here:

- a hello names the game (``g``) and its version (``gv``): another game is refused with
  ``game``, another version with ``version`` (both fatal for that connection, said on both
  sides at once, never a hang);
- **an unconfirmed hello holds no seat for a match**: a joiner is seated in the lobby by its
  hello, but a match begins only when every seated joiner answered the host's ``start`` with
  ``ready``; a connection that drops (or stays silent for :data:`HANDSHAKE_TIMEOUT`) before its
  ``ready`` frees its seat, and the start is called off (nothing of the match was sent yet);
- a seat of a match is taken back only with that seat's resume secret (``auth``, an HMAC over
  the verifier's fresh nonce, :func:`net.coin.seat_proof`), both ways;
- at most :data:`MAX_PENDING` connections settle at once (a connection that said hello keeps its
  place; one that did not may be closed with ``busy`` for a newer one); a seat's newer proven
  connection replaces the older one (``bye``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from game import __version__ as APP_VERSION

from . import PROTOCOL_NAME, PROTOCOL_VERSION
from .coin import GAME_ID_BYTES, game_id_from, proof_ok, seat_proof
from .framing import (MAX_NAME, SHARED_SCHEMAS, Schemas, binary, boolean, integer, list_of, one_of, player_name,
                      string, tuple_of)
from .limits import HANDSHAKE_TIMEOUT, RATES
from .match import END_KINDS, Table

LAN_VERSION = PROTOCOL_VERSION  #: the LAN layer's protocol version (the hello's ``pv``; net.PROTOCOL_VERSION)
MAX_SEATS = 8
MAX_PENDING = 4  #: connections settling their seat at once (see HostLobby.open: ``busy``)
MAX_HAVE = 1 << 20


def _opts(v: Any) -> str | None:
    """A game's lobby options: a map of up to 8 string keys (1..16 characters) to ints,
    booleans or strings of up to 64 characters."""
    if type(v) is not dict:
        return "must be a map"
    if len(v) > 8:
        return "must have at most 8 pairs"
    for k, x in v.items():
        if type(k) is not str or not 1 <= len(k) <= 16:
            return "keys must be strings of 1..16 characters"
        if type(x) is str and len(x) > 64 or type(x) not in (str, int, bool):
            return f"{k[:16]!r} must be an int, a boolean or a string of up to 64 characters"
        if type(x) is int and not -(1 << 31) <= x < (1 << 31):
            return f"{k[:16]!r} out of range"
    return None


#: The lobby's messages (docs/protocol.md, "The LAN layer"); a game's match messages are added.
LOBBY_SCHEMAS: dict[str, Any] = {
    "hello": {"proto": string(1, 32), "pv": integer(0, 65535), "g": string(1, 32), "gv": integer(0, 65535),
              "app": string(1, 32), "name": player_name, "peer": binary(16), "role": one_of("host", "join"),
              "nonce": binary(16), "key": binary(32), "game": binary(0, GAME_ID_BYTES), "have": integer(0, MAX_HAVE),
              "sk": binary(0, 32)},
    "auth": {"proof": binary(32)},
    "lobby": {"seats": list_of(tuple_of(one_of("host", "person", "computer", "open"), string(0, MAX_NAME), boolean),
                               2, MAX_SEATS), "you": integer(1, MAX_SEATS - 1), "opt": _opts},
    "start": {"game": binary(GAME_ID_BYTES), "you": integer(1, MAX_SEATS - 1),
              "names": list_of(player_name, 2, MAX_SEATS), "date": string(0, 32), "opt": _opts,
              "comp": list_of(integer(1, MAX_SEATS - 1), 0, MAX_SEATS - 1),
              "sk": list_of(binary(32), 0, MAX_SEATS)},
    "ready": {"game": binary(GAME_ID_BYTES)},
    "caught": {},
    "over": {"kind": one_of(*END_KINDS),
             "seat": integer(-1, MAX_SEATS - 1), "ply": integer(0, MAX_HAVE)},
    "ping": SHARED_SCHEMAS["ping"],
    "error": SHARED_SCHEMAS["error"],
}
LOBBY_RATES = {"hello": (2, 0), "auth": (2, 0), "ready": (2, 0), "over": (2, 0), "caught": (4, 1), "lobby": (20, 10), "start": (3, 0.2)}
LOBBY_TYPES = frozenset(LOBBY_SCHEMAS)


def schemas_for(game_schemas: dict[str, Any], max_bin: int = 64) -> Schemas:
    """The lobby's schemas plus a game's match messages (a game may not redefine a lobby
    message), versioned :data:`LAN_VERSION`; ``max_bin``: the longest binary its frames may
    hold (:attr:`net.match.LanPart.max_bin`)."""
    clash = set(game_schemas) & LOBBY_TYPES
    if clash:
        raise ValueError(f"a game's messages may not reuse the lobby's types: {sorted(clash)}")
    return Schemas({**LOBBY_SCHEMAS, **game_schemas}, LAN_VERSION, max_bin)


def rates_for(game_rates: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """The shared rate limits, the lobby's, and a game's (token buckets: burst, refill per second)."""
    return {**RATES, **LOBBY_RATES, **game_rates}


def hello_version(payload: bytes) -> int | None:
    """The ``pv`` of a hello frame's payload, read with the frame limits but before any schema
    (so a peer can tell a version-2 hello from a layer hello), or None for anything else."""
    import msgpack
    from .framing import UNPACK_LIMITS, _refuse_ext
    unpacker = msgpack.Unpacker(ext_hook=_refuse_ext, **UNPACK_LIMITS)  # the frame's limits, fresh
    try:
        unpacker.feed(payload)
        obj = unpacker.unpack()
    except Exception:
        return None
    pv = obj.get("pv") if isinstance(obj, dict) and obj.get("t") == "hello" else None
    return pv if type(pv) is int else None


def hello(game_key: str, game_version: int, name: str, role: str, peer: bytes, nonce: bytes, key: bytes,
          game: bytes = b"", have: int = 0, sk: bytes = b"") -> dict[str, Any]:
    """The hello map (docs/protocol.md, "The LAN layer: hello"); ``sk``: the sender's 32-byte
    signing public key for the match, for a game whose messages are signed (else empty)."""
    return {"t": "hello", "proto": PROTOCOL_NAME, "pv": LAN_VERSION, "g": game_key, "gv": game_version,
            "app": APP_VERSION[:32], "name": name, "peer": peer, "role": role, "nonce": nonce, "key": key,
            "game": game, "have": have, "sk": sk}


# --------------------------------------------------------------------------- outputs
@dataclass(frozen=True)
class LSend:
    """Queue ``msg`` on connection ``cid``."""

    cid: int
    msg: dict[str, Any]


@dataclass(frozen=True)
class LDrop:
    """Close connection ``cid`` with ``error{code, reason}`` (``send`` False: without a word)."""

    cid: int
    code: str
    reason: str
    send: bool = True


@dataclass(frozen=True)
class LSeated:
    """Connection ``cid`` holds seat ``seat`` of the match (``resumed``: it proved its resume
    secret and holds ``have`` match messages; the match machine's ``catch_up`` follows)."""

    cid: int
    seat: int
    resumed: bool
    have: int = 0


@dataclass(frozen=True)
class LStarted:
    """Every seat confirmed: the match of ``table`` begins; this side plays seat ``seat``.
    ``keys``: this side's resume secret per seat it holds a connection to (host: one per
    joiner seat; joiner: ``{0: ...}``), ``peer_keys``: the other side's."""

    table: Table
    seat: int
    keys: dict[int, bytes]
    peer_keys: dict[int, bytes]


@dataclass(frozen=True)
class LChanged:
    """The lobby changed (a seat taken or freed, a connection up or down)."""


LOutput = LSend | LDrop | LSeated | LStarted | LChanged


class LobbyError(Exception):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code


@dataclass
class SeatMemo:
    """What a seat's peer keeps of a match to take its seat back (journaled at the start)."""

    table: Table
    seat: int
    keys: dict[int, bytes]  # seat -> our resume secret for it
    peer_keys: dict[int, bytes]  # seat -> the peer's resume secret

    def to_json(self) -> dict[str, Any]:
        t = self.table
        return {"game": t.game_id.hex(), "names": list(t.names), "date": t.date, "opt": dict(t.options),
                "comp": list(t.computers), "sk": [k.hex() for k in t.sign_keys],
                "seat": self.seat, "keys": {str(k): v.hex() for k, v in self.keys.items()},
                "peer_keys": {str(k): v.hex() for k, v in self.peer_keys.items()}}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "SeatMemo":
        """Raises ValueError for a memo that does not check."""
        try:
            table = Table(bytes.fromhex(d["game"]), tuple(d["names"]), str(d["date"]), dict(d["opt"]),
                          tuple(int(x) for x in d.get("comp", ())), tuple(bytes.fromhex(k) for k in d.get("sk", ())))
            keys = {int(k): bytes.fromhex(v) for k, v in d["keys"].items()}
            peer_keys = {int(k): bytes.fromhex(v) for k, v in d["peer_keys"].items()}
            seat = d["seat"]
            if (len(table.game_id) != GAME_ID_BYTES or type(seat) is not int or not 0 <= seat < len(table.names)
                    or not 2 <= len(table.names) <= MAX_SEATS or _opts(table.options)
                    or any(len(k) != 32 for k in (*keys.values(), *peer_keys.values(), *table.sign_keys))
                    or table.sign_keys and len(table.sign_keys) != len(table.names)):
                raise ValueError("bad table, seat or keys")
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"not a seat memo: {e}") from None
        return cls(table, seat, keys, peer_keys)


def _check_hello(msg: dict[str, Any], game_key: str, game_version: int, role: str, peer_id: bytes, nonce: bytes) -> None:
    if msg["g"] != game_key:
        raise LobbyError("game", f"this table plays {game_key}; the peer plays {msg['g'][:32]}")
    if msg["gv"] != game_version:
        newer = "this table needs a newer version" if msg["gv"] > game_version else "the peer needs a newer version"
        raise LobbyError("version", f"{game_key} protocol {game_version} here, {msg['gv']} there: {newer}")
    if msg["role"] == role:
        raise LobbyError("self" if msg["peer"] == peer_id else "role", f"both sides are {role}s")
    if msg["peer"] == peer_id or msg["nonce"] == nonce:
        raise LobbyError("self", "the peer uses our own peer id")


# --------------------------------------------------------------------------- host
@dataclass
class _Conn:
    cid: int
    nonce: bytes
    key: bytes
    opened: float
    hello: dict[str, Any] | None = None
    seat: int | None = None
    started_at: float | None = None  # the start this connection must confirm was sent then
    ready: bool = False
    resumed: bool = False


class HostLobby:
    """The host's lobby (seat 0): connections in, seats, the start and resumes.

    ``kinds``: per seat, ``"host"`` (seat 0), ``"person"`` (a joiner sits there) or
    ``"computer"`` (the host's program plays it); ``computer_names``: seat -> name. ``memo``: a
    match this host holds from its journal (joiners may only resume it). ``options``: the
    game's lobby options (sent in ``lobby`` and ``start``). ``token_bytes``: the source of
    nonces and secrets. ``sign_keys``: for a game that signs its messages, the signing public
    key (32 bytes) of seat 0 and of each computer seat; the joiners' come in their hellos and
    every seat's goes out in ``start`` (:attr:`Table.sign_keys`)."""

    def __init__(self, game_key: str, game_version: int, name: str, kinds: Sequence[str], *, date: str = "",
                 options: dict[str, Any] | None = None, computer_names: dict[int, str] | None = None, memo: SeatMemo | None = None,
                 peer_id: bytes | None = None, token_bytes: Callable[[int], bytes] = secrets.token_bytes,
                 handshake: float = HANDSHAKE_TIMEOUT, sign_keys: dict[int, bytes] | None = None) -> None:
        if kinds[0] != "host" or not 2 <= len(kinds) <= MAX_SEATS or any(k not in ("person", "computer")
                                                                           for k in kinds[1:]):
            raise ValueError(f"bad seats {list(kinds)!r}: seat 0 the host, then persons or computers")
        self.game_key, self.game_version, self.name = game_key, game_version, name
        self.kinds = list(kinds)
        self.date, self.options = date, dict(options or {})
        self.computer_names = dict(computer_names or {})
        self._token = token_bytes
        self.peer_id = peer_id or token_bytes(16)
        self.handshake = handshake
        self.conns: dict[int, _Conn] = {}
        self.seats: dict[int, int] = {}  # seat -> cid
        self.memo = memo
        self.starting = False
        self.sign_keys: dict[int, bytes] = dict(sign_keys or {})

    # ------------------------------------------------------------------ queries
    @property
    def started(self) -> bool:
        return self.memo is not None

    def persons(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == "person"]

    def can_start(self) -> bool:
        """Every person seat is held by a connection that said hello (and no match yet)."""
        return not self.started and not self.starting and all(s in self.seats for s in self.persons())

    def names(self) -> list[str]:
        out = []
        for s, kind in enumerate(self.kinds):
            if kind == "host":
                out.append(self.name)
            elif kind == "computer":
                out.append(self.computer_names.get(s, f"Computer {s}"))
            else:
                c = self.conns.get(self.seats.get(s, -1))
                out.append(c.hello["name"] if c is not None and c.hello else "")
        return out

    def table_rows(self) -> list[list[Any]]:
        """``lobby`` rows: [kind, name, connected] per seat (``open`` for a free person seat)."""
        if self.memo is not None:
            names = list(self.memo.table.names)
            return [[k, names[s], k != "person" or s in self.seats] for s, k in enumerate(self.kinds)]
        names = self.names()
        return [[("open" if k == "person" and s not in self.seats else k), names[s],
                 k != "person" or s in self.seats] for s, k in enumerate(self.kinds)]

    def cid_of(self, seat: int) -> int | None:
        return self.seats.get(seat)

    def _hello_of(self, seat: int) -> dict[str, Any]:
        """The hello of the connection holding person seat ``seat`` (a seat is taken only by a
        connection that said hello)."""
        hello = self.conns[self.seats[seat]].hello
        assert hello is not None
        return hello

    # ------------------------------------------------------------------ events
    def open(self, cid: int, now: float) -> list[LOutput]:
        """A new connection: our hello goes out at once (fresh nonce and resume secret).

        At most :data:`MAX_PENDING` connections settle at once. When they are all taken, the one
        open longest that has not said hello yet is closed with ``busy`` to make room (it had its
        chance; a player's program says hello at once), so idle connections re-opened in a storm
        cannot keep a player out; a connection that said hello keeps its place. When every
        settling connection said hello, the new one is refused with ``busy`` (its peer waits and
        tries again)."""
        out: list[LOutput] = []
        pending = [c for c in self.conns.values() if c.seat is None]
        if len(pending) >= MAX_PENDING:
            idle = [c for c in pending if c.hello is None]
            if not idle:
                return [LDrop(cid, "busy", "too many connections are settling at once; try again")]
            oldest = min(idle, key=lambda c: (c.opened, c.cid))
            del self.conns[oldest.cid]
            out.append(LDrop(oldest.cid, "busy", "no hello yet, and another connection needs the place"))
        c = _Conn(cid, self._token(16), self._token(32), now)
        self.conns[cid] = c
        game = self.memo.table.game_id if self.memo is not None else b""
        sk = self.memo.table.sign_keys[0] if self.memo is not None and self.memo.table.sign_keys else \
            self.sign_keys.get(0, b"")
        return out + [LSend(cid, hello(self.game_key, self.game_version, self.name, "host", self.peer_id, c.nonce,
                                       c.key, game, sk=sk))]

    def closed(self, cid: int, now: float) -> list[LOutput]:
        """Connection ``cid`` is gone: a seat held without a match is freed; a start not yet
        confirmed by every seat is called off."""
        c = self.conns.pop(cid, None)
        if c is None or c.seat is None:
            return []
        if self.seats.get(c.seat) == cid:
            del self.seats[c.seat]
        out: list[LOutput] = [LChanged()]
        if self.starting:
            out += self._call_off(now)
        if not self.started:
            out += self._publish()
        return out

    def receive(self, cid: int, msg: dict[str, Any], now: float) -> list[LOutput]:
        """A lobby message (``hello``, ``auth``, ``ready``) on connection ``cid``."""
        c = self.conns.get(cid)
        if c is None:
            return []
        try:
            t = msg["t"]
            if t == "hello":
                return self._on_hello(c, msg, now)
            if c.hello is None:
                raise LobbyError("order", f"{t!r} message before the handshake")
            if t == "auth":
                return self._on_auth(c, msg, now)
            if t == "ready":
                return self._on_ready(c, msg, now)
            raise LobbyError("order", f"a {t!r} message from a joiner")
        except LobbyError as e:
            return self._drop(c, e.code, str(e), now)

    def tick(self, now: float) -> list[LOutput]:
        """The handshake deadline: a connection must say hello (and prove its seat, for a
        match) within :attr:`handshake` seconds, and confirm a start within as long."""
        out: list[LOutput] = []
        for c in list(self.conns.values()):
            if c.seat is None and now - c.opened >= self.handshake:
                out += self._drop(c, "timeout", f"no handshake within {self.handshake:g} seconds", now)
            elif c.started_at is not None and not c.ready and now - c.started_at >= self.handshake:
                out += self._drop(c, "timeout", f"the start was not confirmed within {self.handshake:g} seconds",
                                  now)
        return out

    def start(self, now: float) -> list[LOutput]:
        """The host's player (or auto-start) starts: ``start`` to every seated joiner; the
        match begins at the last ``ready``. Raises ValueError when :meth:`can_start` is False."""
        if not self.can_start():
            raise ValueError("not every seat is taken")
        self.starting = True
        host_nonce = self._token(16)
        nonces = [host_nonce] + [self._hello_of(s)["nonce"] for s in self.persons()]
        sign: tuple[bytes, ...] = ()
        if self.sign_keys:
            sign = tuple(self._hello_of(s)["sk"] if k == "person" else
                         self.sign_keys.get(s, b"") for s, k in enumerate(self.kinds))
            if any(len(k) != 32 for k in sign):
                raise ValueError("a seat has no signing key")
        self._pending_table = Table(game_id_from(nonces), tuple(self.names()), self.date, dict(self.options),
                                    tuple(s for s, k in enumerate(self.kinds) if k == "computer"), sign)
        out: list[LOutput] = []
        for s in self.persons():
            c = self.conns[self.seats[s]]
            c.started_at, c.ready = now, False
            out.append(self._start_msg(c, s, self._pending_table))
        if not self.persons():
            out += self._begin()
        return out

    def set_options(self, options: dict[str, Any]) -> list[LOutput]:
        """The game's lobby options for the next match (:attr:`net.match.Table.options`), told to
        every seated joiner. Raises ValueError for options that do not check, or once a match
        is starting or under way (its table is fixed)."""
        why = _opts(options)
        if why is not None:
            raise ValueError(f"lobby options {why}")
        if self.started or self.starting:
            raise ValueError("the match is fixed: its options cannot change")
        self.options = dict(options)
        return self._publish()

    def reopen(self) -> list[LOutput]:
        """Call the match off (nothing of it is bound, :meth:`net.match.MatchMachine.abortable`):
        its seats are free again for whoever is connected or comes next."""
        self.memo, self.starting = None, False
        for c in self.conns.values():
            c.started_at, c.ready, c.resumed = None, False, False
        return [LChanged()] + self._publish()

    # ------------------------------------------------------------------ internals
    def _start_msg(self, c: _Conn, seat: int, table: Table) -> LSend:
        return LSend(c.cid, {"t": "start", "game": table.game_id, "you": seat, "names": list(table.names),
                             "date": table.date[:32], "opt": dict(table.options), "comp": list(table.computers),
                             "sk": list(table.sign_keys)})

    def _drop(self, c: _Conn, code: str, reason: str, now: float) -> list[LOutput]:
        return [LDrop(c.cid, code, reason)] + self.closed(c.cid, now)

    def _call_off(self, now: float) -> list[LOutput]:
        """A start not confirmed by every seat is called off: the joiners it was sent to are
        closed with ``reopen`` (they forget it and join again as new); their seats are free."""
        self.starting = False
        out: list[LOutput] = []
        for c in list(self.conns.values()):
            if c.started_at is not None:
                out.append(LDrop(c.cid, "reopen", "the start was called off: a seat left before it began"))
                self.conns.pop(c.cid, None)
                if c.seat is not None and self.seats.get(c.seat) == c.cid:
                    del self.seats[c.seat]
            c.started_at, c.ready = None, False
        return out

    def _publish(self) -> list[LOutput]:
        rows = self.table_rows()
        return [LSend(c.cid, {"t": "lobby", "seats": rows, "you": c.seat, "opt": dict(self.options)})
                for c in self.conns.values() if c.seat is not None]

    def _begin(self) -> list[LOutput]:
        table = self._pending_table
        keys = {s: self.conns[self.seats[s]].key for s in self.persons()}
        peer_keys = {s: self._hello_of(s)["key"] for s in self.persons()}
        self.memo = SeatMemo(table, 0, keys, peer_keys)
        self.starting = False
        return [LStarted(table, 0, keys, peer_keys), LChanged()]

    def _on_hello(self, c: _Conn, msg: dict[str, Any], now: float) -> list[LOutput]:
        if c.hello is not None:
            raise LobbyError("order", "a second handshake on one connection")
        _check_hello(msg, self.game_key, self.game_version, "host", self.peer_id, c.nonce)
        c.hello = msg
        theirs = msg["game"]
        if self.memo is not None:
            if theirs != self.memo.table.game_id:
                if theirs:
                    raise LobbyError("game", "the peer holds a seat in another match")
                raise LobbyError("seat", "the table is full: a match is under way")
            return []  # a resume: the seat proof (auth) follows
        if theirs:
            raise LobbyError("game", "the peer holds a seat in a match this host does not hold")
        free = [s for s in self.persons() if s not in self.seats]
        if not free or self.starting:
            raise LobbyError("seat", "the table is full")
        if self.sign_keys and len(msg["sk"]) != 32:
            raise LobbyError("version", "this table's messages are signed: the peer sent no signing key")
        c.seat = free[0]
        self.seats[c.seat] = c.cid
        out: list[LOutput] = [LSeated(c.cid, c.seat, False), LChanged()]
        return out + self._publish()

    def _on_auth(self, c: _Conn, msg: dict[str, Any], now: float) -> list[LOutput]:
        memo = self.memo
        if memo is None or c.seat is not None or c.hello is None or not c.hello["game"]:
            raise LobbyError("order", "a seat proof that was not asked for")
        gid = memo.table.game_id
        seat = next((s for s, k in memo.peer_keys.items() if proof_ok(k, gid, s, c.nonce, msg["proof"])), None)
        if seat is None:
            raise LobbyError("seat", "wrong resume secret: the connection could not prove a seat of this match")
        if memo.table.sign_keys and c.hello["sk"] != memo.table.sign_keys[seat]:
            raise LobbyError("seat", "a fresh signing key for a seat of this match (a re-roll)")
        out: list[LOutput] = []
        old = self.seats.get(seat)
        if old is not None and old != c.cid:
            old_c = self.conns.pop(old, None)
            out.append(LDrop(old, "bye", "replaced by a new connection of the same player"))
            del old_c
        c.seat, c.resumed, c.ready = seat, True, True
        self.seats[seat] = c.cid
        proof = seat_proof(memo.keys[seat], gid, 0, c.hello["nonce"])
        out += [LSend(c.cid, {"t": "auth", "proof": proof}), self._start_msg(c, seat, memo.table),
                LSeated(c.cid, seat, True, c.hello["have"]), LChanged()]
        return out

    def _on_ready(self, c: _Conn, msg: dict[str, Any], now: float) -> list[LOutput]:
        if c.resumed:
            return []  # a resumed joiner may confirm the repeated start: nothing to do
        if not self.starting or c.started_at is None:
            return []  # it crossed a call-off on the wire (that connection is being closed anyway)
        if msg["game"] != self._pending_table.game_id:
            raise LobbyError("order", "a ready that answers no start")
        c.ready = True
        if all(self.conns[self.seats[s]].ready for s in self.persons()):
            return self._begin()
        return []


# --------------------------------------------------------------------------- joiner
class JoinLobby:
    """A joiner's lobby for one connection after another: ``open`` on each connect, then
    ``receive`` the host's lobby messages. ``memo``: the seat this joiner holds (from its
    journal or an earlier connection), which it takes back with ``auth``; ``have``: the match
    messages it holds (its hello's ``have``)."""

    def __init__(self, game_key: str, game_version: int, name: str, *, memo: SeatMemo | None = None,
                 peer_id: bytes | None = None, token_bytes: Callable[[int], bytes] = secrets.token_bytes,
                 handshake: float = HANDSHAKE_TIMEOUT, sign_key: bytes = b"") -> None:
        self.game_key, self.game_version, self.name = game_key, game_version, name
        self.memo = memo
        self.sign_key = sign_key  #: our signing public key for the next match (a game that signs)
        self._token = token_bytes
        self.peer_id = peer_id or token_bytes(16)
        self.handshake = handshake
        self.host_hello: dict[str, Any] | None = None
        self.seated = False
        self.seat = memo.seat if memo is not None else 0
        self.rows: list[Any] = []
        self.options: dict[str, Any] = {}
        self.opened: float | None = None  #: when the current connection opened (None: none yet)

    def open(self, now: float, have: int = 0) -> list[LOutput]:
        """A new connection to the host: our hello (for a held seat: its match and ``have``)."""
        self.nonce, self.key = self._token(16), self._token(32)
        self.host_hello, self.seated, self._proved, self.opened = None, False, False, now
        game = self.memo.table.game_id if self.memo is not None else b""
        sk = self.memo.table.sign_keys[self.memo.seat] if self.memo is not None and self.memo.table.sign_keys \
            else self.sign_key
        return [LSend(0, hello(self.game_key, self.game_version, self.name, "join", self.peer_id, self.nonce,
                               self.key, game, have if self.memo is not None else 0, sk))]

    def tick(self, now: float) -> list[LOutput]:
        if not self.seated and self.opened is not None and now - self.opened >= self.handshake:
            return [LDrop(0, "timeout", f"no handshake within {self.handshake:g} seconds")]
        return []

    def receive(self, msg: dict[str, Any], now: float) -> list[LOutput]:
        try:
            t = msg["t"]
            if t == "hello":
                return self._on_hello(msg)
            if self.host_hello is None:
                raise LobbyError("order", f"{t!r} message before the handshake")
            if t == "auth":
                return self._on_auth(msg)
            if t == "lobby":
                if self.memo is not None:
                    raise LobbyError("order", "a lobby message during a match")
                first = not self.seated  # seated: the connection is settled (no handshake deadline left)
                self.rows, self.options, self.seat, self.seated = msg["seats"], msg["opt"], msg["you"], True
                out: list[LOutput] = [LSeated(0, self.seat, False)] if first else []
                return out + [LChanged()]
            if t == "start":
                return self._on_start(msg)
            raise LobbyError("order", f"a {t!r} message from the host")
        except LobbyError as e:
            return [LDrop(0, e.code, str(e))]

    def _on_hello(self, msg: dict[str, Any]) -> list[LOutput]:
        if self.host_hello is not None:
            raise LobbyError("order", "a second handshake on one connection")
        _check_hello(msg, self.game_key, self.game_version, "join", self.peer_id, self.nonce)
        self.host_hello = msg
        if self.memo is None:
            if msg["game"]:
                pass  # a match is under way: the host will say whether a seat is open
            return []
        gid = self.memo.table.game_id
        if msg["game"] != gid:
            raise LobbyError("game", "the host does not hold our match (another match, or none)")
        return [LSend(0, {"t": "auth", "proof": seat_proof(self.key_for_proof(), gid, self.seat, msg["nonce"])})]

    def key_for_proof(self) -> bytes:
        assert self.memo is not None
        return self.memo.keys[0]

    def _on_auth(self, msg: dict[str, Any]) -> list[LOutput]:
        memo, h = self.memo, self.host_hello
        if memo is None or h is None or self._proved:
            raise LobbyError("order", "a seat proof that was not asked for")
        if not proof_ok(memo.peer_keys[0], memo.table.game_id, 0, self.nonce, msg["proof"]):
            raise LobbyError("seat", "the host could not prove that it holds this match (wrong resume secret)")
        self._proved = True
        return []

    def _on_start(self, msg: dict[str, Any]) -> list[LOutput]:
        h = self.host_hello
        assert h is not None
        table = Table(msg["game"], tuple(msg["names"]), msg["date"], msg["opt"], tuple(msg["comp"]), tuple(msg["sk"]))
        if table.sign_keys and len(table.sign_keys) != table.seats:
            raise LobbyError("seat", "the start's signing keys do not match its seats")
        if msg["you"] >= table.seats or msg["names"][msg["you"]] != self.name or msg["you"] in table.computers \
                or any(s >= table.seats for s in table.computers):
            raise LobbyError("seat", "the start gives us a seat that is not ours")
        if self.memo is not None:
            if self.seated:
                raise LobbyError("order", "a second start on one connection")
            if not self._proved:
                raise LobbyError("order", "a start before the host's seat proof")
            m = self.memo.table
            if (table.game_id, table.names, table.computers, table.sign_keys, msg["you"]) != (
                    m.game_id, m.names, m.computers, m.sign_keys, self.memo.seat):
                raise LobbyError("seat", "the repeated start names another match or seat")
            self.seated = True
            return [LSeated(0, self.seat, True)]
        if self.seated and msg["you"] != self.seat:
            raise LobbyError("seat", "the start gives us another seat than the lobby")
        if self.sign_key and (not table.sign_keys or table.sign_keys[msg["you"]] != self.sign_key):
            raise LobbyError("seat", "the start does not carry our signing key (the host replaced it)")
        self.seat, self.seated = msg["you"], True
        self.memo = SeatMemo(table, self.seat, {0: self.key}, {0: h["key"]})
        return [LStarted(table, self.seat, {0: self.key}, {0: h["key"]}),
                LSend(0, {"t": "ready", "game": table.game_id})]
