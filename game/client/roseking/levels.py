"""How the computer levels are offered to a player: friendly names, a line on each, the default.

Names come from :func:`game.roseking.phrases.level_name` (the same words the settings
screen shows); :data:`LEVEL_BLURBS` says in one sentence how each level plays.
:func:`default_level` reads the player's "Default computer level" setting
(:class:`game.settings.SettingsStore`); it never writes the settings file.
No pygame in here.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Mapping

from game.roseking.ai import LEVELS
from game.i18n import N_, _
from game.roseking.phrases import level_name  # noqa: F401  (re-exported: the name shown for a level)

if TYPE_CHECKING:
    from game.settings import SettingsStore

log = logging.getLogger(__name__)

#: Level key -> one English sentence on how it plays (translate when shown: :func:`level_blurb`).
LEVEL_BLURBS: Mapping[str, str] = {
    "random": N_("Plays any allowed move at random. For a first game."),
    "greedy": N_("Takes whatever scores most right now, without a plan."),
    "easy": N_("Looks one move ahead and sometimes slips, like a casual player."),
    "medium": N_("Searches ahead briefly, a hundredth of a second per move."),
    "hard": N_("Searches deep for about a second per move."),
    "expert": N_("Searches about three seconds per move: the strongest opponent."),
}


def level_blurb(level: str) -> str:
    """One sentence on how ``level`` plays, in the current language ("" for a level without one)."""
    return _(LEVEL_BLURBS[level]) if level in LEVEL_BLURBS else ""


def default_level(store: "SettingsStore | None" = None) -> str:
    """The level a new game against the computer starts on: the "Default computer level" setting.

    ``store``: a :class:`game.settings.SettingsStore` (None: the player's own, read from
    the settings folder, see :func:`game.settings.config_dir`). Never raises: an
    unreadable store or an unknown level falls back to ``medium`` (or the first level).
    """
    level = None
    try:
        if store is None:
            from game.settings import SettingsStore
            store = SettingsStore()
        level = store.settings.of("rose-king").computer_level
    except Exception as e:  # a settings problem must never keep a player from a game
        log.warning("cannot read the default computer level: %s", e)
    if level in LEVELS:
        return level
    return "medium" if "medium" in LEVELS else next(iter(LEVELS))


__all__ = ["LEVEL_BLURBS", "default_level", "level_blurb", "level_name"]
