"""Pictures that carry words show them in the player's language (issue 6)."""

import pygame
import pytest

from game.roseking.engine import Color
from game.i18n import language, set_language


@pytest.fixture
def art():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    from game.client.roseking.art import Art
    from game.client.theme import Theme
    before = language()
    yield Art(Theme())
    set_language(before)


def test_hero_card_title_follows_the_language(art):
    set_language("en")
    en = art.heroes[Color.RED]
    assert art.heroes[Color.RED] is en, "made once per language"
    set_language("de")
    de = art.heroes[Color.RED]
    assert de.get_size() == en.get_size()
    assert pygame.image.tobytes(de, "RGBA") != pygame.image.tobytes(en, "RGBA")
    set_language("en")
    assert art.heroes[Color.RED] is en
    assert pygame.image.tobytes(art.heroes[Color.WHITE], "RGBA") != pygame.image.tobytes(en, "RGBA")
