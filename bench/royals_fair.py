"""Figures of the dealer-free Royals & Riots match machine (game/royals/lan/match.py and its parts).

All peers run in one process, in memory (tests/net/fair_table.py: every message as a frame
through the host, FIFO, encoded and decoded with the layer's limits and the part's schemas), so
the figures are the machines' own CPU (framing included) without the sockets:

- shuffle and deal of round 1 with 4 seats: CPU per peer from ``start`` until every peer's
  view holds its dealt cards, and the critical path (the sum over the messages of the deal,
  in order, of the slowest peer handling each);
- the round-end audit of one peer (every reveal checked, every pass replayed, the round
  rebuilt with ``push_checked``);
- a play's round trip with 4 peers: from a joiner's ``act`` to the last peer having applied
  it (the joiner signs, the host checks and relays, each other joiner checks), CPU summed
  along that path; median over every play of a match.

Run by hand: ``python bench/royals_fair.py [matches]``."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

from fair_table import Net  # noqa: E402

from game.royals.engine.state import Phase  # noqa: E402
from game.royals.lan import match as fair  # noqa: E402


def timed(net: Net) -> dict:
    """Wrap every machine's entry points to sum thread CPU per seat."""
    cpu = {s: 0.0 for s in net.machines}
    for s, m in net.machines.items():
        for name in ("start", "receive", "act"):
            f = getattr(m, name)

            def wrap(*a, _f=f, _s=s, **k):
                t = time.thread_time()
                try:
                    return _f(*a, **k)
                finally:
                    cpu[_s] += time.thread_time() - t
            setattr(m, name, wrap)
    return cpu


def deal_figures() -> tuple[list[float], float]:
    net = Net(4)
    cpu = timed(net)
    t = time.perf_counter()
    net.start()
    while not all(m.view.state.phase is Phase.KEEP for m in net.machines.values()):
        if not net.deliver():
            raise RuntimeError("the deal did not finish")
    return [cpu[s] * 1000 for s in sorted(cpu)], (time.perf_counter() - t) * 1000


def audit_and_plays() -> tuple[list[float], list[float]]:
    net = Net(4)
    audits: list[float] = []
    orig = fair.FairMatch._audit

    def audit(self):
        t = time.thread_time()
        try:
            return orig(self)
        finally:
            audits.append((time.thread_time() - t) * 1000)
    fair.FairMatch._audit = audit
    trips: list[float] = []
    try:
        net.start()
        while True:
            if net.deliver():
                continue
            # a joiner plays: time its act, then every delivery until the links are empty
            m = next((m for s, m in net.machines.items() if s and m.turn_for(s) is not None
                      and m.view.state.phase is Phase.PLAY), None)
            if m is None:
                if not net.decide():
                    break
                continue
            a = net.players[m.seat].choose(m.turn_for(m.seat))
            t = time.thread_time()
            net._out(m.seat, m.act(a, 0.0, m.seat))
            path = time.thread_time() - t
            hops: dict = {}
            while net.links:
                frm, to, _ = net.links[0]
                t = time.thread_time()
                net.deliver()
                hops.setdefault(to, 0.0)
                hops[to] += time.thread_time() - t
            path += hops.get(0, 0.0) + max((v for k, v in hops.items() if k), default=0.0)
            trips.append(path * 1000)
    finally:
        fair.FairMatch._audit = orig
    return audits, trips


def loopback_deal() -> float:
    """Wall ms from the host's start to every peer holding its dealt cards, 4 sessions over
    127.0.0.1 in this one process (their threads share one interpreter: an upper bound)."""
    from game.royals.lan.match import FAIR
    from net.session import Session
    host = Session(FAIR, "host", "A", port=0, kinds=("host", "person", "person", "person"))
    joins = [Session(FAIR, "join", f"J{i}", port=host.port, reconnect_delay=0.05) for i in range(3)]
    try:
        end = time.monotonic() + 10
        while True:
            try:
                host.start()
                break
            except ValueError:
                if time.monotonic() > end:
                    raise
                host.wait(0.02)
        t = time.perf_counter()
        while not all(s.view(lambda m: m.view.state.phase is Phase.KEEP) for s in [host, *joins]):
            time.sleep(0.001)
        return (time.perf_counter() - t) * 1000
    finally:
        for s in [host, *joins]:
            s.close(0.5)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    per_peer, wall = [], []
    for _ in range(runs):
        p, w = deal_figures()
        per_peer.append(max(p))
        wall.append(w)
    print(f"4-seat shuffle + deal, in memory: CPU of the busiest peer median {statistics.median(per_peer):.1f} ms, "
          f"all peers in one thread {statistics.median(wall):.1f} ms (median of {runs})")
    lb = [loopback_deal() for _ in range(3)]
    print(f"4-seat shuffle + deal over 127.0.0.1, 4 sessions in one process: wall median {statistics.median(lb):.0f} ms "
          f"(from start to every peer holding its cards; median of 3)")
    audits, trips = audit_and_plays()
    print(f"round-end audit, one peer: median {statistics.median(audits):.1f} ms, max {max(audits):.1f} ms "
          f"({len(audits)} audits)")
    print(f"a joiner's play to every peer, 4 peers, CPU along the path: median {statistics.median(trips):.2f} ms "
          f"({len(trips)} plays; sockets not included)")


if __name__ == "__main__":
    main()
