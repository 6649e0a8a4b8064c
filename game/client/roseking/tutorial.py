"""The first-game tutorial: a few bubbles over the game screen, pointing at its parts.

Steps come from :func:`game.roseking.rulesbook.tutorial` (translated when drawn, so a language
change shows at once). Each bubble points at the part of the screen its step is
anchored to (the hand, the board, the draw pile, the hero cards, the scores) for the
person at this machine; the rest of the screen is dimmed. "Next" goes on, "Skip
tutorial" (or Esc) and "Got it" on the last step close it and remember in the settings
(``tutorial_seen``) that it was seen; "Show the tutorial again" in Settings brings it back.
The game under it waits (the overlay is the top scene).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from game.roseking import rulesbook
from game.roseking.engine import Color
from game.i18n import _

from .art import CREAM, GOLD, art_of
from .layout import BOARD_RECT, DRAW_PILE_RECT, HAND_SLOTS, PANEL_RECT, hand_slot_rect, hero_rect
from ..theme import CANVAS
from ..widgets import Button, ButtonScene, panel

if TYPE_CHECKING:
    from ..app import App
    from .game_scene import GameScene

BUBBLE_W = 560
NEXT, SKIP, DONE = rulesbook.TUTORIAL_BUTTONS


def anchor_rect(anchor: str | None, color: Color) -> pygame.Rect | None:
    """The screen area a step points at, for the player of ``color``; None for a centred step."""
    if anchor == "hand":
        return hand_slot_rect(color, 0).union(hand_slot_rect(color, HAND_SLOTS - 1)).inflate(16, 16)
    if anchor == "board":
        return BOARD_RECT.inflate(8, 8)
    if anchor == "draw_pile":
        return DRAW_PILE_RECT.inflate(24, 60)
    if anchor == "heroes":
        return hero_rect(color, 0).union(hero_rect(color, 3)).inflate(16, 16)
    if anchor == "scores":
        return PANEL_RECT[color].inflate(12, 12)
    return None


class TutorialOverlay(ButtonScene):
    """The tutorial over ``game``, for the local player of ``color``."""

    opaque = False

    still = False

    def __init__(self, app: "App", game: "GameScene", color: Color = Color.RED) -> None:
        super().__init__(app)
        self.game = game
        self.color = color
        self.step = 0
        self.clock = 0.0
        self.bubble = pygame.Rect(0, 0, BUBBLE_W, 200)
        self.next_button = Button((0, 0, 230, 50), self._next_label,
                                     self.next, key=pygame.K_RETURN, size=28)
        self.skip_button = Button((0, 0, 230, 50), SKIP, self.finish, size=26,
                                     enabled=lambda: not self.last())
        self.buttons = [self.next_button, self.skip_button]
        self._veil_key: object = None
        self._veil_surface: pygame.Surface | None = None

    def _next_label(self) -> str:
        return _(DONE) if self.last() else _(NEXT)

    def steps(self) -> list[rulesbook.TutorialStep]:
        return rulesbook.tutorial()

    def last(self) -> bool:
        return self.step >= len(self.steps()) - 1

    def next(self) -> None:
        if self.last():
            self.finish()
        else:
            self.step += 1

    def finish(self) -> None:
        """Close the tutorial and remember that it was seen."""
        self.app.prefs.update_game("rose-king", tutorial_seen=True)
        if self.app.top is self:
            self.app.pop()

    on_escape = finish

    def update(self, dt: float) -> None:
        self.clock += dt
        self.game.tick(dt)

    @staticmethod
    def bubble_width(target: pygame.Rect | None) -> int:
        """Beside the board only a narrow bubble fits; elsewhere a wide one."""
        if target is not None and target.h > CANVAS[1] // 2:
            return min(BUBBLE_W, CANVAS[0] - target.right - 28)
        return BUBBLE_W

    def _place(self, width: int, text_h: int, target: pygame.Rect | None) -> None:
        """Put the bubble beside ``target`` (below it, above it, or right of the board), else centred;
        a narrow bubble stacks its two buttons."""
        stacked = width < 2 * 230 + 60
        self.bubble.size = (width, text_h + (186 if stacked else 120))
        b = self.bubble
        if target is None:
            b.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        elif target.h > CANVAS[1] // 2:  # the board: to its right
            b.midleft = (target.right + 12, target.centery)
        elif target.centery > CANVAS[1] // 2:
            b.midbottom = (target.centerx, target.top - 18)
        else:
            b.midtop = (target.centerx, target.bottom + 18)
        b.clamp_ip(pygame.Rect(8, 8, CANVAS[0] - 16, CANVAS[1] - 16))
        if stacked:
            for button in self.buttons:
                button.rect.w = width - 40
            self.next_button.rect.bottomleft = (b.x + 20, b.bottom - 18)
            self.skip_button.rect.bottomleft = (b.x + 20, b.bottom - 84)
        else:
            for button in self.buttons:
                button.rect.w = 230
            self.next_button.rect.bottomright = (b.right - 20, b.bottom - 18)
            self.skip_button.rect.bottomleft = (b.x + 20, b.bottom - 18)

    def _veil(self, size: tuple[int, int], hole: pygame.Rect | None) -> pygame.Surface:
        """The dimming over everything but ``hole`` (made once per step)."""
        key = (size, None if hole is None else tuple(hole))
        veil = self._veil_surface
        if veil is None or self._veil_key != key:
            veil = pygame.Surface(size, pygame.SRCALPHA)
            veil.fill((0, 0, 0, 150))
            if hole is not None:
                veil.fill((0, 0, 0, 0), hole)
            self._veil_surface, self._veil_key = veil, key
        return veil

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = art_of(self.app)
        steps = self.steps()
        step = steps[min(self.step, len(steps) - 1)]
        target = anchor_rect(step.anchor, self.color)
        surface.blit(self._veil(surface.get_size(), target), (0, 0))
        if target is not None:
            glow = 3 + round(2 * (0.5 + 0.5 * math.sin(self.clock * 5)))
            pygame.draw.rect(surface, GOLD, target, glow, border_radius=12)
        width = self.bubble_width(target)
        text = art.text(step.text, 26, CREAM, wrap=width - 48)
        self._place(width, text.get_height(), target)
        surface.blit(panel(self.bubble.size, 248, 14), self.bubble)
        count = art.text(f"{self.step + 1}/{len(steps)}", 22, GOLD)
        surface.blit(count, count.get_rect(topright=(self.bubble.right - 22, self.bubble.y + 16)))
        surface.blit(text, (self.bubble.x + 24, self.bubble.y + 44))
        self.draw_buttons(surface)


def maybe_show_tutorial(app: "App", game: "GameScene") -> bool:
    """Push the tutorial over ``game`` if it was never seen and a person plays here; True if shown."""
    if app.prefs.settings.of("rose-king").tutorial_seen:
        return False
    humans = [c for c in (Color.RED, Color.WHITE) if game.match.controllers[c].local_human]
    if not humans:
        return False
    app.push(TutorialOverlay(app, game, humans[0]))
    return True
