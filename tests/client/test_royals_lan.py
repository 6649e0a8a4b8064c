"""Royals & Riots over the LAN in the window (issue 13), headless: the host's set-up and lobby,
the join screen learning the host's game from its hello, a whole match between a host window
and a headless joiner over 127.0.0.1 (the real RoyalsSession), and the table driven by a fake
session for the faults (a failed check, a lost connection, a dropped player's seat)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import pygame
import pytest

from game.client.app import STEP
from game.client.theme import CANVAS
from game.client.royals.lan import (HOST_NOTICE, LanTableMatch, LanTableScene, RoyalsHostSetup, RoyalsJoinScene,
                                    RoyalsLobby, check_code)
from game.royals.engine import Action, IllegalMoveError, Phase, Record, Rng, State
from game.saves import SaveStore
from net.royals_session import (Acted, Failed, LobbyChanged, MatchOver, RoyalsSession, SeatInfo, StatusChanged,
                                ViewSnapshot)

LIMIT = 30.0  # seconds any wait here may take at most (a whole match has its own, longer limit)


def run_until(app, cond, what: str, peers=(), limit: float = LIMIT) -> None:
    """Step the window (and let ``peers`` act) until ``cond()``; fail after ``limit`` seconds."""
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        for p in peers:
            p()
        app.step(STEP)
        time.sleep(0.001)  # let the network threads run


def headless_joiner(session: RoyalsSession, seed: int = 7):
    """A joiner that plays a random legal decision whenever it is its turn (as ``--headless --ai random``)."""
    rng = random.Random(seed)
    events: list = []

    def act() -> None:
        events.extend(session.poll())
        if session.my_turn:
            legal = session.legal_actions()
            if legal:
                try:
                    session.play(rng.choice(legal))
                except IllegalMoveError:
                    pass  # the turn moved on meanwhile
    act.events = events  # type: ignore[attr-defined]
    return act


def open_host_table(app, seats: int, computers: dict[int, str], tmp_path) -> RoyalsLobby:
    setup = RoyalsHostSetup(app, name="Ann", port=0, bind="127.0.0.1", store=SaveStore(tmp_path))
    app.push(setup)
    setup.set_count(seats)
    for seat, level in computers.items():
        while setup.kinds[seat - 1] != level:
            setup.cycle(seat - 1)
    setup.open_table()
    lobby = app.top
    assert isinstance(lobby, RoyalsLobby), setup.error
    return lobby


class WindowPlayer:
    """Decides for the window's seat through real clicks and keys, and checks after every drawn
    frame that no other seat's hand was drawn face up."""

    def __init__(self, app, driver) -> None:
        self.app, self.driver = app, driver
        self.decisions = 0

    def scene(self) -> LanTableScene | None:
        top = next((s for s in reversed(self.app.scenes) if isinstance(s, LanTableScene)), None)
        return top

    def __call__(self) -> None:
        s = self.scene()
        if s is None:
            return
        assert s.drawn_face_up <= {s.match.seat}, f"seat {s.drawn_face_up}'s hand drawn face up"
        assert not s.reveal_all
        if s.modal == "round":
            self.driver.click(s.modal_buttons[0].rect.center)
            return
        seat = s.my_turn()
        if not seat or s.modal:
            return
        phase = s.state.phase
        before = s.session.my_turn
        if phase is Phase.KEEP:
            self.driver.key(pygame.K_s)        # "Choose for me"
            self.driver.key(pygame.K_RETURN)   # "Keep these"
        elif phase is Phase.PLAY:
            legal = {a.card for a in s.session.legal_actions()}
            hand = s.view.hands[seat - 1]
            rects = s.hand_rects(len(hand))
            card = next((c for c in reversed(hand) if c in legal), None)
            if card is None:
                return  # the session moved on between the two questions: ask again next frame
            self.driver.click(rects[hand.index(card)].center)
        elif phase is Phase.STEAL:
            self.driver.key(pygame.K_n)        # "Don't steal"
        else:                                   # execute a card of the trick, or choose who leads
            self.driver.key(pygame.K_RETURN)
        if before and not s.session.my_turn:
            self.decisions += 1


def test_host_set_up_opens_a_lobby_with_the_chosen_seats_and_the_notice(app, driver, tmp_path):
    lobby = open_host_table(app, 4, {3: "random"}, tmp_path)
    try:
        session = lobby.session
        kinds = [(i.seat, i.kind) for i in session.lobby]
        assert kinds == [(1, "host"), (2, "open"), (3, "computer"), (4, "open")]
        start = lobby.buttons[-1]
        assert start.label == "Start the match" and not start.enabled()  # two person seats are still open
        app.step(STEP)
        driver.click(start.rect.center)
        assert session.status == "lobby"  # nothing started
        assert "learns every hand" in HOST_NOTICE and lobby.addresses == ["127.0.0.1"]  # bound to loopback
        # the table's beacon names its game, so one join screen lists it as Royals & Riots (issue 33)
        from net.discovery import parse_beacon
        assert lobby.beacon is not None and parse_beacon(lobby.beacon._data, "127.0.0.1", 0.0).game == "royals-riots"
    finally:
        driver.key(pygame.K_ESCAPE)  # Cancel closes the table
    assert lobby.session is None


def test_set_up_cycles_seats_teams_only_for_four(app, driver, tmp_path):
    setup = RoyalsHostSetup(app, name="Ann", port=0, bind="127.0.0.1")
    app.push(setup)
    teams = next(b for b in setup.buttons if "Teams" in b.text())
    assert not teams.enabled()
    driver.key(pygame.K_4)
    assert setup.count == 4 and teams.enabled()
    driver.click(teams.rect.center)
    assert setup.teams
    driver.click(setup.seat_buttons[1].rect.center)
    assert setup.computers() == {2: "random"} and "Computer" in setup.seat_buttons[1].text()
    driver.key(pygame.K_2)
    assert setup.count == 2 and not setup.teams and setup.computers() == {2: "random"}
    assert not setup.seat_buttons[2].enabled()


def test_a_whole_match_between_the_host_window_and_a_headless_joiner_over_loopback(app, driver, tmp_path):
    """Three seats: the window's host, a headless joiner and a computer run by the host."""
    app.options.anim_speed = 0.0
    lobby = open_host_table(app, 3, {3: "random"}, tmp_path)
    session = lobby.session
    joiner = RoyalsSession.join("Bo", "127.0.0.1", session.port)
    bo = headless_joiner(joiner)
    try:
        start = lobby.buttons[-1]
        run_until(app, start.enabled, "the joiner to take seat 2", [bo])
        assert [(i.seat, i.kind, i.name, i.connected) for i in session.lobby][1] == (2, "person", "Bo", True)
        driver.click(start.rect.center)
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the table", [bo])
        table: LanTableScene = app.top
        assert table.match.seat == 1 and [table.match.name(s) for s in (1, 2)] == ["Ann", "Bo"]
        me = WindowPlayer(app, driver)
        run_until(app, lambda: table.modal == "over" and table.saved is not None, "the match's end", [bo, me],
                  limit=240)
        assert me.decisions >= 9 and len(table.record.to_dict()["rounds"]) == 3  # three rounds, played by clicks
        run_until(app, lambda: any(isinstance(e, MatchOver) for e in bo.events), "the joiner's record", [bo])
        theirs = next(e.record for e in bo.events if isinstance(e, MatchOver))
        assert table.record.to_dict()["rounds"] == theirs.to_dict()["rounds"]
        code = check_code(table.record)  # shown under the result, the same on every screen
        assert code is not None and len(code) == 19 and code == check_code(theirs)
        kept = Record.from_json(open(table.saved, encoding="utf-8").read())
        assert kept.replay().is_over() and kept.players == table.record.players
        assert kept.extra["kind"] == "lan" and [s["level"] for s in kept.extra["seats"]] == [None, None, "random"]
        from game.saves import default_data_dir
        running = sorted((default_data_dir() / "lan").glob("royals-*.json"))  # the session's own running record
        assert len(running) == 1 and Record.from_json(running[0].read_text(encoding="utf-8")).replay().is_over()
        assert table.drawn_face_up <= {1}
    finally:
        joiner.close()
        while app.scenes:
            app.pop()


def test_a_four_seat_team_match_in_the_host_window_with_two_joiners_and_a_computer(app, driver, tmp_path):
    """Teams 1 + 3 against 2 + 4: the window's host (seat 1), headless joiners at seats 2 and 4,
    a computer at seat 3 (the host's partner)."""
    app.options.anim_speed = 0.0
    setup = RoyalsHostSetup(app, name="Ann", port=0, bind="127.0.0.1", store=SaveStore(tmp_path))
    app.push(setup)
    driver.key(pygame.K_4)
    driver.click(next(b for b in setup.buttons if "Teams" in b.text()).rect.center)
    driver.click(setup.seat_buttons[2].rect.center)  # seat 3: a computer (Beginner)
    setup.open_table()
    lobby = app.top
    assert isinstance(lobby, RoyalsLobby) and [i.kind for i in lobby.session.lobby] == ["host", "open", "computer",
                                                                                         "open"]
    joiners = [RoyalsSession.join(n, "127.0.0.1", lobby.session.port) for n in ("Bo", "Di")]
    players = [headless_joiner(j, seed=i) for i, j in enumerate(joiners)]
    try:
        run_until(app, lobby.buttons[-1].enabled, "both joiners seated", players)
        driver.click(lobby.buttons[-1].rect.center)
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the table", players)
        table: LanTableScene = app.top
        assert table.state.teams and table.match.name(3) == "Cato"
        me = WindowPlayer(app, driver)
        run_until(app, lambda: table.modal == "over" and table.saved is not None, "the match's end",
                  [*players, me], limit=240)
        out = table.state.outcome()
        assert out is not None and out.team_scores is not None and table.drawn_face_up <= {1}
        # the result says the record is kept and shows the check code, inside the panel; the one
        # button (no rematch over the network) lies under the panel
        box, items = table.modal_layout()
        notes = {text: r for text, _s, r in items if "record" in text or "check code" in text}
        assert set(notes) == {"The record is kept in the saved games.",
                              f"Match check code {check_code(table.record)}: the same on every player's screen."}
        assert all(box.inflate(-16, -16).contains(r) for r in notes.values())
        (menu,) = table.modal_buttons
        assert menu.text() == "Main menu" and menu.rect.top > box.bottom and menu.rect.bottom < CANVAS[1]
    finally:
        for j in joiners:
            j.close()
        while app.scenes:
            app.pop()


def test_a_whole_match_in_the_joiners_window_against_a_headless_host(app, driver, tmp_path):
    """The window joins (typed address), waits in the lobby, and plays seat 2 to the end; the host
    (headless, random) runs seat 3's computer. Only seat 2's hand is ever drawn face up."""
    app.options.anim_speed = 0.0
    host = RoyalsSession.host("Ann", seats=3, computers={3: "random"}, port=0, bind="127.0.0.1")
    ann = headless_joiner(host, seed=3)  # the same random player, on the host's seat

    def host_starts() -> None:
        if host.can_start:
            host.start()
        ann()
    try:
        join = RoyalsJoinScene(app, name="Bo", listen=False, store=SaveStore(tmp_path))
        app.push(join)
        driver.post(pygame.TEXTINPUT, text=f"127.0.0.1:{host.port}")
        driver.key(pygame.K_RETURN)
        run_until(app, lambda: isinstance(app.top, RoyalsLobby), "the lobby")
        lobby = app.top
        assert "Leave" == lobby.buttons[0].label and len(lobby.buttons) == 1  # no Start for a joiner
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the host to start", [host_starts])
        table: LanTableScene = app.top
        assert table.match.seat == 2 and table.match.name(3) == "Cato"
        me = WindowPlayer(app, driver)
        run_until(app, lambda: table.modal == "over" and table.saved is not None, "the match's end",
                  [host_starts, me], limit=240)
        assert me.decisions >= 9 and table.drawn_face_up <= {2}
        run_until(app, lambda: any(isinstance(e, MatchOver) for e in ann.events), "the host's record", [ann])
        theirs = next(e.record for e in ann.events if isinstance(e, MatchOver))
        assert table.record.to_dict()["rounds"] == theirs.to_dict()["rounds"]
    finally:
        while app.scenes:
            app.pop()
        host.close()


def test_the_join_screen_learns_the_game_from_the_hosts_hello(app, driver, tmp_path):
    host = RoyalsSession.host("Ann", seats=2, port=0, bind="127.0.0.1")
    try:
        join = RoyalsJoinScene(app, name="Bo", listen=False, store=SaveStore(tmp_path))
        app.push(join)
        driver.post(pygame.TEXTINPUT, text=f"127.0.0.1:{host.port}")
        driver.key(pygame.K_RETURN)
        run_until(app, lambda: isinstance(app.top, RoyalsLobby), "the Royals lobby")
        lobby = app.top
        run_until(app, lambda: host.can_start, "Bo seated at the host")
        assert lobby.session.my_seat == 2 and [i.name for i in host.lobby] == ["Ann", "Bo"]
        driver.key(pygame.K_ESCAPE)  # Leave
        assert app.top is join and lobby.session is None
    finally:
        host.close()


def test_the_royals_join_screen_opens_rose_kings_lobby_for_a_rose_king_host(app, driver, tmp_path):
    from game.client.lan.lobby import LobbyScene
    from game.client.roseking.lan import DealScene, LanGameScene
    from net.roseking.match import LAN
    from net.session import Session
    host = Session(LAN, "host", "Carol", port=0)
    try:
        join = RoyalsJoinScene(app, name="Dave", listen=False, store=SaveStore(tmp_path))
        app.push(join)
        join.join("127.0.0.1", host.port)
        run_until(app, lambda: isinstance(app.top, (LobbyScene, DealScene, LanGameScene)), "Rose King's waiting screen",
                  [host.poll])
    finally:
        while app.scenes:
            app.pop()
        host.close()


def test_joining_where_nobody_hosts_says_so_and_keeps_trying(app, driver):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    join = RoyalsJoinScene(app, name="Bo", listen=False)
    app.push(join)
    join.join("127.0.0.1", port)
    run_until(app, lambda: isinstance(app.top, RoyalsLobby), "the lobby that keeps knocking", limit=20)
    lobby = app.top
    end = time.monotonic() + 10
    while lobby.nobody_answers() is None and time.monotonic() < end:
        app.step(STEP)
    text = lobby.nobody_answers()
    assert text is not None and f"127.0.0.1:{port}" in text
    driver.key(pygame.K_ESCAPE)
    assert app.top is join


def test_a_bad_typed_address_is_explained(app, driver):
    join = RoyalsJoinScene(app, name="Bo", listen=False)
    app.push(join)
    driver.post(pygame.TEXTINPUT, text="host:notaport")
    driver.key(pygame.K_RETURN)
    assert "192.168.1.20" in join.error and app.top is join


# --------------------------------------------------------------------------- the table on a fake session
@dataclass
class FakeSession:
    """The RoyalsSession API the window uses, driven by the test: the true match runs here with
    every seat's random choices; :attr:`view` is our seat's :class:`ViewSnapshot` of it."""

    seat: int = 2
    players: int = 3
    status: str = "playing"
    status_text: str = "Playing"

    def __post_init__(self) -> None:
        self.truth = State(self.players)
        self.rng = Rng(5)
        self.events: list = []
        self.lobby = [SeatInfo(1, "host", "Ann", True), SeatInfo(2, "person", "Bo", True),
                      SeatInfo(3, "person", "Cy", True)][:self.players]
        self.played: list[Action] = []
        self.handed: list[tuple[int, str]] = []
        self.closed = False
        self.my_seat = self.seat
        self.port = 0
        self.role = "host" if self.seat == 1 else "join"
        self.address = "127.0.0.1"

    @property
    def view(self) -> ViewSnapshot:
        return ViewSnapshot(self.seat, self.truth.copy(), self.truth.observation(self.seat))

    @property
    def my_turn(self) -> bool:
        return self.status == "playing" and self.truth.to_act == self.seat and not self.truth.is_chance()

    @property
    def can_start(self) -> bool:
        return False

    def legal_actions(self) -> list[Action]:
        return self.truth.legal_actions() if self.my_turn else []

    def others(self, limit: int = 1000) -> None:
        """Chance and the other seats act until it is our turn (or the match ends)."""
        for _i in range(limit):
            s = self.truth
            if s.is_over() or self.my_turn:
                return
            event = s.chance()
            a = event.sample(self.rng) if event is not None else self.rng.choice(s.legal_actions())
            s.push(a)
            self.events.append(Acted(s.ply, a.seat, str(a)))

    def play(self, action: Action) -> None:
        if not self.my_turn or action not in self.truth.legal_actions():  # worded as RoyalsSession.play words it
            raise IllegalMoveError(f"{action}: {self.truth.illegal_reason(action) or 'not a legal action now'}")
        self.played.append(action)
        self.truth.push(action)
        self.events.append(Acted(self.truth.ply, action.seat, str(action)))

    def poll(self) -> list:
        out, self.events = self.events, []
        return out

    def hand_to_computer(self, seat: int, level: str) -> None:
        self.handed.append((seat, level))

    def close(self) -> None:
        self.closed = True


def fake_table(app, seat: int = 2) -> tuple[LanTableScene, FakeSession]:
    fake = FakeSession(seat=seat)
    fake.others()
    scene = LanTableScene(app, fake)
    app.reset(scene)
    app.options.anim_speed = 0.0
    for _i in range(5):
        app.step(STEP)
    return scene, fake


def test_the_network_table_follows_the_session_and_sends_our_decisions(app, driver):
    scene, fake = fake_table(app)
    assert scene.match.state.ply == fake.truth.ply and scene.my_turn() == 2
    assert all(scene.match.config.seats[s - 1].level is not None for s in (1, 3))  # only seat 2 is ours
    assert not any(b.label in ("Hint", "Undo") for b in scene.buttons)
    driver.key(pygame.K_s)
    driver.key(pygame.K_RETURN)  # our hand choice goes to the session ...
    assert len(fake.played) == 1 and fake.played[0].seat == 2
    assert scene.match.state.ply == fake.truth.ply  # ... and comes back as an action
    fake.others()
    for _i in range(3):
        app.step(STEP)
    assert scene.match.state.ply == fake.truth.ply
    assert scene.drawn_face_up <= {2}


def test_an_illegal_click_is_explained_and_nothing_is_sent(app, driver):
    scene, fake = fake_table(app)
    driver.key(pygame.K_s)
    driver.key(pygame.K_RETURN)
    fake.others()
    for _i in range(5):
        app.step(STEP)
    # a card that is not legal now (when following is forced), or a click while it is not our turn
    sent = len(fake.played)
    fake.status = "interrupted"
    app.step(STEP)
    assert scene.my_turn() == 0 and scene.overlay() == ("waiting",)
    hand = scene.view.hands[1]
    driver.click(scene.hand_rects(len(hand))[0].center)
    assert len(fake.played) == sent


def play_until(app, scene, fake, cond, what: str, seed: int = 3) -> None:
    """Our seat plays random legal decisions through the session, the others act, until ``cond()``."""
    rng = random.Random(seed)
    for _i in range(2000):
        if cond():
            return
        if fake.my_turn:
            fake.play(rng.choice(fake.truth.legal_actions()))
        else:
            fake.others()
        app.step(STEP)
    raise AssertionError(f"never reached {what}")


def test_a_failed_check_stops_the_table_naming_the_seat_and_where_in_the_players_terms(app, driver):
    """The table names where the match stopped as its header counts (round and trick), never the
    engine's ply (deals and draw piles included), which no player can match to the table."""
    scene, fake = fake_table(app)
    truth = fake.truth
    play_until(app, scene, fake, lambda: truth.phase is Phase.PLAY and truth.trick_no >= 2 and truth.to_act == 3
               and not scene.queue, "Cy's turn in a later trick")
    assert scene.state.round == truth.round and scene.view.trick_no == truth.trick_no  # the header's numbers
    reason = f"seat 3, ply {truth.ply} (3 play K4): must follow the led Monks"
    fake.events += [Failed(3, truth.ply, "3 play K4", reason, "illegal"), StatusChanged("failed", "The match was stopped")]
    fake.status = "failed"
    app.step(STEP)
    assert scene.overlay() == ("failed",) and scene.my_turn() == 0
    assert scene.failure == (f"Cy broke the rules in round {truth.round}, trick {truth.trick_no}: "
                             "the match was stopped.")
    assert str(truth.ply) not in scene.failure
    fake.events += [Failed(3, 5, "3 keep K4", "seat 3, ply 5 (3 keep K4): hand is not a subset of the deal", "illegal")]
    app.step(STEP)
    assert scene.failure == "Cy broke the rules while round 1 was set up: the match was stopped."
    assert not scene.unsaved_game()
    main = scene.overlay_buttons[0]
    assert main.label == "Main menu"
    home = []
    scene.on_main_menu = lambda: home.append(1)
    driver.click(main.rect.center)
    assert home == [1]


def test_the_host_is_asked_about_a_dropped_player_and_can_hand_the_seat_over(app, driver):
    scene, fake = fake_table(app, seat=1)
    fake.others()
    dropped = (SeatInfo(1, "host", "Ann", True), SeatInfo(2, "person", "Bo", False), SeatInfo(3, "person", "Cy", True))
    fake.events.append(LobbyChanged(dropped))
    app.step(STEP)
    assert scene.overlay() == ("dropped", 2)
    wait, level, hand_over = scene.overlay_buttons
    driver.click(level.rect.center)
    assert scene.level != "easy"
    driver.click(hand_over.rect.center)
    assert fake.handed == [(2, scene.level)] and scene.overlay() is None
    computer = (dropped[0], SeatInfo(2, "computer", "Bo", True), dropped[2])
    fake.events.append(LobbyChanged(computer))
    app.step(STEP)
    assert scene.match.config.seats[1].level == "lan-computer" and not scene.dropped


def test_a_joiner_sees_a_dropped_player_as_a_plain_wait(app, driver):
    scene, fake = fake_table(app, seat=2)
    fake.events.append(LobbyChanged((SeatInfo(1, "host", "Ann", True), SeatInfo(2, "person", "Bo", True),
                                     SeatInfo(3, "person", "Cy", False))))
    app.step(STEP)
    assert scene.overlay() is None and scene.dropped == {3}  # only the host decides about the seat


def test_the_match_table_syncs_a_jump_without_animating_every_action(app):
    fake = FakeSession(seat=2)
    match = LanTableMatch(fake)
    fake.others()
    beats = match.sync(fake.view.state)
    assert any(b.kind == "deal" for b in beats) and match.state.ply == fake.truth.ply
    with pytest.raises(IllegalMoveError):
        match.apply(Action.steal(2, None))
    assert match.computer_to_act() == 0 and match.undo_seat() == 0


def test_the_network_table_rests_when_nothing_happens(app):
    scene, fake = fake_table(app)
    for _i in range(200):  # the welcome toast fades
        app.step(STEP)
    renders = app.renders
    for _i in range(30):
        app.step(STEP)
    assert app.renders == renders  # waiting for our decision draws nothing new
    fake.status_text = "Playing (Cy is away)"
    app.step(STEP)
    assert app.renders == renders + 1


def test_a_player_leaving_after_the_match_is_no_drop(app):
    scene, fake = fake_table(app, seat=1)
    fake.status = "over"
    fake.events.append(LobbyChanged((SeatInfo(1, "host", "Ann", True), SeatInfo(2, "person", "Bo", False),
                                     SeatInfo(3, "person", "Cy", True))))
    app.step(STEP)
    assert not scene.dropped and scene.overlay() is None


def test_a_rejoin_finds_the_journal_of_that_hosts_unfinished_match(tmp_path):
    import json

    from game.client.royals.lan import resumable_record
    for name, j in (("royals-a", {"address": "127.0.0.1", "port": 47123, "over": False}),
                    ("royals-b", {"address": "127.0.0.1", "port": 47124, "over": False}),
                    ("royals-c", {"address": "127.0.0.1", "port": 47123, "over": True})):
        (tmp_path / f"{name}.json.journal").write_text(json.dumps(j), encoding="utf-8")
    (tmp_path / "royals-d.json.journal").write_bytes(b"\xff not json")
    assert resumable_record("127.0.0.1", 47123, tmp_path) == str(tmp_path / "royals-a.json")
    assert resumable_record("127.0.0.2", 47123, tmp_path) is None
    (tmp_path / "royals-a.json.journal").unlink()
    assert resumable_record("127.0.0.1", 47123, tmp_path) is None


def test_a_resumed_table_shows_the_position_at_once_and_learns_the_names(app):
    fake = FakeSession(seat=2)
    fake.others()
    fake.play(fake.truth.legal_actions()[0])  # our hand choice
    fake.others()
    fake.lobby = []  # a resumed joiner knows no seats until the host's next lobby message
    fake.events.clear()
    scene = LanTableScene(app, fake)
    app.reset(scene)
    app.step(STEP)
    assert scene.match.state.ply == fake.truth.ply > 8 and scene.idle()  # no replay of the whole round
    assert scene.match.name(1) == "Player 1"
    fake.events.append(LobbyChanged((SeatInfo(1, "host", "Ann", True), SeatInfo(2, "person", "Bo", True),
                                     SeatInfo(3, "computer", "Computer (hard)", True))))
    app.step(STEP)
    assert [scene.match.name(s) for s in (1, 2, 3)] == ["Ann", "Bo", "Cato"]
    assert [s.level for s in scene.match.config.seats] == ["lan-host", None, "hard"]


def test_far_behind_the_session_the_table_catches_up_at_once(app):
    from game.client.royals.lan import CATCH_UP_BEATS
    scene, fake = fake_table(app)
    app.options.anim_speed = 1.0
    for _i in range(40):
        fake.truth.push(fake.truth.legal_actions()[0]) if not fake.truth.is_chance() else \
            fake.truth.push(fake.truth.chance().sample(fake.rng))
        fake.events.append(Acted(fake.truth.ply, 0, "x"))
        if fake.truth.is_over():
            break
    app.step(STEP)
    assert len(scene.queue) <= CATCH_UP_BEATS and scene.match.state.ply == fake.truth.ply


def test_a_journal_of_an_old_match_at_that_host_is_moved_aside_and_the_join_starts_afresh(app, driver, tmp_path):
    import json

    from game.saves import default_data_dir
    host = RoyalsSession.host("Ann", seats=2, port=0, bind="127.0.0.1")
    folder = default_data_dir() / "lan"
    folder.mkdir(parents=True, exist_ok=True)
    old = {"format": "royals-lan-journal", "version": 1, "game": "ab" * 16, "seat": 2, "players": 2,
           "teams": False, "names": ["Old", "Bo"], "date": "", "computers": [], "key": "01" * 32,
           "host_key": "02" * 32, "address": "127.0.0.1", "port": host.port, "match": None}
    (folder / "royals-old.json.journal").write_text(json.dumps(old), encoding="utf-8")
    try:
        join = RoyalsJoinScene(app, name="Bo", listen=False, store=SaveStore(tmp_path))
        app.push(join)
        join.join("127.0.0.1", host.port)
        run_until(app, lambda: isinstance(app.top, RoyalsLobby), "the lobby")
        lobby = app.top
        run_until(app, lambda: host.can_start, "Bo seated in the new match")
        assert lobby.notice and not lobby.error and lobby.session.my_seat == 2
        assert (folder / "royals-old.json.journal.old").exists() and not (folder / "royals-old.json.journal").exists()
    finally:
        while app.scenes:
            app.pop()
        host.close()


def test_the_lobby_draws_only_when_something_changes(app, tmp_path):
    lobby = open_host_table(app, 2, {}, tmp_path)
    try:
        for _i in range(10):
            app.step(STEP)
        renders = app.renders
        for _i in range(60):  # one second: the waiting dots step twice
            app.step(STEP)
        assert 2 <= app.renders - renders <= 6
    finally:
        lobby.cancel()


def test_rose_kings_join_screen_hands_a_royals_host_over_to_the_royals_lobby(app, driver, tmp_path):
    from game.client.lan.lobby import LayerJoinScene
    host = RoyalsSession.host("Ann", seats=2, port=0, bind="127.0.0.1")
    try:
        join = LayerJoinScene(app, key="rose-king", name="Bo", listen=False, store=SaveStore(tmp_path))
        app.push(join)
        join.join("127.0.0.1", host.port)  # the host's hello names its game: the Royals lobby opens
        run_until(app, lambda: isinstance(app.top, RoyalsLobby), "the Royals lobby")
        run_until(app, lambda: host.can_start, "Bo seated at the Royals table")
        assert app.top.session.my_seat == 2 and [i.name for i in host.lobby] == ["Ann", "Bo"]
        driver.key(pygame.K_ESCAPE)
        assert app.top is join
    finally:
        while app.scenes:
            app.pop()
        host.close()


def test_a_failed_round_check_reads_in_the_players_language(app):
    """The host's reveal does not open a seat's commitment: the joiner's table says so in German,
    naming the seat at fault, never with the protocol's English reason."""
    from game import i18n
    scene, fake = fake_table(app)
    i18n.set_language("de")
    try:
        reason = "seat 1, ply 40 (round): seat 1's secret does not open its commitment"
        fake.events += [Failed(1, 40, "round", reason, "coin"), StatusChanged("failed", reason)]
        fake.status = "failed"
        app.step(STEP)
        host = scene.match.name(1)
        assert scene.overlay() == ("failed",)
        assert scene.failure == (f"Die Prüfung des gemeinsamen Münzwurfs ist auf der Seite von {host} "
                                 "fehlgeschlagen: Die Partie wurde abgebrochen.")
        fake.events += [StatusChanged("closed", "the connection failed")]
        app.step(STEP)
        assert scene.failure.startswith("Die Prüfung")  # the first word on it stays
    finally:
        i18n.set_language("en")


def test_a_refused_play_reads_in_the_players_language(app, driver):
    from game import i18n
    scene, fake = fake_table(app)
    assert scene.my_turn() == 2 and scene.state.phase is Phase.KEEP
    i18n.set_language("de")
    try:
        assert not scene.act(Action.play(2, "KING"))  # a card before the hands are chosen
        assert scene.toast == "Zuerst wählt jeder die Karten, die er auf der Hand behält." and not fake.played
        assert scene.explain("3 play K4: must follow Royals") == \
            i18n._("You must follow {rank}.").format(rank=i18n._("Royals"))
        assert scene.explain("wrong seat: seat 3 is to play") == "Cy ist am Zug."
    finally:
        i18n.set_language("en")


def test_a_full_table_is_explained_in_the_players_language(app, tmp_path):
    """Over loopback: a host of 2 seats, one joiner seated; a second joiner's lobby says in German
    that there is no seat for it (the host's English reason is not shown)."""
    from game import i18n
    host = RoyalsSession.host("Ann", seats=2, port=0, bind="127.0.0.1")
    bo = RoyalsSession.join("Bo", "127.0.0.1", host.port)
    i18n.set_language("de")
    try:
        run_until(app, lambda: host.can_start, "Bo seated", peers=(bo.poll, host.poll))
        join = RoyalsJoinScene(app, name="Cy", listen=False, store=SaveStore(tmp_path))
        app.push(join)
        join.join("127.0.0.1", host.port)
        run_until(app, lambda: isinstance(app.top, RoyalsLobby) and app.top.error, "the refusal",
                  peers=(bo.poll, host.poll))
        lobby = app.top
        assert lobby.error == "An diesem Tisch gibt es keinen Platz für diesen Spieler."
        assert "full" not in lobby.error
        app.step(STEP)  # drawn as "Die Partie kann nicht starten: ..."
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        bo.close()
        host.close()


def test_refusals_at_the_network_table_read_in_the_players_language(app, tmp_path):
    """Over loopback, in German, at the host's table of a match under way: a third player knocking
    (turned away: the table is full) and a seat handed to a computer that is not a dropped
    player's show whole German sentences, never the session's English reason."""
    from game import i18n
    app.options.anim_speed = 0.0
    lobby = open_host_table(app, 2, {}, tmp_path)
    session = lobby.session
    joiner = RoyalsSession.join("Bo", "127.0.0.1", session.port)
    bo = headless_joiner(joiner)
    cy = None
    i18n.set_language("de")
    try:
        run_until(app, lambda: session.can_start, "Bo seated", [bo])
        lobby.start()
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the table", [bo])
        table: LanTableScene = app.top
        table.toast = ""
        cy = RoyalsSession.join("Cy", "127.0.0.1", session.port)
        run_until(app, lambda: table.toast.startswith("Ein Spieler"), "the turned-away player", [bo, cy.poll])
        assert table.toast == "Ein Spieler wollte beitreten und wurde abgewiesen: Der Tisch ist voll."
        table.hand_over(2)  # Bo is connected: not a dropped player's seat
        assert table.toast == ("Nur der Platz eines Spielers, der die Verbindung verloren hat, kann einem Computer "
                               "übergeben werden.")
        app.step(STEP)
    finally:
        i18n.set_language("en")
        for s in (cy, joiner):
            if s is not None:
                s.close()
        while app.scenes:
            app.pop()


def test_the_host_leaving_reads_in_the_players_language_in_the_lobby_and_at_the_table(app, tmp_path):
    """Over loopback, in German, in the joiner's window: a host that closes its table before the
    match, and one that leaves a match under way, are explained by whole German sentences (the
    lobby's line, the session's status line, the table's panel), never the host's English reason."""
    from game import i18n
    i18n.set_language("de")
    made: list = []
    try:
        for started in (False, True):
            host = RoyalsSession.host("Ann", seats=2, port=0, bind="127.0.0.1")
            bo = RoyalsSession.join("Bo", "127.0.0.1", host.port)
            made += [host, bo]
            lobby = RoyalsLobby(app, bo, on_back=lambda: None, store=SaveStore(tmp_path))
            app.reset(lobby)
            run_until(app, lambda: host.can_start, "Bo seated", peers=(host.poll,))
            if started:
                host.start()
                run_until(app, lambda: isinstance(app.top, LanTableScene), "the table", peers=(host.poll,))
            host.close()
            run_until(app, lambda: bo.status == "failed", "Bo to hear the host left")
            app.step(STEP)
            if started:
                table = app.top
                assert table.overlay() == ("failed",)
                assert table.failure == "Der Gastgeber ist gegangen: Die Partie ist vorbei."
                assert bo.status_text == table.failure
            else:
                assert lobby.error == bo.status_text == "Der Gastgeber hat den Tisch geschlossen."
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        for s in made:
            s.close()


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_a_lobby_whose_host_closed_the_table_claims_no_live_connection(app, tmp_path, language):
    """Over loopback, in the joiner's window of a three-seat table (seat 3 still open): before the
    host closes, Bo's own seat reads "connected" with a green dot; once the host has closed the
    table the lobby keeps the seats as they were, greyed, Bo's seat reads "connection closed",
    the open one "empty", no line reads "connected" (German "verbunden") or "waiting", and the
    reason stays under them."""
    from game import i18n
    from game.client.royals.lan import GREYED_DOT
    from game.i18n import _
    i18n.set_language(language)
    made: list = []
    try:
        host = RoyalsSession.host("Ann", seats=3, port=0, bind="127.0.0.1")
        bo = RoyalsSession.join("Bo", "127.0.0.1", host.port)
        made += [host, bo]
        lobby = RoyalsLobby(app, bo, on_back=lambda: None, store=SaveStore(tmp_path))
        app.reset(lobby)
        run_until(app, lambda: any(i.kind == "person" and i.connected for i in bo.lobby), "Bo seated",
                  peers=(host.poll,))
        row = pygame.Rect(0, 0, 720, 52)

        def states() -> dict[int, str]:
            return {info.seat: lobby.row_texts(info, row, bo.my_seat)[1][0] for info in bo.lobby}

        assert states()[bo.my_seat] == _("connected")
        assert lobby.seat_dot(bo.lobby[bo.my_seat - 1]) != GREYED_DOT
        host.close()
        run_until(app, lambda: bo.status == "failed", "Bo to hear the host left")
        app.run_frames(2)
        assert lobby.closed() and lobby.error
        shown = states()
        assert shown[bo.my_seat] == _("connection closed")
        assert shown[3] == _("empty")
        assert _("connected") not in shown.values()
        assert _("open: waiting for a player") not in shown.values()
        assert {lobby.seat_dot(info) for info in bo.lobby} == {GREYED_DOT}
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
        for s in made:
            s.close()


def test_a_table_that_cannot_be_opened_and_a_host_that_speaks_nonsense_read_in_the_players_language(app, tmp_path):
    """In German: the host set-up's error is a whole sentence (no port can be opened; a name the
    session refuses), and the join screen words what a "host" on 127.0.0.1 sent instead of a hello
    (bytes that are no frame, or nothing at all), never the English detail."""
    import socket
    import threading

    from game import i18n

    def refuse_port(name, port, **kw):
        raise OSError(98, "Address already in use")

    i18n.set_language("de")
    try:
        setup = RoyalsHostSetup(app, name="Ann", port=0, bind="127.0.0.1", store=SaveStore(tmp_path),
                                session_factory=refuse_port)
        app.push(setup)
        setup.open_table()
        assert setup.error == ("Der Tisch kann nicht eröffnet werden: Auf diesem Rechner lässt sich kein "
                               "Netzwerkport öffnen.")
        setup.session_factory = None  # the real session refuses a name with a control character
        setup.field.text = "An\x07n"
        setup.open_table()
        assert app.top is setup and setup.error == \
            "Der Tisch kann nicht eröffnet werden: Dein Name darf nur druckbare Zeichen enthalten."
        app.step(STEP)
        app.pop()
        for sent, expected in ((b"\x00\x00\x00\x00nonsense", "spricht nicht das Netzwerkprotokoll dieses Programms."),
                               (b"", "hat die Verbindung geschlossen, ohne zu sagen, welches Spiel dort läuft.")):
            server = socket.create_server(("127.0.0.1", 0))
            port = server.getsockname()[1]

            def answer(server=server, sent=sent) -> None:
                conn, _addr = server.accept()
                with conn:
                    conn.sendall(sent)
                server.close()
            threading.Thread(target=answer, daemon=True).start()
            join = RoyalsJoinScene(app, name="Bo", listen=False, store=SaveStore(tmp_path))
            app.push(join)
            join.join("127.0.0.1", port)
            run_until(app, lambda: join.error, "the probe's verdict")
            assert join.error == f"127.0.0.1:{port} {expected}"
            app.step(STEP)
            app.pop()
    finally:
        i18n.set_language("en")
        while app.scenes:
            app.pop()
