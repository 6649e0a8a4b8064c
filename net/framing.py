"""Frames and message schemas of the LAN protocol (docs/protocol.md, "The LAN layer", "Frames").

A frame is a 4-byte big-endian length N (1 <= N <= 65536) followed by N bytes
holding exactly one msgpack map. Every received frame goes through three
gates, and failing any of them is a :class:`FrameError` (a protocol error):

1. the length: 0 or more than :data:`MAX_FRAME` is refused before any payload
   is buffered, so a huge declared length costs nothing;
2. msgpack with tight limits: a fresh ``msgpack.Unpacker`` per frame
   (``raw=False``, ``strict_map_key=True``, ``max_buffer_size``, per-type length
   limits, an ``ext_hook`` that refuses), no bytes after the map, and a nesting
   depth of at most :data:`MAX_DEPTH`;
3. the schema of the message type named by key ``"t"``: exactly the keys
   listed in the schema table (a game's and the lobby's, :func:`net.lobby.schemas_for`;
   :data:`SHARED_SCHEMAS` by default), each of its type and range.

msgpack output is not canonical, so nothing here is ever hashed: hashes come
from the engine's canonical bytes.
"""

from __future__ import annotations

import struct
from typing import Any, Callable

import msgpack

from . import PROTOCOL_NAME, PROTOCOL_VERSION
from .limits import name_problem

MAX_FRAME = 64 * 1024  #: largest payload, bytes
HEADER = struct.Struct(">I")
MAX_DEPTH = 3  #: a message map is depth 1; sync's list of moves is depth 2
MAX_PLY = 1000  #: far above any real game (about 130 plies at most)
MAX_NAME = 32  #: characters in a player name

UNPACK_LIMITS = dict(raw=False, strict_map_key=True, max_buffer_size=MAX_FRAME, max_str_len=4096,
                     max_bin_len=64, max_array_len=MAX_PLY, max_map_len=16)


class FrameError(ValueError):
    """A frame or message that breaks the protocol. ``code`` is the error code sent
    to the peer (``"frame"``, ``"schema"``, ``"version"``); ``str(e)`` the reason."""

    def __init__(self, reason: str, code: str = "frame") -> None:
        super().__init__(reason)
        self.code = code


def _refuse_ext(code: int, data: bytes) -> Any:
    raise FrameError(f"msgpack extension type {code} is not allowed")


# --------------------------------------------------------------------------- encoding
def encode_frame(message: dict[str, Any], schemas: dict[str, Any] | None = None) -> bytes:
    """One frame: length header + msgpack map. Raises FrameError if the map fails
    its schema (``schemas``, default :data:`SHARED_SCHEMAS`) or the payload exceeds
    :data:`MAX_FRAME` (nothing is sent then)."""
    check_message(message, schemas)
    payload: bytes = msgpack.packb(message, use_bin_type=True)
    if len(payload) > MAX_FRAME:
        raise FrameError(f"message too large: {len(payload)} bytes (limit {MAX_FRAME})")
    return HEADER.pack(len(payload)) + payload


def decode_payload(payload: bytes, schemas: dict[str, Any] | None = None) -> dict[str, Any]:
    """Decode one frame's payload (or a beacon datagram) into a map checked against
    ``schemas`` (default :data:`SHARED_SCHEMAS`). Raises FrameError."""
    limits = UNPACK_LIMITS
    max_bin = getattr(schemas, "max_bin", UNPACK_LIMITS["max_bin_len"])
    if max_bin != UNPACK_LIMITS["max_bin_len"]:
        limits = {**UNPACK_LIMITS, "max_bin_len": max_bin}
    unpacker = msgpack.Unpacker(ext_hook=_refuse_ext, **limits)  # fresh: never reused after an error
    try:
        unpacker.feed(payload)
        obj = unpacker.unpack()
    except FrameError:
        raise
    except msgpack.OutOfData:
        raise FrameError("truncated msgpack data inside the frame") from None
    except UnicodeDecodeError:
        raise FrameError("a string is not valid UTF-8") from None
    except msgpack.StackError:
        raise FrameError(f"nesting deeper than {MAX_DEPTH} levels") from None
    except (ValueError, TypeError, msgpack.UnpackException) as e:
        raise FrameError(f"bad msgpack data: {e or type(e).__name__}") from None
    try:
        unpacker.unpack()
    except msgpack.OutOfData:
        pass
    except Exception:
        raise FrameError("extra bytes after the message map") from None
    else:
        raise FrameError("extra bytes after the message map")
    if _depth(obj) > MAX_DEPTH:
        raise FrameError(f"nesting deeper than {MAX_DEPTH} levels")
    check_message(obj, schemas)
    checked: dict[str, Any] = obj  # check_message: a map of checked fields
    return checked


def _depth(obj: Any, limit: int = MAX_DEPTH + 1) -> int:
    """Nesting depth (a scalar 0, a map or array 1 + its deepest item), walking at most
    ``limit`` levels down so a deeply nested frame costs no recursion."""
    if limit <= 0:
        return 0
    if isinstance(obj, dict):
        obj = list(obj.values())
    if isinstance(obj, list):
        return 1 + max((_depth(v, limit - 1) for v in obj), default=0)
    return 0


class FrameDecoder:
    """Turns a byte stream, fed in chunks of any size, into checked messages.

    >>> d = FrameDecoder(); f = encode_frame({"t": "ping"})
    >>> d.feed(f[:3]), d.feed(f[3:] + f)
    ([], [{'t': 'ping'}, {'t': 'ping'}])

    After a FrameError the stream is out of step: the decoder refuses further
    input (raise again) and the connection must be closed.
    """

    def __init__(self, schemas: dict[str, Any] | None = None) -> None:
        self.schemas = schemas
        self._buf = bytearray()
        self._need: int | None = None  # payload length once the header is read
        self._error: FrameError | None = None

    @property
    def pending(self) -> int:
        """Bytes received but not yet part of a whole frame (a truncated frame at EOF)."""
        return len(self._buf) + (HEADER.size if self._need is not None else 0)

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        """Add bytes; return the whole messages they complete, in order. Raises FrameError."""
        if self._error is not None:
            raise self._error
        self._buf += data
        out = []
        try:
            while True:
                if self._need is None:
                    if len(self._buf) < HEADER.size:
                        break
                    (n,) = HEADER.unpack_from(self._buf)
                    if n == 0:
                        raise FrameError("frame of length 0")
                    if n > MAX_FRAME:
                        raise FrameError(f"frame length {n} exceeds the limit of {MAX_FRAME} bytes "
                                         f"(is the peer speaking another protocol?)")
                    del self._buf[:HEADER.size]
                    self._need = n
                if len(self._buf) < self._need:
                    break
                payload = bytes(self._buf[:self._need])
                del self._buf[:self._need]
                self._need = None
                out.append(decode_payload(payload, self.schemas))
        except FrameError as e:
            self._error = e
            self._buf.clear()
            raise
        return out


# --------------------------------------------------------------------------- schema
#: One key's check in a schema table: what is wrong with a value (English, for the closing
#: reason), or None. The checks below are the public vocabulary of every schema table, the
#: layer's and each game's (:attr:`net.match.LanPart.schemas`).
Check = Callable[[Any], str | None]


def string(lo: int, hi: int, printable: bool = False) -> Check:
    """A string of ``lo``..``hi`` characters (``printable``: no control characters)."""
    def check(v: Any) -> str | None:
        if type(v) is not str:
            return "must be a string"
        if not lo <= len(v) <= hi:
            return f"must have {lo}..{hi} characters"
        if printable and any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in v):
            return "must not contain control characters"
        return None
    return check


def integer(lo: int, hi: int) -> Check:
    """An integer (never a bool) in ``lo``..``hi``."""
    def check(v: Any) -> str | None:
        if type(v) is not int:
            return "must be an integer"
        if not lo <= v <= hi:
            return f"must be in {lo}..{hi}"
        return None
    return check


def binary(*sizes: int) -> Check:
    """Binary of exactly one of ``sizes`` bytes."""
    def check(v: Any) -> str | None:
        if type(v) is not bytes:
            return "must be binary"
        if len(v) not in sizes:
            return f"must be {' or '.join(map(str, sizes))} bytes"
        return None
    return check


def blob(lo: int, hi: int) -> Check:
    """Raw bytes of ``lo``..``hi`` bytes (a game's own canonical bytes, e.g. a signed envelope)."""
    def check(v: Any) -> str | None:
        if type(v) is not bytes:
            return "must be binary"
        if not lo <= len(v) <= hi:
            return f"must have {lo}..{hi} bytes"
        return None
    return check


def boolean(v: Any) -> str | None:
    """True or false (a check itself)."""
    return None if type(v) is bool else "must be true or false"


def player_name(v: Any) -> str | None:
    """A player name a hello may carry (a check itself; :func:`net.limits.name_problem`)."""
    return name_problem(v, MAX_NAME)


def tuple_of(*items: Check) -> Check:
    """An array of exactly ``len(items)`` items, each passing its own check."""
    def check(v: Any) -> str | None:
        if type(v) is not list or len(v) != len(items):
            return f"must be an array of {len(items)} items"
        for i, (x, c) in enumerate(zip(v, items)):
            why = c(x)
            if why:
                return f"item {i} {why}"
        return None
    return check


def one_of(*values: str) -> Check:
    """One of the strings ``values``."""
    def check(v: Any) -> str | None:
        return None if type(v) is str and v in values else f"must be one of {', '.join(map(repr, values))}"
    return check


def list_of(item: Check, lo: int, hi: int) -> Check:
    """An array of ``lo``..``hi`` items, each passing ``item``."""
    def check(v: Any) -> str | None:
        if type(v) is not list:
            return "must be an array"
        if not lo <= len(v) <= hi:
            return f"must have {lo}..{hi} items"
        for i, x in enumerate(v):
            why = item(x)
            if why:
                return f"item {i} {why}"
        return None
    return check


_SECRET = binary(32)

#: The connection skeleton every game's messages share (docs/protocol.md, "The LAN layer"):
#: message type -> {key: check}. Every message also has ``"t"``; no other key is allowed.
SHARED_SCHEMAS: dict[str, dict[str, Check]] = {
    "commit": {"for": integer(-1, MAX_PLY), "c": binary(32)},
    "reveal": {"for": integer(-1, MAX_PLY), "s": _SECRET},
    "ping": {},
    "error": {"code": string(1, 32), "reason": string(0, 500)},
}


class Schemas(dict[str, Any]):
    """A schema table (message type -> {key: check}) that names the protocol version its
    ``hello`` must carry in ``pv`` (the LAN layer's :data:`net.lobby.LAN_VERSION`; a plain
    dict means :data:`~net.PROTOCOL_VERSION`) and the longest binary a frame may
    hold (``max_bin`` bytes: 64 unless a game's LAN part needs more, e.g. signed envelopes; at
    most :data:`MAX_FRAME`)."""

    def __init__(self, table: dict[str, Any], version: int, max_bin: int = 64) -> None:
        if not 1 <= max_bin <= MAX_FRAME:
            raise ValueError(f"max_bin must be 1..{MAX_FRAME} bytes, not {max_bin}")
        super().__init__(table)
        self.version = version
        self.max_bin = max_bin


def check_message(msg: Any, schemas: dict[str, Any] | None = None) -> None:
    """Check a decoded message against ``schemas`` (default :data:`SHARED_SCHEMAS`). Raises FrameError saying
    which key is wrong (code ``"schema"``), or code ``"version"`` for a hello of an
    incompatible protocol (checked before the rest of the hello, whose keys may
    differ in other versions)."""
    if not isinstance(msg, dict):
        raise FrameError(f"a message must be a map, not {type(msg).__name__}", "schema")
    t = msg.get("t")
    if type(t) is not str:
        raise FrameError('a message needs a string "t" (its type)', "schema")
    schema = (SHARED_SCHEMAS if schemas is None else schemas).get(t)
    if schema is None:
        raise FrameError(f"unknown message type {t[:32]!r}", "schema")
    if t == "hello":
        proto, pv = msg.get("proto"), msg.get("pv")
        want = getattr(schemas, "version", PROTOCOL_VERSION)
        if proto != PROTOCOL_NAME or pv != want:
            theirs = f"{str(proto)[:32]} {str(pv)[:8]}"
            newer = "" if proto != PROTOCOL_NAME or type(pv) is not int else (
                "; this table needs a newer version" if pv > want else "; the peer needs a newer version")
            raise FrameError(f"incompatible versions: this program speaks {PROTOCOL_NAME} {want}, "
                             f"the peer {theirs}{newer}; both players need the same version of the program", "version")
    keys = set(msg) - {"t"}
    missing = set(schema) - keys
    if missing:
        raise FrameError(f"{t}: missing key {sorted(missing)[0]!r}", "schema")
    extra = keys - set(schema)
    if extra:
        raise FrameError(f"{t}: unexpected key {str(sorted(map(str, extra))[0])[:32]!r}", "schema")
    for key, check in schema.items():
        why = check(msg[key])
        if why:
            raise FrameError(f"{t}: {key!r} {why}", "schema")
