"""Rose King as one entry of the app's game registry (:mod:`game.registry`).

>>> GAME.key, GAME.record_format, list(GAME.seats)
('rose-king', 'rose-king-record', [2])
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Mapping

from game.i18n import N_

if TYPE_CHECKING:
    from game.savefile import Summary
    from net.match import LanPart

    from .replay import Replay

from .ai.levels import LEVEL_NAMES
from .ai.players import DEFAULT_SECONDS
from .engine import Color
from .engine.record import FORMAT, VERSION, Record, status_line
from .phrases import LEVEL_NAMES as LEVEL_WORDS
from .settings import SCHEMA as SETTINGS


class RoseKing:
    """The :class:`game.registry.Game` of Rose King."""

    key = "rose-king"
    title = N_("Rose King")
    record_format = FORMAT
    record_version = VERSION
    #: a LAN match that ended before its deal (:func:`game.roseking.lan.match.check_undealt`): check reads it
    other_formats = ("rose-king-lan-undealt",)
    seats = range(2, 3)
    levels = LEVEL_NAMES
    level_words = LEVEL_WORDS  # the window's names of the levels (game/roseking/phrases.py)
    settings_schema = SETTINGS  # its section of the player's settings (game/roseking/settings.py)
    match_seconds = DEFAULT_SECONDS  # rose-king match --seconds: the search levels' time per move

    @property
    def lan(self) -> "LanPart":
        """Its LAN part on the one LAN layer (:data:`game.roseking.lan.match.LAN`; docs/protocol.md, "Rose King")."""
        from game.roseking.lan.match import LAN
        return LAN

    @staticmethod
    def add_host_arguments(group: argparse._ArgumentGroup) -> None:
        """``rose-king host``'s Rose King options (an argparse argument group): ``--colour`` (the
        table's option ``colour``, :func:`game.roseking.lan.match.LAN`'s ``host_options``)."""
        group.add_argument("--colour", "--color", choices=("red", "white", "random"), default="random",
                           help="the colour you play in a new game (default random: the set-up coin decides)")

    @staticmethod
    def add_match_arguments(group: argparse._ArgumentGroup) -> None:
        """``rose-king match``: no options of its own; the group's words say how it plays and sums up."""
        group.description = ("Two levels, RED WHITE: Red in odd games (the colours alternate). The last line: "
                             "'A vs B: N games, A won X, B won Y, drawn Z; A win rate R% (95% CI LO%-HI%)', "
                             "counted per player, not per colour.")

    @staticmethod
    def summarize(record: dict[str, Any], fallback_id: str) -> "Summary":
        """The saved-games list's summary of a parsed record (:func:`game.roseking.saves.summarize`).
        Raises game.savefile.SaveError for a bad record."""
        from .saves import summarize
        return summarize(record, fallback_id)

    def check(self, record: Mapping[str, Any]) -> str:
        """``ok finished red=.. white=.. winner=.. plies=..`` or ``ok in-progress ...``
        (docs/record-format.md), or for a LAN match that ended before its deal ``ok undealt
        result=KIND seat=N`` (docs/protocol.md, "Rose King on the layer"). Raises
        :class:`game.roseking.engine.RecordError`."""
        if isinstance(record, Mapping) and record.get("format") in self.other_formats:
            from game.roseking.lan.match import check_undealt
            return check_undealt(record)
        rec = Record.from_dict(dict(record))
        return status_line(rec.replay(), rec.termination)

    def plies(self, record: Mapping[str, Any]) -> int:
        """The record's moves (a draw with its card is one ply: ``State.ply``). Raises RecordError."""
        return Record.from_dict(dict(record)).replay().ply

    def replay_text(self, record: Mapping[str, Any]) -> list[str]:
        """The ``replay --text`` listing (see :func:`text_lines`). Raises RecordError."""
        from .replay import Replay
        return text_lines(Replay(Record.from_dict(dict(record))))

    def run_match(self, args: argparse.Namespace) -> int:
        """Headless games between two levels, colours alternating; see ``rose-king match --help``."""
        from .ai.match import record_path, run_match, summary_line
        a, b = args.players
        won = {"a": 0, "b": 0, None: 0}
        n = 0
        try:
            for r in run_match(a, b, args.games, args.seconds, seed=args.seed, jobs=args.jobs):
                n += 1
                won[r.winner] += 1
                if args.out is not None:
                    with open(record_path(args.out, a, b, r.index), "w", encoding="utf-8") as f:
                        f.write(r.record_json)
                red, white = (a, b) if r.a_is_red else (b, a)
                result = "draw" if r.winner is None else f"{a if r.winner == 'a' else b} wins"
                print(f"game {r.index + 1}/{args.games}: {red} (red) {r.red_score} - {r.white_score} {white} (white), "
                      f"{result}, {r.plies} plies", flush=True)
        except KeyboardInterrupt:
            print(f"interrupted after {n} of {args.games} games", flush=True)
            print(summary_line(a, b, n, won["a"], won["b"], won[None]), flush=True)
            return 130
        print(summary_line(a, b, n, won["a"], won["b"], won[None]), flush=True)
        return 0


def text_lines(replay: "Replay") -> list[str]:
    """The ``--text`` listing of a :class:`game.roseking.replay.Replay`: a header, one line
    per ply (0 = the start), and the result line::

        ply  move             red  white
          0  (start)            0      0
          1  red play NE2       1      0
        result: red 140, white 42 - red wins (score); ended because ...
    """
    width = max([len("(start)")] + [len(m.text) for m in replay.moves])
    lines = [f"{'ply':>4}  {'move':<{width}}  {'red':>4} {'white':>5}"]
    r, w = replay.scores[0]
    lines.append(f"{0:>4}  {'(start)':<{width}}  {r:>4} {w:>5}")
    for info in replay.moves:
        r, w = info.scores
        line = f"{info.number:>4}  {info.text:<{width}}  {r:>4} {w:>5}"
        if info.passed is not None:
            line += f"   {info.passed} passes"
        lines.append(line)
    outcome = replay.outcome
    if outcome is None:
        r, w = replay.scores[-1]
        lines.append(f"in progress: red {r}, white {w}, {Color(replay.final_state.turn)} to move")
    else:
        who = "draw" if outcome.winner is None else f"{outcome.winner} wins"
        lines.append(f"result: red {outcome.red_score}, white {outcome.white_score} - {who} ({outcome.decided_by}); "
                     f"ended because {outcome.termination.value}")
    return lines


GAME = RoseKing()
