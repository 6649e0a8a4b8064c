"""Move animations, advanced by the fixed-step clock and drawn interpolated.

Each animation is built from the position *before* its move (the view's shown
state) and the completed move; while it runs it tells the static view what to
leave out (the crown, a stone being flipped, the card in flight) and draws the
moving sprites itself. When it is done the view pushes the move onto its shown
state. Times are seconds of animation time (the view scales real time by the
animation-speed setting).
"""

from __future__ import annotations

import math

import pygame

from game.roseking.engine import HERO, Card, Color, Move, State

from .art import Art
from .layout import DISCARD_RECT, DRAW_PILE_RECT, LIFT, hand_slot_rect, hero_rect, place, square_center
from ..tween import arc, bounce_out, ease_in_out, ease_out_cubic, window

CROWN_LIFT = -15  # the crown sits on the upper part of its square, so the stone under it shows
CROWN_SCALE = 0.8


class Anim:
    """Base: ``duration`` seconds; ``advance(dt)`` steps it, ``time(alpha)`` interpolates for drawing."""

    duration = 0.0
    hide_crown = False
    hidden_square: int | None = None

    def __init__(self, move: Move) -> None:
        assert move.card is not None, "animations show completed moves (a draw carries its card)"
        self.move = move
        self.card: Card = move.card  # the card played or drawn
        self.layout: list[tuple[Card, int]] | None = None  # the mover's hand while this runs
        self.t = 0.0
        self.prev = 0.0

    def advance(self, dt: float) -> None:
        self.prev = self.t
        self.t = min(self.duration, self.t + dt)

    @property
    def done(self) -> bool:
        return self.t >= self.duration

    def time(self, alpha: float) -> float:
        return self.prev + (self.t - self.prev) * alpha

    # what the static view shows instead of the shown state while this runs (None: no change)
    def hand(self, color: Color) -> list[tuple[Card, int]] | None:
        """(card, slot) pairs of ``color``'s hand as drawn under this animation."""
        return self.layout if color == self.move.player else None

    def discard_top(self, time: float) -> int | None:
        return None

    def discard_count(self, time: float, before: int) -> int:
        """Cards shown in the discard pile while :meth:`discard_top` overrides it."""
        return before

    def draw_count(self, time: float) -> int | None:
        return None

    def heroes(self, color: Color) -> int | None:
        return None

    def draw(self, surface: pygame.Surface, art: Art, time: float) -> None:
        pass


def blit_center(surface: pygame.Surface, image: pygame.Surface, center: tuple[float, float], alpha: int = 255) -> None:
    if alpha < 255:
        image = image.copy()
        image.set_alpha(alpha)
    surface.blit(image, image.get_rect(center=(round(center[0]), round(center[1]))))


def squash(image: pygame.Surface, sx: float) -> pygame.Surface:
    """``image`` squeezed horizontally to ``sx`` (0..1) of its width: a card or stone turning over."""
    return pygame.transform.smoothscale_by(image, (max(0.02, sx), 1.0))


class PlayAnim(Anim):
    """A play or hero move: the card flies to the discard pile while the crown slides along
    its path; then the new stone drops in (play), or the hero card flies to the square and the
    stone turns over (squash, colour change, expand)."""

    hide_crown = True

    def __init__(self, shown: State, move: Move, bottom: Color = Color.RED) -> None:
        super().__init__(move)
        p, card = move.player, move.card
        assert card is not None
        self.src = shown.crown
        dst = shown.target(card)
        assert dst is not None
        self.dst = dst
        hand = shown.hand(p)
        self.layout = [(c, i) for i, c in enumerate(hand) if c != card]
        self.card_from = hand_slot_rect(p, hand.index(card), bottom).move(0, LIFT[place(p, bottom)]).center
        self.old_top = shown.discard_top
        self.hero = move.kind is HERO
        self.heroes_before = shown.heroes[p]
        self.hero_from = hero_rect(p, max(0, self.heroes_before - 1), bottom).center
        self.slide = 0.16 + 0.09 * card.distance
        self.fly = 0.42
        self.land = 0.55 if self.hero else 0.32
        self.duration = max(self.fly, self.slide + 0.04) + self.land
        self.land_at = self.duration - self.land
        if self.hero:
            self.hidden_square = self.dst

    def discard_top(self, time: float) -> int | None:
        return self.card.index if time >= self.fly else self.old_top

    def discard_count(self, time: float, before: int) -> int:
        return before + 1 if time >= self.fly else before

    def heroes(self, color: Color) -> int | None:
        return self.heroes_before - 1 if self.hero and color == self.move.player else None

    def draw(self, surface: pygame.Surface, art: Art, time: float) -> None:
        p = self.move.player
        a, b = square_center(self.src), square_center(self.dst)
        dist = self.card.distance
        # the new stone or the flip, under the crown
        u = window(time, self.land_at, self.duration)
        if self.hero:
            if time >= self.land_at:
                lift = 1 + 0.18 * math.sin(math.pi * u)
                if u < 0.5:
                    img, sx = art.stones[p.other], math.cos(math.pi * u)
                else:
                    img, sx = art.stones[p], -math.cos(math.pi * u)
                img = art.scaled(img, lift, ("stone", int(p), u < 0.5))
                blit_center(surface, squash(img, sx), (b[0], b[1] - 10 * math.sin(math.pi * u)))
            else:
                blit_center(surface, art.stones[p.other], b)
            hu = window(time, 0.0, self.land_at + 0.12)
            if hu < 1:
                pos = arc(self.hero_from, b, ease_in_out(hu), 40)
                img = art.scaled(art.heroes[p], 1 - 0.55 * hu, ("hero", int(p)))
                blit_center(surface, img, pos, int(255 * (1 - hu ** 3)))
        elif time >= self.land_at:
            drop = bounce_out(u)
            scale = 1.3 - 0.3 * ease_out_cubic(u)
            img = art.scaled(art.stones[p], scale, ("stone", int(p)))
            blit_center(surface, img, (b[0], b[1] - 46 * (1 - drop)), int(120 + 135 * min(1, u * 3)))
        # the crown slides, lifted in an arch, a little larger at the top
        s = ease_in_out(window(time, 0.0, self.slide))
        pos = arc(a, b, s, 16 + 8 * dist)
        crown = art.scaled(art.crown, CROWN_SCALE * (1 + 0.25 * math.sin(math.pi * s)), "crown")
        blit_center(surface, crown, (pos[0], pos[1] + CROWN_LIFT))
        # the played card flies to the discard pile
        f = window(time, 0.0, self.fly)
        if f < 1:
            pos = arc(self.card_from, DISCARD_RECT.center, ease_out_cubic(f), 70)
            blit_center(surface, art.card(self.card), pos)


class DrawAnim(Anim):
    """A draw: a card leaves the draw pile face down, flies to its place in the hand and turns
    face up; if it was the last card, the discard pile is then shuffled into a new draw pile."""

    def __init__(self, shown: State, move: Move, bottom: Color = Color.RED) -> None:
        super().__init__(move)
        p, card = move.player, move.card
        assert card is not None
        post = sorted(shown.hand(p) + [card])
        self.layout = [(c, i) for i, c in enumerate(post) if c != card]
        self.slot = hand_slot_rect(p, post.index(card), bottom).center
        self.count_before = shown.draw_pile.bit_count()
        self.reshuffle = shown.draw_pile == 1 << card.index
        self.returning = shown.discard_pile_cards() if self.reshuffle else []
        self.fly, self.flip = 0.42, 0.2
        self.stagger, self.back = 0.05, 0.34
        self.shuffle_at = self.fly + self.flip
        extra = (self.stagger * max(0, len(self.returning) - 1) + self.back + 0.25) if self.reshuffle else 0.0
        self.duration = self.shuffle_at + extra

    def draw_count(self, time: float) -> int | None:
        if not self.reshuffle or time < self.shuffle_at:
            return self.count_before - (1 if time > 0 else 0)
        arrived = sum(1 for i in range(len(self.returning))
                      if time >= self.shuffle_at + i * self.stagger + self.back)
        return arrived

    def discard_top(self, time: float) -> int | None:
        return -1 if self.reshuffle and time >= self.shuffle_at else None

    def discard_count(self, time: float, before: int) -> int:
        return 0

    def draw(self, surface: pygame.Surface, art: Art, time: float) -> None:
        f = window(time, 0.0, self.fly)
        if f < 1:
            pos = arc(DRAW_PILE_RECT.center, self.slot, ease_out_cubic(f), 50)
            blit_center(surface, art.card_back, pos)
        else:
            u = window(time, self.fly, self.shuffle_at)
            if u < 0.5:
                blit_center(surface, squash(art.card_back, math.cos(math.pi * u)), self.slot)
            else:
                blit_center(surface, squash(art.card(self.card), -math.cos(math.pi * u)), self.slot)
        if self.reshuffle and time >= self.shuffle_at:
            for i, card in enumerate(self.returning):
                start = self.shuffle_at + i * self.stagger
                g = window(time, start, start + self.back)
                if g <= 0:
                    blit_center(surface, art.card(card), DISCARD_RECT.center)
                elif g < 1:
                    pos = arc(DISCARD_RECT.center, DRAW_PILE_RECT.center, ease_in_out(g), 60)
                    face = art.card(card) if g < 0.5 else art.card_back
                    blit_center(surface, squash(face, abs(math.cos(math.pi * g))), pos)


def pile_offsets(count: int) -> list[tuple[int, int]]:
    """Offsets of the card backs drawn for a pile of ``count`` cards (a small visible stack)."""
    n = min(6, (count + 2) // 3)
    return [(-i * 2, -i * 2) for i in range(n - 1, -1, -1)]
