"""The player's settings, kept as JSON in the user's config folder and applied at once.

::

    store = SettingsStore()                  # loads <user config dir>/rose-king/settings.json
    store.settings.volume                    # 0.35 (an app-wide field)
    store.settings.of("rose-king").red_name  # a field of one game's section
    store.on_change(lambda s, changed: ...)  # called after every update
    store.update(language="de", volume=0.5)  # validated, written atomically, listeners notified
    store.update_game("royals-riots", hold_trick=True)  # the same for one game's section
    store.notice()                           # a sentence for the UI if the file was bad, else None

The settings are the app-wide fields of :class:`Settings` (language, animation speed, sound,
volume, full screen, the game chosen last) and one section per game of
:data:`game.registry.GAMES`, whose fields, defaults, checks and labels are the game's
``settings_schema`` (a mapping of names to :class:`Field`; Rose King's in
``game/roseking/settings.py``, Royals & Riots' in ``game/royals/settings.py``). The shell never
names a game's field.

The folder is ``platformdirs.user_config_dir("rose-king")``; the ``directory``
argument or the environment variable ``ROSE_KING_CONFIG_DIR`` replaces it (tests
always use one of these, never the real home folder).

File format (version 2)::

    {"version": 2, "language": "de", "animation_speed": 1.0, "sound": true, "volume": 0.35,
     "fullscreen": false, "game": "rose-king",
     "games": {"rose-king": {"show_legal_targets": true, "red_name": "", "white_name": "",
                             "computer_level": "medium", "tutorial_seen": false},
               "royals-riots": {"computer_level": "medium", "computer_speed": "normal",
                                "hold_trick": false, "table": {}}}}

A version 1 file (every field at the top level, Royals & Riots' set-up as
``royals_table``) loads as it was: each game's field takes its value from the top-level key its
:class:`Field` names as ``v1`` (``red_name``, ..., ``royals_table``); the next save writes version 2.

Reading never fails: a missing file gives the defaults (language from the system
locale); a missing key takes its default silently (an older file); a damaged file
(not JSON, not an object, truncated, over 64 KiB) or a field of the wrong type or out of range
takes the defaults field by field, with a notice, and the damaged file is copied to
``settings.broken.json`` first so nothing is lost; keys this version does not know
(a newer version's, also inside a game's section, or a game this version lacks) are kept and
written back unchanged.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, Mapping

import platformdirs

from game import i18n
from game.fsutil import atomic_write_text, os_error_text
from game.i18n import N_, _
from game.schema import (ANIMATION_SPEEDS, MAX_NAME_LENGTH, Field, Schema, Section, check_bool, check_choice,
                         check_name, check_number)

__all__ = ["ANIMATION_SPEEDS", "MAX_NAME_LENGTH", "Field", "Schema", "Section", "Settings", "SettingsStore",
           "check_bool", "check_choice", "check_name", "check_number", "defaults", "load", "save", "schema_of",
           "schemas", "validate", "validate_game"]

log = logging.getLogger(__name__)

APP_NAME = "rose-king"
ENV_CONFIG_DIR = "ROSE_KING_CONFIG_DIR"
FILE_NAME = "settings.json"
BROKEN_NAME = "settings.broken.json"
#: The file format's version; a file with a higher one was written by a newer game.
VERSION = 2
#: A settings file is a few hundred bytes; anything over this is not ours.
MAX_FILE_SIZE = 64 * 1024
MIN_ANIMATION_SPEED, MAX_ANIMATION_SPEED = 0.0, 8.0
#: The top-level key of the games' sections in the file.
GAMES_KEY = "games"


def schemas() -> dict[str, Schema]:
    """Each game's settings schema by game key (:data:`game.registry.GAMES`, in the menus' order)."""
    from game.registry import GAMES
    return {g.key: g.settings_schema for g in GAMES}


def schema_of(game: str) -> Schema:
    """The settings schema of the game ``game`` (a key). Raises ValueError for an unknown game."""
    try:
        return schemas()[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}") from None


def default_section(game: str) -> Section:
    """The section of ``game`` at a first start. Raises ValueError for an unknown game."""
    return Section({name: f.initial() for name, f in schema_of(game).items()})


# ---------------------------------------------------------------------- the settings
@dataclass(frozen=True, slots=True)
class Settings:
    """All settings (immutable; change them through :meth:`SettingsStore.update` and
    :meth:`SettingsStore.update_game`).

    App-wide: ``animation_speed``: multiplier of animation speed, 0..8 (1 = normal, 0 = no
    animation). ``volume``: 0..1 linear (0.35 by default: quiet). ``game``: the main menu's game
    tab chosen last (a key of ``game.registry.GAMES``), where the menu opens the next time.
    ``games``: each game's :class:`Section` by game key; read one with :meth:`of`.
    """

    language: str = "en"
    animation_speed: float = 1.0
    sound: bool = True
    volume: float = 0.35
    fullscreen: bool = False
    game: str = "rose-king"
    games: Mapping[str, Section] = field(default_factory=dict, hash=False)

    def of(self, game: str) -> Section:
        """The section of ``game`` (its defaults if this object holds none). Raises ValueError
        for a game the app does not have."""
        section = self.games.get(game)
        return section if section is not None else default_section(game)


#: Each app-wide field's label on the settings screen (also used in notices).
FIELD_LABELS: Mapping[str, str] = {
    "language": N_("Language"), "animation_speed": N_("Animation speed"), "sound": N_("Sound"),
    "volume": N_("Volume"), "fullscreen": N_("Full screen"), "game": N_("Game chosen last"),
}
#: The app-wide fields the settings screen shows, in its order.
APP_ROWS = ("language", "animation_speed", "sound", "volume", "fullscreen")


def _game(value: Any) -> str:
    from game.registry import GAMES
    return check_choice(tuple(g.key for g in GAMES))(value)


_VALIDATORS: dict[str, Callable[[Any], Any]] = {
    "language": check_choice(i18n.LANGUAGES),
    "animation_speed": check_number(MIN_ANIMATION_SPEED, MAX_ANIMATION_SPEED),
    "sound": check_bool,
    "volume": check_number(0.0, 1.0),
    "fullscreen": check_bool,
    "game": _game,
}
assert set(_VALIDATORS) | {"games"} == {f.name for f in fields(Settings)}


def validate(name: str, value: Any) -> Any:
    """``value`` checked (and normalised) for the app-wide field ``name``. Raises ValueError saying why."""
    if name not in _VALIDATORS:
        raise ValueError(f"unknown setting {name!r}")
    try:
        return _VALIDATORS[name](value)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None


def validate_game(game: str, name: str, value: Any) -> Any:
    """``value`` checked (and normalised) for the field ``name`` of ``game``'s section.
    Raises ValueError saying why (an unknown game or field too)."""
    schema = schema_of(game)
    if name not in schema:
        raise ValueError(f"unknown setting {name!r} of {game}")
    try:
        return schema[name].check(value)
    except ValueError as e:
        raise ValueError(f"{game}.{name}: {e}") from None


def label_of(name: str) -> str:
    """The English label of an app-wide field (``"volume"``) or a game's (``"rose-king.red_name"``)."""
    if "." in name:
        game, _dot, field_name = name.partition(".")
        return schema_of(game)[field_name].label
    return FIELD_LABELS[name]


def defaults(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings of a first start: the system's language (if supported), each game's defaults."""
    return Settings(language=i18n.detect_language(environ),
                    games={key: default_section(key) for key in schemas()})


@dataclass(frozen=True, slots=True)
class Loaded:
    """What :func:`load` found: the settings, the unknown keys to keep, and the problems.

    ``extra``: unknown top-level keys; ``extra_games``: per game key, the unknown keys of a known
    game's section, or the whole section of a game this version lacks.
    ``problems``: (message, fields) pairs with an English ``N_`` message; see :meth:`notice`.
    """

    settings: Settings
    extra: dict[str, Any]
    problems: tuple[tuple[str, dict[str, str]], ...] = ()
    extra_games: dict[str, Any] = field(default_factory=dict)

    def notice(self) -> str | None:
        """The problems as sentences in the current language, or None when the file was fine."""
        if not self.problems:
            return None
        parts = []
        for message, fields_ in self.problems:
            if "fields" in fields_:  # labels of settings are translated when shown
                fields_ = dict(fields_, fields=", ".join(_(label_of(f)) for f in fields_["fields"].split(",")))
            parts.append(_(message).format(**fields_))
        return " ".join(parts)


_DAMAGED = N_("The settings file was damaged and the defaults are used. A copy was kept as {backup}.")
_UNREADABLE = N_("The settings file could not be read ({error}); the defaults are used.")
_INVALID = N_("Some settings were not valid and were reset: {fields}. A copy of the file was kept as {backup}.")
_NEWER = N_("The settings file comes from a newer version of Rose King; settings this version does not know are kept.")
_UNSAVED = N_("The settings could not be saved ({error}); they apply until the game is closed.")


def load(path: Path, environ: Mapping[str, str] | None = None) -> Loaded:
    """Read the settings file at ``path``; never raises (see the module docstring for each case)."""
    base = defaults(environ)
    from game.records import RecordError, parse_int, read_bytes
    if not os.path.lexists(path):
        return Loaded(base, {})
    try:  # bounded, and a FIFO or device in its place is refused without blocking the start
        raw: bytes | None = read_bytes(path, MAX_FILE_SIZE)
    except RecordError as e:
        if "too large" not in e.reason:
            log.warning("cannot read %s: %s", path, e)
            return Loaded(base, {}, ((_UNREADABLE, {"error": e.reason}),))
        raw = None
    try:
        data = json.loads(raw.decode("utf-8"), parse_int=parse_int) if raw is not None else None
    except (ValueError, RecursionError):  # not UTF-8, not JSON, or nested beyond the parser's depth
        data = None
    if not isinstance(data, dict):
        log.warning("settings file %s is not a JSON object", path)
        return Loaded(base, {}, ((_DAMAGED, {"backup": _backup(path)}),))
    values: dict[str, Any] = {}
    bad: list[str] = []
    for name in _VALIDATORS:
        if name in data:
            try:
                values[name] = validate(name, data[name])
            except ValueError as e:
                log.warning("settings file %s: %s", path, e)
                bad.append(name)
    sections_raw = data.get(GAMES_KEY, {})
    if not isinstance(sections_raw, dict):
        log.warning("settings file %s: %s is not an object", path, GAMES_KEY)
        bad.extend(f"{key}.{name}" for key, schema in schemas().items() for name in schema)
        sections_raw = {}
    games: dict[str, Section] = {}
    extra_games: dict[str, Any] = {}
    used_v1: set[str] = set()
    for key, schema in schemas().items():
        raw_section = sections_raw.get(key, {})
        if not isinstance(raw_section, dict):
            log.warning("settings file %s: the section of %s is not an object", path, key)
            bad.extend(f"{key}.{name}" for name in schema)
            raw_section = {}
        section = {}
        for name, f in schema.items():
            if name in raw_section:
                value, found = raw_section[name], True
            elif f.v1 is not None and f.v1 in data and GAMES_KEY not in data:  # a version 1 file
                value, found = data[f.v1], True
                used_v1.add(f.v1)
            else:
                value, found = None, False
            section[name] = f.initial()
            if found:
                try:
                    section[name] = validate_game(key, name, value)
                except ValueError as e:
                    log.warning("settings file %s: %s", path, e)
                    bad.append(f"{key}.{name}")
        games[key] = Section(section)
        unknown = {k: v for k, v in raw_section.items() if k not in schema}
        if unknown:
            extra_games[key] = unknown
    extra_games.update({k: v for k, v in sections_raw.items() if k not in games})
    extra = {k: v for k, v in data.items()
             if k not in _VALIDATORS and k not in used_v1 and k not in (GAMES_KEY, "version")}
    problems: list[tuple[str, dict[str, str]]] = []
    if bad:
        problems.append((_INVALID, {"fields": ",".join(bad), "backup": _backup(path)}))
    version = data.get("version")
    if extra or extra_games or (isinstance(version, int) and version > VERSION):
        problems.append((_NEWER, {}))
    return Loaded(replace(base, **values, games=games), extra, tuple(problems), extra_games)


def _backup(path: Path) -> str:
    """Copy a damaged settings file aside before it is overwritten; returns the copy's name."""
    try:
        shutil.copyfile(path, path.with_name(BROKEN_NAME))
    except OSError as e:
        log.warning("cannot keep a copy of %s: %s", path, e)
    return BROKEN_NAME


def to_json(settings: Settings, extra: Mapping[str, Any] | None = None,
            extra_games: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The file's object for ``settings`` (version :data:`VERSION`), with the unknown keys kept."""
    data = dict(extra or {})
    data.update({"version": VERSION, **{name: getattr(settings, name) for name in _VALIDATORS}})
    games: dict[str, Any] = {k: v for k, v in (extra_games or {}).items() if k not in schemas()}
    for key in schemas():
        kept = (extra_games or {}).get(key)
        games[key] = {**(kept if isinstance(kept, dict) else {}), **settings.of(key)}
    data[GAMES_KEY] = games
    return data


def save(path: Path, settings: Settings, extra: Mapping[str, Any] | None = None,
         extra_games: Mapping[str, Any] | None = None) -> None:
    """Write ``settings`` (and unknown ``extra`` keys) to ``path`` atomically.

    A temporary file in the same folder is written, flushed and fsynced, then
    renamed over ``path`` (``os.replace``), then the folder is fsynced: a crash
    leaves either the old file or the new one. Raises OSError (the old file stays,
    no temporary file is left behind).
    """
    text = json.dumps(to_json(settings, extra, extra_games), indent=2, ensure_ascii=False) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)


def config_dir(directory: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The settings folder: ``directory``, else ``$ROSE_KING_CONFIG_DIR``, else the user's config dir."""
    env = os.environ if environ is None else environ
    if directory is not None:
        return Path(directory)
    if env.get(ENV_CONFIG_DIR):
        return Path(env[ENV_CONFIG_DIR])
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


Listener = Callable[[Settings, frozenset[str]], None]


class SettingsStore:
    """The settings of this player: loaded once, changed through :meth:`update`, saved at once.

    Listeners registered with :meth:`on_change` are called as
    ``callback(settings, changed_field_names)`` after each update (in order; one
    that raises is logged and the others still run). A game's field is named
    ``"<game key>.<field>"`` there (``"rose-king.show_legal_targets"``).
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        self.path = config_dir(directory, environ) / FILE_NAME
        loaded = load(self.path, environ)
        self.settings = loaded.settings
        self._loaded = loaded
        self._extra = dict(loaded.extra)
        self._extra_games = dict(loaded.extra_games)
        self._save_error: OSError | None = None  # worded when shown (in the language then)
        self._listeners: list[Listener] = []

    def notice(self) -> str | None:
        """What went wrong reading or saving the file, in the current language; None if nothing."""
        parts = [p for p in (self._loaded.notice(),
                             _(_UNSAVED).format(error=os_error_text(self._save_error))
                             if self._save_error is not None else None) if p]
        return " ".join(parts) or None

    def dismiss_notice(self) -> None:
        """Forget the notice once the player has seen it."""
        self._loaded = replace(self._loaded, problems=())
        self._save_error = None

    def on_change(self, callback: Listener) -> Callable[[], None]:
        """Call ``callback(settings, changed)`` after every update. Returns a function that unsubscribes."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)
        return unsubscribe

    def update(self, **changes: Any) -> Settings:
        """Change some app-wide fields: validate all, save, then notify listeners. Returns the new settings.

        Raises ValueError for an unknown field or a bad value (then nothing changes
        and nothing is written). A failed write is logged and reported by
        :meth:`notice`; the new settings still apply for this session.
        """
        checked = {name: validate(name, value) for name, value in changes.items()}
        new = replace(self.settings, **checked)
        return self._commit(new, frozenset(n for n in checked if getattr(new, n) != getattr(self.settings, n)))

    def update_game(self, game: str, **changes: Any) -> Settings:
        """:meth:`update` for fields of ``game``'s section (``update_game("rose-king", red_name="Ann")``).
        Raises ValueError for an unknown game or field or a bad value (nothing changes then)."""
        checked = {name: validate_game(game, name, value) for name, value in changes.items()}
        old = self.settings.of(game)
        section = Section({**old, **checked})
        new = replace(self.settings, games={**self.settings.games, game: section})
        return self._commit(new, frozenset(f"{game}.{n}" for n in checked if section[n] != old[n]))

    def _commit(self, new: Settings, changed: frozenset[str]) -> Settings:
        self.settings = new
        try:
            save(self.path, new, self._extra, self._extra_games)
            self._save_error = None
        except OSError as e:
            log.warning("cannot save settings to %s: %s", self.path, e)
            self._save_error = e
        if changed:
            for callback in list(self._listeners):
                try:
                    callback(new, changed)
                except Exception:
                    log.exception("settings listener %r failed", callback)
        return new


def follow_language(store: SettingsStore) -> Callable[[], None]:
    """Set the game's language from ``store`` now and whenever it changes. Returns the unsubscriber."""
    i18n.set_language(store.settings.language)

    def on_change(settings: Settings, changed: frozenset[str]) -> None:
        if "language" in changed:
            i18n.set_language(settings.language)
    return store.on_change(on_change)
