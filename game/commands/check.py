"""``rose-king check FILE...``: validate game records of every game, one line per file.

The game is found from the record's ``"format"`` key (:mod:`game.registry`).
Output per file: ``PATH: <status>`` where the status is the game's own
(Rose King: ``ok finished red=140 white=42 winner=red plies=96``, ``ok in-progress ...``),
or ``PATH: error WHERE: <reason>`` / ``PATH: error: <reason>``.
Exit status 0 when every file is ok, 1 otherwise. Never prints a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys

from game.records import RecordError, display_path, read_json
from game.registry import game_for_record


def check_file(path: str) -> tuple[bool, str]:
    """Validate one record file (bounded: :func:`game.records.read_json`). Returns (ok, the
    output line); the path is shown cut to 120 characters. Never raises for a bad file."""
    shown = display_path(path)
    try:
        record = read_json(path)
        status = game_for_record(record).check(record)
    except RecordError as e:
        return False, f"{shown}: {e.check_line()}"
    except (ValueError, TypeError, KeyError, RecursionError) as e:  # a game's checker slipped: still one line
        return False, f"{shown}: error: not a record: {type(e).__name__}: {str(e)[:200]}"
    return True, f"{shown}: {status}"


def run(args: argparse.Namespace) -> int:
    """Print one line per file. An output pipe closed early (``check ... | head -1``) ends
    quietly with status 1 (never a BrokenPipeError traceback)."""
    all_ok = True
    try:
        for path in args.files:
            ok, line = check_file(path)
            all_ok &= ok
            print(line, flush=True)
    except BrokenPipeError:
        try:  # stdout is gone: point it at /dev/null so the interpreter's final flush is silent
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    return 0 if all_ok else 1


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("check", help="validate game record files",
                       description="Validate game records (Rose King, and every other game of the app, "
                                   "found from the record's format); one line per file; exit 1 if any is bad.")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (JSON)")
    p.set_defaults(run=run)
