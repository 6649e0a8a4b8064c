"""Autosave, Continue, undo, the saved-games list, the replay viewer,
"Save as…", opening a record from the command line (headless, posted events)."""

from __future__ import annotations

import json
import threading

import pygame
import pytest

from game.roseking.ai import RandomPlayer
from game.client.app import STEP
from game.client.main import run
from game.client.dialogs import ConfirmDialog
from game.client.roseking.local_game import LocalGame, LocalGameScene, LocalPauseMenu, TextEntryDialog, play
from game.roseking.match import ComputerController
from game.client.menus import MainMenu
from game.client.roseking.setup import start_game
from game.client.roseking.local_game import GameConfig
from game.client.roseking.replay_view import LIST_RECT, TIMELINE_RECT, ReplayScene
from game.client.saved_games import MessageDialog, SavedGamesScene
from game.roseking.engine import DRAW, PLAY, Color, Move, Record, Rng, State
from game.roseking.saves import GameMeta
from game.saves import SaveStore

from .conftest import Driver


def button(scene, label: str):
    """The button of ``scene`` whose English label is ``label``."""
    for b in scene.buttons:
        if not callable(b.label) and b.label == label:
            return b
    raise LookupError(f"no button {label!r} in {type(scene).__name__}: {[b.text() for b in scene.buttons]}")


def first_play(state: State) -> Move:
    return next(m for m in state.legal_moves() if m.kind is PLAY)


def saved_moves(store: SaveStore, game_id: str) -> list[str]:
    return json.loads(store.path_for(game_id).read_text())["moves"]


def finished_record(seed: int) -> Record:
    rng = Rng(seed)
    s = State.random(rng)
    while not s.is_game_over():
        m = rng.choice(s.legal_moves())
        if m.card is None:
            m = m.with_outcome(rng.choice(s.chance_outcomes()))
        s.push(m)
    return Record.from_state(s, red="Ann", white="Bob")


def wait_for(app, cond, frames: int = 900) -> None:
    for _i in range(frames):
        if cond():
            return
        app.step(STEP)
    raise AssertionError("condition not reached")


# ---------------------------------------------------------------------- autosave and resume
def test_every_move_is_autosaved_and_continue_resumes_it(app, driver: Driver):
    app.push(MainMenu(app))
    assert app.top.buttons[0].key != pygame.K_c  # nothing saved yet
    start_game(app, GameConfig(None, seed=3))
    scene = app.top
    assert isinstance(scene, LocalGameScene)
    store = SaveStore()
    for n in range(1, 4):
        move = next((m for m in scene.shown.legal_moves() if m.kind is DRAW and n == 2), first_play(scene.shown))
        driver.play(move, via_square=True)
        assert scene.game.saver.flush(5)
        assert len(saved_moves(store, scene.game.meta.game_id)) == n  # saved after each move
    played = list(scene.match.state.move_stack)
    game_id = scene.game.meta.game_id
    driver.key(pygame.K_ESCAPE)
    driver.click(button(app.top, "Main menu").rect.center)
    confirm = app.top
    assert isinstance(confirm, ConfirmDialog) and "saved" in confirm.question
    driver.click(confirm.buttons[0].rect.center)
    menu = app.top
    assert isinstance(menu, MainMenu) and menu.buttons[0].key == pygame.K_c
    stones = scene.match.state.stones_left
    assert menu.buttons[0].text() == f"Continue: Player 1 – Player 2, 3 moves · {stones} stones left"
    driver.key(pygame.K_TAB)  # Royals & Riots' tab: no match of it to continue
    assert app.top.game.key == "royals-riots" and app.top.buttons[0].key != pygame.K_c
    driver.key(pygame.K_TAB)
    menu = app.top
    assert menu.game.key == "rose-king" and menu.buttons[0].key == pygame.K_c
    driver.click(menu.buttons[0].rect.center)
    resumed = app.top
    assert isinstance(resumed, LocalGameScene) and resumed.game.meta.game_id == game_id
    assert resumed.match.state.move_stack == played and resumed.shown.move_stack == played
    driver.play(first_play(resumed.shown), via_square=True)  # and it plays on, saving to the same file
    assert resumed.game.saver.flush(5) and len(saved_moves(store, game_id)) == 4


def test_resume_against_the_computer_keeps_side_and_level(app, driver: Driver):
    start_game(app, GameConfig((Color.WHITE, "random"), seed=8, min_delay=0.0))
    scene = app.top
    driver.play(first_play(scene.shown), via_square=True)
    wait_for(app, lambda: scene.match.state.ply >= 2 and not scene.busy())
    played = list(scene.match.state.move_stack)
    app.reset(MainMenu(app))  # closing the scene flushes the autosave
    driver.click(app.top.buttons[0].rect.center)
    resumed = app.top
    assert resumed.match.state.move_stack == played
    cpu = resumed.match.controllers[Color.WHITE]
    assert isinstance(cpu, ComputerController) and resumed.match.controllers[Color.RED].local_human
    assert resumed.game.meta.kind == "computer" and resumed.game.meta.computer_level == "random"


def test_closing_the_window_says_the_game_is_saved(app, driver: Driver):
    start_game(app, GameConfig(None, seed=1))
    scene = app.top
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step(STEP)
    assert not app.running  # nothing played yet: nothing to ask about
    app.running = True
    driver.play(first_play(scene.shown), via_square=True)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step(STEP)
    assert isinstance(app.top, ConfirmDialog) and app.top.question == "Your game is saved; quit?"


def test_a_failing_disk_is_said_and_quitting_warns(app, driver: Driver, monkeypatch):
    start_game(app, GameConfig(None, seed=1))
    scene = app.top

    def refuse(self, game_id, text):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(SaveStore, "write", refuse)
    driver.play(first_play(scene.shown), via_square=True)
    scene.game.saver.flush(5)
    app.step(STEP)
    assert scene.toast and scene.toast[0] == "The game could not be saved: the disk is full"
    assert scene.unsaved_game() and "could not be saved" in scene.quit_question()


@pytest.mark.parametrize("language, expected", [
    ("de", "Die Partie konnte nicht gespeichert werden: der Datenträger ist voll"),
    ("nl", "De partij kon niet worden opgeslagen: de schijf is vol"),
    ("fr", "La partie n’a pas pu être enregistrée\u00a0: le disque est plein")])
def test_a_failing_disk_is_said_in_the_players_language(app, driver: Driver, monkeypatch, language, expected):
    """The autosave's OSError reaches the toast as a phrase of the player's language, never the
    operating system's English ("No space left on device")."""
    import errno

    from game import i18n
    i18n.set_language(language)
    try:
        start_game(app, GameConfig(None, seed=1))
        scene = app.top

        def refuse(self, game_id, text):
            raise OSError(errno.ENOSPC, "No space left on device")
        monkeypatch.setattr(SaveStore, "write", refuse)
        driver.play(first_play(scene.shown), via_square=True)
        scene.game.saver.flush(5)
        app.step(STEP)
        assert scene.toast and scene.toast[0] == expected
    finally:
        i18n.set_language("en")


def test_a_delete_the_disk_refuses_is_explained_in_the_players_language(app, driver: Driver, monkeypatch):
    """Saved games, in Dutch: a delete refused with EACCES opens a message with the Dutch phrase."""
    import errno

    from game import i18n
    store = SaveStore()
    store.write("one", finished_record(3).to_json())

    def refuse(self, entry):
        raise PermissionError(errno.EACCES, "Permission denied", str(entry.path))
    monkeypatch.setattr(SaveStore, "delete", refuse)
    i18n.set_language("nl")
    try:
        scene = SavedGamesScene(app, store=store, on_back=app.pop)
        app.push(scene)
        app.step(STEP)
        driver.click(scene.row_rect(0).center)
        driver.click(button(scene, "Delete").rect.center)
        driver.click(app.top.buttons[0].rect.center)  # delete
        dialog = app.top
        assert isinstance(dialog, MessageDialog)
        assert dialog.message == "U hebt geen toestemming voor dit bestand of deze map"
        assert store.folder.joinpath("one.json").exists()  # nothing lost
    finally:
        i18n.set_language("en")


# ---------------------------------------------------------------------- undo
def test_undo_between_two_people_takes_back_one_action(app, driver: Driver):
    start_game(app, GameConfig(None, seed=2))
    scene = app.top
    start = scene.match.state.state_hash()
    driver.play(first_play(scene.shown), via_square=True)
    after_one = scene.match.state.state_hash()
    driver.play(first_play(scene.shown), via_square=True)
    driver.post(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_LCTRL, unicode="", scancode=0)
    app.step(STEP)
    assert scene.match.state.state_hash() == after_one and scene.shown.state_hash() == after_one
    driver.click(button(scene, "Undo").rect.center)
    assert scene.match.state.state_hash() == start and scene.shown.state_hash() == start
    assert not scene.game.can_undo()
    driver.key(pygame.K_u)
    assert scene.toast and "Nothing to undo" in scene.toast[0]
    scene.game.saver.flush(5)
    assert saved_moves(SaveStore(), scene.game.meta.game_id) == []  # the undo is saved too


def test_undo_against_the_computer_goes_back_to_my_turn_and_draws_the_same_card(app, driver: Driver):
    start_game(app, GameConfig((Color.WHITE, "random"), seed=11, min_delay=0.0))
    scene = app.top
    driver.play(first_play(scene.shown), via_square=True)
    wait_for(app, lambda: scene.match.state.ply >= 2 and not scene.busy())
    before = scene.match.state.state_hash()
    driver.play(Move(Color.RED, DRAW, None))  # four cards in hand now: a draw
    drawn = scene.match.state.move_stack[2].card
    wait_for(app, lambda: scene.match.state.ply >= 4 and not scene.busy())
    driver.key(pygame.K_u)  # the computer's reply and my draw go back
    assert scene.match.state.ply == 2 and scene.match.human_to_move() and not scene.busy()
    assert scene.shown.state_hash() == before
    driver.play(Move(Color.RED, DRAW, None))
    assert scene.match.state.move_stack[2].card is drawn  # undo cannot fish for cards
    driver.key(pygame.K_u)
    driver.key(pygame.K_u)
    assert scene.match.state.ply == 0


class Blocking(RandomPlayer):
    """A computer that thinks until told to stop (to undo while it is thinking)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.go = threading.Event()

    def choose(self, state):
        self.go.wait(10)
        return super().choose(state)


def test_undo_cancels_the_computers_thinking(app, driver: Driver):
    player = Blocking()
    cpu = ComputerController(player, "cpu", min_delay=0.0)
    from game.roseking.match import HumanController
    state = State.random(Rng(4))
    game = LocalGame(state, GameMeta.new("computer", computer_level="random", computer_color=Color.WHITE),
                     (HumanController("me"), cpu))
    scene = play(app, game, GameConfig(None))
    driver.play(first_play(scene.shown), via_square=True)
    app.run_frames(5)
    assert scene.match.state.ply == 1  # the computer is thinking
    driver.key(pygame.K_u)
    assert scene.match.state.ply == 0 and scene.match.human_to_move()
    player.go.set()  # its answer to the undone position arrives late
    app.run_frames(30)
    assert scene.match.state.ply == 0 and scene.match.human_to_move()


# ---------------------------------------------------------------------- the list
def make_saves(store: SaveStore) -> dict[str, GameMeta]:
    finished = GameMeta("finished", "local", "Ann", "Bob", "2026-11-20T10:00:00Z", chance_seed=1)
    rec = finished_record(5)
    rec.extra = finished.extra()
    store.write("finished", rec.to_json())
    unfinished = GameMeta("unfinished", "computer", "You", "Computer", "2026-11-21T10:00:00Z",
                          computer_level="random", computer_color=Color.WHITE, chance_seed=2)
    s = State.random(Rng(6))
    s.push(first_play(s))
    store.autosave(s, unfinished)
    store.folder.joinpath("broken.json").write_text('{"format": "rose-king-record", "version": 1, "red"')
    store.folder.joinpath("future.json").write_text('{"format": "rose-king-record", "version": 99}')
    return {"finished": finished, "unfinished": unfinished}


def test_saved_games_list_shows_good_and_bad_files(app, driver: Driver):
    store = SaveStore()
    make_saves(store)
    app.push(MainMenu(app))
    driver.click(button(app.top, "Saved games").rect.center)
    scene = app.top
    assert isinstance(scene, SavedGamesScene)
    by_id = {e.game_id: e for e in scene.entries}
    assert set(by_id) == {"finished", "unfinished", "broken", "future"}
    assert "truncated" in by_id["broken"].error and "newer" in by_id["future"].error
    app.step(STEP)  # draws every row, bad ones too
    bad = scene.entries.index(by_id["broken"])
    driver.click(scene.row_rect(bad).center)
    assert scene.selected == bad and not button(scene, "Open").enabled() and not button(scene, "Replay").enabled()
    driver.click(button(scene, "Delete").rect.center)
    assert isinstance(app.top, ConfirmDialog)
    driver.click(app.top.buttons[1].rect.center)  # keep
    assert store.folder.joinpath("broken.json").exists()
    driver.click(button(scene, "Delete").rect.center)
    driver.click(app.top.buttons[0].rect.center)  # delete
    assert not store.folder.joinpath("broken.json").exists() and len(scene.entries) == 3
    fin = next(i for i, e in enumerate(scene.entries) if e.game_id == "finished")
    driver.click(scene.row_rect(fin).center)
    assert not button(scene, "Open").enabled()  # a finished game can only be replayed
    driver.click(button(scene, "Replay").rect.center)
    assert isinstance(app.top, ReplayScene)
    driver.key(pygame.K_ESCAPE)
    assert app.top is scene
    unf = next(i for i, e in enumerate(scene.entries) if e.game_id == "unfinished")
    driver.click(scene.row_rect(unf).center)
    driver.key(pygame.K_RETURN)
    assert isinstance(app.top, LocalGameScene) and app.top.match.state.ply == 1


# ---------------------------------------------------------------------- the replay viewer
@pytest.fixture
def viewer(app):
    rec = finished_record(21)
    app.push(MainMenu(app))
    scene = ReplayScene(app, __import__("game.roseking.replay", fromlist=["Replay"]).Replay(rec), on_back=app.pop)
    app.push(scene)
    return scene


def test_replay_plays_to_the_same_final_state(app, driver: Driver, viewer):
    final = viewer.replay.final_state
    app.options.anim_speed = 0  # the moves unanimated: the playback's end is at stake here
    viewer.playback.set_speed(4.0)
    driver.key(pygame.K_SPACE)
    assert viewer.playback.playing
    wait_for(app, lambda: viewer.replay.at_end() and not viewer.busy(), frames=60 * 60 * 10)
    assert viewer.shown.state_hash() == final.state_hash() and viewer.shown.scores() == final.scores()
    assert app.top is viewer  # no result panel over a replay


def test_replay_keys_timeline_and_move_list_seek(app, driver: Driver, viewer):
    rep = viewer.replay
    driver.key(pygame.K_END)
    assert viewer.shown.state_hash() == rep.final_state.state_hash()
    driver.key(pygame.K_HOME)
    assert rep.ply == 0 and viewer.shown.ply == 0
    driver.key(pygame.K_RIGHT)
    assert rep.ply == 1 and viewer.busy()  # animated like live play
    driver.settle()
    assert viewer.shown.state_hash() == rep.state_at(1).state_hash()
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_LEFT)
    assert rep.ply == 1 and viewer.shown.state_hash() == rep.state_at(1).state_hash() and not viewer.busy()
    driver.click(viewer.list_row_center(3))
    assert rep.ply == 3 and viewer.shown.state_hash() == rep.state_at(3).state_hash()
    # drag the timeline knob to the middle, then to the end
    x0 = TIMELINE_RECT.x + TIMELINE_RECT.w * 3 // rep.length
    driver.post(pygame.MOUSEBUTTONDOWN, pos=(x0, TIMELINE_RECT.centery), button=1)
    driver.post(pygame.MOUSEMOTION, pos=(TIMELINE_RECT.centerx, TIMELINE_RECT.centery), rel=(0, 0), buttons=(1, 0, 0))
    app.step(STEP)
    mid = rep.ply
    assert abs(mid - rep.length // 2) <= 1 and viewer.shown.state_hash() == rep.state_at(mid).state_hash()
    driver.post(pygame.MOUSEMOTION, pos=(TIMELINE_RECT.right + 50, TIMELINE_RECT.centery), rel=(0, 0),
                buttons=(1, 0, 0))
    driver.post(pygame.MOUSEBUTTONUP, pos=(TIMELINE_RECT.right + 50, TIMELINE_RECT.centery), button=1)
    app.step(STEP)
    assert rep.at_end() and not viewer.dragging
    assert viewer.list_top <= rep.ply - 1 < viewer.list_top + (LIST_RECT.h - 60) // 24  # the list follows
    driver.key(pygame.K_EQUALS)
    driver.key(pygame.K_EQUALS)
    assert viewer.playback.speed == 2.0
    for _i in range(6):
        driver.key(pygame.K_MINUS)
    assert viewer.playback.speed == 0.5


def test_passes_are_marked_in_the_replay(app, driver: Driver):
    from game.roseking.replay import Replay
    for seed in range(200):
        rec = finished_record(seed)
        rep = Replay(rec)
        if rep.passes():
            break
    else:
        pytest.skip("no pass in 200 random games")
    scene = ReplayScene(app, rep, on_back=app.pop)
    app.push(scene)
    info = rep.passes()[0]
    scene.seek(info.number - 1)
    driver.key(pygame.K_RIGHT)
    driver.settle()
    assert scene.banner and "must pass" in scene.banner[0]


# ---------------------------------------------------------------------- opening files
def test_rose_king_FILE_opens_the_viewer_and_a_bad_file_says_why(tmp_path, monkeypatch, capsys):
    from game.client.app import App
    tops = []

    def fake_run(self):  # what the window would show first, then close as App.run does
        tops.append(self.top)
        while self.scenes:
            self.pop()
        pygame.display.quit()
        return 0
    monkeypatch.setattr(App, "run", fake_run)
    good = tmp_path / "good.json"
    good.write_text(finished_record(3).to_json())
    assert run([str(good)]) == 0 and isinstance(tops[-1], ReplayScene)
    assert run(["--replay", str(good)]) == 0 and isinstance(tops[-1], ReplayScene)
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": "world"}')
    assert run([str(bad)]) == 0
    assert isinstance(tops[-1], MessageDialog) and "another kind" in tops[-1].message
    assert "bad.json: error: not a record of this app: a JSON file of another kind" in capsys.readouterr().err


# ---------------------------------------------------------------------- save as
def test_save_as_writes_the_chosen_file_and_a_bad_folder_keeps_the_dialog(app, driver: Driver, tmp_path):
    start_game(app, GameConfig(None, seed=4))
    scene = app.top
    driver.play(first_play(scene.shown), via_square=True)
    driver.key(pygame.K_ESCAPE)
    assert isinstance(app.top, LocalPauseMenu)
    driver.post(pygame.KEYDOWN, key=pygame.K_s, mod=0, unicode="s", scancode=0)
    driver.post(pygame.TEXTINPUT, text="s")  # the key that opens the dialog must not type into it
    app.step(STEP)
    dialog = app.top
    assert isinstance(dialog, TextEntryDialog) and dialog.text.endswith(".json") and "Rose King" in dialog.text
    driver.post(pygame.KEYDOWN, key=pygame.K_u, mod=pygame.KMOD_LCTRL, unicode="", scancode=0)
    target = tmp_path / "nowhere" / "x.json"
    driver.post(pygame.TEXTINPUT, text=str(target))
    driver.key(pygame.K_RETURN)
    assert app.top is dialog and dialog.text == str(target)  # nothing typed is lost
    assert dialog.error == "Could not save: the file or its folder does not exist"  # not the OS's text
    for _i in range(len("nowhere/x.json")):
        driver.key(pygame.K_BACKSPACE)
    driver.post(pygame.TEXTINPUT, text="mine.json")
    driver.key(pygame.K_RETURN)
    assert not isinstance(app.top, TextEntryDialog)
    saved = Record.load(tmp_path / "mine.json")
    assert saved.replay().state_hash() == scene.match.state.state_hash()


# ---------------------------------------------------------------------- kill -9, then Continue
@pytest.mark.parametrize("seed, kill_after", [(3, 6)])
def test_kill_9_mid_game_then_continue_in_the_window(app, driver: Driver, seed, kill_after):
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    from .kill_child import policy

    child = Path(__file__).with_name("kill_child.py")
    proc = subprocess.Popen([sys.executable, str(child), str(seed)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    watchdog = threading.Timer(60, proc.kill)  # bounds the test if the child hangs
    watchdog.start()
    played: list[str] = []
    try:
        while len(played) < kill_after:
            line = proc.stdout.readline()
            assert line.startswith("saved "), f"child said {line!r}: {proc.stderr.read()}"
            played.append(line.split(" ", 2)[2].strip())
        os.kill(proc.pid, signal.SIGKILL)  # mid-game, while it is playing the next move
        proc.wait()
    finally:
        watchdog.cancel()
        for f in (proc.stdout, proc.stderr, proc.stdin):
            f.close()
    assert proc.returncode == -signal.SIGKILL

    app.push(MainMenu(app))
    menu = app.top
    assert menu.buttons[0].key == pygame.K_c and menu.buttons[0].text().startswith("Continue")
    driver.click(menu.buttons[0].rect.center)
    scene = app.top
    assert isinstance(scene, LocalGameScene)
    resumed = [str(m) for m in scene.match.state.move_stack]
    assert len(resumed) >= kill_after and resumed[:kill_after] == played  # every reported move survived
    record = Record.load(scene.game.saver.store.path_for(scene.game.meta.game_id))
    assert record.moves == resumed and record.replay().state_hash() == scene.shown.state_hash()
    for _i in range(3):  # and the game goes on by mouse, saving to the same file
        driver.play(policy(scene.shown, seed))
    assert scene.game.saver.flush(5)
    assert saved_moves(SaveStore(), scene.game.meta.game_id)[:len(resumed)] == resumed


def test_a_royals_match_is_listed_in_its_own_words_and_continued_from_its_tab(app, driver: Driver):
    """The list and "Continue" say a Royals & Riots match's players, who is to play (by
    name) and "round r of 3, trick t" — never "Red/White to move", "move 104" or plies."""
    from game.royals.engine import Phase, Record as RoyalsRecord
    from tests.royals.helpers import random_match
    state = random_match(3, 3, upto=60)
    while state.phase is not Phase.PLAY:  # stop where a seat is to play a card
        state = random_match(3, 3, upto=state.ply + 1)
    d = RoyalsRecord.from_state(state, ["Ann", "Bo", "Cy"], date="2026-11-27T07:00:00Z").to_dict()
    d.update({"game_id": "royals1", "kind": "local",
              "seats": [{"name": "Ann", "level": None}, {"name": "Bo", "level": "easy"}, {"name": "Cy", "level": "easy"}]})
    store = SaveStore()
    store.folder.mkdir(parents=True)
    store.folder.joinpath("royals1.json").write_text(json.dumps(d), encoding="utf-8")
    where = f"round {state.round} of 3, trick {state.trick_no}"
    mover = ["Ann", "Bo", "Cy"][state.to_act - 1]
    app.prefs.update(game="royals-riots")
    app.reset(MainMenu(app))
    assert app.top.buttons[0].key == pygame.K_c
    assert app.top.buttons[0].text() == f"Continue: Ann – Bo – Cy, {where}"
    driver.click(button(app.top, "Saved games").rect.center)
    scene = app.top
    (entry,) = scene.entries
    assert (entry.players(), entry.status_text(), entry.progress()) == (
        "Ann – Bo – Cy", f"in progress · {mover} to play", where)
    drawn = []
    real = app.art.text
    app.art.text = lambda text, *a, **k: drawn.append(text) or real(text, *a, **k)
    app.redraw()
    app.step(STEP)
    assert where in drawn and "Progress" in drawn and "Plies" not in drawn
    assert not any("Red" in t or "White" in t for t in drawn)
