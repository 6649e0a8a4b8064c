"""The games this app holds, and the one small interface through which the shell reaches them.

The shell (``rose-king check``/``replay``/``match``, the saved-games list, the main
menu's game choice) iterates :data:`GAMES` and asks each entry; it never names a
game. A game adds itself by providing one object that satisfies :class:`Game` (in
``game/<game>/plugin.py``) and one line in :data:`GAMES`. Everything here is pure
Python: no pygame (the window's side of a game is found in ``game.client.games``).

>>> [g.key for g in GAMES][0]
'rose-king'
>>> game_for_record({"format": "rose-king-record"}).title
'Rose King'
"""

from __future__ import annotations

import argparse
from typing import Any, Mapping, Protocol, Sequence

from game.records import RecordError


class Game(Protocol):
    """What the shell needs of one game (python-chess's ``Board`` / OpenSpiel's ``Game`` are the models).

    - ``key``: the CLI's ``--game`` value and the saved games' tag (``"rose-king"``).
    - ``title``: the English title; the window translates it.
    - ``record_format``: the ``"format"`` value of the game's records;
      ``record_version``: the newest record version it reads.
    - ``seats``: the allowed numbers of players, e.g. ``range(2, 3)``.
    - ``levels``: the names of its computer players, weakest first.
    - ``settings_schema``: its section of the player's settings, field name ->
      :class:`game.settings.Field` (default, check, label, how the settings screen shows it).
    - ``lan`` (optional): its LAN part, a :class:`net.match.LanPart` (match machine, message
      schemas, rate limits) that :class:`net.session.Session` runs; a game without one has
      no LAN play on the one layer.
    - ``other_formats`` (optional): other ``"format"`` values of files the game writes and
      :meth:`check` reads (Rose King's ``rose-king-lan-undealt``, a LAN match that ended before
      its deal); only :meth:`check` need read them.
    - ``add_host_arguments(group)`` (optional): adds the game's own lobby options to ``rose-king
      host`` (an argparse argument group, e.g. Rose King's ``--colour``); its LAN part's
      ``host_options(args)`` reads them.
    """

    key: str
    title: str
    record_format: str
    record_version: int
    seats: Sequence[int]
    levels: Sequence[str]
    settings_schema: Mapping[str, Any]

    def check(self, record: Mapping[str, Any]) -> str:
        """Fully validate a parsed record (shape, every action, the result).

        Returns the status shown after ``PATH: `` by ``rose-king check``
        (``ok finished ...`` or ``ok in-progress ...``). Raises :class:`RecordError`.
        """
        ...

    def plies(self, record: Mapping[str, Any]) -> int:
        """The record's length in plies, as the game's engine (``State.ply``), its replay viewer and
        its LAN protocol count them: every action of the replayed history, chance outcomes and
        set-up included (the saved-games list's "Plies" column). Raises :class:`RecordError`."""
        ...

    def replay_text(self, record: Mapping[str, Any]) -> list[str]:
        """The record played back as text, one line per ply/action (``rose-king replay --text``).
        Raises :class:`RecordError`."""
        ...

    def summarize(self, record: dict[str, Any], fallback_id: str) -> Any:
        """The saved-games list's :class:`game.saves.Summary` of a parsed record (players, kind,
        the winners by name, who is to act, progress in the game's own words), the record fully
        checked; ``fallback_id``: the file's name, the id of a record without a good ``game_id``.
        Raises :class:`RecordError` or ``game.saves.SaveError`` for a bad record."""
        ...

    def run_match(self, args: argparse.Namespace) -> int:
        """``rose-king match``: headless games between ``args.players`` (level names, already
        checked against :attr:`levels` and :attr:`seats`); prints progress and the summary
        line; returns the exit status."""
        ...


def _games() -> tuple[Game, ...]:
    from game.roseking.plugin import GAME as ROSE_KING
    from game.royals.plugin import GAME as ROYALS_RIOTS
    return (ROSE_KING, ROYALS_RIOTS)


#: Every game of the app, in the order the menus show them.
GAMES: tuple[Game, ...] = _games()


def game_by_key(key: str) -> Game:
    """The game whose ``key`` is ``key``. Raises KeyError naming the known keys."""
    for g in GAMES:
        if g.key == key:
            return g
    raise KeyError(f"unknown game {key!r} (known: {', '.join(g.key for g in GAMES)})")


def game_for_record(record: Mapping[str, Any]) -> Game:
    """The game a parsed record belongs to, by its ``"format"`` key.

    Raises :class:`RecordError` ("not a record of this app") for any other format.
    """
    fmt = record.get("format")
    for g in GAMES:
        if g.record_format == fmt or fmt in getattr(g, "other_formats", ()):
            return g
    known = ", ".join(repr(g.record_format) for g in GAMES)
    raise RecordError(f"not a record of this app: a JSON file of another kind (format {fmt!r}, not one of {known})"[:200])
