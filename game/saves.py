"""Saved games of every game of the app: atomic writes, autosave, "save as", the list, resume.

Saves are game records in their game's format (``docs/record-format.md``,
``docs/royals-record-format.md``), one small file per game named by its game id, in
``<data dir>/saves/``. The data dir is, in order: the ``data_dir`` argument, the
``ROSE_KING_DATA_DIR`` environment variable (tests use it; they never touch the real home), or
platformdirs' ``user_data_dir("rose-king")``.

This module never names a game. Each game's plugin (:mod:`game.registry`) gives the
:class:`Summary` of one of its records (``summarize``: players, kind, who is to act, scores, the
winners by name, progress in the game's own words) and keeps its own save types (Rose King's
``GameMeta`` in :mod:`game.roseking.saves`, Royals & Riots' in :mod:`game.royals.saves`).
Metadata a record format lacks rides in extra top-level keys that other readers ignore
(``game_id``, ``kind`` — ``local``/``computer``/``lan`` —, the game's own keys).

Every write is atomic (:func:`atomic_write_text`): a kill at any moment leaves
either the old file or the new one, never a torn one. A file that cannot be read
as a record shows up in :meth:`SaveStore.list` as an entry with a clear error
instead of breaking the list.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from game.records import RecordError as BaseRecordError
from game.fsutil import atomic_write_text, fsync_dir
from game.savefile import (APP_NAME, ENV_DATA_DIR, FILE_REASONS, GAME_ID, KINDS, MAX_FILE_BYTES, RESUMABLE_KINDS,
                           SaveError, SaveMeta, Summary, check_version, default_data_dir, file_reason,
                           parse_json_bytes, read_bounded, record_error_text, save_id, save_kind)

__all__ = ["APP_NAME", "ENV_DATA_DIR", "FILE_REASONS", "GAME_ID", "KINDS", "MAX_FILE_BYTES", "RESUMABLE_KINDS",
           "BackgroundAutosaver", "SaveEntry", "SaveError", "SaveMeta", "SaveStore", "Summary", "TEMP_MAX_AGE",
           "atomic_write_text", "check_version", "default_data_dir", "file_reason", "parse_json_bytes",
           "parse_json_record", "read_bounded", "read_json_record", "record_error_text", "save_id", "save_kind",
           "shared_store"]

TEMP_MAX_AGE = 60.0  # seconds after which a temporary file left by a killed writer is litter


def read_json_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record file of any game of the app into its top-level JSON object (not yet
    checked against the game's rules). Raises :class:`SaveError` with the same one-line
    reasons as ``rose-king check`` prints."""
    return parse_json_record(read_bounded(path))


def parse_json_record(data: bytes) -> dict[str, Any]:
    """Parse record bytes into the top-level object of a record of one of the app's games;
    raises :class:`SaveError` naming what is wrong."""
    from game.registry import game_for_record
    obj = parse_json_bytes(data)
    try:
        game = game_for_record(obj)
    except BaseRecordError as e:
        raise SaveError(file_reason(e.reason)) from None
    check_version(obj, game.record_version)
    return obj



@dataclass(frozen=True)
class SaveEntry:
    """One file of the saved-games list.

    ``error`` is None for a good save, else a one-line message (then the other fields hold what
    could be known: ``path``, ``game_id`` from the file name, ``mtime_ns``). ``game``: the key of
    its game (:data:`game.registry.GAMES`); ``summary``: its game's :class:`Summary`.
    ``status``: ``"finished"``, ``"in progress"`` or ``"error"``.
    """

    path: Path
    game_id: str
    mtime_ns: int
    error: str | None = None
    summary: Summary | None = None
    game: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def status(self) -> str:
        if self.error is not None or self.summary is None:
            return "error"
        return "finished" if self.summary.result is not None else "in progress"

    @property
    def kind(self) -> str | None:
        return None if self.summary is None else self.summary.kind

    @property
    def date(self) -> str | None:
        return None if self.summary is None else self.summary.date

    @property
    def plies(self) -> int:
        return 0 if self.summary is None else self.summary.plies

    @property
    def result(self) -> dict[str, Any] | None:
        """The record's result object once the game is over, else None."""
        return None if self.summary is None else self.summary.result

    def players(self) -> str:
        """``"Alice – Bob"`` (the game's defaults for missing names), ``""`` for a bad file."""
        return "" if self.summary is None else self.summary.players()

    def progress(self) -> str:
        """How far the game is, in its own words (``"round 2 of 3, trick 5"``); ``""`` for a bad file."""
        return "" if self.summary is None else self.summary.progress()

    def note(self) -> str | None:
        """The list's small second line in the current language (the game's :attr:`Summary.note`:
        a network game's, e.g. "Network match", or that an unfinished one is only watched here),
        or None."""
        return None if self.error is not None or self.summary is None else self.summary.note()

    def status_text(self) -> str:
        """The list's result column: the winners and the score, who is to act, or the error."""
        if self.error is not None or self.summary is None:
            return self.error or ""
        return self.summary.status()


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
        if not GAME_ID.fullmatch(game_id):
            raise ValueError(f"bad game id {game_id!r}")
        return self.folder / f"{game_id}.json"

    # -------------------------------------------------------------- writing
    def autosave(self, state: Any, meta: "SaveMeta") -> Path:
        """Write ``state``'s game to its file (``<game_id>.json``), atomically; returns the path.
        ``meta``: the game's save metadata (:class:`SaveMeta`).

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
    def save_as(state: Any, meta: "SaveMeta", path: str | os.PathLike[str]) -> Path:
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
        """Read one file and ask its game for the :class:`Summary` (the game checks the whole
        record: every move by its rules); a bad file gives an entry with its one-line error."""
        from game.registry import game_for_record
        stem = path.stem
        try:
            obj = read_json_record(path)
            game = game_for_record(obj)
            summary = game.summarize(obj, stem)
        except SaveError as e:
            return SaveEntry(path, stem, mtime, error=str(e))
        except BaseRecordError as e:
            return SaveEntry(path, stem, mtime, error=record_error_text(e))
        return SaveEntry(path, summary.game_id, mtime, None, summary, game.key)

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
    >>> folder = tempfile.TemporaryDirectory()
    >>> saver = BackgroundAutosaver(SaveStore(folder.name))
    >>> saver.submit_text("g1", '{"format": "a game of elsewhere"}')
    >>> saver.close()
    True
    >>> [(e.game_id, e.ok) for e in saver.store.list()]
    [('g1', False)]
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

    def submit(self, state: Any, meta: SaveMeta) -> None:
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
