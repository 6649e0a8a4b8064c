"""A one-line text field for names (settings, later LAN): click, type, Enter.

Typing arrives as ``pygame.TEXTINPUT`` events (any keyboard layout and input method:
"é", "ß", "ĳ" type as themselves); editing keys as ``KEYDOWN``: Backspace, Delete,
Left, Right, Home, End; Enter (or a click elsewhere) keeps the text and calls
``on_commit(text)``, Esc puts back the text the field had when it was focused.
While focused the field takes every key, so shortcuts (M for mute, Q, ...) type letters.
"""

from __future__ import annotations

from typing import Callable

import pygame

from .art import CREAM, GOLD, GOLD_DARK, Art

_EDIT_KEYS = {pygame.K_BACKSPACE, pygame.K_DELETE, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME, pygame.K_END}


class TextInput:
    """A text field. ``value``: the starting text; ``max_length``: characters allowed;
    ``on_commit(text)``: called with the edited text when editing ends (it may raise
    ValueError to refuse it: the field then shows the old value again);
    ``placeholder``: text or a callable giving it (translated when drawn), shown grey when empty."""

    def __init__(self, rect: pygame.Rect | tuple, value: str, on_commit: Callable[[str], None],
                 max_length: int = 20, placeholder: str | Callable[[], str] = "", size: int = 28) -> None:
        self.rect = pygame.Rect(rect)
        self.text = value
        self.on_commit = on_commit
        self.max_length = max_length
        self.placeholder = placeholder
        self.size = size
        self.focused = False
        self.cursor = len(value)
        self._before = value
        self.clock = 0.0

    def focus(self) -> None:
        if not self.focused:
            self.focused = True
            self._before = self.text
            self.cursor = len(self.text)
            self.clock = 0.0
            pygame.key.start_text_input()
            pygame.key.set_text_input_rect(self.rect)

    def blur(self, keep: bool = True) -> None:
        """End editing: ``keep`` commits the text (``on_commit``), otherwise the old text returns."""
        if not self.focused:
            return
        self.focused = False
        pygame.key.stop_text_input()
        if not keep:
            self.text = self._before
            return
        try:
            self.on_commit(self.text)
        except ValueError:
            self.text = self._before

    def set_text(self, value: str) -> None:
        """Show ``value`` (e.g. after the setting changed elsewhere), unless the player is typing."""
        if not self.focused:
            self.text = value
            self.cursor = len(value)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Feed one event; True if the field used it (then no one else should)."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.rect.collidepoint(event.pos):
                self.focus()
                return True
            self.blur()
            return False
        if not self.focused:
            return False
        if event.type == pygame.TEXTINPUT:
            typed = "".join(ch for ch in event.text if ch.isprintable())
            room = self.max_length - len(self.text)
            typed = typed[:max(0, room)]
            self.text = self.text[:self.cursor] + typed + self.text[self.cursor:]
            self.cursor += len(typed)
            self.clock = 0.0
            return True
        if event.type == pygame.KEYDOWN:
            key = event.key
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.blur()
            elif key == pygame.K_ESCAPE:
                self.blur(keep=False)
            elif key in _EDIT_KEYS:
                self._edit(key)
            return True  # every other key belongs to the typing (no shortcuts while editing)
        return event.type == pygame.KEYUP

    def _edit(self, key: int) -> None:
        t, c = self.text, self.cursor
        if key == pygame.K_BACKSPACE and c > 0:
            self.text, self.cursor = t[:c - 1] + t[c:], c - 1
        elif key == pygame.K_DELETE:
            self.text = t[:c] + t[c + 1:]
        elif key == pygame.K_LEFT:
            self.cursor = max(0, c - 1)
        elif key == pygame.K_RIGHT:
            self.cursor = min(len(t), c + 1)
        elif key == pygame.K_HOME:
            self.cursor = 0
        elif key == pygame.K_END:
            self.cursor = len(t)
        self.clock = 0.0

    def update(self, dt: float) -> None:
        self.clock += dt

    def draw(self, surface: pygame.Surface, art: Art) -> None:
        r = self.rect
        pygame.draw.rect(surface, (28, 16, 8), r, border_radius=8)
        pygame.draw.rect(surface, GOLD if self.focused else GOLD_DARK, r, 3, border_radius=8)
        font = art.font(self.size)
        x, y = r.x + 12, r.centery - font.get_height() // 2
        if self.text:
            surface.blit(art.text(self.text, self.size, CREAM), (x, y))
        elif not self.focused:
            hint = self.placeholder() if callable(self.placeholder) else self.placeholder
            surface.blit(art.text(hint, self.size, (150, 132, 110)), (x, y))
        if self.focused and (self.clock % 1.0) < 0.6:
            cx = x + font.size(self.text[:self.cursor])[0]
            pygame.draw.line(surface, GOLD, (cx, y + 2), (cx, y + font.get_height() - 2), 2)
