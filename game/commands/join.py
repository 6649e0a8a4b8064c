"""``rose-king join HOST[:PORT] [--name N] [--headless --ai LEVEL] [--record FILE]`` (issue 7).

Connects to a host (and reconnects if the connection drops); the rest is shared
with ``rose-king host`` (see :mod:`game.commands.host`).
"""

from __future__ import annotations

import argparse

from net import DEFAULT_PORT

from .host import add_common, run_peer


def parse_address(text: str) -> tuple[str, int]:
    """``"host"``, ``"host:port"`` or ``"[v6]:port"`` -> (host, port). Raises argparse.ArgumentTypeError."""
    host, port = text, DEFAULT_PORT
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise argparse.ArgumentTypeError(f"bad address {text!r}")
        host, rest = text[1:end], text[end + 1:]
        if rest:
            if not rest.startswith(":"):
                raise argparse.ArgumentTypeError(f"bad address {text!r}")
            port = rest[1:]  # type: ignore[assignment]
    elif text.count(":") == 1:
        host, port = text.split(":")  # type: ignore[assignment]
    try:
        port = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad port in {text!r}") from None
    if not host or not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"bad address {text!r} (expected HOST or HOST:PORT)")
    return host, port


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
