"""``rose-king replay FILE [--text]``: watch a saved game.

The record is checked first; a bad file prints one line
``FILE: error: <reason>`` on stderr and exits 1 (never a traceback). Then the
game window opens on the replay viewer (``game.client.app.run(["--replay",
FILE])``), or with ``--text`` the replay is printed ply by ply::

    ply  move             red  white
      0  (start)            0      0
      1  red play NE2       1      0
     ...
     57  white draw S3     40     31   red passes
    result: red 140, white 42 - red wins (score)
"""

from __future__ import annotations

import argparse
import sys

from game.roseking.engine import Color
from game.i18n import _
from game.roseking.replay import Replay
from game.saves import SaveError, read_game


def text_lines(replay: Replay) -> list[str]:
    """The ``--text`` listing: a header, one line per ply (0 = the start), and the result line."""
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


def run(args: argparse.Namespace) -> int:
    try:
        record, _state = read_game(args.file)
        replay = Replay(record)
    except SaveError as e:
        print(f"{args.file}: error: {e}", file=sys.stderr)
        return 1
    if args.text:
        print("\n".join(text_lines(replay)))
        return 0
    try:
        from game.client.app import run as run_window  # the only pygame import on this path
    except ImportError as e:
        print(_("rose-king replay: the game window is not available ({reason}); "
                "use --text to print the replay").format(reason=e), file=sys.stderr)
        return 1
    return int(run_window(["--replay", args.file]) or 0)


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("replay", help="watch a saved game (window, or --text)",
                       description="Check a game record and play it back in the game window; "
                                   "--text prints it ply by ply instead. Exit 1 for a bad file.")
    p.add_argument("file", metavar="FILE", help="a game record (JSON)")
    p.add_argument("--text", action="store_true", help="print the replay ply by ply (move, scores, passes)")
    p.set_defaults(run=run)
