"""Rose King's sprites, loaded once per window and cached.

Images come from the ``assets`` package (made by ``assets/make_art.py``), are
converted for fast blitting once a display exists, and scaled copies are cached.
Text uses pygame-ce's default font (bundled, no download) and is rendered once per
(text, size, colour) so a frame only blits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.roseking.engine import CARDS, Card, Color

from ..theme import CREAM, GOLD, GOLD_DARK, INK, PANEL, SHADOW, TEAL, Theme, load_image

if TYPE_CHECKING:
    from ..scene import AppLike

__all__ = ["Art", "COLOR_UI", "CREAM", "GOLD", "GOLD_DARK", "HERO_UI", "HeroCards", "INK", "PANEL", "RED_UI",
           "SHADOW", "TEAL", "WHITE_UI", "art_of"]  # the shell's palette re-exported with Rose King's own

RED_UI = (200, 50, 52)
WHITE_UI = (244, 238, 222)
HERO_UI = (170, 90, 230)
COLOR_UI = {Color.RED: RED_UI, Color.WHITE: WHITE_UI}


class Art:
    """Rose King's sprites over the shell's :class:`~game.client.theme.Theme` (whose text and
    scaling caches it shares: ``art.text``/``art.font``/``art.scaled``/``art.table`` are the
    theme's). Get it with :func:`art_of`, never build one per scene.

    Raises FileNotFoundError (naming the file) if an asset is missing.
    """

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.table = theme.table
        self.board = load_image("board.png", alpha=False)
        self.stones = {Color.RED: load_image("stone_red.png"), Color.WHITE: load_image("stone_white.png")}
        self.crown = load_image("crown.png")
        self.card_back = load_image("card_back.png")
        self.cards = [load_image(f"card_{card.name}.png") for card in CARDS]
        self.heroes = HeroCards(self, {Color.RED: load_image("hero_red.png"), Color.WHITE: load_image("hero_white.png")})
        self.text = theme.text
        self.font = theme.font
        self.scaled = theme.scaled

    def card(self, card: Card) -> pygame.Surface:
        return self.cards[card.index]


def art_of(app: "AppLike") -> Art:
    """The Rose King sprites of ``app``'s window (made once, on first use)."""
    return app.art.extension(Art)


class HeroCards:
    """``art.heroes[color]``: the hero card image titled in the current language
    ("HERO", "HELD", "HÉROS"), made once per colour and language."""

    def __init__(self, art: "Art", blanks: dict[Color, pygame.Surface]) -> None:
        self._art = art
        self._blanks = blanks
        self._titled: dict[tuple[Color, str], pygame.Surface] = {}

    def __getitem__(self, color: Color) -> pygame.Surface:
        from game.i18n import _, language

        key = (Color(color), language())
        card = self._titled.get(key)
        if card is None:
            card = self._blanks[key[0]].copy()
            # TRANSLATORS: the title printed on a hero card, shown in capitals
            title = self._art.font(17).render(_("Hero").upper(), True, INK)
            if title.get_width() > card.get_width() - 6:
                title = pygame.transform.smoothscale_by(title, (card.get_width() - 6) / title.get_width())
            card.blit(title, title.get_rect(center=(card.get_width() // 2, card.get_height() - 16)))
            self._titled[key] = card
        return card

