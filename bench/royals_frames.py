"""Frame-time figures of Royals & Riots' table: a 4-player computer match with every animation,
and the loop's update rate while the hard player thinks.

Run: ``python bench/royals_frames.py [--seed N] [--think-seconds S]``.

1. Frames: four computer seats (greedy, random, easy, greedy) play a whole match (3 rounds)
   at the 1280x800 canvas, dummy video driver, normal animation speed; the app is stepped
   frame by frame at 60 Hz (no sleeping) and each whole frame is timed (events, fixed
   updates, full redraw, flip). Prints mean, median, p99 and worst. Aim: p99 <= 8 ms.
2. Thinking: a match whose seat 2 is ``hard`` (worker process) runs in real time
   (``App.step`` with the real elapsed time, paced to 60 Hz) while hard decides; prints the
   fixed updates per second over the seconds it thought. Aim: 60 updates/s.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("ROSE_KING_DATA_DIR", "/tmp/royals-bench-data")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from game.client.app import STEP, App  # noqa: E402
from game.client.main import open_window  # noqa: E402
from game.client.royals.setup import start_match  # noqa: E402
from game.royals.match import Seat, TableConfig  # noqa: E402
from frames import summary  # noqa: E402  (bench/ is the script's folder: Rose King's frame bench)


def frames(app: App, seed: int) -> tuple[list[float], list[float]]:
    cfg = TableConfig([Seat("Ada", "greedy"), Seat("Bram", "random"), Seat("Cato", "easy"), Seat("Dora", "greedy")],
                      teams=True, seed=seed)
    scene = start_match(app, cfg, min_delay=0.3, use_process=False, autosave=False)
    times: list[float] = []
    cpu: list[float] = []
    hover = 0
    while scene.modal != "over" and len(times) < 200_000:
        if len(times) % 7 == 0:  # sweep the mouse across the table
            hover = (hover + 1) % 40
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(100 + hover * 27, 300 + (hover % 5) * 90),
                                                 rel=(0, 0), buttons=(0, 0, 0)))
        timed_step(app, times, cpu)
    for _i in range(120):  # the result with its counting table
        timed_step(app, times, cpu)
    return times, cpu


def timed_step(app: App, times: list[float], cpu: list[float]) -> None:
    c0, t0 = time.thread_time(), time.perf_counter()
    app.step(STEP)
    times.append(time.perf_counter() - t0)
    cpu.append(time.thread_time() - c0)


def thinking(app: App, seed: int, seconds: float, decisions: int) -> tuple[float, float, int]:
    """(updates per second while hard thought, seconds thought, decisions seen)."""
    cfg = TableConfig([Seat("Ada", "greedy"), Seat("Hard", "hard"), Seat("Cato", "greedy"), Seat("Dora", "greedy")],
                      seed=seed, seconds=seconds)
    scene = start_match(app, cfg, min_delay=0.0, use_process=True, autosave=False)
    thought = 0.0
    updates = 0
    seen = 0
    spell: tuple[float, int] | None = None  # (time, app.updates) when hard began thinking
    last = time.perf_counter()
    deadline = last + 120
    while seen < decisions and time.perf_counter() < deadline:
        now = time.perf_counter()
        app.step(now - last)
        last = now
        hard_thinks = scene.thinking == 2
        if hard_thinks and spell is None:
            spell = (time.perf_counter(), app.updates)
        elif not hard_thinks and spell is not None:
            thought += time.perf_counter() - spell[0]
            updates += app.updates - spell[1]
            spell = None
            seen += 1
        spare = STEP - (time.perf_counter() - now)  # pace to 60 frames a second like the real loop
        if spare > 0:
            time.sleep(spare)
    return (updates / thought if thought else 0.0), thought, seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think-seconds", type=float, default=1.0)
    ap.add_argument("--decisions", type=int, default=6)
    args = ap.parse_args()
    app = open_window(vsync=False)
    app.options.anim_speed = 1.0
    times, cpu = frames(app, args.seed)
    print(f"frames: {len(times)} ({len(times) / 60:.1f} s of play at 60 Hz), 4-player team match of computers, "
          f"1280x800, dummy driver, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(summary("frame time, wall ms", times))
    print(summary("frame time, CPU ms (main thread; less hurt by other processes)", cpu))
    p99 = sorted(times)[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print("aim: wall p99 <= 8 ms ->", "met" if p99 <= 8 else "NOT met")
    rate, thought, seen = thinking(app, args.seed, args.think_seconds, args.decisions)
    print(f"while hard thinks ({seen} decisions, {thought:.1f} s): {rate:.1f} updates/s "
          f"(aim 60 -> {'met' if rate >= 59 else 'NOT met'})")
    while app.scenes:
        app.pop()


if __name__ == "__main__":
    main()
