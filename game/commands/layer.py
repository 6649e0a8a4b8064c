"""``rose-king host/join`` for a game whose registry entry carries a LAN part on the one LAN
layer (``GAME.lan``, a :class:`net.match.LanPart`; docs/protocol.md, "The LAN layer"): the same
command lines, with no line here naming a game.

A headless peer plays with the part's computer player (``--ai LEVEL``) until the match has a
verdict, printing the session's events as codes; ``--record FILE`` keeps the record and, beside
it, the journal a restarted peer resumes from. Exit status 0 when the match came to a verdict
that ends it for everyone as the rules or a player's choice say (``finished``, ``resigned``,
``forfeit``), 1 when it stopped on a fault (``illegal``, ``coin``, ``desync``, ``left``) or could
not be played, 2 for bad options, 128 + the signal when SIGTERM/SIGINT stopped it.

A host's table: ``--seats N`` (one of the part's ``seats``; default the most it takes), each
``--computer LEVEL`` a seat the host's program plays (the highest free seats first, so joiners
take seats 1, 2 ...; a computer seat adds no protection: its secrets are the host's), the
part's ``host_options(args)`` (the game's lobby options, e.g. ``--teams``), and with
``--beacon``/``--beacon-address`` a discovery beacon naming the game's key. A host restarted
with a ``--record`` whose journal holds the match resumes it: the seats and which of them are
computers come from the journal (``--computer`` then gives their levels, one per computer seat).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from game.lan import now_iso

from .lanrun import start_peer

#: Verdicts after which a headless peer's match counts as played to its end (exit status 0).
PLAYED = ("finished", "resigned", "forfeit")


def computer_name(level: str) -> str:
    """The lobby name of a computer seat at ``level`` (``Computer (easy)``), as players see it."""
    return f"Computer ({level})"[:24]


def host_table(args: argparse.Namespace, game: Any) -> tuple[tuple[str, ...], dict[int, str], dict | None]:
    """A host's seats from its options: (``kinds``, computer seat -> level, the lobby options).

    ``--seats N`` (default the most the game takes), ``--computer LEVEL`` (repeatable: the
    highest free seats, so joiners take seats 1, 2 ...), the part's ``host_options(args)``.
    With a ``--record`` whose journal holds a match, the seats and the computer seats come from
    it and ``--computer`` gives the computer seats' levels in seat order (the last level repeats;
    ``random`` without any). Raises ValueError (the reason) for options that do not fit."""
    from net.journal import seat_path
    from net.session import load_journal
    part = game.lan
    levels = list(getattr(args, "computer", None) or [])
    for level in levels:
        if level not in game.levels or part.player is None:
            raise ValueError(f"--computer {level}: {game.title} levels are {', '.join(game.levels) or 'none'}")
    loaded = load_journal(seat_path(args.record), part.key) if args.record else None
    if loaded is not None:  # a match to resume: its table decides
        table = loaded[0].table
        comp = sorted(table.computers)
        if comp and part.player is None:
            raise ValueError("the journal's match has computer seats this program cannot play")
        picks = levels or ["random"]
        computers = {s: picks[min(i, len(picks) - 1)] for i, s in enumerate(comp)}
        kinds = tuple("host" if s == 0 else "computer" if s in computers else "person" for s in range(table.seats))
        return kinds, computers, dict(table.options)
    seats = getattr(args, "seats", None) or max(part.seats)
    if seats not in part.seats:
        raise ValueError(f"{game.title} takes {', '.join(map(str, part.seats))} seats, not {seats}")
    if len(levels) > seats - 1:
        raise ValueError(f"{len(levels)} computer seats do not fit a table of {seats} seats (one is yours)")
    computers = {seats - 1 - i: level for i, level in enumerate(levels)}
    kinds = ("host",) + tuple("computer" if s in computers else "person" for s in range(1, seats))
    options = part.host_options(args) if part.host_options is not None else None
    return kinds, computers, options


def run_layer_peer(args: argparse.Namespace, role: str, game: Any) -> int:
    """Run one peer of ``game`` (its ``lan`` part) from parsed options. Returns the exit status."""
    from net.headless import HeadlessError, Stopped, play_match
    from net.session import Dropped, Ended, Noticed, Refused, Session, Started, Status, WriteFailed
    part = game.lan
    prog = f"rose-king {role}"
    if not args.headless:
        return start_peer(args, role)[1] or 0  # the window
    if not args.ai or args.ai not in game.levels or part.player is None:
        print(f"{prog}: --headless needs --ai LEVEL, one of {', '.join(game.levels)}", file=sys.stderr)
        return 2
    name, status = start_peer(args, role)
    if status is not None:
        return status
    computers: dict[int, str] = {}
    if role == "host":
        try:
            kinds, computers, options = host_table(args, game)
        except ValueError as e:
            print(f"{prog}: {e}", file=sys.stderr)
            return 2
    try:
        if role == "host":
            session = Session(part, "host", name, address=args.bind, port=args.port, record=args.record,
                              date=now_iso(), kinds=kinds, options=options, computers=computers,
                              computer_names={s: computer_name(level) for s, level in computers.items()})
        else:
            session = Session(part, "join", name, address=args.address, port=args.port, record=args.record,
                              date=now_iso(), connected=getattr(args, "connected", None))
    except (OSError, ValueError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1

    def show(e: object) -> None:
        if isinstance(e, Status):
            print(f"{prog}: {e.code}", flush=True)
        elif isinstance(e, Started):
            print(f"{prog}: {'resumed' if e.resumed else 'new match'}: {', '.join(e.table.names)}; "
                  f"you are seat {e.seat}", flush=True)
        elif isinstance(e, Dropped):
            print(f"{prog}: connection closed ({e.code}): {e.reason}", flush=True)
        elif isinstance(e, Refused):
            print(f"{prog}: refused a connection ({e.code}): {e.reason}", flush=True)
        elif isinstance(e, WriteFailed):
            print(f"{prog}: cannot write {e.path}: {e.reason}", file=sys.stderr, flush=True)
        elif isinstance(e, Noticed) and (args.verbose or e.code == "code"):
            print(f"{prog}: {e.code} {dict(e.data)}", flush=True)
        elif isinstance(e, Ended):
            v = e.verdict
            print(f"{prog}: match over: {v.kind}, seat at fault {v.seat}, winners {list(v.winners)}", flush=True)

    beacon = None
    if role == "host":
        print(f"{prog}: listening on port {session.port}", flush=True)
        if args.beacon_address or args.beacon:
            from net.discovery import Beacon
            try:
                beacon = Beacon(name, session.port, address=args.beacon_address, game=part.key)
            except (OSError, ValueError) as e:
                print(f"{prog}: no discovery beacon: {e}", file=sys.stderr)
    stop = getattr(args, "stop", None)
    try:
        verdict = play_match(session, part.player(args.ai, 1 if role == "host" else 2), timeout=args.timeout,
                             delay=args.move_delay, on_event=show, stop=stop)
    except Stopped:
        session.close()
        print(f"{prog}: {stop.name if stop is not None else 'stop'}: left the match", flush=True)
        if args.record and os.path.exists(args.record):
            print(f"{prog}: record written to {args.record}", flush=True)
        return stop.exit_status if stop is not None and stop() else 1
    except HeadlessError as e:
        session.close()
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    finally:
        if beacon is not None:
            beacon.stop()
    session.close()
    for e in session.poll():
        show(e)
    if args.record:
        print(f"{prog}: record written to {args.record}", flush=True)
    return 0 if verdict.kind in PLAYED else 1
