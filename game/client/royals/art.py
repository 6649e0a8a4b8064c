"""Royals & Riots' sprites (made by ``assets/make_royals_art.py``); the names of its cards in the
player's language come from :mod:`game.royals.phrases` (re-exported here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.royals.engine import CARDS, Card
from game.royals.phrases import RANK_NAMES, SPECIAL_NAMES, card_name, rank_name  # noqa: F401 (the names live there)

from ..theme import Theme, load_image

if TYPE_CHECKING:
    from ..scene import AppLike

CARD_W, CARD_H = 96, 136


class RoyalsArt:
    """Card faces, the back and the rank card's two sides, loaded once; scaled copies cached."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.faces = [load_image(f"royals_{c.name}.png") for c in CARDS]
        self.back = load_image("royals_back.png")
        self.sides = (load_image("royals_side_royals.png"), load_image("royals_side_riots.png"))
        self._dimmed: dict[int, pygame.Surface] = {}

    def face(self, card: Card, scale: float = 1.0) -> pygame.Surface:
        img = self.faces[card.index]
        return img if scale == 1.0 else self.theme.scaled(img, scale, ("royals", card.index))

    def back_img(self, scale: float = 1.0) -> pygame.Surface:
        return self.back if scale == 1.0 else self.theme.scaled(self.back, scale, ("royals", "back"))

    def dimmed(self, card: Card) -> pygame.Surface:
        """The face greyed out (a card that cannot be played now)."""
        img = self._dimmed.get(card.index)
        if img is None:
            img = self.faces[card.index].copy()
            img.fill((120, 120, 120, 255), special_flags=pygame.BLEND_RGBA_MULT)
            self._dimmed[card.index] = img
        return img


def _make(theme: Theme) -> RoyalsArt:
    return RoyalsArt(theme)


def royals_art(app: "AppLike") -> RoyalsArt:
    """The app's Royals & Riots sprites (made on first use)."""
    return app.art.extension(_make)
