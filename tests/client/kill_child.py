"""Child process for the client kill -9 test: the real game window (dummy video driver)
driven like a person: main menu -> "Play a friend", then moves made with posted mouse
clicks, chosen from the position alone. After each move it waits for the autosave and
prints ``saved <ply> <move>``; it never stops by itself (the parent kills it).

Usage: ``python kill_child.py SEED`` (data folder from ``ROSE_KING_DATA_DIR``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game.client.main import open_window
from game.client.menus import MainMenu  # noqa: E402
from game.roseking.engine import Move, Rng, State  # noqa: E402
from tests.client.conftest import Driver  # noqa: E402


def policy(state: State, seed: int) -> Move:
    """A move from the position alone, so the parent can play on the same way after resuming."""
    return Rng(seed * 1000 + state.ply).choice(state.legal_moves())


def main() -> None:
    seed = int(sys.argv[1])
    app = open_window(vsync=False)
    app.push(MainMenu(app))
    driver = Driver(app)
    app.step(1 / 60)
    friend = next(b for b in app.top.buttons if b.label == "Play a friend (same screen)")
    driver.click(friend.rect.center)
    game = driver.game
    while not game.match.state.is_game_over():
        driver.play(policy(game.shown, seed))
        game.game.saver.flush(10)
        print(f"saved {game.match.state.ply} {game.match.state.move_stack[-1]}", flush=True)
    print("done", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
