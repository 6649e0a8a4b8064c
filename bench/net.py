"""LAN round-trip figures on loopback (issue 7): prints, asserts nothing.

    python bench/net.py [--moves N]

- raw TCP ping-pong: 64 bytes echoed by a thread over 127.0.0.1 (the floor);
- move round trip: ``LanSession.play(move)`` until the peer's ack arrives back
  (framing, both engines validating, state hash, two background threads);
- draw round trip: ``play(draw)`` until the ack, the full two-sided coin included (both
  commitments, both reveals, each side deriving the card and acknowledging it);
- the same with ``--journal DIR``: both peers write their record and private journal
  (atomic: write, fsync, rename) before each promise leaves, as ``--record FILE`` does;
- the pure protocol cost of one move in memory (no sockets, no threads).

Aim (issue 7): median move round trip at most 2 ms.
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

from game.roseking.ai import make_player  # noqa: E402
from game.roseking.engine import DRAW
from net import PROTOCOL_VERSION  # noqa: E402
from net.loopback import Pair
from net.protocol import Acked, GameStarted, MoveMade
from net.transport import LanSession


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


def wait_event(session: LanSession, pred, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for e in session.wait(timeout):
            if pred(e):
                return e
    raise TimeoutError("no event")


def session_round_trips(n: int, journal_dir: str | None = None) -> tuple[list[float], list[float]]:
    plays, draws = [], []
    seed = 0
    while len(plays) < n:
        seed += 1
        jh = jj = None
        if journal_dir:
            jh, jj = os.path.join(journal_dir, f"h{seed}.json"), os.path.join(journal_dir, f"j{seed}.json")
        host = LanSession.host("Bench A", port=0, journal=jh)
        join = LanSession.join("Bench B", "127.0.0.1", host.port, journal=jj)
        try:
            for s in (host, join):
                wait_event(s, lambda e: isinstance(e, GameStarted))
            player = make_player("random", seed)
            while not host.state.is_game_over() and len(plays) < n:
                state = host.state
                mover, other = (host, join) if host.color == state.turn else (join, host)
                move = player.choose(mover.state)
                ply = state.ply + 1
                t0 = time.perf_counter()
                mover.play(move)
                wait_event(mover, lambda e: isinstance(e, Acked) and e.ply == ply)
                (draws if move.kind is DRAW else plays).append(time.perf_counter() - t0)
                wait_event(other, lambda e: isinstance(e, MoveMade) and e.ply == ply)
                while mover.state.ply < ply or other.state.ply < ply:  # snapshots follow the events
                    time.sleep(0)
        finally:
            host.close()
            join.close()
    return plays, draws


def pure_protocol(games: int) -> list[float]:
    out = []
    for seed in range(games):
        p = Pair(seed)
        p.pump()
        player = make_player("random", seed)
        while not p.host.game.over:
            m = p.mover()
            move = player.choose(m.game.state)
            t0 = time.perf_counter()
            m.play(move)
            p.pump()
            out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=500, help="moves to time over sockets (default 500)")
    ap.add_argument("--journal", metavar="DIR", help="also time with records and journals written to DIR")
    args = ap.parse_args()
    raw = raw_ping_pong(args.moves)
    plays, draws = session_round_trips(args.moves)
    pure = pure_protocol(10)
    print(f"Rose King LAN round trips on 127.0.0.1 (protocol {PROTOCOL_VERSION})")
    print(f"raw TCP ping-pong (64 B)           {figures(raw)}")
    print(f"move round trip (play->ack)        {figures(plays)}")
    print(f"draw round trip (two-sided coin)   {figures(draws)}")
    print(f"pure protocol, in memory           {figures(pure)}")
    if args.journal:
        jplays, jdraws = session_round_trips(max(50, args.moves // 5), args.journal)
        print(f"move, journals on disk (fsync)     {figures(jplays)}")
        print(f"draw, journals on disk (fsync)     {figures(jdraws)}")


if __name__ == "__main__":
    main()
