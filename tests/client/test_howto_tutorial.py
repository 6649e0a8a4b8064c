"""The "How to play" screen in every language with its pictures, and the first-game tutorial."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.roseking import rulesbook
from game.client.roseking.game_scene import GameScene
from game.client.roseking.howto import PAGE, PICTURE, HowToPlay, MiniBoard, draw_illustration
from game.client.roseking.layout import CANVAS
from game.client.menus import MainMenu
from game.client.settings_scene import SettingsScene
from game.client.roseking.tutorial import TutorialOverlay, anchor_rect
from game.roseking.engine import Color, parse_square
from game.client.roseking.art import art_of

from .test_settings_ui import button


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_how_to_play_renders_every_page_in_each_language(app, driver, lang):
    app.prefs.update(language=lang)
    app.reset(MainMenu(app))
    driver.click(button(app.top, i18n._("How to play")).rect.center)
    scene = app.top
    assert isinstance(scene, HowToPlay)
    expected = rulesbook.how_to_play()
    assert [s.title for s in scene.sections] == [s.title for s in expected]
    for i in range(len(expected)):
        assert scene.page == i
        app.run_frames(3)
        assert scene.text_bottom <= PAGE.bottom - 20, f"page {i} text overflows in {lang}"
        driver.key(pygame.K_RIGHT)
    assert scene.page == len(expected) - 1
    driver.key(pygame.K_ESCAPE)
    assert isinstance(app.top, MainMenu)


def test_how_to_play_follows_a_language_change_at_once(app):
    scene = HowToPlay(app)
    app.push(scene)
    app.run_frames(1)
    assert scene.sections[0].title == "Goal of the game"
    app.prefs.update(language="de")
    app.run_frames(1)
    assert scene.sections[0].title == rulesbook.how_to_play()[0].title != "Goal of the game"


def pixel(surface, pos):
    return surface.get_at((round(pos[0]), round(pos[1])))[:3]


def reddish(c):
    return c[0] > c[1] + 60 and c[0] > c[2] + 60


def whitish(c):
    return min(c) > 180


@pytest.mark.parametrize("kind", ["card_move", "hero_flip"])
def test_pictures_show_the_move_the_text_describes(app, kind):
    pic = next(s.illustration for s in rulesbook.how_to_play() if s.illustration and s.illustration.kind == kind)
    board = MiniBoard(PICTURE.topleft)
    target = board.center(pic.highlight[0])
    canvas = pygame.Surface(CANVAS)
    draw_illustration(canvas, art_of(app), pic, board, 0.0)
    before = pixel(canvas, (target[0], target[1]))  # the stone's centre
    draw_illustration(canvas, art_of(app), pic, board, 1.0)
    after = pixel(canvas, (target[0], target[1]))
    assert (whitish(before) if kind == "hero_flip" else not reddish(before)) and reddish(after)


def test_mini_board_has_rank_nine_on_top_and_file_a_left():
    b = MiniBoard((100, 50))
    a1, i9 = b.rect(parse_square("a1")), b.rect(parse_square("i9"))
    assert a1.x < i9.x and a1.y > i9.y and PICTURE.contains(MiniBoard(PICTURE.topleft).rect(parse_square("i1")))


def first_game(app, driver):
    app.reset(MainMenu(app))
    driver.click(button(app.top, "Play a friend (same screen)").rect.center)


def test_tutorial_on_the_first_game_only_and_again_on_request(app, driver):
    app.prefs.update_game("rose-king", tutorial_seen=False)
    first_game(app, driver)
    overlay = app.top
    assert isinstance(overlay, TutorialOverlay) and isinstance(app.scenes[0], GameScene)
    steps = rulesbook.tutorial()
    for i in range(len(steps) - 1):
        assert overlay.step == i and overlay.next_button.text() == "Next"
        driver.click(overlay.next_button.rect.center)
    assert overlay.next_button.text() == "Got it" and not overlay.skip_button.enabled()
    driver.click(overlay.next_button.rect.center)
    assert isinstance(app.top, GameScene) and app.prefs.settings.of("rose-king").tutorial_seen
    first_game(app, driver)
    assert isinstance(app.top, GameScene)  # remembered
    app.reset(MainMenu(app))
    driver.click(button(app.top, "Settings").rect.center)
    assert isinstance(app.top, SettingsScene)
    driver.click(button(app.top, "Show the tutorial again").rect.center)
    assert app.prefs.settings.of("rose-king").tutorial_seen is False
    first_game(app, driver)
    assert isinstance(app.top, TutorialOverlay)
    driver.click(app.top.skip_button.rect.center)  # skip at the first step
    assert isinstance(app.top, GameScene) and app.prefs.settings.of("rose-king").tutorial_seen


@pytest.mark.parametrize("color", [Color.RED, Color.WHITE])
def test_tutorial_bubbles_point_at_their_part_without_covering_it(app, color):
    game_scene = None
    overlay = TutorialOverlay(app, game_scene, color)  # type: ignore[arg-type]
    app.push(overlay)
    canvas = pygame.Rect((0, 0), CANVAS)
    for i, step in enumerate(rulesbook.tutorial()):
        overlay.step = i
        overlay.draw(app.screen)
        target = anchor_rect(step.anchor, color)
        assert canvas.contains(overlay.bubble)
        assert overlay.bubble.contains(overlay.next_button.rect)
        if target is not None:
            assert not overlay.bubble.colliderect(target), (step.anchor, color)
