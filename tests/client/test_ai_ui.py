"""The hint, computer opponents in worker processes, friendly level names.

Searches run with tiny iteration budgets (no wall-clock budget) so the tests are
fast and do not depend on the machine's speed. Waiting for a worker's answer
steps the app frame by frame until the answer is there (bounded by a deadline).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pygame
import pytest

from game.roseking.ai import LEVELS, Thinker, make_player
from game.client.app import STEP
from game.client.roseking.game_scene import GameScene
from game.client.roseking.hint import HINT_COLOR, Hint, hint_text
from game.client.roseking.layout import DRAW_PILE_RECT, square_rect
from game.roseking.match import ComputerController, HumanController, Match, local_match
from game.client.menus import MainMenu
from game.client.roseking.setup import ComputerSetup, start_game
from game.client.roseking.local_game import GameConfig
from game.client.roseking.result import ResultPanel
from game.client.roseking.thinking import WORKER_NICE, BackgroundThinker, computer_thinker
from game.roseking.engine import DRAW, PLAY, Color, Rng, State
from game.roseking.phrases import level_name

TINY = dict(seconds=None, iterations=24)


def step_until(app, done, limit: float = 30.0) -> int:
    """Step frames until ``done()`` (a worker process answers in its own time). Returns frames run."""
    deadline = time.monotonic() + limit
    frames = 0
    while not done():
        assert time.monotonic() < deadline, "gave up waiting"
        app.step(STEP)
        frames += 1
        time.sleep(0.002)
    return frames


def hint_game(app, seed: int = 5) -> GameScene:
    match = local_match(HumanController("P1"), HumanController("P2"), seed)
    scene = GameScene(app, match, on_new_game=lambda: None, on_main_menu=lambda: None, hint=Hint(seed=1, **TINY))
    app.reset(scene)
    app.step(STEP)
    return scene


def worker_pids(*thinkers) -> list[int]:
    out = []
    for t in thinkers:
        inner = t._inner if isinstance(t, BackgroundThinker) else t
        if inner is not None and hasattr(inner, "worker"):
            out.append(inner.worker.pid)
    return out


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# ---------------------------------------------------------------- hint
def test_hint_key_shows_a_legal_suggestion_without_blocking(app, driver):
    scene = hint_game(app)
    hint = scene.hint
    driver.key(pygame.K_h)
    # the key returned within its frame: the search runs elsewhere and says so
    assert hint.thinking and hint.move is None
    frames = step_until(app, lambda: hint.move is not None)
    assert frames >= 1  # frames kept coming while it searched
    assert not hint.thinking
    state = scene.match.state
    assert hint.move in state.legal_moves() and hint.move.player is state.turn
    # it is shown: the target square (or the draw pile) has the hint's blue rim, and a line names the move
    app.step(STEP)
    if hint.move.kind is DRAW:
        r = DRAW_PILE_RECT.inflate(16, 16)
    else:
        r = square_rect(state.target(hint.move.card)).inflate(-4, -4)
    assert tuple(app.screen.get_at((r.centerx, r.top + 1)))[:3] == HINT_COLOR
    assert hint_text(hint.move, state).startswith("Suggestion:")


def test_hint_button_and_a_move_cancel_it(app, driver):
    scene = hint_game(app, seed=6)
    hint = scene.hint
    button = next(b for b in scene.buttons if b.action == scene.ask_hint)
    driver.click(button.rect.center)
    assert hint.thinking and hint.requests == 1
    driver.key(pygame.K_h)  # asking again for the same position keeps the running search
    assert hint.requests == 1
    move = next(m for m in scene.match.state.legal_moves() if m.kind is PLAY)
    driver.play(move, via_square=True)  # the player moves before the answer comes
    assert not hint.thinking and hint.move is None
    for _i in range(30):  # a late answer for the old position never shows up
        app.step(STEP)
        time.sleep(0.002)
    assert hint.move is None and not hint.thinking
    # the next player asks, gets an answer, then moves: the suggestion is taken down
    driver.key(pygame.K_h)
    step_until(app, lambda: hint.move is not None)
    assert hint.move in scene.match.state.legal_moves()
    driver.play(hint.move, via_square=True)
    assert hint.move is None and not hint.thinking
    assert scene.match.state.ply == 2


def test_hint_is_only_for_a_local_person_to_move(app, driver):
    match = local_match(ComputerController(None, "cpu", 0, thinker=computer_thinker("greedy", 1)),  # type: ignore[arg-type]
                        HumanController("me"), seed=3)
    scene = GameScene(app, match, on_new_game=lambda: None, on_main_menu=lambda: None, hint=Hint(**TINY))
    app.reset(scene)
    scene.ask_hint()  # the computer is to move
    assert scene.toast and "your own turn" in scene.toast[0]
    assert not scene.hint.thinking and scene.hint._thinker is None  # no worker was started for nothing


def test_no_hint_button_without_a_hint():
    """LAN and replay screens build a GameScene without one; nothing changes for them."""
    assert "hint" in GameScene.__init__.__code__.co_varnames
    assert GameScene.__init__.__defaults__[-1] is None


def test_closing_the_game_stops_the_hint_worker(app, driver):
    scene = hint_game(app)
    driver.key(pygame.K_h)
    step_until(app, lambda: scene.hint.move is not None)
    pids = worker_pids(scene.hint._thinker)
    assert len(pids) == 1 and not gone(pids[0])
    app.reset(MainMenu(app))  # back to the menu: the scene closes
    assert gone(pids[0])


# ---------------------------------------------------------------- computer opponents in worker processes
def test_computer_game_with_process_thinkers_finishes_and_leaves_no_process(app):
    app.options.anim_speed = 0  # moves appear at once; the game is about the thinkers
    red = computer_thinker("hard", seed=1, **TINY)
    white = computer_thinker("medium", seed=2, seconds=None, iterations=60)
    assert isinstance(red, BackgroundThinker) and isinstance(white, BackgroundThinker)
    match = local_match(ComputerController(None, "hard", 0, thinker=red),  # type: ignore[arg-type]
                        ComputerController(None, "medium", 0, thinker=white), seed=11)  # type: ignore[arg-type]
    scene = GameScene(app, match, on_new_game=lambda: None, on_main_menu=lambda: None)
    app.reset(scene)
    step_until(app, lambda: isinstance(app.top, ResultPanel), limit=120)
    assert match.state.is_game_over()
    replay = State(*match.state.deal)
    for move in match.state.move_stack:  # every move the workers made was legal in its position
        replay.push_checked(move)
    pids = worker_pids(red, white)
    assert len(pids) == 2
    app.reset(MainMenu(app))
    assert all(gone(p) for p in pids)
    assert multiprocessing.active_children() == []


def test_quitting_while_hard_thinks_leaves_no_process(app, driver):
    config = GameConfig((Color.RED, "hard"), seed=3, min_delay=0, seconds=30.0)  # it would think for 30 s
    start_game(app, config)
    scene = app.top
    cpu = scene.match.controllers[Color.RED]
    step_until(app, lambda: cpu.thinker.ready)
    pid = worker_pids(cpu.thinker)[0]
    for _i in range(5):
        app.step(STEP)
    assert scene.match.state.ply == 0 and not gone(pid)  # it is searching
    app.quit()
    t0 = time.monotonic()
    assert app.run() == 0  # the loop ends, closes every scene, quits pygame
    assert time.monotonic() - t0 < 5  # the search was cancelled, not waited for
    assert gone(pid) and multiprocessing.active_children() == []
    pygame.display.init()  # for the fixture's own clean-up


def test_the_game_goes_on_if_the_worker_is_killed(app):
    app.options.anim_speed = 0
    thinker = computer_thinker("hard", seed=2, seconds=20.0)  # a long search, so it dies while searching
    match = local_match(ComputerController(None, "hard", 0, thinker=thinker),  # type: ignore[arg-type]
                        HumanController("me"), seed=8)
    app.reset(GameScene(app, match, on_new_game=lambda: None, on_main_menu=lambda: None))
    step_until(app, lambda: thinker.ready)
    for _i in range(3):
        app.step(STEP)
    os.kill(worker_pids(thinker)[0], signal.SIGKILL)
    thinker._fallback = lambda: Thinker(make_player("hard", 2, iterations=24, seconds=None))  # quick stand-in
    step_until(app, lambda: match.state.ply == 1)  # the computer still moves, from a thread now
    assert "died" in thinker.fell_back  # (the match checked the move: push_checked)


def test_the_worker_yields_the_cpu_to_the_window():
    t = computer_thinker("medium", seed=1, **TINY)
    try:
        t.start(State.random(Rng(1)))
        deadline = time.monotonic() + 30
        while t.poll() is None:  # answered: the worker is up and has lowered its priority
            assert time.monotonic() < deadline
            time.sleep(0.005)
        pid = worker_pids(t)[0]
        # (the kernel stops at 19: a test run under `nice -n 15` sees 19, not 20)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICE)
    finally:
        t.close()


def test_quitting_before_the_worker_is_up_leaves_no_process():
    t = computer_thinker("hard", seed=1, **TINY)
    t.start(State.random(Rng(1)))
    t.close()  # most likely still starting: close waits for the build and stops it
    assert multiprocessing.active_children() == []


# ---------------------------------------------------------------- the computer set-up
def test_setup_shows_friendly_names_and_starts_on_the_settings_level(app, driver):
    app.prefs.store.update_game("rose-king", computer_level="hard")  # the "Default computer level" setting
    setup = ComputerSetup(app)
    app.push(setup)
    app.step(STEP)
    assert setup.level == "hard"
    labels = [b.text() for b in setup.buttons[2:2 + len(LEVELS)]]
    assert labels == [level_name(lv) for lv in LEVELS]
    assert "Beginner" in labels and not any(lv in labels for lv in ("random", "greedy"))
    driver.click(setup.buttons[2].rect.center)  # the first (weakest) level
    assert setup.level == list(LEVELS)[0]
    assert app.prefs.settings.of("rose-king").computer_level == "hard"  # choosing a level for one game keeps the default


@pytest.mark.parametrize("content", ['{"computer_level": "grandmaster"}', "not json"])
def test_setup_falls_back_to_medium_on_a_bad_setting(app, tmp_path, monkeypatch, content):
    (tmp_path / "settings.json").write_text(content)
    from game.settings import SettingsStore
    from game.client.roseking.levels import default_level
    assert default_level(SettingsStore(directory=tmp_path)) == "medium"


def test_new_game_against_medium_thinks_in_a_worker(app):
    config = GameConfig((Color.WHITE, "medium"), seed=4, min_delay=0, seconds=None, iterations=20)
    match: Match = local_match(*config.controllers(), config.next_seed())
    try:
        cpu = match.controllers[Color.WHITE]
        assert isinstance(cpu.thinker, BackgroundThinker)
        assert cpu.label == "Computer · " + level_name("medium")
    finally:
        match.close()
