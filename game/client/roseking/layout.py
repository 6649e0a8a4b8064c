"""Where everything sits on the 1280x800 logical canvas, and what lies under a point.

Red sits south, so the board is drawn with rank 9 at the top and file a on the
left; Red's hand runs along the bottom edge, White's along the top, each with its
hero cards to the left of the hand. All figures are logical
pixels; the window scales the canvas as a whole.
"""

from __future__ import annotations

import pygame

from game.roseking.engine import SIZE, Color

CANVAS = (1280, 800)
SQUARE = 56
FRAME = 18
BOARD_PX = SQUARE * SIZE + 2 * FRAME  # 540
BOARD_RECT = pygame.Rect((CANVAS[0] - BOARD_PX) // 2, 130, BOARD_PX, BOARD_PX)
GRID_ORIGIN = (BOARD_RECT.x + FRAME, BOARD_RECT.y + FRAME)
CARD_W, CARD_H = 76, 106
CARD_GAP = 12
HAND_SLOTS = 5
HAND_Y = {Color.RED: CANVAS[1] - CARD_H - 12, Color.WHITE: 12}
HAND_X0 = (CANVAS[0] - (HAND_SLOTS * CARD_W + (HAND_SLOTS - 1) * CARD_GAP)) // 2
HERO_STEP = 20
#: How far a selected card rises towards the board (Red up, White down).
LIFT = {Color.RED: -14, Color.WHITE: 14}
DRAW_PILE_RECT = pygame.Rect(960, 330, CARD_W, CARD_H)
DISCARD_RECT = pygame.Rect(1100, 330, CARD_W, CARD_H)
PANEL_RECT = {Color.RED: pygame.Rect(20, HAND_Y[Color.RED], 230, CARD_H),
              Color.WHITE: pygame.Rect(20, HAND_Y[Color.WHITE], 230, CARD_H)}
SIDE_LEFT = pygame.Rect(20, BOARD_RECT.y, BOARD_RECT.x - 40, BOARD_RECT.h)
SIDE_RIGHT = pygame.Rect(BOARD_RECT.right + 20, BOARD_RECT.y, CANVAS[0] - BOARD_RECT.right - 40, BOARD_RECT.h)


def place(color: Color, bottom: Color = Color.RED) -> Color:
    """The key of ``color``'s side in :data:`HAND_Y`, :data:`LIFT` and :data:`PANEL_RECT` (keyed
    by Red's side, the bottom, and White's, the top) when ``bottom``'s hand runs along the bottom
    edge (the viewer's side: a network game's own colour)."""
    return color if bottom is Color.RED else color.other


def square_rect(sq: int) -> pygame.Rect:
    """Screen rectangle of square ``sq`` (0..80)."""
    f, r = sq % SIZE, sq // SIZE
    return pygame.Rect(GRID_ORIGIN[0] + f * SQUARE, GRID_ORIGIN[1] + (SIZE - 1 - r) * SQUARE, SQUARE, SQUARE)


def square_center(sq: int) -> tuple[int, int]:
    """Screen centre of square ``sq``."""
    return square_rect(sq).center


def square_at(pos: tuple[float, float]) -> int | None:
    """The square under the canvas point ``pos``, or None off the grid."""
    x, y = pos[0] - GRID_ORIGIN[0], pos[1] - GRID_ORIGIN[1]
    if not (0 <= x < SIZE * SQUARE and 0 <= y < SIZE * SQUARE):
        return None
    return (SIZE - 1 - int(y // SQUARE)) * SIZE + int(x // SQUARE)


def hand_slot_rect(color: Color, slot: int, bottom: Color = Color.RED) -> pygame.Rect:
    """Rectangle of the ``slot``-th card (0..4) of ``color``'s hand, not lifted (``bottom``: whose
    hand runs along the bottom edge)."""
    return pygame.Rect(HAND_X0 + slot * (CARD_W + CARD_GAP), HAND_Y[place(color, bottom)], CARD_W, CARD_H)


def hero_rect(color: Color, index: int, bottom: Color = Color.RED) -> pygame.Rect:
    """Rectangle of ``color``'s ``index``-th hero card (0..3), fanned left of the hand."""
    x = HAND_X0 - 24 - CARD_W - 3 * HERO_STEP + index * HERO_STEP
    return pygame.Rect(x, HAND_Y[place(color, bottom)], CARD_W, CARD_H)

#: The status box: the left column's top, under the player's name panel's column.
STATUS_RECT = pygame.Rect(SIDE_LEFT.x, SIDE_LEFT.y + 40, SIDE_LEFT.w, 250)
#: The widest a toast's text wraps to: the status box less the toast's margins (a toast lies over
#: the status box, whose guidance it amends, and covers no square, hand, pile or move log).
TOAST_WRAP = STATUS_RECT.w - 16 - 40
#: The toast's text sizes, largest first: a text too tall for the status box takes the next one.
TOAST_SIZES = (23, 20, 18)
#: The live move log: the left column between the status box and Red's name panel.
MOVELOG_RECT = pygame.Rect(SIDE_LEFT.x, STATUS_RECT.bottom + 10, SIDE_LEFT.w,
                           PANEL_RECT[Color.RED].top - 30 - (STATUS_RECT.bottom + 10))  # clear of "Heroes: n"
