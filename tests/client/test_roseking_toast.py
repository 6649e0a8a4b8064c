"""Rose King's toasts (the short reason shown for a refused click, "Saved to ...") at the smallest
window the app allows and a large one, in every catalogue, with the longest messages the game
shows: the toast lies over the status box and never covers a square of the board (it covered the
bottom rows for 2.6 s), the move log, a player's panel, a hand, the piles or a button. (The window
scales the fixed 1280x800 canvas as a whole.)"""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.roseking.art import art_of
from game.client.roseking.layout import MOVELOG_RECT, STATUS_RECT
from game.client.roseking.hint import BUTTON_RECT
from game.client.roseking.layout import (BOARD_RECT, DISCARD_RECT, DRAW_PILE_RECT, HAND_SLOTS, PANEL_RECT,
                                         hand_slot_rect, hero_rect)
from game.client.theme import CANVAS
from game.i18n import _
from game.roseking.engine import Color

from .test_end_screens import LANGUAGES, WINDOWS, set_window


def longest_os_error() -> str:
    """The longest reason :func:`game.fsutil.os_error_text` gives, in the current language."""
    from game.fsutil import OS_ERROR_PHRASES
    return max((_(p) for p in OS_ERROR_PHRASES.values()), key=len)


def messages() -> list[str]:
    """Every long toast the Rose King screens can show, in the current language."""
    return [
        _("Your hand is full: you may draw only with fewer than 5 cards."),
        _("{square} holds an opponent's stone and you have no hero cards left.").format(square="e5"),
        _("Those are {colour}'s cards; {mover} is to move.").format(colour=_("White"), mover=_("Red")),
        _("The game could not be saved: {reason}").format(reason=longest_os_error()),
        _("Wait: the other player's move or the connection comes first."),
        _("The record could not be written: {reason}").format(reason=longest_os_error()),
        _("Saved to {path}").format(path="/home/wolfgang-maximilian/.local/share/rose-king/Rose King "
                                         "2026-11-24 07-15 Wolfgang-Maximilian vs Marie-Antoinette.json"),
    ]


def side_rects(scene) -> dict[str, pygame.Rect]:
    """What a toast must never cover, by name."""
    rects = {"board": BOARD_RECT, "move log": MOVELOG_RECT, "hint button": BUTTON_RECT,
             "draw pile": DRAW_PILE_RECT.inflate(8, 8), "discard pile": DISCARD_RECT.inflate(8, 8)}
    for color in Color:
        rects[f"{color.name} panel"] = PANEL_RECT[color]
        for slot in range(HAND_SLOTS):
            rects[f"{color.name} card {slot}"] = hand_slot_rect(color, slot)
        rects[f"{color.name} heroes"] = hero_rect(color, 0).union(hero_rect(color, 3))
    for i, b in enumerate(scene.buttons):
        rects[f"button {i}"] = b.rect
    return rects


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
def test_toast_lies_over_the_status_box_clear_of_the_board_the_move_log_and_every_panel(app, new_hotseat, window,
                                                                                        language):
    i18n.set_language(language)
    set_window(app, window)
    scene = new_hotseat()
    app.run_frames(2)
    art = art_of(app)
    canvas = pygame.Rect(0, 0, *CANVAS)
    covered = side_rects(scene)
    for text in messages():
        scene.say(text)
        app.run_frames(2)  # drawn without error
        box = scene.drawing.toast_rect(art, text)
        assert canvas.contains(box) and STATUS_RECT.contains(box), (text, box)
        hit = [name for name, r in covered.items() if box.colliderect(r)]
        assert not hit, (text, box, hit)
