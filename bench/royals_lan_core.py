"""Speed figures of the pure Royals & Riots LAN layer (issue 13). Run by hand:
``python bench/royals_lan_core.py [--games N]``.

Prints:
1. SeatView: the time one seat's view takes to take in what it is told about one action
   (``messages_for`` -> ``SeatView.hear``), mean / p50 / p99 / max over every seat of N random
   matches of 2, 3, 4 seats and 4 in teams, and how often the exact re-solve (the bipartite
   matching) was needed;
2. HostMatch + JoinerMatch wired in memory through real frames (tests/net/royals_wire.py,
   computers ``random``): the wall time of a whole 4-seat match and its messages per joiner.
No sockets: the loopback figures are in bench/net.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.rng import Rng  # noqa: E402
from game.royals.engine import SeatView, State  # noqa: E402
import game.royals.engine.view as view_mod  # noqa: E402
from net.royals import messages_for  # noqa: E402


def view_updates(games: int) -> None:
    times: list[float] = []
    solves = [0]
    orig = view_mod.SeatView._resolve

    def counted(self):
        solves[0] += 1
        return orig(self)
    view_mod.SeatView._resolve = counted
    for seed in range(games):
        for players, teams in ((2, False), (3, False), (4, False), (4, True)):
            s, rng = State(players, teams), Rng(seed)
            views = {k: SeatView(k, players, teams) for k in range(1, players + 1)}
            while not s.is_over():
                before = s.copy()
                ev = s.chance()
                a = ev.sample(rng) if ev else rng.choice(s.legal_actions())
                s.push_checked(a)
                for k, v in views.items():
                    t = time.perf_counter()
                    for m in messages_for(before, a, s, k):
                        v.hear(m)
                    times.append(time.perf_counter() - t)
    view_mod.SeatView._resolve = orig
    times.sort()
    ms = [t * 1e3 for t in times]
    print(f"SeatView updates: {len(ms)} over {games * 4} matches; mean {statistics.fmean(ms):.3f} ms, "
          f"p50 {ms[len(ms) // 2]:.3f} ms, p99 {ms[int(len(ms) * 0.99)]:.2f} ms, max {ms[-1]:.1f} ms; "
          f"exact re-solves {solves[0]}")


def whole_matches(games: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))
    from royals_wire import Wire
    walls, msgs = [], []
    for seed in range(games):
        t = time.perf_counter()
        w = Wire(4, ("random",) * 4, seed=seed).run()
        walls.append(time.perf_counter() - t)
        assert w.host.over is not None and w.host.over.kind == "finished"
        msgs.append(statistics.fmean(len(w.host.outbox(s)) for s in w.joiners))
    print(f"4-seat match in memory (host + 3 joiners, real frames): wall mean {statistics.fmean(walls) * 1e3:.0f} ms, "
          f"max {max(walls) * 1e3:.0f} ms; host messages per joiner {statistics.fmean(msgs):.0f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=25)
    args = ap.parse_args()
    view_updates(args.games)
    whole_matches(args.games)


if __name__ == "__main__":
    main()
