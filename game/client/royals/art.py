"""Royals & Riots' sprites (made by ``assets/make_royals_art.py``); the names of its cards in the
player's language come from :mod:`game.royals.phrases` (re-exported here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import pgettext
from game.royals.engine import CARDS, Card
from game.royals.phrases import RANK_NAMES as RANK_NAMES  # the names live there
from game.royals.phrases import SPECIAL_NAMES as SPECIAL_NAMES
from game.royals.phrases import card_name as card_name
from game.royals.phrases import rank_name as rank_name

from ..theme import Theme, load_image

if TYPE_CHECKING:
    from ..scene import AppLike

CARD_W, CARD_H = 96, 136
#: The card files leave the King's and the Queen's corners empty: :func:`corner_letter` writes them.
LETTER_CARDS = ("KING", "QUEEN")
#: The letters' colours: the card's frame colour (``assets/make_royals_art.py``'s RANK_COLOURS).
LETTER_COLOURS = {"KING": (150, 30, 40), "QUEEN": (170, 60, 120)}


def corner_letter(name: str) -> str:
    """The letter in the corners of the King (``name`` ``"KING"``) or the Queen (``"QUEEN"``) in
    the current language, as that language's playing cards have it: K/Q, K/D (König, Dame),
    R/D (Roi, Dame), K/V (Koning, Vrouw)."""
    # TRANSLATORS: the King's (K) and the Queen's (Q) letter in the corners of their cards, as on playing cards
    return pgettext("card letter", "K") if name == "KING" else pgettext("card letter", "Q")


class RoyalsArt:
    """Card faces, the back and the rank card's two sides, loaded once; scaled copies cached."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.faces = [load_image(f"royals_{c.name}.png") for c in CARDS]
        self.back = load_image("royals_back.png")
        self.sides = (load_image("royals_side_royals.png"), load_image("royals_side_riots.png"))
        self._dimmed: dict[tuple[int, str], pygame.Surface] = {}
        self._letters: dict[tuple[int, str], pygame.Surface] = {}

    def face(self, card: Card, scale: float = 1.0) -> pygame.Surface:
        """``card``'s face at ``scale`` (cached); the King and the Queen carry the letter of the
        current language in their corners."""
        img, letter = self._lettered(card)
        return img if scale == 1.0 else self.theme.scaled(img, scale, ("royals", card.index, letter))

    def _lettered(self, card: Card) -> tuple[pygame.Surface, str]:
        """The face at full size and the corner letter written on it ("" for a card without one)."""
        if card.name not in LETTER_CARDS:
            return self.faces[card.index], ""
        letter = corner_letter(card.name)
        img = self._letters.get((card.index, letter))
        if img is None:
            img = self.faces[card.index].copy()
            font = pygame.font.Font(None, 44)  # the numbers' typeface and size on the other cards
            glyph = font.render(letter, True, LETTER_COLOURS[card.name])
            img.blit(glyph, glyph.get_rect(topleft=(14, 12)))
            img.blit(glyph, glyph.get_rect(topright=(CARD_W - 14, 12)))
            self._letters[(card.index, letter)] = img
        return img, letter

    def back_img(self, scale: float = 1.0) -> pygame.Surface:
        return self.back if scale == 1.0 else self.theme.scaled(self.back, scale, ("royals", "back"))

    def dimmed(self, card: Card) -> pygame.Surface:
        """The face greyed out (a card that cannot be played now)."""
        face, letter = self._lettered(card)
        img = self._dimmed.get((card.index, letter))
        if img is None:
            img = face.copy()
            img.fill((120, 120, 120, 255), special_flags=pygame.BLEND_RGBA_MULT)
            self._dimmed[(card.index, letter)] = img
        return img


def _make(theme: Theme) -> RoyalsArt:
    return RoyalsArt(theme)


def royals_art(app: "AppLike") -> RoyalsArt:
    """The app's Royals & Riots sprites (made on first use)."""
    return app.art.extension(_make)
