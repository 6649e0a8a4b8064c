"""The player's settings, kept as JSON in the user's config folder and applied at once (issue 6).

::

    store = SettingsStore()                  # loads <user config dir>/rose-king/settings.json
    store.settings.volume                    # 0.35
    store.on_change(lambda s, changed: ...)  # called after every update
    store.update(language="de", volume=0.5)  # validated, written atomically, listeners notified
    store.notice()                           # a sentence for the UI if the file was bad, else None

The folder is ``platformdirs.user_config_dir("rose-king")``; the ``directory``
argument or the environment variable ``ROSE_KING_CONFIG_DIR`` replaces it (tests
always use one of these, never the real home folder).

File format (version 1)::

    {"version": 1, "language": "de", "animation_speed": 1.0, "sound": true, "volume": 0.35,
     "fullscreen": false, "show_legal_targets": true, "red_name": "", "white_name": "",
     "computer_level": "medium", "tutorial_seen": false, "game": "rose-king",
     "royals_table": {"seats": [{"name": "You", "level": null}, {"name": "Ada", "level": "greedy"}],
                      "teams": false, "starter": 0}}

Reading never fails: a missing file gives the defaults (language from the system
locale); a missing key takes its default silently (an older file); a damaged file
(not JSON, not an object, truncated, over 64 KiB) or a field of the wrong type or out of range
takes the defaults field by field, with a notice, and the damaged file is copied to
``settings.broken.json`` first so nothing is lost; keys this version does not know
(a newer version's) are kept and written back unchanged.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, Mapping

import platformdirs

from game import i18n
from game.fsutil import atomic_write_text, os_error_text
from game.i18n import N_, _

log = logging.getLogger(__name__)

APP_NAME = "rose-king"
ENV_CONFIG_DIR = "ROSE_KING_CONFIG_DIR"
FILE_NAME = "settings.json"
BROKEN_NAME = "settings.broken.json"
#: The file format's version; a file with a higher one was written by a newer game.
VERSION = 1
#: The one limit of a player name wherever one is typed: the settings, both games' set-ups, the LAN
#: screens and ``--name`` (the protocol itself accepts up to ``net.framing.MAX_NAME``, 32, from a peer).
MAX_NAME_LENGTH = 20
#: A settings file is a few hundred bytes; anything over this is not ours.
MAX_FILE_SIZE = 64 * 1024
#: Animation speed presets in the order a settings row cycles through them: a multiplier on the
#: speed of every animation (2.0 = twice as fast), 0 = no animation (moves appear at once).
ANIMATION_SPEEDS: Mapping[float, str] = {0.6: N_("Slow"), 1.0: N_("Normal"), 2.0: N_("Fast"), 0.0: N_("Instant")}
MIN_ANIMATION_SPEED, MAX_ANIMATION_SPEED = 0.0, 8.0
#: Royals & Riots seats 2 to 4 players (rules: 2-4 players).
ROYALS_SEATS = (2, 4)


def _default_level() -> str:
    from game.roseking.ai import LEVELS
    return next((lv for lv in ("medium", "greedy") if lv in LEVELS), next(iter(LEVELS)))


@dataclass(frozen=True, slots=True)
class Settings:
    """All settings (immutable; change them through :meth:`SettingsStore.update`).

    ``animation_speed``: multiplier of animation speed, 0..8 (1 = normal, 0 = no animation).
    ``volume``: 0..1 linear (0.35 by default: quiet). ``red_name``/``white_name``:
    at most 20 characters; blank means the colour's name in the current language.
    ``computer_level``: a key of ``game.roseking.ai.LEVELS``.
    ``royals_table``: Royals & Riots' last local set-up, offered again when the set-up opens
    (``{}``: none yet): ``{"seats": [{"name": str, "level": str | None}, ...], "teams": bool,
    "starter": int}`` with 2-4 seats in seat order, each name as typed (at most 20 characters,
    blank allowed), ``level`` None for a person or a key of ``game.royals.ai.levels.LEVELS``,
    ``teams`` only with 4 seats, ``starter`` 0 (random) or the seat (1-based) that starts round 1.
    A network table's set-up is not kept here. ``game``: the main menu's game tab chosen last (a
    key of ``game.registry.GAMES``), where the menu opens the next time.
    """

    language: str = "en"
    animation_speed: float = 1.0
    sound: bool = True
    volume: float = 0.35
    fullscreen: bool = False
    show_legal_targets: bool = True
    red_name: str = ""
    white_name: str = ""
    computer_level: str = "medium"
    tutorial_seen: bool = False
    royals_table: dict[str, Any] = field(default_factory=dict, hash=False)
    game: str = "rose-king"


#: Each field's label on the settings screen (also used in notices).
FIELD_LABELS: Mapping[str, str] = {
    "language": N_("Language"), "animation_speed": N_("Animation speed"), "sound": N_("Sound"),
    "volume": N_("Volume"), "fullscreen": N_("Full screen"), "show_legal_targets": N_("Show legal targets"),
    "red_name": N_("Red player's name"), "white_name": N_("White player's name"),
    "computer_level": N_("Default computer level"), "tutorial_seen": N_("Show the tutorial again"),
    "royals_table": N_("Royals & Riots' last set-up"), "game": N_("Game chosen last"),
}


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _number(low: float, high: float) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"expected a number, got {value!r}")
        if not low <= value <= high:
            raise ValueError(f"{value} is outside {low}..{high}")
        return float(value)
    return check


def _name(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {value!r}")
    name = " ".join(value.split())  # no newlines or tabs in a name on the board
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"a name has at most {MAX_NAME_LENGTH} characters")
    return name


def _choice(options: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise ValueError(f"expected one of {', '.join(options)}, got {value!r}")
        return value
    return check


def _game(value: Any) -> str:
    from game.registry import GAMES
    return _choice(tuple(g.key for g in GAMES))(value)


def _level(value: Any) -> str:
    from game.roseking.ai import LEVELS
    return _choice(tuple(LEVELS))(value)


def _royals_table(value: Any) -> dict[str, Any]:
    """A Royals & Riots set-up (see :class:`Settings`), normalised to exactly its keys: a fresh
    dict (nested lists and dicts copied). Raises ValueError naming the first thing wrong."""
    from game.royals.ai.levels import LEVEL_NAMES
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, got {value!r}")
    if not value:
        return {}
    if set(value) != {"seats", "teams", "starter"}:
        raise ValueError(f"expected the keys seats, teams, starter, got {sorted(value)!r}")
    seats = value["seats"]
    low, high = ROYALS_SEATS
    if not isinstance(seats, list) or not low <= len(seats) <= high:
        raise ValueError(f"expected a list of {low} to {high} seats, got {seats!r}")
    out = []
    for seat in seats:
        if not isinstance(seat, dict) or set(seat) != {"name", "level"}:
            raise ValueError(f"expected a seat {{name, level}}, got {seat!r}")
        level = seat["level"]
        if level is not None and (not isinstance(level, str) or level not in LEVEL_NAMES):
            raise ValueError(f"expected a person (null) or one of {', '.join(LEVEL_NAMES)}, got {level!r}")
        out.append({"name": _name(seat["name"]), "level": level})
    teams = _bool(value["teams"])
    if teams and len(out) != 4:
        raise ValueError("teams are played by 4 seats only")
    starter = value["starter"]
    if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter <= len(out):
        raise ValueError(f"expected 0 (random) or a seat 1..{len(out)} to start, got {starter!r}")
    return {"seats": out, "teams": teams, "starter": starter}


_VALIDATORS: dict[str, Callable[[Any], Any]] = {
    "language": _choice(i18n.LANGUAGES),
    "animation_speed": _number(MIN_ANIMATION_SPEED, MAX_ANIMATION_SPEED),
    "sound": _bool,
    "volume": _number(0.0, 1.0),
    "fullscreen": _bool,
    "show_legal_targets": _bool,
    "red_name": _name,
    "white_name": _name,
    "computer_level": _level,
    "tutorial_seen": _bool,
    "royals_table": _royals_table,
    "game": _game,
}
assert set(_VALIDATORS) == {f.name for f in fields(Settings)}


def validate(name: str, value: Any) -> Any:
    """``value`` checked (and normalised) for the field ``name``. Raises ValueError saying why."""
    if name not in _VALIDATORS:
        raise ValueError(f"unknown setting {name!r}")
    try:
        return _VALIDATORS[name](value)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None


def defaults(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings of a first start: the system's language (if supported), a medium computer."""
    return Settings(language=i18n.detect_language(environ), computer_level=_default_level())


@dataclass(frozen=True, slots=True)
class Loaded:
    """What :func:`load` found: the settings, the unknown keys to keep, and the problems.

    ``problems``: (message, fields) pairs with an English ``N_`` message; see :meth:`notice`.
    """

    settings: Settings
    extra: dict[str, Any]
    problems: tuple[tuple[str, dict[str, str]], ...] = ()

    def notice(self) -> str | None:
        """The problems as sentences in the current language, or None when the file was fine."""
        if not self.problems:
            return None
        parts = []
        for message, fields_ in self.problems:
            if "fields" in fields_:  # labels of settings are translated when shown
                fields_ = dict(fields_, fields=", ".join(_(FIELD_LABELS[f]) for f in fields_["fields"].split(",")))
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
    try:  # bounded, and a FIFO or device in its place is refused without blocking the start (issue 14)
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
    for f in fields(Settings):
        if f.name in data:
            try:
                values[f.name] = validate(f.name, data[f.name])
            except ValueError as e:
                log.warning("settings file %s: %s", path, e)
                bad.append(f.name)
    extra = {k: v for k, v in data.items() if k not in values and k not in _VALIDATORS and k != "version"}
    problems: list[tuple[str, dict[str, str]]] = []
    if bad:
        problems.append((_INVALID, {"fields": ",".join(bad), "backup": _backup(path)}))
    version = data.get("version")
    if extra or (isinstance(version, int) and version > VERSION):
        problems.append((_NEWER, {}))
    return Loaded(replace(base, **values), extra, tuple(problems))


def _backup(path: Path) -> str:
    """Copy a damaged settings file aside before it is overwritten; returns the copy's name."""
    try:
        shutil.copyfile(path, path.with_name(BROKEN_NAME))
    except OSError as e:
        log.warning("cannot keep a copy of %s: %s", path, e)
    return BROKEN_NAME


def save(path: Path, settings: Settings, extra: Mapping[str, Any] | None = None) -> None:
    """Write ``settings`` (and unknown ``extra`` keys) to ``path`` atomically.

    A temporary file in the same folder is written, flushed and fsynced, then
    renamed over ``path`` (``os.replace``), then the folder is fsynced: a crash
    leaves either the old file or the new one. Raises OSError (the old file stays,
    no temporary file is left behind).
    """
    data = dict(extra or {})
    data.update({"version": VERSION, **asdict(settings)})
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
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
    that raises is logged and the others still run).
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        self.path = config_dir(directory, environ) / FILE_NAME
        loaded = load(self.path, environ)
        self.settings = loaded.settings
        self._loaded = loaded
        self._extra = dict(loaded.extra)
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
        """Change some fields: validate all, save, then notify listeners. Returns the new settings.

        Raises ValueError for an unknown field or a bad value (then nothing changes
        and nothing is written). A failed write is logged and reported by
        :meth:`notice`; the new settings still apply for this session.
        """
        checked = {name: validate(name, value) for name, value in changes.items()}
        new = replace(self.settings, **checked)
        changed = frozenset(n for n in checked if getattr(new, n) != getattr(self.settings, n))
        self.settings = new
        try:
            save(self.path, new, self._extra)
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
