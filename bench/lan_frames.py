"""Frame-time figures of a LAN game in the window, and how long a local move takes to come back.

Run: ``python bench/lan_frames.py [--seed N]``. A windowed host (dummy video driver,
1280x800, every animation) plays a whole game on 127.0.0.1 (the one LAN layer, the window's
path: the shell's waiting screen, Rose King's network table) against a headless peer run by
``net.headless.play_match`` in a thread; the host's own moves are chosen by a greedy
player and handed over through ``LanMatch.submit``, the path a click takes. Prints frame
times (whole frame; and ``LanTable.pump`` alone, the shell's network poll done every update) and the
time from ``submit`` until the move is back from the network thread and applied to the view's
match. Aim: wall p99 frame time <= 8 ms (as bench/frames.py); pump far below a millisecond.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from frames import summary, timed_step  # noqa: E402

from game.roseking.ai import GreedyPlayer, RandomPlayer  # noqa: E402
from game.client.main import open_window
from game.client.lan.lobby import host_table  # noqa: E402
from game.client.lan.table import LanTable  # noqa: E402
from game.client.roseking.lan import LanGameScene, LanResultPanel  # noqa: E402
from net.headless import play_match  # noqa: E402
from game.roseking.lan.match import LAN  # noqa: E402
from net.session import Session  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    app = open_window(vsync=False)
    lobby = host_table(app, "rose-king", name="Bench", port=0, bind="127.0.0.1", beacon=False)
    host = lobby.session
    join = Session(LAN, "join", "Peer", port=host.port, reconnect_delay=0.05)
    peer = threading.Thread(target=play_match, args=(join, RandomPlayer(args.seed + 1).choose),
                            kwargs={"timeout": 300}, daemon=True)
    peer.start()
    pumps: list[float] = []
    real_pump = LanTable.pump

    def timed_pump(self):  # the network poll alone, as the frame loop runs it
        t0 = time.perf_counter()
        out = real_pump(self)
        pumps.append(time.perf_counter() - t0)
        return out
    LanTable.pump = timed_pump  # type: ignore[method-assign]
    times: list[float] = []
    cpu: list[float] = []
    trips: list[float] = []
    player = GreedyPlayer(args.seed)
    sent_at, sent_ply = 0.0, -1
    end = time.monotonic() + 300
    while not isinstance(app.top, LanResultPanel) and time.monotonic() < end:
        scene = next((s for s in app.scenes if isinstance(s, LanGameScene)), None)
        if scene is not None:
            m = scene.match
            if sent_ply >= 0 and m.state.ply > sent_ply:
                trips.append(time.perf_counter() - sent_at)
                sent_ply = -1
            if sent_ply < 0 and m.human_to_move() and not scene.busy():
                sent_at, sent_ply = time.perf_counter(), m.state.ply
                if m.submit(player.choose(scene.shown)) is not None:
                    sent_ply = -1
        timed_step(app, times, cpu)
    plies = host.view(lambda m: m.ply) or 0
    while app.scenes:
        app.pop()
    join.close()
    print(f"one game: {plies} plies, {len(times)} frames ({len(times) / 60:.1f} s of play at 60 Hz), "
          f"1280x800, dummy driver, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(summary("frame time, wall ms", times))
    print(summary("frame time, CPU ms (main thread)", cpu))
    print(summary("LanTable.pump per update, wall ms", pumps))
    if trips:
        ms = sorted(t * 1000 for t in trips)
        print(f"own move, submit -> back in the view's match: {len(ms)} moves, median {statistics.median(ms):.1f} ms, "
              f"max {ms[-1]:.1f} ms (the view polls once per 1/60 s update, after its animations)")
    p99 = sorted(times)[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print("aim: wall p99 <= 8 ms ->", "met" if p99 <= 8 else "NOT met")


if __name__ == "__main__":
    main()
