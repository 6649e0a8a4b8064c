"""Text that fits its box in every language (German and Dutch labels run up to 3.5x the English).

Size buttons from the text, not from the English: :func:`fit_size` picks the largest
font size (down to a readable minimum) at which a text fits a width, and
:class:`FitButton` is a :class:`~game.client.widgets.Button` that does this each time
it is drawn, so a language switch re-fits at once.
"""

from __future__ import annotations

import pygame

from .art import Art
from .widgets import Button

#: Below this a label is no longer comfortably readable at the minimum window size (x0.75).
MIN_TEXT = 20


def fit_size(art: Art, text: str, size: int, width: int, minimum: int = MIN_TEXT) -> int:
    """The largest font size <= ``size`` (px) at which ``text`` is at most ``width`` px wide,
    but never below ``minimum`` (the text may then overflow; wrap it instead)."""
    while size > minimum and art.font(size).size(text)[0] > width:
        size -= 1
    return size


class FitButton(Button):
    """A button whose label shrinks (not below :data:`MIN_TEXT`) to fit inside it."""

    def draw(self, surface: pygame.Surface, art: Art) -> None:
        wanted = self.size
        self.size = fit_size(art, self.text(), wanted, self.rect.w - 20)
        try:
            super().draw(surface, art)
        finally:
            self.size = wanted
