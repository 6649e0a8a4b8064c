"""``rose-king host --game royals-riots`` and ``rose-king join`` of a Royals & Riots host (issue 13).

``rose-king host --game royals-riots --seats N [--computer LEVEL ...] [--teams] [--headless --ai LEVEL]
[--record FILE]`` opens a table of N seats (seat 1 is ours; each ``--computer LEVEL`` makes the
highest free seat a computer run here), waits until every other seat is taken by a joiner,
starts the match (headless: at once) and plays it to the end. ``rose-king join HOST[:PORT]``
finds the game from the host's hello (:func:`net.royals_session.detect_game`). A joiner's
``--record FILE`` keeps its private journal in ``FILE.journal``: restarted with the same
``--record``, it takes its seat back. Exit status 0 when the match was played to its end,
1 when it could not be, 2 for bad options, 128 + the signal's number (143, 130) when SIGTERM
or SIGINT stopped a headless peer: it leaves as a windowed player who closes the table does
(a host's joiners are told that the host left, ``error{left}`` or, before the start,
``error{bye}``; a joiner's seat waits for it as for a dropped one), its record (the rounds
every seat checked) written.
"""

from __future__ import annotations

import argparse
import sys

from .lanrun import start_peer


def computer_seats(seats: int, levels: list[str]) -> dict[int, str]:
    """``--computer`` levels -> {seat: level}: the highest seats first (seat ``seats``, then
    ``seats - 1`` ...), so joiners take seats 2, 3 ... Raises ValueError if they do not fit."""
    if len(levels) > seats - 1:
        raise ValueError(f"{len(levels)} computer seats do not fit a table of {seats} (seat 1 is yours)")
    return {seats - i: level for i, level in enumerate(levels)}


def run_royals_peer(args: argparse.Namespace, role: str) -> int:
    """Run one Royals & Riots LAN peer from parsed options; returns the exit status."""
    from game.royals.ai.levels import LEVEL_NAMES, make_player
    from game.royals.engine import now_iso
    from net.headless import HeadlessError, Stopped, play_royals_headless
    from net.royals_session import RoyalsSession
    prog = f"rose-king {role}"
    if args.headless != bool(args.ai):
        print(f"{prog}: --headless and --ai LEVEL go together", file=sys.stderr)
        return 2
    if args.ai and args.ai not in LEVEL_NAMES:
        print(f"{prog}: --ai {args.ai}: Royals & Riots levels are {', '.join(LEVEL_NAMES)}", file=sys.stderr)
        return 2
    for level in getattr(args, "computer", None) or []:
        if level not in LEVEL_NAMES:
            print(f"{prog}: --computer {level}: Royals & Riots levels are {', '.join(LEVEL_NAMES)}",
                  file=sys.stderr)
            return 2
    name, status = start_peer(args, role, "royals-riots")
    if status is not None:
        return status
    try:
        if role == "host":
            seats = args.seats or 4
            computers = computer_seats(seats, args.computer or [])
            session = RoyalsSession.host(name, seats=seats, computers=computers, port=args.port, bind=args.bind,
                                         record=args.record, teams=args.teams, date=now_iso())
        else:
            session = RoyalsSession.join(name, args.address, args.port, record=args.record,
                                         connected=getattr(args, "connected", None))
    except (OSError, ValueError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2 if isinstance(e, ValueError) and role == "host" else 1
    beacon = None
    if role == "host":
        print(f"{prog}: listening on port {session.port}", flush=True)
        print(f"{prog}: note: the host's program deals and so learns every hand; it never shows them to "
              f"the host's player", flush=True)
        if args.beacon_address or args.beacon:
            from net.discovery import Beacon
            try:
                beacon = Beacon(name, session.port, address=args.beacon_address, game="royals-riots")
            except (OSError, ValueError) as e:
                print(f"{prog}: no discovery beacon: {e}", file=sys.stderr)

    def show(e) -> None:
        from net.royals_session import Acted, Failed, LobbyChanged, RoundChecked, StatusChanged
        from net.transport import Refused, WriteFailed
        if isinstance(e, StatusChanged):
            print(f"{prog}: {e.reason}", flush=True)
        elif isinstance(e, LobbyChanged):
            seats = ", ".join(f"{i.seat}: open" if i.kind == "open" else
                              f"{i.seat}: {i.name} ({i.kind}{'' if i.connected else ', away'})" for i in e.seats)
            print(f"{prog}: seats {seats}", flush=True)
        elif isinstance(e, RoundChecked):
            print(f"{prog}: round {e.round} checked", flush=True)
        elif isinstance(e, Failed):
            print(f"{prog}: match stopped: {e.reason}", flush=True)
        elif isinstance(e, Refused):
            print(f"{prog}: {e.reason}", flush=True)
        elif isinstance(e, WriteFailed):
            print(f"{prog}: cannot write {e.path}: {e.reason} (the match goes on; it could not be resumed "
                  f"after a restart)", file=sys.stderr, flush=True)
        elif isinstance(e, Acted) and args.verbose:
            print(f"{prog}: ply {e.ply}: {e.text}", flush=True)

    stop = getattr(args, "stop", None)  # SIGTERM/SIGINT (game.commands.lanrun.SignalStop)
    try:
        play_royals_headless(session, make_player(args.ai, getattr(args, "seed", None)), timeout=args.timeout,
                             delay=args.move_delay, on_event=show, stop=stop)
    except Stopped as e:
        session.close()  # the goodbye: error{left} (or bye) to every joiner, the record written
        for ev in session.poll():
            show(ev)
        print(f"{prog}: {stop.name if stop is not None else 'stop'}: left the match ({e})", flush=True)
        if args.record and session.record is not None:
            print(f"{prog}: record written to {args.record}", flush=True)
        return stop.exit_status if stop is not None and stop() else 1
    except HeadlessError as e:
        print(f"{prog}: {e}", file=sys.stderr, flush=True)
        return 1
    finally:
        if beacon is not None:
            beacon.stop()
        session.close()
    rec = session.record
    if rec is not None:
        from game.royals.engine import status_line
        state = rec.replay()
        print(f"{prog}: match over: {status_line(state)} seat={session.my_seat}", flush=True)
        if args.record:
            print(f"{prog}: record written to {args.record}", flush=True)
    return 0
