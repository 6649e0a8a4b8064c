"""The ``rose-king`` command: play (no arguments), ``check``, and the other subcommands.

Subcommands are small modules under ``game.commands``; each exposes
``register(subparsers)`` adding its parser with ``set_defaults(run=...)``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from game import __version__
from game.commands import check as _check
from game.commands import replay as _replay
from game.commands import host as _host
from game.commands import join as _join
from game.commands import match as _match

#: Modules that add a subcommand; later features append theirs here.
COMMANDS = [_check, _match, _replay, _host, _join]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rose-king",
        description="Rose King (Rosenkönig), the board game for two, and Royals & Riots, the trick-taking "
                    "card game for 2-4: play either in the game window, or use one of the tools below "
                    "(each takes both games: a record names its game, and 'match' and 'host' take "
                    "--game royals-riots). With no command (or a record file) it opens the game window.")
    parser.add_argument("--version", action="version", version=f"rose-king {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    """The names of ``parser``'s subcommands."""
    return {name for action in parser._actions if isinstance(action, argparse._SubParsersAction)
            for name in action.choices}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rose-king`` console script. Returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or (argv[0] not in _command_names(parser) and not argv[0].startswith("-")):
        return _play(argv)
    args = parser.parse_args(argv)
    return int(args.run(args) or 0)


def _play(argv: list[str]) -> int:
    """Open the game window; an optional record path is opened for replay."""
    try:
        from game.client.main import run  # the only place the CLI pulls in pygame
    except ImportError as e:
        print(f"rose-king: the game window is not available: {e}", file=sys.stderr)
        return 1
    return int(run(argv) or 0)


if __name__ == "__main__":
    sys.exit(main())
