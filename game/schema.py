"""What a game's section of the player's settings is made of: :class:`Field` (default,
check, label, how the settings screen shows it), the checks the games share, and the immutable
:class:`Section` a game reads its settings from. :mod:`game.settings` keeps the file and the
app-wide fields and finds each game's schema through :mod:`game.registry`; this module knows no
game (a game's ``settings.py`` imports it without a loop back through the registry).

>>> f = Field(False, check_bool, "Keep the trick until I click", "switch")
>>> f.check(True), Section({"hold_trick": True}).hold_trick
(True, True)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping, Sequence

from game.i18n import N_, _

#: The one limit of a player name wherever one is typed: the settings, both games' set-ups, the LAN
#: screens and ``--name`` (the protocol itself accepts up to ``net.framing.MAX_NAME``, 32, from a peer).
MAX_NAME_LENGTH = 20
#: Animation speed presets in the order a settings row cycles through them: a multiplier on the
#: speed of every animation (2.0 = twice as fast), 0 = no animation (moves appear at once).
ANIMATION_SPEEDS: Mapping[float, str] = {0.6: N_("Slow"), 1.0: N_("Normal"), 2.0: N_("Fast"), 0.0: N_("Instant")}


# ---------------------------------------------------------------------- checks (games use them too)
def check_bool(value: Any) -> bool:
    """``value`` if it is true or false. Raises ValueError otherwise."""
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def check_number(low: float, high: float) -> Callable[[Any], float]:
    """A check of a finite number in ``low..high`` (returned as a float)."""
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"expected a number, got {value!r}")
        if not low <= value <= high:
            raise ValueError(f"{value} is outside {low}..{high}")
        return float(value)
    return check


def check_name(value: Any) -> str:
    """A player's name: text of at most :data:`MAX_NAME_LENGTH` characters, runs of white space
    (newlines, tabs) made one space. Raises ValueError."""
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {value!r}")
    name = " ".join(value.split())  # no newlines or tabs in a name on the board
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"a name has at most {MAX_NAME_LENGTH} characters")
    return name


def check_choice(options: Sequence[str]) -> Callable[[Any], str]:
    """A check of one of ``options`` (strings)."""
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise ValueError(f"expected one of {', '.join(options)}, got {value!r}")
        return value
    return check


# ---------------------------------------------------------------------- a game's section
@dataclass(frozen=True)
class Field:
    """One field of a game's settings section (an entry of the game's ``settings_schema``).

    ``default``: the value of a first start (a dict or list is copied for each use).
    ``check``: returns the value checked and normalised; raises ValueError saying why.
    ``label``: the English label (``N_``) on the settings screen and in notices.
    ``control``: how the settings screen offers it: ``"text"`` (a name field), ``"choice"`` (one
    button per option of ``options``, each labelled ``option_text(value)``), ``"switch"`` (on/off),
    ``"reset"`` (a button that sets the default back, enabled while the value differs) or
    ``"hidden"`` (kept, never shown: a remembered set-up).
    ``placeholder``: for ``"text"``, what the empty field shows (in the current language).
    ``view_option``: the attribute of the window's view options (``app.options``) this field sets,
    at once and at every change, and takes back when a screen changed it (a key such as T), or None.
    ``v1``: the top-level key that held this field in a version 1 file, or None.
    """

    default: Any
    check: Callable[[Any], Any]
    label: str
    control: str = "hidden"
    options: Sequence[Any] = ()
    option_text: Callable[[Any], str] | None = None
    placeholder: Callable[[], str] | None = None
    view_option: str | None = None
    v1: str | None = None

    def initial(self) -> Any:
        """A fresh default (a mutable default is copied)."""
        return json.loads(json.dumps(self.default)) if isinstance(self.default, (dict, list)) else self.default


Schema = Mapping[str, Field]


class Section(Mapping[str, Any]):
    """One game's settings (immutable): ``section.hold_trick`` or ``section["hold_trick"]``.

    Raises AttributeError / KeyError for a field the game's schema lacks.
    """

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_values", MappingProxyType(dict(values)))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no setting {name!r} (the section has {', '.join(self._values)})") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("settings are changed through SettingsStore.update_game")

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._values) == dict(other)

    # unhashable: a class that defines __eq__ and no __hash__ gets __hash__ = None (Mapping's too)

    def __repr__(self) -> str:
        return f"Section({dict(self._values)!r})"


# --------------------------------------------------------------------------- the app-wide fields, worded
def on_off_text(on: bool) -> str:
    """A switch's value on the settings screen: "On"/"Off"."""
    return _("On") if on else _("Off")


def speed_text(speed: float) -> str:
    """An animation speed: its preset's name ("Fast"), else the factor ("×1.5")."""
    return _(ANIMATION_SPEEDS[speed]) if speed in ANIMATION_SPEEDS else f"×{speed:g}"


def volume_text(volume: float) -> str:
    """A volume 0..1 as a percentage: "35%" (German "35 %", French with a no-break space)."""
    return _("{percent}%").format(percent=round(volume * 100))
