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
from typing import Callable

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


def _learn_game(args: argparse.Namespace, clock: Callable[[], float] = time.monotonic,
                sleep: Callable[[float], None] = time.sleep) -> int | None:
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
                return int(stop.exit_status)
            if not told:
                told = True
                print(f"rose-king join: nobody answers at {args.address}:{args.port} yet; trying again…", flush=True)
            sleep(min(PROBE_RETRY, max(0.0, deadline - clock())))
        except ValueError as e:
            print(f"rose-king join: {e}", file=sys.stderr)
            return 1


def join_target(text: str) -> tuple[str, object]:
    """``CODE`` (shaped ``N-word-word``: ``("code", code)``) or ``HOST[:PORT]`` (``("lan",
    (host, port))``). Raises argparse.ArgumentTypeError with a plain sentence."""
    from net.internet import InternetError, check_code
    t = text.strip()
    if t[:1].isdigit() and "-" in t and ":" not in t and "." not in t:
        try:
            return "code", check_code(t)
        except InternetError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return "lan", parse_address(t)


def _by_code(args: argparse.Namespace) -> int | None:
    """Meet the host at ``args.code`` (or, resuming, at the rejoin code kept beside the record):
    sets ``args.game``, ``args.connected``, ``args.dial``. Returns an exit status when it must
    stop (1, with the plain sentence on stderr)."""
    from net.connections import read_hello
    from net.internet import CodeDialer, InternetError, Servers, state_path
    try:
        servers = Servers.resolve(args.mailbox, args.relay, direct=not args.relay_only)
        dialer = CodeDialer(args.code, servers, state=state_path(args.record))
    except (ValueError, InternetError) as e:
        print(f"rose-king join: {e}", file=sys.stderr)
        return 1
    args.dialer, args.dial = dialer, dialer.dial
    if dialer.resuming and args.game is not None:  # the journal names the game; the session dials
        print("rose-king join: meeting the host again at the code both programs derived", flush=True)
        return None
    print("rose-king join: meeting the host by code…", flush=True)
    try:
        sock = dialer.first(None if not dialer.resuming else args.timeout)
        game, data = read_hello(sock, "the host", 10.0)
    except InternetError as e:
        dialer.close()
        print(f"rose-king join: {e}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as e:
        dialer.close()
        print(f"rose-king join: the host did not answer over the code's connection ({e})", file=sys.stderr)
        return 1
    if game not in game_keys():
        sock.close()
        dialer.close()
        print(f"rose-king join: unknown game: the host plays {game[:32]!r}, which this program does not know",
              file=sys.stderr)
        return 1
    print(f"rose-king join: connected by code ({dialer.route})", flush=True)
    args.game, args.connected = game, (sock, data)
    return None


def run(args: argparse.Namespace) -> int:
    """Exit status as ``rose-king host``'s (:mod:`game.commands.host`): a headless joiner
    stopped by SIGTERM/SIGINT says goodbye and exits with 128 + the signal's number."""
    return run_stoppable(_run, args)


def _run(args: argparse.Namespace) -> int:
    kind, target = args.target
    args.connected, args.dial, args.dialer = None, None, None
    if args.game is None:
        args.game = _journal_game(args.record)
    if kind == "code":  # met here, in the terminal; a window then opens on the connection
        args.code, args.address, args.port = target, "", 0
        status = _by_code(args)
        if status is not None:
            return status
        try:
            return run_peer(args, "join")
        finally:
            args.dialer.close()
    args.address, args.port = target
    if args.game is None:
        status = _learn_game(args)
        if status is not None:
            return status
    return run_peer(args, "join")


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("join", help="join a LAN game, or a game over the internet by code",
                       description="Join a game hosted on the LAN, or over the internet with the code the host "
                                   "gave you (the game is the host's).", epilog=EXIT_STATUS)
    p.add_argument("target", type=join_target, metavar="HOST[:PORT] | CODE",
                   help=f"the host's address, optionally with its port (default {DEFAULT_PORT}), or the code the "
                        "host gave you (a number and words: 7-guitarist-revenge)")
    p.add_argument("--game", choices=game_keys(), default=None,
                   help="the host's game (default: learnt from the host)")
    add_common(p)
    p.set_defaults(run=run)
