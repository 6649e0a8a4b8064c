"""Royals & Riots in the window, driven headless through the real event handlers:
whole matches for 2 people and for a person with three computers in teams, the "pass to NAME"
screen between people only, and no hand ever drawn face up for the wrong person."""

from __future__ import annotations

import json
import time

import pygame
import pytest

from game.client.app import STEP
from game.client.royals.scene import RoyalsTableScene
from game.client.royals.setup import RoyalsSetup, start_match
from game.royals.match import Seat, TableConfig
from game.royals.engine import Phase
from game.royals.phrases import card_name
from game.royals.phrases import RANK_NAMES as RANK_WORDS


class Person:
    """Plays a match on the screen with clicks and keys, as people at the screen would, and
    checks after every frame that only the right hand was drawn face up."""

    def __init__(self, app, scene: RoyalsTableScene) -> None:
        self.app = app
        self.scene = scene
        self.passes: list[int] = []
        self.rounds_seen = 0
        self.face_ups: set[int] = set()
        self.keys_used = 0
        self.starts = 0
        self.news: list[list[str]] = []  # every "since your last turn" panel read

    def post(self, type_: int, **attrs) -> None:
        pygame.event.post(pygame.event.Event(type_, **attrs))

    def click(self, pos) -> None:
        pos = (int(pos[0]), int(pos[1]))
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        self.step()

    def key(self, key: int) -> None:
        self.post(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)
        self.post(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0)
        self.step()

    def step(self) -> None:
        s = self.scene
        before = s.passing
        self.app.step(STEP)
        if s.passing and s.passing != before:
            self.passes.append(s.passing)
        self.check_privacy()

    def check_privacy(self) -> None:
        s = self.scene
        humans = s.humans
        for seat in s.painter.drawn_face_up:
            self.face_ups.add(seat)
            assert s.match.is_human(seat), f"a computer's hand (seat {seat}) was drawn face up"
            if len(humans) >= 2:
                assert not s.passing, "a hand was drawn face up behind the pass screen"
                assert seat == s.revealed == s.match.human_to_act(), \
                    f"seat {seat}'s hand was drawn face up while seat {s.match.human_to_act()} decides"
        assert len(s.painter.drawn_face_up) <= 1

    def play_match(self, max_frames: int = 60000) -> None:
        s = self.scene
        for _i in range(max_frames):
            if s.modal == "over":
                return
            if s.modal == "round":
                self.rounds_seen += 1
                self.click(s.modal_buttons[0].rect.center)
                continue
            if s.passing:
                self.click((640, 400))
                continue
            if s.news is not None:
                self.read_news()
                continue
            seat = s.my_turn()
            if not seat:
                self.step()
                continue
            self.decide(seat)
        raise AssertionError("the match did not end")

    def read_news(self) -> None:
        """Read the "since your last turn" panel, then click it away."""
        self.news.append(self.scene.news_text())
        assert self.news[-1]
        self.click((640, 400))
        assert self.scene.news is None

    def decide(self, seat: int) -> None:
        s = self.scene
        phase = s.state.phase
        ply = s.state.ply
        if phase is Phase.KEEP:
            if seat % 2:  # one person lets the game choose, the other clicks the cards
                self.key(pygame.K_s)
            else:
                for card in s.match.suggested_hand(seat):
                    dealt = list(s.state.observation(seat).dealt)
                    self.click(s.layout.keep_rects(dealt)[dealt.index(card)].center)
            assert len(s.selected) == s.state.hand_size()
            self.key(pygame.K_RETURN)
        elif phase is Phase.PLAY:
            legal = [a.card for a in s.state.legal_actions()]
            hand = s.view.hands[seat - 1]
            if len(legal) < len(hand) and self.keys_used < 3:
                # an unplayable card is dimmed and says why when hovered; a click on it does nothing
                bad = next(c for c in hand if c not in legal)
                r = s.layout.hand_rects(len(hand))[hand.index(bad)]
                self.click(r.center)
                assert s.state.ply == ply and "follow" in s.toast
            if self.keys_used < 2 and len(hand) > 1:  # keyboard: arrows to a playable card, Enter
                self.keys_used += 1
                choices = s.controls.choices(seat)  # the arrows move over the playable cards only
                assert choices == [c for c in hand if c in legal]
                target = len(choices) - 1
                self.key(pygame.K_RIGHT)  # the first arrow shows the mark (on the first playable card)
                assert s.controls.focused() == choices[0] and s.state.ply == ply
                while s.focus % len(choices) != target:
                    self.key(pygame.K_RIGHT)
                    assert s.controls.focused() in legal
                self.key(pygame.K_RETURN)
            else:
                card = legal[-1]
                r = s.layout.hand_rects(len(hand))[hand.index(card)]
                self.click((r.centerx, r.centery))
        elif phase is Phase.STEAL:
            target = s.controls.choices(seat)[0]
            if s.steal_target != target:  # (the only player to rob is chosen already)
                self.click(s.layout.plate_rect(target).center)  # the player first ...
                assert s.state.ply == ply and s.steal_target == target
            backs = s.layout.back_rects(target, len(s.view.hands[target - 1]))
            self.click(backs[-1].center)  # ... then one of their face-down cards
        elif phase is Phase.EXECUTE:
            victim = next(c for _, c in s.view.trick if c.name != "EXECUTIONER")
            seat_of = next(x for x, c in s.view.trick if c == victim)
            self.click(s.layout.trick_rect(seat_of).center)
        elif phase is Phase.START:
            self.starts += 1
            self.click(s.layout.plate_rect(s.controls.choices(seat)[-1]).center)
        assert s.state.ply > ply, f"the decision in {phase} did not happen"


@pytest.fixture
def instant(app):
    app.options.anim_speed = 0.0
    return app


def test_a_whole_two_person_match_passes_the_screen_between_them(instant):
    cfg = TableConfig([Seat("Ann"), Seat("Bob")], seed=11)
    scene = start_match(instant, cfg, min_delay=0, use_process=False)
    p = Person(instant, scene)
    p.play_match()
    out = scene.state.outcome()
    assert out is not None and len(out.rounds) == 3
    assert p.rounds_seen == 2  # the score table after rounds 1 and 2; the result after round 3
    assert p.passes and set(p.passes) == {1, 2}
    assert p.face_ups == {1, 2}
    assert scene.match.last_trick is not None


def test_a_whole_four_player_team_match_against_computers_never_shows_the_pass_screen(instant):
    cfg = TableConfig([Seat("You"), Seat("Ada", "greedy"), Seat("Bram", "random"), Seat("Cato", "greedy")],
                      teams=True, seed=5)
    scene = start_match(instant, cfg, min_delay=0, use_process=False)
    p = Person(instant, scene)
    p.play_match()
    out = scene.state.outcome()
    assert out is not None and out.team_scores is not None
    assert p.passes == []
    assert p.face_ups == {1}
    # the result offers a rematch with the same seats
    rematch = scene.modal_buttons[0]
    p.click(rematch.rect.center)
    assert isinstance(instant.top, RoyalsTableScene) and instant.top is not scene
    assert instant.top.state.teams


def test_the_pass_screen_comes_between_two_people_and_not_before_a_computer(instant):
    cfg = TableConfig([Seat("Ann"), Seat("Bob"), Seat("Cas", "random")], seed=2)
    scene = start_match(instant, cfg, min_delay=0, use_process=False)
    p = Person(instant, scene)
    for _i in range(4000):
        if scene.modal:
            break
        if scene.passing:
            assert scene.match.human_to_act() == scene.passing
            p.click((640, 400))
            continue
        if scene.news is not None:
            p.read_news()
            continue
        seat = scene.my_turn()
        if seat:
            p.decide(seat)
        else:
            p.step()
    assert set(p.passes) == {1, 2}
    assert 3 not in p.passes


def test_set_up_starts_the_chosen_seats(instant):
    setup = RoyalsSetup(instant)
    instant.push(setup)
    setup.set_count(4)
    setup.toggle_teams()
    setup.cycle_level(0)  # person -> random
    cfg = setup.config()
    assert [s.level for s in cfg.seats] == ["random", "medium", "medium", "medium"] and cfg.teams
    setup.set_count(2)
    assert not setup.config().teams and len(setup.config().seats) == 2
    started = []
    setup.start_fn = started.append
    setup.start()
    again = RoyalsSetup(instant)  # the next set-up offers the same seats
    assert again.config() == started[0]


def test_the_last_set_up_survives_a_restart_and_a_bad_one_gives_the_defaults(instant, monkeypatch):
    """Start a match from a changed set-up; a new SettingsStore on the same folder (a restart)
    opens the set-up as it was left: seats, person or computer level per seat, names, teams,
    starter. A stored set-up that is damaged gives the defaults and the match starts all the same."""
    from game.settings import FILE_NAME, SettingsStore, config_dir
    setup = RoyalsSetup(instant)
    fresh = (setup.count, list(setup.levels), [f.text for f in setup.fields], setup.teams, setup.starter)
    setup.set_count(4)
    setup.toggle_teams()
    setup.cycle_level(1)  # medium -> hard
    setup.cycle_level(3)  # medium -> hard
    setup.cycle_level(3)  # hard -> person
    setup.fields[0].set_text("Ann")
    setup.fields[3].set_text("Joost")
    setup.cycle_starter()
    setup.cycle_starter()  # seat 2 starts
    started = []
    setup.start_fn = started.append
    setup.start()
    kept = (4, [None, "hard", "medium", None], ["Ann", "Bram", "Cato", "Joost"], True, 2)
    restarted = SettingsStore(config_dir())
    assert restarted.notice() is None
    assert restarted.settings.of("royals-riots").table == {  # kept in the file, not only in this process
        "seats": [{"name": "Ann", "level": None}, {"name": "Bram", "level": "hard"},
                  {"name": "Cato", "level": "medium"}, {"name": "Joost", "level": None}],
        "teams": True, "starter": 2}
    monkeypatch.setattr(instant.prefs, "store", restarted)
    again = RoyalsSetup(instant)
    assert (again.count, again.levels, [f.text for f in again.fields], again.teams, again.starter) == kept
    assert again.config() == started[0]

    path = config_dir() / FILE_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    data["games"]["royals-riots"]["table"]["seats"][1]["level"] = "grandmaster"
    path.write_text(json.dumps(data), encoding="utf-8")
    damaged = SettingsStore(config_dir())
    assert damaged.settings.of("royals-riots").table == {} and "Royals & Riots' last set-up" in damaged.notice()
    monkeypatch.setattr(instant.prefs, "store", damaged)
    plain = RoyalsSetup(instant)
    assert (plain.count, plain.levels, [f.text for f in plain.fields], plain.teams, plain.starter) == fresh
    plain.start_fn = started.append
    plain.start()
    assert len(started) == 2 and len(started[1].seats) == 3


def test_main_menu_offers_royals_and_riots(instant):
    from game.client.menus import game_tabs
    instant.go_home()
    labels = [b.text() for b in instant.top.buttons]
    assert "Play Royals & Riots" not in labels and "Play the computer" in labels
    pos = game_tabs()[1].center
    for t in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(t, pos=pos, button=1, rel=(0, 0), buttons=(0, 0, 0)))
    instant.step(STEP)
    menu = instant.top
    labels = [b.text() for b in menu.buttons]
    assert "Play the computer" not in labels
    assert "Play Royals & Riots" in labels
    assert instant.prefs.settings.game == "royals-riots"  # the menu opens on this tab next time too
    button = next(b for b in menu.buttons if b.text() == "Play Royals & Riots")
    p = Person.__new__(Person)
    p.app = instant
    pos = button.rect.center
    for t in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(t, pos=pos, button=1, rel=(0, 0), buttons=(0, 0, 0)))
    instant.step(STEP)
    assert isinstance(instant.top, RoyalsSetup)


def test_autosave_continue_and_replay_of_a_royals_match(instant):
    from game.client.royals.replay_view import RoyalsReplayScene
    from game.client.saved_games import open_game, open_replay
    from game.saves import shared_store
    cfg = TableConfig([Seat("You"), Seat("Ada", "random"), Seat("Bram", "greedy")], seed=4)
    scene = start_match(instant, cfg, min_delay=0, use_process=False)
    p = Person(instant, scene)
    for _i in range(400):  # part of round 1
        seat = scene.my_turn()
        if seat and scene.state.phase is Phase.PLAY and scene.state.trick_no >= 3:
            break
        p.decide(seat) if seat else p.step()
    ply = scene.state.ply
    # undo against the computers: back to the person's previous decision, and the same cards come again
    scene.undo()
    from game.client.dialogs import ConfirmDialog
    assert isinstance(instant.top, ConfirmDialog)  # cards were shown since that move: asked first
    instant.top._yes()
    assert scene.state.ply < ply and scene.match.undo_marked
    for _i in range(400):
        seat = scene.my_turn()
        if seat and scene.state.phase is Phase.PLAY and scene.state.trick_no >= 3:
            break
        p.decide(seat) if seat else p.step()
    instant.reset(RoyalsSetup(instant))  # leaving flushes the autosave
    entry = shared_store().resumable()
    assert entry is not None and entry.ok and entry.game == "royals-riots"
    assert shared_store().resumable("royals-riots") == entry and shared_store().resumable("rose-king") is None
    from game.client.menus import MainMenu
    for key, has_continue in (("rose-king", False), ("royals-riots", True)):  # on the tab of its game only
        instant.prefs.update(game=key)
        menu = MainMenu(instant)
        assert menu.game.key == key and (menu.buttons[0].key == pygame.K_c) == has_continue, key
    assert entry.players() == "You – Ada – Bram" and entry.status_text() == "in progress · You to play"
    assert entry.progress() == f"round 1 of 3, trick {scene.state.trick_no}"  # the match's own words
    open_game(instant, entry)
    resumed = instant.top
    assert isinstance(resumed, RoyalsTableScene) and resumed.state.history == scene.state.history
    assert resumed.match.config.seats[1].level == "random"
    instant.reset(RoyalsSetup(instant))
    assert open_replay(instant, entry.path) is None
    replay = instant.top
    assert isinstance(replay, RoyalsReplayScene)
    for _i in range(3000):
        instant.step(STEP)
        if replay.pos == len(replay.actions) and replay.idle():
            break
    assert replay.match.state.history == scene.state.history
    replay.seek(5)
    assert replay.match.state.ply == 5
    replay.back_step()
    assert replay.match.state.ply < 5


def test_undo_cannot_fish_a_theft():
    """Chance comes from the position: taking back a steal and stealing again from the same
    player takes the same card (undo against the computer cannot fish for hidden cards)."""
    from game.royals.match import TableMatch, choose_for, computer_player
    from game.royals.engine import Action
    for seed in range(40):
        m = TableMatch(TableConfig([Seat("You"), Seat("A", "random"), Seat("B", "random")], seed=seed))
        m.advance()
        bot = computer_player("random", seed)
        while not m.state.is_over():
            seat = m.decider()
            if seat == 1 and m.state.phase is Phase.STEAL:
                target = next(a.target for a in m.state.legal_actions() if a.target is not None)
                m.apply(Action.steal(1, target))
                first = m.state.history[-1]
                m.undo()
                assert m.state.phase is Phase.STEAL
                m.apply(Action.steal(1, target))
                assert m.state.history[-1] == first and first.card is not None
                return
            m.apply(choose_for(m.state, seat, bot))
    raise AssertionError("no theft by the person in 40 matches")


def test_the_hint_names_the_hard_players_choice(instant):
    cfg = TableConfig([Seat("You"), Seat("Ada", "random")], seed=3, seconds=0.05)
    scene = start_match(instant, cfg, min_delay=0, use_process=False)
    p = Person(instant, scene)
    for _i in range(300):
        seat = scene.my_turn()
        if seat and scene.state.phase is Phase.PLAY:
            break
        p.decide(seat) if seat else p.step()
    p.key(pygame.K_h)
    deadline = time.monotonic() + 30  # the hint searches in a thread; a still frame draws nothing, so wait on the clock
    while time.monotonic() < deadline and not scene.hint_text.startswith("Hint:"):
        p.step()
        time.sleep(0.005)
    assert scene.hint_text.startswith("Hint: play ") and ", because " in scene.hint_text  # with its reason
    (marked,) = scene.hint_cards  # and the card is marked on the table
    assert marked in scene.view.hands[0] and marked in scene.controls.choices(1)
    assert scene.hint_text.startswith(f"Hint: play {card_name(marked)}, because ")
    p.click(scene.layout.hand_rects(len(scene.view.hands[0]))[scene.view.hands[0].index(marked)].center)
    assert not scene.hint_cards and not scene.hint_text  # gone with the decision


def test_a_person_in_the_starting_team_picks_who_leads(instant):
    for seed in range(12):
        cfg = TableConfig([Seat("You"), Seat("Ada", "random"), Seat("Bram", "random"), Seat("Cato", "random")],
                          teams=True, seed=seed)
        scene = start_match(instant, cfg, min_delay=0, use_process=False, autosave=False)
        p = Person(instant, scene)
        p.play_match()
        if p.starts:
            return
    raise AssertionError("the person's team never started a round in 12 matches")


def test_a_refused_card_is_explained_in_the_players_language(instant, monkeypatch):
    """In German the dimmed card says why in German, on the click and under the mouse (never the
    engine's English reason), and a decision out of turn names the seat whose turn it is. The
    sentence comes from the refusal's reason code: the bridge that reads English texts is never
    asked."""
    from game import i18n
    from game.royals import phrases

    assert not hasattr(phrases, "_session_sentence")  # no bridge that reads English texts is left
    from game.royals.engine import Action, Rank
    cfg = TableConfig([Seat("Ann"), Seat("Ada", "random")], seed=7)
    scene = start_match(instant, cfg, min_delay=0, use_process=False, autosave=False)
    p = Person(instant, scene)
    i18n.set_language("de")
    try:
        for _i in range(3000):
            seat = scene.my_turn()
            if seat == 1 and scene.state.phase is Phase.PLAY:
                legal = [a.card for a in scene.state.legal_actions()]
                hand = scene.view.hands[0]
                if len(legal) < len(hand):
                    break
            p.decide(seat) if seat else p.step()
        else:
            raise AssertionError("no trick where Ann must follow")
        bad = next(c for c in hand if c not in legal)
        follow = f"Du musst {i18n._(RANK_WORDS[Rank(scene.state.led)])} bedienen."
        r = scene.layout.hand_rects(len(hand))[hand.index(bad)]
        p.click(r.center)
        assert scene.toast == follow and scene.state.phase is Phase.PLAY
        p.post(pygame.MOUSEMOTION, pos=r.center, rel=(0, 0), buttons=(0, 0, 0))
        p.step()
        assert scene.explain(scene.state.illegal_reason(Action.play(1, bad))) == follow
        assert not scene.act(Action.play(2, scene.view.hands[0][0]))
        assert scene.toast == "Ann ist am Zug."
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language, expected", [
    ("en", "The match could not be saved: the disk is read-only"),
    ("de", "Die Partie konnte nicht gespeichert werden: der Datenträger ist schreibgeschützt"),
    ("nl", "De partij kon niet worden opgeslagen: de schijf is alleen-lezen"),
    ("fr", "La partie n’a pas pu être enregistrée\u00a0: le disque est en lecture seule")])
def test_a_failing_autosave_is_said_at_the_table_in_the_players_language(instant, monkeypatch, language, expected):
    """The disk refuses the autosave (EROFS) after a decision: the table says so once, in the
    player's language (it said nothing before), never the operating system's English."""
    import errno

    from game import i18n
    from game.saves import SaveStore

    def refuse(self, game_id, text):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(SaveStore, "write", refuse)
    i18n.set_language(language)
    try:
        cfg = TableConfig([Seat("You"), Seat("Ada", "random")], seed=4)
        scene = start_match(instant, cfg, min_delay=0, use_process=False)
        p = Person(instant, scene)
        for _i in range(400):
            if scene.save_error() is not None:
                break
            seat = scene.my_turn()
            p.decide(seat) if seat else p.step()
            scene.saver.saver.flush(5)
        assert isinstance(scene.save_error(), OSError)
        instant.step(STEP)
        assert scene.toast == expected
        shown = scene.save_error()
        scene.toast = ""
        instant.step(STEP)
        assert scene.toast == "" and scene.save_error() is shown  # said once per failure
    finally:
        i18n.set_language("en")
        instant.reset(RoyalsSetup(instant))
