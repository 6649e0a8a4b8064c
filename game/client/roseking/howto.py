"""The "How to play" screen: the rules in the chosen language, with pictures.

Pages come from :func:`game.roseking.rulesbook.how_to_play` (texts written by us from the rule
texts, translated through the catalogues). A page with an
:class:`~game.roseking.rulesbook.Illustration` shows it on a small board drawn with the game's
own sprites (board, stones, crown, power and hero cards), animated in a loop:

* ``card_move``: the crown glides along the card's path and a stone appears;
* ``hero_flip``: the same onto an opponent's stone, which flips over (squash);
* ``pass``: every card of the hand with its blocked target crossed out;
* ``territories``: each territory outlined with its size and points.

The page list on the left, "Previous"/"Next" (or the arrow keys) and "Back" (Esc).
The texts are fetched again whenever the language changed, so the screen never
shows a stale language.
"""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game import i18n
from game.roseking import rulesbook
from game.roseking.engine import SIZE, Color, territories
from game.i18n import N_
from game.roseking.rulesbook import Illustration, Section

from .art import Art, CREAM, GOLD, HERO_UI, INK, art_of
from .board_draw import outline
from .layout import FRAME, SQUARE
from ..theme import CANVAS
from ..widgets import Button, ButtonScene, fit_size, panel

if TYPE_CHECKING:
    from ..app import App

PAGE = pygame.Rect(340, 24, CANVAS[0] - 364, CANVAS[1] - 120)
TEXT_X = PAGE.x + 30
#: The small board: the game's board sprite scaled by BOARD_SCALE.
BOARD_SCALE = 0.6
PICTURE = pygame.Rect(PAGE.right - 30 - round((SQUARE * SIZE + 2 * FRAME) * BOARD_SCALE), PAGE.y + 96, 0, 0)
PICTURE.size = (round((SQUARE * SIZE + 2 * FRAME) * BOARD_SCALE),) * 2
#: Seconds of one loop of an animated picture.
LOOP = 3.6
CROSS = (220, 50, 40)


class MiniBoard:
    """Where squares sit on a small board whose top-left corner is ``origin``, scaled by ``scale``."""

    def __init__(self, origin: tuple[int, int], scale: float = BOARD_SCALE) -> None:
        self.origin = origin
        self.scale = scale
        self.square = SQUARE * scale

    def rect(self, sq: int) -> pygame.Rect:
        """Screen rectangle of square ``sq`` (rank 9 at the top, as on the game screen)."""
        f, r = sq % SIZE, sq // SIZE
        x = self.origin[0] + (FRAME + f * SQUARE) * self.scale
        y = self.origin[1] + (FRAME + (SIZE - 1 - r) * SQUARE) * self.scale
        return pygame.Rect(round(x), round(y), round(self.square), round(self.square))

    def center(self, sq: int) -> tuple[float, float]:
        r = self.rect(sq)
        return (r.x + self.square / 2, r.y + self.square / 2)


def _cross(surface: pygame.Surface, center: tuple[float, float], half: float, width: int = 5) -> None:
    x, y = center
    pygame.draw.line(surface, CROSS, (x - half, y - half), (x + half, y + half), width)
    pygame.draw.line(surface, CROSS, (x - half, y + half), (x + half, y - half), width)


def _dots(surface: pygame.Surface, a: tuple[float, float], b: tuple[float, float], n: int) -> None:
    for i in range(1, n):
        pygame.draw.circle(surface, (255, 240, 190), (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n), 2)


def draw_illustration(surface: pygame.Surface, art: Art, pic: Illustration, board: MiniBoard, t: float) -> pygame.Rect:
    """Draw ``pic`` on the small ``board`` at loop time ``t`` (0..1); returns the area used below the
    board for cards (its top is the board's bottom). Pure drawing: the position comes from the rulebook."""
    k = board.scale
    surface.blit(art.scaled(art.board, k, "board"), board.origin)
    player = Color.RED if pic.player == "red" else Color.WHITE
    stones = {Color.RED: set(pic.red), Color.WHITE: set(pic.white)}
    crown_at: tuple[float, float] = board.center(pic.crown)
    flip = 1.0  # width factor of the flipping stone
    target = pic.highlight[0] if pic.highlight else None
    if pic.kind in ("card_move", "hero_flip") and target is not None:
        a, b = board.center(pic.crown), board.center(target)
        move = min(1.0, max(0.0, (t - 0.2) / 0.35))
        ease = move * move * (3 - 2 * move)
        crown_at = (a[0] + (b[0] - a[0]) * ease, a[1] + (b[1] - a[1]) * ease)
        if move < 1:
            _dots(surface, a, b, 8 * (pic.card.distance if pic.card else 1))
            pygame.draw.circle(surface, (64, 200, 150) if pic.kind == "card_move" else HERO_UI,
                               board.center(target), board.square * 0.18)
        if pic.kind == "card_move" and move >= 1:
            stones[player].add(target)
        if pic.kind == "hero_flip" and move >= 1:
            f = min(1.0, (t - 0.55) / 0.2)
            flip = abs(math.cos(f * math.pi))
            if f >= 0.5:
                stones[player.other].discard(target)
                stones[player].add(target)
    if pic.kind == "territories":
        for color in (Color.RED, Color.WHITE):
            mask = sum(1 << sq for sq in stones[color])
            for group in territories(mask):
                n = group.bit_count()
                if n > 1:
                    outline(surface, group, (150, 20, 24) if color is Color.RED else (250, 250, 240), 3, board.rect)
    for color in (Color.RED, Color.WHITE):
        img = art.scaled(art.stones[color], k, ("stone", int(color)))
        for sq in stones[color]:
            c = board.center(sq)
            if sq == target and flip < 1.0:
                w = max(1, round(img.get_width() * flip))
                squashed = pygame.transform.smoothscale(img, (w, img.get_height()))
                surface.blit(squashed, squashed.get_rect(center=c))
            else:
                surface.blit(img, img.get_rect(center=c))
    crown = art.scaled(art.crown, k * 1.1, "mini-crown")
    surface.blit(crown, crown.get_rect(center=(crown_at[0], crown_at[1] - 4 * k)))
    below = pygame.Rect(board.origin[0], board.origin[1] + round((SQUARE * SIZE + 2 * FRAME) * k) + 12,
                        round((SQUARE * SIZE + 2 * FRAME) * k), 0)
    cards: list[tuple[pygame.Surface, bool]] = []
    if pic.card is not None:
        if pic.kind == "hero_flip":
            cards.append((art.heroes[player], False))
        cards.append((art.card(pic.card), False))
    if pic.kind == "pass":
        _draw_blocked(surface, pic, board, stones[player])
        cards = [(art.card(card), True) for card in pic.hand]
    if pic.kind == "territories":
        _label_territories(surface, art, board, stones)
    if pic.kind == "setup":
        cards = [(art.card(card), False) for card in pic.hand] + [(art.heroes[player], False)]
    if pic.kind == "draw":
        cards = [(art.card(card), False) for card in pic.hand] + [(art.card_back, False)]
    x = below.x
    scale = 0.8 if len(cards) > 2 else 1.0
    if len(cards) > 4:  # a whole hand stays under the small board
        scale = min(scale, (below.w + 8) / (len(cards) * (art.card_back.get_width() + 8)))
    for img, crossed in cards:
        card_img = art.scaled(img, scale, ("howto-card", id(img)))
        surface.blit(card_img, (x, below.y))
        if crossed:
            _cross(surface, (x + card_img.get_width() - 14, below.y + 14), 9, 4)
        if pic.kind == "draw" and img is art.card_back:  # the card taken: framed, gliding in
            lift = round(10 * (1 - min(1.0, t / 0.4)))
            pygame.draw.rect(surface, (255, 220, 120), (x - 3, below.y - 3 - lift, card_img.get_width() + 6,
                                                         card_img.get_height() + 6), 3, border_radius=8)
        x += card_img.get_width() + 8
        below.h = max(below.h, card_img.get_height())
    return below


def _draw_blocked(surface: pygame.Surface, pic: Illustration, board: MiniBoard, own: set[int]) -> None:
    """For a pass: each card's path from the crown, crossed out where it leaves the board or meets an own stone."""
    a = board.center(pic.crown)
    for card in pic.hand:
        target = card.target(pic.crown)
        if target is not None and target not in own:
            continue  # not a pass position for this card (the rulebook's tests rule this out)
        df, dr = card.step
        steps = card.distance
        if target is None:  # cross where the path first leaves the board, in the board's frame
            f, r = pic.crown % SIZE, pic.crown // SIZE
            steps = next(k for k in range(1, card.distance + 1)
                         if not (0 <= f + k * df < SIZE and 0 <= r + k * dr < SIZE))
        end = (a[0] + df * board.square * steps * 0.7 if target is None else a[0] + df * board.square * steps,
               a[1] - dr * board.square * steps * 0.7 if target is None else a[1] - dr * board.square * steps)
        _dots(surface, a, end, 6 * steps)
        _cross(surface, end, board.square * 0.28)


def _label_territories(surface: pygame.Surface, art: Art, board: MiniBoard, stones: dict[Color, set[int]]) -> None:
    """Each territory's size squared, written on its first square."""
    for color in (Color.RED, Color.WHITE):
        for group in territories(sum(1 << sq for sq in stones[color])):
            n = group.bit_count()
            sq = (group & -group).bit_length() - 1
            tag = art.text(str(n * n), 20, INK if color is Color.WHITE else CREAM)
            box = tag.get_rect(center=board.center(sq)).inflate(8, 2)
            pygame.draw.rect(surface, (250, 240, 214) if color is Color.WHITE else (120, 20, 24), box, border_radius=6)
            surface.blit(tag, tag.get_rect(center=box.center))


class HowToPlay(ButtonScene):
    """The rules, page by page. ``page``: index into the sections."""

    def __init__(self, app: "App", page: int = 0) -> None:
        super().__init__(app)
        self.clock = 0.0
        self.still = False  # the pictures are animated
        self.text_bottom = 0
        self._language = ""
        self.sections: list[Section] = []
        self._refresh()
        self.page = max(0, min(page, len(self.sections) - 1))
        for i in range(len(self.sections)):
            self.buttons.append(Button((24, 24 + i * 66, PAGE.x - 44, 56),
                                          partial(self.title_of, i), partial(self.go, i), size=26,
                                          selected=partial(self.showing, i)))
        y = PAGE.bottom + 22
        self.buttons += [
            Button((PAGE.x, y, 240, 54), N_("Previous"), lambda: self.go(self.page - 1), key=pygame.K_LEFT,
                      enabled=lambda: self.page > 0, size=28),
            Button((PAGE.x + 260, y, 240, 54), N_("Next"), lambda: self.go(self.page + 1), key=pygame.K_RIGHT,
                      enabled=lambda: self.page < len(self.sections) - 1, size=28),
            Button((PAGE.right - 240, y, 240, 54), N_("Back"), self.back, size=28),
        ]

    def _refresh(self) -> None:
        """Fetch the pages in the current language if it changed since the last time."""
        if self._language != i18n.language():
            self._language = i18n.language()
            self.sections = rulesbook.how_to_play()

    def title_of(self, page: int) -> str:
        """The title of ``page`` in the current language (its button's label)."""
        return self.sections[page].title

    def showing(self, page: int) -> bool:
        """Whether ``page`` is the one shown (its button is selected)."""
        return self.page == page

    def go(self, page: int) -> None:
        if 0 <= page < len(self.sections):
            self.page = page
            self.clock = 0.0

    def back(self) -> None:
        self.app.pop()

    on_escape = back

    def update(self, dt: float) -> None:
        self.clock += dt
        self._refresh()

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        self._refresh()
        art = art_of(self.app)
        surface.blit(art.table, (0, 0))
        surface.blit(panel(PAGE.size, 235), PAGE)
        section = self.sections[self.page]
        pic = section.illustration
        width = (PICTURE.x - 30 - TEXT_X) if pic is not None else PAGE.right - 30 - TEXT_X
        head = art.text(section.title, fit_size(art, section.title, 44, PAGE.w - 60), GOLD, shadow=True)
        surface.blit(head, (TEXT_X, PAGE.y + 24))
        self.text_bottom = self._draw_paragraphs(surface, art, section.paragraphs, width)
        if pic is not None:
            t = (self.clock % LOOP) / LOOP
            below = draw_illustration(surface, art, pic, MiniBoard(PICTURE.topleft), t)
            caption = art.text(pic.caption, 20, (240, 226, 190), wrap=PICTURE.w)
            surface.blit(caption, (PICTURE.x, below.bottom + 10))
        page = art.text(f"{self.page + 1}/{len(self.sections)}", 24, (220, 200, 160))
        surface.blit(page, page.get_rect(topright=(PAGE.right - 24, PAGE.y + 34)))
        self.draw_buttons(surface)

    def _draw_paragraphs(self, surface: pygame.Surface, art: Art, paragraphs: tuple[str, ...], width: int) -> int:
        """The page's text, at the largest size (27..20 px) at which it fits the page; returns its bottom y."""
        room = PAGE.bottom - 24 - (PAGE.y + 96)
        for size in (27, 25, 23, 21, 20):
            blocks = [art.text(p, size, CREAM, wrap=width) for p in paragraphs]
            if sum(b.get_height() + 16 for b in blocks) <= room or size == 20:
                break
        y = PAGE.y + 96
        for block in blocks:
            surface.blit(block, (TEXT_X, y))
            y += block.get_height() + 16
        return y - 16

