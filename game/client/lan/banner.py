"""What the shell draws over any game's network table (see :mod:`game.client.lan.table`): the
seats box (each seat's number, name and state, then the match code and what it is for) and the
connection banner (the connection is down, or the match stopped for good), with its button.

Each drawing comes from a layout function returning ``(text, image, rect)`` triples, which the
layout tests check for overlaps in every language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import N_, _

from ..theme import CREAM, GOLD
from ..widgets import Button, elide, panel
from .table import LanTable, code_lines

if TYPE_CHECKING:
    from ..app import App

DOT = {"you": (230, 200, 110), "thinking": (240, 170, 60), "connected": (90, 200, 120), "away": (220, 90, 70),
       "left": (150, 140, 125), "computer": (120, 160, 220)}
ROW = 24
SEATS_W = 300


def seats_layout(app: "App", table: LanTable, topleft: tuple[int, int], width: int = SEATS_W,
                 code: bool = True) -> tuple[pygame.Rect, list[tuple[str, pygame.Surface, pygame.Rect]]]:
    """The seats box at ``topleft``: its rect and its texts (one row per seat: "1. Ann (you)" and
    its state; then, with ``code``, the match code and its explanation, wrapped)."""
    art = app.art
    x, y = topleft
    texts = []
    box = pygame.Rect(x, y, width, 10)
    y += 8
    for s in range(len(table.names)):
        who, state = table.seat_line(s)
        st = art.text(state, 17, CREAM, shadow=True)
        srect = st.get_rect(topright=(x + width - 10, y + 3))
        name = elide(art.font(19), who, srect.left - 8 - (x + 26))
        img = art.text(name, 19, GOLD if s == table.seat else CREAM, shadow=True)
        texts.append((name, img, img.get_rect(topleft=(x + 26, y + 1))))
        if state:
            texts.append((state, st, srect))
        y += ROW
    if code:
        for i, line in enumerate(code_lines(table.code)):
            img = art.text(line, 18 if i == 0 else 15, GOLD if i == 0 else CREAM, shadow=True, wrap=width - 20)
            texts.append((line, img, img.get_rect(topleft=(x + 10, y + 4))))
            y += img.get_height() + 4
    box.h = y - box.y + 8
    return box, texts


def draw_seats(surface: pygame.Surface, app: "App", table: LanTable, topleft: tuple[int, int],
               width: int = SEATS_W, code: bool = True) -> pygame.Rect:
    """Draw the seats box (:func:`seats_layout`); returns its rect."""
    box, texts = seats_layout(app, table, topleft, width, code)
    surface.blit(panel(box.size, 170, radius=10), box)
    for s in range(len(table.names)):
        pygame.draw.circle(surface, DOT[table.seat_state(s)], (box.x + 14, box.y + 8 + s * ROW + ROW // 2), 6)
    for _text, image, rect in texts:
        surface.blit(image, rect)
    return box


class Banner:
    """The connection banner of a :class:`LanTable` in ``box`` (the game says where: over its
    board or trick): the connection is down (the game waits; "Give up" leaves), or the match
    stopped for good without a verdict ("Main menu"). ``leave``: what the button does."""

    def __init__(self, table: LanTable, box: pygame.Rect, leave) -> None:
        self.table, self.box = table, pygame.Rect(box)
        self.button = Button((0, 0, 240, 54), N_("Give up"), leave, size=28)

    def layout(self, app: "App") -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """The banner's texts: its title, the status line and, once the match so far is in the saved
        games, a note saying so, one line above the button (placed here too)."""
        from .words import status_line
        t, box, art = self.table, self.box, app.art
        closed = t.connection() == "closed"
        self.button.label = N_("Main menu") if closed else N_("Give up")
        self.button.rect.midbottom = (box.centerx, box.bottom - 18)
        title = _("The game cannot go on") if closed else _("Connection interrupted")
        away = [t.name(s) for s in sorted(t.away) if s != t.seat]
        if closed:
            line = t.stop_words(t.stop_code) if t.stop_code else status_line(t.session)
        elif t.session.role == "host" and away:
            line = _("Connection interrupted, waiting for {name} to come back…").format(name=", ".join(away))
        else:
            line = status_line(t.session, t.name(0), True)
        ti = art.text(title, 34, GOLD, shadow=True)
        li = art.text(line, 24, CREAM, shadow=True, wrap=box.w - 40)
        texts = [(title, ti, ti.get_rect(midtop=(box.centerx, box.y + 18))),
                 (line, li, li.get_rect(midtop=(box.centerx, box.y + 68)))]
        if t.kept:
            note = elide(art.font(20), _("The record is kept in the saved games."), box.w - 40)
            n = art.text(note, 20, GOLD, shadow=True)
            texts.append((note, n, n.get_rect(midbottom=(box.centerx, self.button.rect.y - 6))))
        return texts

    def draw(self, surface: pygame.Surface, app: "App") -> None:
        texts = self.layout(app)
        surface.blit(panel(self.box.size, 245), self.box)
        pygame.draw.rect(surface, (210, 70, 60), self.box, 3, border_radius=14)
        for _text, image, rect in texts:
            surface.blit(image, rect)
        self.button.draw(surface, app.art)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """While the banner shows: its button gets the event; other clicks and keys are swallowed
        (nothing can be played until the connection is back). Returns True when used."""
        if self.button.handle_event(event) and event.type != pygame.MOUSEMOTION:
            return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.box.collidepoint(event.pos)


__all__ = ["Banner", "draw_seats", "seats_layout"]
