"""A Rose King network game in the window's saved games, as the Royals & Riots table keeps its
match: after each move (through the view's background autosaver, never waiting in a frame), at
its end, at once when it stops for good (the host left) and when the player leaves. The list
shows it as an unfinished network game that is only watched here (never "Continue", never
"Open"), with its players and plies; Replay opens the replay viewer; a corrupt file beside it
shows its error without breaking the list. Over 127.0.0.1: a host window against a headless
joiner, and a joiner window against a headless host; each wait is bounded and ends on a
condition (tests/client/test_lan.py's helpers)."""

from __future__ import annotations

import json
import time

import pygame
import pytest

from game.client.menus import MainMenu
from game.client.lan.lobby import host_table, join_table
from game.client.lan.endpanel import EndPanel as LanEndPanel
from game.client.roseking.lan import LanGameScene
from game.roseking.lan.record import lan_save
from game.client.roseking.replay_view import ReplayScene
from game.client.saved_games import SavedGamesScene
from game.i18n import _
from game.roseking.engine import Record
from game.saves import SaveStore
from game.roseking.lan.match import LAN, RESIGN
from net.session import Dropped, Session
from tests.client.test_lan import Me, Peer, joiner, run_until

UNFINISHED = "Unfinished network game: it can only be watched here (Replay)"


def moves_of(session) -> list[str]:
    """The moves of the record a session's machine holds (its notation)."""
    return session.view(lambda m: m.record())["moves"]


def button(scene, label: str):
    return next(b for b in scene.buttons if b.label == label)


def host_window(app, store: SaveStore):
    """A host window at its waiting screen and a headless joiner (Bob) that a computer moves for."""
    lobby = host_table(app, "rose-king", name="Alice", port=0, bind="127.0.0.1", store=store, beacon=False)
    host = lobby.session
    join = joiner(host.port)
    peer = Peer(join)
    run_until(app, peer, lambda: isinstance(app.top, LanGameScene), "the game to start")
    return app.top, host, peer


def test_each_move_is_kept_by_the_autosaver_and_leaving_keeps_the_game_to_watch(app, driver):
    store = SaveStore()  # the window's own saved games (the main menu reads them too)
    scene, host, peer = host_window(app, store)
    try:
        if scene.match.state.ply == 0:  # (the joiner may have moved before the view was up)
            assert store.list() == [] and scene.lan._saver is None  # no move yet: nothing kept
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 3, "three plies")
        ply = scene.match.state.ply
        assert scene.lan._saver is not None and scene.lan._saver.flush(10)  # written by the worker, not the frame
        [entry] = store.list()
        assert entry.kind == "lan" and entry.status == "in progress" and entry.plies >= ply
        assert entry.game_id == scene.match.game_id.hex() and entry.note() == UNFINISHED
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= ply + 2, "two more plies")
        peer.auto = False
        app.step(1 / 60)
        app.go_home()  # the player leaves mid-game (Esc → Main menu, the window closed, SIGTERM)
        moves = moves_of(host)  # (a move may have crossed the goodbye: the record holds it)
        assert host.status == "closed" and scene.lan._saver._thread.is_alive() is False
        [entry] = store.list()
        kept = Record.load(entry.path)
        assert [str(m) for m in kept.moves] == moves and kept.extra["kind"] == "lan" and kept.extra["lan"]["game"] == entry.game_id
        red, white = scene.match.names.values()
        assert entry.status == "in progress" and entry.players() == f"{red} – {white}" and {red, white} == {"Alice", "Bob"}
        assert entry.plies == len(moves) and entry.note() == UNFINISHED
        assert store.resumable() is None  # never "Continue"
        menu = MainMenu(app)
        app.reset(menu)
        assert not any(str(b.label).startswith("Continue") for b in menu.buttons)

        # a corrupt file beside it is listed with its error; the network game still lists and replays
        (store.folder / "broken.json").write_text('{"format": "rose-king-record", "version": 1, "moves": [',
                                                   encoding="utf-8")
        saved = SavedGamesScene(app, store)
        app.reset(saved)
        app.step(1 / 60)
        assert [e.ok for e in saved.entries] == [True, False]
        assert "cut short" in saved.entries[1].error
        driver.click(saved.row_rect(0).center)
        assert saved.entry.path == entry.path
        assert not button(saved, "Open").enabled() and button(saved, "Replay").enabled()
        driver.key(pygame.K_RETURN)  # Enter (as a double-click) on a network game replays it
        viewer = app.top
        assert isinstance(viewer, ReplayScene)
        assert [str(m) for m in viewer.replay.record.moves] == [str(m) for m in moves]
    finally:
        peer.session.close()
        while app.scenes:
            app.pop()
        host.close()


def test_a_joiner_window_whose_host_leaves_keeps_the_game_at_once(app, tmp_path):
    """The host leaves mid-game: the joiner's game stopped for good ("The game cannot go on"),
    and is already in its saved games while the window still shows it."""
    store = SaveStore(tmp_path)
    host = Session(LAN, "host", "Alice", port=0)
    hp = Peer(host)
    join = join_table(app, "rose-king", "127.0.0.1", host.port, name="Bob", store=store,
                      on_back=lambda: None).session
    try:
        run_until(app, hp, lambda: isinstance(app.top, LanGameScene), "the game to start")
        scene = app.top
        run_until(app, (hp, Me(scene)), lambda: scene.match.state.ply >= 4, "a few moves")
        hp.auto = False
        app.step(1 / 60)
        host.close()
        run_until(app, None, lambda: scene.lan.kept is not None, "the stopped game to be kept")
        assert join.status == "failed" and isinstance(app.top, LanGameScene)  # still at the game
        [entry] = store.list()
        assert entry.path == tmp_path / "saves" / f"{scene.match.game_id.hex()}.json" == \
            tmp_path / "saves" / f"{lan_save(join.view(lambda m: m.record()))[0]}.json"
        red, white = scene.match.names.values()
        assert entry.status == "in progress" and entry.players() == f"{red} – {white}"
        assert [str(m) for m in Record.load(entry.path).moves] == moves_of(join) == moves_of(host)
        assert entry.note() == UNFINISHED
        # the banner over the board says so, under the session's line, above its button, in every language
        from game import i18n
        for language in ("en", "de", "nl", "fr"):
            i18n.set_language(language)
            texts = scene.banner_box.layout(app); box = scene.banner_box.box
            words = [t for t, _image, _rect in texts]
            assert _("The record is kept in the saved games.") in words, language
            rects = [r for _t, _image, r in texts] + [scene.banner_box.button.rect]
            assert all(box.contains(r) for r in rects), language
            assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:]), language
        i18n.set_language("en")
        app.step(1 / 60)
    finally:
        from game import i18n
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        join.close()
        host.close()


def test_a_resigned_game_is_kept_finished_and_listed_as_a_network_game(app, driver, tmp_path):
    store = SaveStore(tmp_path)
    scene, host, peer = host_window(app, store)
    try:
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 2, "two plies")
        peer.auto = False
        end = time.monotonic() + 10
        while True:  # (not while its own draw's card is being decided)
            try:
                peer.session.act(RESIGN)
                break
            except ValueError:
                assert time.monotonic() < end
                peer.pump()
                app.step(1 / 60)
        run_until(app, peer, lambda: isinstance(app.top, LanEndPanel), "the end panel")
        assert scene.lan.saved is not None
        [entry] = store.list()
        assert str(entry.path) == scene.lan.saved and entry.status == "finished" and entry.note() == "Network game"
        app.go_home()
        [entry] = store.list()
        assert entry.status == "finished"  # leaving after the end keeps it as it was
    finally:
        peer.session.close()
        while app.scenes:
            app.pop()
        host.close()


def test_a_network_game_in_the_list_is_worded_in_the_players_language(app, tmp_path):
    from game import i18n
    store = SaveStore(tmp_path)
    scene, host, peer = host_window(app, store)
    try:
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 1, "a move")
        app.go_home()
        i18n.set_language("fr")
        [entry] = store.list()
        assert entry.note() == "Partie en réseau inachevée\u00a0: ici, on peut seulement la revoir (Revoir)"
    finally:
        i18n.set_language("en")
        peer.session.close()
        while app.scenes:
            app.pop()
        host.close()


def test_the_view_never_writes_in_a_frame(app, tmp_path, monkeypatch):
    """A move's save is handed to the worker: a disk that takes its time never holds a frame."""
    import threading

    from game import saves
    store = SaveStore(tmp_path)
    gate = threading.Event()
    real_write = saves.SaveStore.write

    def slow_write(self, game_id, text):
        gate.wait(10)
        return real_write(self, game_id, text)
    monkeypatch.setattr(saves.SaveStore, "write", slow_write)
    scene, host, peer = host_window(app, store)
    try:
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 3, "moves while the disk waits")
        assert store.list() == []  # nothing written yet, and the frames went on
        gate.set()
        assert scene.lan._saver.flush(10) and [e.kind for e in store.list()] == ["lan"]
    finally:
        gate.set()
        peer.session.close()
        while app.scenes:
            app.pop()
        host.close()


def test_the_saved_record_is_json_with_the_saved_game_keys(app, tmp_path):
    store = SaveStore(tmp_path)
    scene, host, peer = host_window(app, store)
    try:
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 1, "a move")
        assert scene.lan._saver.flush(10)
        [entry] = store.list()
        d = json.loads(entry.path.read_text(encoding="utf-8"))
        assert d["game_id"] == d["lan"]["game"] == entry.path.stem and d["kind"] == "lan"
        assert "chance_seed" not in d  # a network game's draws come from the joint coin
    finally:
        peer.session.close()
        while app.scenes:
            app.pop()
        host.close()


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_leaving_mid_game_says_the_game_is_kept_never_lost(app, tmp_path, language):
    """The pause menu's Main menu (and the window's close) no longer asks "Leave this game? It will
    be lost.": the network game stays in Saved games, to watch; the question fits its panel above
    the buttons in every language."""
    from game import i18n
    from game.client.dialogs import ConfirmDialog, PauseMenu
    from game.client.lan.scene import LEAVE_QUESTION as QUESTIONS
    LEAVE_QUESTION = QUESTIONS[0]  # one other player
    store = SaveStore(tmp_path)
    scene, host, peer = host_window(app, store)
    try:
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 1, "a move")
        i18n.set_language(language)
        scene.pause()
        assert isinstance(app.top, PauseMenu)
        app.top.main_menu()
        dialog = app.top
        assert isinstance(dialog, ConfirmDialog) and dialog.question == LEAVE_QUESTION
        assert scene.quit_question() == LEAVE_QUESTION
        image = dialog.question_image()
        assert dialog.rect.y + 36 + image.get_height() <= dialog.buttons[0].rect.y - 12
        assert "lost" not in LEAVE_QUESTION
    finally:
        i18n.set_language("en")
        peer.session.close()
        while app.scenes:
            app.pop()
        host.close()


def test_sigterm_mid_game_keeps_the_game_and_says_goodbye(app, tmp_path):
    """The window turns SIGTERM into a clean exit (App.install_signal_handlers): every scene
    closes, so the game view says goodbye (the peer hears that we left, not a lost connection)
    and keeps the game so far in the saved games."""
    import os
    import signal

    from game.client.app import STEP
    store = SaveStore(tmp_path)
    scene, host, peer = host_window(app, store)
    old = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 3, "three plies")
        peer.auto = False
        app.step(STEP)
        app.install_signal_handlers()
        os.kill(os.getpid(), signal.SIGTERM)
        app.step(STEP)
        assert not app.running and app.signalled == signal.SIGTERM
        while app.scenes:  # what App.run does once its loop ends
            app.pop()
        moves = moves_of(host)
        [entry] = store.list()
        assert entry.kind == "lan" and entry.status == "in progress"
        assert [str(m) for m in Record.load(entry.path).moves] == moves
        run_until(app, peer, lambda: any(isinstance(e, Dropped) for e in peer.events), "the goodbye")
        assert [e.code for e in peer.events if isinstance(e, Dropped)][0] == "bye"
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        peer.session.close()
        while app.scenes:
            app.pop()
        host.close()
