"""LAN round-trip figures on loopback: prints, asserts nothing.

    python bench/net.py [--moves N] [--journal DIR] [--layer-moves N] [--royals-plays N]

- raw TCP ping-pong: 64 bytes echoed by a thread over 127.0.0.1 (the floor);
- Rose King on the one LAN layer, the window's path (``net.session.Session`` around
  ``game.roseking.lan.match``, the session the window polls): ``Session.act(move)`` until the mover's
  machine has the other seat's ``ack`` (framing, both machines validating, state hash, two
  background threads); a draw until its ``ack``, the two-sided coin included (both commitments,
  both reveals, each side deriving the card);
- the same with ``--journal DIR``: both peers write their record and private journal (atomic:
  write, fsync, rename) before each promise leaves, as ``--record FILE`` does;
- the pure cost of one Rose King move in memory (two match machines, no sockets, no threads);
- the one LAN layer with the game defined in the tests (``tests/net/nim_game.py``):
  ``Session.act(take)`` of one seat until the other seat's machine applied it, one way
  (``--layer-moves N``, 0 to skip);
- Royals & Riots, 4 peers, on the dealer-free machine (``game.royals.lan.match``
  over the one layer): ``Session.act(play)`` of one seat until every other peer of the star
  (host + 3 joiners, all people, each joiner in its own process) has applied it (its machine's
  view has the play, the card opened with its owner's key and checked): a joiner's signed play
  goes to the host, is checked there and relayed to the two other joiners; median and p95
  (``--royals-plays N``, 0 to skip).

- Rose King's move round trip again, over the internet transport (``net.internet``: a code,
  magic-wormhole's PAKE and Dilation, a socket pair bridged by the library's reactor thread) with a
  rendezvous server and transit relays of our own on 127.0.0.1 (``net.internet_servers``):
  direct, through a relay that sets ``TCP_NODELAY``, and through upstream's relay as it is
  (``--internet-moves N``, 0 to skip; needs the ``test`` extra's server packages).

Aim: Rose King median move round trip at most 0.5 ms; Royals & Riots median
4-peer play at most 2 ms. Over the internet transport: direct within 1 ms of the LAN figure,
relayed (through a relay with ``TCP_NODELAY``) with no Nagle delay (no 40 ms steps).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import threading
import time

# This file is called net.py; keep its folder off the path so ``import net`` finds the package.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]

from game.roseking.engine import DRAW  # noqa: E402


def figures(samples: list[float]) -> str:
    s = sorted(samples)
    p99 = s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))]
    return f"median {statistics.median(s) * 1e3:7.3f} ms   p99 {p99 * 1e3:7.3f} ms   (n={len(s)})"


def raw_ping_pong(n: int) -> list[float]:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def echo() -> None:
        conn, _ = server.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with conn:
            while data := conn.recv(64):
                conn.sendall(data)

    t = threading.Thread(target=echo, daemon=True)
    t.start()
    c = socket.create_connection(("127.0.0.1", port))
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    out = []
    msg = b"x" * 64
    for _ in range(n):
        t0 = time.perf_counter()
        c.sendall(msg)
        got = 0
        while got < len(msg):
            got += len(c.recv(64))
        out.append(time.perf_counter() - t0)
    c.close()
    t.join(2)
    server.close()
    return out


def wait_event(session, pred, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for e in session.wait(timeout):
            if pred(e):
                return e
    raise TimeoutError("no event")


def pure_machines(games: int) -> list[float]:
    """One Rose King move in memory: the mover's machine acts, the messages go back and forth
    between the two machines until nothing is left to deliver (no sockets, threads or clock)."""
    from game.rng import Rng
    from net.match import Send, Table
    from game.roseking.lan.match import LAN, RoseKingMatch
    out: list[float] = []
    for seed in range(games):
        table = Table(os.urandom(16), ("A", "B"), "")
        m = [RoseKingMatch(0, table, os.urandom), RoseKingMatch(1, table, os.urandom)]
        wire: list = []

        def run(seat: int, outputs: list) -> None:
            wire.extend((1 - seat, o.msg) for o in outputs if isinstance(o, Send))

        def pump() -> None:
            while wire:
                to, msg = wire.pop(0)
                run(to, m[to].receive(1 - to, msg, 0.0))
        for seat in (0, 1):
            run(seat, m[seat].start(0.0))
        pump()
        rng = Rng(seed)
        while m[0].over is None and m[1].over is None:
            seat = m[0].to_move()
            if seat < 0:
                break
            moves = LAN.turn(m[seat], seat).legal_moves()
            t0 = time.perf_counter()
            run(seat, m[seat].act(moves[rng.randbelow(len(moves))], 0.0))
            pump()
            out.append(time.perf_counter() - t0)
    return out


def p95(samples: list[float]) -> str:
    s = sorted(samples)
    q = s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]
    return f"median {statistics.median(s) * 1e3:7.3f} ms   p95 {q * 1e3:7.3f} ms   (n={len(s)})"


#: Per process: (round, ply) of each play -> when this process's match machine applied it
#: (filled by the timing hook on FairMatch._public, see :func:`_time_plays`).
APPLIED: dict = {}


def _time_plays() -> None:
    """Note when this process's machine applies each play (instrumentation of the bench only)."""
    from game.royals.engine import PLAY
    from game.royals.lan.match import FairMatch
    if getattr(FairMatch, "_timed", False):
        return
    real = FairMatch._public

    def public(self, a, s):
        if a.kind is PLAY:
            APPLIED.setdefault((self.round, self.view.ply), time.perf_counter())
        real(self, a, s)
    FairMatch._public, FairMatch._timed = public, True


def _royals_peer(session, seed: int, sent: dict, limit: float = 180.0) -> None:
    """Play ``session``'s seat (random decisions) to the match's end; note when each of our
    plays left (``sent[(round, ply)] = (seat, t)``)."""
    from game.royals.engine import PLAY
    from game.royals.plugin import GAME
    player = GAME.lan.player("random", seed)
    deadline = time.monotonic() + limit
    while session.verdict is None and session.status not in ("failed", "closed") and time.monotonic() < deadline:
        session.wait(0.002)
        got = session.view(lambda m: (m.turn_for(m.seat), m.round, m.view.ply, m.seat))
        if got is None or got[0] is None or session.catching_up:
            continue
        obs, rnd, ply, seat = got
        action = player(obs)
        t0 = time.perf_counter()
        try:
            session.act(action)
        except ValueError:
            continue
        if action.kind is PLAY:
            sent[(rnd, ply)] = (seat, t0)


def _royals_joiner(port: int, i: int, seed: int, out) -> None:
    """A joiner in its own process (one machine of the star): reports (seat, sent, applied)."""
    from game.royals.plugin import GAME
    from net.session import Session
    _time_plays()
    j = Session(GAME.lan, "join", f"Bench {i}", port=port, reconnect_delay=0.05)
    sent: dict = {}
    try:
        _royals_peer(j, seed, sent)
    finally:
        out.put((j.view(lambda m: m.seat), sent, dict(APPLIED)))
        j.close()


def royals_round_trips(n: int) -> list[float]:
    """The 4-peer round trip of one play on the dealer-free machine (see the module docstring):
    the host in this process, each joiner in a process of its own (as on four machines;
    ``time.perf_counter`` is the system's monotonic clock, the same in every process), over as
    many matches as needed."""
    import multiprocessing as mp
    from game.royals.plugin import GAME
    from net.session import Session
    _time_plays()
    ctx = mp.get_context("fork")
    out: list[float] = []
    seed = 0
    while len(out) < n:
        seed += 1
        APPLIED.clear()
        host = Session(GAME.lan, "host", "Bench 1", port=0, kinds=("host", "person", "person", "person"))
        results = ctx.Queue()
        procs = []
        try:
            for i in range(2, 5):
                p = ctx.Process(target=_royals_joiner, args=(host.port, i, seed * 10 + i, results), daemon=True)
                p.start()
                procs.append(p)
            end = time.monotonic() + 20
            while not host.can_start() and time.monotonic() < end:
                host.wait(0.05)
            host.start()
            sent: dict = {}
            _royals_peer(host, seed * 10 + 1, sent)
            applied = {0: dict(APPLIED)}
            for _ in procs:
                seat, their_sent, their_applied = results.get(timeout=120)
                sent.update(their_sent)
                applied[seat] = their_applied
            for key, (seat, t0) in sorted(sent.items()):
                others = [applied[s][key] for s in applied if s != seat and key in applied[s]]
                if len(others) == 3:
                    out.append(max(others) - t0)
        finally:
            host.close()
            for p in procs:
                p.join(10)
    return out[:n]


def layer_one_way(n: int) -> list[float]:
    """One-way move latency over the one LAN layer (see the module docstring), both sessions in
    this process, each with its own thread, over as many short Nim matches as needed."""
    sys.path.insert(0, os.path.dirname(_here))  # the repository, for tests.net.nim_game
    from net.session import Noticed, Session, Started
    from tests.net.nim_game import NIM
    out: list[float] = []
    backlog: dict = {}

    def wait_for(s, pred, limit=5.0):
        """The first event matching ``pred``; the events read past it wait for the next call."""
        end = time.monotonic() + limit
        pending = backlog.setdefault(id(s), [])
        while True:
            while pending:
                e = pending.pop(0)
                if pred(e):
                    return e
            if time.monotonic() >= end:
                raise RuntimeError("the layer bench stalled")
            pending += s.wait(0.05)
    while len(out) < n:
        host = Session(NIM, "host", "Bench A", port=0)
        join = Session(NIM, "join", "Bench B", port=host.port, reconnect_delay=0.05)
        try:
            for s in (host, join):
                wait_for(s, lambda e: isinstance(e, Started))
            wait_for(host, lambda e: isinstance(e, Noticed) and e.code == "dealt")
            wait_for(join, lambda e: isinstance(e, Noticed) and e.code == "dealt")
            while len(out) < n:
                state = host.view(lambda m: (m.over, m.to_move()))
                if state[0] is not None:
                    break
                mover, other = (host, join) if state[1] == 0 else (join, host)
                t0 = time.perf_counter()
                mover.act(1)
                wait_for(other, lambda e: isinstance(e, Noticed) and e.code == "move" and e.data["seat"] == state[1])
                out.append(time.perf_counter() - t0)
        finally:
            host.close(1.0)
            join.close(1.0)
            backlog.clear()
    return out[:n]


def layer_roseking_round_trips(n: int, journal_dir: str | None = None,
                               transport=None) -> tuple[list[float], list[float]]:
    """Rose King on the one LAN layer (game.roseking.lan.match): ``Session.act(move)`` until the
    mover's machine hears the other seat's ``ack`` (its ``Noticed("acked")``): plays and draws
    (the two-sided coin included), over as many games as needed."""
    from game.rng import Rng
    from game.roseking.lan.match import LAN
    from net.session import Ended, Noticed, Session, Started
    plays: list[float] = []
    draws: list[float] = []
    seed = 0
    while len(plays) < n:
        seed += 1
        rng = Rng(seed)
        rec = [None, None] if not journal_dir else [os.path.join(journal_dir, f"lh{seed}.json"),
                                                    os.path.join(journal_dir, f"lj{seed}.json")]
        host = Session(LAN, "host", "Bench A", port=0, record=rec[0])
        extra: list = []
        if transport is None:
            join = Session(LAN, "join", "Bench B", port=host.port, reconnect_delay=0.05, record=rec[1])
        else:
            join, extra = _by_code(host, transport, rec[1])
        try:
            for s in (host, join):
                wait_event(s, lambda e: isinstance(e, Started))
            while len(plays) < n:
                turns = [(s, s.view(lambda m: LAN.turn(m, m.seat))) for s in (host, join)]
                mover, state = next(((s, st) for s, st in turns if st is not None), (None, None))
                if mover is None:
                    if host.verdict is not None or join.verdict is not None:
                        break
                    time.sleep(0)
                    continue
                moves = state.legal_moves()
                move = moves[rng.randbelow(len(moves))]
                ply = state.ply + 1
                if move.kind is not DRAW:
                    state.push(move)
                    if state.is_game_over():  # the last move: the match ends, nobody acknowledges it
                        break
                t0 = time.perf_counter()
                mover.act(move)
                e = wait_event(mover, lambda e: isinstance(e, Ended) or isinstance(e, Noticed) and e.code == "acked"
                               and e.data["ply"] == ply)
                if isinstance(e, Ended):  # a draw that ended the game: nobody acknowledges it
                    break
                (draws if move.kind is DRAW else plays).append(time.perf_counter() - t0)
                other = join if mover is host else host
                while other.view(lambda m: m.ply) < ply:  # its turn view follows
                    time.sleep(0)
        finally:
            host.close(1.0)
            join.close(1.0)
            for x in extra:
                x.close()
    return plays, draws


def _by_code(host, servers, record):
    """A Rose King joiner of ``host`` that came by code over ``servers``
    (:class:`net.internet.Servers`): ``(join, [invites, dialer])``."""
    from game.roseking.lan.match import LAN
    from net.connections import read_hello
    from net.internet import CodeDialer, Invites
    from net.session import Session
    inv = Invites(host.adopt, servers)
    slot = inv.invite()
    end = time.monotonic() + 10
    while inv.code(slot) is None and time.monotonic() < end:
        inv.wait(0.1)
    d = CodeDialer(inv.code(slot), servers)
    sock = d.first(30)
    _, data = read_hello(sock, "the host")
    join = Session(LAN, "join", "Bench B", connected=(sock, data), dial=d.dial, reconnect_delay=0.05, record=record)
    return join, [inv, d]


def own_servers(nodelay: bool):
    """A rendezvous server and a transit relay on 127.0.0.1 in a subprocess:
    ``(process, mailbox, relay)``."""
    import subprocess
    p = subprocess.Popen([sys.executable, "-m", "net.internet_servers", *(["--nodelay"] if nodelay else [])],
                         stdout=subprocess.PIPE, text=True, cwd=os.path.dirname(_here))
    line = p.stdout.readline().split()
    if line[:1] != ["mailbox"]:
        p.kill()
        raise RuntimeError("the servers did not start (pip install -e '.[test]')")
    return p, line[1], line[3]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=500, help="Rose King moves to time over sockets (default 500)")
    ap.add_argument("--journal", metavar="DIR", help="also time with records and journals written to DIR")
    ap.add_argument("--layer-moves", type=int, default=300, metavar="N",
                    help="moves to time over the one LAN layer with the tests' game (default 300; 0 skips)")
    ap.add_argument("--royals-plays", type=int, default=200, metavar="N",
                    help="Royals & Riots 4-peer plays to time (default 200; 0 skips)")
    ap.add_argument("--internet-moves", type=int, default=300, metavar="N",
                    help="Rose King moves to time over the internet transport, each way (default 300; 0 skips)")
    args = ap.parse_args()
    from net.lobby import LAN_VERSION
    from game.roseking.lan.match import VERSION
    raw = raw_ping_pong(args.moves)
    plays, draws = layer_roseking_round_trips(args.moves)
    print(f"Rose King LAN round trips on 127.0.0.1 (LAN layer {LAN_VERSION}, Rose King protocol {VERSION})")
    print(f"raw TCP ping-pong (64 B)           {figures(raw)}")
    print(f"move round trip (act->ack)         {figures(plays)}")
    print(f"draw round trip (two-sided coin)   {figures(draws)}")
    print(f"pure machines, in memory           {figures(pure_machines(10))}")
    if args.journal:
        jplays, jdraws = layer_roseking_round_trips(max(50, args.moves // 5), args.journal)
        print(f"move, journals on disk (fsync)     {figures(jplays)}")
        print(f"draw, journals on disk (fsync)     {figures(jdraws)}")
    if args.layer_moves:
        print(f"one LAN layer (test game), one way {figures(layer_one_way(args.layer_moves))}")
    if args.internet_moves:
        os.environ.setdefault("ROSE_KING_LAN_LOOPBACK", "1")  # the library listens on 127.0.0.1 only
        from net.internet import Servers
        for label, nodelay, direct in (("direct", True, True), ("relayed, relay with TCP_NODELAY", True, False),
                                       ("relayed, upstream relay", False, False)):
            proc, mailbox, relay = own_servers(nodelay)
            try:
                iplays, _ = layer_roseking_round_trips(args.internet_moves, None, Servers(mailbox, relay, direct))
            finally:
                proc.kill()
            print(f"by code, {label:32s} {figures(iplays)}")
    if args.royals_plays:
        print(f"Royals & Riots, 4 peers: play -> all 3 others applied {p95(royals_round_trips(args.royals_plays))}")


if __name__ == "__main__":
    main()
