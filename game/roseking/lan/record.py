"""A Rose King LAN match as a saved game, with no window and no network (docs/record-format.md,
"LAN games"): what a window, a headless peer or a bench keeps of the match machine's record.

The record is the machine's (identical on both peers); the save adds the saved-game keys
``game_id`` (the LAN game id in hex: both sides' saves of one game carry the same id, and a
resumed game replaces its earlier save) and ``kind: "lan"`` (the saved-games list shows it as a
network game that is watched, never played on, here).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..engine import Record
from ..saves import GameMeta

#: The ``format`` of the record of a match that ended before its deal (nothing to keep).
UNDEALT = "rose-king-lan-undealt"


def lan_save(record: Mapping[str, Any] | None) -> tuple[str, Record] | None:
    """``(save id, Record)`` of a LAN match's ``record`` (the machine's dict, with its
    ``"lan": {"game": HEX}``), the record carrying the saved-game keys. None for None or the
    record of a match that ended before its deal. Raises RecordError (a ValueError) for a record that does not parse."""
    if record is None or record.get("format") == UNDEALT:
        return None
    rec = Record.from_dict(dict(record))
    game_id = str(record["lan"]["game"])
    meta = GameMeta(game_id=game_id, kind="lan", red=rec.red, white=rec.white, date=rec.date)
    rec.extra.update(meta.extra())
    return meta.game_id, rec


def save_text(record: Mapping[str, Any] | None, seat: int = 0) -> tuple[str, str] | None:
    """The save of a LAN match as ``(save id, JSON text)`` for the saved-games store, or None when
    there is nothing to keep yet (no deal; no move made and not over). ``seat`` is unused (both
    seats of a Rose King match keep the same file). Raises RecordError for a bad record."""
    save = lan_save(record)
    if save is None:
        return None
    game_id, rec = save
    if not rec.moves and not rec.termination and not dict(rec.extra.get("lan") or {}).get("stopped"):
        return None
    return game_id, rec.to_json()


__all__ = ["lan_save", "save_text"]
