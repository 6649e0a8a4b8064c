"""Saved games: atomic writes, autosave after each move, "save as", the list, resume.

Saves are game records in the engine's format (``docs/record-format.md``), one
small file per game named by its game id, in ``<data dir>/saves/``. The data dir
is, in order: the ``data_dir`` argument, the ``ROSE_KING_DATA_DIR`` environment
variable (tests use it; they never touch the real home), or platformdirs'
``user_data_dir("rose-king")``.

Metadata the record format lacks rides in extra top-level keys that other
readers ignore (documented in ``docs/record-format.md``, "Saved-game keys"):
``game_id``, ``kind`` (``local``/``computer``/``lan``), ``computer``
(``{"level": ..., "color": ...}``) and ``chance_seed`` (the hidden pile order of
:class:`game.roseking.undo.DeckChance`).

Every write is atomic (:func:`atomic_write_text`): a kill at any moment leaves
either the old file or the new one, never a torn one. A file that cannot be read
as a record shows up in :meth:`SaveStore.list` as an entry with a clear error
instead of breaking the list.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from game.roseking.engine import Color, Record, RecordError, State, now_iso
from game.roseking.engine.record import FORMAT
from game.records import RecordError as BaseRecordError
from game.fsutil import atomic_write_text, fsync_dir
from game.i18n import N_, _

ENV_DATA_DIR = "ROSE_KING_DATA_DIR"
APP_NAME = "rose-king"
KINDS = ("local", "computer", "lan")
#: Kinds of game that can be resumed on this machine (a LAN game needs its peer).
RESUMABLE_KINDS = ("local", "computer")
TEMP_MAX_AGE = 60.0  # seconds after which a temporary file left by a killed writer is litter
MAX_FILE_BYTES = 1 << 20  # a 10 000-move record is ~200 kB; anything past 1 MiB is not ours
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


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


def read_record(path: str | os.PathLike[str]) -> Record:
    """Read and fully check a record file (shape, every move, the result).

    Raises :class:`SaveError` with a one-line message for every bad case: cannot
    read, empty, binary, too large, truncated, not JSON, not a Rose King record,
    a newer format version, or a move that breaks a rule (naming the move and the
    rule). Never raises anything else for a bad file.
    """
    return read_game(path)[0]


def read_game(path: str | os.PathLike[str]) -> tuple[Record, State]:
    """:func:`read_record` that also returns the state after the last move
    (the replay that checked it). Raises :class:`SaveError`."""
    record = parse_record(_read_bounded(path))
    try:
        return record, record.replay()
    except RecordError as e:
        raise SaveError(record_error_text(e)) from None


def read_json_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record file of any game of the app into its top-level JSON object (not yet
    checked against the game's rules). Raises :class:`SaveError` with the same one-line
    reasons as :func:`read_game`."""
    return parse_json_record(_read_bounded(path))


def _read_bounded(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES` (:func:`game.records.read_bytes`:
    a FIFO or device named ``*.json`` is refused without blocking, a huge file without reading it
    all, a name the system refuses with its reason). Raises :class:`SaveError` with the same
    one-line reason ``rose-king check`` prints."""
    from game.records import read_bytes
    try:
        return read_bytes(path, MAX_FILE_BYTES)
    except BaseRecordError as e:
        raise SaveError(e.reason) from None  # the very line rose-king check prints


def parse_json_record(data: bytes) -> dict[str, Any]:
    """Parse record bytes into the top-level object of a record of one of the app's games;
    raises :class:`SaveError` naming what is wrong."""
    from game.records import parse_json
    from game.registry import game_for_record
    if len(data) > MAX_FILE_BYTES:
        raise SaveError(file_reason(f"not a record: the file is too large (more than {MAX_FILE_BYTES // 1024} KiB)"))
    try:  # one set of reasons (issue 15): rose-king check words a bad file the same way
        obj = parse_json(data)
        game = game_for_record(obj)
    except BaseRecordError as e:
        raise SaveError(file_reason(e.reason)) from None
    version = obj.get("version")
    if type(version) is int and version > game.record_version:
        raise SaveError(_("made by a newer Rose King (record version {version}; this one reads up to {max}): "
                          "update Rose King to open it").format(version=version, max=game.record_version))
    return obj


def parse_record(data: bytes) -> Record:
    """Parse (not replay) Rose King record bytes; raises :class:`SaveError` naming what is wrong."""
    obj = parse_json_record(data)
    if obj.get("format") != FORMAT:
        raise SaveError(_("not a Rose King record: a JSON file of another kind"))
    try:
        return Record.from_dict(obj)
    except RecordError as e:
        raise SaveError(record_error_text(e)) from None


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
            number=move_number, move=json.dumps(e.move_text), reason=e.reason)
    if e.where is not None:
        return _("damaged record: {where}: {reason}").format(where=e.where, reason=e.reason)
    return _("damaged record: {reason}").format(reason=e.reason)


# ---------------------------------------------------------------------- metadata
@dataclass(frozen=True)
class GameMeta:
    """What a save knows beyond the moves: who plays, what kind of game, its id.

    ``kind``: ``"local"`` (two people on one machine), ``"computer"`` or ``"lan"``.
    ``computer_level`` / ``computer_color``: set for ``kind == "computer"``.
    ``chance_seed``: the seed of the game's :class:`~game.roseking.undo.DeckChance` (local
    games), so a resumed game draws the same cards; None for LAN games.
    ``date``: when the game started (ISO 8601 UTC).
    """

    game_id: str
    kind: str = "local"
    red: str | None = None
    white: str | None = None
    date: str | None = None
    computer_level: str | None = None
    computer_color: Color | None = None
    chance_seed: int | None = None

    def __post_init__(self) -> None:
        if not _GAME_ID.fullmatch(self.game_id):
            raise ValueError(f"bad game id {self.game_id!r}: use 1-64 letters, digits, '-' or '_'")
        if self.kind not in KINDS:
            raise ValueError(f"bad game kind {self.kind!r} (expected one of {', '.join(KINDS)})")
        if self.kind == "computer" and (self.computer_level is None or self.computer_color is None):
            raise ValueError("a game against the computer needs computer_level and computer_color")

    @classmethod
    def new(cls, kind: str = "local", *, red: str | None = None, white: str | None = None,
            computer_level: str | None = None, computer_color: Color | None = None,
            chance_seed: int | None = None) -> "GameMeta":
        """Metadata of a game starting now: a fresh id, today's date, and (unless LAN)
        a fresh chance seed when none is given."""
        if chance_seed is None and kind != "lan":
            chance_seed = secrets.randbits(63)
        return cls(game_id=uuid.uuid4().hex, kind=kind, red=red, white=white, date=now_iso(),
                   computer_level=computer_level,
                   computer_color=None if computer_color is None else Color(computer_color),
                   chance_seed=chance_seed)

    def extra(self) -> dict[str, Any]:
        """The extra top-level record keys for this metadata."""
        d: dict[str, Any] = {"game_id": self.game_id, "kind": self.kind}
        if self.kind == "computer":
            d["computer"] = {"level": self.computer_level, "color": str(self.computer_color)}
        if self.chance_seed is not None:
            d["chance_seed"] = self.chance_seed
        return d

    @classmethod
    def from_record(cls, record: Record, fallback_id: str = "game") -> "GameMeta":
        """Read the metadata back; missing or malformed extra keys fall back to a plain
        local game named ``fallback_id`` (a record from elsewhere is still playable)."""
        x = record.extra
        game_id = x.get("game_id")
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            game_id = fallback_id if _GAME_ID.fullmatch(fallback_id) else "game"
        kind: str = x["kind"] if x.get("kind") in KINDS else "local"
        level: str | None = None
        color: Color | None = None
        comp = x.get("computer")
        if kind == "computer":
            if isinstance(comp, dict) and isinstance(comp.get("level"), str) and comp.get("color") in ("red", "white"):
                level, color = comp["level"], Color.from_name(comp["color"])
            else:
                kind = "local"
        seed = x.get("chance_seed")
        if type(seed) is not int:
            seed = None
        return cls(game_id, kind, record.red, record.white, record.date, level, color, seed)

    def record(self, state: State) -> Record:
        """The record of ``state``'s game with this metadata (result filled in once over)."""
        rec = Record.from_state(state, red=self.red, white=self.white, date=self.date)
        rec.extra = self.extra()
        return rec


# ---------------------------------------------------------------------- the list
@dataclass(frozen=True)
class SaveEntry:
    """One file of the saved-games list.

    ``error`` is None for a good save, else a one-line message (then the other
    fields hold what could be known: ``path``, ``game_id`` from the file name,
    ``mtime_ns``). ``status``: ``"finished"``, ``"in progress"`` or ``"error"``.
    ``result``: the record's result object for a finished game. ``scores``:
    (red, white) now. ``plies``: the plies played, as the game's engine and replay viewer
    count them (:meth:`game.registry.Game.plies`; a Royals & Riots match's set-up included).
    """

    path: Path
    game_id: str
    mtime_ns: int
    error: str | None = None
    meta: GameMeta | None = None
    plies: int = 0
    result: dict[str, Any] | None = None
    scores: tuple[int, int] = (0, 0)
    to_move: Color | None = None
    record: Record | None = field(default=None, repr=False, compare=False)
    #: Another game's save (not Rose King): its players' names and its status line, and the game's key.
    names: tuple[str, ...] | None = None
    summary: str | None = None
    game: str = "rose-king"

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def status(self) -> str:
        if self.error is not None:
            return "error"
        return "finished" if self.result is not None else "in progress"

    @property
    def kind(self) -> str | None:
        return None if self.meta is None else self.meta.kind

    @property
    def date(self) -> str | None:
        return None if self.meta is None else self.meta.date

    def players(self) -> str:
        """``"Alice – Bob"`` with localized defaults for missing names."""
        if self.names is not None:
            return " – ".join(self.names)
        if self.meta is None:
            return ""
        return _("{red} – {white}").format(red=self.meta.red or _("Red"), white=self.meta.white or _("White"))

    def note(self) -> str | None:
        """The list's small second line of a network game (kind ``"lan"``), in the current
        language: ``Network game`` (Rose King) or ``Network match`` (Royals & Riots) once
        finished; unfinished (it stopped, or this player left it), that it is only watched
        here — it is played on only with its players: a Rose King game through its peer's
        reconnection, a Royals & Riots match by joining its host again. None for any other save."""
        if self.error is not None or self.kind != "lan":
            return None
        if self.game == "rose-king":
            if self.result is not None:
                return _("Network game")
            return _("Unfinished network game: it can only be watched here (Replay)")
        if self.result is not None:
            return _("Network match")
        return _("Unfinished network match: it can only be watched here (Replay)")

    def status_text(self) -> str:
        """The list's result column: ``in progress``, ``Red wins 140–42``, ``Draw 30–30``, or the error."""
        if self.error is not None:
            return self.error
        if self.summary is not None:
            return self.summary
        if self.result is None:
            return _("in progress")
        r, w = self.result["red"], self.result["white"]
        if self.result["winner"] == "red":
            return _("Red wins {red}–{white}").format(red=r, white=w)
        if self.result["winner"] == "white":
            return _("White wins {red}–{white}").format(red=r, white=w)
        return _("Draw {red}–{white}").format(red=r, white=w)


class SaveStore:
    """The saved games of one user: ``<data_dir>/saves/<game_id>.json``.

    ``data_dir``: overrides :func:`default_data_dir`. The folder is created on the
    first write. All writes go through :func:`atomic_write_text`.
    """

    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.folder = self.data_dir / "saves"
        self._cache: dict[Path, tuple[tuple[int, int, int], SaveEntry]] = {}

    def path_for(self, game_id: str) -> Path:
        if not _GAME_ID.fullmatch(game_id):
            raise ValueError(f"bad game id {game_id!r}")
        return self.folder / f"{game_id}.json"

    # -------------------------------------------------------------- writing
    def autosave(self, state: State, meta: GameMeta) -> Path:
        """Write ``state``'s game to its file (``<game_id>.json``), atomically; returns the path.

        Call it after each move (and after an undo). Cost: one small JSON file
        (about 20 bytes a move) and two fsyncs; see ``bench/replay.py``.
        Raises OSError if the disk refuses; the previous save is then intact.
        """
        return self.write(meta.game_id, meta.record(state).to_json())

    def write(self, game_id: str, text: str) -> Path:
        """Atomically write record ``text`` as the save of ``game_id``; returns the path. Raises OSError."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path_for(game_id)
        atomic_write_text(path, text)
        return path

    @staticmethod
    def save_as(state: State, meta: GameMeta, path: str | os.PathLike[str]) -> Path:
        """Write the game to a chosen file ("Save as…"), atomically. Raises OSError."""
        path = Path(path)
        atomic_write_text(path, meta.record(state).to_json())
        return path

    def delete(self, target: "SaveEntry | str") -> None:
        """Delete a save of this store: a list entry (good or bad) or a game id.

        Raises ValueError for a path outside the saves folder, FileNotFoundError
        if it is gone already.
        """
        if isinstance(target, SaveEntry):
            path = target.path
            if path.resolve().parent != self.folder.resolve():
                raise ValueError(f"not a save of this store: {path}")
        else:
            path = self.path_for(target)
        os.unlink(path)
        if self.folder.exists():
            fsync_dir(self.folder)

    # -------------------------------------------------------------- reading
    def entry(self, path: str | os.PathLike[str]) -> SaveEntry:
        """Read one file into a list entry; a bad file gives an entry with ``error`` set.

        Entries are cached by (inode, size, mtime): reopening the list rereads only
        files that changed (an atomic write always makes a new inode).
        """
        path = Path(path)
        try:
            st = path.stat()
            key: tuple[int, int, int] | None = (st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            key = None
        cached = self._cache.get(path)
        if key is not None and cached is not None and cached[0] == key:
            return cached[1]
        entry = self._read_entry(path, 0 if key is None else key[2])
        if key is not None:
            self._cache[path] = (key, entry)
        return entry

    @staticmethod
    def _read_entry(path: Path, mtime: int) -> SaveEntry:
        stem = path.stem
        try:
            obj = read_json_record(path)
        except SaveError as e:
            return SaveEntry(path, stem, mtime, error=str(e))
        if obj.get("format") != FORMAT:
            return _other_game_entry(path, mtime, obj)
        try:
            record, state = read_game(path)
        except SaveError as e:
            return SaveEntry(path, stem, mtime, error=str(e))
        meta = GameMeta.from_record(record, stem)
        outcome = state.outcome()
        result = outcome.result() if outcome is not None else (record.result if record.termination else None)
        return SaveEntry(path, meta.game_id, mtime, None, meta, state.ply, result, state.scores(),
                         None if result is not None else Color(state.turn), record)

    def list(self) -> list[SaveEntry]:
        """Every ``*.json`` in the saves folder, newest first (by last write).

        Never raises for a bad file: it appears with ``error`` set. An absent
        folder is an empty list. Temporary files left by a writer that was killed
        (older than :data:`TEMP_MAX_AGE`) are removed on the way.
        """
        try:
            names = list(self.folder.iterdir())
        except FileNotFoundError:
            return []
        self._remove_stale_temp(names)
        paths = [p for p in names if p.suffix == ".json" and not p.name.startswith(".")]
        for gone in set(self._cache) - set(paths):
            del self._cache[gone]
        entries = [self.entry(p) for p in paths]
        entries.sort(key=lambda e: (e.mtime_ns, e.path.name), reverse=True)
        return entries

    @staticmethod
    def _remove_stale_temp(paths: Iterable[Path]) -> None:
        now = time.time()
        for p in paths:
            if p.name.startswith(".") and p.name.endswith(".tmp"):
                try:
                    if now - p.stat().st_mtime > TEMP_MAX_AGE:
                        p.unlink()
                except OSError:
                    pass  # another process got there first, or it is not ours to remove

    def resumable(self, game: str | None = None) -> SaveEntry | None:
        """The newest good, unfinished local game (two people, or against the computer), or None;
        with ``game`` (a key of :data:`game.registry.GAMES`), the newest of that game only (the
        main menu's "Continue" on that game's tab)."""
        for e in self.list():
            if e.ok and e.result is None and e.kind in RESUMABLE_KINDS and game in (None, e.game):
                return e
        return None

    def load(self, game_id: str) -> tuple[State, GameMeta]:
        """Open a save of this store: the replayed state and its metadata. Raises SaveError."""
        return load_game(self.path_for(game_id))


def _other_game_entry(path: Path, mtime: int, obj: dict[str, Any]) -> SaveEntry:
    """A list entry for the save of another game of the app, from the game's own check
    (:meth:`game.registry.Game.check`): its players, status, and whether it can be resumed."""
    from game.registry import game_for_record
    stem = path.stem
    try:
        game = game_for_record(obj)
        status = game.check(obj)
        plies = game.plies(obj)  # as the game's replay viewer counts them (Game.plies)
    except BaseRecordError as e:
        return SaveEntry(path, stem, mtime, error=record_error_text(e))
    fields = dict(part.split("=", 1) for part in status.split() if "=" in part)
    game_id = obj.get("game_id") if isinstance(obj.get("game_id"), str) and _GAME_ID.fullmatch(obj["game_id"]) \
        else (stem if _GAME_ID.fullmatch(stem) else "game")
    # a network match ("lan") stays one: it is watched here, never played on (not in RESUMABLE_KINDS);
    # "computer" needs a Rose King level and side (GameMeta), which another game's save does not have
    kind = obj["kind"] if obj.get("kind") in KINDS and obj.get("kind") != "computer" else "local"
    meta = GameMeta(game_id, kind, date=obj.get("date") if isinstance(obj.get("date"), str) else None)
    names = tuple(str(n) for n in obj.get("players", ()) if isinstance(n, str))
    scores = fields.get("scores", "").replace(",", "–")
    title = _(game.title)
    if status.startswith("ok finished"):
        result = obj.get("result") if isinstance(obj.get("result"), dict) else {"scores": scores}
        summary = _("{game}: finished {scores}").format(game=title, scores=scores)
    else:
        result = None
        summary = _("{game}: round {round}, {scores}").format(game=title, round=fields.get("round", "1"),
                                                             scores=scores)
    return SaveEntry(path, game_id, mtime, None, meta, plies, result, names=names, summary=summary,
                     game=game.key)


def load_game(path: str | os.PathLike[str]) -> tuple[State, GameMeta]:
    """Open any record file to play on: the state after its last move, and its
    metadata (see :meth:`GameMeta.from_record`). Raises :class:`SaveError`."""
    record, state = read_game(path)
    return state, GameMeta.from_record(record, Path(path).stem)


_stores: dict[str, SaveStore] = {}


def shared_store() -> SaveStore:
    """The :class:`SaveStore` of the current data folder, one per folder for the whole
    process (its cache makes reopening the menu and the list cheap: see ``bench/replay.py``)."""
    folder = str(default_data_dir())
    store = _stores.get(folder)
    if store is None:
        store = _stores[folder] = SaveStore(folder)
    return store


class BackgroundAutosaver:
    """Autosave without stalling the frame loop: the disk work runs on a worker thread.

    An autosave costs two fsyncs (about 10-20 ms on an ordinary disk, see
    ``bench/replay.py``), longer than a 60 Hz frame. :meth:`submit` turns the
    state into JSON on the caller's thread (well under a millisecond) and hands
    the text over; the worker writes it with :func:`atomic_write_text`. If saves
    come faster than the disk, only the newest text of each game is written.

    ``error`` holds the last write's OSError (None after a good write) for the
    screen to show. Call :meth:`close` (or :meth:`flush`) before quitting.

    >>> import tempfile
    >>> from game.roseking.engine import Rng, State
    >>> folder = tempfile.TemporaryDirectory()
    >>> saver = BackgroundAutosaver(SaveStore(folder.name))
    >>> meta = GameMeta.new()
    >>> saver.submit(State.random(Rng(1)), meta)
    >>> saver.close()
    True
    >>> [e.game_id == meta.game_id for e in saver.store.list()]
    [True]
    >>> folder.cleanup()
    """

    def __init__(self, store: SaveStore) -> None:
        self.store = store
        self.error: OSError | None = None
        self._cond = threading.Condition()
        self._pending: dict[str, str] = {}  # game id -> newest JSON text
        self._busy = False
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="rose-king-autosave", daemon=True)
        self._thread.start()

    def submit(self, state: State, meta: GameMeta) -> None:
        """Queue ``state``'s game for writing to its save. Raises RuntimeError after close()."""
        self.submit_text(meta.game_id, meta.record(state).to_json())

    def submit_text(self, game_id: str, text: str) -> None:
        """Queue a record already turned into JSON ``text`` (a network game's record, made by its
        session) for writing as the save of ``game_id``; a newer text of the same id replaces it
        if it is not written yet. Raises RuntimeError after close(), ValueError for a bad id."""
        self.store.path_for(game_id)  # (checks the id now, in the caller's thread)
        with self._cond:
            if self._closed:
                raise RuntimeError("the autosaver is closed")
            self._pending[game_id] = text
            self._cond.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything submitted is written; False if ``timeout`` (seconds) ran out."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def close(self, timeout: float | None = 10.0) -> bool:
        """Write what is pending, then stop the worker. Returns :meth:`flush`'s answer."""
        done = self.flush(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout)
        return done

    def _work(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._closed)
                if not self._pending:
                    return  # closed and nothing left
                game_id, text = next(iter(self._pending.items()))
                del self._pending[game_id]
                self._busy = True
            try:
                self.store.write(game_id, text)
                error = None
            except OSError as e:
                error = e
            with self._cond:
                self.error = error
                self._busy = False
                self._cond.notify_all()
