"""What the LAN command line and the window's LAN screens share: the default player
name, ``HOST[:PORT]`` parsing, and resuming from a ``--record`` journal.

Kept below both :mod:`game.commands` and :mod:`game.client` so neither imports the other.
"""

from __future__ import annotations

import argparse
import getpass
from pathlib import Path

from net import DEFAULT_PORT

from game.roseking.engine import Record, RecordError


def default_name(fallback: str) -> str:
    """The login name (for the player name), or ``fallback``."""
    try:
        name = getpass.getuser()
    except Exception:  # no login name on this system
        name = ""
    name = "".join(ch for ch in name if ch.isprintable())[:32]
    return name or fallback


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


def load_game(path: str | None):
    """The unfinished LAN game journaled in ``path``, or None (no file, or a finished game)."""
    from net.protocol import LanGame
    if not path or not Path(path).exists():
        return None
    try:
        game = LanGame.from_record(Record.load(path))
    except (RecordError, ValueError, OSError) as e:
        raise SystemExit(f"rose-king: cannot resume from {path}: {e}")
    return None if game.over else game
