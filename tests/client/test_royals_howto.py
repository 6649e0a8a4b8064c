"""Royals & Riots' How to play keeps every text clear of the cards on every
page in every language (French "Pendant une révolution" lay under the revolution row), and the
revolution row reads as the order it is (Peasant 1 is not second-highest)."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.royals.howto import PAGES, REVOLUTION_ROW, RoyalsHowTo
from game.royals.engine import Card


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_no_text_lies_under_a_card_and_all_fits_above_the_buttons(app, language):
    i18n.set_language(language)
    howto = RoyalsHowTo(app)
    bottom = min(b.rect.top for b in howto.buttons)
    for page in range(len(PAGES)):
        howto.page = page
        items = howto.layout()
        pictures = [(what, r) for what, _img, r in items if what.startswith(("card:", "side:"))]
        texts = [(what, r) for what, _img, r in items if not what.startswith(("card:", "side:"))]
        for what, _img, r in items:
            assert howto.rect.contains(r) and r.bottom <= bottom - 4, (page, what, r)
        for what, r in texts:
            for other, p in pictures:
                assert not r.colliderect(p), (page, what, other)
            for other, q in texts:
                assert other == what or not r.colliderect(q), (page, what, other)
        for i, (what, r) in enumerate(pictures):
            assert all(not r.colliderect(q) for _o, q in pictures[i + 1:]), (page, what)


def test_the_revolution_row_is_the_reversed_order_highest_first():
    """In a revolution Peasant 10 is highest and the King lowest; the row shows the best card of
    each rank in falling order, so no card of a rank comes after a lower rank's."""
    ranks = [Card.from_name(name).name.rstrip("0123456789") for name in REVOLUTION_ROW]
    assert REVOLUTION_ROW[0] == "P10" and REVOLUTION_ROW[-1] == "KING"
    assert ranks == ["P", "M", "K", "R", "QUEEN", "KING"]  # one card of each rank, none twice
    assert "P1" not in REVOLUTION_ROW


def test_the_hierarchy_page_draws_its_revolution_row_in_french(app):
    i18n.set_language("fr")
    howto = RoyalsHowTo(app)
    howto.page = 1
    howto.draw(pygame.Surface((1280, 800)))
    shown = [what for what, _img, _r in howto.layout()]
    assert [w for w in shown if w.startswith("card:")][-len(REVOLUTION_ROW):] == [f"card:{n}" for n in REVOLUTION_ROW]
    assert i18n._("In a revolution:") in shown and i18n._("In a revolution:") != "In a revolution:"
