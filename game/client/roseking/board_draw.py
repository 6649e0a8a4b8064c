"""Drawing Rose King's game view: what :class:`~game.client.roseking.game_scene.GameScene` shows.

:class:`BoardDrawing` is an object the game scene holds (``scene.drawing``): it draws the board,
stones, crown, targets, hands, piles, player panels, status box, move log, toast and banner, all
read from the scene through :class:`BoardView` (the scene's *shown* state, or the move log's
earlier position while peeking) and never changing the game. It also answers where a hand card
is drawn now (:meth:`BoardDrawing.card_rect`, :meth:`~BoardDrawing.card_at`), which the input
(:mod:`.board_input`) hit-tests against, and glides the hand cards to their slots. Fixed geometry
lives in :mod:`.layout`; the match driver in :mod:`.game_scene`.
"""

from __future__ import annotations

import math
from collections.abc import Sized
from typing import TYPE_CHECKING, Callable, Protocol

import pygame

from game.roseking.engine import CARDS, DRAW, HERO, SIZE, Card, Color, State, TOTAL_STONES, territories
from game.roseking.engine.cards import iter_bits
from game.i18n import _

from .anims import CROWN_LIFT, CROWN_SCALE, Anim, blit_center, pile_offsets
from .art import Art, COLOR_UI, CREAM, GOLD, GOLD_DARK, HERO_UI, INK, TEAL, art_of
from .layout import (BOARD_RECT, CANVAS, CARD_H, CARD_W, DISCARD_RECT, DRAW_PILE_RECT, HAND_SLOTS, LIFT, PANEL_RECT,
                     SQUARE, STATUS_RECT, TOAST_SIZES, TOAST_WRAP, hand_slot_rect, hero_rect, place, square_at,
                     square_center, square_rect)
from ..widgets import Button, panel, wrapped_to_fit

if TYPE_CHECKING:
    from game.roseking.replay import PlyInfo

    from ..scene import AppLike
    from .hint import Hint
    from game.roseking.match import Match
    from .movelog import MoveLog

TERRITORY_LINE = {Color.RED: (150, 20, 24), Color.WHITE: (250, 250, 240)}
#: Seconds a banner shows (it slides in, then fades).
BANNER_SECONDS = 2.4

def color_name(color: Color) -> str:
    return _("Red") if color is Color.RED else _("White")


def controller_label(controller: object) -> str:
    """The line under a player's name, in the current language: "Computer · Hard" for a computer
    (its level is translated each time, so a language change shows at once), else the label."""
    level = getattr(controller, "level", None)
    if level:
        from game.roseking.phrases import level_name
        return _("Computer · {level}").format(level=level_name(level))
    label = getattr(controller, "label", "")
    return _(label) if label else ""  # N_ labels are translated when drawn


def territory_of(state: State, sq: int) -> int:
    """Bitmask of the territory holding the stone on ``sq`` (0 if the square is empty)."""
    owner = state.owner(sq)
    if owner is None:
        return 0
    for group in territories(state.stones[owner]):
        if (group >> sq) & 1:
            return group
    return 0


def outline(surface: pygame.Surface, mask: int, color, width: int = 3,
            rect_of: Callable[[int], pygame.Rect] = square_rect) -> None:
    """Draw the outer border of the squares in ``mask`` (edges to squares outside it);
    ``rect_of(sq)`` places a square (default: the game board's; "How to play" draws a small board)."""
    for sq in iter_bits(mask):
        r = rect_of(sq)
        f, rk = sq % SIZE, sq // SIZE
        if rk == SIZE - 1 or not (mask >> (sq + SIZE)) & 1:
            pygame.draw.line(surface, color, r.topleft, (r.right - 1, r.top), width)
        if rk == 0 or not (mask >> (sq - SIZE)) & 1:
            pygame.draw.line(surface, color, (r.left, r.bottom - 1), (r.right - 1, r.bottom - 1), width)
        if f == 0 or not (mask >> (sq - 1)) & 1:
            pygame.draw.line(surface, color, r.topleft, (r.left, r.bottom - 1), width)
        if f == SIZE - 1 or not (mask >> (sq + 1)) & 1:
            pygame.draw.line(surface, color, (r.right - 1, r.top), (r.right - 1, r.bottom - 1), width)


def _tile(color, alpha: int, radius: int = 8, border: int = 0, size: int = SQUARE - 6) -> pygame.Surface:
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(s, (*color, alpha), s.get_rect(), border, border_radius=radius)
    return s


def _dot(color, radius: int, border: int = 0, size: int = SQUARE - 6) -> pygame.Surface:
    """A round dot in the middle of a square (a legal target for a stone)."""
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.circle(s, (*color, 235), (size // 2, size // 2), radius, border)
    return s


def _ring(color, width: int, notches: bool = False, size: int = SQUARE - 6) -> pygame.Surface:
    """A ring round a stone, with four notches pointing in (a hero target: this stone can be flipped)."""
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c, r = size // 2, size // 2 - 1
    pygame.draw.circle(s, (*color, 240), (c, c), r, width)
    if notches:
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            tip = (c + dx * (r - 9), c + dy * (r - 9))
            base = [(c + dx * r - dy * 6, c + dy * r - dx * 6), (c + dx * r + dy * 6, c + dy * r + dx * 6)]
            pygame.draw.polygon(s, (*color, 250), [tip, *base])
    return s



class BoardView(Protocol):
    """What :class:`BoardDrawing` reads of its scene (all of it read-only):
    :class:`~game.client.roseking.game_scene.GameScene` is the one implementation."""

    @property
    def app(self) -> "AppLike": ...
    @property
    def match(self) -> "Match": ...
    @property
    def shown(self) -> State:
        """The position shown live (the animations start from it)."""
    @property
    def anim(self) -> Anim | None:
        """The move being animated, or None."""
    @property
    def queue(self) -> Sized:
        """The moves waiting for their animation."""
    @property
    def bottom(self) -> Color:
        """Whose hand runs along the bottom edge."""
    @property
    def selected(self) -> Card | None: ...
    @property
    def armed(self) -> Card | None:
        """The hero card waiting for its confirming click."""
    @property
    def hover_pos(self) -> tuple[int, int]: ...
    @property
    def peek(self) -> int | None:
        """The ply the move log shows instead of the live game, or None."""
    @property
    def peek_state(self) -> State | None:
        """The position after :attr:`peek`."""
    @property
    def movelog(self) -> "MoveLog | None": ...
    @property
    def hint(self) -> "Hint | None": ...
    @property
    def buttons(self) -> list[Button]: ...
    @property
    def toast(self) -> tuple[str, float] | None:
        """(words, seconds left) of the toast showing, or None."""
    @property
    def toast_ok(self) -> bool: ...
    @property
    def banner(self) -> tuple[str, float] | None:
        """(words, seconds left) of the banner showing, or None."""
    def pulse(self, speed: float) -> float:
        """0..1: how bright a glow is now."""
    def finished(self, state: State | None = None) -> bool:
        """Whether the game drawn (``state``, else the one shown) has ended."""
    def player_names(self) -> tuple[str, str]: ...
    def last_info(self, state: State) -> "PlyInfo | None":
        """The last move of ``state`` (to mark it), or None."""
    def waiting_line(self, mover: Color) -> str:
        """The status line while ``mover``, not a person here, is to move."""


class BoardDrawing:
    """Draws a :class:`BoardView` (``scene``); it changes no game state. While the move log shows
    an earlier position (``scene.peek_state``), :meth:`draw` draws that one instead, unanimated.
    It also glides the hand cards to their slots (:meth:`slide_hands`)."""

    def __init__(self, scene: BoardView) -> None:
        self.scene = scene
        #: The move log's earlier position while :meth:`draw` draws it, else None.
        self._peek: State | None = None
        #: The drawn x of each hand card while it glides to its slot; :attr:`sliding`: some card glides.
        self.card_x: dict[tuple[Color, int], float] = {}
        self.sliding = False
        # the translucent marks drawn over squares and cards, made once per scene
        self.tiles = {
            # shapes as well as colours: a play target is a dot on an empty square, a hero
            # target a ring with four notches round the opponent's stone, a selected card's target a square
            "play": _dot(TEAL, 12), "play_ring": _dot((20, 90, 64), 12, border=3),
            "hero": _ring(HERO_UI, 6), "hero_ring": _ring((236, 200, 255), 3, notches=True),
            "pick": _tile((255, 170, 40), 150), "pick_ring": _tile((255, 250, 220), 255, border=4),
            "red_land": _tile((200, 40, 40), 90, 2, size=SQUARE - 2),
            "white_land": _tile((255, 255, 255), 120, 2, size=SQUARE - 2),
        }
        self.card_dim = pygame.Surface((CARD_W, CARD_H), pygame.SRCALPHA)
        pygame.draw.rect(self.card_dim, (20, 12, 6, 130), self.card_dim.get_rect(), border_radius=8)
        art = art_of(scene.app)
        self.backdrop = self._backdrop(art)
        self.ghost_crown = art.scaled(art.crown, CROWN_SCALE, "crown").copy()
        self.ghost_crown.set_alpha(140)

    @staticmethod
    def _backdrop(art: Art) -> pygame.Surface:
        """Everything that never moves (table, board, panels, pile frames) composed once, opaque."""
        back = art.table.copy()
        back.blit(art.board, BOARD_RECT)
        for r in (*PANEL_RECT.values(), STATUS_RECT):
            back.blit(panel(r.size), r)
        for r in (DRAW_PILE_RECT, DISCARD_RECT):
            pygame.draw.rect(back, (20, 44, 30), r.inflate(8, 8), 2, border_radius=10)
        return back

    # ------------------------------------------------------------------ what is drawn
    @property
    def peeking(self) -> bool:
        """Whether the move log's earlier position is being drawn now."""
        return self._peek is not None

    @property
    def state(self) -> State:
        """The position drawn: the scene's shown one, or the move log's while :meth:`draw` draws it."""
        return self.scene.shown if self._peek is None else self._peek

    @property
    def anim(self) -> Anim | None:
        """The animation drawn (none over the move log's position)."""
        return self.scene.anim if self._peek is None else None

    def busy(self) -> bool:
        """Whether a move is animated or waits for its animation (as drawn)."""
        return self.anim is not None or bool(self.scene.queue)

    # ------------------------------------------------------------------ geometry of what is shown
    def hand_layout(self, color: Color) -> list[tuple[Card, int]]:
        anim = self.anim
        if anim is not None:
            layout = anim.hand(color)
            if layout is not None:
                return layout
        return [(c, i) for i, c in enumerate(self.state.hand(color))]

    def card_rect(self, color: Color, card: Card, slot: int) -> pygame.Rect:
        """Where ``card`` is drawn: its slot, or on its way there after the hand closed a gap."""
        bottom = self.scene.bottom
        r = hand_slot_rect(color, slot, bottom)
        x = None if self.peeking else self.card_x.get((color, card.index))
        if x is not None:
            r.x = round(x)
        if card == self.scene.selected and color == self.state.turn:
            return r.move(0, LIFT[place(color, bottom)])
        return r

    def card_at(self, pos: tuple[int, int]) -> tuple[Card | None, Color | None]:
        """The hand card under ``pos`` and its owner, or (None, None)."""
        for color in (Color.RED, Color.WHITE):
            for card, slot in self.hand_layout(color):
                if self.card_rect(color, card, slot).collidepoint(pos):
                    return card, color
        return None, None

    def drawn_card_rect(self, color: Color, card: Card) -> pygame.Rect | None:
        """Where ``card`` in ``color``'s hand is drawn now, or None if it is not there."""
        rect = None
        for c, slot in self.hand_layout(color):
            if c == card:
                rect = self.card_rect(color, c, slot)
        return rect

    def card_center(self, color: Color, card: Card) -> tuple[int, int]:
        """Centre of ``card`` in ``color``'s hand as drawn now (tests click here). Raises ValueError if absent."""
        rect = self.drawn_card_rect(color, card)
        if rect is None:
            raise ValueError(f"{card} is not in {color}'s hand")
        return rect.center

    def slide_hands(self, dt: float, speed: float) -> None:
        """Cards glide to their slots when the hand closes a gap or makes room (about 0.15 s at
        animation ``speed`` 1; 0: at once)."""
        k = 1.0 if speed <= 0 else min(1.0, dt * speed * 16)
        seen = set()
        self.sliding = False
        for color in (Color.RED, Color.WHITE):
            for card, slot in self.hand_layout(color):
                key = (color, card.index)
                seen.add(key)
                target = hand_slot_rect(color, slot, self.scene.bottom).x
                x = self.card_x.get(key, target)
                x += (target - x) * k
                self.card_x[key] = target if abs(target - x) < 0.5 else x
                self.sliding = self.sliding or self.card_x[key] != target
        for key in [key for key in self.card_x if key not in seen]:
            del self.card_x[key]

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        peek = self.scene.peek_state
        if peek is None:
            self._draw(surface, alpha)
            return
        self._peek = peek
        try:
            self._draw(surface, alpha)
        finally:
            self._peek = None
        pygame.draw.rect(surface, GOLD, BOARD_RECT.inflate(6, 6), 3, border_radius=6)  # not the live board

    def _draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        scene = self.scene
        art = art_of(scene.app)
        state = self.state
        anim = self.anim
        t = anim.time(alpha) if anim is not None else 0.0
        surface.blit(self.backdrop, (0, 0))
        idle_human = (not self.peeking and not self.busy() and scene.match.human_to_move()
                      and not state.is_game_over())
        if idle_human:
            self._draw_targets(surface, state)
        if state.is_game_over() and not self.busy():
            self._draw_final_territories(surface, state)
        self._draw_stones(surface, art, state, anim)
        if idle_human:
            self._draw_hero_rings(surface, state)
        if state.is_game_over() and not self.busy():
            for color in (Color.RED, Color.WHITE):
                for group in territories(state.stones[color]):
                    if group.bit_count() > 1:
                        outline(surface, group, TERRITORY_LINE[color], 3)
        else:
            self._draw_hover_territory(surface, art, state)
        if anim is None or not anim.hide_crown:
            cx, cy = square_center(state.crown)
            blit_center(surface, art.scaled(art.crown, CROWN_SCALE, "crown"), (cx, cy + CROWN_LIFT))
        if idle_human:
            self._draw_preview(surface, art, state)
        for color in (Color.RED, Color.WHITE):
            self._draw_hand(surface, art, state, color, anim, idle_human)
            self._draw_player_panel(surface, art, state, color)
        self._draw_piles(surface, art, state, anim, t)
        if anim is None and not scene.queue:
            self._draw_last_action(surface, art, state)
        if scene.movelog is not None:
            scene.movelog.refresh(scene.shown)
            scene.movelog.draw(surface, art, scene.player_names(), scene.peek if self.peeking else None)
        self.draw_status(surface, art, state, idle_human)
        for b in scene.buttons:
            b.draw(surface, art)
        if anim is not None:
            anim.draw(surface, art, t)
        if idle_human and scene.hint is not None:
            scene.hint.draw(surface, art, state, self.drawn_card_rect)
        armed = scene.armed
        if idle_human and armed is not None:
            self._draw_hero_tag(surface, art, state, armed)
        if not (state.is_game_over() and not self.busy()):
            self._draw_tooltip(surface, art, state)
        self._draw_toast(surface, art)
        self._draw_banner(surface, art)

    def toast_text(self, art: Art, text: str) -> pygame.Surface:
        """The toast's wrapped text image: wrapped to :data:`TOAST_WRAP` canvas pixels, at the
        first size of :data:`TOAST_SIZES` whose toast fits in the status box."""
        return wrapped_to_fit(art, text, TOAST_SIZES, STATUS_RECT.h - 16 - 28, TOAST_WRAP, (255, 236, 220))

    def toast_rect(self, art: Art, text: str) -> pygame.Rect:
        """Canvas rect of the toast showing ``text``: over the status box (left column), centred
        in it, as wide as its text plus a 20-pixel margin each side, its bottom 8 pixels above the
        box's bottom, so it grows upwards over the box's guidance, which it amends. It covers no
        square of the board (it lay over the board's bottom rows), no hand, pile, button, player's
        panel or the move log (where it lay before that)."""
        s = self.toast_text(art, text)
        rect = pygame.Rect(0, 0, s.get_width() + 40, s.get_height() + 28)
        rect.midbottom = (STATUS_RECT.centerx, STATUS_RECT.bottom - 8)
        return rect

    def _draw_toast(self, surface: pygame.Surface, art: Art) -> None:
        toast = self.scene.toast
        if not toast:
            return
        text, left = toast
        s = self.toast_text(art, text)
        tb = self.toast_rect(art, text)
        fade = min(1.0, left / 0.4)
        bg = panel(tb.size, 255, 10)  # opaque: the status text under it must not show through
        bg.set_alpha(int(255 * fade))
        surface.blit(bg, tb)
        pygame.draw.rect(surface, GOLD if self.scene.toast_ok else (210, 70, 60), tb, 3, border_radius=10)
        s2 = s.copy()
        s2.set_alpha(int(255 * fade))
        surface.blit(s2, s2.get_rect(midtop=(tb.centerx, tb.y + 14)))
        bg.set_alpha(255)

    def _draw_last_action(self, surface: pygame.Surface, art: Art, state: State) -> None:
        """The last move stays marked until the next one: the crown's from-square (a dashed ring),
        the new or flipped stone (a frame), the card played (on the discard pile) or drawn (in the hand)."""
        info = self.scene.last_info(state)
        if info is None:
            return
        color = COLOR_UI[info.player]
        move = info.move
        if move.kind is DRAW:
            for card, slot in self.hand_layout(info.player):
                if card == move.card:
                    r = self.card_rect(info.player, card, slot).inflate(8, 8)
                    pygame.draw.rect(surface, color, r, 3, border_radius=10)
                    tag = art.text(_("drawn"), 17, color, shadow=True)
                    surface.blit(tag, tag.get_rect(midtop=(r.centerx, r.bottom + 1))
                                 if LIFT[place(info.player, self.scene.bottom)] > 0
                                 else tag.get_rect(midbottom=(r.centerx, r.top - 1)))
            return
        c = square_center(info.crown_from)
        for i in range(12):  # dashed ring: where the crown came from
            a0 = i * math.tau / 12
            pygame.draw.arc(surface, color, pygame.Rect(c[0] - 23, c[1] - 23, 46, 46), a0, a0 + math.tau / 24, 4)
        pygame.draw.rect(surface, color, square_rect(info.crown_to).inflate(-3, -3), 3, border_radius=8)
        if state.discard_top >= 0:
            pygame.draw.rect(surface, color, DISCARD_RECT.inflate(8, 8), 3, border_radius=10)
            tag = art.text(_("played"), 17, color, shadow=True)
            surface.blit(tag, tag.get_rect(midtop=(DISCARD_RECT.centerx, DISCARD_RECT.bottom + 40)))

    @staticmethod
    def _targets(state: State, kind: object = None) -> list[tuple[Card, int, bool]]:
        """(card, target square, hero?) of each legal move that plays a card (of ``kind`` if given)."""
        out = []
        for m in state.legal_moves():
            if m.card is None or (kind is not None and m.kind is not kind):
                continue
            sq = state.target(m.card)
            if sq is not None:
                out.append((m.card, sq, m.kind is HERO))
        return out

    def _draw_targets(self, surface: pygame.Surface, state: State) -> None:
        pulse = self.scene.pulse(5)
        show_targets = self.scene.app.options.show_targets
        for card, sq, hero in self._targets(state):
            r = square_rect(sq).inflate(-6, -6)
            if card == self.scene.selected:
                tile, ring = ("hero", "hero_ring") if hero else ("pick", "pick_ring")
                self.tiles[tile].set_alpha(int(150 + 90 * pulse))
                surface.blit(self.tiles[tile], r)
                surface.blit(self.tiles[ring], r)
            elif show_targets:
                mark = self.tiles["hero" if hero else "play"]
                mark.set_alpha(255)
                surface.blit(mark, r)
                if not hero:
                    surface.blit(self.tiles["play_ring"], r)

    def _draw_hero_rings(self, surface: pygame.Surface, state: State) -> None:
        """A ring over each stone a hero move could flip (all if targets are shown, else the selected one)."""
        for card, sq, _hero in self._targets(state, HERO):
            if card == self.scene.selected or self.scene.app.options.show_targets:
                surface.blit(self.tiles["hero_ring"], square_rect(sq).inflate(-6, -6))

    def _draw_final_territories(self, surface: pygame.Surface, state: State) -> None:
        """Tint every square of each side's territories (the end of the game, ruling 8)."""
        for color in (Color.RED, Color.WHITE):
            tile = self.tiles["red_land" if color is Color.RED else "white_land"]
            for sq in iter_bits(state.stones[color]):
                surface.blit(tile, square_rect(sq).inflate(-2, -2))

    def _draw_stones(self, surface: pygame.Surface, art: Art, state: State, anim: Anim | None) -> None:
        hidden = anim.hidden_square if anim is not None else None
        for color in (Color.RED, Color.WHITE):
            img = art.stones[color]
            for sq in iter_bits(state.stones[color]):
                if sq != hidden:
                    surface.blit(img, img.get_rect(center=square_center(sq)))

    def _hovered(self, state: State) -> tuple[int, Color] | None:
        """(territory mask, owner) under the mouse while the board waits, else None."""
        sq = square_at(self.scene.hover_pos)
        if sq is None or self.busy() or self.scene.armed is not None:
            return None
        owner = state.owner(sq)
        group = territory_of(state, sq)
        return None if owner is None or not group else (group, owner)

    def hovered_territory(self, state: State) -> int:
        """The territory (square mask) under the mouse while the board waits, else 0."""
        hovered = self._hovered(state)
        return 0 if hovered is None else hovered[0]

    def _draw_hover_territory(self, surface: pygame.Surface, art: Art, state: State) -> None:
        """Outline the territory under the mouse (its label is :meth:`tooltip_layout`'s, drawn on top)."""
        group = self.hovered_territory(state)
        if group:
            outline(surface, group, GOLD, 4)

    def tooltip_layout(self, art: Art, state: State) -> tuple[str, pygame.Surface, pygame.Rect] | None:
        """(text, image, box) of the hovered territory's label: "Red territory: 4 stones, worth 4² =
        16 points", above the mouse, kept inside the canvas; None when no territory is hovered. It is
        drawn over everything else (near the board's left edge it lay behind the move log)."""
        hovered = self._hovered(state)
        if hovered is None:
            return None
        group, owner = hovered
        n = group.bit_count()
        if n == 1:
            label = _("{colour} territory: a single stone, worth 1 point").format(colour=color_name(owner))
        else:
            label = _("{colour} territory: {n} stones, worth {n}² = {points} points").format(
                colour=color_name(owner), n=n, points=n * n)
        text = art.text(label, 22, CREAM, shadow=True)
        hover = self.scene.hover_pos
        box = text.get_rect(midbottom=(hover[0], hover[1] - 18)).inflate(18, 10)
        box.clamp_ip(pygame.Rect(0, 0, *CANVAS))
        return label, text, box

    def _draw_tooltip(self, surface: pygame.Surface, art: Art, state: State) -> None:
        tip = self.tooltip_layout(art, state)
        if tip is None:
            return
        _label, text, box = tip
        surface.blit(panel(box.size, 235, 8), box)
        surface.blit(text, text.get_rect(center=box.center))

    def _draw_preview(self, surface: pygame.Surface, art: Art, state: State) -> None:
        """Dotted path and a ghost crown where the hovered (else the selected) card would go."""
        card, color = self.card_at(self.scene.hover_pos)
        if card is None or color != state.turn:
            card = self.scene.selected
        if card is None:
            return
        t = state.target(card)
        a = square_center(state.crown)
        if t is None:  # points the way off the board
            df, dr = card.step
            b = (a[0] + df * SQUARE * card.distance, a[1] - dr * SQUARE * card.distance)
        else:
            b = square_center(t)
        steps = 10 * card.distance
        for i in range(1, steps):
            x = a[0] + (b[0] - a[0]) * i / steps
            y = a[1] + (b[1] - a[1]) * i / steps
            pygame.draw.circle(surface, (255, 240, 190), (x, y), 2)
        if t is None:
            pygame.draw.line(surface, (220, 60, 50), (b[0] - 12, b[1] - 12), (b[0] + 12, b[1] + 12), 5)
            pygame.draw.line(surface, (220, 60, 50), (b[0] - 12, b[1] + 12), (b[0] + 12, b[1] - 12), 5)
        else:
            blit_center(surface, self.ghost_crown, (b[0], b[1] + CROWN_LIFT))

    def _draw_hero_tag(self, surface: pygame.Surface, art: Art, state: State, armed: Card) -> None:
        sq = state.target(armed)
        if sq is None:
            return
        left = state.heroes[state.turn]
        lines = [_("Hero card: flip this stone"), _("costs 1 hero ({left} left after)").format(left=left - 1),
                 _("Click again to confirm")]
        surfs = [art.text(line, 21, CREAM if i else (236, 200, 255), shadow=True) for i, line in enumerate(lines)]
        w = max(s.get_width() for s in surfs) + 24
        h = sum(s.get_height() for s in surfs) + 18
        r = square_rect(sq)
        box = pygame.Rect(0, 0, w, h)
        box.midbottom = (r.centerx, r.top - 6)
        if box.top < BOARD_RECT.top:
            box.midtop = (r.centerx, r.bottom + 6)
        box.clamp_ip(surface.get_rect())
        surface.blit(panel(box.size, 240, 8), box)
        pygame.draw.rect(surface, HERO_UI, box, 2, border_radius=8)
        y = box.y + 9
        for s in surfs:
            surface.blit(s, (box.centerx - s.get_width() // 2, y))
            y += s.get_height()
        icon = art.scaled(art.heroes[state.turn], 0.34, ("hero", int(state.turn)))
        surface.blit(icon, icon.get_rect(bottomright=(r.right + 4, r.bottom + 4)))

    def _draw_hand(self, surface: pygame.Surface, art: Art, state: State, color: Color, anim: Anim | None,
                   idle_human: bool) -> None:
        bottom, selected = self.scene.bottom, self.scene.selected
        heroes = state.heroes[color]
        animated = anim.heroes(color) if anim is not None else None
        if animated is not None:
            heroes = animated
        for i in range(heroes):
            surface.blit(art.heroes[color], hero_rect(color, i, bottom))
        label = art.text(_("Heroes: {n}").format(n=heroes), 20, CREAM, shadow=True)
        hr = hero_rect(color, 0, bottom)
        lift = LIFT[place(color, bottom)]
        ly = hr.bottom + 2 if lift > 0 else hr.top - label.get_height() - 2
        surface.blit(label, (hr.x, ly))
        legal = {m.card for m in state.legal_moves()} if idle_human and color == state.turn else None
        hover, hover_color = self.card_at(self.scene.hover_pos)
        for card, slot in self.hand_layout(color):
            r = self.card_rect(color, card, slot)
            if card == hover and hover_color == color and card != selected and idle_human:
                r = r.move(0, lift // 2)
            surface.blit(art.card(card), r)
            if legal is not None and card not in legal:
                surface.blit(self.card_dim, r)
            elif color != state.turn and not state.is_game_over():
                surface.blit(self.card_dim, r)
            if card == selected and color == state.turn:
                ring = HERO_UI if self.scene.armed == card else GOLD
                pygame.draw.rect(surface, ring, r.inflate(6, 6), 4, border_radius=10)
            target = state.target(card)
            if legal is not None and card in legal and target is not None and state.owner(target) is not None:
                badge = art.scaled(art.heroes[color], 0.3, ("hero", int(color)))
                surface.blit(badge, badge.get_rect(topright=(r.right + 6, r.top - 6)))

    def _draw_player_panel(self, surface: pygame.Surface, art: Art, state: State, color: Color) -> None:
        scene = self.scene
        r = PANEL_RECT[place(color, scene.bottom)]
        to_move = state.turn == color and not scene.finished(state)
        if to_move:
            glow = scene.pulse(4)
            pygame.draw.rect(surface, (255, int(200 + 50 * glow), 120), r.inflate(6, 6), 3, border_radius=16)
        stone = art.scaled(art.stones[color], 0.8, ("stone", int(color)))
        surface.blit(stone, (r.x + 12, r.y + 12))
        controller = scene.match.controllers[color]
        shown_name = scene.player_names()[color]
        name = art.text(shown_name, 32 if len(shown_name) < 10 else 26, COLOR_UI[color], shadow=True)
        surface.blit(name, (r.x + 58, r.y + 14))
        who = controller_label(controller)
        if who:
            sub = art.text(who, 20, (220, 200, 160))
            surface.blit(sub, (r.x + 58, r.y + 42))
        score = state.scores()[color]
        big = art.text(str(score), 42, GOLD, shadow=True)
        surface.blit(big, big.get_rect(bottomright=(r.right - 14, r.bottom - 8)))
        lab = art.text(_("points"), 19, (220, 200, 160))
        surface.blit(lab, lab.get_rect(bottomright=(r.right - 16 - big.get_width() - 4, r.bottom - 14)))
        if to_move:
            tm = art.text(_("to move"), 20, (255, 230, 160))
            surface.blit(tm, (r.x + 14, r.bottom - 26))

    def _draw_piles(self, surface: pygame.Surface, art: Art, state: State, anim: Anim | None, t: float) -> None:
        count = state.draw_pile.bit_count()
        animated = anim.draw_count(t) if anim is not None else None
        if animated is not None:
            count = animated
        base = DRAW_PILE_RECT
        for dx, dy in pile_offsets(count):
            surface.blit(art.card_back, base.move(dx, dy))
        can_draw = (not self.peeking and not self.busy() and self.scene.match.human_to_move()
                    and not state.is_game_over() and state.hands[state.turn].bit_count() < HAND_SLOTS)
        if can_draw:
            glow = self.scene.pulse(5)
            pygame.draw.rect(surface, (255, int(210 + 40 * glow), 120), base.inflate(10, 10), 3, border_radius=10)
        top, discards = state.discard_top, state.discard_pile.bit_count()
        animated_top = anim.discard_top(t) if anim is not None else None
        if anim is not None and animated_top is not None:
            top = animated_top
            discards = anim.discard_count(t, discards)
        if top >= 0:
            surface.blit(art.card(CARDS[top]), DISCARD_RECT)
        for rect, title, n in ((DRAW_PILE_RECT, _("Draw pile"), count),
                               (DISCARD_RECT, _("Discard pile"), discards)):
            lab = art.text(title, 21, CREAM, shadow=True)
            surface.blit(lab, lab.get_rect(midbottom=(rect.centerx, rect.top - 12)))
            num = art.text(str(n), 30, GOLD, shadow=True)
            surface.blit(num, num.get_rect(midtop=(rect.centerx, rect.bottom + 8)))
        if can_draw:
            hint = art.text(_("Click to draw"), 20, (255, 230, 160))
            surface.blit(hint, hint.get_rect(midtop=(DRAW_PILE_RECT.centerx, DRAW_PILE_RECT.bottom + 40)))
        # stones on the board
        placed = state.stones_placed
        bar = pygame.Rect(DRAW_PILE_RECT.x - 10, 200, DISCARD_RECT.right - DRAW_PILE_RECT.x + 20, 18)
        lab = art.text(_("Stones on the board: {n}/{total}").format(n=placed, total=TOTAL_STONES), 22, CREAM, shadow=True)
        surface.blit(lab, lab.get_rect(midbottom=(bar.centerx, bar.top - 6)))
        pygame.draw.rect(surface, (30, 18, 10), bar, border_radius=9)
        fill = bar.copy()
        fill.w = int(bar.w * placed / TOTAL_STONES)
        if fill.w:
            pygame.draw.rect(surface, GOLD_DARK, fill, border_radius=9)
            pygame.draw.rect(surface, GOLD, fill.inflate(0, -10).move(0, -2), border_radius=4)
        pygame.draw.rect(surface, GOLD_DARK, bar, 2, border_radius=9)

    def draw_status(self, surface: pygame.Surface, art: Art, state: State, idle_human: bool) -> None:
        """The status box: whose move, what to do, the keys (the replay viewer draws its move list here)."""
        scene = self.scene
        box = STATUS_RECT
        title = art.text(_("Rose King"), 40, GOLD, shadow=True)
        surface.blit(title, title.get_rect(midtop=(box.centerx, box.y + 16)))
        y = box.y + 70
        if self.peeking:  # the move log shows an earlier position
            lines = [(_("Move {ply} of {total}").format(ply=scene.peek, total=scene.shown.ply), 30, GOLD),
                     (_("Click the board or press Esc to return to the game."), 22, CREAM)]
        elif scene.finished(state):
            lines = [(_("Game over"), 30, GOLD)]
        else:
            mover = state.turn
            lines = [(_("{colour} to move").format(colour=color_name(mover)), 30, COLOR_UI[mover])]
            if self.busy():
                pass
            elif idle_human:
                hint = (_("Confirm the hero move, or pick another card.") if scene.armed is not None else
                        _("Click a lit square or a card twice to play it.") if scene.selected is not None else
                        _("Pick a card, click a square it reaches, or draw."))
                lines.append((hint, 22, CREAM))
            else:
                lines.append((scene.waiting_line(mover), 22, CREAM))
        for text, size, col in lines:
            s = art.text(text, size, col, shadow=True, wrap=box.w - 36)
            surface.blit(s, (box.x + 18, y))
            y += s.get_height() + 10
        keys = art.text(_("T: targets   D: draw   Esc: menu"), 18, (200, 180, 140))
        surface.blit(keys, keys.get_rect(midbottom=(box.centerx, box.bottom - 14)))

    def _draw_banner(self, surface: pygame.Surface, art: Art) -> None:
        banner = self.scene.banner
        if not banner:
            return
        text, left = banner
        age = BANNER_SECONDS - left
        slide = min(1.0, age / 0.25)
        fade = min(1.0, left / 0.35)
        s = art.text(text, 30, INK, wrap=BOARD_RECT.w + 100)
        box = pygame.Rect(0, 0, max(s.get_width() + 60, 520), s.get_height() + 40)
        box.center = (BOARD_RECT.centerx, BOARD_RECT.centery)
        box.x += int((1 - slide) * -300)
        ribbon = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(ribbon, (246, 226, 170, 245), ribbon.get_rect(), border_radius=12)
        pygame.draw.rect(ribbon, GOLD_DARK, ribbon.get_rect(), 4, border_radius=12)
        ribbon.blit(s, s.get_rect(center=(box.w // 2, box.h // 2)))
        ribbon.set_alpha(int(255 * fade * slide))
        surface.blit(ribbon, box)
