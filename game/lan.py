"""What the LAN command line and the window's LAN screens share: the default player
name, ``HOST[:PORT]`` parsing, the ``--record`` path check, a host's table from its options,
and why a join cannot start. (Why a LAN game stopped is worded by each game's phrases,
``stop_text``, its own verdicts, and :mod:`game.stop_words`, the layer's closing codes.)

Kept below both :mod:`game.commands` and :mod:`game.client` so neither imports the other.
"""

from __future__ import annotations

import argparse
import getpass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection

from game.i18n import _
from game.settings import MAX_NAME_LENGTH
from net import DEFAULT_PORT

if TYPE_CHECKING:
    from net.match import LanPart


def now_iso() -> str:
    """The current UTC time as a LAN match's ``date`` (the host's, in every peer's record):
    ``2026-11-27T07:50:00Z``."""
    from datetime import datetime, timezone
    return datetime.now(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


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
    host, port_text = text, str(DEFAULT_PORT)
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise argparse.ArgumentTypeError(f"bad address {text!r}")
        host, rest = text[1:end], text[end + 1:]
        if rest:
            if not rest.startswith(":"):
                raise argparse.ArgumentTypeError(f"bad address {text!r}")
            port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    try:
        port = int(port_text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad port in {text!r}") from None
    if not host or not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"bad address {text!r} (expected HOST or HOST:PORT)")
    return host, port


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


def computer_name(level: str) -> str:
    """The name of a computer seat at ``level`` as every seat's lobby and record show it
    (``Computer (easy)``)."""
    return f"Computer ({level})"[:24]


def table_choice(part: LanPart, args: argparse.Namespace, levels: Collection[str] | None = None
                 ) -> tuple[tuple[str, ...], dict[int, str], dict[str, Any]]:
    """The table a host of a game on the one LAN layer opens, from ``rose-king host``'s options:
    ``(kinds, computers, options)`` for :class:`net.session.Session`. ``part``: the game's
    :class:`net.match.LanPart`; ``--seats N`` (default: the part's fewest), each ``--computer
    LEVEL`` the highest free seat (seat 0 is the host's; a computer seat adds no protection: its
    secrets are the host's), ``options`` from the part's ``host_options(args)``; ``levels``: the
    game's computer levels, to check ``--computer``. With a ``--record`` whose journal holds a
    match, that match's table decides (it is resumed): its seats and which are computers, played
    at the ``--computer`` levels in seat order (the last repeats; the first of ``levels`` without
    any). Raises ValueError (the reason) for a table the game does not take or a bad journal."""
    wanted = list(getattr(args, "computer", None) or [])
    if wanted and part.player is None:
        raise ValueError("the game has no computer players")
    bad = [w for w in wanted if levels is not None and w not in levels]
    if bad and levels is not None:
        raise ValueError(f"--computer {bad[0]}: the levels are {', '.join(levels)}")
    record = getattr(args, "record", None)
    if record:
        from net.journal import seat_path
        from net.session import load_journal
        loaded = load_journal(seat_path(record), part.key)
        if loaded is not None:
            table = loaded[0].table
            comp = sorted(table.computers)
            if comp and part.player is None:
                raise ValueError("the journal's match has computer seats this program cannot play")
            picks = wanted or list(levels or ["random"])[:1]
            computers = {s: picks[min(i, len(picks) - 1)] for i, s in enumerate(comp)}
            kinds = tuple("host" if s == 0 else "computer" if s in computers else "person"
                          for s in range(table.seats))
            return kinds, computers, dict(table.options)
    seats = getattr(args, "seats", None) or min(part.seats)
    if seats not in part.seats:
        raise ValueError(f"the game takes {', '.join(map(str, part.seats))} seats, not {seats}")
    if len(wanted) > seats - 1:
        raise ValueError(f"{len(wanted)} computer seats do not fit a table of {seats} (seat 1 is yours)")
    computers = {seats - 1 - i: level for i, level in enumerate(wanted)}
    kinds = ("host",) + tuple("computer" if s in computers else "person" for s in range(1, seats))
    options = part.host_options(args) if part.host_options is not None else {}
    return kinds, computers, dict(options or {})


def join_error_text(error: BaseException, address: str) -> str:
    """Why joining the host at ``address`` (``"host:port"``) cannot start, as a whole sentence in
    the current language, for every game's join screen: ``error`` is what
    :func:`net.session.probe_host` (reading the host's hello: the host's bytes decide it) or a
    session's join raised: OSError, or :class:`net.session.JoinError` worded by its ``code``
    (never by its English text); any other error reads as "does not speak the protocol"."""
    if isinstance(error, OSError):
        return _("No connection to {address} could be opened.").format(address=address)
    code = getattr(error, "code", "")
    if code == "version":
        return _("{address} runs another version of the program: both players need the same one.").format(
            address=address)
    if code == "no-hello":
        return _("{address} closed the connection without saying which game it hosts.").format(address=address)
    if code == "not-host":
        return _("{address} is a player's program, not a host.").format(address=address)
    if code == "name":
        return _("Your name cannot be used: choose one of 1 to {count} printable characters.").format(
            count=MAX_NAME_LENGTH)
    if code == "journal":
        return _("The saved seat of your earlier game there cannot be read.")
    return _("{address} does not speak this program's network protocol.").format(address=address)
