"""Buttons and panels in the board-game look (dark wood, gold rim, cream type)."""

from __future__ import annotations

from typing import Callable

import pygame

from game.i18n import _

from .theme import CREAM, GOLD, GOLD_DARK, INK, TextArt
from .scene import Scene


_panel_cache: dict[tuple, pygame.Surface] = {}


def panel(size: tuple[int, int], alpha: int = 225, radius: int = 14) -> pygame.Surface:
    """A translucent dark-wood panel with a double gold rim, cached per size."""
    key = (size, alpha, radius)
    surf = _panel_cache.get(key)
    if surf is None:
        w, h = size
        surf = pygame.Surface(size, pygame.SRCALPHA)
        for y in range(h):  # vertical warm gradient
            t = y / max(1, h - 1)
            col = (int(62 - 22 * t), int(38 - 14 * t), int(22 - 8 * t), alpha)
            surf.fill(col, (0, y, w, 1))
        mask = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
        surf.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        pygame.draw.rect(surf, GOLD_DARK, surf.get_rect(), 3, border_radius=radius)
        pygame.draw.rect(surf, (*GOLD, 120), surf.get_rect().inflate(-10, -10), 1, border_radius=max(1, radius - 4))
        _panel_cache[key] = surf
    return surf


#: Below this a label is no longer comfortably readable at the minimum window size (x0.75).
MIN_TEXT = 20
#: A button's label shrinks on one line to this share of its size at most; longer labels wrap.
MIN_LINE = 0.8


_fit_cache: dict[tuple[str, int, int, int], int] = {}


def fit_size(art: TextArt, text: str, size: int, width: int, minimum: int = MIN_TEXT) -> int:
    """The largest font size <= ``size`` (px) at which ``text`` is at most ``width`` px wide, but
    never below ``minimum`` (labels run up to 3.5x the English in German, Dutch and French). Cached."""
    key = (text, size, width, minimum)
    fitted = _fit_cache.get(key)
    if fitted is None:
        fitted = size
        while fitted > minimum and art.font(fitted).size(text)[0] > width:
            fitted -= 1
        if len(_fit_cache) > 2000:
            _fit_cache.clear()
        _fit_cache[key] = fitted
    return fitted


def wrapped_to_fit(art: TextArt, text: str, sizes: tuple[int, ...], height: int, width: int, color=CREAM,
                   shadow: bool = True) -> pygame.Surface:
    """``text`` wrapped to ``width`` px, each line centred, at the first of ``sizes`` (px, largest
    first) whose image is at most ``height`` px tall; at the last size if none is (a long text in
    German or French)."""
    for size in sizes:
        image = art.text(text, size, color, shadow=shadow, wrap=width, center=True)
        if image.get_height() <= height:
            break
    return image


def wrap_lines(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` px (a longer word stays whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.size(lines[-1] + " " + word)[0] <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def elide(font: pygame.font.Font, text: str, width: int) -> str:
    """``text`` as is if it is at most ``width`` px wide in ``font``, else cut at the end and
    ended with "…" so that it is (a name in a narrow column; just "…" if even one letter is too wide)."""
    if font.size(text)[0] <= width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis: binary search
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid].rstrip() + "…")[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


class Button:
    """A clickable button. ``label`` is a string (translated when drawn) or a callable returning one.

    Clicks count on release inside the button after a press inside it; ``key``
    (a pygame key constant) also triggers it when the owner forwards key events.
    """

    def __init__(self, rect: pygame.Rect | tuple, label: str | Callable[[], str], action: Callable[[], object],
                 key: int | None = None, size: int = 30, enabled: Callable[[], bool] | None = None,
                 selected: Callable[[], bool] | None = None) -> None:
        self.rect = pygame.Rect(rect)
        self.label = label
        self.action = action
        self.key = key
        self.size = size
        self.enabled = enabled or (lambda: True)
        self.selected = selected or (lambda: False)
        self.hover = False
        self._pressed = False

    def text(self) -> str:
        return self.label() if callable(self.label) else _(self.label)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Feed an event; returns True if it was used (and the action ran on a click)."""
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.rect.collidepoint(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            self._pressed = True
            return True
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            was, self._pressed = self._pressed, False
            if was and self.rect.collidepoint(event.pos) and self.enabled():
                self.action()
                return True
        elif event.type == pygame.KEYDOWN and self.key is not None and event.key == self.key and self.enabled():
            self.action()
            return True
        return False

    def draw(self, surface: pygame.Surface, art: TextArt) -> None:
        on = self.enabled()
        sel = self.selected()
        r = self.rect
        shadow = r.move(0, 4)
        pygame.draw.rect(surface, (20, 10, 4), shadow, border_radius=12)
        if not on:
            top, bottom = (96, 84, 70), (70, 60, 50)
        elif sel:
            top, bottom = (250, 214, 120), (206, 150, 48)
        elif self.hover:
            top, bottom = (160, 100, 56), (116, 66, 32)
        else:
            top, bottom = (132, 80, 42), (92, 52, 24)
        pygame.draw.rect(surface, bottom, r, border_radius=12)
        pygame.draw.rect(surface, top, (r.x + 3, r.y + 3, r.w - 6, r.h // 2), border_radius=10)
        pygame.draw.rect(surface, GOLD if (self.hover and on) or sel else GOLD_DARK, r, 3, border_radius=12)
        color = INK if sel else (CREAM if on else (170, 160, 150))
        text = self.text()
        size, wrap = self.text_layout(art, text)
        if not wrap:
            label = art.text(text, size, color, shadow=not sel)
            surface.blit(label, label.get_rect(center=(r.centerx, r.centery + 1)))
            return
        lines = [art.text(line, size, color, shadow=not sel) for line in wrap_lines(art.font(size), text, wrap)]
        y = r.centery + 1 - sum(s.get_height() for s in lines) // 2
        for s in lines:  # each line centred
            surface.blit(s, s.get_rect(midtop=(r.centerx, y)))
            y += s.get_height()

    def text_layout(self, art: TextArt, text: str | None = None) -> tuple[int, int]:
        """(font size, wrap width or 0) for the label: one line, made smaller down to
        :data:`MIN_LINE` of the button's size; else wrapped on two lines as large as fit the height;
        else one line at :data:`MIN_TEXT` (then :meth:`fits` is False)."""
        text = self.text() if text is None else text
        room = self.rect.w - 20
        size = fit_size(art, text, self.size, room, max(MIN_TEXT, round(self.size * MIN_LINE)))
        if art.font(size).size(text)[0] <= room:
            return size, 0
        for wrapped in range(self.size, MIN_TEXT - 1, -1):
            font = art.font(wrapped)
            lines = wrap_lines(font, text, room)
            if (len(lines) * font.get_linesize() <= self.rect.h - 6
                    and all(font.size(line)[0] <= room for line in lines)):
                return wrapped, room
        return MIN_TEXT, 0

    def fits(self, art: TextArt) -> bool:
        """Whether the label shows whole, at a readable size, inside the button."""
        text = self.text()
        size, wrap = self.text_layout(art, text)
        if wrap:
            return True
        return art.font(size).size(text)[0] <= self.rect.w - 20 and art.font(size).get_height() <= self.rect.h


def handle_buttons(buttons: list[Button], event: pygame.event.Event) -> bool:
    """Offer ``event`` to every button (all see motion); True if one used it."""
    used = False
    for b in buttons:
        if b.handle_event(event) and event.type != pygame.MOUSEMOTION:
            used = True
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                break
    return used


class ButtonScene(Scene):
    """A scene made of buttons: the buttons get every event; Esc calls :meth:`on_escape`."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.buttons: list[Button] = []
        #: True for screens that never move on their own (menus, dialogs): drawn only when something
        #: happens. False (the default) draws every frame.
        self.still = False

    def on_escape(self) -> None:
        """What Esc does here (default: nothing)."""

    def at_rest(self) -> bool:
        """Whether nothing moves here (see :meth:`Scene.at_rest`): :attr:`still`, which a screen that
        never animates by itself sets True (menus, dialogs); others override this."""
        return self.still

    def uses_key(self, key: int) -> bool:
        return any(b.key == key for b in self.buttons)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_escape()
            return
        handle_buttons(self.buttons, event)

    def draw_buttons(self, surface: pygame.Surface) -> None:
        for b in self.buttons:
            b.draw(surface, self.app.art)


def chooser(obj: object, attr: str, value: object) -> tuple[Callable[[], None], Callable[[], bool]]:
    """(set, is_set) callables for a radio button setting ``obj.attr`` to ``value``."""
    def choose() -> None:
        setattr(obj, attr, value)
    return choose, lambda: getattr(obj, attr) == value

