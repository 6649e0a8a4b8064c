"""Wrapped text: flush left by default, each line centred where the block is centred (dialogs)."""

import pygame
import pytest


@pytest.fixture
def theme():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    from game.client.theme import Theme
    return Theme()


def _last_line_span(surf: pygame.Surface, line_h: int) -> tuple[int, int]:
    """(first, last) column with any ink in the bottom ``line_h`` rows of ``surf``."""
    cols = [x for x in range(surf.get_width())
            if any(surf.get_at((x, y)).a for y in range(surf.get_height() - line_h, surf.get_height()))]
    return cols[0], cols[-1]


def test_a_short_last_line_is_centred_only_when_asked(theme):
    text = "Leave the network match now? x"
    line_h = theme.font(24).get_linesize()
    left = theme.text(text, 24, wrap=200)
    mid = theme.text(text, 24, wrap=200, center=True)
    assert left.get_height() > line_h, "the text wraps"
    a, b = _last_line_span(left, line_h)
    assert a <= 2, "flush left by default"
    a, b = _last_line_span(mid, line_h)
    assert abs((a + b) / 2 - mid.get_width() / 2) <= 3, "centred"
    assert theme.text(text, 24, wrap=200) is left, "the cache tells the two apart"
    assert theme.text(text, 24, wrap=200, center=True) is mid
