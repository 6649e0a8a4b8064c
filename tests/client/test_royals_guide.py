"""Royals & Riots' guided first game and the level descriptions at set-up.

The set-up's "Guided first game" starts a real match with the guide over the table: each
situation is explained once, the first time the person meets it, pointing at its part of the
table; the table waits while a bubble shows; "Stop the guide" or Esc leaves the plain match."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.app import STEP
from game.client.royals.scene import RoyalsTableScene
from game.client.royals.setup import RoyalsSetup, start_match
from game.client.royals.tutorial import STEP_BY_KEY, STEPS, GuideOverlay, situations
from game.royals.engine import Phase, Rng, State
from game.client.royals.setup import LEVEL_BLURBS


@pytest.fixture
def instant(app):
    app.options.anim_speed = 0.0
    return app


def click(app, pos) -> None:
    pos = (int(pos[0]), int(pos[1]))
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        attrs = {"rel": (0, 0), "buttons": (0, 0, 0)} if kind == pygame.MOUSEMOTION else {"button": 1}
        pygame.event.post(pygame.event.Event(kind, pos=pos, **attrs))
    app.step(STEP)


def guided(instant) -> tuple[RoyalsSetup, GuideOverlay]:
    setup = RoyalsSetup(instant)
    instant.push(setup)
    setup.start_fn = lambda cfg: start_match(instant, cfg, min_delay=0, use_process=False, autosave=False)
    button = next(b for b in setup.buttons if b.text() == i18n._("Guided first game"))
    click(instant, button.rect.center)
    guide = instant.top
    assert isinstance(guide, GuideOverlay) and isinstance(instant.scenes[-2], RoyalsTableScene)
    return setup, guide


def test_the_guided_first_game_explains_each_situation_once_and_the_table_waits(instant):
    _setup, guide = guided(instant)
    table = guide.table
    assert [s.level for s in table.match.config.seats] == [None, "greedy", "greedy"]
    shown: list[str] = []
    for _i in range(20000):
        if instant.top is not guide:
            break
        if guide.step is not None:
            step = guide.step
            shown.append(step.key)
            assert step.key in situations(table.match.state.observation(guide.seat))
            target, _text = guide.layout()
            assert step.anchor == "" or target is not None, step.key
            assert not guide.bubble.colliderect(target) if target is not None else True
            ply = table.match.state.ply
            for _j in range(30):  # the table waits while the bubble shows: no computer moves
                instant.step(STEP)
            assert table.match.state.ply == ply and guide.step is step
            click(instant, guide.ok_button.rect.center)
            continue
        if table.modal == "round":  # the score table after round 1: Continue
            click(instant, table.modal_buttons[0].rect.center)
            continue
        seat = table.my_turn()
        if seat and guide.due() is None:
            state = table.match.state
            if state.phase is Phase.KEEP:
                table.controls.suggest_keep()
                table.controls.confirm_keep()
            else:
                table.act(state.legal_actions()[0])
        instant.step(STEP)
    assert instant.top is table, shown  # the guide ended itself after its last step
    assert shown[0] == "keep" and shown[-1] == "round" and len(shown) == len(set(shown))
    # the deal is random: a player may never lead in round 1, but always plays to some trick
    assert "loot" in shown and ({"lead", "follow", "free"} & set(shown))
    assert table.match.state.round == 2


def test_stop_the_guide_and_esc_leave_the_plain_match(instant):
    _setup, guide = guided(instant)
    for _i in range(600):
        instant.step(STEP)
        if guide.step is not None:
            break
    assert guide.step is not None and guide.step.key == "keep"
    click(instant, guide.stop_button.rect.center)
    assert isinstance(instant.top, RoyalsTableScene) and guide.stopped
    _setup, guide = guided(instant)
    for _i in range(600):
        instant.step(STEP)
        if guide.step is not None:
            break
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    instant.step(STEP)
    assert isinstance(instant.top, RoyalsTableScene)


def test_situations_read_only_the_seats_own_information():
    """Every step is reachable, and the keys come from the observation alone: two states that
    differ only in another seat's hidden cards give the same situations."""
    rng = Rng(3)
    seen: set[str] = set()
    for seed in range(30):
        s = State(players=3)
        rng = Rng(seed)
        while not s.is_over() and s.round < 3:
            event = s.chance()
            if event is not None:
                s.push(event.sample(rng))
                continue
            seen.update(situations(s.observation(s.to_act)))
            assert situations(s.observation(s.to_act % 3 + 1)) == []  # not to act: nothing to explain
            s.push(rng.choice(s.legal_actions()))
    assert seen == set(STEP_BY_KEY), set(STEP_BY_KEY) - seen


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_every_bubble_and_level_description_fits(instant, language):
    i18n.set_language(language)
    _setup, guide = guided(instant)
    for step in STEPS:
        guide.step = step
        guide.layout()
        assert pygame.Rect(0, 0, 1280, 800).contains(guide.bubble)
        for b in guide.buttons:
            assert guide.bubble.contains(b.rect) and b.fits(instant.art), (step.key, b.text())
        assert not guide.ok_button.rect.colliderect(guide.stop_button.rect)
    setup = RoyalsSetup(instant)
    box = setup.description_rect()
    for level in LEVEL_BLURBS:
        setup.levels[1] = level
        setup.described = 1
        text, img, where = setup.description()
        assert box.contains(where), (level, text)
        assert i18n._(LEVEL_BLURBS[level]) in text
        others = [f.rect for f in setup.fields] + [b.rect for b in setup.buttons] + [r for _t, _i, r in setup.labels()]
        assert not any(box.colliderect(r) for r in others)


def test_the_set_up_describes_the_level_of_the_seat_pointed_at(instant):
    setup = RoyalsSetup(instant)
    instant.push(setup)
    setup.levels[:3] = [None, "random", "hard"]
    setup.count = 3
    setup.described = None
    assert setup.described_seat() == 1  # the first computer seat
    setup.cycle_level(2)  # hard -> person: nothing to describe at that seat; the first computer's
    assert setup.described_seat() == 1
    setup.cycle_level(2)  # person -> random
    assert setup.described_seat() == 2 and "no plan at all" in setup.description()[0]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=setup.seat_buttons[1].rect.center, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    instant.step(STEP)
    assert setup.described_seat() == 1
    setup.levels[1:3] = [None, None]
    assert setup.described_seat() is None and setup.description() is None
