"""Frame cost of the issue-6 screens (settings, How to play, tutorial overlay), headless.

    python bench/client_screens.py [frames]

Prints main-thread CPU milliseconds per full frame (update + draw + flip of the dummy
display) for each screen, in each language, and the load average; a frame at 60 Hz has 16.7 ms. Uses a temporary settings folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["ROSE_KING_CONFIG_DIR"] = tempfile.mkdtemp(prefix="rose-king-bench-")

from game import i18n  # noqa: E402
from game.client.app import App  # noqa: E402
from game.client.main import open_window
from game.client.roseking.howto import HowToPlay  # noqa: E402
from game.roseking.match import HumanController, local_match  # noqa: E402
from game.client.roseking.game_scene import GameScene  # noqa: E402
from game.client.settings_scene import SettingsScene  # noqa: E402
from game.client.roseking.tutorial import TutorialOverlay  # noqa: E402
from game.client.scene import ViewOptions  # noqa: E402


def per_frame(app: App, frames: int) -> float:
    """CPU ms of the main thread per frame (wall time is mostly other processes on a busy machine)."""
    app.run_frames(5)  # warm the text cache
    start = time.thread_time()
    app.run_frames(frames)
    return (time.thread_time() - start) / frames * 1000


def main(frames: int = 240) -> None:
    app = open_window(ViewOptions(), vsync=False)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'screen':<28}" + "".join(f"{code:>8}" for code in i18n.LANGUAGES) + "   (CPU ms per frame)")
    rows: dict[str, list[float]] = {}
    for code in i18n.LANGUAGES:
        app.prefs.update(language=code)
        app.reset(SettingsScene(app))
        rows.setdefault("settings", []).append(per_frame(app, frames))
        howto = HowToPlay(app)
        app.reset(howto)
        for page in (2, 4, 5, 7):
            howto.go(page)
            rows.setdefault(f"how to play, page {page + 1}", []).append(per_frame(app, frames // 4))
        game = GameScene(app, local_match(HumanController(), HumanController(), 1), lambda: None, lambda: None)
        app.reset(game)
        rows.setdefault("game screen", []).append(per_frame(app, frames))
        app.push(TutorialOverlay(app, game))
        rows.setdefault("game + tutorial overlay", []).append(per_frame(app, frames))
    for name, values in rows.items():
        print(f"{name:<28}" + "".join(f"{v:8.2f}" for v in values))
    app.prefs.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 240)
