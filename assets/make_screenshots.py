"""Screenshots of each game for the README (issue 35), taken from the real window.

    python assets/make_screenshots.py             # rewrite docs/screenshots/*.png
    python assets/make_screenshots.py OUT_DIR     # write elsewhere

It opens the app's own window (``game.client.main.open_window``), resumes a game of each game
the way "Continue" does (``ClientGame.resume`` on a save file) and saves the window's drawn
frame with ``pygame.image.save``: what a player sees, never a mock-up. The positions come from
the games' own computer players with fixed seeds, so the same code gives the same pictures:
Rose King after 18 moves of two medium-strength players, the person (red) to move; Royals &
Riots in round 1 with two cards in the trick and the person's hand to play from.

It runs headless with SDL's dummy video driver unless ``SDL_VIDEODRIVER`` says otherwise (under
Xvfb: ``Xvfb :99 & DISPLAY=:99 SDL_VIDEODRIVER=x11 python assets/make_screenshots.py``). The
settings and saves live in a temporary folder, English, no tutorial: a player's own are never
read or touched.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "docs" / "screenshots"
#: Frames (of 1/60 s) given to a scene to come to rest before the picture is taken.
SETTLE_FRAMES = 600


def rose_king_save(folder: Path) -> Path:
    """A game against the computer after 18 moves, red (the person) to move."""
    from game.roseking.ai import LEVELS
    from game.roseking.engine import Color, Rng, State
    from game.roseking.saves import GameMeta
    from game.roseking.undo import DeckChance

    meta = GameMeta("screenshot-rose-king", "computer", "You", "Computer", "2026-11-27T08:00:00Z",
                    computer_level="medium", computer_color=Color.WHITE, chance_seed=20261127)
    state = State.random(Rng(7))
    chance = DeckChance(meta.chance_seed)
    players = [LEVELS["easy"](seed=1), LEVELS["easy"](seed=2)]
    while state.ply < 18 or state.turn != Color.RED:
        move = players[state.turn].choose(state)
        if move.card is None:  # a draw: its card comes from the game's hidden pile order
            move = move.with_outcome(chance.outcome(state))
        state.push_checked(move)
    path = folder / f"{meta.game_id}.json"
    path.write_text(meta.record(state).to_json(), encoding="utf-8")
    return path


def royals_save(folder: Path) -> Path:
    """A match of three (the person and two easy computers) in round 1, two cards in the trick,
    the person to play."""
    from game.rng import Rng
    from game.royals.ai.levels import make_player
    from game.royals.engine import Phase, Record, State

    names = ["You", "Ada", "Bram"]
    rng = Rng(11)
    state = State(3, False)
    players = {seat: make_player("easy", seed=seat, seconds=None, iterations=50) for seat in (1, 2, 3)}
    while not (state.phase is Phase.PLAY and state.to_act == 1 and len(state.trick) == 2 and state.trick_no >= 3):
        event = state.chance()
        action = event.sample(rng) if event is not None else players[state.to_act].choose(
            state.observation(state.to_act))
        state.push_checked(action)
    record = Record.from_state(state, names, date="2026-11-27T08:00:00Z").to_dict()
    record.update({"game_id": "screenshot-royals", "kind": "local", "chance_seed": 4242, "starter": 0,
                   "seats": [{"name": "You", "level": None}, {"name": "Ada", "level": "easy"},
                             {"name": "Bram", "level": "easy"}]})
    path = folder / "screenshot-royals.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def shoot(app, key: str, save: Path, out: Path) -> Path:
    """Resume ``save`` in the window as "Continue" would, let it settle, save the frame as ``out``."""
    import pygame

    from game.client.games import client_by_key

    app.go_home()
    client_by_key(key).resume(app, save)
    for _ in range(SETTLE_FRAMES):
        app.step(1 / 60)
        if app.at_rest():
            break
    app.redraw()
    app.step(1 / 60)
    pygame.image.save(app.screen, str(out))
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT_DIR
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    home = Path(tempfile.mkdtemp(prefix="rose-king-shots-"))
    os.environ["ROSE_KING_CONFIG_DIR"] = str(home / "config")
    os.environ["ROSE_KING_DATA_DIR"] = str(home / "data")
    (home / "config").mkdir()
    (home / "config" / "settings.json").write_text(json.dumps(
        {"version": 2, "language": "en", "sound": False, "games": {"rose-king": {"tutorial_seen": True}}}))
    sys.path.insert(0, str(ROOT))
    from game.client.main import open_window

    app = open_window(vsync=False)
    saves = home / "data" / "saves"
    saves.mkdir(parents=True)
    made = [shoot(app, "rose-king", rose_king_save(saves), out / "rose-king.png"),
            shoot(app, "royals-riots", royals_save(saves), out / "royals-riots.png")]
    while app.scenes:
        app.pop()
    app.prefs.close()
    shutil.rmtree(home, ignore_errors=True)
    for path in made:
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
