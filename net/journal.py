"""A peer's private journal and its record file (docs/protocol.md, "The LAN layer: session",
"Journal").

The journal (``FILE.journal`` beside ``--record FILE``: JSON, mode 0600, written atomically)
holds the lobby's seat memo and the game's match payload: its secrets, its commitments, its
own decisions, written before each promise is sent (:class:`net.session.Session` calls
:func:`write_journal` when the match starts and at every :class:`~net.match.Save`); each game
owns its payload. It is private (it holds secrets): never sent as a whole, different on each
peer. The record (``FILE``) is what the peers share: the machine's
:meth:`~net.match.MatchMachine.record`, written by :func:`write_record`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .events import JoinError
from .lobby import SeatMemo

JOURNAL_FORMAT = "lan-journal"
JOURNAL_VERSION = 1


def seat_path(record: str | os.PathLike[str]) -> Path:
    """Where the private journal of the game recorded in ``record`` lives: ``<record>.journal``
    (every game's)."""
    record = Path(record)
    return record.with_name(record.name + ".journal")


def load_journal(path: str | os.PathLike[str], game_key: str) -> tuple[SeatMemo, dict[str, Any]] | None:
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


def write_journal(record: str | os.PathLike[str], game_key: str, memo: SeatMemo, payload: dict[str, Any]) -> Path:
    """Write the journal of the match recorded in ``record`` (at :func:`seat_path`), atomically,
    mode 0600: the seat ``memo`` and the machine's ``payload``. Returns the path; raises
    OSError when it cannot be written (the caller must then send nothing it promised)."""
    from game.fsutil import atomic_write_text
    path = seat_path(record)
    data = {"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, "g": game_key, "memo": memo.to_json(),
            "match": payload}
    atomic_write_text(path, json.dumps(data, indent=1) + "\n", mode=0o600)
    return path


def write_record(record: str | os.PathLike[str], rec: Any) -> None:
    """Write the shared record ``rec`` (JSON-able) to ``record``, atomically. Raises OSError."""
    from game.fsutil import atomic_write_text
    atomic_write_text(record, json.dumps(rec, indent=1) + "\n")
