"""The keyboard at the Royals & Riots table never plays a card by accident: the Enter that gets a
person the table (the pass screen's "press Enter to see your cards"), or an Enter meant for a
pass screen that does not come because the same person decides again, only shows the keyboard
mark; the next Enter plays the marked card."""

from __future__ import annotations

import pygame
import pytest

from game.client.royals.setup import start_match
from game.royals.match import Seat, TableConfig
from game.royals.engine import Phase

from .test_royals_ui import Person


@pytest.fixture
def instant(app):
    app.options.anim_speed = 0.0
    return app


def test_enter_reveals_a_hand_or_marks_a_card_and_never_plays_at_once(instant):
    scene = start_match(instant, TableConfig([Seat("Alice"), Seat("Bob")], seed=7), min_delay=0,
                        use_process=False, autosave=False)
    p = Person(instant, scene)
    plays = again = 0
    last_actor = 0
    for _i in range(20000):
        if scene.modal == "over" or plays >= 40:
            break
        if scene.modal == "round":
            p.click(scene.modal_buttons[0].rect.center)
            last_actor = 0
            continue
        if scene.passing:
            p.key(pygame.K_RETURN)  # "Bob: click or press Enter to see your cards."
            assert not scene.passing
            continue
        if scene.news is not None:
            p.key(pygame.K_RETURN)
            continue
        seat = scene.my_turn()
        if not seat:
            p.step()
            continue
        if scene.state.phase is not Phase.PLAY:
            p.decide(seat)
            last_actor = seat
            continue
        again += seat == last_actor  # no pass screen came: the same person plays again
        ply = scene.state.ply
        assert scene.controls.focused() is None  # no mark before the person's first key
        p.key(pygame.K_RETURN)
        assert scene.state.ply == ply, "the first Enter played a card"
        marked = scene.controls.focused()
        assert marked is not None and "Enter" in scene.toast
        p.key(pygame.K_RETURN)
        assert scene.state.ply > ply and scene.state.history[ply].card == marked
        plays += 1
        last_actor = seat
    assert plays >= 40 and again >= 1


def test_the_arrows_move_the_mark_from_the_first_press_on_and_space_plays_the_marked_card(instant):
    scene = start_match(instant, TableConfig([Seat("Alice"), Seat("Bob", "random")], seed=3), min_delay=0,
                        use_process=False, autosave=False)
    p = Person(instant, scene)
    for _i in range(5000):
        if scene.my_turn() and scene.state.phase is Phase.PLAY and len(scene.controls.choices(1)) > 1:
            break
        if scene.my_turn():
            p.decide(1)
        else:
            p.step()
    choices = scene.controls.choices(1)
    ply = scene.state.ply
    p.key(pygame.K_RIGHT)  # shows the mark on the first playable card
    assert scene.controls.focused() == choices[0] and scene.state.ply == ply
    p.key(pygame.K_RIGHT)
    assert scene.controls.focused() == choices[1]
    p.key(pygame.K_SPACE)
    assert scene.state.ply > ply and scene.state.history[ply].card == choices[1]


def test_the_thief_robs_by_a_click_on_the_chosen_players_name_box(instant):
    from .test_royals_table import person_at
    scene = person_at(instant, Phase.STEAL)
    p = Person(instant, scene)
    p.step()
    targets = scene.controls.choices(1)
    target = targets[-1]
    ply = scene.state.ply
    if len(targets) > 1:  # (with one hand to rob, its player is chosen already)
        p.click(scene.layout.plate_rect(target).center)  # the name box: this player is chosen ...
        assert scene.steal_target == target and scene.state.ply == ply
    assert scene.steal_target == target
    p.click(scene.layout.plate_rect(target).center)  # ... and a click on the glowing box robs them
    assert scene.state.ply > ply
    steal = scene.state.history[ply]
    assert steal.kind.value == "steal" and steal.target == target
