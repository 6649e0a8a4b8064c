"""A peer's private journal: what it promised, written before it is sent (docs/protocol.md,
"Journal").

The journal of one game holds the game id, this peer's seat and its resume secret, the
peer's resume secret, every coin this peer took part in (its secret and commitment, the
peer's commitment and secret once known), this peer's own moves by ply, and the ply at
which it resigned. The :class:`Connection` calls :meth:`Journal.save` before it queues a
commitment, a reveal, one of its own moves or a resignation, so after a crash, a restart or
a new connection the same coin is finished, never tossed anew, and a peer can tell its own
moves from moves put in its mouth.

The journal is private (it holds secrets): it is never sent as a whole and differs between
peers; the game record (``docs/record-format.md``) is what both peers share.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from .coin import CoinEntry

FORMAT = "rose-king-lan-journal"
VERSION = 1
MAX_JOURNAL_BYTES = 1 << 20


@dataclass
class Journal:
    """The state of one seat that outlives connections (see the module docstring).

    ``game_id`` is ``b""`` until a game is agreed. ``game`` is the live game object of the
    protocol module (for Rose King a :class:`net.roseking.LanGame`), None until the set-up
    coin is done or when this peer holds no copy of the moves. ``sink`` is called with the
    journal by :meth:`save` (the transport writes the file there; None keeps it in memory).
    """

    game_id: bytes = b""
    seat: int = 0
    key: bytes = b""
    peer_key: bytes = b""
    coins: dict[int, CoinEntry] = field(default_factory=dict)
    own: dict[int, str] = field(default_factory=dict)
    resigned_at: int | None = None
    #: Rose King: the host's colour choice for this game ("red", "white", "" = random), fixed at the hellos
    host_colour: str = ""
    game: Any = None
    sink: Callable[["Journal"], None] | None = None
    saves: int = 0

    def reset(self, game_id: bytes, seat: int, key: bytes, peer_key: bytes) -> None:
        """Start the journal of a new game (forgets the previous one)."""
        self.game_id, self.seat, self.key, self.peer_key = game_id, seat, key, peer_key
        self.coins, self.own, self.resigned_at, self.game = {}, {}, None, None
        self.host_colour = ""

    def save(self) -> None:
        """Make the journal durable now (before the promise it holds is sent). Raises OSError
        from the sink: then nothing must be sent."""
        self.saves += 1
        if self.sink is not None:
            self.sink(self)

    def open_coin(self) -> CoinEntry | None:
        """The coin this peer committed to and whose outcome it does not hold yet, if any."""
        open_ = [c for c in self.coins.values() if not c.done]
        return max(open_, key=lambda c: c.purpose) if open_ else None

    # ------------------------------------------------------------------ file form
    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, "game": self.game_id.hex(), "seat": self.seat,
                           "key": self.key.hex(), "peer_key": self.peer_key.hex(),
                           "coins": [c.to_json() for c in sorted(self.coins.values(), key=lambda c: c.purpose)],
                           "own": {str(k): v for k, v in sorted(self.own.items())},
                           "resigned_at": self.resigned_at, "host_colour": self.host_colour}, indent=1) + "\n"

    @classmethod
    def from_json(cls, data: bytes) -> "Journal":
        """Parse a journal file's bytes. Raises ValueError (with a one-line reason)."""
        from game.records import RecordError, parse_json
        try:
            d = parse_json(data)
        except RecordError as e:
            raise ValueError(f"not a LAN journal: {e}") from None
        if d.get("format") != FORMAT or d.get("version") != VERSION:
            raise ValueError("not a LAN journal (format or version)")
        try:
            j = cls(bytes.fromhex(d["game"]), int(d["seat"]), bytes.fromhex(d["key"]), bytes.fromhex(d["peer_key"]))
            if len(j.game_id) != 16 or len(j.key) != 32 or len(j.peer_key) != 32 or not 0 <= j.seat < 8:
                raise ValueError("bad ids or keys")
            for c in d["coins"][:10_000]:
                entry = CoinEntry.from_json(c)
                j.coins[entry.purpose] = entry
            for k, v in list(d["own"].items())[:10_000]:
                if not isinstance(v, str) or len(v) > 24:
                    raise ValueError("bad own move")
                j.own[int(k)] = v
            r = d.get("resigned_at")
            if r is not None and type(r) is not int:
                raise ValueError("bad resigned_at")
            j.resigned_at = r
            hc = d.get("host_colour", "")
            if hc not in ("", "red", "white"):
                raise ValueError("bad host_colour")
            j.host_colour = hc
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"not a LAN journal: {e}") from None
        return j


def seat_path(record: str | os.PathLike[str]) -> "Path":
    """Where the private journal of the game recorded in ``record`` lives: ``<record>.journal``
    (every game's, on both LAN stacks)."""
    from pathlib import Path
    record = Path(record)
    return record.with_name(record.name + ".journal")


def file_sink(path: str | os.PathLike[str]) -> Callable[[Journal], None]:
    """A sink that rewrites ``path`` atomically and durably (write, fsync, rename)."""
    from game.fsutil import atomic_write_text

    def sink(journal: Journal) -> None:
        atomic_write_text(path, journal.to_json(), mode=0o600)
    return sink


def load_journal(path: str | os.PathLike[str]) -> Journal | None:
    """The journal in ``path``, or None if there is no such file. Raises ValueError for a file
    that cannot be read or is not a journal (bounded read: no FIFO, no huge file)."""
    from game.records import RecordError, read_bytes
    if not os.path.lexists(path):
        return None
    try:
        data = read_bytes(path, MAX_JOURNAL_BYTES)
    except RecordError as e:
        raise ValueError(str(e)) from None
    return Journal.from_json(data)
