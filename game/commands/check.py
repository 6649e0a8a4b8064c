"""``rose-king check FILE...``: validate game records, one line per file.

Output per file (issue 2):
``PATH: ok finished red=140 white=42 winner=red plies=96``,
``PATH: ok in-progress red=12 white=9 to-move=white plies=20``,
``PATH: error move 37 "white play N3": <reason>`` or ``PATH: error: <reason>``.
Exit status 0 when every file is ok, 1 otherwise. Never prints a traceback.
"""

from __future__ import annotations

import argparse
import json

from game.roseking.engine.record import Record, RecordError, status_line


def check_file(path: str) -> tuple[bool, str]:
    """Validate one record file. Returns (ok, the output line)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return False, f"{path}: error: cannot read the file: {e.strerror or e}"
    try:
        record = Record.from_json(data)
        state = record.replay()
    except RecordError as e:
        if e.move_number is not None:
            return False, f"{path}: error move {e.move_number} {json.dumps(e.move_text)}: {e.reason}"
        return False, f"{path}: error: {e.reason}"
    return True, f"{path}: {status_line(state)}"


def run(args: argparse.Namespace) -> int:
    all_ok = True
    for path in args.files:
        ok, line = check_file(path)
        all_ok &= ok
        print(line)
    return 0 if all_ok else 1


def register(sub) -> None:
    p = sub.add_parser("check", help="validate game record files",
                       description="Validate Rose King game records; one line per file; exit 1 if any is bad.")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (JSON)")
    p.set_defaults(run=run)
