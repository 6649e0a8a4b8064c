"""``rose-king join HOST[:PORT] [--name N] [--headless --ai LEVEL] [--record FILE]``.

Connects to a host (and reconnects if the connection drops); the game comes from the host's
hello (:func:`net.session.probe_host`, whose connection is handed on, so the host sees one
connection); ``--game`` names it instead, and a ``--record`` whose journal (of the one LAN
layer, naming its game) holds an unfinished match resumes that. A headless joiner started
before its host answers waits for the host (up to ``--timeout``) to learn the game from its
hello; the window's join screen does the same by itself. The rest is shared with
``rose-king host`` (see :mod:`game.commands.host`).
"""

from __future__ import annotations

import argparse
import sys
import time

from net import DEFAULT_PORT

from game.lan import parse_address

from .host import EXIT_STATUS, add_common, game_keys, run_peer
from .lanrun import run_stoppable


def _journal_game(record: str | None) -> str | None:
    """The game of ``record``'s private journal when it says (a journal of the one LAN layer
    names its game), else None."""
    if not record:
        return None
    from net.session import JOURNAL_FORMAT as LAYER_FORMAT
    from net.journal import seat_path
    try:
        head = seat_path(record).read_bytes()[:1 << 20]
    except OSError:
        return None
    if LAYER_FORMAT.encode() in head[:200]:
        import json
        try:
            key = json.loads(head).get("g")
        except (ValueError, AttributeError):
            return None
        return key if key in game_keys() else None
    return None


#: Seconds between two tries of a headless joiner whose host does not answer yet.
PROBE_RETRY = 0.5


def _learn_game(args: argparse.Namespace, clock=time.monotonic, sleep=time.sleep) -> int | None:
    """Set ``args.game`` (and ``args.connected``) from the host's hello (:func:`probe_host`).
    Nobody answering yet: the window's join screen keeps trying and learns the game itself
    (the first game of the registry is its start); a headless joiner tries again every :data:`PROBE_RETRY`
    seconds until ``--timeout``, as its session would, rather than guess a game. Returns an
    exit status when it must stop (1: not this program's host there, a host of a game this program
    does not know, or nobody answered; 128 + the
    signal's number: SIGTERM/SIGINT came meanwhile)."""
    from net.session import probe_host
    deadline = clock() + args.timeout
    told = False
    while True:
        try:
            game, sock, data = probe_host(args.address, args.port)
            if game not in game_keys():  # a hello may name any key: said, never a traceback
                sock.close()
                print(f"rose-king join: unknown game: the host at {args.address}:{args.port} plays {game[:32]!r}, "
                      f"which this program does not know (it plays {', '.join(game_keys())})", file=sys.stderr)
                return 1
            args.game, args.connected = game, (sock, data)
            return None
        except OSError as e:
            if not args.headless:
                from game.registry import GAMES
                args.game = GAMES[0].key  # the window's waiting screen keeps knocking there
                return None
            if clock() >= deadline:
                print(f"rose-king join: nobody answered at {args.address}:{args.port} within {args.timeout:g} "
                      f"seconds ({e})", file=sys.stderr)
                return 1
            stop = getattr(args, "stop", None)
            if stop is not None and stop():
                print(f"rose-king join: {stop.name}: stopped while waiting for {args.address}:{args.port}",
                      flush=True)
                return stop.exit_status
            if not told:
                told = True
                print(f"rose-king join: nobody answers at {args.address}:{args.port} yet; trying again…", flush=True)
            sleep(min(PROBE_RETRY, max(0.0, deadline - clock())))
        except ValueError as e:
            print(f"rose-king join: {e}", file=sys.stderr)
            return 1


def run(args: argparse.Namespace) -> int:
    """Exit status as ``rose-king host``'s (:mod:`game.commands.host`): a headless joiner
    stopped by SIGTERM/SIGINT says goodbye and exits with 128 + the signal's number."""
    return run_stoppable(_run, args)


def _run(args: argparse.Namespace) -> int:
    args.address, args.port = args.target
    args.connected = None
    if args.game is None:
        args.game = _journal_game(args.record)
    if args.game is None:
        status = _learn_game(args)
        if status is not None:
            return status
    return run_peer(args, "join")


def register(sub) -> None:
    p = sub.add_parser("join", help="join a LAN game",
                       description="Join a game hosted on the LAN (the game is the host's).", epilog=EXIT_STATUS)
    p.add_argument("target", type=parse_address, metavar="HOST[:PORT]",
                   help=f"the host's address, optionally with its port (default {DEFAULT_PORT})")
    p.add_argument("--game", choices=game_keys(), default=None,
                   help="the host's game (default: learnt from the host)")
    add_common(p)
    p.set_defaults(run=run)
