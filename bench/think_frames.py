"""Frame times while the computer thinks: a person (scripted) against ``hard`` in the window, in real time.

Run: ``python bench/think_frames.py [--moves N] [--seconds S] [--seed K]``. Uses the dummy video
driver at the 1280x800 logical size and paces the loop at 60 frames a second of
real time (sleeping out the rest of each frame), so the worker process searches
while frames are drawn, as in the game. The person's side asks for a hint each
turn (the ``hard`` search again, in its own worker), then plays the suggestion;
the mouse sweeps over the board all the while so hover outlines are drawn.

Prints the frame-time mean, median, p99 and worst (wall clock and main-thread CPU),
separately for frames while the computer opponent thinks, while the hint thinks,
and the rest (animations, idle), and how long building a worker held the frame
loop. Aim: p99 <= 20 ms while it thinks.
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
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pygame  # noqa: E402

from frames import summary  # noqa: E402  (bench/frames.py)
from game.client.app import STEP  # noqa: E402
from game.client.main import open_window
from game.client.roseking.game_scene import GameScene  # noqa: E402
from game.client.roseking.hint import Hint  # noqa: E402
from game.roseking.match import ComputerController, HumanController, local_match  # noqa: E402
from game.roseking.ai import Thinker, make_player  # noqa: E402
from game.client.roseking.thinking import WORKER_NICE, computer_thinker  # noqa: E402
from game.roseking.engine import Color  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=12, help="computer moves to watch (default 12)")
    ap.add_argument("--seconds", type=float, default=1.0, help="search budget per move (default 1.0, the game's)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nice", type=int, default=WORKER_NICE, help=f"worker priority drop (default {WORKER_NICE})")
    ap.add_argument("--thread", action="store_true",
                    help="for comparison: the opponent searches on a thread of the window's process")
    args = ap.parse_args()

    app = open_window(vsync=False)
    t0 = time.perf_counter()
    if args.thread:
        thinker = Thinker(make_player("hard", args.seed, seconds=args.seconds))
    else:
        thinker = computer_thinker("hard", args.seed, seconds=args.seconds, nice=args.nice)
    build_hold = time.perf_counter() - t0
    cpu = ComputerController(None, "hard", min_delay=0.35, thinker=thinker)  # type: ignore[arg-type]
    match = local_match(cpu, HumanController("bench"), args.seed)
    hint = Hint(seconds=args.seconds, seed=args.seed + 1)
    scene = GameScene(app, match, on_new_game=lambda: None, on_main_menu=lambda: None, hint=hint)
    app.reset(scene)

    groups: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in ("computer", "hint", "other")}
    computer_moves = 0
    frame = 0
    next_frame = time.perf_counter()
    last = next_frame
    while computer_moves < args.moves and not match.state.is_game_over():
        if frame % 7 == 0:
            sq = (frame // 7) % 81
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(400 + (sq % 9) * 56, 160 + (sq // 9) * 56),
                                                 rel=(0, 0), buttons=(0, 0, 0)))
        idle = not scene.busy()
        if idle and match.human_to_move():
            if hint.move is not None:
                match.submit(hint.move)
            elif not hint.thinking:
                hint.request(match)
        if idle and match.to_move is cpu:
            group = "computer"
        elif idle and hint.thinking:
            group = "hint"
        else:
            group = "other"
        ply = match.state.ply
        c0, w0 = time.thread_time(), time.perf_counter()
        app.step(w0 - last)
        last = w0
        groups[group][0].append(time.perf_counter() - w0)
        groups[group][1].append(time.thread_time() - c0)
        if match.state.ply > ply and match.state.move_stack[-1].player is Color.RED:  # the computer's
            computer_moves += 1
        frame += 1
        next_frame += STEP
        pause = next_frame - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        else:
            next_frame = time.perf_counter()  # behind: do not try to catch up with a burst
    app.reset(GameScene(app, local_match(HumanController(), HumanController(), 0), lambda: None, lambda: None))

    print(f"{computer_moves} computer moves at {args.seconds:g} s each, {frame} frames, 1280x800, dummy driver, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    how = "a thread of this process" if args.thread else f"a worker process at nice +{args.nice}"
    print(f"the opponent searches on {how}; building it held the frame loop {build_hold * 1000:.2f} ms")
    worst = 0.0
    for name, label in (("computer", "while hard thinks"), ("hint", "while the hint thinks"),
                        ("other", "animations and idle")):
        wall, cpu_t = groups[name]
        if not wall:
            continue
        print(summary(f"{label} ({len(wall)} frames), wall ms", wall))
        print(summary(f"{label}, CPU ms (main thread)", cpu_t))
        if name != "other":
            ms = sorted(t * 1000 for t in wall)
            worst = max(worst, ms[min(len(ms) - 1, int(len(ms) * 0.99))])
    print("aim: wall p99 <= 20 ms while thinking ->", "met" if worst <= 20 else "NOT met")


if __name__ == "__main__":
    main()
