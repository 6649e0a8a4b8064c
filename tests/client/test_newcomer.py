"""The newcomer's fixes, the quiet idle loop and the move log
(headless, through the real event handlers)."""

from __future__ import annotations

import os
import signal

import pygame

from net.discovery import interface_addresses

from game import i18n
from game.client.app import STEP
from game.client.dialogs import PauseMenu
from game.client.roseking.board_draw import controller_label
from game.client.roseking.local_game import GameConfig, LocalGameScene, LocalPauseMenu, TextEntryDialog
from game.client.roseking.movelog import move_words, ply_infos
from game.client.roseking.result import ResultPanel
from game.client.roseking.setup import ComputerSetup, start_game
from game.roseking.engine import DRAW, PLAY, Color, Move, State
from game.saves import SaveStore

from .conftest import Driver


def first_play(state: State) -> Move:
    return next(m for m in state.legal_moves() if m.kind is PLAY)


def type_text(driver: Driver, text: str) -> None:
    for ch in text:
        driver.post(pygame.KEYDOWN, key=ord(ch), mod=0, unicode=ch, scancode=0)
        driver.post(pygame.TEXTINPUT, text=ch)
    driver.app.step(STEP)


# ---------------------------------------------------------------------- fixes
def test_typing_m_in_the_save_as_field_types_and_leaves_the_sound_alone(app, driver: Driver):
    start_game(app, GameConfig(None, seed=2))
    scene = app.top
    scene.pause()
    app.top.save_as()
    dialog = app.top
    assert isinstance(dialog, TextEntryDialog)
    app.step(STEP)
    sound = app.prefs.settings.sound
    dialog.field.text, dialog.field.cursor = "", 0
    type_text(driver, "mm")
    assert dialog.field.text == "mm" and app.prefs.settings.sound == sound and app.prefs.flash is None
    dialog.cancel()
    app.pop()  # the pause menu
    driver.key(pygame.K_m)  # with no field in use, M is the mute key again
    assert app.prefs.settings.sound != sound


def test_typing_m_in_the_lan_address_field_types(app, driver: Driver):
    from game.client.lan.lobby import LayerJoinScene
    app.push(LayerJoinScene(app, key="rose-king", listen=False))
    app.step(STEP)  # the screen is shown (the key that opened it types nothing), then the player types
    sound = app.prefs.settings.sound
    type_text(driver, "m")
    assert app.top.field.text == "m" and app.prefs.settings.sound == sound


def test_sigterm_mid_game_saves_and_exits_without_asking(app, driver: Driver):
    start_game(app, GameConfig(None, seed=4))
    scene = app.top
    driver.play(first_play(scene.shown), via_square=True)
    game_id = scene.game.meta.game_id
    old = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        app.install_signal_handlers()
        os.kill(os.getpid(), signal.SIGTERM)
        app.step(STEP)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    assert not app.running and app.signalled == signal.SIGTERM
    assert not any(type(s).__name__ == "ConfirmDialog" for s in app.scenes)
    while app.scenes:  # what App.run does once the loop ends: every scene closes, the game is written
        app.pop()
    store = SaveStore()
    assert store.path_for(game_id).exists()
    assert store.list()[0].plies == 1


def test_a_click_during_the_opponents_animation_finishes_it_and_then_acts(app, driver: Driver, new_hotseat):
    scene = new_hotseat(5)
    move = first_play(scene.shown)
    driver.click_square(scene.shown.target(move.card))
    assert scene.busy()  # Red's move is being animated
    reply = first_play(scene.match.state)  # White's move, clicked during the animation
    driver.click_square(scene.match.state.target(reply.card))
    assert scene.match.state.ply == 2 and scene.match.state.move_stack[-1] == reply


def test_the_computers_level_follows_the_language(app, driver: Driver):
    start_game(app, GameConfig((Color.WHITE, "hard"), seed=1, min_delay=0.0))
    cpu = app.top.match.controllers[Color.WHITE]
    assert controller_label(cpu) == "Computer · Hard"
    i18n.set_language("de")
    assert "Schwer" in controller_label(cpu) and "Hard" not in controller_label(cpu)


def test_replay_move_words_follow_the_language():
    s = State.random(__import__("game.roseking.engine", fromlist=["Rng"]).Rng(3))
    s.push(next(m for m in s.legal_moves() if m.kind is DRAW).with_outcome(s.chance_outcomes()[0])
           if any(m.kind is DRAW for m in s.legal_moves()) else first_play(s))
    s.push(next(m for m in s.legal_moves() if m.card is not None and m.card.direction == "NE")
           if any(m.card is not None and m.card.direction == "NE" for m in s.legal_moves()) else first_play(s))
    infos = ply_infos(s)
    english = [move_words(i) for i in infos]
    i18n.set_language("de")
    german = [move_words(i) for i in infos]
    assert english != german
    assert not any(w.startswith("draw ") or w.startswith("hero ") for w in german)


def test_level_picker_remembers_the_last_level(app, driver: Driver):
    setup = ComputerSetup(app)
    app.push(setup)
    easy = next(b for b in setup.buttons if b.text() == "Easy")
    driver.click(easy.rect.center)
    start = next(b for b in setup.buttons if b.text() == "Start")
    driver.click(start.rect.center)
    assert app.prefs.settings.of("rose-king").computer_level == "easy"
    assert ComputerSetup(app).level == "easy"


def test_result_panel_leaves_undo_and_hint_free_and_status_says_game_over(app, driver: Driver, new_hotseat):
    state = State.random(__import__("game.roseking.engine", fromlist=["Rng"]).Rng(11))
    from game.roseking.ai import RandomPlayer
    p = RandomPlayer(3)
    while not state.is_game_over():
        m = p.choose(state.copy())
        if m.card is None and m.kind is DRAW:
            m = m.with_outcome(state.chance_outcomes()[0])
        state.push(m)
    last = state.pop()
    start_game(app, GameConfig(None, seed=1))
    scene = app.top
    from game.client.roseking.local_game import LocalGame, play
    game = LocalGame(state, scene.game.meta, scene.match.controllers)
    scene = play(app, game, GameConfig(None))
    scene.banner = ("a pass", 2.0)
    scene.match.submit(last)
    for _i in range(400):
        app.step(STEP)
        if isinstance(app.top, ResultPanel):
            break
    panel = app.top
    assert isinstance(panel, ResultPanel)
    assert scene.banner is None
    for b in scene.buttons:
        assert not panel.rect.colliderect(b.rect), b.text()
    assert scene.finished()


def test_saved_to_is_good_news(app, driver: Driver, tmp_path):
    start_game(app, GameConfig(None, seed=2))
    scene = app.top
    scene.pause()
    menu = app.top
    assert isinstance(menu, LocalPauseMenu)
    menu.save_as()
    dialog = app.top
    dialog.field.text = str(tmp_path / "mine.json")
    dialog.accept()
    assert scene.toast is not None and "Saved to" in scene.toast[0] and scene.toast_ok


# ---------------------------------------------------------------------- a quiet window
def test_a_still_menu_draws_nothing_until_an_event(app, driver: Driver):
    app.go_home()
    app.run_frames(int(5 / STEP))  # the title's stones come to rest
    assert app.at_rest()
    drawn = app.renders
    app.run_frames(120)
    assert app.renders == drawn
    driver.move_mouse((640, 400))
    assert app.renders == drawn + 1


def test_a_game_waiting_for_the_human_goes_still_and_animations_run_at_full_rate(app, driver: Driver, new_hotseat):
    scene = new_hotseat(3)
    app.run_frames(int(4 / STEP))
    assert app.at_rest()
    drawn = app.renders
    app.run_frames(60)
    assert app.renders == drawn
    move = first_play(scene.shown)
    driver.click_square(scene.shown.target(move.card))
    before = app.renders
    app.run_frames(20)
    assert scene.busy() or scene.anim is None
    assert app.renders - before == 20  # every frame of the animation is drawn


# ---------------------------------------------------------------------- the move log
def test_move_log_lists_moves_in_words_and_clicking_one_shows_that_position(app, driver: Driver, new_hotseat):
    scene = new_hotseat(6)
    for _i in range(4):
        driver.play(first_play(scene.shown) if scene.shown.hands[scene.shown.turn] else
                    Move(scene.shown.turn, DRAW, None), via_square=True)
    app.step(STEP)
    log = scene.movelog
    assert [r.info.number for r in log.rows if r.pass_of is None] == [1, 2, 3, 4]
    before = scene.match.state.copy()
    driver.click(log.row_center(2))
    assert scene.peek == 2 and scene.peek_state.ply == 2
    app.step(STEP)  # draws the old position without touching the game
    assert scene.match.state == before and scene.shown.ply == 4
    driver.key(pygame.K_ESCAPE)
    assert scene.peek is None and not isinstance(app.top, PauseMenu)


def test_the_last_action_stays_marked(app, driver: Driver, new_hotseat):
    scene = new_hotseat(6)
    move = first_play(scene.shown)
    crown = scene.shown.crown
    driver.play(move, via_square=True)
    info = scene.last_info(scene.shown)
    assert info is not None and info.move == move and info.crown_from == crown
    assert info.crown_to == scene.shown.crown


# ---------------------------------------------------------------------- open any game file
def _unfinished_file(tmp_path, plies: int = 3):
    from game.roseking.engine import Record, Rng
    s = State.random(Rng(21))
    for _i in range(plies):
        s.push(first_play(s))
    path = tmp_path / "mine.json"
    path.write_text(Record.from_state(s, red="Ann", white="Bob").to_json())
    return path, s


def test_rose_king_FILE_resumes_an_unfinished_game(tmp_path, monkeypatch):
    from game.client.app import App
    from game.client.main import run
    tops = []

    def fake_run(self):
        tops.append(self.top)
        while self.scenes:
            self.pop()
        pygame.display.quit()
        return 0
    monkeypatch.setattr(App, "run", fake_run)
    path, state = _unfinished_file(tmp_path)
    assert run([str(path)]) == 0
    assert isinstance(tops[-1], LocalGameScene) and tops[-1].match.state.move_stack == state.move_stack
    from game.client.roseking.replay_view import ReplayScene
    assert run(["--replay", str(path)]) == 0 and isinstance(tops[-1], ReplayScene)  # replay: one word away


def test_saved_games_opens_any_file_by_its_path(app, driver: Driver, tmp_path):
    from game.client.saved_games import OpenFileDialog, SavedGamesScene
    path, state = _unfinished_file(tmp_path)
    app.go_home()
    app.push(SavedGamesScene(app))
    opener = next(b for b in app.top.buttons if b.text() == "Open a file…")
    driver.click(opener.rect.center)
    dialog = app.top
    assert isinstance(dialog, OpenFileDialog)
    dialog.field.text = str(tmp_path) + os.sep
    app.step(STEP)
    assert [p.name for p in dialog.files] == ["mine.json"]  # the folder's game files, to click
    driver.click(dialog.rows[0].rect.center)
    assert isinstance(app.top, LocalGameScene) and app.top.match.state.move_stack == state.move_stack


def test_broken_files_sort_after_the_good_ones(app, tmp_path):
    from game.client.saved_games import SavedGamesScene
    store = SaveStore()
    store.folder.mkdir(parents=True, exist_ok=True) if hasattr(store, "folder") else None
    start_game(app, GameConfig(None, seed=2))
    app.top.match.submit(first_play(app.top.match.state))
    app.top.game.saver.flush(5)
    folder = store.path_for(app.top.game.meta.game_id).parent
    (folder / "zz-broken.json").write_text("{")
    scene = SavedGamesScene(app, store)
    assert [e.ok for e in scene.entries] == [True, False]


def test_check_and_the_window_word_a_bad_file_the_same(tmp_path, capsys):
    from game.cli import main as commands_main
    from game.saves import SaveError, read_json_record
    good = '{"format": "rose-king-record", "version": 1, "red": "Ann", "deal": {"red": ["N1"'
    files = {"empty.json": b"", "truncated.json": good.encode(), "binary.json": b"\x00\x01\x02",
             "foreign.json": b'{"name": "x"}', "list.json": b"[1, 2]", "huge.json": b" " * (2 << 20)}
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        try:
            read_json_record(path)
        except SaveError as e:
            window = str(e)
        else:
            raise AssertionError(f"{name} was read")
        commands_main(["check", str(path)])
        out = capsys.readouterr()
        assert f"{path}: error: {window}" in out.out + out.err, name
    assert "cut short" in str(pytest_raises(read_json_record, tmp_path / "truncated.json"))


def pytest_raises(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001
        return e
    return None


def test_joining_where_nobody_hosts_says_so_within_two_seconds_and_can_be_cancelled(app, driver: Driver):
    import socket
    from game.client.lan.lobby import LayerJoinScene, LobbyScene
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    join = LayerJoinScene(app, key="rose-king", listen=False)
    app.push(join)
    join.join("127.0.0.1", port)  # the probe finds nobody: the tab's game keeps knocking there
    for _i in range(600):
        if isinstance(app.top, LobbyScene):
            break
        app.step(STEP)
    lobby = app.top
    assert isinstance(lobby, LobbyScene)
    app.run_frames(int(2.0 / STEP) + 2)
    text = lobby.nobody_answers()
    assert text is not None and f"127.0.0.1:{port}" in text and "Still trying" in text
    driver.key(pygame.K_ESCAPE)
    assert app.top is join and lobby.session is None


def test_the_window_cannot_shrink_below_a_sensible_size(app):
    import warnings
    from game.client.app import MIN_WINDOW
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    assert tuple(window.minimum_size) == MIN_WINDOW
    window.size = (200, 120)
    app.step(STEP)
    app.keep_minimum_size()
    assert window.size[0] >= MIN_WINDOW[0] and window.size[1] >= MIN_WINDOW[1]


def test_the_host_reads_out_every_interface_address_without_sending(monkeypatch):
    import socket
    from game.client import lan_common as lan

    def no_send(*args, **kwargs):
        raise AssertionError("finding our addresses must send nothing")
    monkeypatch.setattr(socket.socket, "sendto", no_send)
    monkeypatch.setattr(socket.socket, "send", no_send)
    found = lan.local_addresses()
    assert found[-1] == "127.0.0.1" and len(found) == len(set(found))
    for addr in interface_addresses():
        assert addr in found
    # a host bound to one address can be reached there only (127.0.0.1 with --loopback)
    assert lan.local_addresses("127.0.0.1") == ["127.0.0.1"] and lan.local_addresses("0.0.0.0") == found


def test_a_resumed_games_replay_is_one_click_away(app, driver: Driver, tmp_path):
    from game.client.roseking.replay_view import ReplayScene
    from game.client.saved_games import open_file
    path, state = _unfinished_file(tmp_path)
    assert open_file(app, str(path)) is None
    scene = app.top
    driver.key(pygame.K_ESCAPE)
    watch = next(b for b in app.top.buttons if b.text() == "Watch the replay")
    driver.click(watch.rect.center)
    viewer = app.top
    assert isinstance(viewer, ReplayScene) and viewer.replay.length == state.ply
    driver.key(pygame.K_ESCAPE)
    assert isinstance(app.top, LocalPauseMenu) and scene in app.scenes
