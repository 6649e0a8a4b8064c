"""``rose-king host`` (and the shared code of ``rose-king join``): play over the LAN.

``rose-king host [--game KEY] [--seats N] [--computer LEVEL ...] [--port P] [--bind A] [--name N]
[--headless --ai LEVEL] [--record FILE] [--beacon-address A]`` plus the game's own lobby options
(its plugin's ``add_host_arguments``, e.g. a colour or teams) waits for players at a table
of a game on the one LAN layer (see :mod:`game.commands.layer`); ``--headless --ai LEVEL`` plays as the computer
without a window and writes the record (``--record FILE``) after every move and at the
end. A ``--record FILE`` that holds an unfinished LAN game is resumed. Exit status 0 when
the game was played to its end, 1 when it could not be, 2 for bad options, 128 + the signal's
number (143 for SIGTERM, 130 for SIGINT) when a signal stopped a headless peer: it leaves as
the window does when its player closes it (the peer is sent ``error{bye}``, docs/protocol.md,
and stops reconnecting if it is a joiner), and its record, with the game so far, is written.
"""

from __future__ import annotations

import argparse
import sys

from net import DEFAULT_PORT

from game.lan import player_name
from game.settings import MAX_NAME_LENGTH

from .lanrun import run_stoppable


def game_keys() -> list[str]:
    """``--game``'s choices: every game of the registry."""
    from game.registry import GAMES
    return [g.key for g in GAMES]


def add_common(p: argparse.ArgumentParser) -> None:
    from game.registry import GAMES
    p.add_argument("--name", type=player_name,
                   help=f"your player name, at most {MAX_NAME_LENGTH} characters (default: your login name)")
    p.add_argument("--headless", action="store_true", help="play without a window (needs --ai)")
    p.add_argument("--ai", metavar="LEVEL", choices=sorted({level for g in GAMES for level in g.levels}),
                   help="the computer plays this side: " + "; ".join(f"{g.title} {', '.join(g.levels)}"
                                                                     for g in GAMES))
    p.add_argument("--record", metavar="FILE", help="write the game record here (and resume an unfinished one)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS",
                   help="headless: give up if the game has not ended after this long (default 600)")
    p.add_argument("--log-dir", metavar="DIR", help="where a desync report is written (default: current folder)")
    p.add_argument("--move-delay", type=float, default=0.0, metavar="SECONDS",
                   help="headless: pause this long before each computer move (to watch it)")
    p.add_argument("-v", "--verbose", action="store_true", help="headless: print every move")
    p.add_argument("--loopback", action="store_true",
                   help="stay on this machine: listen on 127.0.0.1 and send discovery beacons only there")
    g = p.add_argument_group("over the internet (a code per friend; docs/protocol.md, \"Over the internet\")")
    g.add_argument("--mailbox", metavar="URL",
                   help="the rendezvous server where peers meet by code (default: $ROSE_KING_MAILBOX, else "
                        "magic-wormhole's public one)")
    g.add_argument("--relay", metavar="tcp:HOST:PORT",
                   help="the transit relay for friends who cannot connect directly (default: $ROSE_KING_RELAY, "
                        "else magic-wormhole's public one)")
    g.add_argument("--relay-only", action="store_true",
                   help="offer no direct connection: always through the relay")


def run_peer(args: argparse.Namespace, role: str) -> int:
    """Run one LAN peer from parsed options. Returns the exit status."""
    from game.registry import GAMES, game_by_key
    try:
        game = game_by_key(getattr(args, "game", None) or GAMES[0].key)
    except KeyError as e:  # (argparse's choices keep it out; a caller that sets args.game may not)
        print(f"rose-king {role}: {e.args[0]}", file=sys.stderr)
        return 2
    if game.lan is not None:  # a game on the one LAN layer
        from .layer import run_layer_peer
        return run_layer_peer(args, role, game)
    print(f"rose-king {role}: {game.title} has no LAN play", file=sys.stderr)
    return 2


#: The exit statuses of ``rose-king host/join`` (their ``--help`` ends with it).
EXIT_STATUS = ("exit status: 0 the game was played to its end; 1 it could not be (the reason is printed); "
               "2 bad options; 143 / 130 (128 + the signal) a headless peer was stopped by SIGTERM / SIGINT: "
               "it told the other players that it left, as a closed window does, and wrote its record first.")


def run(args: argparse.Namespace) -> int:
    return run_stoppable(lambda a: run_peer(a, "host"), args)  # SIGTERM/SIGINT: leave with a goodbye


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("host", help="host a LAN game and wait for players",
                       description="Host a game on the LAN (--game KEY: " + ", ".join(game_keys()) + ") and wait "
                                   "for players to join.",
                       epilog=EXIT_STATUS)
    from game.registry import GAMES
    p.add_argument("--game", choices=game_keys(), default=GAMES[0].key,
                   help=f"the game to host (default {GAMES[0].key})")
    p.add_argument("--seats", type=int, choices=(2, 3, 4), metavar="N",
                   help="seats at the table, yours included (default: the fewest the game takes)")
    p.add_argument("--computer", action="append", metavar="LEVEL",
                   help="a computer run here takes the highest free seat (repeat for more); it adds no "
                        "protection: this program knows its cards")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port to listen on (default {DEFAULT_PORT})")
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDRESS",
                   help="local address to listen on (default: all; 127.0.0.1 for this machine only)")
    p.add_argument("--internet", action="store_true",
                   help="also invite over the internet: print one code per free seat, to give one friend each "
                        "(they run: rose-king join CODE); end-to-end encrypted, no account, no server of ours")
    p.add_argument("--beacon", action="store_true",
                   help="headless: send a discovery beacon every 1.5 s to the LAN's broadcast addresses "
                        "(127.0.0.1 with --loopback); the windowed host always does")
    p.add_argument("--beacon-address", metavar="ADDRESS",
                   help="send the discovery beacon to this one address instead")
    add_common(p)
    for game in GAMES:  # a game's own lobby options, each in its own group of --help
        game.add_host_arguments(p.add_argument_group(f"{game.title} (--game {game.key})"))
    p.set_defaults(run=run)
