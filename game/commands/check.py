"""``rose-king check FILE...``: validate game records of every game, one line per file.

The game is found from the record's ``"format"`` key (:mod:`game.registry`).
Output per file: ``PATH: <status>`` where the status is the game's own
(Rose King: ``ok finished red=140 white=42 winner=red plies=96``, ``ok in-progress ...``),
or ``PATH: error WHERE: <reason>`` / ``PATH: error: <reason>``.
Exit status 0 when every file is ok, 1 otherwise. Never prints a traceback.
"""

from __future__ import annotations

import argparse

from game.records import RecordError, read_json
from game.registry import game_for_record


def check_file(path: str) -> tuple[bool, str]:
    """Validate one record file. Returns (ok, the output line)."""
    try:
        record = read_json(path)
        status = game_for_record(record).check(record)
    except RecordError as e:
        return False, f"{path}: {e.check_line()}"
    return True, f"{path}: {status}"


def run(args: argparse.Namespace) -> int:
    all_ok = True
    for path in args.files:
        ok, line = check_file(path)
        all_ok &= ok
        print(line)
    return 0 if all_ok else 1


def register(sub) -> None:
    p = sub.add_parser("check", help="validate game record files",
                       description="Validate game records (Rose King, and every other game of the app, "
                                   "found from the record's format); one line per file; exit 1 if any is bad.")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (JSON)")
    p.set_defaults(run=run)
