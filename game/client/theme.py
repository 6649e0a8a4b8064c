"""The shell's look, shared by every game: the canvas size, the palette, and cached text.

Images come from the ``assets`` package, are converted for fast blitting once a
display exists, and scaled copies are cached. Text uses pygame-ce's default font
(bundled, no download) and is rendered once per (text, size, colour) so a frame
only blits. Each game's own sprites live in its client package and reuse this
cache through :meth:`Theme.extension`.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import cached_property
from typing import Any, Callable, Protocol, TypeVar, cast

import pygame

import assets

#: The logical canvas every scene draws on (px); the window scales it as a whole.
CANVAS = (1280, 800)

INK = (58, 36, 22)
CREAM = (250, 240, 214)
GOLD = (232, 188, 80)
GOLD_DARK = (150, 104, 30)
SHADOW = (0, 0, 0)
TEAL = (64, 200, 150)
PANEL = (40, 24, 14)

T = TypeVar("T")


def load_image(name: str, alpha: bool = True) -> pygame.Surface:
    """The image ``name`` from the ``assets`` package, converted for the display if one exists.

    Raises FileNotFoundError (naming the file) if the asset is missing.
    """
    with assets.open_binary(name) as f:
        surf = pygame.image.load(f, name)
    if pygame.display.get_surface() is None:
        return surf
    return surf.convert_alpha() if alpha else surf.convert()


class TextArt(Protocol):
    """What drawing words needs: a :class:`Theme`, or a game's sprite set over one (whose ``font``
    and ``text`` are the theme's)."""

    def font(self, size: int) -> pygame.font.Font: ...

    def text(self, text: str, size: int, color: Any = ..., shadow: bool = False, wrap: int = 0,
             center: bool = False) -> pygame.Surface: ...


class Theme:
    """Fonts, a text cache, a scaled-image cache and the table background. Create after
    ``display.set_mode`` (images load lazily, on first use)."""

    def __init__(self) -> None:
        self._fonts: dict[int, pygame.font.Font] = {}
        self._text: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._scaled: dict[tuple, pygame.Surface] = {}
        self._extensions: dict[Callable[["Theme"], object], object] = {}

    @cached_property
    def table(self) -> pygame.Surface:
        """The felt table every screen is drawn on (1280x800)."""
        return load_image("table.png", alpha=False)

    def extension(self, factory: Callable[["Theme"], T]) -> T:
        """One ``factory(self)`` per theme, made on first use: a game's sprite set
        (e.g. :func:`game.client.roseking.art.art_of`)."""
        ext = self._extensions.get(factory)
        if ext is None:
            ext = self._extensions[factory] = factory(self)
        return cast(T, ext)  # made by ``factory``: a T

    def font(self, size: int) -> pygame.font.Font:
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = pygame.font.Font(None, size)
        return f

    def text(self, text: str, size: int, color=CREAM, shadow: bool = False, wrap: int = 0,
             center: bool = False) -> pygame.Surface:
        """``text`` rendered anti-aliased at ``size`` px; ``shadow`` adds a soft drop shadow;
        ``wrap`` > 0 wraps to that width in px, each line centred in the image if ``center``
        (else flush left). Cached (LRU, 600 entries)."""
        key = (text, size, color, shadow, wrap, center)
        surf = self._text.get(key)
        if surf is not None:
            self._text.move_to_end(key)
            return surf
        font = self.font(size)
        font.align = pygame.FONT_CENTER if center else pygame.FONT_LEFT  # (the font is shared: set each time)
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
