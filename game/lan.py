"""What the LAN command line and the window's LAN screens share: the default player
name, ``HOST[:PORT]`` parsing, resuming from a ``--record`` journal, and why a stopped
LAN game stopped in the player's language.

Kept below both :mod:`game.commands` and :mod:`game.client` so neither imports the other.
"""

from __future__ import annotations

import argparse
import getpass
import re
from pathlib import Path

from game.i18n import _
from game.settings import MAX_NAME_LENGTH
from net import DEFAULT_PORT



def default_name(fallback: str) -> str:
    """The login name (for the player name), or ``fallback``."""
    try:
        name = getpass.getuser()
    except Exception:  # no login name on this system
        name = ""
    from net.limits import clean_name
    return clean_name(name, MAX_NAME_LENGTH, fallback)


def player_name(text: str) -> str:
    """``--name``'s type: a player name of 1..``MAX_NAME_LENGTH`` printable characters (the limit
    of every name field of the window). Raises argparse.ArgumentTypeError."""
    from net.limits import name_problem
    why = name_problem(text, MAX_NAME_LENGTH)
    if why is not None:
        raise argparse.ArgumentTypeError(f"a player name {why}, got {text[:60]!r}")
    return text


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


def load_seat(path: str | None):
    """The seat of the unfinished LAN game journaled next to ``path`` (the private journal
    ``PATH.journal``, with the record ``PATH``), or None (no journal, or a finished game).
    Exits with a one-line message for a file that cannot be read (bounded reading)."""
    from net.transport import load_seat as load
    if not path:
        return None
    try:
        return load(path)
    except ValueError as e:
        raise SystemExit(f"rose-king: cannot resume from {path}: {e}")


def check_record_path(path: str | None) -> str | None:
    """Why ``--record PATH`` cannot be written (missing or unwritable folder, a folder or a
    special file in its place, a name too long), or None. Checked at start, before any connection."""
    import os
    if not path:
        return None
    p = Path(path)
    if len(p.name) > 255:
        return f"--record {path[:60]}…: the file name is too long"
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        return f"--record {path}: the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"--record {path}: the folder {folder} is not writable"
    if p.exists() and not p.is_file():
        return f"--record {path}: not a regular file"
    return None


def host_colour(args: argparse.Namespace) -> str:
    """The host's colour choice for the protocol: ``"red"``, ``"white"`` or ``""`` (random)."""
    colour = getattr(args, "colour", "random") or "random"
    return "" if colour == "random" else colour


def ply_of(reason: str) -> int:
    """The engine ply a protocol reason names (``"ply 12 differs: ..."``, ``"seat 2, ply 57 (...)"``), or 0."""
    m = re.search(r"\bply (\d+)", reason)
    return int(m.group(1)) if m else 0


#: The closing codes :func:`failure_text` words (any other reads as a failed connection).
STOP_CODES = frozenset({"illegal", "coin", "forfeit", "desync", "sync", "left", "version", "game", "seat", "role",
                        "self", "internal", "order", "schema", "frame", "flood"})


def failure_text(code: str, who: str = "", ply: int = 0) -> str:
    """Why a LAN game stopped, for the players, in the current language (both games).

    ``code`` is the closing code of docs/protocol.md that stopped it: ``illegal`` (a move or
    play the rules do not allow), ``coin`` (a check of a coin or of the host's reveal failed),
    ``forfeit`` (a secret withheld or changed), ``desync`` (the state hashes or the copies of
    the game differ), ``sync`` (a resumed copy does not check), ``left`` (the host left),
    ``version``, ``game`` (the seat belongs to another game), ``seat`` (no seat: the table is
    full, or the seat cannot be proved), ``role``/``self`` (a machine meets itself), ``order``/``schema``/``frame``/``flood``
    (the peer broke the protocol), ``internal`` (an error of this program); anything else reads as a failed connection. ``who`` is the name
    of the player at fault ("" when none is named) and ``ply`` the engine ply where it happened
    (0: unknown). The English detail stays in the record and the report files; this is what the screen shows.
    """
    if code == "illegal":
        if who and ply:
            return _("{name} made a move the rules do not allow (move {ply}): the game was stopped.").format(
                name=who, ply=ply)
        if ply:
            return _("A move the rules do not allow (move {ply}): the game was stopped.").format(ply=ply)
        return _("A move the rules do not allow: the game was stopped.")
    if code == "coin":
        if who:
            return _("The check of a coin toss failed on {name}'s side: the game was stopped.").format(name=who)
        return _("The check of a coin toss failed: the game was stopped.")
    if code == "forfeit":
        if who:
            return _("{name} withheld or changed a secret of a coin toss and forfeits the game.").format(name=who)
        return _("A player withheld or changed a secret of a coin toss and forfeits the game.")
    if code == "desync":
        if ply:
            return _("The check found that the machines' copies of the game differ at move {ply}: "
                     "the game was stopped.").format(ply=ply)
        return _("The check found that the machines' copies of the game differ: the game was stopped.")
    if code == "sync":
        return _("The copy of the game sent to resume it does not check out: the game was stopped.")
    if code == "left":
        return _("The host left: the game is over.")
    if code == "version":
        return _("The other game is a different version.")
    if code == "game":
        return _("This seat belongs to another game.")
    if code == "seat":
        return _("There is no seat for this player at that table.")
    if code in ("role", "self"):
        return _("This machine cannot play against itself.")
    if code in ("order", "schema", "frame", "flood"):
        return _("The other program broke the network protocol: the game was stopped.")
    if code == "internal":
        return _("An error in this program stopped the game.")
    return _("The game was stopped: the connection failed.")
