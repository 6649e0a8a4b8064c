"""The one-line text field of the client: player names (settings), ``host[:port]`` (LAN join)
and the file name of "Save as…".

Typing arrives as ``pygame.TEXTINPUT`` events (any keyboard layout and input method:
"é", "ß", "ĳ" type as themselves); editing keys as ``KEYDOWN``: Backspace, Delete,
Left, Right, Home, End, Ctrl+U (clear), Ctrl+V (paste). Enter calls ``on_submit(text)``
if the owner gave one (the field stays in use), else it ends editing; ending editing (Enter,
a click elsewhere) keeps the text and calls ``on_commit(text)``; Esc puts back the text the
field had when it was focused. While focused the field takes every key, so shortcuts
(M for mute, Q, ...) type letters.
"""

from __future__ import annotations

import weakref
from typing import Callable

import pygame

from game.i18n import _

from .theme import CREAM, GOLD, GOLD_DARK, INK, TextArt

_EDIT_KEYS = {pygame.K_BACKSPACE, pygame.K_DELETE, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME, pygame.K_END}

#: (background, text, placeholder, caret) of the two looks: cream type on dark wood, ink on paper.
_STYLES = {
    "dark": ((28, 16, 8), CREAM, (150, 132, 110), GOLD),
    "light": ((250, 240, 215), INK, (150, 135, 115), INK),
}


#: The fields being typed in now (normally at most one): while any is, the keyboard is theirs.
_typing: "weakref.WeakSet[TextInput]" = weakref.WeakSet()


def typing() -> bool:
    """True while a text field has the keyboard (app-wide keys such as M for mute then stay away)."""
    return any(f.focused for f in _typing)


class TextInput:
    """A text field. ``text``: the starting text (cut to ``max_len``).

    ``on_commit(text)``: called with the edited text when editing ends (it may raise
    ValueError to refuse it: the field then shows the old text again);
    ``on_submit(text)``: called on Enter instead of ending editing;
    ``allowed``: None (any printable character) or the characters accepted;
    ``max_len``: at most this many characters (None: no limit);
    ``placeholder``: text (translated when drawn) or a callable giving it, shown grey when empty;
    ``focused``: start in use (typing goes here at once);
    ``escape``: False lets Esc through to the owner (e.g. to close the screen) instead of reverting;
    ``style``: "dark" (cream on wood) or "light" (ink on paper).
    """

    def __init__(self, rect: pygame.Rect | tuple, text: str = "",
                 on_commit: Callable[[str], None] | None = None, *,
                 on_submit: Callable[[str], None] | None = None, allowed: str | None = None,
                 max_len: int | None = None, placeholder: str | Callable[[], str] = "",
                 focused: bool = False, escape: bool = True, style: str = "dark", size: int = 28) -> None:
        self.rect = pygame.Rect(rect)
        self.on_commit = on_commit
        self.on_submit = on_submit
        self.allowed = allowed
        self.max_len = max_len
        self.text = self._fit(text)
        self.placeholder = placeholder
        self.escape = escape
        self.style = style
        self.size = size
        self.focused = False
        self.cursor = len(self.text)
        self._before = self.text
        self.clock = 0.0
        if focused:
            self.focus()

    # ------------------------------------------------------------------ text
    def _fit(self, text: str) -> str:
        return text if self.max_len is None else text[:self.max_len]

    def _accepts(self, ch: str) -> bool:
        return ch.isprintable() and (self.allowed is None or ch in self.allowed)

    def insert(self, chars: str) -> None:
        """Insert the acceptable characters of ``chars`` at the cursor (as many as ``max_len`` leaves room for)."""
        typed = "".join(ch for ch in chars if self._accepts(ch))
        if self.max_len is not None:
            typed = typed[:max(0, self.max_len - len(self.text))]
        self.text = self.text[:self.cursor] + typed + self.text[self.cursor:]
        self.cursor += len(typed)
        self.clock = 0.0

    def set_text(self, value: str) -> None:
        """Show ``value`` (e.g. after the setting changed elsewhere), unless the player is typing."""
        if not self.focused:
            self.text = self._fit(value)
            self.cursor = len(self.text)

    # ------------------------------------------------------------------ focus
    def focus(self) -> None:
        if not self.focused:
            for other in list(_typing):  # one field has the keyboard at a time
                if other is not self and other.focused:
                    other.blur()
            self.focused = True
            _typing.add(self)
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
        _typing.discard(self)
        pygame.key.stop_text_input()
        if not keep:
            self.text, self.cursor = self._before, len(self._before)
            return
        if self.on_commit is None:
            return
        try:
            self.on_commit(self.text)
        except ValueError:
            self.text, self.cursor = self._before, len(self._before)

    # ------------------------------------------------------------------ events
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
            self.insert(event.text)
            return True
        if event.type == pygame.KEYDOWN:
            key = event.key
            ctrl = bool(getattr(event, "mod", 0) & pygame.KMOD_CTRL)
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if self.on_submit is not None:
                    self.on_submit(self.text)
                else:
                    self.blur()
            elif key == pygame.K_ESCAPE:
                if not self.escape:
                    return False
                self.blur(keep=False)
            elif key == pygame.K_v and ctrl:
                self.paste()
            elif key == pygame.K_u and ctrl:
                self.text, self.cursor, self.clock = "", 0, 0.0
            elif key in _EDIT_KEYS:
                self._edit(key)
            return True  # every other key belongs to the typing (no shortcuts while editing)
        return event.type == pygame.KEYUP

    def paste(self) -> None:
        """Insert the clipboard's text at the cursor (nothing if there is no clipboard)."""
        try:
            self.insert(pygame.scrap.get_text() or "")
        except (AttributeError, pygame.error):  # no clipboard on this driver
            pass

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

    # ------------------------------------------------------------------ drawing
    def update(self, dt: float) -> None:
        self.clock += dt

    def draw(self, surface: pygame.Surface, art: TextArt) -> None:
        background, ink, grey, caret = _STYLES[self.style]
        r = self.rect
        pygame.draw.rect(surface, background, r, border_radius=8)
        pygame.draw.rect(surface, GOLD if self.focused else GOLD_DARK, r, 3, border_radius=8)
        font = art.font(self.size)
        x, y, room = r.x + 12, r.centery - font.get_height() // 2, r.w - 24
        cx = font.size(self.text[:self.cursor])[0]
        scroll = max(0, cx - room + 2)  # long text slides left so the cursor stays in view
        if self.text:
            label = art.text(self.text, self.size, ink)
            surface.blit(label, (x, y), pygame.Rect(scroll, 0, room, label.get_height()))
        elif not self.focused and self.placeholder:
            hint = self.placeholder() if callable(self.placeholder) else _(self.placeholder)
            surface.blit(art.text(hint, self.size, grey), (x, y), pygame.Rect(0, 0, room, font.get_height() + 8))
        if self.focused and (self.clock % 1.0) < 0.6:
            cx = x + cx - scroll
            pygame.draw.line(surface, caret, (cx, y + 2), (cx, y + font.get_height() - 2), 2)
