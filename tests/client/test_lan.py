"""Rose King's LAN play in the window on the one LAN layer: a windowed host
driven by posted mouse events against a joiner :class:`net.session.Session` on 127.0.0.1 that a
computer player runs between frames. Every wait is bounded (LIMIT seconds of wall time) and ends
on a condition, never on a sleep."""

from __future__ import annotations

import time

import pygame
import pytest

from game.client.app import STEP
from game.client.lan.lobby import LayerJoinScene, LobbyScene, host_table, join_table
from game.client.menus import MainMenu
from game.client.lan.endpanel import EndPanel as LanEndPanel
from game.client.roseking.lan import LanGameScene, LanResultPanel
from game.client.roseking.layout import BOARD_RECT
from game.client.textinput import TextInput
from game.roseking.ai import make_player
from game.roseking.engine import DRAW, Color, Record
from game.saves import SaveStore
from net.discovery import Beacon, BeaconListener
from game.roseking.lan.match import LAN
from net.session import Ended, Session, Started

LIMIT = 20.0


class Peer:
    """The far side: a Session whose seat a computer player moves for, one call per frame."""

    def __init__(self, session: Session, level: str = "greedy") -> None:
        self.session = session
        self.player = make_player(level, 3)
        self.events: list = []
        self.auto = True

    def pump(self) -> None:
        self.events += self.session.poll()
        s = self.session
        if self.auto and not s.catching_up:
            state = s.view(lambda m: LAN.turn(m, m.seat))
            if state is not None:
                try:
                    s.act(self.player.choose(state))
                except ValueError:
                    pass  # the position moved on meanwhile: look again next frame

    def state(self):
        return self.session.view(lambda m: None if m.state is None else m.state.copy())

    def record(self) -> dict:
        return self.session.view(lambda m: m.record())


class Me:
    """Our side in the window, moved by a computer player through the same path as clicks."""

    def __init__(self, scene, level: str = "greedy") -> None:
        self.scene = scene
        self.player = make_player(level, 5)

    def pump(self) -> None:
        scene = self.scene
        if scene.match.human_to_move() and not scene.busy():
            scene.input.submit(self.player.choose(scene.shown))


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


def joiner(port: int, name: str = "Bob", **kw) -> Session:
    return Session(LAN, "join", name, port=port, reconnect_delay=0.05, **kw)


@pytest.fixture
def lan(app, tmp_path):
    """A windowed host at its waiting screen and a joiner; yields (lobby, host, peer, store, made)."""
    made: list = []
    store = SaveStore(tmp_path)
    lobby = host_table(app, "rose-king", name="Alice", port=0, bind="127.0.0.1", store=store, beacon=False)
    host = lobby.session
    made.append(host)
    join = joiner(host.port)
    made.append(join)
    yield lobby, host, Peer(join), store, made
    while app.scenes:
        app.pop()
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
            assert not scene.match.human_to_move()
        else:
            driver.play(move)
        run_until(app, peer, lambda: scene.match.state.ply > before, "our move to come back")
        got = scene.match.state.move_stack[before]
        assert got.player is me and got.kind is move.kind and (move.kind is DRAW or got == move)
        mine += 1
    run_until(app, peer, lambda: not scene.busy() and peer.state().ply == scene.match.state.ply, "animations")
    for _i in range(3):
        app.step(STEP)
    assert scene.shown.move_stack == scene.match.state.move_stack == host.view(lambda m: m.state.move_stack)
    assert peer.state().state_hash() == scene.match.state.state_hash()


@pytest.fixture
def host_alone(app, tmp_path):
    """A windowed host at its waiting screen, no joiner yet; yields (lobby, host, made)."""
    lobby = host_table(app, "rose-king", name="Alice", port=0, bind="127.0.0.1", store=SaveStore(tmp_path),
                       beacon=False)
    made = [lobby.session]
    yield lobby, lobby.session, made
    while app.scenes:
        app.pop()
    for s in made:
        s.close()


def test_interruption_shows_the_banner_and_the_game_resumes_from_the_joiners_journal(app, driver, host_alone,
                                                                                     tmp_path):
    lobby, host, made = host_alone
    record = tmp_path / "bob.json"
    peer = Peer(joiner(host.port, record=record))
    made.append(peer.session)
    run_until(app, peer, lambda: any(isinstance(s, LanGameScene) for s in app.scenes), "the game to start")
    scene = game_scene(app)
    run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 2, "two plies")
    peer.session.close()  # the joiner's program goes away
    run_until(app, None, scene.lan.blocked, "the banner")
    app.step(STEP)
    assert "waiting for Bob to come back" in scene.banner_box.layout(app)[1][0]
    assert scene.waiting_line(scene.match.state.turn) == "Waiting for the connection…"
    ply = scene.match.state.ply
    driver.click(BOARD_RECT.center)  # a click on the board does nothing while waiting
    assert scene.match.state.ply == ply
    # restarted with its journal (a program without it would be a stranger, refused)
    back = Peer(joiner(host.port, record=record))
    made.append(back.session)
    run_until(app, back, lambda: not scene.lan.blocked() and any(isinstance(e, Started) for e in back.events),
              "the resume")
    assert [e.resumed for e in back.events if isinstance(e, Started)] == [True]
    assert back.state().move_stack[:ply] == scene.match.state.move_stack[:ply]
    run_until(app, (back, Me(scene)), lambda: scene.match.state.ply >= ply + 2, "play to go on")


def test_give_up_while_interrupted_goes_to_the_main_menu(app, driver, lan):
    scene = start(app, lan)
    _lobby, host, peer, _store, _made = lan
    peer.session.close()
    run_until(app, None, scene.lan.blocked, "the banner")
    driver.click(scene.banner_box.button.rect.center)
    assert isinstance(app.top, MainMenu)
    assert host.status == "closed"


def test_resign_ends_the_game_on_both_sides_keeps_the_record_and_play_again_reopens_the_table(app, driver, lan):
    scene = start(app, lan)
    _lobby, host, peer, store, _made = lan
    peer.auto = False
    first_id = scene.match.game_id
    run_until(app, peer, lambda: scene.match.human_to_move() or peer.state().turn != scene.match.color,
              "a moment where we may resign")
    resign = next(b for b in scene.buttons if b.label == "Resign")
    driver.click(resign.rect.center)
    driver.key(pygame.K_y)  # confirm
    run_until(app, peer, lambda: isinstance(app.top, LanEndPanel)
              and any(isinstance(e, Ended) for e in peer.events), "the end panel")
    over = next(e for e in peer.events if isinstance(e, Ended)).verdict
    assert over.kind == "resigned" and over.seat == 0  # the host, who resigned
    assert scene.lan.verdict.winners == (1,) and app.top.texts()[0] == "You resigned." and app.top.texts()[1][0] == "Bob wins!"
    assert scene.finished()  # the status says "Game over", never "... to move"
    saved = store.list()
    assert [e.kind for e in saved] == ["lan"] and saved[0].game_id == first_id.hex()
    assert Record.load(saved[0].path).extra["lan"]["resigned"] == str(scene.match.color)
    assert peer.record() == host.view(lambda m: m.record())
    port = host.port
    panel = app.top
    assert panel.buttons[0].text() == "Offer a rematch" and panel.buttons[0].enabled()
    driver.click(panel.buttons[0].rect.center)  # play again: the same table, on the same port
    assert isinstance(app.top, LobbyScene) and app.top.session.port == port and host.status == "closed"
    again = Peer(joiner(port))
    _made.append(again.session)
    run_until(app, again, lambda: any(isinstance(s, LanGameScene) for s in app.scenes), "the new game")
    assert game_scene(app).match.game_id != first_id and game_scene(app).lan.verdict is None


def test_a_finished_game_shows_the_result_and_both_records_match(app, lan):
    """The host's side is played by the computer through the same submit path as clicks."""
    scene = start(app, lan)
    _lobby, host, peer, store, _made = lan
    app.options.anim_speed = 0
    run_until(app, (peer, Me(scene)), lambda: isinstance(app.top, LanResultPanel), "the end", LIMIT * 3)
    run_until(app, peer, lambda: peer.session.verdict is not None, "the peer's end")
    assert scene.lan.verdict.kind == "finished"
    assert host.view(lambda m: m.record()) == peer.record()
    assert Record.load(store.list()[0].path).moves == peer.record()["moves"]


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
    host = Session(LAN, "host", "Carol", port=0)
    hp = Peer(host)
    own_id = bytes(range(16))
    listener = BeaconListener(bind="127.0.0.1", port=0, ignore={own_id})
    own = Beacon("Me", 1, address="127.0.0.1", dest_port=listener.port, interval=0.05, peer_id=own_id)
    beacon = Beacon("Carol", host.port, address="127.0.0.1", dest_port=listener.port, interval=0.05,
                    game="rose-king")
    scene = LayerJoinScene(app, key="rose-king", name="Dave", listener=listener, store=SaveStore(tmp_path))
    app.reset(scene)
    try:
        run_until(app, None, lambda: len(scene.found) >= 1 and own.sent >= 2, "the beacon")
        assert [g.name for g in scene.found] == ["Carol"]
        assert scene.rows[0].text().endswith("(Rose King)")
        driver.click(scene.rows[0].rect.center)
        run_until(app, hp, lambda: isinstance(app.top, LanGameScene), "the game to start")
        assert app.top.match.names[app.top.match.color.other] == "Carol"
    finally:
        for b in (own, beacon):
            b.stop()
        while app.scenes:
            app.pop()
        host.close()


def test_join_screen_says_what_is_wrong_with_a_typed_address(app, driver):
    scene = LayerJoinScene(app, key="rose-king", name="Dave", listen=False)
    app.reset(scene)
    driver.post(pygame.TEXTINPUT, text="host:notaport")
    driver.key(pygame.K_RETURN)
    assert "192.168.1.20" in scene.error and app.top is scene


def test_main_menu_has_host_and_join(app, driver, monkeypatch):
    import game.client.lan_common as common
    monkeypatch.setattr(common, "BeaconListener", lambda **kw: BeaconListener(bind="127.0.0.1", port=0, **kw))
    menu = MainMenu(app)
    app.reset(menu)
    labels = [b.label for b in menu.buttons]
    assert labels.index("Host a game") < labels.index("Join a game") < labels.index("Quit")
    rects = [b.rect for b in menu.buttons]
    assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    driver.click(menu.buttons[labels.index("Join a game")].rect.center)
    assert isinstance(app.top, LayerJoinScene) and app.top.listener is not None
    app.pop()  # closing the screen stops its listener


def test_a_session_without_a_deal_has_nothing_to_keep(tmp_path):
    from game.roseking.lan.record import save_text
    session = Session(LAN, "host", "Eve", port=0)
    try:
        assert save_text(session.view(lambda m: m.record())) is None
    finally:
        session.close()


def test_rose_king_join_with_a_window_resumes_its_journal(tmp_path, monkeypatch):
    """``rose-king join HOST:PORT --record FILE`` with a window (the shell's ``run_lan``): the window
    opens at the waiting screen, the unfinished game in the journal is resumed against the host,
    and the record grows."""
    import argparse
    import json

    from game.client import main as window
    from game.client.app import App

    host = Session(LAN, "host", "Alice", port=0)
    record = tmp_path / "bob.json"
    join = joiner(host.port, record=record)
    try:
        hp, jp = Peer(host), Peer(join)
        end = time.monotonic() + LIMIT
        while (jp.state() is None or jp.state().ply < 3) and time.monotonic() < end:
            hp.pump(), jp.pump()
            time.sleep(0.005)
        assert jp.state() is not None and jp.state().ply >= 3
        hp.auto = False
        join.close()  # the record and its private journal (bob.json.journal) stay
        seen = {}

        def run(self) -> int:  # instead of the real-time loop: frames until the game is on again
            run_until(self, hp, lambda: isinstance(self.top, LanGameScene) and not self.top.lan.blocked(), "resume")
            scene = self.top
            seen["resumed"] = scene.lan.net.started.resumed
            seen["ply"] = scene.match.state.ply
            seen["you"] = scene.match.controllers[scene.match.color].label
            while self.scenes:
                self.pop()
            return 0

        monkeypatch.setattr(App, "run", run)
        args = argparse.Namespace(target=("127.0.0.1", host.port), address="127.0.0.1", port=host.port,
                                  name="Bob", record=str(record), log_dir=str(tmp_path), headless=False, ai=None,
                                  game="rose-king")
        assert window.run_lan(args) == 0
        assert seen["resumed"] and seen["you"] == "Bob (you)" and seen["ply"] >= 3
        assert len(json.loads(record.read_text())["moves"]) >= seen["ply"] - 1
    finally:
        host.close()
        pygame.display.quit()


def test_the_lan_menu_says_menu_and_keeps_the_connection(app, driver, lan):
    """Nothing pauses in a network game: the menu is called "Menu" and the game goes on below."""
    from game.client.dialogs import PauseMenu
    scene = start(app, lan)
    _lobby, host, peer, _store, _made = lan
    peer.auto = False  # (it moves once the menu is open)
    me = scene.match.color
    run_until(app, peer, lambda: scene.match.human_to_move() or peer.state() is not None
              and peer.state().turn is not me, "a settled turn")
    if scene.match.state.turn is me:  # let the peer be the one to move: play ours first
        before = scene.match.state.ply
        run_until(app, peer, lambda: scene.match.human_to_move() and not scene.busy(), "our turn")
        assert scene.input.submit(next(m for m in scene.shown.legal_moves() if m.kind is not DRAW)) is None
        run_until(app, peer, lambda: scene.match.state.ply > before, "our move")
    driver.key(pygame.K_ESCAPE)
    menu = app.top
    assert isinstance(menu, PauseMenu) and menu.title == "Menu"
    before = scene.match.state.ply
    peer.auto = True
    run_until(app, peer, lambda: scene.match.state.ply > before, "the peer's move while the menu is open")
    assert isinstance(app.top, PauseMenu) and scene.match.state.move_stack[before].player is me.other


def test_menu_host_uses_the_settings_name_on_both_screens_and_in_the_record(app, tmp_path):
    """The name comes from Settings (never the login name) and is the same everywhere."""
    from game.client.lan.lobby import host_table
    app.prefs.update_game("rose-king", red_name="Rosalind")
    store = SaveStore(tmp_path)
    lobby = host_table(app, "rose-king", bind="127.0.0.1", port=0, store=store)
    assert lobby.session.name == "Rosalind"
    assert lobby.addresses == ["127.0.0.1"]  # bound to loopback: the one address a player can reach
    host = lobby.session
    join = joiner(lobby.session.port)
    peer = Peer(join)
    try:
        run_until(app, peer, lambda: any(isinstance(s, LanGameScene) for s in app.scenes), "the game to start")
        scene = game_scene(app)
        me = scene.match.color
        assert scene.player_names()[me] == "Rosalind" and scene.player_names()[me.other] == "Bob"
        run_until(app, peer, lambda: peer.state() is not None, "the peer's game")
        rec = peer.record()
        assert {rec["red"], rec["white"]} == {"Rosalind", "Bob"}
    finally:
        while app.scenes:
            app.pop()
        join.close()
        host.close()


def test_the_host_chooses_white_on_its_waiting_screen_and_plays_white(app, driver, tmp_path):
    """The host's screen has Red / White / Random (default Random); White hosts as White."""
    from game.client.lan.lobby import host_table
    lobby = host_table(app, "rose-king", bind="127.0.0.1", port=0, store=SaveStore(tmp_path))
    host = lobby.session
    run_until(app, None, lambda: lobby.session.status == "listening" and lobby.rows, "listening")
    by_label = {b.label: b for b in lobby.buttons}
    assert by_label["Random"].selected() and not by_label["Red"].selected()
    driver.click(by_label["Red"].rect.center)
    assert by_label["Red"].selected()
    driver.click(by_label["White"].rect.center)
    assert by_label["White"].selected() and not by_label["Random"].selected()
    run_until(app, None, lambda: host.options == {"colour": "white"}, "the choice on the session")
    join = joiner(host.port)
    peer = Peer(join)
    try:
        run_until(app, peer, lambda: any(isinstance(s, LanGameScene) for s in app.scenes), "the game to start")
        scene = game_scene(app)
        assert scene.match.color is Color.WHITE
        run_until(app, peer, lambda: peer.state() is not None, "the peer's game")
        assert join.view(lambda m: m.color_of(m.seat)) is Color.RED
        assert peer.record()["white"] == scene.player_names()[Color.WHITE]
    finally:
        while app.scenes:
            app.pop()
        join.close()
        host.close()


def test_a_failed_check_is_shown_in_the_players_language(app, lan):
    """The verdict's detail is English for the record; the end panel words it from its kind and move."""
    from game import i18n
    scene = start(app, lan)
    i18n.set_language("de")
    try:
        from net.match import Verdict
        scene.lan.verdict = Verdict("desync", -1, (), 4)
        panel = LanEndPanel(app, scene.lan, scene.tick, scene.on_main_menu, BOARD_RECT.center)
        app.push(panel)
        app.step(STEP)
        title, lines = panel.texts()
        assert title == "Die Partie wurde abgebrochen"
        assert lines[0] == ("Die Prüfung ergab, dass sich die Spielstände der Rechner bei Zug 4 unterscheiden: "
                            "Die Partie wurde abgebrochen.")
        white_seat = scene.lan.seat if scene.match.color is Color.WHITE else 1 - scene.lan.seat
        scene.lan.verdict = Verdict("forfeit", white_seat, (1 - white_seat,), 4)
        title, lines = panel.texts()
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
    i18n.set_language("de")
    try:
        lobby = join_table(app, "rose-king", "127.0.0.1", host.port, name="Cy", store=SaveStore(tmp_path / "cy"))
        made.append(lobby.session)
        run_until(app, peer, lambda: lobby.error, "the refusal")
        assert lobby.error == "In dieser Partie ist kein Platz für diesen Spieler."
        run_until(app, peer, lambda: lobby.session.status == "failed", "the failed status")
        app.step(STEP)
    finally:
        i18n.set_language("en")


def test_the_host_leaving_reads_in_the_players_language_on_the_joiners_banner(app, tmp_path):
    """Over loopback, in German: the window joins a headless host; the host leaves mid-game
    (``bye``); the joiner's connection banner says why in a German sentence, never the host's
    English reason."""
    from game import i18n
    host = Session(LAN, "host", "Alice", port=0)
    hp = Peer(host)
    i18n.set_language("de")
    try:
        lobby = join_table(app, "rose-king", "127.0.0.1", host.port, name="Bob", store=SaveStore(tmp_path))
        join = lobby.session
        run_until(app, hp, lambda: isinstance(app.top, LanGameScene), "the game to start")
        scene = app.top
        run_until(app, (hp, Me(scene)), lambda: scene.match.state.ply >= 2, "a few moves")
        host.close()
        run_until(app, None, lambda: join.status == "failed" and scene.lan.stop_code == "bye",
                  "the joiner to hear the host left")
        texts = [t for t, _img, _r in scene.banner_box.layout(app)]
        assert "Der Gastgeber ist gegangen: Die Partie ist vorbei." in texts
        app.step(STEP)
        assert scene.waiting_line(scene.match.color) == "Die Partie kann nicht weitergehen"
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        host.close()


def test_a_stopped_game_names_the_move_by_the_move_logs_number(app, lan):
    """A few moves into a game over loopback, in German: a verdict of ``illegal`` at the machine's
    ply names, on the end panel, the move the move log would give next (one after its last row)."""
    from game import i18n
    from game.client.roseking.movelog import ply_infos
    from net.match import Verdict
    scene = start(app, lan)
    _lobby, _host, peer, _store, _made = lan
    run_until(app, (peer, Me(scene)), lambda: scene.match.state.ply >= 3 and not scene.busy(), "three moves")
    peer.auto = False
    app.step(STEP)
    logged = [i.number for i in ply_infos(scene.match.state)]
    assert logged == list(range(1, len(logged) + 1))
    i18n.set_language("de")
    try:
        scene.lan.verdict = Verdict("illegal", 1 - scene.lan.seat, (), scene.match.state.ply, "x at ply 99")
        _title, lines = LanEndPanel(app, scene.lan, scene.tick, scene.on_main_menu, BOARD_RECT.center).texts()
        assert lines[0] == f"Bob hat einen regelwidrigen Zug gemacht (Zug {logged[-1] + 1}): Die Partie wurde abgebrochen."
        assert "99" not in lines[0]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_closed_session_mid_game_shows_the_game_cannot_go_on(app, tmp_path, language):
    """Mid-game over loopback, the joiner's session closes (its network thread ended: status
    "closed"): the status line no longer reads "Waiting for Alice…" or "Your move is on its way…"
    but "The game cannot go on" with the banner over the board, in the player's language."""
    from game import i18n
    from game.i18n import _
    host = Session(LAN, "host", "Alice", port=0)
    hp = Peer(host)
    lobby = join_table(app, "rose-king", "127.0.0.1", host.port, name="Bob", store=SaveStore(tmp_path),
                       on_back=lambda: None)
    join = lobby.session
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
        assert scene.lan.connection() == "closed"
        resign = next(b for b in scene.buttons if b.label == "Resign")
        assert not resign.enabled()  # a resignation could reach nobody ("Main menu" on the banner leaves)
        surface = pygame.Surface((1280, 800))
        drawn: list = []
        scene.banner_box.draw = lambda surf, app: drawn.append(scene.lan.connection())
        scene.draw(surface)
        assert drawn == ["closed"]
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        host.close()


def test_a_record_the_disk_refuses_is_said_in_the_players_language(app, tmp_path):
    """``rose-king host --record`` into a folder that vanished, over loopback, in French: the
    journal cannot be written, so nothing of the match is promised (it is written before its
    first message leaves); the host's waiting screen says why, with the reason in French
    (ENOENT), not the operating system's "No such file or directory"."""
    from game import i18n
    i18n.set_language("fr")
    folder = tmp_path / "gone"
    folder.mkdir()
    lobby = host_table(app, "rose-king", name="Alice", port=0, bind="127.0.0.1", store=SaveStore(tmp_path),
                       record=str(folder / "game.json"), beacon=False)
    host = lobby.session
    folder.rmdir()
    join = joiner(host.port)
    try:
        peer = Peer(join)
        run_until(app, peer, lambda: lobby.error, "the write failure")
        assert lobby.error == "L'enregistrement n'a pas pu être écrit\u00a0: le fichier ou son dossier n’existe pas"
        assert host.write_errors and not any(isinstance(s, LanGameScene) for s in app.scenes)
        app.step(STEP)
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        join.close()
        host.close()


def test_the_join_list_shows_each_tables_game_in_the_players_language(app, tmp_path):
    """One join screen lists every game's tables: the beacon's game key becomes the
    game's title, translated; an older beacon without it shows the table alone."""
    from game import i18n
    from net.discovery import FoundGame
    scene = LayerJoinScene(app, name="Dave", listen=False, store=SaveStore(tmp_path))
    scene.found = [FoundGame("Ann", "127.0.0.1", 47123, "1", b"\x01" * 16, True, 0.0, "rose-king"),
                   FoundGame("Bo", "127.0.0.2", 47123, "1", b"\x02" * 16, True, 0.0, "royals-riots"),
                   FoundGame("Cy", "127.0.0.3", 47123, "1", b"\x03" * 16, True, 0.0, ""),
                   FoundGame("Di", "127.0.0.4", 47123, "1", b"\x04" * 16, True, 0.0, "chess")]
    labels = [b.text() for b in scene.rows]
    assert labels == ["Ann at 127.0.0.1:47123 (Rose King)", "Bo at 127.0.0.2:47123 (Royals & Riots)",
                      "Cy at 127.0.0.3:47123", "Di at 127.0.0.4:47123"]
    i18n.set_language("de")
    try:
        assert scene.rows[0].text() == "Ann unter 127.0.0.1:47123 (%s)" % i18n._("Rose King")
        assert scene.rows[1].text().startswith("Bo unter ")
    finally:
        i18n.set_language("en")


def test_the_network_name_is_the_first_name_set_in_any_games_settings(app):
    """``settings_name``: the first name field set, games in registry order (Rose King's Red, then
    White), else the fallback; a blank name does not count (game.client.lan_common)."""
    from game.client.lan_common import settings_name
    assert settings_name(app, "Gast") == "Gast"
    app.prefs.update_game("rose-king", white_name="Wanda")
    assert settings_name(app, "Gast") == "Wanda"
    app.prefs.update_game("rose-king", red_name="Rosalind")
    assert settings_name(app, "Gast") == "Rosalind"


def test_the_menu_key_that_opens_the_join_screen_types_nothing_into_its_address(app):
    """The main menu's "Join a game" key (a digit) arrives as a TEXTINPUT too, in the same frame:
    the join screen takes typing only from its first update on."""
    scene = LayerJoinScene(app, key="rose-king", name="Dave", listen=False)
    app.reset(scene)
    scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="5"))
    assert scene.field.text == ""
    scene.update(1 / 60)
    scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="1"))
    assert scene.field.text == "1"


def test_our_colour_plays_from_the_bottom_and_no_other_board_changes(app, lan):
    """Whatever colour the window got, its hand and panel are at the bottom edge, the other's at
    the top; a board opened meanwhile (or after) keeps Red at the bottom: the side is the scene's."""
    from game.client.roseking.game_scene import BOARD_RECT, GameScene
    scene = start(app, lan)
    me = scene.match.color
    mine = scene.drawing.card_rect(me, scene.shown.hand(me)[0], 0)
    theirs = scene.drawing.card_rect(me.other, scene.shown.hand(me.other)[0], 0)
    assert mine.top > BOARD_RECT.bottom and theirs.bottom < BOARD_RECT.top
    assert GameScene.bottom is Color.RED  # the local boards' default is untouched
    from game.client.roseking.layout import hand_slot_rect
    assert hand_slot_rect(Color.RED, 0).top > BOARD_RECT.bottom


def test_the_join_screen_joins_with_the_name_typed_and_remembers_it(app, tmp_path):
    """"Join a game" has a name field (prefilled from Settings): the joiner is no longer "Guest",
    and the name is kept for the next table."""
    from game.client.lan.lobby import LayerJoinScene, LobbyScene
    from game.client.lan_common import settings_name
    host = Session(LAN, "host", "Alice", address="127.0.0.1", port=0)
    scene = LayerJoinScene(app, "rose-king", listen=False, store=SaveStore(tmp_path))
    app.push(scene)
    try:
        scene.name_field.set_text("Bob")
        scene.field.text = f"127.0.0.1:{host.port}"  # (the focused field: as typed)
        scene.join_typed()
        run_until(app, None, lambda: isinstance(app.top, LobbyScene) or scene.error, "the waiting screen")
        assert not scene.error, scene.error
        assert app.top.session.name == "Bob" and settings_name(app, "") == "Bob"
    finally:
        while app.scenes:
            app.pop()
        host.close()


def test_the_host_beacon_tells_its_players_free_seats_and_the_match_state(app, tmp_path):
    """The host's window keeps its beacon's table up to date: open with its free seat, then
    playing with both names, then over; the join list shows the players and the free seats."""
    from game.client.lan.lobby import LayerJoinScene
    from game.roseking.lan.match import RESIGN
    listener = BeaconListener(bind="127.0.0.1", port=0)
    lobby = host_table(app, "rose-king", name="Alice", port=0, bind="127.0.0.1", store=SaveStore(tmp_path),
                       beacon=False)
    lobby.beacon = Beacon("Alice", lobby.session.port, address="127.0.0.1", dest_port=listener.port, interval=0.05,
                          game="rose-king")
    join = LayerJoinScene(app, "rose-king", listener=listener)
    peer = None

    def heard(state: str, players: tuple, free: int) -> bool:
        join.update(STEP)
        return any((g.state, g.players, g.free) == (state, players, free) for g in join.found)
    try:
        run_until(app, None, lambda: heard("open", ("Alice",), 1), "the open table")
        assert join.rows[0].text().endswith("· Alice · 1 seat free")
        peer = Peer(joiner(lobby.session.port))
        run_until(app, peer, lambda: heard("playing", ("Alice", "Bob"), 0), "the table playing")
        assert join.rows[0].text().endswith("· Alice, Bob · playing")
        peer.auto = False

        def resign() -> bool:
            try:
                peer.session.act(RESIGN)
                return True
            except ValueError:
                return False
        run_until(app, peer, resign, "the joiner's resignation")
        run_until(app, peer, lambda: heard("over", ("Alice", "Bob"), 0), "the table over")
    finally:
        while app.scenes:
            app.pop()
        join.close()
        if peer is not None:
            peer.session.close()


def test_the_joiners_rematch_follows_its_hosts_beacon(app, tmp_path, monkeypatch):
    """After the end, the joiner's rematch button reads its host's table from the beacon: waiting
    while it is over, "Play again at Alice's table" once it is open again, "Alice has left" once
    its beacons stop."""
    from game.client.lan.endpanel import EndPanel
    from game.client.lan.lobby import join_table
    from game.client.lan.table import LanTable
    from game.roseking.lan.match import RESIGN
    from net.discovery import EXPIRE
    host = Session(LAN, "host", "Alice", address="127.0.0.1", port=0)
    hp = Peer(host)
    listener = BeaconListener(bind="127.0.0.1", port=0)
    monkeypatch.setattr(LanTable, "listen", lambda self: listener)
    beacon = Beacon("Alice", host.port, address="127.0.0.1", dest_port=listener.port, interval=0.05, game="rose-king")
    beacon.set_table(["Alice", "Bob"], 0, "playing")
    try:
        join_table(app, "rose-king", "127.0.0.1", host.port, name="Bob", store=SaveStore(tmp_path))
        run_until(app, hp, lambda: isinstance(app.top, LanGameScene), "the game")
        table = app.top.lan
        hp.auto = False

        def resign() -> bool:
            try:
                host.act(RESIGN)
                return True
            except ValueError:
                return False
        run_until(app, hp, resign, "the host's resignation")
        beacon.set_table(["Alice", "Bob"], 0, "over")
        run_until(app, hp, lambda: isinstance(app.top, EndPanel), "the end panel")
        run_until(app, hp, lambda: table.rematch_label() == ("Waiting for Alice…", False), "waiting")
        beacon.set_table(["Alice"], 1, "open")
        run_until(app, hp, lambda: table.rematch_label() == ("Play again at Alice's table", True), "open again")
        beacon.stop()
        run_until(app, hp, lambda: table.rematch_label() == ("Alice has left", False), "gone",
                  limit=LIMIT + EXPIRE)
        assert table.seat_state(0) == "left"
    finally:
        beacon.stop()
        while app.scenes:
            app.pop()
        host.close()
