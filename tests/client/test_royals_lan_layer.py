"""Royals & Riots over the LAN in the window, on the one LAN layer, headless:
the host's set-up opens the shell's waiting screen, and whole matches of the dealer-free machine
between a window and headless peers over 127.0.0.1 (real sessions), the window deciding through
clicks and keys; a refused decision is worded from its reason code; a waiting table draws
nothing. Every wait is bounded and ends on a condition."""

from __future__ import annotations

import threading
import time

import pygame
import pytest

from game.client.app import STEP
from game.client.lan.lobby import LobbyScene, join_table
from game.client.lan.endpanel import EndPanel
from game.client.lan.host import HostSetup
from game.client.lan.table import code_lines
from game.client.royals.lan import FAIR_NOTICE, LanTableScene
from game.i18n import _
from game.royals.engine import Action, Phase, Record
from game.royals.phrases import illegal_text
from game.royals.plugin import GAME
from game.saves import SaveStore
from net.headless import play_match
from net.session import Session

LIMIT = 30.0
MATCH = 240.0  # seconds a whole match may take at most here


def run_until(app, cond, what: str, peers=(), limit: float = LIMIT) -> None:
    """Step the window (and let ``peers`` act) until ``cond()``; fail after ``limit`` seconds."""
    end = time.monotonic() + limit
    while not cond():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        for p in peers:
            p()
        app.step(STEP)
        time.sleep(0.001)  # let the network threads run


def headless(session: Session, seed: int) -> tuple[threading.Thread, dict]:
    """``session``'s seat played by the random player in a thread (as ``--headless --ai random``)."""
    out: dict = {}

    def run() -> None:
        try:
            out["verdict"] = play_match(session, GAME.lan.player("random", seed), timeout=MATCH)
        except Exception as e:  # noqa: BLE001 (the test reads it)
            out["error"] = e
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, out


def open_host_table(app, seats: int, computers: dict[int, str], tmp_path, teams: bool = False) -> LobbyScene:
    setup = HostSetup(app, "royals-riots", port=0, bind="127.0.0.1", store=SaveStore(tmp_path))
    app.push(setup)
    setup.field.set_text("Ann")
    setup.set_count(seats)
    for seat, level in computers.items():
        while setup.kinds[seat] != level:
            setup.cycle(seat)
    if teams:
        setup.toggle("teams")
    setup.open_table()
    lobby = app.top
    assert isinstance(lobby, LobbyScene), setup.error
    return lobby


class WindowPlayer:
    """Decides for the window's seat through real clicks and keys, and checks after every frame
    that no other seat's hand was drawn face up."""

    def __init__(self, app, driver) -> None:
        self.app, self.driver = app, driver
        self.decisions = 0

    def scene(self) -> LanTableScene | None:
        return next((s for s in reversed(self.app.scenes) if isinstance(s, LanTableScene)), None)

    def __call__(self) -> None:
        s = self.scene()
        if s is None:
            return
        assert s.painter.drawn_face_up <= {s.match.seat}, f"seat {s.painter.drawn_face_up}'s hand drawn face up"
        assert not s.reveal_all
        if s.modal == "round":
            self.driver.click(s.modal_buttons[0].rect.center)
            return
        seat = s.my_turn()
        if not seat or s.modal:
            return
        obs = s.session.view(lambda m: m.turn_for(m.seat))
        if obs is None:
            return  # the machine moved on since the last frame: ask again next frame
        phase = s.state.phase
        if phase is Phase.KEEP:
            self.driver.key(pygame.K_s)        # "Choose for me"
            self.driver.key(pygame.K_RETURN)   # "Keep these"
        elif phase is Phase.PLAY:
            legal = {a.card for a in obs.legal_actions()}
            hand = s.view.hands[seat - 1]
            rects = s.layout.hand_rects(len(hand))
            card = next((c for c in reversed(hand) if c in legal), None)
            if card is None:
                return
            self.driver.click(rects[hand.index(card)].center)
        elif phase is Phase.STEAL:
            self.driver.key(pygame.K_n)        # "Don't steal"
        else:                                   # execute a card of the trick, or choose who leads
            self.driver.key(pygame.K_RETURN)
        if not s.match.human_to_act():
            self.decisions += 1


def _rows(lobby) -> list:
    return [tuple(r[:2]) for r in lobby.rows]


def test_host_set_up_opens_the_waiting_screen_with_the_chosen_seats_and_no_dealer(app, tmp_path):
    lobby = open_host_table(app, 3, {2: "random"}, tmp_path)
    try:
        run_until(app, lambda: len(lobby.rows) == 3, "the seats")
        assert _rows(lobby) == [("host", "Ann"), ("open", ""), ("computer", "Computer (random)")]
        assert lobby.session.part.key == "royals-riots" and lobby.session.part.version == 5
        assert _(FAIR_NOTICE) in lobby.lan.lobby_lines(lobby)
        start = next(b for b in lobby.buttons if b.label == "Start the match")
        assert not start.enabled()  # seat 2 is open
    finally:
        while app.scenes:
            app.pop()


def test_a_whole_match_between_the_host_window_and_a_headless_joiner(app, driver, tmp_path):
    """Three seats: the window's host, a headless joiner and a computer the host runs. The
    window shows the match code the joiner has, keeps the record in the saved games, and
    never draws another seat's hand face up."""
    app.options.anim_speed = 0.0
    lobby = open_host_table(app, 3, {2: "random"}, tmp_path)
    joiner = Session(GAME.lan, "join", "Bo", port=lobby.session.port, reconnect_delay=0.05)
    thread, out = headless(joiner, 5)
    try:
        start = next(b for b in lobby.buttons if b.label == "Start the match")
        run_until(app, start.enabled, "the joiner to take seat 2")
        driver.click(start.rect.center)
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the table")
        table: LanTableScene = app.top
        assert table.match.seat == 1 and table.match.name(2) == "Bo"
        # the computer seat carries at the table the name the lobby showed and the record keeps
        assert table.match.name(3) == "Computer (random)"
        me = WindowPlayer(app, driver)
        run_until(app, lambda: table.modal == "over" and table.lan.saved is not None, "the match's end", [me],
                  limit=MATCH)
        thread.join(LIMIT)
        assert out.get("verdict") is not None and out["verdict"].kind == "finished", out
        kept = Record.from_json(open(table.lan.saved, encoding="utf-8").read())
        assert me.decisions >= 9 and len(kept.rounds) == 3
        theirs = joiner.view(lambda m: m.record())
        assert kept.to_dict()["rounds"] == theirs["rounds"]
        assert theirs["players"][2] == table.match.name(3)
        code = joiner.view(lambda m: m.code())
        assert code and table.lan.code == code
        notes = [n for n, _size in table.modal_notes()]
        assert all(line in notes for line in code_lines(code))  # the code and what it is for
        assert kept.replay().is_over() and kept.extra["kind"] == "lan"
        assert table.modal_buttons[0].text() == "Offer a rematch"
        assert table.painter.drawn_face_up <= {1}
    finally:
        joiner.close(1.0)
        while app.scenes:
            app.pop()


def test_a_whole_match_in_the_joiners_window_against_a_headless_host(app, driver, tmp_path):
    app.options.anim_speed = 0.0
    host = Session(GAME.lan, "host", "Ann", port=0, kinds=("host", "person"))
    thread, out = headless(host, 3)
    try:
        join_table(app, "royals-riots", "127.0.0.1", host.port, name="Bo", store=SaveStore(tmp_path))
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the table")
        table: LanTableScene = app.top
        assert table.match.seat == 2 and table.match.name(1) == "Ann"
        me = WindowPlayer(app, driver)
        run_until(app, lambda: table.modal == "over" and table.lan.saved is not None, "the match's end", [me],
                  limit=MATCH)
        thread.join(LIMIT)
        assert out["verdict"].kind == "finished", out
        kept = Record.from_json(open(table.lan.saved, encoding="utf-8").read())
        assert kept.to_dict()["rounds"] == host.view(lambda m: m.record())["rounds"]
        assert table.painter.drawn_face_up <= {2}
    finally:
        host.close(1.0)
        while app.scenes:
            app.pop()


@pytest.fixture
def waiting_table(app, tmp_path):
    """A 2-seat table in the host's window, the joiner a session this test plays by hand."""
    lobby = open_host_table(app, 2, {}, tmp_path)
    joiner = Session(GAME.lan, "join", "Bo", port=lobby.session.port, reconnect_delay=0.05)
    start = next(b for b in lobby.buttons if b.label == "Start the match")
    run_until(app, start.enabled, "the joiner to take seat 2")
    lobby.start()
    run_until(app, lambda: isinstance(app.top, LanTableScene), "the table")
    yield app.top, joiner
    joiner.close(1.0)
    while app.scenes:
        app.pop()


def _play_joiner(joiner: Session) -> None:
    obs = joiner.view(lambda m: m.turn_for(m.seat))
    if obs is not None:
        try:
            joiner.act(GAME.lan.player("random", 9)(obs))
        except ValueError:
            pass


def test_a_refused_decision_is_worded_from_its_reason_code_and_nothing_is_sent(app, waiting_table):
    table, joiner = waiting_table
    app.options.anim_speed = 0.0

    def refusable() -> bool:  # our play, with a card in hand the rules do not allow now
        if table.my_turn() and table.state.phase is Phase.PLAY:
            obs = table.session.view(lambda m: m.turn_for(m.seat))
            legal = {a.card for a in obs.legal_actions()} if obs is not None else set()
            return any(c not in legal for c in table.view.hands[0])
        return False

    def ours() -> None:  # our other decisions: choose a hand, play the first legal card
        if table.my_turn() and not refusable():
            obs = table.session.view(lambda m: m.turn_for(m.seat))
            if obs is not None:
                table.act(GAME.lan.player("random", 4)(obs))
    run_until(app, refusable, "a card we may not play", [lambda: _play_joiner(joiner), ours], limit=MATCH)
    obs = table.session.view(lambda m: m.turn_for(m.seat))
    legal = {a.card for a in obs.legal_actions()}
    card = next(c for c in table.view.hands[0] if c not in legal)
    sent = table.session.view(lambda m: len(m.envs))
    assert table.act(Action.play(1, card)) is False
    reason = table.session.view(lambda m: m.view.check(Action.play(1, card)))
    assert reason.code and table.toast == illegal_text(reason, table.match.name)
    assert table.session.view(lambda m: len(m.envs)) == sent


def test_the_network_table_rests_while_it_waits_for_our_decision(app, waiting_table):
    table, joiner = waiting_table
    run_until(app, lambda: table.my_turn() != 0, "our decision", [lambda: _play_joiner(joiner)])
    for _i in range(200):  # the welcome toast fades
        app.step(STEP)
    renders = app.renders
    for _i in range(30):
        app.step(STEP)
    assert app.renders == renders  # waiting for our decision draws nothing new


def test_set_up_cycles_seats_teams_only_for_four_and_the_beacon_names_the_game(app, driver, tmp_path):
    """The shell's "Host a game" with Royals & Riots' one switch, teams, offered for four seats."""
    from net.discovery import parse_beacon
    setup = HostSetup(app, "royals-riots", port=0, bind="127.0.0.1", store=SaveStore(tmp_path))
    app.push(setup)
    teams = next(b for b in setup.buttons if "Teams" in b.text())
    four = next(b for b in setup.buttons if b.text() == "4")
    two, three = (next(b for b in setup.buttons if b.text() == n) for n in ("2", "3"))
    assert not teams.enabled()
    driver.click(four.rect.center)
    assert setup.count == 4 and teams.enabled()
    driver.click(teams.rect.center)
    driver.click(setup.seat_buttons[0].rect.center)
    assert setup.table() == (("host", "computer", "person", "person"), {1: "random"}, {"teams": True})
    assert "Computer" in setup.seat_buttons[0].text()
    driver.click(two.rect.center)
    assert setup.table() == (("host", "computer"), {1: "random"}, {})
    assert not setup.seat_buttons[1].enabled()
    driver.click(three.rect.center)
    setup.open_table()
    lobby = app.top
    try:
        assert isinstance(lobby, LobbyScene) and lobby.session.options == {}
        assert lobby.beacon is not None and parse_beacon(lobby.beacon._data, "127.0.0.1", 0.0).game == "royals-riots"
    finally:
        while app.scenes:
            app.pop()


@pytest.fixture
def speak(app):
    """Switch the language as the Settings screen does; English after."""
    yield lambda code: app.prefs.store.update(language=code)
    app.prefs.store.update(language="en")


def test_a_stopped_match_names_the_seat_at_fault_and_redraws_in_the_new_language(app, waiting_table, speak):
    """A verdict naming the joiner (its forfeit): the shell's end panel says who, in the player's
    language, worded from the verdict's kind (never English text from the network)."""
    from net.match import Verdict
    from net.session import Ended
    table, _joiner = waiting_table
    table.lan.pending.append(Ended(Verdict("forfeit", 1, (), 3, "seat 1 withheld its key for 4")))
    run_until(app, lambda: isinstance(app.top, EndPanel), "the end panel")
    english = app.top.texts()
    assert "Bo" in " ".join(english[1]) and "its key for 4" not in " ".join(english[1])
    speak("nl")
    dutch = app.top.texts()
    assert dutch != english and "Bo" in " ".join(dutch[1])
