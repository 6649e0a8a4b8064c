"""LAN play in the window (issue 7): a windowed host driven by posted mouse events against a
joiner session on 127.0.0.1 that a greedy player runs between frames. Every wait is bounded
(LIMIT seconds of wall time) and ends on a condition, never on a sleep."""

from __future__ import annotations

import time

import pygame
import pytest

from game.roseking.ai import make_player
from game.client.app import STEP
from game.client.roseking.lan import JoinScene, LanEndPanel, LanGameScene, LanLobby, LanResultPanel, keep_record
from game.client.menus import MainMenu
from game.client.textinput import TextInput
from game.client.roseking.layout import BOARD_RECT
from game.roseking.engine import DRAW, Record
from game.saves import SaveStore
from net.discovery import Beacon, BeaconListener
from net.protocol import GameOver, GameStarted
from net.transport import LanSession

LIMIT = 20.0


class Peer:
    """The far side: a LanSession that a computer player moves for, one call per frame."""

    def __init__(self, session: LanSession, level: str = "greedy") -> None:
        self.session = session
        self.player = make_player(level, 3)
        self.events: list = []
        self.auto = True

    def pump(self) -> None:
        self.events += self.session.poll()
        s = self.session
        if self.auto and s.my_turn():
            state = s.state
            if state is not None and not state.is_game_over():
                try:
                    s.play(self.player.choose(state))
                except ValueError:
                    pass  # the position moved on meanwhile: look again next frame


class Me:
    """Our side in the window, moved by a computer player through the same path as clicks."""

    def __init__(self, scene, level: str = "greedy") -> None:
        self.scene = scene
        self.player = make_player(level, 5)

    def pump(self) -> None:
        scene = self.scene
        if scene.match.human_to_move() and not scene.busy():
            scene._submit(self.player.choose(scene.shown))


def run_until(app, peer, cond, what: str, limit: float = LIMIT) -> None:
    """Step the app (and pump ``peer``: None, one or a tuple of them) until ``cond()``."""
    peers = peer if isinstance(peer, tuple) else (peer,)
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        for p in peers:
            if p is not None:
                p.pump()
        app.step(STEP)


@pytest.fixture
def lan(app, tmp_path):
    """A windowed host at its waiting screen and a joiner; yields (lobby, host, peer, store)."""
    made: list = []
    store = SaveStore(tmp_path)
    host = LanSession.host("Alice", port=0, bind="127.0.0.1")
    made.append(host)
    lobby = LanLobby(app, host, store=store)
    app.reset(lobby)
    join = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05)
    made.append(join)
    yield lobby, host, Peer(join), store, made
    for s in made:
        s.close()


def game_scene(app) -> LanGameScene:
    for s in reversed(app.scenes):
        if isinstance(s, LanGameScene):
            return s
    raise LookupError("no LAN game on the stack")


def start(app, lan) -> LanGameScene:
    lobby, host, peer, store, made = lan
    run_until(app, peer, lambda: any(isinstance(s, LanGameScene) for s in app.scenes), "the game to start")
    return game_scene(app)


def test_windowed_host_plays_moves_by_mouse_against_a_network_peer(app, driver, lan):
    scene = start(app, lan)
    _lobby, host, peer, _store, _made = lan
    me = scene.match.color
    assert {c.label for c in scene.match.controllers} == {"Alice (you)", "Bob"}
    assert scene.waiting_line(me.other) == "Waiting for Bob…"
    assert scene.match.controllers[me].local_human and not scene.match.controllers[me.other].local_human
    mine = 0
    while mine < 4:
        run_until(app, peer, lambda: scene.match.human_to_move() and not scene.busy(), "our turn")
        state = scene.shown
        moves = state.legal_moves()
        move = next((m for m in moves if m.kind is DRAW), None) if mine == 1 else None
        move = move or next((m for m in moves if m.kind is not DRAW), moves[0])
        before = scene.match.state.ply
        if mine == 0:  # the match hands the move to the network and waits for it to come back
            assert scene.match.submit(move) is None
            assert scene.match.state.ply == before and not scene.match.human_to_move()
        else:
            driver.play(move)
        run_until(app, peer, lambda: scene.match.state.ply > before, "our move to come back")
        got = scene.match.state.move_stack[before]
        assert got.player is me and got.kind is move.kind and (move.kind is DRAW or got == move)
        mine += 1
    run_until(app, peer, lambda: not scene.busy(), "animations")
    for _i in range(3):
        app.step(STEP)
    assert scene.shown.move_stack == scene.match.state.move_stack == host.state.move_stack
    assert peer.session.state.state_hash() == scene.match.state.state_hash()


def test_interruption_shows_the_banner_and_the_game_resumes(app, driver, lan):
    scene = start(app, lan)
    _lobby, host, peer, _store, made = lan
    run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 2, "two plies")
    peer.session.close()  # the joiner's program goes away
    run_until(app, None, scene.waiting, "the banner")
    app.step(STEP)
    assert "interrupted" in host.status_text
    assert scene.waiting_line(scene.match.state.turn) == "Waiting for the connection…"
    # a click on the board does nothing while waiting
    ply = scene.match.state.ply
    driver.click(BOARD_RECT.center)
    assert scene.match.state.ply == ply
    # restarted with its journal (a program without it would be a stranger, refused: issue 14)
    back = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05, seat=peer.session.seat_copy())
    made.append(back)
    peer2 = Peer(back)
    run_until(app, peer2, lambda: not scene.waiting() and any(isinstance(e, GameStarted) for e in peer2.events),
              "the resume")
    assert [e.resumed for e in peer2.events if isinstance(e, GameStarted)] == [True]
    assert back.state.move_stack[:ply] == scene.match.state.move_stack[:ply]
    run_until(app, (peer2, Me(scene)), lambda: scene.match.state.ply >= ply + 2, "play to go on")


def test_give_up_while_interrupted_goes_to_the_main_menu(app, driver, lan):
    scene = start(app, lan)
    _lobby, host, peer, _store, _made = lan
    peer.session.close()
    run_until(app, None, scene.waiting, "the banner")
    driver.click(scene.give_up_button.rect.center)
    assert isinstance(app.top, MainMenu)
    assert host.status == "closed"


def test_resign_ends_the_game_on_both_sides_keeps_the_record_and_a_rematch_starts(app, driver, lan):
    scene = start(app, lan)
    _lobby, host, peer, store, _made = lan
    peer.auto = False
    first_id = scene.match.game_id
    resign = next(b for b in scene.buttons if b.label == "Resign")
    driver.click(resign.rect.center)
    driver.key(pygame.K_y)  # confirm
    run_until(app, peer, lambda: isinstance(app.top, LanEndPanel)
              and any(isinstance(e, GameOver) for e in peer.events), "the end panel")
    over = next(e for e in peer.events if isinstance(e, GameOver))
    assert over.kind == "resigned" and over.winner is scene.match.color.other
    assert scene.finished()  # the status says "Game over", never "... to move" (issue 15)
    saved = store.list()
    assert [e.kind for e in saved] == ["lan"] and saved[0].game_id == first_id.hex()
    assert Record.load(saved[0].path).extra["lan"]["resigned"] == str(scene.match.color)
    panel = app.top
    driver.click(panel.buttons[0].rect.center)  # offer a rematch
    assert scene.match.rematch_sent
    peer.session.offer_rematch()
    run_until(app, peer, lambda: scene.match.game_id != first_id, "the new game")
    assert app.top is scene and scene.match.over is None and scene.shown.ply == 0


def test_a_finished_game_shows_the_result_and_both_records_match(app, lan):
    """The host's side is played by the computer through the same submit path as clicks."""
    scene = start(app, lan)
    _lobby, host, peer, store, _made = lan
    app.options.anim_speed = 0
    run_until(app, (peer, Me(scene)), lambda: isinstance(app.top, LanResultPanel), "the end", LIMIT * 3)
    run_until(app, peer, lambda: peer.session.acked_all() and host.acked_all(), "the last acks")
    assert scene.match.over.kind == "finished"
    assert host.record().to_json() == peer.session.record().to_json()
    assert Record.load(store.list()[0].path).moves == host.record().moves


def test_text_input_takes_typed_text_and_refuses_what_it_must():
    got = []
    field = TextInput((0, 0, 300, 50), max_len=8, allowed="0123456789.:", on_submit=got.append)
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 10), button=1)
    assert field.handle_event(down) and field.focused
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="127.0.0.1:47123"))
    assert field.text == "127.0.0."  # cut at max_len
    field.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode=""))
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="x1"))
    assert field.text == "127.0.01"
    field.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode=""))
    assert got == ["127.0.01"]
    field.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(400, 10), button=1))
    assert not field.focused
    assert not field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="9"))
    assert field.text == "127.0.01"


def test_join_screen_lists_a_beacon_and_joins_it_by_a_click(app, driver, tmp_path):
    host = LanSession.host("Carol", port=0, bind="127.0.0.1")
    own_id = bytes(range(16))
    listener = BeaconListener(bind="127.0.0.1", port=0, ignore={own_id})
    own = Beacon("Me", 1, address="127.0.0.1", dest_port=listener.port, interval=0.05, peer_id=own_id)
    beacon = Beacon("Carol", host.port, address="127.0.0.1", dest_port=listener.port, interval=0.05)
    scene = JoinScene(app, name="Dave", listener=listener, store=SaveStore(tmp_path))
    app.reset(scene)
    try:
        run_until(app, None, lambda: len(scene.found) >= 1 and own.sent >= 2, "the beacon")
        assert [g.name for g in scene.found] == ["Carol"]
        driver.click(scene.rows[0].rect.center)
        assert isinstance(app.top, (LanLobby, LanGameScene))  # the lobby may hand over within the frame
        run_until(app, None, lambda: isinstance(app.top, LanGameScene), "the game to start")
        assert app.top.match.names[app.top.match.color.other] == "Carol"
    finally:
        for b in (own, beacon):
            b.stop()
        while app.scenes:
            app.pop()
        host.close()


def test_join_screen_says_what_is_wrong_with_a_typed_address(app, driver):
    scene = JoinScene(app, name="Dave", listen=False)
    app.reset(scene)
    driver.post(pygame.TEXTINPUT, text="host:notaport")
    driver.key(pygame.K_RETURN)
    assert "192.168.1.20" in scene.error and app.top is scene


def test_main_menu_has_host_and_join(app, driver, monkeypatch):
    import game.client.roseking.lan as lan_module
    monkeypatch.setattr(lan_module, "BeaconListener", lambda **kw: BeaconListener(bind="127.0.0.1", port=0, **kw))
    menu = MainMenu(app)
    app.reset(menu)
    labels = [b.label for b in menu.buttons]
    assert labels.index("Host a game") < labels.index("Join a game") < labels.index("Quit")
    rects = [b.rect for b in menu.buttons]
    assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    driver.click(menu.buttons[labels.index("Join a game")].rect.center)
    assert isinstance(app.top, JoinScene) and app.top.listener is not None
    app.pop()  # closing the screen stops its listener


def test_keep_record_without_a_game_writes_nothing(tmp_path):
    session = LanSession.host("Eve", port=0, bind="127.0.0.1")
    try:
        assert keep_record(session, SaveStore(tmp_path)) is None
        assert SaveStore(tmp_path).list() == []
    finally:
        session.close()


def test_rose_king_join_with_a_window_resumes_its_journal(tmp_path, monkeypatch):
    """``run_lan`` for ``rose-king join HOST:PORT --record FILE``: the window opens at the waiting
    screen, the unfinished game in the journal is resumed against the host, and the journal grows."""
    import argparse

    from game.client import main as window
    from game.client.app import App
    from net.protocol import LanGame

    host = LanSession.host("Alice", port=0, bind="127.0.0.1")
    journal = tmp_path / "bob.json"
    join = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05, journal=journal)
    try:
        hp, jp = Peer(host), Peer(join)
        end = time.monotonic() + LIMIT
        while (join.state is None or join.state.ply < 3) and time.monotonic() < end:
            hp.pump(), jp.pump()
            time.sleep(0.005)
        assert join.state is not None and join.state.ply >= 3
        hp.auto = False
        join.close()  # the record and its private journal (bob.json.journal) stay
        seen = {}

        def run(self) -> int:  # instead of the real-time loop: frames until the game is on again
            run_until(self, hp, lambda: isinstance(self.top, LanGameScene) and not self.top.waiting(), "resume")
            scene = self.top
            seen["resumed"] = scene.match.started.resumed
            seen["ply"] = scene.match.state.ply
            seen["you"] = scene.match.controllers[scene.match.color].label
            while self.scenes:
                self.pop()
            return 0

        monkeypatch.setattr(App, "run", run)
        args = argparse.Namespace(target=("127.0.0.1", host.port), address="127.0.0.1", port=host.port,
                                  name="Bob", record=str(journal), log_dir=str(tmp_path), headless=False, ai=None)
        assert window.run_lan(args) == 0
        # (a draw whose coin was open when Bob's program closed is finished after the resume: the
        # record may then be one ply ahead of what the window first showed)
        assert seen["resumed"] and seen["you"] == "Bob (you)" and seen["ply"] >= 3
        assert LanGame.from_record(Record.load(journal)).state.ply in (seen["ply"], seen["ply"] + 1)
    finally:
        host.close()
        pygame.display.quit()


def test_a_game_restored_from_the_peers_copy_is_played_on_only_if_the_player_agrees(app, driver, tmp_path):
    """Issue 14 #4: this program kept its seat (the journal) but lost the moves; the host sends
    its checked copy, and the window asks before playing on with it."""
    from game.client.dialogs import ConfirmDialog
    host = LanSession.host("Alice", port=0, bind="127.0.0.1")
    first = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05)
    made = [host, first]
    try:
        hp, jp = Peer(host), Peer(first)
        end = time.monotonic() + LIMIT
        while (first.state is None or first.state.ply < 4) and time.monotonic() < end:
            hp.pump(), jp.pump()
            time.sleep(0.005)
        hp.auto = False
        first.close()
        seat = first.seat_copy()
        seat.game = None  # the record is gone, the journal kept
        back = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05, seat=seat)
        made.append(back)
        lobby = LanLobby(app, back)
        app.reset(lobby)
        run_until(app, hp, lambda: isinstance(app.top, ConfirmDialog), "the question")
        assert "restored" in app.top.question and not any(isinstance(s, LanGameScene) for s in app.scenes)
        driver.key(pygame.K_y)
        run_until(app, hp, lambda: isinstance(app.top, LanGameScene), "the game")
        scene = app.top
        assert scene.match.started.adopted and scene.match.state.ply == host.state.ply >= 4
    finally:
        for s in made:
            s.close()


def test_the_lan_menu_says_menu_and_keeps_the_connection(app, driver, lan):
    """Issue 15: nothing pauses in a network game: the menu is called "Menu" and the game goes on below."""
    from game.client.dialogs import PauseMenu
    scene = start(app, lan)
    driver.key(pygame.K_ESCAPE)
    menu = app.top
    assert isinstance(menu, PauseMenu) and menu.title == "Menu"
    before = scene.match.state.ply
    _lobby, host, peer, _store, _made = lan
    me = scene.match.color
    if scene.match.state.turn is me:  # let the peer be the one to move: play ours first
        driver.key(pygame.K_ESCAPE)
        run_until(app, peer, lambda: scene.match.human_to_move() and not scene.busy(), "our turn")
        scene._submit(scene.shown.legal_moves()[0])
        driver.key(pygame.K_ESCAPE)
        before = scene.match.state.ply
    run_until(app, peer, lambda: scene.match.state.ply > before, "the peer's move while the menu is open")
    assert isinstance(app.top, PauseMenu)


def test_menu_host_uses_the_settings_name_on_both_screens_and_in_the_record(app, tmp_path):
    """Issue 15: the name comes from Settings (never the login name) and is the same everywhere."""
    from game.client.roseking.lan import host_game
    app.prefs.update_game("rose-king", red_name="Rosalind")
    store = SaveStore(tmp_path)
    lobby = host_game(app, bind="127.0.0.1", port=0, store=store)
    assert lobby.session.name == "Rosalind"
    assert lobby.addresses == ["127.0.0.1"]  # bound to loopback: the one address a player can reach
    join = LanSession.join("Bob", "127.0.0.1", lobby.session.port, reconnect_delay=0.05)
    peer = Peer(join)
    try:
        run_until(app, peer, lambda: any(isinstance(s, LanGameScene) for s in app.scenes), "the game to start")
        scene = game_scene(app)
        me = scene.match.color
        assert scene.player_names()[me] == "Rosalind" and scene.player_names()[me.other] == "Bob"
        run_until(app, peer, lambda: join.game is not None, "the peer's game")
        g = join.game  # what the other screen shows and its record keeps
        assert {g.red_name, g.white_name} == {"Rosalind", "Bob"}
    finally:
        join.close()


def test_the_host_chooses_white_on_its_waiting_screen_and_plays_white(app, driver, tmp_path):
    """Issue 15: the host's screen has Red / White / Random (default Random); White hosts as White."""
    from game.client.roseking.lan import host_game
    from game.roseking.engine import Color
    lobby = host_game(app, bind="127.0.0.1", port=0, store=SaveStore(tmp_path))
    run_until(app, None, lambda: lobby.session.status == "listening", "listening")
    by_label = {b.label: b for b in lobby.buttons}
    assert lobby.colour == "" and by_label["Random"].selected()
    driver.click(by_label["Red"].rect.center)
    assert lobby.colour == "red" and by_label["Red"].selected()
    driver.click(by_label["White"].rect.center)
    assert lobby.colour == "white" and lobby.session.colour == "white"
    assert by_label["White"].selected() and not by_label["Random"].selected()
    join = LanSession.join("Bob", "127.0.0.1", lobby.session.port, reconnect_delay=0.05)
    peer = Peer(join)
    try:
        run_until(app, peer, lambda: any(isinstance(s, LanGameScene) for s in app.scenes), "the game to start")
        scene = game_scene(app)
        assert scene.match.color is Color.WHITE
        run_until(app, peer, lambda: join.game is not None, "the peer's game")
        assert join.color is Color.RED and join.game.host_color is Color.WHITE
        assert join.game.white_name == scene.player_names()[Color.WHITE]
    finally:
        join.close()


def test_a_failed_check_is_shown_in_the_players_language(app, lan):
    """The protocol's reason is English for the reports; the end panel words it from its code and ply."""
    from game import i18n
    from game.roseking.engine import Color
    scene = start(app, lan)
    i18n.set_language("de")
    try:
        scene.match.over = GameOver("desync", None, "ply 4 differs: we have NE2, the peer sent S1")
        panel = LanEndPanel(app, scene)
        app.push(panel)
        app.step(STEP)
        title, _colour, lines = panel.texts()
        assert title == "Die beiden Partien weichen ab"
        assert lines[:2] == ["Die Prüfung ergab, dass sich die Spielstände der Rechner bei Zug 4 unterscheiden: "
                             "Die Partie wurde abgebrochen.", "Beide Rechner haben einen Bericht geschrieben."]
        assert not any("differs" in line or "peer" in line for line in lines)
        scene.match.over = GameOver("forfeit", Color.RED, "white forfeits: ply 9: a second, different reveal")
        title, _colour, lines = panel.texts()
        white = scene.match.names[Color.WHITE]
        assert title == "Die Partie wurde abgebrochen" and lines[0] == (
            f"{white} hat ein Geheimnis eines Münzwurfs zurückgehalten oder geändert und verliert die Partie.")
    finally:
        i18n.set_language("en")


def test_a_taken_seat_is_explained_in_the_players_language(app, lan, tmp_path):
    """Over loopback: a game under way between Alice and Bob; a third player's waiting screen says
    in German that there is no seat for it (the host's English reason is not shown)."""
    from game import i18n
    start(app, lan)
    _lobby, host, peer, _store, made = lan
    third = LanSession.join("Cy", "127.0.0.1", host.port, reconnect_delay=0.05)
    made.append(third)
    i18n.set_language("de")
    try:
        lobby = LanLobby(app, third, store=SaveStore(tmp_path / "cy"))
        app.push(lobby)
        run_until(app, peer, lambda: lobby.error, "the refusal")
        assert lobby.error == "In dieser Partie ist kein Platz für diesen Spieler."  # (a board, no table)
        run_until(app, peer, lambda: third.status == "failed", "the failed status")
        assert third.status_text == lobby.error  # the status line too (not drawn twice on this screen)
        app.step(STEP)
    finally:
        i18n.set_language("en")


def test_refusals_from_the_session_and_a_turned_away_player_read_in_the_players_language(app, lan):
    """Over loopback, in German: a rematch offered while the game is under way (the session's thread
    refuses it) and a third player knocking on the host (turned away: both colours are taken) show
    whole German sentences on the host's game screen, never the session's English reason."""
    from game import i18n
    from net.transport import Refused
    scene = start(app, lan)
    _lobby, host, peer, _store, made = lan
    i18n.set_language("de")
    try:
        host.offer_rematch()
        run_until(app, peer, lambda: scene.toast is not None and scene.toast[0].startswith("Eine Revanche"),
                  "the refused rematch")
        assert scene.toast[0] == "Eine Revanche kann erst angeboten werden, wenn die Partie vorbei ist."
        scene.toast = None
        third = LanSession.join("Cy", "127.0.0.1", host.port, reconnect_delay=0.05)
        made.append(third)
        run_until(app, (peer, None), lambda: scene.toast is not None, "the turned-away player")
        assert scene.toast[0] == ("Ein anderer Spieler wollte dieser Partie beitreten und wurde abgewiesen: "
                                  "Beide Farben sind vergeben.")
        assert "refused" not in scene.toast[0]
        app.step(STEP)  # drawn
        # a move the session refuses at once (LanMatch.submit) and an unknown code are worded the same way
        from game.roseking.phrases import refused_text
        assert refused_text("play", "NE2: not connected to the other player") == \
            "Warte: Die Verbindung zum anderen Spieler steht noch nicht."
        assert refused_text("connect", "a connection was refused: bad hello", "frame") == \
            "Eine Verbindung von einem anderen Rechner wurde abgelehnt."
        assert Refused("connect", "x").code == ""
    finally:
        i18n.set_language("en")


def test_the_host_leaving_reads_in_the_players_language_on_the_joiners_banner(app, tmp_path):
    """Over loopback, in German: the window joins a headless host; the host leaves mid-game; the
    joiner's connection banner (the session's status line) says why in a German sentence, never
    the host's English reason."""
    from game import i18n
    host = LanSession.host("Alice", port=0, bind="127.0.0.1")
    hp = Peer(host)
    join = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05)
    app.reset(LanLobby(app, join, on_back=lambda: None, store=SaveStore(tmp_path)))
    i18n.set_language("de")
    try:
        run_until(app, hp, lambda: isinstance(app.top, LanGameScene), "the game to start")
        scene = app.top
        run_until(app, (hp, Me(scene)), lambda: scene.match.state.ply >= 2, "a few moves")
        host.close()
        run_until(app, None, lambda: join.status == "failed", "the joiner to hear the host left")
        assert join.status_text == "Der Gastgeber ist gegangen: Die Partie ist vorbei."
        app.step(STEP)  # the banner shows it under "Die Partie kann nicht weitergehen"
        assert scene.waiting_line(scene.match.color) == "Die Partie kann nicht weitergehen"
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        join.close()
        host.close()


def test_a_stopped_game_names_the_move_by_the_move_logs_number(app, lan):
    """A few moves into a game over loopback, in German: a GameOver for the next move (numbered as
    net.roseking counts, see tests/net/test_protocol.py) is named on the end panel by the number
    the move log would give that move (one after the log's last row), whatever ply the English
    reason mentions."""
    from game import i18n
    from game.client.roseking.movelog import ply_infos
    scene = start(app, lan)
    _lobby, _host, peer, _store, _made = lan
    run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 3 and not scene.busy(), "three moves")
    peer.auto = False
    app.step(STEP)
    logged = [i.number for i in ply_infos(scene.match.state)]
    assert logged == list(range(1, len(logged) + 1))
    i18n.set_language("de")
    try:
        scene.match.over = GameOver("illegal", None, "refused the peer's move at ply 99: hand full", logged[-1] + 1)
        _title, _colour, lines = LanEndPanel(app, scene).texts()
        assert lines[0] == f"Ein regelwidriger Zug (Zug {logged[-1] + 1}): Die Partie wurde abgebrochen."
        assert "99" not in lines[0]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_an_end_panel_whose_host_left_claims_no_live_connection(app, tmp_path, language):
    """Over loopback, in the joiner's window: the host resigns and offers a rematch, and the
    joiner's end panel offers "Accept the rematch"; then the host leaves. The session's status
    stays "over" (the game ended before), yet the panel no longer offers a rematch that cannot
    reach anybody: its button reads "Connection closed" in the player's language, disabled."""
    from game import i18n
    from game.i18n import _
    i18n.set_language(language)
    host = LanSession.host("Alice", port=0, bind="127.0.0.1")
    hp = Peer(host)
    hp.auto = False
    join = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05)
    app.reset(LanLobby(app, join, on_back=lambda: None, store=SaveStore(tmp_path)))
    try:
        run_until(app, hp, lambda: isinstance(app.top, LanGameScene), "the game to start")
        scene = app.top
        host.resign()
        run_until(app, hp, lambda: isinstance(app.top, LanEndPanel), "the end panel")
        host.offer_rematch()
        run_until(app, hp, lambda: scene.match.rematch_offered, "the rematch offer")
        panel = app.top
        assert panel.buttons[0].text() == _("Accept the rematch") and panel.buttons[0].enabled()
        assert scene.match.connection() == "up"
        host.close()
        run_until(app, None, lambda: scene.match.connection() == "closed", "the joiner to hear the host left")
        app.step(STEP)
        assert join.status == "over"  # (the session cannot say it: the game had ended)
        assert panel.buttons[0].text() == {"en": "Connection closed", "de": "Verbindung beendet",
                                           "nl": "Verbinding gesloten", "fr": "Connexion fermée"}[language]
        assert not panel.buttons[0].enabled()
        where = panel.buttons[0].rect.center
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=where, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=where, button=1))
        app.step(STEP)
        assert not scene.match.rematch_sent  # nothing was offered to nobody
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        join.close()
        host.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_closed_session_mid_game_shows_the_game_cannot_go_on(app, tmp_path, language):
    """Mid-game over loopback, the joiner's session closes (its network thread ended: status
    "closed"): the status line no longer reads "Waiting for Alice…" or "Your move is on its way…"
    but "The game cannot go on" with the banner over the board, in the player's language."""
    from game import i18n
    from game.i18n import _
    host = LanSession.host("Alice", port=0, bind="127.0.0.1")
    hp = Peer(host)
    join = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05)
    app.reset(LanLobby(app, join, on_back=lambda: None, store=SaveStore(tmp_path)))
    i18n.set_language(language)
    try:
        run_until(app, hp, lambda: isinstance(app.top, LanGameScene), "the game to start")
        scene = app.top
        run_until(app, (hp, Me(scene)), lambda: scene.match.state.ply >= 2, "a few moves")
        hp.auto = False
        join.close()
        assert join.status == "closed"
        app.step(STEP)
        for colour in (scene.match.color, scene.match.color.other):
            assert scene.waiting_line(colour) == _("The game cannot go on")
        assert scene.match.connection() == "closed"
        resign = next(b for b in scene.buttons if b.label == "Resign")
        assert not resign.enabled()  # a resignation could reach nobody ("Main menu" on the banner leaves)
        surface = pygame.Surface((1280, 800))
        drawn: list = []
        scene._draw_connection_banner = lambda surf, status: drawn.append(status)
        scene.draw(surface)
        assert drawn == ["closed"]
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        join.close()
        host.close()


def test_a_record_the_disk_refuses_is_said_in_the_players_language(app, tmp_path):
    """``rose-king host --record`` into a folder that does not exist, over loopback, in French: the
    host's window says the record could not be written, with the reason in French (ENOENT), not
    the operating system's "No such file or directory"; the game goes on."""
    from game import i18n
    from game.i18n import _
    i18n.set_language("fr")
    host = LanSession.host("Alice", port=0, bind="127.0.0.1", journal=tmp_path / "missing" / "game.json")
    join = LanSession.join("Bob", "127.0.0.1", host.port, reconnect_delay=0.05)
    app.reset(LanLobby(app, host, store=SaveStore(tmp_path)))
    try:
        peer = Peer(join)
        run_until(app, peer, lambda: any(isinstance(s, LanGameScene) for s in app.scenes), "the game to start")
        scene = game_scene(app)
        run_until(app, peer, lambda: scene.toast is not None and "enregistrement" in scene.toast[0],
                  "the write failure")
        assert scene.toast[0] == ("L'enregistrement n'a pas pu être écrit\u00a0: "
                                  "le fichier ou son dossier n’existe pas")
        assert "No such file" not in scene.toast[0] and host.write_errors
        run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 2, "the game to go on")
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        join.close()
        host.close()
