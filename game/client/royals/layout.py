"""Where everything lies on the Royals & Riots table (canvas px, 1280x800): the seats around the
table as seen from the seat at the bottom, the hands, the trick, the plates, piles and loots,
the score panel, the prompt, the toast, and the score table's panel with its buttons.

:class:`TableLayout` is held by :class:`~game.client.royals.scene.RoyalsTableScene` (its
``layout``): it reads the scene through :class:`LayoutScene` (the match, the view, the seat at
the bottom, the open modal) and draws nothing. The methods that place texts return
``(text, image, rect)`` triples (:data:`Placed`), which the drawing blits and
``tests/client/test_royals_layout.py`` checks for overlaps in every language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

import pygame

from game.i18n import _, ngettext
from game.royals.engine import Card, State, mask_of, points_of, team_of
from game.royals.settings import LEVEL_WORDS as SETTINGS_LEVEL_WORDS

from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, elide, fit_size
from .anims import Anim, View
from .art import CARD_H, CARD_W, card_name, royals_art
from game.royals.match import Beat, TableMatch

if TYPE_CHECKING:
    from ..scene import AppLike


HAND_Y = CANVAS[1] - CARD_H - 18
HAND_LEFT, HAND_ROOM = 232, 826
LIFT = 26
SMALL = 0.5  # other seats' cards
TRICK_SCALE = 0.9
TEAM_COLOURS = ((70, 110, 190), (190, 70, 60))
HIGHLIGHT = (255, 226, 120)
TEAL = (64, 200, 150)
TRICK_Y = 350
#: The highest a left or right seat's face-down cards reach (under the score panel).
SIDE_BACKS_TOP = 240
#: The prompt: at most this wide and high (px), its top under the top seat's plate (which ends at
#: y 148), its bottom above the top seat's card in the trick (y 194).
PROMPT_W, PROMPT_H, PROMPT_TOP = 740, 40, 152
#: The round's score table and the match's result: the panel's width, the room for the names,
#: and the row of buttons under the panel (its gap and height), canvas px.
MODAL_W, MODAL_NAMES_W = 760, 240
MODAL_GAP, MODAL_BUTTON_H = 18, 56
#: The score panel: its first row under the title and the column labels, the rows' step, and
#: the widths of the round's and the total's columns (px).
SCORES_TOP, SCORES_ROW, SCORES_ROUND_W, SCORES_TOTAL_W = 62, 25, 90, 60
#: The hand choice of more than :data:`KEEP_ROW` cards: two rows of full-size cards on the empty
#: table, the first row's top at :data:`KEEP_TOP`, as wide as the room between the side seats.
KEEP_ROW, KEEP_TOP, KEEP_GAP = 7, 262, 22
#: The last round's scoring cards under each seat's row of the score table: their scale.
LOOT_SCALE = 0.3
#: The revolution's announcement and the "since your last turn" panel: their widths (px).
ANNOUNCE_W, NEWS_W = 760, 700
#: How a seat's level is named on its plate: the settings' words for the computer levels
#: (:data:`game.royals.settings.LEVEL_WORDS`), a copy the network table adds its seat kinds to.
LEVEL_WORDS: dict[str, str] = dict(SETTINGS_LEVEL_WORDS)
#: A text as placed: (the text, its image, where on the canvas).
Placed = tuple[str, pygame.Surface, pygame.Rect]


class TableBasics(Protocol):
    """What every part of the table scene reads of it: the match, its state, the seat's view, and
    which modal panel is up ("" for none)."""

    @property
    def match(self) -> TableMatch: ...
    @property
    def state(self) -> State: ...
    @property
    def view(self) -> View: ...
    @property
    def modal(self) -> str: ...


class TableMotion(TableBasics, Protocol):
    """What the painter and the controls read besides: the running animation, the buttons, and
    whether a pass screen or a held beat stops the table."""

    @property
    def anim(self) -> Anim | None: ...
    @property
    def passing(self) -> int: ...
    @property
    def holding(self) -> bool: ...
    @property
    def buttons(self) -> list[Button]: ...
    @property
    def modal_buttons(self) -> list[Button]: ...


class LayoutScene(TableBasics, Protocol):
    """What :class:`TableLayout` reads of the table scene (nothing is changed through it)."""

    @property
    def app(self) -> "AppLike": ...
    @property
    def n(self) -> int: ...
    @property
    def selected(self) -> set[Card]: ...
    @property
    def round_loot(self) -> list[list[Card]]: ...
    @property
    def news(self) -> tuple[int, list[Beat]] | None: ...
    def viewer(self) -> int: ...
    def idle(self) -> bool: ...
    def news_text(self) -> list[str]: ...
    def modal_notes(self) -> list[tuple[str, int]]: ...


class TableLayout:
    """The table's geometry and text placement for ``table`` (see the module docstring)."""

    def __init__(self, table: LayoutScene) -> None:
        self.table = table

    @property
    def n(self) -> int:
        return self.table.n

    def rel(self, seat: int) -> str:
        """Where ``seat`` sits on screen: bottom, left, top or right."""
        r = (seat - self.table.viewer()) % self.n
        if self.n == 2:
            return ("bottom", "top")[r]
        if self.n == 3:
            return ("bottom", "left", "right")[r]
        return ("bottom", "left", "top", "right")[r]

    def hand_rects(self, count: int) -> list[pygame.Rect]:
        """The bottom hand's card rects, left to right."""
        if count == 0:
            return []
        left, room = HAND_LEFT, HAND_ROOM  # between the seat's plate and the buttons
        step = min(CARD_W + 10, (room - CARD_W) // max(1, count - 1)) if count > 1 else 0
        width = step * (count - 1) + CARD_W
        x0 = left + (room - width) // 2
        return [pygame.Rect(x0 + i * step, HAND_Y, CARD_W, CARD_H) for i in range(count)]

    def seat_anchor(self, seat: int) -> tuple[int, int]:
        """Centre of a seat's hand on screen."""
        pos = self.rel(seat)
        return {"bottom": (HAND_LEFT + HAND_ROOM // 2, HAND_Y + CARD_H // 2), "left": (270, 330),
                "top": (CANVAS[0] // 2, 70), "right": (CANVAS[0] - 270, 330)}[pos]

    def back_rects(self, seat: int, count: int) -> list[pygame.Rect]:
        """Another seat's face-down cards (small)."""
        w, h = int(CARD_W * SMALL), int(CARD_H * SMALL)
        cx, cy = self.seat_anchor(seat)
        pos = self.rel(seat)
        out = []
        if pos == "top":
            step = min(w + 6, 520 // max(1, count))
            x0 = cx - (step * (count - 1) + w) // 2
            out = [pygame.Rect(x0 + i * step, cy - h // 2, w, h) for i in range(count)]
        else:  # centred on the seat, but below the score panel (4 seats in teams reach y 228)
            step = min(h // 2 + 6, 300 // max(1, count))
            y0 = max(SIDE_BACKS_TOP, cy - (step * (count - 1) + h) // 2)
            out = [pygame.Rect(cx - w // 2, y0 + i * step, w, h) for i in range(count)]
        return out

    def trick_pos(self, seat: int) -> tuple[int, int]:
        """Centre of ``seat``'s card in the trick."""
        cx, cy = CANVAS[0] // 2 - 40, TRICK_Y
        d = {"bottom": (0, 95), "left": (-130, 0), "top": (0, -95), "right": (130, 0)}[self.rel(seat)]
        return (cx + d[0], cy + d[1])

    def plate_rect(self, seat: int) -> pygame.Rect:
        """A seat's name plate (name, cards, pile, loot)."""
        pos = self.rel(seat)
        if pos == "bottom":
            return pygame.Rect(16, CANVAS[1] - 150, 200, 132)
        if pos == "left":
            return pygame.Rect(16, 244, 200, 132)
        if pos == "right":
            return pygame.Rect(CANVAS[0] - 216, 244, 200, 132)
        return pygame.Rect(170, 16, 200, 132)

    def plate_texts(self, seat: int) -> list[Placed]:
        """The texts on ``seat``'s plate as (text, image, where), canvas px: the computer's level at
        the top right, the name left of it (made smaller down to 18 px, then cut with "…", so that
        it never runs into the level or off the plate), the pile's and the loot's counts."""
        art = self.table.app.art
        plate = self.plate_rect(seat)
        items: list[Placed] = []
        right = plate.right - 12
        level = self.table.match.config.seats[seat - 1].level
        if level is not None and LEVEL_WORDS.get(level, level):  # (a word of "": none, the name says it)
            word = elide(art.font(16), _(LEVEL_WORDS.get(level, level)), 80)
            lv = art.text(word, 16, (210, 200, 170))
            items.append((word, lv, lv.get_rect(topright=(right, plate.y + 14))))
            right = items[-1][2].left - 8
        room = right - (plate.x + 12) - 3  # the shadow is 3 px wider
        name = self.table.match.name(seat)
        size = fit_size(art, name, 22, room, 18)
        name = elide(art.font(size), name, room)
        img = art.text(name, size, CREAM, shadow=True)
        items.append((name, img, img.get_rect(topleft=(plate.x + 12, plate.y + 10 + (22 - size) // 2))))
        won = len(self.table.view.loot[seat - 1])
        for text, y in ((_("pile {n}").format(n=self.table.view.piles[seat - 1]), 40),
                        (ngettext("won {n} card", "won {n} cards", won).format(n=won), 104)):
            img = art.text(elide(art.font(18), text, plate.right - 12 - (plate.x + 70)), 18, CREAM)
            items.append((text, img, img.get_rect(topleft=(plate.x + 70, plate.y + y))))
        return items

    def pile_pos(self, seat: int) -> tuple[int, int]:
        r = self.plate_rect(seat)
        return (r.x + 44, r.y + 82)

    def loot_pos(self, seat: int) -> tuple[int, int]:
        r = self.plate_rect(seat)
        return (r.x + 150, r.y + 82)

    def hand_card_center(self, seat: int, index: int, count: int) -> tuple[int, int]:
        if self.rel(seat) == "bottom":
            rects = self.hand_rects(count)
        else:
            rects = self.back_rects(seat, count)
        if not rects:
            return self.seat_anchor(seat)
        return rects[min(index, len(rects) - 1)].center

    def modal_layout(self) -> tuple[pygame.Rect, list[Placed]]:
        """The open modal's panel (canvas px) and every text drawn on it as (text, image, where):
        the title, the score table (a row per seat, a column per round and the total; under each
        seat the last round's scoring cards, labelled with that round; the teams' totals), the
        :meth:`modal_notes`. The panel is as tall as its content, and it and the row of
        buttons under it (:meth:`modal_button_row`) are centred on the canvas together, so nothing
        overlaps in any language and with up to 4 seats."""
        art = self.table.app.art
        w = MODAL_W
        items: list[Placed] = []

        def put(text: str, size: int, colour: tuple[int, int, int], shadow: bool = False, wrap: int = 0,
                **at: tuple[int, int]) -> pygame.Rect:
            surf = art.text(text, size, colour, shadow=shadow, wrap=wrap)
            rect = surf.get_rect(**at)
            items.append((text, surf, rect))
            return rect

        title = self.modal_title()
        size = fit_size(art, title, 44, w - 60, 30)
        wrap = w - 60 if art.font(size).size(title)[0] > w - 60 else 0
        y = put(title, size, GOLD, True, wrap, midtop=(w // 2, 24)).bottom + 36
        rounds = self.table.state.round_scores
        cols = [40 + MODAL_NAMES_W + 70 + 110 * k for k in range(4)]  # the names, then 4 columns 110 px apart
        heads = [_("Round {r}").format(r=k + 1) for k in range(len(rounds))] + [_("Total")]
        for k, head in enumerate(heads):
            put(elide(art.font(22), head, 104), 22, GOLD, midtop=(cols[k], y))
        totals = [0] * self.n
        ra = royals_art(self.table.app)
        for seat in range(1, self.n + 1):
            y += 40
            put(elide(art.font(24), self.table.match.name(seat), MODAL_NAMES_W), 24, CREAM, topleft=(40, y))
            for k, rs in enumerate(rounds):
                v = rs[seat - 1]
                totals[seat - 1] += v
                put(str(v), 24, CREAM, midtop=(cols[k], y))  # the record's numbers from the first frame
            put(str(totals[seat - 1]), 26, GOLD, midtop=(cols[len(rounds)], y))
            loot = self.table.round_loot[seat - 1] if seat - 1 < len(self.table.round_loot) else []
            if rounds and loot:  # which cards scored: the ones not worth 1 as cards, then the 1s counted
                y += 32
                label = _("Round {r}").format(r=len(rounds))  # the last round's cards, not the match's
                x = put(label, 20, GOLD, midleft=(56, y + int(CARD_H * LOOT_SCALE) // 2)).right + 10
                for card in sorted((c for c in loot if c.points not in (0, 1)), key=lambda c: -c.points):
                    img = ra.face(card, LOOT_SCALE)
                    items.append((card_name(card), img, img.get_rect(topleft=(x, y))))
                    x += img.get_width() + 4
                ones = sum(1 for c in loot if c.points == 1)
                if ones:
                    put(ngettext("{n} card of 1 point", "{n} cards of 1 point", ones).format(n=ones), 20, CREAM,
                        midleft=(x + 8, y + int(CARD_H * LOOT_SCALE) // 2))
                y += int(CARD_H * LOOT_SCALE) - 32 + 6
        y += 30
        if self.table.state.teams:
            y += 18
            for team in (0, 1):
                colour = TEAM_COLOURS[team]
                put(elide(art.font(24), self.team_name(team), MODAL_NAMES_W), 24, colour, topleft=(40, y))
                for k, rs in enumerate(rounds):
                    put(str(rs[team] + rs[team + 2]), 24, colour, midtop=(cols[k], y))
                put(str(totals[team] + totals[team + 2]), 26, colour, midtop=(cols[len(rounds)], y))
                y += 36
        for text, px in self.table.modal_notes():
            y += 14
            y += put(text, px, CREAM, True, w - 60, midtop=(w // 2, y)).h if text else art.font(px).get_linesize()
        h = y + 28
        top = max(12, (CANVAS[1] - (h + MODAL_GAP + MODAL_BUTTON_H + 4)) // 2)
        r = pygame.Rect(self.modal_left(), top, w, h)
        return r, [(text, surf, rect.move(r.topleft)) for text, surf, rect in items]

    def announcement_layout(self, beat: Beat) -> tuple[pygame.Rect, list[Placed]]:
        """A revolution's start or end as announced over the table: its panel (canvas px; the rank
        card turns at its left) and texts (the headline, what it means), as (text, image, where)."""
        art = self.table.app.art
        box = pygame.Rect(0, 0, ANNOUNCE_W, 200)
        box.center = (CANVAS[0] // 2 - 40, TRICK_Y)
        who = self.table.match.name(beat.seat) if beat.seat else ""
        if beat.kind == "revolution":
            title = _("Revolution!")
            text = _("The Rebels played by {name} reverse the order: Peasant 10 is now the highest card, "
                     "the King the lowest.").format(name=who) if who else \
                _("The order is reversed: Peasant 10 is now the highest card, the King the lowest.")
        else:
            title = _("The revolution is over")
            text = _("{card} played by {name} restores the normal order.").format(
                card=card_name(beat.card), name=who) if who and beat.card is not None else \
                _("The normal order is back.")
        left, room = box.x + 180, box.w - 180 - 24
        size = fit_size(art, title, 40, room, 28)
        t = art.text(elide(art.font(size), title, room), size, GOLD, shadow=True)
        tr = t.get_rect(topleft=(left, box.y + 24))
        m = art.text(text, 22, CREAM, shadow=True, wrap=room)
        mr = m.get_rect(topleft=(left, tr.bottom + 12))
        box.h = max(box.h, mr.bottom - box.y + 20)
        return box, [(title, t, tr), (text, m, mr)]

    def news_layout(self) -> tuple[pygame.Rect, list[Placed]]:
        """The "since your last turn" panel (canvas px) and its texts as (text, image, where): the
        headline, one line per event (:meth:`news_text`), how to go on; centred over the table."""
        art = self.table.app.art
        seat = self.table.news[0] if self.table.news is not None else 0
        w = NEWS_W
        items: list[Placed] = []
        title = _("{name}, since your last turn:").format(name=self.table.match.name(seat)) if seat else ""
        size = fit_size(art, title, 30, w - 48, 22)
        img = art.text(elide(art.font(size), title, w - 48), size, GOLD, shadow=True)
        items.append((title, img, img.get_rect(topleft=(24, 20))))
        y = items[-1][2].bottom + 12
        for line in self.table.news_text():
            img = art.text(line, 21, CREAM, shadow=True, wrap=w - 56)
            items.append((line, img, img.get_rect(topleft=(32, y))))
            y = items[-1][2].bottom + 6
        go = _("Click or press a key to go on.")
        img = art.text(go, 18, (200, 190, 160))
        items.append((go, img, img.get_rect(midtop=(w // 2, y + 10))))
        box = pygame.Rect(0, 0, w, items[-1][2].bottom + 16)
        box.center = (CANVAS[0] // 2 - 40, min(TRICK_Y, CANVAS[1] - 180 - box.h // 2))
        box.top = max(12, box.top)
        return box, [(t, i, r.move(box.topleft)) for t, i, r in items]

    def modal_left(self) -> int:
        """The score table's left edge: left of the table's score panel (which stays readable
        beside it), or centred when the canvas has no room for both."""
        room = self.scores_rect().left - 12 - MODAL_W
        return max(12, min((CANVAS[0] - MODAL_W) // 2, room))

    def modal_button_row(self, specs: list[tuple[str, Callable[[], None], int | None]]) -> list[Button]:
        """Buttons (label, action, key) side by side, centred under the open modal's panel
        (:meth:`modal_layout`), :data:`MODAL_GAP` px below it; each as wide as the longest label
        needs in the current language (at least 260 px)."""
        panel_rect, _items = self.modal_layout()
        art = self.table.app.art
        w = max([260] + [min(360, art.font(28).size(_(label))[0] + 40) for label, _a, _k in specs])
        gap = 20
        x = panel_rect.centerx - (len(specs) * w + (len(specs) - 1) * gap) // 2
        y = panel_rect.bottom + MODAL_GAP
        return [Button((x + k * (w + gap), y, w, MODAL_BUTTON_H), label, action, key=key, size=28)
                for k, (label, action, key) in enumerate(specs)]

    def keep_slots(self, count: int) -> list[pygame.Rect]:
        """Where the hand choice lays ``count`` dealt cards (unlifted): in the hand's row for up to
        :data:`KEEP_ROW`, else in two rows of full-size cards on the empty table (every card's
        points coin shows), between the side seats (3-4 players) or across the table (2)."""
        if count <= KEEP_ROW:
            return self.hand_rects(count)
        per_row = (count + 1) // 2
        room = HAND_ROOM if self.n == 2 else 680
        step = min(CARD_W + 10, (room - CARD_W) // (per_row - 1))
        cx = HAND_LEFT + HAND_ROOM // 2
        out = []
        for row, n in enumerate((per_row, count - per_row)):
            x0 = cx - (step * (n - 1) + CARD_W) // 2
            y = KEEP_TOP + row * (CARD_H + KEEP_GAP)
            out += [pygame.Rect(x0 + i * step, y, CARD_W, CARD_H) for i in range(n)]
        return out

    def keep_rects(self, dealt: list[Card]) -> list[pygame.Rect]:
        rects = self.keep_slots(len(dealt))
        return [r.move(0, -LIFT) if c in self.table.selected else r for c, r in zip(dealt, rects)]

    def keep_count_layout(self, dealt: list[Card]) -> tuple[pygame.Surface, pygame.Rect]:
        """The hand choice's count ("Keep 6 of 12 · 2 chosen") and where: above the dealt cards."""
        img = self.table.app.art.text(_("Keep {k} of {n} · {s} chosen").format(
            k=self.table.state.hand_size(), n=len(dealt), s=len(self.table.selected)), 24, GOLD, shadow=True)
        top = min(r.y for r in self.keep_slots(len(dealt))) - LIFT - 6 if dealt else HAND_Y - 34
        return img, img.get_rect(midbottom=(HAND_LEFT + HAND_ROOM // 2, top if len(dealt) > KEEP_ROW else HAND_Y - 34))

    def toast_layout(self, text: str) -> tuple[pygame.Surface, pygame.Rect]:
        """A short message (why a click did nothing) as drawn and where, canvas px: over the hand,
        between the seat's plate and the buttons; 26 px, smaller down to 18 px for a long one, then
        wrapped. Its panel is the rect grown by 40 x 20."""
        art = self.table.app.art
        room = HAND_ROOM - 40
        size = fit_size(art, text, 26, room, 18)
        wrap = room if art.font(size).size(text)[0] > room else 0
        msg = art.text(text, size, CREAM, shadow=True, wrap=wrap, center=True)
        return msg, msg.get_rect(center=(HAND_LEFT + HAND_ROOM // 2, HAND_Y - 44))

    def scores_rect(self) -> pygame.Rect:
        rows = self.n + (2 if self.table.state.teams else 0)
        return pygame.Rect(CANVAS[0] - 300, 16, 284, SCORES_TOP + SCORES_ROW * rows + 8)

    def team_name(self, team: int) -> str:
        """A team by its players: "Ann + Cato" (team 0: seats 1 and 3; ruling 10)."""
        return " + ".join(self.table.match.name(s) for s in (team + 1, team + 3))

    def modal_title(self) -> str:
        """The open modal's headline: who won the match (the result), or the round that ended."""
        state = self.table.state
        if self.table.modal != "over":
            return _("Round {r} is over").format(r=len(state.round_scores))
        out = state.outcome()
        winners = out.winners if out else ()
        if state.teams and out is not None and out.team_scores is not None:
            a, b = out.team_scores
            return _("The teams share the win") if a == b else \
                _("{names} win").format(names=self.team_name(team_of(winners[0])))
        if len(winners) == 1:
            return _("Winner: {name}").format(name=self.table.match.name(winners[0]))
        return _("Shared win: {names}").format(names=", ".join(self.table.match.name(w) for w in winners))

    def header_title(self) -> str:
        """The score panel's headline: the round and trick the table shows (following the beats,
        so a round's last trick is still that round's), the round that just ended behind its
        score table, or the end of the match."""
        if self.table.state.is_over() and (self.table.modal == "over" or self.table.idle()):
            return _("The match is over.")
        if self.table.modal == "round":
            return _("Round {r} is over").format(r=len(self.table.state.round_scores))
        return _("Round {r} of 3 · trick {t}").format(r=min(3, self.table.view.round), t=self.table.view.trick_no)

    def score_texts(self) -> list[Placed]:
        """The score panel's texts as (text, image, where), canvas px: the round and trick, then per
        seat its name (made smaller down to 17 px, then cut with "…", 12 px before its round points) and round / match points, and the
        teams' totals."""
        art = self.table.app.art
        r = self.scores_rect()
        items: list[Placed] = []

        def put(text: str, size: int, colour: tuple[int, int, int], shadow: bool = False,
                **at: tuple[int, int]) -> int:
            img = art.text(text, size, colour, shadow=shadow)
            items.append((text, img, img.get_rect(**at)))
            return img.get_width()

        title = self.header_title()
        put(elide(art.font(22), title, r.w - 28 - 3), 22, GOLD, True, topleft=(r.x + 14, r.y + 12))
        # the two columns, labelled: this round's points and the match's total
        round_x, total_x = r.right - SCORES_TOTAL_W - 14, r.right - 14
        heads = (elide(art.font(16), _("This round"), SCORES_ROUND_W - 8), elide(art.font(16), _("Total"),
                                                                               SCORES_TOTAL_W - 8))
        put(heads[0], 16, (210, 200, 170), topright=(round_x, r.y + 40))
        put(heads[1], 16, (210, 200, 170), topright=(total_x, r.y + 40))
        rp, totals = self.shown_scores()
        rows = [(self.table.match.name(s), rp[s - 1], totals[s - 1],
                 TEAL if self.table.idle() and s == self.table.match.decider() else CREAM) for s in range(1, self.n + 1)]
        if self.table.state.teams:
            rows += [(self.team_name(t), rp[t] + rp[t + 2], totals[t] + totals[t + 2], TEAM_COLOURS[t]) for t in (0, 1)]
        y = r.y + SCORES_TOP
        for name, now, total, col in rows:
            put(str(total), 21, col, topright=(total_x, y))
            room = round_x - put(str(now), 21, col, topright=(round_x, y)) - 12 - (r.x + 14)
            size = fit_size(art, name, 21, room, 17)  # ("Computer (medium)" whole, smaller)
            put(elide(art.font(size), name, room), size, col, topleft=(r.x + 14, y + (21 - size) // 2))
            y += SCORES_ROW
        return items

    def shown_scores(self) -> tuple[list[int], list[int]]:
        """(round points, match totals) per seat as the table shows them (following the beats);
        behind a round's score table ("Round 1 is over"), that round's points and the totals with it."""
        if self.table.modal == "round" and self.table.state.round_scores:
            rp = list(self.table.state.round_scores[-1])
            totals = [sum(rs[i] for rs in self.table.state.round_scores) for i in range(self.n)]
            return rp, totals
        rp = [points_of(mask_of(loot)) for loot in self.table.view.loot]
        totals = list(rp)
        for rs in self.table.state.round_scores[:self.table.view.round - 1]:
            for i, v in enumerate(rs):
                totals[i] += v
        return rp, totals

    def trick_rect(self, seat: int) -> pygame.Rect:
        w, h = int(CARD_W * TRICK_SCALE), int(CARD_H * TRICK_SCALE)
        return pygame.Rect(0, 0, w, h).move(self.trick_pos(seat)[0] - w // 2, self.trick_pos(seat)[1] - h // 2)

    def prompt_layout(self, text: str) -> tuple[pygame.Surface, pygame.Rect]:
        """``text`` as the prompt shows it and where (canvas px): wrapped to :data:`PROMPT_W`, at 24 px
        or as large as keeps it within :data:`PROMPT_H` (long names and a hint), in the band between
        the top seat's plate and the trick, or at the top when nobody sits there."""
        for size in range(24, 15, -1):
            t = self.table.app.art.text(text, size, CREAM, shadow=True, wrap=PROMPT_W)
            if t.get_height() <= PROMPT_H:
                break
        if self.rel_has_top():
            return t, t.get_rect(midtop=(CANVAS[0] // 2 - 40, PROMPT_TOP))
        return t, t.get_rect(midtop=(CANVAS[0] // 2 - 40, 24))

    def rel_has_top(self) -> bool:
        return self.n in (2, 4)
