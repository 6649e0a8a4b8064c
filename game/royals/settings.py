"""Royals & Riots' section of the player's settings (:mod:`game.settings`): the default
computer level, how fast the computers play, whether a finished trick stays until a click, and
the last local set-up.

>>> sorted(SCHEMA)
['computer_level', 'computer_speed', 'hold_trick', 'table']
>>> SCHEMA["computer_speed"].default, SCHEMA["hold_trick"].default
('normal', False)
"""

from __future__ import annotations

from typing import Any, Mapping

from game.i18n import N_, _
from game.schema import Field, Schema, check_bool, check_choice, check_name

#: The computer levels a player chooses among, weakest first (keys of ``game.royals.ai.levels.LEVELS``).
LEVEL_CHOICES = ("random", "greedy", "easy", "medium", "hard")
#: Each level's word on the settings screen and at the table.
LEVEL_WORDS: Mapping[str, str] = {"random": N_("Beginner"), "greedy": N_("Casual"), "easy": N_("Easy"),
                                  "medium": N_("Medium"), "hard": N_("Hard")}
#: How fast the computer seats play (the table reads the pace of each from ``computer_speed``).
COMPUTER_SPEEDS: Mapping[str, str] = {"slow": N_("Slow"), "normal": N_("Normal"), "fast": N_("Fast")}
#: Royals & Riots seats 2 to 4 players (rules: 2-4 players).
SEATS = (2, 4)


def _level(value: Any) -> str:
    return check_choice(LEVEL_CHOICES)(value)


def table(value: Any) -> dict[str, Any]:
    """A remembered local set-up, normalised to exactly its keys (a fresh dict): ``{}`` (none yet)
    or ``{"seats": [{"name": str, "level": str | None}, ...], "teams": bool, "starter": int}`` with
    2-4 seats in seat order, each name as typed (at most 20 characters, blank allowed), ``level``
    None for a person or a key of ``game.royals.ai.levels.LEVELS``, ``teams`` only with 4 seats,
    ``starter`` 0 (random) or the seat (1-based) that starts round 1. A network table's set-up is
    not kept. Raises ValueError naming the first thing wrong."""
    from .ai.levels import LEVEL_NAMES
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, got {value!r}")
    if not value:
        return {}
    if set(value) != {"seats", "teams", "starter"}:
        raise ValueError(f"expected the keys seats, teams, starter, got {sorted(value)!r}")
    seats = value["seats"]
    low, high = SEATS
    if not isinstance(seats, list) or not low <= len(seats) <= high:
        raise ValueError(f"expected a list of {low} to {high} seats, got {seats!r}")
    out = []
    for seat in seats:
        if not isinstance(seat, dict) or set(seat) != {"name", "level"}:
            raise ValueError(f"expected a seat {{name, level}}, got {seat!r}")
        level = seat["level"]
        if level is not None and (not isinstance(level, str) or level not in LEVEL_NAMES):
            raise ValueError(f"expected a person (null) or one of {', '.join(LEVEL_NAMES)}, got {level!r}")
        out.append({"name": check_name(seat["name"]), "level": level})
    teams = check_bool(value["teams"])
    if teams and len(out) != 4:
        raise ValueError("teams are played by 4 seats only")
    starter = value["starter"]
    if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter <= len(out):
        raise ValueError(f"expected 0 (random) or a seat 1..{len(out)} to start, got {starter!r}")
    return {"seats": out, "teams": teams, "starter": starter}


#: The fields; the set-up was ``royals_table`` at the top level of a version 1 file.
SCHEMA: Schema = {
    "computer_level": Field("medium", _level, N_("Default computer level"), "choice", options=LEVEL_CHOICES,
                            option_text=lambda level: _(LEVEL_WORDS[level])),
    "computer_speed": Field("normal", check_choice(tuple(COMPUTER_SPEEDS)), N_("Computer speed"), "choice",
                            options=tuple(COMPUTER_SPEEDS), option_text=lambda speed: _(COMPUTER_SPEEDS[speed])),
    "hold_trick": Field(False, check_bool, N_("Keep the trick until I click"), "switch"),
    "table": Field({}, table, N_("Royals & Riots' last set-up"), v1="royals_table"),
}
