"""Figures of the replay viewer in the window: a jump to any ply, and frames while playing.

    python bench/replay_view.py [--seed N] [--seeks 500]

Uses the dummy video driver at the 1280x800 logical size. Builds the replay of the
longest of 200 seeded random games, then:
- jump (timeline drag, move list click, Home/End): ``ReplayScene.seek`` to random plies
  (the replay's seek plus showing the position), median / p99 / max in ms (<= 30 ms);
- the same jump plus the full redraw of the next frame;
- frame time (events, updates, full redraw, flip) while playing the whole game at 4x.
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

from game.client.app import STEP  # noqa: E402
from game.client.main import open_window
from game.client.roseking.replay_view import ReplayScene  # noqa: E402
from game.roseking.engine import Record, Rng, State  # noqa: E402
from game.roseking.replay import Replay  # noqa: E402


def longest_game(games: int = 200) -> Record:
    best: State | None = None
    for seed in range(games):
        rng = Rng(seed)
        s = State.random(rng)
        while not s.is_game_over():
            m = rng.choice(s.legal_moves())
            s.push(m if m.card is not None else m.with_outcome(rng.choice(s.chance_outcomes())))
        if best is None or s.ply > best.ply:
            best = s
    assert best is not None
    return Record.from_state(best)


def figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms ({len(ms)} samples)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeks", type=int, default=500)
    args = ap.parse_args()
    record = longest_game()
    app = open_window(vsync=False)
    scene = ReplayScene(app, Replay(record), on_back=app.quit)
    app.push(scene)
    length = scene.replay.length
    print(f"replay of {length} plies")
    rng = Rng(args.seed)
    seeks, seek_frames = [], []
    for _i in range(args.seeks):
        ply = rng.randbelow(length + 1)
        t0 = time.perf_counter()
        scene.seek(ply)
        t1 = time.perf_counter()
        app.step(STEP)
        t2 = time.perf_counter()
        seeks.append(t1 - t0)
        seek_frames.append(t2 - t0)
    print(f"jump to a random ply:              {figures(seeks)}")
    print(f"jump + next full frame:            {figures(seek_frames)}")
    scene.seek(0)
    scene.playback.set_speed(4.0)
    scene.playback.play()
    frames = []
    while not (scene.replay.at_end() and not scene.busy()):
        t0 = time.perf_counter()
        app.step(STEP)
        frames.append(time.perf_counter() - t0)
    print(f"frames while playing it all at 4x: {figures(frames)}")


if __name__ == "__main__":
    main()
