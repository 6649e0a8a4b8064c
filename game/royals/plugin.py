"""Royals & Riots as one entry of the app's game registry (:mod:`game.registry`).

>>> GAME.key, GAME.record_format, list(GAME.seats)
('royals-riots', 'royals-riots-record', [2, 3, 4])
>>> GAME.check(SAMPLE)
'ok in-progress round=1 trick=4 to-act=3 scores=6,0,1'
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
from typing import TYPE_CHECKING, Any, Mapping

from .ai.levels import LEVEL_NAMES
from .ai.players import DEFAULT_SECONDS
from .engine.actions import STEAL, Action
from .engine.record import FORMAT, SAMPLE, VERSION, Record, status_line
from .engine.state import State
from .settings import LEVEL_WORDS
from .settings import SCHEMA as SETTINGS

if TYPE_CHECKING:
    from game.savefile import Summary
    from net.match import LanPart

__all__ = ["GAME", "RoyalsRiots", "text_lines", "SAMPLE"]


class RoyalsRiots:
    """The :class:`game.registry.Game` of Royals & Riots."""

    key = "royals-riots"
    title = "Royals & Riots"  # the game's own name in every language (the Dutch original's too)
    record_format = FORMAT
    record_version = VERSION
    other_formats: tuple[str, ...] = ()
    seats = range(2, 5)
    levels = LEVEL_NAMES
    level_words = LEVEL_WORDS  # the window's names of the levels (game/royals/settings.py)
    settings_schema = SETTINGS  # its section of the player's settings (game/royals/settings.py)
    match_seconds = DEFAULT_SECONDS  # rose-king match --seconds: the search levels' time per decision

    @staticmethod
    def summarize(record: dict[str, Any], fallback_id: str) -> "Summary":
        """The saved-games list's summary of a parsed record (:func:`game.royals.saves.summarize`).
        Raises RecordError for a bad record."""
        from .saves import summarize
        return summarize(record, fallback_id)

    def check(self, record: Mapping[str, Any]) -> str:
        """``ok finished scores=.. winners=.. rounds=3`` or ``ok in-progress round=.. trick=..
        to-act=.. scores=..`` (docs/royals-record-format.md). Raises :class:`RecordError`."""
        return status_line(Record.from_dict(dict(record)).replay())

    def plies(self, record: Mapping[str, Any]) -> int:
        """``State.ply`` after the record: every action of the engine's history, the set-up's
        included (each round's starter, deal and piles, chance outcomes; each seat's keep, a
        decision; a steal's chance outcome after its decision), as the replay viewer steps
        through them and the LAN session numbers them (docs/royals-record-format.md, "Plies").
        Raises RecordError."""
        return Record.from_dict(dict(record)).replay().ply

    def replay_text(self, record: Mapping[str, Any]) -> list[str]:
        """The ``replay --text`` listing (see :func:`text_lines`). Raises RecordError."""
        rec = Record.from_dict(dict(record))
        rec.replay()  # validates everything first
        return text_lines(rec)

    @functools.cached_property
    def lan(self) -> "LanPart":
        """Its LAN part on the one LAN layer: the dealer-free match machine (:data:`game.royals.lan.match.FAIR`,
        protocol version 4, docs/protocol.md "Royals & Riots with no trusted dealer"), whose
        host's command line gives its lobby options (:func:`host_options`). Imported on first use."""
        from game.royals.lan.match import FAIR
        return dataclasses.replace(FAIR, host_options=host_options)

    @staticmethod
    def add_host_arguments(group: argparse._ArgumentGroup) -> None:
        """``rose-king host``'s Royals & Riots options (an argparse argument group): ``--teams``
        (:func:`host_options`)."""
        group.add_argument("--teams", action="store_true", help="two teams of two, seats 1+3 against 2+4 (--seats 4)")

    @staticmethod
    def add_match_arguments(group: argparse._ArgumentGroup) -> None:
        """``rose-king match``'s Royals & Riots options (an argparse argument group): ``--teams``,
        read by :func:`game.royals.ai.match.main_match` (4 levels only); the group's words say
        how it plays and sums up."""
        group.description = ("2 to 4 levels, their seats rotating between matches. The last lines: the mean "
                             "points per round, then 'A vs B vs C: N matches, A won X, B won Y, C won Z, shared S; "
                             "A win rate R% (95% CI LO%-HI%)'.")
        group.add_argument("--teams", action="store_true",
                           help="4 levels in two teams: seats 1+3 against 2+4 (ruling 10)")

    def run_match(self, args: argparse.Namespace) -> int:
        """Headless matches between 2-4 levels, seats rotating (``rose-king match --game royals-riots``)."""
        from .ai.match import main_match
        return main_match(args)


def host_options(args: argparse.Namespace) -> dict[str, Any]:
    """A LAN host's lobby options (:attr:`net.match.Table.options`) from ``rose-king host``'s
    ``--teams`` (two teams of two, seats 1+3 against 2+4: ``{"teams": True}``; ruling 10 of
    docs/royals-rules.md). Raises ValueError when teams are asked of a table that is not 4 seats."""
    if not getattr(args, "teams", False):
        return {}
    if getattr(args, "seats", None) != 4:
        raise ValueError("--teams needs a table of 4 seats (--seats 4)")
    return {"teams": True}


def text_lines(rec: Record) -> list[str]:
    """A valid record played back as text: per round a header, then one line per action with
    the trick number and the match totals after it, a line per trick's winner, and the result::

        round 1: starter 1
          1.1  1 play K4          6,0,1
          ...
          trick 1: seat 1 wins 5 points (revolution)
        in progress: round 1 trick 4, seat 3 to act, scores 6,0,1
    """
    state = State(len(rec.players), rec.teams)
    lines = [" vs ".join(f"{s}. {name}" for s, name in enumerate(rec.players, 1))
             + ("  (teams 1+3 against 2+4)" if rec.teams else "")]
    for r, rnd in enumerate(rec.rounds, 1):
        Record._setup(state, r, rnd)
        lines.append(f"round {r}: starter {rnd.starter}")
        for text in rnd.actions:
            a = Action.from_str(text)
            trick, before = state.trick_no, state.loot[:]
            state.push(a)
            lines.append(f"  {r}.{trick:<3} {text:<22} {','.join(map(str, state.scores()))}")
            if state.round != r or state.is_over() or state.trick_no != trick:
                stolen = 1 << a.card.index if a.kind is STEAL and a.card is not None else 0
                after = state.loot if state.round == r and not state.is_over() else None
                won = [] if after is None else [i + 1 for i in range(state.players) if (after[i] & ~stolen) != before[i] & ~stolen
                                                and (after[i] & ~before[i] & ~stolen)]
                side = ", revolution" if state.revolution and after is not None else ""
                if after is None:
                    lines.append(f"  round {r} over: round scores {','.join(map(str, state.round_scores[-1]))}")
                elif won:
                    lines.append(f"  trick {trick}: seat {won[0]} wins{side}")
                else:
                    lines.append(f"  trick {trick}: nobody wins, seat {state.leader} leads again{side}")
    out = state.outcome()
    if out is None:
        lines.append(status_line(state).replace("ok in-progress", "in progress:"))
    else:
        teams = "" if out.team_scores is None else f", teams {','.join(map(str, out.team_scores))}"
        lines.append(f"result: scores {','.join(map(str, out.scores))}{teams}; "
                     f"winners {','.join(map(str, out.winners))}")
    return lines


GAME = RoyalsRiots()
