"""The start of a LAN peer, the same for both games' ``rose-king host`` / ``join``.

:func:`start_peer` takes the player's name, honours ``--loopback``, hands a windowed peer to
the window (:func:`game.client.main.run_lan`) and checks a headless peer's ``--record`` path;
each game's runner (:func:`game.commands.host.run_peer`,
:func:`game.commands.royals_lan.run_royals_peer`) then opens its own session.
"""

from __future__ import annotations

import argparse
import os
import sys

from game.lan import check_record_path, default_name


def start_peer(args: argparse.Namespace, role: str, game: str | None = None) -> tuple[str, int | None]:
    """``(name, None)``: go on with a headless peer called ``name``; ``(name, status)``: the
    peer is done (the window ran it, or an option is bad: status 2, with the reason on stderr).
    ``role``: ``"host"`` or ``"join"``; ``game``: the registry key the window should open
    (``args.game`` is set to it), None to keep ``args.game``."""
    prog = f"rose-king {role}"
    name = args.name or default_name("Host" if role == "host" else "Guest")
    if getattr(args, "loopback", False):
        from net.discovery import LOOPBACK_ENV
        os.environ[LOOPBACK_ENV] = "1"  # discovery (and the window's menus) stay on loopback
        if role == "host" and args.bind in (None, "0.0.0.0"):
            args.bind = "127.0.0.1"
    if not args.headless:
        try:
            from game.client import main as window  # the window's one entry point
        except ImportError:
            window = None
        hook = getattr(window, "run_lan", None)
        if hook is None:
            print(f"{prog}: the windowed LAN mode needs the game window; use --headless --ai LEVEL", file=sys.stderr)
            return name, 2
        if game is not None:
            args.game = game
        return name, int(hook(args) or 0)
    problem = check_record_path(args.record)
    if problem:
        print(f"{prog}: {problem}", file=sys.stderr)
        return name, 2
    return name, None
