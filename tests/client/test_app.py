"""The loop, the scene stack, menus, pause, closing, resizing (headless)."""

from __future__ import annotations

import warnings

import pygame

from game.roseking.ai import LEVELS
from game.client.app import STEP
from game.client.dialogs import ConfirmDialog, PauseMenu
from game.client.roseking.game_scene import GameScene
from game.client.roseking.layout import CANVAS
from game.roseking.match import ComputerController
from game.client.menus import MainMenu
from game.client.roseking.setup import ComputerSetup
from game.client.scene import Scene
from game.roseking.engine import PLAY, Color


class Counter(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.updates = 0
        self.alphas = []

    def update(self, dt):
        assert dt == STEP
        self.updates += 1

    def draw(self, surface, alpha=1.0):
        self.alphas.append(alpha)


def test_fixed_timestep_accumulates_and_interpolates(app):
    c = Counter(app)
    app.push(c)
    app.step(STEP * 2.5)
    assert c.updates == 2 and abs(c.alphas[-1] - 0.5) < 1e-9
    app.step(STEP * 0.5)
    assert c.updates == 3 and abs(c.alphas[-1]) < 1e-9
    app.step(10.0)  # a stall is not caught up beyond MAX_FRAME
    assert c.updates == 3 + 15


def test_only_the_top_scene_updates_but_overlays_draw_on_top(app):
    below, above = Counter(app), Counter(app)
    above.opaque = False
    app.push(below)
    app.push(above)
    app.step(STEP)
    assert (below.updates, above.updates) == (0, 1)
    assert len(below.alphas) == 1 and len(above.alphas) == 1
    app.pop()
    app.step(STEP)
    assert below.updates == 1


def test_main_menu_to_game_against_computer(app, driver):
    app.push(MainMenu(app))
    app.step(STEP)
    menu = app.top
    driver.click(menu.buttons[1].rect.center)  # play the computer
    setup = app.top
    assert isinstance(setup, ComputerSetup)
    white = setup.buttons[1]
    driver.click(white.rect.center)  # I take White: the computer opens as Red
    level_buttons = setup.buttons[2:2 + len(LEVELS)]
    driver.click(level_buttons[list(LEVELS).index("greedy")].rect.center)
    assert setup.you is Color.WHITE and setup.level == "greedy"
    driver.click(setup.buttons[-1].rect.center)  # start
    game = app.top
    assert isinstance(game, GameScene)
    cpu = game.match.controllers[Color.RED]
    assert isinstance(cpu, ComputerController) and game.match.controllers[Color.WHITE].local_human
    # the computer thinks off the frame loop; frames keep coming until it has moved and the move is animated
    for _i in range(600):
        app.step(STEP)
        if game.match.state.ply >= 1 and not game.busy():
            break
    assert game.match.state.ply >= 1 and game.match.state.move_stack[0].player is Color.RED
    assert game.shown.state_hash() == game.match.state.state_hash()
    assert game.match.human_to_move()


def test_escape_pauses_and_resumes(app, driver, new_hotseat):
    scene = new_hotseat(1)
    driver.key(pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseMenu)
    speed = app.options.anim_speed
    driver.click(pause.buttons[1].rect.center)
    assert app.options.anim_speed != speed
    driver.click(pause.buttons[0].rect.center)
    assert app.top is scene


def test_closing_mid_game_asks_first(app, driver, new_hotseat):
    scene = new_hotseat(1)
    move = next(m for m in scene.match.state.legal_moves() if m.kind is PLAY)
    driver.play(move, via_square=True)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step(STEP)
    dialog = app.top
    assert isinstance(dialog, ConfirmDialog) and app.running
    driver.click(dialog.buttons[1].rect.center)  # stay
    assert app.top is scene and app.running and scene.match.state.ply == 1
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step(STEP)
    driver.click(app.top.buttons[0].rect.center)  # quit
    assert not app.running


def test_closing_with_no_game_in_progress_quits_at_once(app, driver):
    app.push(MainMenu(app))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step(STEP)
    assert not app.running


def test_pause_main_menu_asks_then_leaves(app, driver, new_hotseat):
    scene = new_hotseat(1)
    scene.on_main_menu = lambda: app.reset(MainMenu(app))
    move = next(m for m in scene.match.state.legal_moves() if m.kind is PLAY)
    driver.play(move, via_square=True)
    driver.key(pygame.K_ESCAPE)
    driver.click(app.top.buttons[2].rect.center)
    assert isinstance(app.top, ConfirmDialog)
    driver.click(app.top.buttons[0].rect.center)
    assert isinstance(app.top, MainMenu) and len(app.scenes) == 1
    assert scene._on_move not in scene.match.on_move  # the old game was closed


def test_resizing_keeps_the_canvas_and_clicks_land(app, driver, new_hotseat):
    scene = new_hotseat(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    for size in ((900, 560), (1600, 1000), (640, 400)):
        window.size = size
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        app.step(STEP)
        assert app.screen.get_size() == CANVAS
    window.size = (300, 200)  # below the minimum: SDL keeps the window at least 640x400
    assert window.size[0] >= 640 and window.size[1] >= 400
    driver.key(pygame.K_F11)  # the dummy driver cannot go full screen: the game goes on
    move = next(m for m in scene.match.state.legal_moves() if m.kind is PLAY)
    driver.play(move, via_square=True)
    assert scene.match.state.ply == 1


def test_unknown_arguments_are_refused_politely(capsys):
    from game.client.main import run
    assert run(["--bogus"]) == 2
    assert run(["a.json", "b.json"]) == 2
    assert "expected a record file" in capsys.readouterr().err


def test_frames_do_not_sleep(app, monkeypatch):
    """Stepped frames never wait: any sleep or frame-clock tick during them fails the test
    (a wall-clock bound would also fail on a merely busy machine)."""
    import time

    def no_wait(*args, **kwargs):
        raise AssertionError("run_frames waited")

    monkeypatch.setattr(time, "sleep", no_wait)
    monkeypatch.setattr(pygame.time, "wait", no_wait)
    monkeypatch.setattr(pygame.time, "delay", no_wait)
    monkeypatch.setattr(pygame.time, "Clock", no_wait)
    app.push(Counter(app))
    app.run_frames(120)
    assert app.frames == 120 and app.updates == 120


def test_the_window_caption_names_both_games_and_follows_the_language(app):
    from game.registry import GAMES
    assert [g.title for g in GAMES] == ["Rose King", "Royals & Riots"]
    assert pygame.display.get_caption()[0] == "Rose King & Royals & Riots"  # as the README names the app
    app.prefs.update(language="de")
    assert pygame.display.get_caption()[0] == "Rosenkönig & Royals & Riots"
    app.prefs.update(language="fr")  # the French title, not the German one
    assert pygame.display.get_caption()[0] == "Le Roi des Roses & Royals & Riots"
    app.prefs.update(language="en")
    assert pygame.display.get_caption()[0] == "Rose King & Royals & Riots"
    # a closed window's settings no longer touch the caption
    app.prefs.close()
    pygame.display.set_caption("other")
    from game import i18n
    i18n.set_language("nl")
    try:
        assert pygame.display.get_caption()[0] == "other"
    finally:
        i18n.set_language("en")


class FakeWindow:
    """A window the dummy video driver cannot be: it changes size and goes full screen, and, like
    SDL's, never gets smaller than its minimum size."""

    def __init__(self, size):
        self.position, self.fullscreen, self.minimum_size = (40, 30), False, (0, 0)
        self._size = size

    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, size):
        self._size = (max(size[0], self.minimum_size[0]), max(size[1], self.minimum_size[1]))


def test_f11_and_back_restores_the_window_size_it_had(app, monkeypatch):
    """Full screen and back gives the window its previous size (SDL's SCALED
    mode would give 1280x800), also when the full-screen setting turns it on and off."""
    window = FakeWindow((1000, 640))

    def toggle():  # what SDL's SCALED mode does by itself (seen under Xvfb)
        window.fullscreen = not window.fullscreen
        window.minimum_size = (1280, 800) if not window.fullscreen else window.minimum_size
        window.size = (1920, 1080) if window.fullscreen else (1280, 800)
    from game.client.app import App
    monkeypatch.setattr(App, "_window", staticmethod(lambda: window))
    monkeypatch.setattr(pygame.display, "toggle_fullscreen", toggle)
    monkeypatch.setattr(pygame.display, "is_fullscreen", lambda: window.fullscreen)
    f11 = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0, unicode="")
    app.handle_event(f11)
    assert window.fullscreen and app.prefs.settings.fullscreen
    window.position = (0, 0)
    app.handle_event(f11)
    assert not window.fullscreen and window.size == (1000, 640) and window.position == (40, 30)
    assert not app.prefs.settings.fullscreen
    window.size = (1100, 700)  # the player resized the window meanwhile: that size comes back
    app.prefs.update(fullscreen=True)
    app.prefs.update(fullscreen=False)
    assert window.size == (1100, 700)


def test_each_games_tab_shows_its_statistics_against_the_computer(app, monkeypatch, tmp_path):
    """Played, won, best score and streak per level on each game's tab, in the game's
    words for its levels; a damaged statistics file is said plainly there."""
    from game import stats
    from game.stats import StatsStore
    monkeypatch.setattr(app, "stats", StatsStore(tmp_path))
    app.stats.record("royals-riots", "hard", True, 17)
    app.stats.record("royals-riots", "hard", False, 9)
    app.stats.record("royals-riots", "greedy", True, 12)
    app.stats.record("rose-king", "expert", False, 40)
    app.prefs.update(game="rose-king")
    menu = MainMenu(app)
    assert menu.stats_lines() == ["Expert: 0 of 1 won · best 40 · streak 0"]
    app.prefs.update(game="royals-riots")
    menu = MainMenu(app)
    assert menu.stats_lines() == ["Casual: 1 of 1 won · best 12 · streak 1", "Hard: 1 of 2 won · best 17 · streak 0"]
    app.reset(menu)
    app.step(STEP)  # drawn under the buttons, clear of the footer
    (tmp_path / stats.FILE_NAME).write_text("{broken")
    monkeypatch.setattr(app, "stats", StatsStore(tmp_path))
    assert MainMenu(app).stats_lines() == [
        "The statistics file was damaged; what could be read is kept. A copy was kept as stats.broken.json."]
    monkeypatch.setattr(app, "stats", StatsStore(tmp_path / "fresh"))
    assert MainMenu(app).stats_lines()[0].startswith("No matches against the computer yet")


def test_a_game_against_the_computer_is_counted_when_it_ends_in_the_window(app, driver):
    """The one-line hook of a local game against the computer: its end counts once."""
    from game.client.roseking.local_game import GameConfig
    from game.client.roseking.setup import start_game
    app.options.anim_speed = 0  # no animation: only the count is at stake here
    start_game(app, GameConfig((Color.WHITE, "random"), seed=5, min_delay=0))
    scene = app.top
    assert isinstance(scene, GameScene)
    for _ in range(4000):
        if scene.match.state.is_game_over():
            break
        if scene.match.human_to_move() and not scene.busy():
            scene.input.submit(scene.shown.legal_moves()[0])
        app.step(STEP)
    assert scene.match.state.is_game_over()
    app.step(STEP)
    counted = app.stats.of("rose-king")
    assert list(counted) == ["random"] and counted["random"].played == 1


def test_a_royals_match_against_the_computer_is_counted_by_its_autosave_hook(app):
    """The one-line hook of a local Royals & Riots match: the autosave after its last action counts
    it (once) for its strongest computer level."""
    from game.client.royals.saving import autosaver
    from game.royals.match import Seat, TableConfig, TableMatch
    from tests.royals.helpers import random_match
    config = TableConfig([Seat("You"), Seat("Ada", "easy"), Seat("Bram", "hard")])
    unfinished = TableMatch.resume(config, random_match(5, 3, upto=50))
    hook = autosaver(unfinished, stats=app.stats)  # the window's own store, as the table's set-up hands it
    hook(unfinished)
    hook()
    assert app.stats.of("royals-riots") == {}
    state = random_match(5, 3)
    finished = TableMatch.resume(config, state)
    hook = autosaver(finished, stats=app.stats)
    hook(finished)
    hook(finished)  # the same match again (a redraw, an undo's autosave): counted once
    hook()
    counted = app.stats.of("royals-riots")
    assert list(counted) == ["hard"] and counted["hard"].played == 1
    assert counted["hard"].won == int(1 in state.outcome().winners)
