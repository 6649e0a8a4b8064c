"""Royals & Riots matches that keep themselves: autosave after every action, resume
("Continue" and the saved-games list), and the replay viewer of a record.

A save is the game's record (``docs/royals-record-format.md``) with extra top-level keys
that other readers ignore: ``game_id``, ``kind`` (``local``), ``seats`` (each seat's
``name`` and ``level``, null for a person), ``chance_seed`` (the seed every later chance
outcome is drawn from with its position, so a resumed match deals as it would have),
``starter`` (round 1's chosen starter, 0: random) and ``undo_marked`` (true once an undo
went back past cards shown to the person: the match is not counted in the statistics). A
network match's save (kind ``lan``) is written by the shell's table with :func:`game.royals.lan.record.save_text`
and only replayed here, never resumed (docs/royals-record-format.md, "Saved games").
"""

from __future__ import annotations

import os
import secrets
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from game.royals.engine import Record, RecordError, now_iso
from game.royals.saves import record_result

from game.royals.match import LEVELS, Seat, TableConfig, TableMatch

if TYPE_CHECKING:
    from game.saves import BackgroundAutosaver
    from game.stats import StatsStore

    from ..app import App


@dataclass
class RoyalsSave:
    """What :class:`game.saves.BackgroundAutosaver` needs of a game's save: its id and its record."""

    game_id: str
    match: TableMatch
    date: str

    @classmethod
    def new(cls, match: TableMatch) -> "RoyalsSave":
        return cls(uuid.uuid4().hex, match, now_iso())

    def extra(self) -> dict[str, Any]:
        cfg = self.match.config
        extra = {"game_id": self.game_id, "kind": "local",
                 "seats": [{"name": s.name, "level": s.level} for s in cfg.seats],
                 "chance_seed": self.match.chance_seed, "starter": cfg.starter}
        if self.match.undo_marked:
            extra["undo_marked"] = True
        return extra

    def record(self, state) -> Record:
        rec = Record.from_state(state, players=[s.name for s in self.match.config.seats], date=self.date)
        rec.extra = self.extra()
        return rec


class Autosave:
    """The autosave hook of a match (:func:`autosaver`): called with the match after every action,
    with None (or nothing) when the table closes. ``save``: what is written; ``saver``: the
    :class:`game.saves.BackgroundAutosaver` writing it (its ``error``, its ``flush``)."""

    def __init__(self, save: RoyalsSave, saver: "BackgroundAutosaver", stats: "StatsStore | None" = None) -> None:
        self.save = save
        self.saver = saver
        self.stats = stats

    def __call__(self, m: TableMatch | None = None) -> None:
        if m is None:  # the scene closes: write what is pending, stop the thread
            self.saver.close()
        else:
            self.saver.submit(m.state, self.save)
            if self.stats is not None and not m.undo_marked:  # a match played with an undo past shown cards is not counted
                record_result(self.stats, [s.level for s in m.config.seats], m.state, self.save.game_id)  # the statistics, at the end


def autosaver(match: TableMatch, save: RoyalsSave | None = None, stats: "StatsStore | None" = None) -> Autosave:
    """An autosave hook for ``match``: writes its record (to ``save``'s file, a new one if None)
    off the frame loop after every action, and counts a match against the computer at its end
    in ``stats`` (the window's ``app.stats``; None: not counted); called with None when the
    table closes."""
    from game.saves import BackgroundAutosaver, shared_store
    return Autosave(save or RoyalsSave.new(match), BackgroundAutosaver(shared_store()), stats)


def load(path: str | os.PathLike[str]) -> tuple[TableMatch, RoyalsSave]:
    """The match of the save at ``path``, replayed to its last action. Raises SaveError."""
    from game.saves import SaveError, read_json_record, record_error_text
    obj = read_json_record(path)
    try:
        record = Record.from_dict(obj)
        state = record.replay()
    except RecordError as e:
        raise SaveError(record_error_text(e)) from None
    seats_raw = obj.get("seats")
    names = record.players
    seats = []
    for i, name in enumerate(names):
        level = None
        if isinstance(seats_raw, list) and i < len(seats_raw) and isinstance(seats_raw[i], dict):
            lv = seats_raw[i].get("level")
            level = lv if lv in LEVELS else None
        seats.append(Seat(name, level))
    seed = obj.get("chance_seed")
    raw_starter = obj.get("starter")
    starter = raw_starter if type(raw_starter) is int else 0
    config = TableConfig(seats, teams=record.teams, starter=starter if 0 <= starter <= len(seats) else 0)
    match = TableMatch.resume(config, state)
    match.chance_seed = seed if type(seed) is int else secrets.randbits(62)
    match.undo_marked = obj.get("undo_marked") is True
    raw_id = obj.get("game_id")
    game_id = raw_id if isinstance(raw_id, str) else uuid.uuid4().hex
    return match, RoyalsSave(game_id, match, record.date or now_iso())


def open_replay(app: "App", path: str | os.PathLike[str], on_back: Callable[[], None] | None = None) -> str | None:
    """Push the replay viewer of the record at ``path``; a bad file returns its reason instead."""
    from game.saves import SaveError

    from .replay_view import RoyalsReplayScene
    try:
        match, _save = load(path)
    except SaveError as e:
        return str(e)
    def back() -> None:
        app.pop()
    app.push(RoyalsReplayScene(app, match, on_back=on_back or back))
    return None
