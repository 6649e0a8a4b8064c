"""The start of a LAN peer, the same for both games' ``rose-king host`` / ``join``.

:func:`start_peer` takes the player's name, honours ``--loopback``, hands a windowed peer to
the window (:func:`game.client.main.run_lan`) and checks a headless peer's ``--record`` path;
each game's runner (:func:`game.commands.host.run_peer`,
:func:`game.commands.layer.run_layer_peer`) then opens its own session.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any, Callable

from game.lan import check_record_path, default_name


class SignalStop:
    """SIGTERM and SIGINT turned into a request to stop, for a headless LAN peer: while the
    ``with`` block runs, either signal sets :attr:`signum` (and :meth:`__call__` becomes
    true) instead of killing the process, so the peer's play loop
    (:func:`net.headless.play_match`, ``stop=``)
    ends and the session is closed with the protocol's goodbye (``error{bye}``, docs/protocol.md;
    the others judge it by who owes what) and the record written.
    The handlers in place before are put back on leaving the block. Outside the main thread
    (where Python allows no handlers) it installs nothing and never asks to stop.

    The window does the same for itself (:meth:`game.client.app.App.install_signal_handlers`).
    """

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        #: The first signal received (``signal.SIGTERM`` or ``signal.SIGINT``), None before one came.
        self.signum: int | None = None
        self._old: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}  # signal -> handler

    def __call__(self) -> bool:
        """True once a signal asked the peer to stop."""
        return self.signum is not None

    @property
    def exit_status(self) -> int:
        """The exit status of a peer stopped this way: 128 + the signal's number, the shell's
        convention (143 for SIGTERM, 130 for SIGINT). Raises ValueError before a signal came."""
        if self.signum is None:
            raise ValueError("no signal came")
        return 128 + int(self.signum)

    @property
    def name(self) -> str:
        """``"SIGTERM"`` / ``"SIGINT"`` (``""`` before a signal came)."""
        return "" if self.signum is None else signal.Signals(self.signum).name

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is None:
            self.signum = signum

    def __enter__(self) -> "SignalStop":
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()


def run_stoppable(run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """``run(args)``; for a headless peer inside :class:`SignalStop`, kept as ``args.stop``, so
    SIGTERM/SIGINT make it leave with a goodbye (exit 128 + the signal). The window handles the
    signals itself."""
    if not args.headless:
        return run(args)
    with SignalStop() as args.stop:
        return run(args)


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
            hook = getattr(window, "run_lan", None)
        except ImportError:
            hook = None
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
