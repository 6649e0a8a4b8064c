"""Geometry of the canvas and the easing curves (no window needed)."""

from __future__ import annotations

import pytest

from game.client.roseking.layout import (BOARD_RECT, CANVAS, DISCARD_RECT, DRAW_PILE_RECT, PANEL_RECT, hand_slot_rect,
                                hero_rect, square_at, square_center, square_rect)
from game.client.tween import arc, bounce_out, ease_in_out, ease_out_back, ease_out_cubic, window
from game.roseking.engine import Color, parse_square


def test_square_centres_round_trip_and_orientation():
    assert all(square_at(square_center(sq)) == sq for sq in range(81))
    a1, i9 = square_rect(parse_square("a1")), square_rect(parse_square("i9"))
    assert a1.x < i9.x and a1.y > i9.y  # Red sits south: rank 1 at the bottom, file a on the left
    assert square_at((BOARD_RECT.x + 2, BOARD_RECT.y + 2)) is None  # the frame is not a square
    assert square_at((0, 0)) is None


def test_nothing_overlaps_and_everything_fits():
    canvas = (0, 0, *CANVAS)
    rects = [BOARD_RECT, DRAW_PILE_RECT, DISCARD_RECT, *PANEL_RECT.values()]
    for color in (Color.RED, Color.WHITE):
        rects += [hand_slot_rect(color, i) for i in range(5)]
        assert not hero_rect(color, 3).colliderect(hand_slot_rect(color, 0))
        assert not PANEL_RECT[color].colliderect(hero_rect(color, 0))
    for i, r in enumerate(rects):
        assert r.colliderect(canvas) and r.clamp(canvas) == r
        for other in rects[i + 1:]:
            assert not r.colliderect(other), (r, other)
    assert hand_slot_rect(Color.RED, 0).y > BOARD_RECT.bottom > BOARD_RECT.top > hand_slot_rect(Color.WHITE, 0).bottom


@pytest.mark.parametrize("curve", [ease_out_cubic, ease_in_out, bounce_out, ease_out_back])
def test_easing_curves_start_at_0_and_end_at_1(curve):
    assert curve(0.0) == pytest.approx(0.0, abs=1e-9)
    assert curve(1.0) == pytest.approx(1.0)
    assert curve(-1) == curve(0.0) and curve(2) == curve(1.0)


def test_window_and_arc():
    assert window(0.5, 0.0, 1.0) == 0.5 and window(2, 0, 1) == 1 and window(-1, 0, 1) == 0
    assert window(1.0, 1.0, 1.0) == 1.0
    assert arc((0, 0), (10, 0), 0.5, 20) == pytest.approx((5, -20))
    assert arc((0, 0), (10, 0), 1.0, 20) == pytest.approx((10, 0))
