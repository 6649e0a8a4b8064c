"""Statistics per game and computer level: matches played, won, the best score and the
winning streak of the person at this machine against the computer, kept in the data folder.

::

    stats = StatsStore()                                    # <data dir>/stats.json
    stats.record("rose-king", "hard", won=True, score=140, match_id=game_id)
    stats.of("rose-king")["hard"]                           # LevelStats(played=1, won=1, ...)
    stats.notice()                                          # a sentence if the file was bad, else None

A match is counted once (its ``match_id``, the save's game id, is remembered: an undo and a
replayed end, or a resumed finished match, do not count it again). The data folder is
:func:`game.savefile.default_data_dir`'s. Every write is atomic; a file that cannot be read (not
JSON, truncated, a field of the wrong type) is copied to ``stats.broken.json``, what could be
read is kept, and :meth:`StatsStore.notice` says so; a failed write keeps the numbers for this
session and says so. The window holds one store (``App.stats``) and hands it to the code that
counts a match (each game's ``saves.record_result(stats, ...)``); nothing reaches a global one. File format (version 1)::

    {"version": 1, "games": {"rose-king": {"hard": {"played": 3, "won": 2, "best_score": 140,
                                                    "streak": 1, "best_streak": 2}}},
     "counted": ["5f0c2a9e...", ...]}
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

from game.fsutil import atomic_write_text, os_error_text
from game.i18n import N_, _

log = logging.getLogger(__name__)

FILE_NAME = "stats.json"
BROKEN_NAME = "stats.broken.json"
VERSION = 1
MAX_FILE_SIZE = 256 * 1024
#: How many counted match ids are remembered (the newest; a match is not resumed after that many others).
MAX_COUNTED = 500


@dataclass(frozen=True)
class LevelStats:
    """One game's numbers against one computer level: ``played``, ``won`` (a shared win counts as
    won), ``best_score`` (the person's best final score, None before the first match), ``streak``
    (wins in a row up to now; a loss sets it to 0) and ``best_streak``."""

    played: int = 0
    won: int = 0
    best_score: int | None = None
    streak: int = 0
    best_streak: int = 0

    def after(self, won: bool, score: int) -> "LevelStats":
        """These numbers after one more match."""
        streak = self.streak + 1 if won else 0
        return LevelStats(self.played + 1, self.won + int(won),
                          score if self.best_score is None else max(self.best_score, score),
                          streak, max(self.best_streak, streak))

    @classmethod
    def from_json(cls, value: Any) -> "LevelStats":
        """Raises ValueError for anything but a well-formed object."""
        if not isinstance(value, dict) or set(value) != {"played", "won", "best_score", "streak", "best_streak"}:
            raise ValueError(f"expected the numbers of one level, got {value!r}")
        for k, v in value.items():
            if not (v is None and k == "best_score") and (isinstance(v, bool) or not isinstance(v, int)):
                raise ValueError(f"{k}: expected a whole number, got {v!r}")
        s = cls(**value)
        if not (0 <= s.won <= s.played and 0 <= s.streak <= s.best_streak <= s.won) \
                or (s.best_score is None) != (s.played == 0):
            raise ValueError(f"numbers that do not add up: {value!r}")
        return s


_DAMAGED = N_("The statistics file was damaged; what could be read is kept. A copy was kept as {backup}.")
_UNSAVED = N_("The statistics could not be saved ({error}).")


class StatsStore:
    """The statistics of this player, in ``<data_dir>/stats.json`` (``data_dir``: None for
    :func:`game.savefile.default_data_dir`). Reading never raises (see the module docstring)."""

    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        from game.savefile import default_data_dir
        self.path = Path(data_dir if data_dir is not None else default_data_dir()) / FILE_NAME
        self._games: dict[str, dict[str, LevelStats]] = {}
        self._counted: list[str] = []
        self._damaged = False
        self._save_error: OSError | None = None
        self._load()

    # ------------------------------------------------------------------ reading
    def _load(self) -> None:
        from game.records import RecordError, read_bytes
        if not os.path.lexists(self.path):
            return
        try:
            data = json.loads(read_bytes(self.path, MAX_FILE_SIZE).decode("utf-8"))
        except (RecordError, ValueError, RecursionError) as e:
            log.warning("statistics file %s: %s", self.path, e)
            data = None
        if not isinstance(data, dict):
            self._keep_copy()
            return
        games = data.get("games", {})
        bad = not isinstance(games, dict)
        for key, levels in (games.items() if isinstance(games, dict) else ()):
            if not _NAME.fullmatch(key) or not isinstance(levels, dict):
                bad = True
                continue
            for level, value in levels.items():
                try:
                    if not _NAME.fullmatch(level):
                        raise ValueError(f"not a level's name: {level!r}")
                    self._games.setdefault(key, {})[level] = LevelStats.from_json(value)
                except ValueError as e:
                    log.warning("statistics file %s: %s %s: %s", self.path, key, level, e)
                    bad = True
        counted = data.get("counted", [])
        if isinstance(counted, list) and all(isinstance(c, str) for c in counted):
            self._counted = counted[-MAX_COUNTED:]
        else:
            bad = True
        if bad:
            self._keep_copy()

    def _keep_copy(self) -> None:
        self._damaged = True
        try:
            shutil.copyfile(self.path, self.path.with_name(BROKEN_NAME))
        except OSError as e:
            log.warning("cannot keep a copy of %s: %s", self.path, e)

    # ------------------------------------------------------------------ the numbers
    def of(self, game: str, order: Sequence[str] = ()) -> dict[str, LevelStats]:
        """The numbers of ``game`` (a key of :data:`game.registry.GAMES`) per level played: the
        levels of ``order`` first in that order (the game's levels, weakest first), then any other."""
        mine = self._games.get(game, {})
        return {lv: mine[lv] for lv in [*(lv for lv in order if lv in mine), *(lv for lv in mine if lv not in order)]}

    def record(self, game: str, level: str, won: bool, score: int, match_id: str | None = None) -> bool:
        """Count one finished match of ``game`` against computer ``level``: ``won`` (the person
        won or shared the win), ``score`` (the person's final score). A ``match_id`` counted before
        is not counted again. Returns whether it was counted. Writes the file atomically (a failed
        write is logged and said by :meth:`notice`; the numbers stay for this session). Raises
        ValueError for a game key or level that is not a name (lower-case letters, digits, ``-``,
        at most 40 characters) or a score that is not a whole number."""
        if not (isinstance(game, str) and _NAME.fullmatch(game) and isinstance(level, str) and _NAME.fullmatch(level)):
            raise ValueError(f"not a game and level: {game!r} {level!r}")
        if isinstance(score, bool) or not isinstance(score, int) or not isinstance(won, bool):
            raise ValueError(f"expected won true/false and a whole score, got {won!r}, {score!r}")
        if match_id is not None:
            if match_id in self._counted:
                return False
            self._counted = (self._counted + [match_id])[-MAX_COUNTED:]
        games = self._games.setdefault(game, {})
        games[level] = games.get(level, LevelStats()).after(won, score)
        self._save()
        return True

    def _save(self) -> None:
        games = {key: {lv: asdict(s) for lv, s in levels.items()} for key, levels in self._games.items()}
        text = json.dumps({"version": VERSION, "games": games, "counted": self._counted}, indent=1) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.path, text)
            self._save_error = None
        except OSError as e:
            log.warning("cannot save the statistics to %s: %s", self.path, e)
            self._save_error = e

    def notice(self) -> str | None:
        """What went wrong reading or writing the file, in the current language; None if nothing."""
        parts = []
        if self._damaged:
            parts.append(_(_DAMAGED).format(backup=BROKEN_NAME))
        if self._save_error is not None:
            parts.append(_(_UNSAVED).format(error=os_error_text(self._save_error)))
        return " ".join(parts) or None


#: A game's key or a level's name as the file keeps it.
_NAME = re.compile(r"[a-z0-9][a-z0-9@:._-]{0,39}")


__all__ = ["LevelStats", "StatsStore"]
