"""Images and text for the client, loaded once and cached.

Images come from the ``assets`` package (made by ``assets/make_art.py``), are
converted for fast blitting once a display exists, and scaled copies are cached.
Text uses pygame-ce's default font (bundled, no download) and is rendered once per
(text, size, colour) so a frame only blits.
"""

from __future__ import annotations

from collections import OrderedDict

import pygame

import assets
from game.roseking.engine import CARDS, Card, Color

INK = (58, 36, 22)
CREAM = (250, 240, 214)
GOLD = (232, 188, 80)
GOLD_DARK = (150, 104, 30)
SHADOW = (0, 0, 0)
RED_UI = (200, 50, 52)
WHITE_UI = (244, 238, 222)
TEAL = (64, 200, 150)
HERO_UI = (170, 90, 230)
PANEL = (40, 24, 14)
COLOR_UI = {Color.RED: RED_UI, Color.WHITE: WHITE_UI}


class Art:
    """Every sprite and a text cache. Create after ``display.set_mode``.

    Raises FileNotFoundError (naming the file) if an asset is missing.
    """

    def __init__(self) -> None:
        self.table = self._load("table.png", alpha=False)
        self.board = self._load("board.png", alpha=False)
        self.stones = {Color.RED: self._load("stone_red.png"), Color.WHITE: self._load("stone_white.png")}
        self.crown = self._load("crown.png")
        self.card_back = self._load("card_back.png")
        self.cards = [self._load(f"card_{card.name}.png") for card in CARDS]
        self.heroes = HeroCards(self, {Color.RED: self._load("hero_red.png"), Color.WHITE: self._load("hero_white.png")})
        self._fonts: dict[int, pygame.font.Font] = {}
        self._text: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._scaled: dict[tuple, pygame.Surface] = {}

    @staticmethod
    def _load(name: str, alpha: bool = True) -> pygame.Surface:
        with assets.open_binary(name) as f:
            surf = pygame.image.load(f, name)
        if pygame.display.get_surface() is None:
            return surf
        return surf.convert_alpha() if alpha else surf.convert()

    def card(self, card: Card) -> pygame.Surface:
        return self.cards[card.index]

    def font(self, size: int) -> pygame.font.Font:
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = pygame.font.Font(None, size)
        return f

    def text(self, text: str, size: int, color=CREAM, shadow: bool = False, wrap: int = 0) -> pygame.Surface:
        """``text`` rendered anti-aliased at ``size`` px; ``shadow`` adds a soft drop shadow;
        ``wrap`` > 0 wraps to that width in px. Cached (LRU, 600 entries)."""
        key = (text, size, color, shadow, wrap)
        surf = self._text.get(key)
        if surf is not None:
            self._text.move_to_end(key)
            return surf
        font = self.font(size)
        face = font.render(text, True, color, None, wrap) if wrap else font.render(text, True, color)
        if shadow:
            back = font.render(text, True, SHADOW, None, wrap) if wrap else font.render(text, True, SHADOW)
            back.set_alpha(150)
            surf = pygame.Surface((face.get_width() + 3, face.get_height() + 3), pygame.SRCALPHA)
            surf.blit(back, (3, 3))
            surf.blit(face, (0, 0))
        else:
            surf = face
        self._text[key] = surf
        if len(self._text) > 600:
            self._text.popitem(last=False)
        return surf

    def scaled(self, surf: pygame.Surface, factor: float, key: object) -> pygame.Surface:
        """``surf`` smooth-scaled by ``factor``, cached under ``(key, factor)`` (factor rounded to 0.01)."""
        f = round(factor, 2)
        k = (key, f)
        out = self._scaled.get(k)
        if out is None:
            if len(self._scaled) > 400:
                self._scaled.clear()
            out = self._scaled[k] = pygame.transform.smoothscale_by(surf, f)
        return out


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

