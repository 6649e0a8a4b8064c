"""A Royals & Riots LAN match as a saved game, with no window and no network
(docs/royals-record-format.md, "Saved games"): what a window, a headless peer or a bench keeps of
the match machine's record.

The record is the machine's (the rounds every seat audited, identical on every peer, with its
``"lan"`` key); the save adds ``game_id`` (:func:`save_id`), ``kind: "lan"`` (the saved-games
list shows it as a network match that is watched, never played on, here) and ``seats`` (each
seat's name and whether the host's program played it).
"""

from __future__ import annotations

import re
import uuid
from typing import Any, Mapping, Sequence

from ..engine import Record


def save_id(record: Any, seat: int) -> str:
    """The saved-games id of one seat's copy of a network match: ``royals-<LAN game id>-<seat>``
    (``record.extra["lan"]["game"]``, 32 hex digits; ``seat`` 1-4), so every later write of the
    same match replaces the earlier one and two seats of one match on one machine keep a file
    each. A record without a readable game id, or a seat out of range, gets a fresh id."""
    lan = getattr(record, "extra", {}).get("lan") if record is not None else None
    game = lan.get("game") if isinstance(lan, dict) else None
    if isinstance(game, str) and re.fullmatch(r"[0-9a-f]{32}", game) and 1 <= seat <= 4:
        return f"royals-{game}-{seat}"
    return uuid.uuid4().hex


def lan_save(record: Record | None, seat: int, computers: Sequence[int] = ()) -> tuple[str, Record] | None:
    """``(save id, record)`` of one seat's copy of a network match: ``record`` (a
    :class:`~game.royals.engine.Record`) with the saved-game keys added; ``seat`` 1-4 (ours);
    ``computers``: the 1-based seats the host's program played. None without a record."""
    if record is None:
        return None
    game_id = save_id(record, seat)
    names = list(record.players)
    record.extra = {**record.extra, "game_id": game_id, "kind": "lan",
                    "seats": [{"name": n, "level": None, **({"computer": True} if s in computers else {})}
                              for s, n in enumerate(names, 1)]}
    return game_id, record


def save_text(record: Mapping[str, Any] | None, seat: int, computers: Sequence[int] = ()) -> tuple[str, str] | None:
    """The save of a network match as ``(save id, JSON text)`` from the machine's record dict
    (``seat`` 0-based, the machine's numbering; ``computers`` 0-based too), or None without a
    record. A match left or stopped in its first round (no round audited) is kept too: the
    saved-games list shows it, and its ``"lan"`` key says how it ended. Raises RecordError (a
    ValueError) for a record that does not parse."""
    if record is None:
        return None
    save = lan_save(Record.from_dict(dict(record)), seat + 1, [s + 1 for s in computers])
    if save is None:
        return None
    return save[0], save[1].to_json()


__all__ = ["lan_save", "save_id", "save_text"]
