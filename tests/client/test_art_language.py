"""Pictures that carry words show them in the player's language."""

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


@pytest.mark.parametrize("lang, king, queen", [("en", "K", "Q"), ("de", "K", "D"), ("fr", "R", "D"),
                                               ("nl", "K", "V")])
def test_the_king_and_queen_letters_match_their_names(lang, king, queen):
    """The corner letters of Royals & Riots' King and Queen are their names' initials, as on the
    language's playing cards (Dutch: Koning, Vrouw, while the card is named Koningin)."""
    from game.client.royals.art import corner_letter
    from game.royals.engine import Card
    from game.royals.phrases import card_name
    set_language(lang)
    try:
        assert (corner_letter("KING"), corner_letter("QUEEN")) == (king, queen)
        assert card_name(Card.from_name("KING")).startswith(king)
        if lang != "nl":
            assert card_name(Card.from_name("QUEEN")).startswith(queen)
    finally:
        set_language("en")
