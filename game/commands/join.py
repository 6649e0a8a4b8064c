"""``rose-king join HOST[:PORT] [--name N] [--headless --ai LEVEL] [--record FILE]`` (issues 7, 13).

Connects to a host (and reconnects if the connection drops); the game (Rose King or Royals &
Riots) comes from the host's hello (:func:`net.royals_session.probe_host`, whose connection is
handed on, so the host sees one connection); ``--game`` names it instead, and a ``--record``
whose journal holds an unfinished Royals & Riots match resumes that. The rest is shared with
``rose-king host`` (see :mod:`game.commands.host`).
"""

from __future__ import annotations

import argparse
import sys

from net import DEFAULT_PORT

from game.lan import parse_address

from .host import add_common, run_peer


def _journal_game(record: str | None) -> str | None:
    """``"royals-riots"`` when ``record``'s private journal is a Royals & Riots match's, else None."""
    if not record:
        return None
    from net.royals_session import JOURNAL_FORMAT
    from net.transport import seat_path
    try:
        head = seat_path(record).read_bytes()[:4096]
    except OSError:
        return None
    return "royals-riots" if JOURNAL_FORMAT.encode() in head else None


def run(args: argparse.Namespace) -> int:
    args.address, args.port = args.target
    args.connected = None
    if args.game is None:
        args.game = _journal_game(args.record)
    if args.game is None:
        from net.royals_session import probe_host
        try:
            args.game, sock, data = probe_host(args.address, args.port)
            args.connected = (sock, data)
        except OSError:
            args.game = "rose-king"  # nobody answers yet: Rose King's joiner keeps trying (its status says so)
        except ValueError as e:
            print(f"rose-king join: {e}", file=sys.stderr)
            return 1
    return run_peer(args, "join")


def register(sub) -> None:
    p = sub.add_parser("join", help="join a LAN game",
                       description="Join a Rose King game or a Royals & Riots match hosted on the LAN "
                                   "(the game is the host's).")
    p.add_argument("target", type=parse_address, metavar="HOST[:PORT]",
                   help=f"the host's address, optionally with its port (default {DEFAULT_PORT})")
    p.add_argument("--game", choices=("rose-king", "royals-riots"), default=None,
                   help="the host's game (default: learnt from the host)")
    add_common(p)
    p.set_defaults(run=run)
