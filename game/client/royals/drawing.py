"""Drawing the Royals & Riots table: the background with plates and the score panel, the rank
card, the seats' hands, piles and loots, the trick and what flies across the table, the
prompt, the last trick, the "pass to NAME" screen and the score table.

:class:`TablePainter` is held by :class:`~game.client.royals.scene.RoyalsTableScene` (its
``painter``): it reads the scene through :class:`PainterScene`, where things lie from the
scene's :class:`~game.client.royals.layout.TableLayout` and the keyboard mark and the card under
the mouse from its :class:`~game.client.royals.controls.TableControls`, and changes nothing but
its own caches and :attr:`TablePainter.drawn_face_up`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

import pygame

from game.i18n import _
from game.royals.engine import Action, Card, Phase, Rank, team_of
from game.royals.explain import REASONS, preview_execute, preview_steal

from ..dialogs import dim
from ..theme import CANVAS, CREAM, GOLD
from ..widgets import elide, panel
from .anims import DURATIONS, TRICK_HOLD
from .art import CARD_H, CARD_W, card_name, rank_name, royals_art
from .controls import TableControls
from .layout import (HAND_LEFT, HAND_ROOM, HAND_Y, HIGHLIGHT, LIFT, SMALL, TEAL, TEAM_COLOURS, TRICK_SCALE,
                     TRICK_Y, TableLayout, TableMotion)
from game.royals.match import Beat

if TYPE_CHECKING:
    from ..scene import AppLike


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    t = t * t * (3 - 2 * t)
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


class PainterScene(TableMotion, Protocol):
    """What :class:`TablePainter` reads of the table scene (nothing is changed through it)."""

    @property
    def app(self) -> "AppLike": ...
    @property
    def n(self) -> int: ...
    @property
    def clock(self) -> float: ...
    @property
    def news(self) -> tuple[int, list[Beat]] | None: ...
    @property
    def show_last(self) -> bool: ...
    @property
    def toast(self) -> str: ...
    @property
    def toast_time(self) -> float: ...
    @property
    def reveal_all(self) -> bool: ...
    @property
    def mouse(self) -> tuple[int, int]: ...
    @property
    def selected(self) -> set[Card]: ...
    @property
    def focus(self) -> int: ...
    @property
    def steal_target(self) -> int: ...
    @property
    def hint_cards(self) -> set[Card]: ...
    @property
    def hint_seat(self) -> int: ...
    def viewer(self) -> int: ...
    def face_up_seat(self) -> int: ...
    def idle(self) -> bool: ...
    def my_turn(self) -> int: ...
    def explain(self, reason: str) -> str: ...
    def prompt_text(self) -> str: ...


class TablePainter:
    """The picture of ``table`` (see the module docstring)."""

    def __init__(self, table: PainterScene, layout: TableLayout, controls: TableControls) -> None:
        self.table = table
        self.layout = layout
        self.controls = controls
        #: the seats whose hand the last frame drew face up (the privacy tests read it)
        self.drawn_face_up: set[int] = set()
        self._bg: tuple[tuple[int, int, bool], pygame.Surface] | None = None
        self._fan: list[pygame.Surface] | None = None

    def draw(self, surface: pygame.Surface) -> None:
        """The whole table, every screen over it (news, last trick, toast, pass screen, score table)."""
        art = self.table.app.art
        surface.blit(self.background(), (0, 0))
        self.drawn_face_up = set()
        self.draw_rank_card(surface)
        self.draw_scores(surface)
        for seat in range(1, self.table.n + 1):
            self.draw_seat(surface, seat)
        self.draw_trick(surface)
        self.draw_flying(surface)
        self.draw_prompt(surface)
        for b in self.table.buttons + self.controls.action_buttons:
            b.draw(surface, art)
        self.draw_announcement(surface)
        if self.table.news is not None:
            self.draw_news(surface)
        if self.table.show_last:
            self.draw_last_trick(surface)
        if self.table.toast_time > 0 and self.table.toast:
            msg, r = self.layout.toast_layout(self.table.toast)
            surface.blit(panel((r.w + 40, r.h + 20), 235), r.inflate(40, 20))
            surface.blit(msg, r)
        if self.table.passing:
            self.draw_pass(surface)
        if self.table.modal:
            self.draw_modal(surface)

    def background(self) -> pygame.Surface:
        """The table with the seats' plates and the score panel, composed once per seating
        (one opaque blit a frame instead of a translucent panel per seat)."""
        key = (self.table.n, self.table.viewer(), self.table.state.teams)
        cache = self._bg
        if cache is not None and cache[0] == key:
            return cache[1]
        bg = self.table.app.art.table.copy()
        for seat in range(1, self.table.n + 1):
            plate = self.layout.plate_rect(seat)
            bg.blit(panel(plate.size, 200), plate)
            if self.table.state.teams:
                pygame.draw.rect(bg, TEAM_COLOURS[team_of(seat)], plate.inflate(-6, -6), 3, border_radius=12)
        r = self.layout.scores_rect()
        bg.blit(panel(r.size, 215), r)
        if pygame.display.get_surface() is not None:
            bg = bg.convert()
        self._bg = (key, bg)
        return bg

    def draw_rank_card(self, surface: pygame.Surface) -> None:
        ra = royals_art(self.table.app)
        rev = self.table.view.revolution
        img = ra.sides[1 if rev else 0]
        a = self.table.anim
        rect = img.get_rect(topleft=(20, 16))
        if a is not None and a.beat.kind in ("revolution", "restore"):
            p = a.progress
            showing = ra.sides[0 if a.beat.kind == "revolution" else 1] if p < 0.5 else \
                ra.sides[1 if a.beat.kind == "revolution" else 0]
            sx = abs(math.cos(p * math.pi))
            w = max(1, int(rect.w * sx))
            img = pygame.transform.smoothscale(showing, (w, rect.h))
            surface.blit(img, img.get_rect(center=rect.center))
        else:
            surface.blit(img, rect)
        if a is not None and a.beat.kind in ("revolution", "restore") and a.progress >= 0.5:
            rev = a.beat.kind == "revolution"  # the label turns with the card
        label = _("Riots: the order is reversed") if rev else _("Royals: normal order")
        t = self.table.app.art.text(label, 20, HIGHLIGHT if rev else CREAM, shadow=True, wrap=160)
        surface.blit(t, (20, rect.bottom + 6))

    def draw_announcement(self, surface: pygame.Surface) -> None:
        """A revolution starting or ending, across the table: the rank card large, turning, and
        what it means (ruling 7: the Rebels reverse the order, a Prince restores it)."""
        a = self.table.anim
        if a is None or a.beat.kind not in ("revolution", "restore"):
            return
        ra = royals_art(self.table.app)
        p = a.progress
        box, items = self.layout.announcement_layout(a.beat)
        # panel and words fade in together (an opening panel without words read as an empty box), stay, fade out
        fade = max(0.0, min(1.0, p / 0.05, (1.0 - p) / 0.1))
        surface.blit(panel(box.size, int(235 * fade)), box)
        pygame.draw.rect(surface, (230, 90, 50) if a.beat.kind == "revolution" else GOLD, box, 3, border_radius=14)
        flip = min(1.0, max(0.0, (p - 0.1) / 0.25))  # the rank card turns over
        before, after = (ra.sides[0], ra.sides[1]) if a.beat.kind == "revolution" else (ra.sides[1], ra.sides[0])
        side = before if flip < 0.5 else after
        sx = abs(math.cos(flip * math.pi))
        img = pygame.transform.smoothscale(side, (max(1, int(side.get_width() * sx)), side.get_height()))
        surface.blit(img, img.get_rect(center=(box.x + 90, box.centery)))
        for _text, surf, rect in items:
            if fade < 1.0:
                surf = surf.copy()
                surf.set_alpha(int(255 * fade))
            surface.blit(surf, rect)

    def draw_news(self, surface: pygame.Surface) -> None:
        """The "since your last turn" panel (several people at one screen)."""
        box, items = self.layout.news_layout()
        surface.blit(panel(box.size, 240), box)
        pygame.draw.rect(surface, GOLD, box, 2, border_radius=14)
        for _text, surf, rect in items:
            surface.blit(surf, rect)

    def draw_scores(self, surface: pygame.Surface) -> None:
        for _text, img, where in self.layout.score_texts():
            surface.blit(img, where)

    def draw_seat(self, surface: pygame.Surface, seat: int) -> None:
        ra = royals_art(self.table.app)
        plate = self.layout.plate_rect(seat)
        if self.table.idle() and seat == self.table.match.decider():
            pygame.draw.rect(surface, HIGHLIGHT, plate.inflate(6, 6), 3, border_radius=16)
        if seat == self.table.hint_seat and self.table.my_turn():  # the hint's choice: the seat to rob, or to lead
            pygame.draw.rect(surface, TEAL, plate.inflate(20, 20), 4, border_radius=20)
        for _text, img, where in self.layout.plate_texts(seat):
            surface.blit(img, where)
        # pile and loot
        piles = self.table.view.piles[seat - 1]
        px, py = self.layout.pile_pos(seat)
        if piles:
            for k in range(min(piles, 4)):
                img = ra.back_img(0.36)
                surface.blit(img, img.get_rect(center=(px + k * 2, py - k * 2)))
        loot = self.table.view.loot[seat - 1]
        lx, ly = self.layout.loot_pos(seat)
        if loot:
            img = ra.face(loot[-1], 0.36)
            surface.blit(img, img.get_rect(center=(lx, ly)))
        # the hand
        hand = self.table.view.hands[seat - 1]
        if self.layout.rel(seat) == "bottom":
            self.draw_bottom_hand(surface, seat, hand)
        else:
            me = self.table.my_turn()
            target = self.table.state.phase is Phase.STEAL and me and seat in self.controls.choices(me) \
                and self.table.steal_target in (0, seat)
            for i, r in enumerate(self.layout.back_rects(seat, len(hand))):
                img = ra.face(hand[i], SMALL) if self.table.reveal_all else ra.back_img(SMALL)
                surface.blit(img, r)
                if target and r.collidepoint(self.table.mouse):
                    pygame.draw.rect(surface, HIGHLIGHT, r, 3, border_radius=6)
            if target:
                width = 5 if seat in (self.table.steal_target, self.controls.focused()) else 2
                pygame.draw.rect(surface, HIGHLIGHT, plate.inflate(12, 12), width, border_radius=18)

    def draw_bottom_hand(self, surface: pygame.Surface, seat: int, hand: list[Card]) -> None:
        ra = royals_art(self.table.app)
        face_up = self.table.reveal_all or self.table.face_up_seat() == seat
        me = self.table.my_turn()
        phase = self.table.state.phase
        if face_up and me == seat and phase is Phase.KEEP:
            dealt = list(self.table.state.observation(seat).dealt)
            self.drawn_face_up.add(seat)
            rects = self.layout.keep_rects(dealt)
            for i, (card, r) in enumerate(zip(dealt, rects)):
                surface.blit(ra.face(card), r)
                if card in self.table.hint_cards:  # the hint's choice: a glow around the card
                    pygame.draw.rect(surface, TEAL, r.inflate(8, 8), 4, border_radius=11)
                if card in self.table.selected:
                    pygame.draw.rect(surface, HIGHLIGHT, r, 3, border_radius=8)
                if self.controls.keys_armed() and i == self.table.focus % len(dealt):
                    pygame.draw.rect(surface, TEAL, r.inflate(6, 6), 2, border_radius=10)
            surface.blit(*self.layout.keep_count_layout(dealt))
            return
        rects = self.layout.hand_rects(len(hand))
        if not face_up:
            for r in rects:
                surface.blit(ra.back, r)
            return
        self.drawn_face_up.add(seat)
        legal = set()
        if me == seat and phase is Phase.PLAY:
            legal = {a.card for a in self.table.state.legal_actions()}
        playing = me == seat and phase is Phase.PLAY
        mouse = self.table.mouse
        hover = self.controls.card_at(mouse) if playing else None  # no labels over the hand during other choices
        focus_card = self.controls.focused() if playing else None  # the focus ring moves over playable cards only
        tip = ""
        for card, r in zip(hand, rects):
            playable = card in legal
            lifted = playable and (card == hover or card == focus_card)
            rr = r.move(0, -LIFT) if lifted else r
            if me == seat and phase is Phase.PLAY and not playable:
                surface.blit(ra.dimmed(card), rr)
            else:
                surface.blit(ra.face(card), rr)
            if card in self.table.hint_cards and playing:  # the hint's choice: a glow around the card
                pygame.draw.rect(surface, TEAL, rr.inflate(10, 10), 4, border_radius=12)
            if card == focus_card:
                pygame.draw.rect(surface, TEAL, rr.inflate(6, 6), 2, border_radius=10)
            if card == hover:
                tip = card_name(card)
                if not playable:
                    tip = self.table.explain(self.table.state.illegal_reason(Action.play(seat, card)) or "")
        if tip:
            t = self.table.app.art.text(tip, 22, CREAM, shadow=True)
            surface.blit(t, t.get_rect(midbottom=(HAND_LEFT + HAND_ROOM // 2, HAND_Y - 30)))

    def draw_trick(self, surface: pygame.Surface) -> None:
        ra = royals_art(self.table.app)
        a = self.table.anim
        sliding = a is not None and a.beat.kind in ("trick", "void") and a.progress > TRICK_HOLD / (
            DURATIONS["trick"] or 1)
        choosing = self.table.state.phase is Phase.EXECUTE and self.table.my_turn()
        for seat, card in self.table.view.trick:
            r = self.layout.trick_rect(seat)
            img = ra.face(card, TRICK_SCALE)
            if sliding and a is not None:
                p = (a.progress - TRICK_HOLD / DURATIONS["trick"]) / (1 - TRICK_HOLD / DURATIONS["trick"])
                dest = self.layout.loot_pos(a.beat.seat) if a.beat.kind == "trick" else (CANVAS[0] // 2 - 40, TRICK_Y)
                c = _lerp(r.center, dest, max(0.0, min(1.0, p)))
                img = ra.face(card, round(TRICK_SCALE * (1 - 0.55 * p) * 20) / 20)  # a few cached sizes
                if a.beat.kind == "void":
                    img = img.copy()
                    img.set_alpha(int(255 * (1 - p)))
                surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))
                continue
            if self.table.view.burning == card and a is not None:
                p = a.progress
                img = img.copy()
                img.fill((255, int(200 - 150 * p), int(120 - 100 * p), 255), special_flags=pygame.BLEND_RGBA_MULT)
                img.set_alpha(int(255 * (1 - p)))
                surface.blit(img, r.move(0, int(-20 * p)))
                for k in range(6):  # embers
                    ex = r.x + (k * 17 + int(self.table.clock * 90)) % r.w
                    ey = r.bottom - int((p * 140 + k * 23) % r.h)
                    pygame.draw.circle(surface, (255, 140 + k * 15, 40), (ex, ey), 3)
                continue
            surface.blit(img, r)
            if self.table.view.winner == seat:
                pygame.draw.rect(surface, HIGHLIGHT, r.inflate(8, 8), 4, border_radius=10)
            if choosing and card in self.table.hint_cards:  # the hint's choice
                pygame.draw.rect(surface, TEAL, r.inflate(14, 14), 4, border_radius=12)
            if choosing and card.name != "EXECUTIONER" and (
                    r.collidepoint(self.table.mouse) or card == self.controls.focused()):
                pygame.draw.rect(surface, (230, 80, 60), r.inflate(8, 8), 4, border_radius=10)
        if self.table.view.winner and a is not None and a.beat.kind == "trick":
            text = _("Trick to {name}: {why}").format(name=self.table.match.name(self.table.view.winner),
                                                      why=_(REASONS.get(self.table.view.reason, REASONS["highest"])))
            self.banner(surface, text, self.trick_note())
        elif a is not None and a.beat.kind == "void":
            self.banner(surface, _("Only rankless cards: nobody wins, they leave the game."), self.trick_note())
        elif self.preview_text():
            self.banner(surface, self.preview_text())
        state = self.table.state
        if state.phase is Phase.PLAY and self.table.view.trick and state.led >= 0 and self.table.idle():
            t = self.table.app.art.text(_("Led: {rank}").format(rank=rank_name(Rank(state.led))), 22, CREAM, shadow=True)
            surface.blit(t, t.get_rect(center=(CANVAS[0] // 2 - 40, TRICK_Y)))

    def trick_note(self) -> str:
        """The line under a finished trick's caption: that it started or ended a revolution (the
        order in force for the next trick), and "Click to go on." while it is held; "" for none."""
        parts = []
        if self.table.view.turned == "revolution":
            parts.append(_("This trick started a revolution: the order is reversed."))
        elif self.table.view.turned == "restore":
            parts.append(_("This trick ended the revolution: the normal order is back."))
        if self.table.holding:
            parts.append(_("Click to go on."))
        return " ".join(parts)

    def banner(self, surface: pygame.Surface, text: str, note: str = "") -> None:
        """A message across the middle of the trick, with a smaller ``note`` under it."""
        t = self.table.app.art.text(text, 26, HIGHLIGHT, shadow=True)
        r = t.get_rect(center=(CANVAS[0] // 2 - 40, TRICK_Y + 176))
        if note:
            n = self.table.app.art.text(note, 20, CREAM, shadow=True)
            nr = n.get_rect(midtop=(r.centerx, r.bottom + 4))
            box = r.union(nr)
            surface.blit(panel((box.w + 40, box.h + 24), 220), box.inflate(40, 24))
            surface.blit(n, nr)
        else:
            surface.blit(panel((r.w + 40, r.h + 24), 220), r.inflate(40, 24))
        surface.blit(t, r)

    def preview_text(self) -> str:
        """Who would take the trick after the choice under the mouse or the keys: the
        Executioner's victim ("Without Royals 5: trick to Ada") or the Thief's target (who takes
        back the card it played); "" when no such choice is pointed at."""
        seat = self.table.my_turn()
        if not seat or self.table.state.phase not in (Phase.EXECUTE, Phase.STEAL):
            return ""
        obs = self.table.state.observation(seat)
        name = self.table.match.name
        if self.table.state.phase is Phase.EXECUTE:
            card = next((c for s, c in reversed(self.table.view.trick) if c.name != "EXECUTIONER"
                         and self.layout.trick_rect(s).collidepoint(self.table.mouse)), None) \
                or self.controls.focused_card()
            if card is None:
                return ""
            res = preview_execute(obs, card)
            return _("Without {card}: trick to {name}.").format(card=card_name(card), name=name(res.winner)) \
                if res.winner else _("Without {card}: nobody takes the trick.").format(card=card_name(card))
        mouse = self.table.mouse
        target = self.table.steal_target or next(
            (t for t in self.controls.targets(seat) if self.layout.plate_rect(t).collidepoint(mouse)
             or any(r.collidepoint(mouse) for r in self.layout.back_rects(t, len(self.table.view.hands[t - 1])))),
            None) or self.controls.focused_seat()
        if not target:
            return ""
        res = preview_steal(obs, target)
        return _("Rob {victim}: trick to {name}.").format(victim=name(target), name=name(res.winner)) \
            if res.winner else _("Rob {victim}: nobody takes the trick.").format(victim=name(target))

    def draw_flying(self, surface: pygame.Surface) -> None:
        a = self.table.anim
        if a is None:
            return
        ra = royals_art(self.table.app)
        b = a.beat
        p = a.progress
        if b.kind == "play" and b.card is not None:
            src = a.data.get("src", self.layout.seat_anchor(b.seat))
            dst = self.layout.trick_pos(b.seat)
            c = _lerp(src, dst, p)
            img = ra.face(b.card, TRICK_SCALE)
            surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))
        elif b.kind == "draw":
            c = _lerp(self.layout.pile_pos(b.seat), self.layout.seat_anchor(b.seat), p)
            img = ra.back_img(SMALL)
            surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))
        elif b.kind == "steal" and b.card is not None:
            src = a.data.get("src", self.layout.seat_anchor(b.target))
            c = _lerp(src, self.layout.loot_pos(b.seat), p)
            img = ra.face(b.card, 0.7) if p > 0.35 else ra.back_img(0.7)
            surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))
            back = a.data.get("back")
            if back is not None:
                c2 = _lerp(self.layout.trick_pos(b.target), self.layout.seat_anchor(b.target), p)
                img2 = ra.face(back, 0.6)
                surface.blit(img2, img2.get_rect(center=(int(c2[0]), int(c2[1]))))
            self.banner(surface, _("The Thief ({thief}) robs {victim}").format(
                thief=self.table.match.name(b.seat), victim=self.table.match.name(b.target)))
        elif b.kind == "deal":  # a stream of cards to every seat, one after another
            img = ra.back_img(SMALL)
            for k in range(5):
                pk = max(0.0, min(1.0, (p - k * 0.12) / 0.52))
                if pk <= 0.0 or pk >= 1.0:
                    continue
                for s in range(1, self.table.n + 1):
                    c = _lerp((CANVAS[0] // 2 - 40, TRICK_Y), self.layout.seat_anchor(s), pk)
                    surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))

    def draw_prompt(self, surface: pygame.Surface) -> None:
        text = self.table.prompt_text()
        if text:
            surface.blit(*self.layout.prompt_layout(text))

    def last_trick_lines(self) -> list[str]:
        """What the last trick's review says under its cards: who won it and why, what the Thief
        took from whom (and the card the robbed player took back into their hand, which lies dimmed
        in the trick), what the Executioner removed."""
        lt = self.table.match.last_trick
        if lt is None:
            return []
        name = self.table.match.name
        if lt.winner:
            why = _("Won by {name}: {why}").format(name=name(lt.winner),
                                                   why=_(REASONS.get(lt.reason, REASONS["highest"])))
        else:
            why = _("Nobody won it: only rankless cards were left.")
        lines = [why]
        if lt.stolen is not None and lt.robbed:
            lines.append(_("The Thief ({thief}) took {card} from {victim}.").format(
                thief=name(lt.thief), card=card_name(lt.stolen), victim=name(lt.robbed)))
            back = next((c for s, c in lt.plays if s == lt.robbed), None)
            if back is not None:
                lines.append(_("{victim} took {card} back into their hand.").format(victim=name(lt.robbed),
                                                                                  card=card_name(back)))
        elif lt.stolen is not None:
            lines.append(_("The Thief took {card}.").format(card=card_name(lt.stolen)))
        if lt.executed is not None:
            lines.append(_("The Executioner removed {card}.").format(card=card_name(lt.executed)))
        return lines

    def draw_last_trick(self, surface: pygame.Surface) -> None:
        lt = self.table.match.last_trick
        if lt is None:
            return
        art = self.table.app.art
        ra = royals_art(self.table.app)
        dim(surface)
        images = [art.text(line, 24, CREAM, shadow=True, wrap=700) for line in self.last_trick_lines()]
        r = pygame.Rect(0, 0, 760, max(400, 262 + sum(i.get_height() + 6 for i in images) + 50))
        r.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        surface.blit(panel(r.size), r)
        surface.blit(art.text(_("The last trick"), 34, GOLD, shadow=True), (r.x + 30, r.y + 24))
        kept = {c for _, c in lt.kept}
        for i, (seat, card) in enumerate(lt.plays):
            x = r.x + 40 + i * 170
            img = ra.face(card) if card in kept else ra.dimmed(card)
            surface.blit(img, (x, r.y + 80))
            surface.blit(art.text(elide(art.font(20), self.table.match.name(seat), 160), 20, CREAM), (x, r.y + 224))
            if seat == lt.winner and card in kept:
                pygame.draw.rect(surface, HIGHLIGHT, (x - 4, r.y + 76, CARD_W + 8, CARD_H + 8), 4, border_radius=10)
        y = r.y + 262
        for img in images:
            surface.blit(img, (r.x + 30, y))
            y += img.get_height() + 6
        hint = art.text(_("Click or press a key to go on."), 20, (200, 190, 160))
        surface.blit(hint, hint.get_rect(midbottom=(r.centerx, r.bottom - 14)))

    def draw_pass(self, surface: pygame.Surface) -> None:
        art = self.table.app.art
        surface.blit(art.table, (0, 0))  # nothing of the table shows: every hand stays hidden
        dim(surface, 120)
        fan = self._fan
        if fan is None:
            back = royals_art(self.table.app).back
            fan = self._fan = [pygame.transform.rotozoom(back, (2 - k) * 9, 1.0) for k in range(5)]
        for k, img in enumerate(fan):
            surface.blit(img, img.get_rect(center=(CANVAS[0] // 2 + (k - 2) * 46, CANVAS[1] // 2 - 190 + abs(k - 2) * 8)))
        name = self.table.match.name(self.table.passing)
        t = art.text(_("Pass to {name}").format(name=name), 64, GOLD, shadow=True)
        surface.blit(t, t.get_rect(center=(CANVAS[0] // 2, CANVAS[1] // 2 - 40)))
        s = art.text(_("{name}: click or press Enter to see your cards.").format(name=name), 28, CREAM, shadow=True)
        surface.blit(s, s.get_rect(center=(CANVAS[0] // 2, CANVAS[1] // 2 + 30)))

    def draw_modal(self, surface: pygame.Surface) -> None:
        dim(surface)
        r = self.layout.scores_rect()  # the table's score panel stays readable beside the score table
        surface.blit(panel(r.size, 215), r)
        self.draw_scores(surface)
        r, items = self.layout.modal_layout()
        surface.blit(panel(r.size, 245), r)
        for _text, surf, rect in items:
            surface.blit(surf, rect)
        for b in self.table.modal_buttons:
            b.draw(surface, self.table.app.art)
