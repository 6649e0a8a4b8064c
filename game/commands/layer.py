"""``rose-king host/join`` for a game whose registry entry carries a LAN part on the one LAN
layer (``GAME.lan``, a :class:`net.match.LanPart`; docs/protocol.md, "The LAN layer"): the same
command lines, with no line here naming a game.

A headless peer plays with the part's computer player (``--ai LEVEL``) until the match has a
verdict, printing the session's events as codes; ``--record FILE`` keeps the record and, beside
it, the journal a restarted peer resumes from. Exit status 0 when the match came to a verdict
that ends it for everyone as the rules or a player's choice say (``finished``, ``resigned``,
``forfeit``), 1 when it stopped on a fault (``illegal``, ``coin``, ``desync``, ``left``) or could
not be played, 2 for bad options, 128 + the signal when SIGTERM/SIGINT stopped it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from game.lan import computer_name, now_iso, table_choice

from .lanrun import start_peer

if TYPE_CHECKING:
    from net.match import Verdict

#: Verdicts after which a headless peer's match counts as played to its end (exit status 0).
PLAYED = ("finished", "resigned", "forfeit")

#: What the match code (:func:`net.signed.match_code`) is for, printed beside it.
CODE_HELP = ("every player sees the same code; compare it aloud or in a chat: "
             "a different code means a machine in the middle")


def seat_text(seat: int, names: list[str] | tuple[str, ...]) -> str:
    """``seat`` (the layer's, 0-based: 0 the host) as players count seats, from 1, with its
    name when known: ``seat_text(1, ["Ann", "Bo"]) == "seat 2 (Bo)"``; -1 is ``"nobody"``."""
    if seat < 0:
        return "nobody"
    return f"seat {seat + 1} ({names[seat]})" if seat < len(names) else f"seat {seat + 1}"


def verdict_text(v: "Verdict", names: list[str] | tuple[str, ...]) -> str:
    """A :class:`net.match.Verdict` in one line for a person: its kind, the seat at fault (or
    the two seats of a ``disputed``) and the winners, seats counted from 1 with their names;
    e.g. ``"forfeit by seat 2 (Bo); winner: seat 1 (Ann)"``."""
    text = v.kind
    if v.between:
        text += " between " + " and ".join(seat_text(s, names) for s in v.between)
    elif v.seat >= 0:
        text += " by " + seat_text(v.seat, names)
    if v.winners:
        text += ("; winner: " if len(v.winners) == 1 else "; winners: ") + \
            ", ".join(seat_text(s, names) for s in v.winners)
    return text


def run_layer_peer(args: argparse.Namespace, role: str, game: Any) -> int:
    """Run one peer of ``game`` (its ``lan`` part) from parsed options. Returns the exit status."""
    from net.session import Dropped, Ended, Noticed, Refused, Session, Started, Status, WriteFailed
    part = game.lan
    prog = f"rose-king {role}"
    if args.headless != bool(args.ai):
        print(f"{prog}: --headless and --ai LEVEL go together", file=sys.stderr)
        return 2
    if args.headless and (args.ai not in game.levels or part.player is None):
        print(f"{prog}: --ai {args.ai}: {game.title} levels are {', '.join(game.levels)}", file=sys.stderr)
        return 2
    if role == "host":
        try:
            kinds, computers, options = table_choice(part, args, game.levels)
        except ValueError as e:
            print(f"{prog}: {game.title}: {e}", file=sys.stderr)
            return 2
    name, status = start_peer(args, role, game.key)  # without --headless: the window runs it
    if status is not None:
        return status
    try:
        if role == "host":
            session = Session(part, "host", name, address=args.bind, port=args.port, record=args.record,
                              date=now_iso(), kinds=kinds, options=options, computers=computers,
                              computer_names={s: computer_name(level) for s, level in computers.items()})
        else:
            session = Session(part, "join", name, address=args.address, port=args.port, record=args.record,
                              date=now_iso(), connected=getattr(args, "connected", None),
                              dial=getattr(args, "dial", None))
    except (OSError, ValueError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1

    names: list[str] = []  # every seat's name, once the match has begun

    def show(e: object) -> None:
        if isinstance(e, Status):
            print(f"{prog}: {e.code}", flush=True)
        elif isinstance(e, Started):
            names[:] = e.table.names
            print(f"{prog}: {'resumed' if e.resumed else 'new match'}: {', '.join(e.table.names)}; "
                  f"you are {seat_text(e.seat, names)}", flush=True)
        elif isinstance(e, Dropped):
            print(f"{prog}: connection closed ({e.code}): {e.reason}", flush=True)
        elif isinstance(e, Refused):
            print(f"{prog}: refused a connection ({e.code}): {e.reason}", flush=True)
        elif isinstance(e, WriteFailed):
            print(f"{prog}: cannot write {e.path}: {e.reason}", file=sys.stderr, flush=True)
        elif isinstance(e, Noticed) and e.code == "code":  # the match code, always
            print(f"{prog}: match code {e.data.get('code', '?')}: {CODE_HELP}", flush=True)
        elif isinstance(e, Noticed) and args.verbose:
            print(f"{prog}: {e.code} {dict(e.data)}", flush=True)
        elif isinstance(e, Ended):
            print(f"{prog}: match over: {verdict_text(e.verdict, names)}", flush=True)

    beacon = invites = None
    if role == "host":
        print(f"{prog}: listening on port {session.port}", flush=True)
        if getattr(args, "internet", False):
            invites = _invite(prog, session, args, kinds)
            if invites is None:
                session.close()
                return 1
        if getattr(args, "beacon_address", None) or getattr(args, "beacon", False):
            from net.discovery import Beacon
            try:
                beacon = Beacon(name, session.port, address=args.beacon_address, game=game.key)
            except (OSError, ValueError) as e:
                print(f"{prog}: no discovery beacon: {e}", file=sys.stderr)
    try:
        return _play(prog, session, args, game, role, show)
    finally:
        if beacon is not None:
            beacon.stop()
        if invites is not None:
            invites.close()


#: Seconds a host waits for its invitation codes before it says the rendezvous is unreachable.
CODE_WAIT = 15.0


def _invite(prog: str, session: Any, args: argparse.Namespace, kinds: tuple[str, ...]) -> Any:
    """``--internet``: one invitation per free person seat (none when resuming: the friends come
    back at the codes kept beside the record), the codes printed; route changes printed as
    they come (a daemon thread). Returns the :class:`net.internet.Invites`, or None (said why)."""
    import threading

    from net.internet import SENTENCES, Invites, Servers, state_path
    try:
        servers = Servers.resolve(args.mailbox, args.relay, direct=not args.relay_only)
    except ValueError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return None
    invites = Invites(session.adopt, servers, state=state_path(args.record))
    free = 0 if session.machine is not None else sum(k == "person" for k in kinds)
    for _ in range(free):
        invites.invite()
    codes: dict[int, str] = {}
    import time
    end = time.monotonic() + CODE_WAIT
    while len(codes) < free and time.monotonic() < end:
        for ev in invites.wait(0.2):
            if ev.what == "code":
                codes[ev.slot] = ev.detail
            elif ev.what == "failed":
                print(f"{prog}: an invitation failed: {SENTENCES.get(ev.detail, ev.detail)}", file=sys.stderr)
    if len(codes) < free:
        invites.close()
        print(f"{prog}: cannot reach the rendezvous server {servers.mailbox}: no invitation code came within "
              f"{CODE_WAIT:g} seconds (no internet, or the server is down)", file=sys.stderr)
        return None
    if free:
        print(f"{prog}: over the internet: give each code below to one friend (one code, one seat, used once); "
              "they run: rose-king join CODE", flush=True)
        for i, slot in enumerate(sorted(codes)):
            print(f"{prog}: invitation {i + 1} of {free}: {codes[slot]}", flush=True)
    elif invites.slots:
        print(f"{prog}: over the internet: waiting for the friends to come back at their rejoin codes", flush=True)

    def report() -> None:
        said: dict[int, str] = {}
        while not getattr(invites, "_closed", False):
            for e in invites.wait(0.5):
                if e.what == "route" and e.detail in ("direct", "relayed") and said.get(e.slot) != e.detail:
                    said[e.slot] = e.detail
                    print(f"{prog}: invitation {e.slot + 1}: connected {e.detail}", flush=True)
                elif e.what == "code" and e.slot in codes and e.detail != codes[e.slot]:
                    codes[e.slot] = e.detail
                    print(f"{prog}: invitation {e.slot + 1}: replaced by a new code (give this one instead): "
                          f"{e.detail}", flush=True)
                elif e.what == "failed":
                    print(f"{prog}: invitation {e.slot + 1}: {SENTENCES.get(e.detail, e.detail)}", flush=True)
    threading.Thread(target=report, name="invites", daemon=True).start()
    return invites


def _play(prog: str, session: Any, args: argparse.Namespace, game: Any, role: str, show: Any) -> int:
    from net.headless import HeadlessError, Stopped, play_match
    part = game.lan
    stop = getattr(args, "stop", None)
    try:
        verdict = play_match(session, part.player(args.ai, 1 if role == "host" else 2), timeout=args.timeout,
                             delay=args.move_delay, on_event=show, stop=stop)
    except Stopped:
        session.close()  # the goodbye (bye), and the record so far written
        print(f"{prog}: {stop.name if stop is not None else 'stop'}: left the match", flush=True)
        if args.record and not session.write_errors:
            print(f"{prog}: record written to {args.record}", flush=True)
        return stop.exit_status if stop is not None and stop() else 1
    except HeadlessError as e:
        session.close()
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    session.close()
    for left in session.poll():
        show(left)
    if args.record and not os.path.exists(args.record):  # (no match began: nothing to record)
        print(f"{prog}: no record written: no match began", flush=True)
    elif args.record:
        print(f"{prog}: record written to {args.record}", flush=True)
        try:  # the game's own check of the record, as ``rose-king check`` words it
            from game.records import parse_json, read_bytes
            print(f"{prog}: record: {game.check(parse_json(read_bytes(args.record, 1 << 24)))}", flush=True)
        except Exception as e:  # a record the game refuses: said, and the verdict decides the status
            print(f"{prog}: record: {e}", flush=True)
    return 0 if verdict.kind in PLAYED else 1
