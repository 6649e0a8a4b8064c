"""The games this app holds, and the one small interface through which the shell reaches them.

The shell (``rose-king check``/``replay``/``match``/``host``/``join``, the saved-games list,
the main menu's game choice) iterates :data:`GAMES` and asks each entry; it never names a
game. A game adds itself by providing one object that satisfies :class:`Game` (in
``game/<game>/plugin.py``) and one line in :func:`_games`, the one list: nothing registers
itself by being imported. Everything here is pure Python: no pygame (the window's side of a
game is found in ``game.client.games``).

>>> [g.key for g in GAMES][0]
'rose-king'
>>> game_for_record({"format": "rose-king-record"}).title
'Rose King'
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence, runtime_checkable

from game.records import RecordError

if TYPE_CHECKING:
    from game.savefile import Summary
    from game.schema import Schema
    from net.match import LanPart


@runtime_checkable
class Game(Protocol):
    """What the shell needs of one game (python-chess's ``Board`` / OpenSpiel's ``Game`` are the
    models): every member below, none optional (docs/architecture.md, "What a third game
    implements"). The data members are read-only: class attributes or properties satisfy them.
    """

    @property
    def key(self) -> str:
        """The CLI's ``--game`` value and the saved games' tag (``"rose-king"``)."""
        ...

    @property
    def title(self) -> str:
        """The English title; the window translates it."""
        ...

    @property
    def record_format(self) -> str:
        """The ``"format"`` value of the game's records."""
        ...

    @property
    def record_version(self) -> int:
        """The newest record version it reads."""
        ...

    @property
    def other_formats(self) -> Sequence[str]:
        """Other ``"format"`` values of files the game writes and :meth:`check` reads (Rose King's
        ``rose-king-lan-undealt``, a LAN match that ended before its deal); only :meth:`check`
        need read them. Empty for most games."""
        ...

    @property
    def seats(self) -> Sequence[int]:
        """The allowed numbers of players, e.g. ``range(2, 3)``."""
        ...

    @property
    def levels(self) -> Sequence[str]:
        """The names of its computer players, weakest first."""
        ...

    @property
    def level_words(self) -> Mapping[str, str]:
        """The window's English names of its levels, translated when shown (``"random"`` ->
        ``"Beginner"``); ``rose-king match`` takes them too. A level left out has none."""
        ...

    @property
    def settings_schema(self) -> "Schema":
        """Its section of the player's settings, field name -> :class:`game.schema.Field`
        (default, check, label, how the settings screen shows it); empty for none."""
        ...

    @property
    def match_seconds(self) -> float:
        """The default of ``rose-king match --seconds``: its search levels' thinking time per move."""
        ...

    @property
    def lan(self) -> "LanPart | None":
        """Its LAN part, a :class:`net.match.LanPart` (match machine, message schemas, rate limits)
        that :class:`net.session.Session` runs; None for a game without LAN play."""
        ...

    def add_host_arguments(self, group: argparse._ArgumentGroup) -> None:
        """Add the game's own lobby options to ``rose-king host`` (``group``: its argument group
        in ``--help``, e.g. Rose King's ``--colour``); its LAN part's ``host_options(args)`` reads
        them. A game without any adds nothing."""
        ...

    def add_match_arguments(self, group: argparse._ArgumentGroup) -> None:
        """Add the game's own options to ``rose-king match`` (``group``: its argument group in
        ``--help``, e.g. Royals & Riots' ``--teams``); its :meth:`run_match` reads them, and the
        command refuses them for another game. A game without any adds nothing."""
        ...

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

    def summarize(self, record: dict[str, Any], fallback_id: str) -> "Summary":
        """The saved-games list's :class:`game.savefile.Summary` of a parsed record (players, kind,
        the winners by name, who is to act, progress in the game's own words), the record fully
        checked; ``fallback_id``: the file's name, the id of a record without a good ``game_id``.
        Raises :class:`RecordError` or ``game.savefile.SaveError`` for a bad record."""
        ...

    def run_match(self, args: argparse.Namespace) -> int:
        """``rose-king match``: headless games between ``args.players`` (level names, already
        checked against :attr:`levels` and :attr:`seats`; ``args.seconds`` set, ``args.games``,
        ``args.seed``, ``args.jobs``, ``args.out``, and its own options of
        :meth:`add_match_arguments`); prints progress and the summary line; returns the exit
        status (2 after ``args.parser.error`` for options that do not fit)."""
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
        if g.record_format == fmt or fmt in g.other_formats:
            return g
    known = ", ".join(repr(g.record_format) for g in GAMES)
    raise RecordError(f"not a record of this app: a JSON file of another kind (format {fmt!r}, not one of {known})"[:200])
