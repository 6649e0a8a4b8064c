"""What the saved games of every game share without knowing the games: the data
folder, bounded reading and parsing of a record file, the errors worded for players, the
saved-games list's :class:`Summary` a game makes of its record, and the keys every save has
(``game_id``, ``kind``). :mod:`game.saves` (the store, the list, the autosaver) builds on it and
finds the games through :mod:`game.registry`; a game's own save types (``game/<game>/saves.py``)
import only this module, so no import runs back through the registry.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from game.records import RecordError as BaseRecordError
from game.i18n import N_, _

ENV_DATA_DIR = "ROSE_KING_DATA_DIR"
APP_NAME = "rose-king"
KINDS = ("local", "computer", "lan")
#: Kinds of game that can be resumed on this machine (a LAN game needs its peer).
RESUMABLE_KINDS = ("local", "computer")
MAX_FILE_BYTES = 1 << 20  # a 10 000-move record is ~200 kB; anything past 1 MiB is not ours
#: A game id: the save's file name without ``.json``.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class SaveError(Exception):
    """A saved game that cannot be opened. ``str(e)`` is a one-line, player-readable message."""


# ---------------------------------------------------------------------- files
def default_data_dir() -> Path:
    """The user data folder: ``$ROSE_KING_DATA_DIR`` if set, else platformdirs' ``user_data_dir``."""
    env = os.environ.get(ENV_DATA_DIR)
    if env:
        return Path(env)
    from platformdirs import user_data_dir
    return Path(user_data_dir(APP_NAME, appauthor=False))


def read_bounded(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES` (:func:`game.records.read_bytes`:
    a FIFO or device named ``*.json`` is refused without blocking, a huge file without reading it
    all, a name the system refuses with its reason). Raises :class:`SaveError` with the same
    one-line reason ``rose-king check`` prints."""
    from game.records import read_bytes
    try:
        return read_bytes(path, MAX_FILE_BYTES)
    except BaseRecordError as e:
        raise SaveError(e.reason) from None  # the very line rose-king check prints


def parse_json_bytes(data: bytes) -> dict[str, Any]:
    """Parse record bytes into their top-level JSON object (not yet checked as any game's record).
    Raises :class:`SaveError` naming what is wrong: too large, empty, binary, not UTF-8,
    truncated, not JSON, nested too deeply, not an object."""
    from game.records import parse_json
    if len(data) > MAX_FILE_BYTES:
        raise SaveError(file_reason(f"not a record: the file is too large (more than {MAX_FILE_BYTES // 1024} KiB)"))
    try:  # one set of reasons: rose-king check words a bad file the same way
        return parse_json(data)
    except BaseRecordError as e:
        raise SaveError(file_reason(e.reason)) from None


def check_version(record: dict[str, Any], newest: int) -> None:
    """Raise :class:`SaveError` if ``record``'s ``version`` is newer than ``newest`` (the newest
    record version its game reads): a newer program made it."""
    version = record.get("version")
    if type(version) is int and version > newest:
        raise SaveError(_("made by a newer Rose King (record version {version}; this one reads up to {max}): "
                          "update Rose King to open it").format(version=version, max=newest))


#: The reasons of :mod:`game.records` and :mod:`game.registry` that do not vary, for the catalogues;
#: :func:`file_reason` shows them in the player's language (the others stay as written).
FILE_REASONS = (
    N_("the file is empty"), N_("not a record: binary data"), N_("not a record: the file is not UTF-8 text"),
    N_("the file is cut short (truncated): it ends in the middle of the record"),
    N_("not a record: JSON nested too deeply"), N_("not a record: not a regular file"),
    N_("not a record of this app: a JSON file of another kind (its top level is not an object)"),
)


def file_reason(reason: str) -> str:
    """A file-level reason of :mod:`game.records` in the current language (as written if it varies)."""
    return _(reason) if reason in FILE_REASONS else reason


def record_error_text(e: BaseRecordError) -> str:
    """The one-line, player-readable text of a record's rule or shape error (any game)."""
    move_number = getattr(e, "move_number", None)
    if move_number is not None:
        return _("damaged record: move {number} {move}: {reason}").format(
            number=move_number, move=json.dumps(getattr(e, "move_text", None)), reason=e.reason)
    if e.where is not None:
        return _("damaged record: {where}: {reason}").format(where=e.where, reason=e.reason)
    return _("damaged record: {reason}").format(reason=e.reason)


# ---------------------------------------------------------------------- a record's summary
@dataclass(frozen=True)
class Summary:
    """What the saved-games list and the main menu's "Continue" show of one record, made by its
    game's plugin (``Game.summarize``); every text in the current language when called.

    ``game_id``: the save's id (its file name); ``kind``: ``"local"``, ``"computer"`` or ``"lan"``;
    ``date``: when the game started (ISO 8601 UTC) or None; ``plies``: the record's length as the
    game's engine and replay viewer count them (``Game.plies``); ``result``: the record's result
    object once the game is over, else None; ``scores``: the points now, per seat (or per team).
    ``players()``: the players' names (``"Ann – Bob"``); ``status()``: the winners by name and the
    score (``"Ann wins 140–42"``) or who is to act (``"in progress · Bob to move"``);
    ``progress()``: how far the game is, in the game's own words (``"round 2 of 3, trick 5"``).
    ``note()``: the list's small second line, or None: what kind of save it is where that matters
    (a network game's, which is only watched here until it is finished).
    """

    game_id: str
    kind: str
    date: str | None
    plies: int
    result: dict[str, Any] | None
    scores: tuple[int, ...]
    players: Callable[[], str]
    status: Callable[[], str]
    progress: Callable[[], str]
    note: Callable[[], str | None] = lambda: None


def save_id(record: dict[str, Any], fallback_id: str) -> str:
    """The record's ``game_id`` key if it is a good id, else ``fallback_id`` (its file's name) if
    that is one, else ``"game"``."""
    game_id = record.get("game_id")
    if isinstance(game_id, str) and GAME_ID.fullmatch(game_id):
        return game_id
    return fallback_id if GAME_ID.fullmatch(fallback_id) else "game"


def save_kind(record: dict[str, Any], allowed: Iterable[str] = KINDS) -> str:
    """The record's ``kind`` key if it is one of ``allowed``, else ``"local"`` (a record from
    elsewhere, or a kind its game's saves do not know, plays as a game between people here)."""
    kind = record.get("kind")
    return kind if isinstance(kind, str) and kind in allowed else "local"


# ---------------------------------------------------------------------- the list


class SaveMeta(Protocol):
    """What a game's save metadata gives the store and the autosaver: its id, and the record of a
    state of its game (an object with ``to_json()``): Rose King's ``GameMeta``, Royals & Riots'
    ``RoyalsSave``."""

    @property
    def game_id(self) -> str: ...

    def record(self, state: Any) -> Any: ...
