"""``rose-king replay FILE [--text]``: watch a saved game.

The record is checked first; a bad file prints one line
``FILE: error: <reason>`` on stderr and exits 1 (never a traceback). Then the
game window opens on the replay viewer (``game.client.main.run(["--replay",
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

from game.i18n import _
from game.records import RecordError, display_path
from game.registry import game_for_record
from game.saves import SaveError, read_json_record, record_error_text


def run(args: argparse.Namespace) -> int:
    try:
        record = read_json_record(args.file)
        lines = game_for_record(record).replay_text(record)  # checks every action
    except SaveError as e:
        print(f"{display_path(args.file)}: error: {e}", file=sys.stderr)
        return 1
    except RecordError as e:
        print(f"{display_path(args.file)}: error: {record_error_text(e)}", file=sys.stderr)
        return 1
    if args.text:
        print("\n".join(lines))
        return 0
    try:
        from game.client.main import run as run_window  # the only pygame import on this path
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
