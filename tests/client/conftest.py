"""Fixtures for the client tests: a headless App and a driver that clicks like a person.

The driver posts real pygame events (MOUSEMOTION, MOUSEBUTTONDOWN/UP) at square and
card centres onto the event queue and steps the app frame by frame (no sleeping).
"""

from __future__ import annotations

import pygame
import pytest

from game.client.app import STEP, App
from game.client.main import open_window
from game.client.roseking.game_scene import GameScene
from game.client.roseking.layout import DRAW_PILE_RECT, square_center
from game.roseking.match import HumanController, Match, local_match
from game.client.scene import ViewOptions
from game.roseking.engine import DRAW, HERO, Move


class Driver:
    """Clicks on an :class:`App` and steps it; ``game`` is the GameScene on the stack."""

    def __init__(self, app: App) -> None:
        self.app = app

    @property
    def game(self) -> GameScene:
        for scene in reversed(self.app.scenes):
            if isinstance(scene, GameScene):
                return scene
        raise LookupError("no game on the scene stack")

    def post(self, type_: int, **attrs) -> None:
        pygame.event.post(pygame.event.Event(type_, **attrs))

    def move_mouse(self, pos) -> None:
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        self.app.step(STEP)

    def click(self, pos, button: int = 1) -> None:
        """Move there, press and release, then run one frame."""
        pos = (int(pos[0]), int(pos[1]))
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
        self.app.step(STEP)

    def key(self, key: int) -> None:
        self.post(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)
        self.post(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0)
        self.app.step(STEP)

    def click_square(self, sq: int) -> None:
        self.click(square_center(sq))

    def click_card(self, color, card) -> None:
        self.click(self.game.drawing.card_center(color, card))

    def click_draw_pile(self) -> None:
        self.click(DRAW_PILE_RECT.center)

    def settle(self, max_frames: int = 3000) -> None:
        """Run frames until no animation runs or waits (each frame 1/60 s)."""
        for _i in range(max_frames):
            if not self.game.busy():
                return
            self.app.step(STEP)
        raise AssertionError("animations did not finish")

    def play(self, move: Move, via_square: bool = False) -> None:
        """Make ``move`` (from ``legal_moves()``) with the mouse as a person would, then settle.

        Play: click the card then its target (or the target square alone with ``via_square``).
        Hero: click the target square, then confirm with a second click. Draw: click the pile.
        """
        g = self.game
        state = g.shown
        if move.kind is DRAW:
            self.click_draw_pile()
        elif move.kind is HERO:
            sq = state.target(move.card)
            before = g.match.state.ply
            self.click_square(sq)
            assert g.match.state.ply == before, "a hero move must not happen on the first click"
            assert g.armed == move.card
            self.click_square(sq)
        elif via_square:
            self.click_square(state.target(move.card))
        else:
            self.click_card(state.turn, move.card)
            assert g.selected == move.card
            self.click_square(state.target(move.card))
        self.settle()


@pytest.fixture(autouse=True)
def private_settings(tmp_path_factory, monkeypatch):
    """Settings in a fresh temporary folder (never the real home), English first, no listeners left behind."""
    from game import i18n
    from game.settings import ENV_CONFIG_DIR
    folder = tmp_path_factory.mktemp("config")
    # a returning English player: the first-game tutorial would otherwise cover every new game
    (folder / "settings.json").write_text('{"version": 1, "language": "en", "tutorial_seen": true}', encoding="utf-8")
    monkeypatch.setenv(ENV_CONFIG_DIR, str(folder))
    listeners = list(i18n._listeners)
    yield
    i18n._listeners[:] = listeners
    i18n.set_language("en")


@pytest.fixture
def app():
    a = open_window(ViewOptions(), vsync=False)
    pygame.event.clear()
    yield a
    while a.scenes:
        a.pop()
    a.prefs.close()
    pygame.event.clear()
    pygame.display.quit()  # each test gets a fresh window


@pytest.fixture
def driver(app) -> Driver:
    return Driver(app)


def hotseat(app: App, seed: int = 1, state=None) -> GameScene:
    """Put a two-people game on ``app`` (dealt with ``seed``, or from ``state``) and return its scene."""
    match = local_match(HumanController("P1"), HumanController("P2"), seed)
    if state is not None:
        match = Match(state, match.controllers, match.chance)
    scene = GameScene(app, match, on_new_game=lambda: hotseat(app, seed + 1), on_main_menu=lambda: None)
    app.reset(scene)
    return scene


@pytest.fixture
def new_hotseat(app):
    def make(seed: int = 1, state=None) -> GameScene:
        return hotseat(app, seed, state)
    return make


@pytest.fixture(autouse=True)
def _own_settings_folder(tmp_path, monkeypatch):
    """Screens that read the player's settings (the default computer level) read a fresh folder, never the home one."""
    monkeypatch.setenv("ROSE_KING_CONFIG_DIR", str(tmp_path / "config"))
