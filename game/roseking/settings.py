"""Rose King's section of the player's settings (:mod:`game.settings`): its players'
names, the default computer level, the legal targets shown on the board and the tutorial.

>>> sorted(SCHEMA)
['computer_level', 'red_name', 'show_legal_targets', 'tutorial_seen', 'white_name']
>>> SCHEMA["computer_level"].check("hard")
'hard'
"""

from __future__ import annotations

from typing import Any

from game.i18n import N_
from game.schema import Field, Schema, check_bool, check_choice, check_name

from .ai import LEVELS

#: The levels a player chooses among (the match baselines are for ``rose-king match`` only).
LEVEL_CHOICES: tuple[str, ...] = tuple(LEVELS)


def _default_level() -> str:
    return next((lv for lv in ("medium", "greedy") if lv in LEVEL_CHOICES), LEVEL_CHOICES[0])


def _level_text(level: Any) -> str:
    from . import phrases
    return phrases.level_name(level)


def _colour_name(index: int) -> str:
    """Red's or White's name in the current language (what a blank name shows)."""
    from . import phrases
    return phrases.player_names()[index]


def _level(value: Any) -> str:
    return check_choice(LEVEL_CHOICES)(value)


#: The fields (each kept at the top level of a version 1 file under the same name).
SCHEMA: Schema = {
    "show_legal_targets": Field(True, check_bool, N_("Show legal targets"), "switch", view_option="show_targets",
                                v1="show_legal_targets"),
    "red_name": Field("", check_name, N_("Red player's name"), "text", placeholder=lambda: _colour_name(0),
                      v1="red_name"),
    "white_name": Field("", check_name, N_("White player's name"), "text", placeholder=lambda: _colour_name(1),
                        v1="white_name"),
    "computer_level": Field(_default_level(), _level, N_("Default computer level"), "choice",
                            options=LEVEL_CHOICES, option_text=_level_text, v1="computer_level"),
    "tutorial_seen": Field(False, check_bool, N_("Show the tutorial again"), "reset", v1="tutorial_seen"),
}
