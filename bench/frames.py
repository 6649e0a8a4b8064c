"""Frame-time figures of the client: a computer-vs-computer game with every animation.

Run: ``python bench/frames.py [--seed N] [--games G]``. Uses the dummy video driver
at the 1280x800 logical size, steps the app frame by frame at 60 Hz (no sleeping)
and times each whole frame (events, fixed updates, full redraw, flip). Prints the
mean, median, 99th percentile and worst frame time in milliseconds. Aim: p99 <= 8 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from game.roseking.ai import GreedyPlayer, RandomPlayer  # noqa: E402
from game.client.app import STEP, App  # noqa: E402
from game.client.main import open_window
from game.client.roseking.game_scene import GameScene  # noqa: E402
from game.roseking.match import ComputerController, local_match  # noqa: E402
from game.client.roseking.result import ResultPanel  # noqa: E402


def play_one(app: App, seed: int) -> tuple[list[float], list[float]]:
    """Wall-clock and main-thread CPU frame times (seconds) of one animated game from deal to result panel."""
    match = local_match(ComputerController(GreedyPlayer(seed), "greedy", min_delay=0.1),
                        ComputerController(RandomPlayer(seed + 1), "random", min_delay=0.1), seed)
    app.reset(GameScene(app, match, on_new_game=lambda: None, on_main_menu=lambda: None))
    times: list[float] = []
    cpu: list[float] = []
    hover = 0
    while not isinstance(app.top, ResultPanel) and len(times) < 100_000:
        if len(times) % 7 == 0:  # sweep the mouse over the board so hover outlines are drawn too
            hover = (hover + 1) % 81
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(400 + (hover % 9) * 56, 160 + (hover // 9) * 56),
                                                 rel=(0, 0), buttons=(0, 0, 0)))
        timed_step(app, times, cpu)
    for _i in range(60):  # the result panel over the outlined territories
        timed_step(app, times, cpu)
    return times, cpu


def timed_step(app: App, times: list[float], cpu: list[float]) -> None:
    c0, t0 = time.thread_time(), time.perf_counter()
    app.step(STEP)
    times.append(time.perf_counter() - t0)
    cpu.append(time.thread_time() - c0)


def summary(label: str, seconds: list[float]) -> str:
    ms = sorted(t * 1000 for t in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (f"{label}: mean {statistics.fmean(ms):.2f}  median {statistics.median(ms):.2f}  "
            f"p99 {p99:.2f}  max {ms[-1]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=1)
    args = ap.parse_args()
    app = open_window(vsync=False)
    times: list[float] = []
    cpu: list[float] = []
    for g in range(args.games):
        t, c = play_one(app, args.seed + 2 * g)
        times += t
        cpu += c
    print(f"frames: {len(times)} ({args.games} game(s), {len(times) / 60:.1f} s of play at 60 Hz), "
          f"1280x800, dummy driver, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(summary("frame time, wall ms", times))
    print(summary("frame time, CPU ms (main thread; less hurt by other processes)", cpu))
    p99 = sorted(times)[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print("aim: wall p99 <= 8 ms ->", "met" if p99 <= 8 else "NOT met")


if __name__ == "__main__":
    main()
