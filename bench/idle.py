"""Process CPU of the window while nothing moves ("a quiet window").

Runs the real-time loop (``App.run``) for ``--warmup`` seconds, then measures the process's
CPU time (every thread) over ``--seconds`` seconds, once per case: at the main menu, in a Rose
King game against the computer waiting for the human's first move (``game``), at Royals & Riots'
set-up screen (``royals-setup``) and at a Royals & Riots table against two computers waiting for
the person's choice of hand (``royals``), and at a network table hosted on 127.0.0.1 with a
computer seat, waiting for the host's choice of hand (``royals-lan``: the network thread included). Prints one line per case:
``menu: 0.8% of one core (0.12 s CPU in 15.0 s)``. Uses the dummy video driver unless
DISPLAY is set and ``--real`` is given (e.g. under Xvfb). Aim: at most 3%.

    python bench/idle.py [--seconds 15] [--warmup 5] [--real]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time


#: The screens measured, each in a fresh process.
CASES = ("menu", "game", "royals-setup", "royals", "royals-lan")


def measure(case: str, seconds: float, warmup: float) -> tuple[float, float]:
    import pygame

    from game.client.main import open_window
    from game.client.roseking.local_game import GameConfig
    from game.client.roseking.setup import start_game
    from game.roseking.engine import Color

    app = open_window()
    app.go_home()
    if case == "game":  # the person plays Red and moves first: the window waits for a click
        start_game(app, GameConfig((Color.WHITE, "easy"), seed=1))
    elif case == "royals-setup":
        from game.client.royals.setup import RoyalsSetup
        app.push(RoyalsSetup(app))
    elif case == "royals":  # the deal plays, then the table waits for the person's hand choice
        from game.client.royals.setup import start_match
        from game.royals.match import Seat, TableConfig
        start_match(app, TableConfig([Seat("You"), Seat("Ada", "easy"), Seat("Bram", "easy")], seed=1),
                    use_process=False)  # autosaved: closing asks nothing
    elif case == "royals-lan":  # hosting on 127.0.0.1 with a computer seat: the network table waits for us
        from game.client.lan import NetMatch
        from game.client.royals.lan import LanTableScene
        from game.royals.plugin import GAME
        from net.session import Session, Started
        session = Session(GAME.lan, "host", "You", address="127.0.0.1", port=0, kinds=("host", "computer"),
                          computers={1: "easy"})
        deadline = time.monotonic() + 10
        session.start()
        started = None
        while started is None and time.monotonic() < deadline:
            started = next((e for e in session.wait(0.1) if isinstance(e, Started)), None)
        while session.view(lambda m: m.turn_for(m.seat)) is None and time.monotonic() < deadline:
            session.wait(0.1)
        app.reset(LanTableScene(app, NetMatch(session, started)))
    marks: list[float] = []

    def clock() -> None:
        time.sleep(warmup)
        marks.append(time.process_time())
        time.sleep(seconds)
        marks.append(time.process_time())
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        time.sleep(0.5)
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # a second close answers "quit anyway?"

    threading.Thread(target=clock, daemon=True).start()
    app.run()
    used = marks[1] - marks[0]
    return used, 100 * used / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--real", action="store_true", help="use the real display ($DISPLAY), e.g. Xvfb")
    parser.add_argument("--case", choices=CASES, help="one case only (run in a fresh process)")
    args = parser.parse_args(argv)
    if args.case is None:  # each case in its own process: a fresh window, nothing left over
        import subprocess
        for case in CASES:
            subprocess.run([sys.executable, __file__, "--case", case, "--seconds", str(args.seconds),
                            "--warmup", str(args.warmup), *(["--real"] if args.real else [])], check=True)
        return 0
    if not args.real:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    config = tempfile.mkdtemp(prefix="rose-king-bench-")
    with open(os.path.join(config, "settings.json"), "w", encoding="utf-8") as f:
        f.write('{"version": 1, "language": "en", "tutorial_seen": true}')  # no tutorial over the game
    os.environ["ROSE_KING_CONFIG_DIR"] = config
    os.environ["ROSE_KING_DATA_DIR"] = tempfile.mkdtemp(prefix="rose-king-bench-saves-")
    used, percent = measure(args.case, args.seconds, args.warmup)
    print(f"{args.case}: {percent:.1f}% of one core ({used:.2f} s CPU in {args.seconds:g} s)")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(main())
