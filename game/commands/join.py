"""``rose-king join HOST[:PORT] [--name N] [--headless --ai LEVEL] [--record FILE]`` (issue 7).

Connects to a host (and reconnects if the connection drops); the rest is shared
with ``rose-king host`` (see :mod:`game.commands.host`).
"""

from __future__ import annotations

import argparse

from net import DEFAULT_PORT

from game.lan import parse_address

from .host import add_common, run_peer


def run(args: argparse.Namespace) -> int:
    args.address, args.port = args.target
    return run_peer(args, "join")


def register(sub) -> None:
    p = sub.add_parser("join", help="join a LAN game",
                       description="Join a Rose King game hosted on the LAN.")
    p.add_argument("target", type=parse_address, metavar="HOST[:PORT]",
                   help=f"the host's address, optionally with its port (default {DEFAULT_PORT})")
    add_common(p)
    p.set_defaults(run=run)
