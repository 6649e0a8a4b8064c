"""The Royals & Riots table: the hands, the trick, piles and loots, the rank card, the scores,
mouse and keyboard play, the "pass to NAME" screen, the last trick, the round's score table
and the match's result.

The scene draws a display model (:class:`~game.client.royals.anims.View`) that follows the
match one :class:`~game.client.royals.table.Beat` at a time; decisions (people's clicks,
computers' answers) wait until every beat has played. Privacy: with two or more people at
the screen, a hand is face up only for the person whose decision it is, after that person
has clicked through the "pass to NAME" screen; with one person, only that person's hand is
ever face up; with none, no hand is.
"""

from __future__ import annotations

import math
from collections import deque
from functools import partial
from typing import TYPE_CHECKING, Callable

import pygame

from game.fsutil import os_error_text
from game.i18n import N_, Text, Worded, _
from game.royals.engine import Action, Card, IllegalMoveError, Phase, team_of
from game.royals.phrases import illegal_text

from ..dialogs import PauseMenu, dim
from ..scene import Scene
from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, elide, fit_size, handle_buttons, panel
from .anims import DURATIONS, TRICK_HOLD, Anim, View, begin, end
from .art import CARD_H, CARD_W, card_name, rank_name, royals_art
from .table import Beat, TableMatch
from .analysis_view import analysis_button  # H35c: post-match analysis (issue 35)
from .thinking import RoyalsThinker

if TYPE_CHECKING:
    from ..app import App

HAND_Y = CANVAS[1] - CARD_H - 18
HAND_LEFT, HAND_ROOM = 232, 826
LIFT = 26
SMALL = 0.5  # other seats' cards
TRICK_SCALE = 0.9
TEAM_COLOURS = ((70, 110, 190), (190, 70, 60))
HIGHLIGHT = (255, 226, 120)
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
#: How a computer level is named (the same words as Rose King's levels).
LEVEL_WORDS = {"random": N_("Beginner"), "greedy": N_("Casual"), "easy": N_("Easy"), "medium": N_("Medium"),
               "hard": N_("Hard")}
REASONS = {"highest": N_("highest card"), "guildmaster": N_("the Guildmaster: highest of the led rank"),
           "revolution": N_("highest card in the revolution's order")}


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    t = t * t * (3 - 2 * t)
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


class RoyalsTableScene(Scene):
    """A match of :class:`TableMatch` at this screen. ``on_new_game`` starts a rematch with the
    same seats; ``on_main_menu`` leaves; ``saver`` (optional) is called with the match after
    every action (autosave)."""

    def __init__(self, app: "App", match: TableMatch, on_new_game: Callable[[], None],
                 on_main_menu: Callable[[], None], thinker: RoyalsThinker | None = None,
                 min_delay: float = 0.45, saver: Callable[[TableMatch], None] | None = None,
                 advance: bool = True) -> None:
        super().__init__(app)
        self.match = match
        self.on_new_game = on_new_game
        self.on_main_menu = on_main_menu
        self.thinker = thinker or RoyalsThinker(match.config.seconds, match.config.seed)
        self.min_delay = min_delay
        self.saver = saver
        self.humans = match.config.humans()
        self.view = View.of(match.state)
        self.queue: deque[Beat] = deque()
        self.anim: Anim | None = None
        self.revealed = self.humans[0] if len(self.humans) == 1 else 0
        self.passing = 0          # the person the screen waits for ("pass to NAME"), 0: none
        self.thinking = 0         # the computer seat being asked, 0: none
        self.think_time = 0.0
        self.clock = 0.0
        self.selected: set[Card] = set()   # KEEP: the cards chosen for the hand
        self.focus = 0                     # keyboard focus (index into the current choices)
        self.mouse = (0, 0)
        self.steal_target = 0              # STEAL: the robbed seat picked, before its card is clicked
        self.steal_from: tuple[int, int] | None = None  # where the clicked face-down card lies
        self.toast = ""
        self.toast_time = 0.0
        self.show_last = False
        self.modal = ""                    # "round" (score table) or "over" (result)
        self.modal_time = 0.0
        self.round_shown = 0
        self.drawn_face_up: set[int] = set()  # seats whose hand was drawn face up in the last frame
        self.hint_text = ""
        self._held: Action | None = None
        self._shown_look: tuple | None = None  # what the last drawn frame showed (see at_rest)
        x = CANVAS[0] - 210
        self.buttons = [
            Button((x, 0, 190, 44), N_("Hint"), self.hint, key=pygame.K_h, size=24,
                   enabled=lambda: bool(self.my_turn()) and self.state.phase is not Phase.KEEP),
            Button((x, 0, 190, 44), N_("Undo"), self.undo, key=pygame.K_u, size=24,
                   enabled=lambda: self.match.can_undo() and self.idle() and not self.modal),
            Button((x, 0, 190, 44), N_("Last trick"), self.toggle_last, key=pygame.K_l, size=24,
                   enabled=lambda: self.match.last_trick is not None),
            Button((x, 0, 190, 44), N_("Menu"), self.pause, size=24),
        ]
        if not self.match.undo_seat():
            self.buttons.pop(1)
        for k, b in enumerate(self.buttons):  # one a row: "Rückgängig" fits no half row
            b.rect.y = 500 + 52 * k
        self.reveal_all = False  # the replay viewer shows every hand
        self.hinter: RoyalsThinker | None = None
        self.hint_for = -1
        self.action_buttons: list[Button] = []
        self.modal_buttons: list[Button] = []
        if advance:  # play the chance events due (a replay pushes the record's own instead)
            self._queue_beats(self.match.advance())

    # ------------------------------------------------------------------ helpers
    @property
    def state(self):
        return self.match.state

    @property
    def n(self) -> int:
        return self.match.players

    def speed(self) -> float:
        return self.app.options.anim_speed

    def viewer(self) -> int:
        """The seat drawn at the bottom."""
        if len(self.humans) == 1:
            return self.humans[0]
        if len(self.humans) >= 2:
            return self.passing or self.revealed or self.match.human_to_act() or self.humans[0]
        return 1

    def face_up_seat(self) -> int:
        """The one seat whose hand may be drawn face up now (0: none)."""
        if self.passing:
            return 0
        if len(self.humans) == 1:
            return self.humans[0]
        if len(self.humans) >= 2:
            h = self.match.human_to_act()
            return self.revealed if self.revealed and h == self.revealed and self.idle() and not self.modal else 0
        return 0

    def idle(self) -> bool:
        return self.anim is None and not self.queue

    def my_turn(self) -> int:
        """The person who may act now (idle, no screen in the way), else 0."""
        if not self.idle() or self.passing or self.modal:
            return 0
        h = self.match.human_to_act()
        if h and (len(self.humans) == 1 or h == self.revealed):
            return h
        return 0

    def rel(self, seat: int) -> str:
        """Where ``seat`` sits on screen: bottom, left, top or right."""
        r = (seat - self.viewer()) % self.n
        if self.n == 2:
            return ("bottom", "top")[r]
        if self.n == 3:
            return ("bottom", "left", "right")[r]
        return ("bottom", "left", "top", "right")[r]

    def say(self, text: Text) -> None:
        """Show ``text`` for 2.6 s over the hand: a function that words it (worded at every draw, so
        a language change shows at once) or a fixed string."""
        self.toast, self.toast_time = text, 2.6

    toast = Worded(
        'The toast\'s words in the current language ("" for none; see :attr:`toast_time`).')

    hint_text = Worded(
        'The hint after the prompt ("Hint: play the Thief."), in the current language; "" for none.')

    def unsaved_game(self) -> bool:
        return bool(self.state.history) and not self.state.is_over() and self.saver is None

    # ------------------------------------------------------------------ a quiet window
    def look(self) -> tuple:
        """Everything the picture depends on besides the beats and the mouse (which are events):
        when this changes between two frames, the window draws again."""
        return (self.state.ply, self.passing, self.revealed, self.modal, self.thinking, self.hint_text,
                self.show_last, self.steal_target, len(self.selected), self.focus, getattr(self, "_buttons_for", None),
                self.toast if self.toast_time > 0 else "", self.view.trick_no, len(self.view.trick),
                getattr(self, "pos", 0))

    def at_rest(self) -> bool:
        """Still when no beat plays, no toast shows, the score table has counted up and nothing
        in :meth:`look` changed since the last check (a computer's answer, a network event)."""
        look = self.look()
        if look != self._shown_look:
            self._shown_look = look
            return False  # draw this change (the next check finds it still)
        counting = self.modal and self.speed() > 0 and self.modal_time < 1.2
        return self.idle() and self.toast_time <= 0 and not counting

    def quit_question(self) -> str | None:
        if self.saver is None:
            return super().quit_question()
        return None  # saved after every action: Continue brings it back

    # ------------------------------------------------------------------ undo and hint
    def hint(self) -> None:
        """Ask the hard computer player what it would do here (for the person to act only)."""
        seat = self.my_turn()
        if not seat or self.state.phase is Phase.KEEP:
            return
        if self.hinter is None:
            self.hinter = RoyalsThinker(self.match.config.seconds, None, use_process=self.thinker.use_process)
        self.hint_for = self.state.ply
        self.hint_text = lambda: _("Thinking about a hint…")
        self.hinter.start(self.state, seat, "hard")

    def _poll_hint(self) -> None:
        if self.hinter is None or self.hint_for < 0:
            return
        if self.hint_for != self.state.ply:
            self.hinter.cancel()
            self.hint_for = -1
            self.hint_text = ""
            return
        try:
            a = self.hinter.poll()
        except RuntimeError:
            self.hint_for = -1
            self.hint_text = ""
            return
        if a is None:
            return
        self.hint_for = -1
        card, name = a.card, self.match.name
        if a.kind.value == "play" and card is not None:
            self.hint_text = lambda: _("Hint: play {card}.").format(card=card_name(card))
        elif a.kind.value == "steal":
            target = a.target
            self.hint_text = (lambda: _("Hint: don't steal.")) if target is None else \
                lambda: _("Hint: rob {name}.").format(name=name(target))
        elif a.kind.value == "execute" and card is not None:
            self.hint_text = lambda: _("Hint: execute {card}.").format(card=card_name(card))
        elif a.kind.value == "start":
            seat = a.seat
            self.hint_text = lambda: _("Hint: {name} leads.").format(name=name(seat))

    def undo(self) -> None:
        """Take back the person's last decision (against computers), with everything after it."""
        if not self.match.can_undo() or self.modal or self.passing:
            self.say(lambda: _("Nothing to undo."))
            return
        self.thinker.cancel()
        self.thinking = 0
        self._held = None
        self.queue.clear()
        self.anim = None
        self.match.undo()
        self.view = View.of(self.state, self.view)
        self.selected.clear()
        self.steal_target = 0
        self.hint_text = ""
        self._buttons_for = None
        self._after_action()

    # ------------------------------------------------------------------ geometry
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

    def plate_texts(self, seat: int) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """The texts on ``seat``'s plate as (text, image, where), canvas px: the computer's level at
        the top right, the name left of it (made smaller down to 18 px, then cut with "…", so that
        it never runs into the level or off the plate), the pile's and the loot's counts."""
        art = self.app.art
        plate = self.plate_rect(seat)
        items: list[tuple[str, pygame.Surface, pygame.Rect]] = []
        right = plate.right - 12
        level = self.match.config.seats[seat - 1].level
        if level is not None:
            word = elide(art.font(16), _(LEVEL_WORDS.get(level, level)), 80)
            lv = art.text(word, 16, (210, 200, 170))
            items.append((word, lv, lv.get_rect(topright=(right, plate.y + 14))))
            right = items[-1][2].left - 8
        room = right - (plate.x + 12) - 3  # the shadow is 3 px wider
        name = self.match.name(seat)
        size = fit_size(art, name, 22, room, 18)
        name = elide(art.font(size), name, room)
        img = art.text(name, size, CREAM, shadow=True)
        items.append((name, img, img.get_rect(topleft=(plate.x + 12, plate.y + 10 + (22 - size) // 2))))
        for text, y in ((_("pile {n}").format(n=self.view.piles[seat - 1]), 40),
                        (_("loot {n}").format(n=len(self.view.loot[seat - 1])), 104)):
            img = art.text(elide(art.font(18), text, plate.right - 12 - (plate.x + 70)), 18, CREAM)
            items.append((text, img, img.get_rect(topleft=(plate.x + 70, plate.y + y))))
        return items

    def pile_pos(self, seat: int) -> tuple[int, int]:
        r = self.plate_rect(seat)
        return (r.x + 44, r.y + 82)

    def loot_pos(self, seat: int) -> tuple[int, int]:
        r = self.plate_rect(seat)
        return (r.x + 150, r.y + 82)

    # ------------------------------------------------------------------ flow
    def _queue_beats(self, beats: list[Beat]) -> None:
        self.queue.extend(beats)

    def act(self, action: Action) -> bool:
        """Push a decision from this screen; False (with the reason shown) if it is not allowed."""
        try:
            beats = self.match.apply(action)
        except IllegalMoveError as e:
            self.say(partial(self.explain, str(e)))
            return False
        self.selected.clear()
        self.steal_target = 0
        self.focus = 0
        self.hint_text = ""
        self._queue_beats(beats)
        self._after_action()
        return True

    def _after_action(self) -> None:
        if self.saver is not None:
            self.saver(self.match)

    def explain(self, reason: str) -> str:
        """The engine's (English) reason for a refused decision as a sentence in the player's
        language, the seats by their names (:func:`game.royals.phrases.illegal_text`)."""
        return illegal_text(reason, self.match.name)

    def save_error(self) -> OSError | None:
        """The last autosave's failure (None after a good write, or without autosave): the
        :class:`game.saves.BackgroundAutosaver` behind :func:`.saving.autosaver`'s hook."""
        return getattr(getattr(self.saver, "saver", None), "error", None)

    def update(self, dt: float) -> None:
        self.clock += dt
        self._poll_hint()
        error = self.save_error()
        if error is not None and error is not getattr(self, "_save_error_shown", None):
            self._save_error_shown = error  # said once per failure, in the player's language
            self.say(lambda: _("The match could not be saved: {reason}").format(reason=os_error_text(error)))
        if self.toast_time > 0:
            self.toast_time -= dt
        if self.modal:
            self.modal_time += dt
            if not self.humans and self.modal == "round" and self.modal_time > 2.5 / max(0.5, self.speed() or 4):
                self.close_modal()
            return
        if not self._play_beats(dt):
            return
        self.view = View.of(self.state, self.view) if self.view.trick_no != self.state.trick_no or \
            len(self.view.trick) != len(self.state.trick) else self.view
        # whose decision?
        h = self.match.human_to_act()
        if h and len(self.humans) >= 2 and h != self.revealed and not self.passing:
            self.passing = h
            self.revealed = 0
        c = self.match.computer_to_act()
        if c:
            self._computer(c, dt)
        self._layout_action_buttons()

    def _play_beats(self, dt: float) -> bool:
        """Advance the running beat animations by ``dt``; True when none is left (and no modal opened)."""
        for _i in range(64):  # instant speed plays many beats in one update
            if self.anim is None:
                if not self.queue:
                    break
                beat = self.queue.popleft()
                if beat.kind == "round":
                    self.view = View.of(self.state, self.view) if not self.queue else self.view
                    self.open_modal("over" if self.queue and self.queue[0].kind == "over" else "round", beat)
                    if self.queue and self.queue[0].kind == "over":
                        self.queue.popleft()
                    return False
                if beat.kind == "over":
                    self.open_modal("over", beat)
                    return False
                speed = self.speed()
                dur = 0.0 if speed <= 0 else DURATIONS.get(beat.kind, 0.3) / speed
                self.anim = Anim(beat, dur)
                self._start_anim(self.anim)
            a = self.anim
            a.t += dt if a.duration > 0 else 0
            if a.done:
                end(self.view, a.beat)
                self.anim = None
                if not self.queue:
                    self.view = View.of(self.state, self.view)
                continue
            break
        return self.idle()

    def _start_anim(self, a: Anim) -> None:
        b = a.beat
        if b.kind == "play":
            hand = self.view.hands[b.seat - 1]
            src = self._hand_card_center(b.seat, hand.index(b.card) if b.card in hand else 0, len(hand))
            a.data["src"] = src
        elif b.kind == "steal":
            hand = self.view.hands[b.target - 1]
            a.data["src"] = self.steal_from or self._hand_card_center(
                b.target, hand.index(b.card) if b.card in hand else 0, len(hand))
            self.steal_from = None
            back = next((c for s, c in self.view.trick if s == b.target), None)
            a.data["back"] = back
        begin(self.view, b)

    def _hand_card_center(self, seat: int, index: int, count: int) -> tuple[int, int]:
        if self.rel(seat) == "bottom":
            rects = self.hand_rects(count)
        else:
            rects = self.back_rects(seat, count)
        if not rects:
            return self.seat_anchor(seat)
        return rects[min(index, len(rects) - 1)].center

    def _computer(self, seat: int, dt: float) -> None:
        if self.thinking != seat:
            self.thinking = seat
            self.think_time = 0.0
            self._held: Action | None = None
            level = self.match.config.seats[seat - 1].level or "random"
            self.thinker.start(self.state, seat, level)
        self.think_time += dt
        action = self._held
        if action is None:
            try:
                action = self.thinker.poll()
            except RuntimeError as e:
                self.say(str(e))
                self.thinking = 0
                return
        if action is None:
            return
        speed = self.speed()
        if speed > 0 and self.think_time < self.min_delay / speed:
            self._held = action  # a moment to see whose turn it is
            return
        self.thinking = 0
        self._held = None
        try:
            beats = self.match.apply(action)
        except IllegalMoveError as e:  # a computer must never break a rule; show it, ask again
            self.say(partial(self.explain, str(e)))
            return
        self._queue_beats(beats)
        self._after_action()

    # ------------------------------------------------------------------ modals
    def open_modal(self, kind: str, beat: Beat) -> None:
        self.modal = kind
        self.modal_time = 0.0
        self.round_shown = len(self.state.round_scores)
        self.view = View.of(self.state, self.view)
        if kind == "round":
            self.modal_buttons = self.modal_button_row([(N_("Next round"), self.close_modal, pygame.K_RETURN)])
        else:
            self.modal_buttons = self.modal_button_row([(N_("Rematch"), self.on_new_game, pygame.K_r),
                                                        analysis_button(self),  # H35c: post-match analysis (issue 35)
                                                        (N_("Main menu"), self.on_main_menu, pygame.K_m)])

    def modal_notes(self) -> list[tuple[str, int]]:
        """Lines (text, px size) under the open modal's score table, inside its panel: who starts
        the next round. Subclasses add theirs; an empty text keeps its line's room (so the panel and
        its buttons do not move when the line fills in later)."""
        if self.modal == "round" and not self.state.is_over():
            nxt = self.state.next_starter()
            if nxt:
                return [(_("Round {r} starts with {name}.").format(name=self.match.name(nxt), r=self.state.round), 24)]
        return []

    def modal_layout(self) -> tuple[pygame.Rect, list[tuple[str, pygame.Surface, pygame.Rect]]]:
        """The open modal's panel (canvas px) and every text drawn on it as (text, image, where):
        the title, the score table (a row per seat, a column per round and the total; the teams'
        totals), the :meth:`modal_notes`. The panel is as tall as its content, and it and the row of
        buttons under it (:meth:`modal_button_row`) are centred on the canvas together, so nothing
        overlaps in any language and with up to 4 seats."""
        art = self.app.art
        w = MODAL_W
        items: list[tuple[str, pygame.Surface, pygame.Rect]] = []

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
        rounds = self.state.round_scores
        cols = [40 + MODAL_NAMES_W + 70 + 110 * k for k in range(4)]  # the names, then 4 columns 110 px apart
        heads = [_("Round {r}").format(r=k + 1) for k in range(len(rounds))] + [_("Total")]
        for k, h in enumerate(heads):
            put(elide(art.font(22), h, 104), 22, GOLD, midtop=(cols[k], y))
        count = min(1.0, self.modal_time / 1.2) if self.speed() > 0 else 1.0
        totals = [0] * self.n
        for seat in range(1, self.n + 1):
            y += 40
            put(elide(art.font(24), self.match.name(seat), MODAL_NAMES_W), 24, CREAM, topleft=(40, y))
            for k, rs in enumerate(rounds):
                v = rs[seat - 1]
                totals[seat - 1] += v
                put(str(round(v * count) if k == len(rounds) - 1 else v), 24, CREAM, midtop=(cols[k], y))
            put(str(totals[seat - 1]), 26, GOLD, midtop=(cols[len(rounds)], y))
        y += 30
        if self.state.teams:
            y += 18
            for team, label in enumerate((_("Team 1 + 3"), _("Team 2 + 4"))):
                put(elide(art.font(24), label, MODAL_NAMES_W), 24, TEAM_COLOURS[team], topleft=(40, y))
                put(str(totals[team] + totals[team + 2]), 26, TEAM_COLOURS[team], midtop=(cols[len(rounds)], y))
                y += 36
        for text, px in self.modal_notes():
            y += 14
            y += put(text, px, CREAM, True, w - 60, midtop=(w // 2, y)).h if text else art.font(px).get_linesize()
        h = y + 28
        top = max(12, (CANVAS[1] - (h + MODAL_GAP + MODAL_BUTTON_H + 4)) // 2)
        r = pygame.Rect((CANVAS[0] - w) // 2, top, w, h)
        return r, [(text, surf, rect.move(r.topleft)) for text, surf, rect in items]

    def modal_title(self) -> str:
        """The open modal's headline: who won the match (the result), or the round that ended."""
        if self.modal != "over":
            return _("Round {r} is over").format(r=len(self.state.round_scores))
        out = self.state.outcome()
        winners = out.winners if out else ()
        if self.state.teams and out is not None and out.team_scores is not None:
            a, b = out.team_scores
            return _("The teams share the win") if a == b else _("Team {team} wins").format(
                team=" + ".join(str(s) for s in winners))
        if len(winners) == 1:
            return _("Winner: {name}").format(name=self.match.name(winners[0]))
        return _("Shared win: {names}").format(names=", ".join(self.match.name(w) for w in winners))

    def modal_button_row(self, specs: list[tuple[str, Callable[[], None], int | None]]) -> list[Button]:
        """Buttons (label, action, key) side by side, centred under the open modal's panel
        (:meth:`modal_layout`), :data:`MODAL_GAP` px below it; each as wide as the longest label
        needs in the current language (at least 260 px)."""
        panel_rect, _items = self.modal_layout()
        art = self.app.art
        w = max([260] + [min(360, art.font(28).size(_(label))[0] + 40) for label, _a, _k in specs])
        gap = 20
        x = CANVAS[0] // 2 - (len(specs) * w + (len(specs) - 1) * gap) // 2
        y = panel_rect.bottom + MODAL_GAP
        return [Button((x + k * (w + gap), y, w, MODAL_BUTTON_H), label, action, key=key, size=28)
                for k, (label, action, key) in enumerate(specs)]

    def close_modal(self) -> None:
        if self.modal == "round":
            self.modal = ""
            self.modal_buttons = []

    # ------------------------------------------------------------------ input
    def uses_key(self, key: int) -> bool:
        return key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE, pygame.K_UP, pygame.K_l,
                       pygame.K_ESCAPE, pygame.K_s, pygame.K_n, pygame.K_KP_ENTER, pygame.K_h, pygame.K_u, pygame.K_z)

    def pause(self) -> None:
        self.app.push(PauseMenu(self.app, self.on_main_menu, self.unsaved_game))

    def toggle_last(self) -> None:
        if self.match.last_trick is not None:
            self.show_last = not self.show_last

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if self.modal:
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.pause()
                return
            handle_buttons(self.modal_buttons, event)
            return
        if self.passing:
            if (event.type == pygame.MOUSEBUTTONUP and event.button == 1) or (
                    event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER)):
                self.revealed, self.passing = self.passing, 0
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.pause()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            self.undo()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.show_last:
                self.show_last = False
            else:
                self.pause()
            return
        if self.show_last:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                self.show_last = False
            return
        if handle_buttons(self.buttons + self.action_buttons, event):
            return
        seat = self.my_turn()
        if not seat:
            if event.type == pygame.MOUSEBUTTONUP and not self.idle():
                self._skip_anims()
            return
        phase = self.state.phase
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._click(seat, phase, event.pos)
        elif event.type == pygame.KEYDOWN:
            self._key(seat, phase, event.key)

    def _skip_anims(self) -> None:
        if self.anim is not None:
            self.anim.t = self.anim.duration

    def choices(self, seat: int) -> list:
        """What the arrow keys move through now: cards of the hand, seats to rob, cards of the trick."""
        phase = self.state.phase
        if phase is Phase.KEEP:
            return list(self.state.observation(seat).dealt)
        if phase is Phase.PLAY:
            return list(self.view.hands[seat - 1])
        if phase is Phase.STEAL:
            return [a.target for a in self.state.legal_actions() if a.target is not None]
        if phase is Phase.EXECUTE:
            return [a.card for a in self.state.legal_actions()]
        if phase is Phase.START:
            return [a.seat for a in self.state.legal_actions()]
        return []

    def _focused(self):
        """The choice the arrow keys point at now (a card, a seat), or None."""
        seat = self.my_turn()
        items = self.choices(seat) if seat else []
        return items[self.focus % len(items)] if items else None

    def _key(self, seat: int, phase: Phase, key: int) -> None:
        items = self.choices(seat)
        if key in (pygame.K_LEFT, pygame.K_RIGHT) and items:
            self.focus = (self.focus + (1 if key == pygame.K_RIGHT else -1)) % len(items)
            return
        if not items:
            return
        item = items[self.focus % len(items)]
        if phase is Phase.KEEP:
            if key in (pygame.K_SPACE, pygame.K_UP):
                self._toggle_keep(item)
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm_keep()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if phase is Phase.PLAY:
                self.act(Action.play(seat, item))
            elif phase is Phase.STEAL:
                if self.steal_target == item:
                    self.act(Action.steal(seat, item))
                else:
                    self.steal_target = item
            elif phase is Phase.EXECUTE:
                self.act(Action.execute(seat, item))
            elif phase is Phase.START:
                self.act(Action.start(item))

    def _click(self, seat: int, phase: Phase, pos: tuple[int, int]) -> None:
        if phase is Phase.KEEP:
            dealt = list(self.state.observation(seat).dealt)
            for card, r in reversed(list(zip(dealt, self._keep_rects(dealt)))):
                if r.collidepoint(pos):
                    self._toggle_keep(card)
                    return
        elif phase is Phase.PLAY:
            card = self.card_at(pos)
            if card is not None:
                self.act(Action.play(seat, card))
        elif phase is Phase.STEAL:
            # first the player to rob, then one of their face-down cards (which one is chance: unseen)
            if self.steal_target:
                rects = self.back_rects(self.steal_target, len(self.view.hands[self.steal_target - 1]))
                for r in reversed(rects):
                    if r.collidepoint(pos):
                        self.steal_from = r.center
                        self.act(Action.steal(seat, self.steal_target))
                        return
            for t in self.choices(seat):
                if any(r.collidepoint(pos) for r in self.back_rects(t, len(self.view.hands[t - 1]))) \
                        or self.plate_rect(t).collidepoint(pos):
                    self.steal_target = t
                    return
        elif phase is Phase.EXECUTE:
            for s, c in reversed(self.view.trick):
                if c.name != "EXECUTIONER" and self._trick_rect(s).collidepoint(pos):
                    self.act(Action.execute(seat, c))
                    return
        elif phase is Phase.START:
            for t in self.choices(seat):
                if self.plate_rect(t).collidepoint(pos):
                    self.act(Action.start(t))
                    return

    def card_at(self, pos: tuple[int, int]) -> Card | None:
        hand = self.view.hands[self.viewer() - 1]
        rects = self.hand_rects(len(hand))
        for card, r in reversed(list(zip(hand, rects))):
            if r.inflate(0, LIFT * 2).collidepoint(pos):
                return card
        return None

    def _keep_rects(self, dealt: list[Card]) -> list[pygame.Rect]:
        rects = self.hand_rects(len(dealt))
        return [r.move(0, -LIFT) if c in self.selected else r for c, r in zip(dealt, rects)]

    def _toggle_keep(self, card: Card) -> None:
        if card in self.selected:
            self.selected.discard(card)
        elif len(self.selected) < self.state.hand_size():
            self.selected.add(card)
        else:
            n = self.state.hand_size()
            self.say(lambda: _("Your hand holds {n} cards: put one back first.").format(n=n))

    def confirm_keep(self) -> None:
        seat = self.my_turn()
        if not seat or self.state.phase is not Phase.KEEP:
            return
        if len(self.selected) != self.state.hand_size():
            n = self.state.hand_size()
            self.say(lambda: _("Choose {n} cards for your hand.").format(n=n))
            return
        self.act(Action.keep(seat, sorted(self.selected)))

    def suggest_keep(self) -> None:
        seat = self.my_turn()
        if seat and self.state.phase is Phase.KEEP:
            self.selected = set(self.match.suggested_hand(seat))

    def skip_steal(self) -> None:
        seat = self.my_turn()
        if seat and self.state.phase is Phase.STEAL:
            self.act(Action.steal(seat, None))

    def _layout_action_buttons(self) -> None:
        seat = self.my_turn()
        phase = self.state.phase if seat else None
        want = {Phase.KEEP: "keep", Phase.STEAL: "steal"}.get(phase, "") if phase else ""
        if getattr(self, "_buttons_for", None) == want:
            return
        self._buttons_for = want
        x, y = CANVAS[0] - 210, 396
        if want == "keep":
            self.action_buttons = [
                Button((x, y, 190, 44), N_("Keep these"), self.confirm_keep, key=pygame.K_RETURN, size=24,
                       enabled=lambda: len(self.selected) == self.state.hand_size()),
                Button((x, y + 52, 190, 44), N_("Choose for me"), self.suggest_keep, key=pygame.K_s, size=24)]
        elif want == "steal":
            self.action_buttons = [Button((x, y + 52, 190, 44), N_("Don't steal"), self.skip_steal,
                                          key=pygame.K_n, size=24)]
        else:
            self.action_buttons = []

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        ra = royals_art(self.app)
        surface.blit(self._background(), (0, 0))
        self.drawn_face_up = set()
        self._draw_rank_card(surface)
        self._draw_scores(surface)
        for seat in range(1, self.n + 1):
            self._draw_seat(surface, seat)
        self._draw_trick(surface)
        self._draw_flying(surface)
        self._draw_prompt(surface)
        for b in self.buttons + self.action_buttons:
            b.draw(surface, art)
        if self.show_last:
            self._draw_last_trick(surface)
        if self.toast_time > 0 and self.toast:
            msg, r = self.toast_layout(self.toast)
            surface.blit(panel((r.w + 40, r.h + 20), 235), r.inflate(40, 20))
            surface.blit(msg, r)
        if self.passing:
            self._draw_pass(surface)
        if self.modal:
            self._draw_modal(surface)
        del ra

    def toast_layout(self, text: str) -> tuple[pygame.Surface, pygame.Rect]:
        """A short message (why a click did nothing) as drawn and where, canvas px: over the hand,
        between the seat's plate and the buttons; 26 px, smaller down to 18 px for a long one, then
        wrapped. Its panel is the rect grown by 40 x 20."""
        art = self.app.art
        room = HAND_ROOM - 40
        size = fit_size(art, text, 26, room, 18)
        wrap = room if art.font(size).size(text)[0] > room else 0
        msg = art.text(text, size, CREAM, shadow=True, wrap=wrap, center=True)
        return msg, msg.get_rect(center=(HAND_LEFT + HAND_ROOM // 2, HAND_Y - 44))

    def _scores_rect(self) -> pygame.Rect:
        return pygame.Rect(CANVAS[0] - 300, 16, 284, 44 + 28 * (self.n + (2 if self.state.teams else 0)))

    def _background(self) -> pygame.Surface:
        """The table with the seats' plates and the score panel, composed once per seating
        (one opaque blit a frame instead of a translucent panel per seat)."""
        key = (self.n, self.viewer(), self.state.teams)
        cache = getattr(self, "_bg", None)
        if cache is not None and cache[0] == key:
            return cache[1]
        bg = self.app.art.table.copy()
        for seat in range(1, self.n + 1):
            plate = self.plate_rect(seat)
            bg.blit(panel(plate.size, 200), plate)
            if self.state.teams:
                pygame.draw.rect(bg, TEAM_COLOURS[team_of(seat)], plate.inflate(-6, -6), 3, border_radius=12)
        r = self._scores_rect()
        bg.blit(panel(r.size, 215), r)
        if pygame.display.get_surface() is not None:
            bg = bg.convert()
        self._bg = (key, bg)
        return bg

    def _draw_rank_card(self, surface: pygame.Surface) -> None:
        ra = royals_art(self.app)
        rev = self.view.revolution
        img = ra.sides[1 if rev else 0]
        a = self.anim
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
        label = _("Riots: the order is reversed") if rev else _("Royals: normal order")
        t = self.app.art.text(label, 20, HIGHLIGHT if rev else CREAM, shadow=True, wrap=160)
        surface.blit(t, (20, rect.bottom + 6))

    def _draw_scores(self, surface: pygame.Surface) -> None:
        for _text, img, where in self.score_texts():
            surface.blit(img, where)

    def score_texts(self) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """The score panel's texts as (text, image, where), canvas px: the round and trick, then per
        seat its name (cut with "…" 12 px before its points) and round / match points, and the
        teams' totals."""
        art = self.app.art
        r = self._scores_rect()
        items: list[tuple[str, pygame.Surface, pygame.Rect]] = []

        def put(text: str, size: int, colour: tuple[int, int, int], shadow: bool = False,
                **at: tuple[int, int]) -> int:
            img = art.text(text, size, colour, shadow=shadow)
            items.append((text, img, img.get_rect(**at)))
            return img.get_width()

        title = _("Round {r} of 3 · trick {t}").format(r=min(3, self.state.round), t=self.view.trick_no)
        put(elide(art.font(22), title, r.w - 28 - 3), 22, GOLD, True, topleft=(r.x + 14, r.y + 12))
        rp, totals = self.shown_scores()
        y = r.y + 42
        for s in range(1, self.n + 1):
            col = TEAL if self.idle() and s == self.match.decider() else CREAM
            w = put(_("{round} / {total}").format(round=rp[s - 1], total=totals[s - 1]), 21, col,
                    topright=(r.right - 14, y))
            put(elide(art.font(21), self.match.name(s), r.w - 28 - w - 12), 21, col, topleft=(r.x + 14, y))
            y += 28
        if self.state.teams:
            ts = (totals[0] + totals[2], totals[1] + totals[3])
            for team, label in enumerate((_("Team 1 + 3"), _("Team 2 + 4"))):
                w = put(str(ts[team]), 21, TEAM_COLOURS[team], topright=(r.right - 14, y))
                put(elide(art.font(21), label, r.w - 28 - w - 12), 21, TEAM_COLOURS[team], topleft=(r.x + 14, y))
                y += 28
        return items

    def shown_scores(self) -> tuple[list[int], list[int]]:
        """(round points, match totals) per seat as the table shows them (following the beats)."""
        from game.royals.engine import points_of, mask_of
        rp = [points_of(mask_of(loot)) for loot in self.view.loot]
        totals = list(rp)
        for rs in self.state.round_scores[:self.view.round - 1]:
            for i, v in enumerate(rs):
                totals[i] += v
        return rp, totals

    def _draw_seat(self, surface: pygame.Surface, seat: int) -> None:
        ra = royals_art(self.app)
        plate = self.plate_rect(seat)
        if self.idle() and seat == self.match.decider():
            pygame.draw.rect(surface, HIGHLIGHT, plate.inflate(6, 6), 3, border_radius=16)
        for _text, img, where in self.plate_texts(seat):
            surface.blit(img, where)
        # pile and loot
        piles = self.view.piles[seat - 1]
        px, py = self.pile_pos(seat)
        if piles:
            for k in range(min(piles, 4)):
                img = ra.back_img(0.36)
                surface.blit(img, img.get_rect(center=(px + k * 2, py - k * 2)))
        loot = self.view.loot[seat - 1]
        lx, ly = self.loot_pos(seat)
        if loot:
            img = ra.face(loot[-1], 0.36)
            surface.blit(img, img.get_rect(center=(lx, ly)))
        # the hand
        hand = self.view.hands[seat - 1]
        if self.rel(seat) == "bottom":
            self._draw_bottom_hand(surface, seat, hand)
        else:
            target = self.state.phase is Phase.STEAL and self.my_turn() and seat in self.choices(self.my_turn()) \
                and self.steal_target in (0, seat)
            for i, r in enumerate(self.back_rects(seat, len(hand))):
                img = ra.face(hand[i], SMALL) if self.reveal_all else ra.back_img(SMALL)
                surface.blit(img, r)
                if target and r.collidepoint(self.mouse):
                    pygame.draw.rect(surface, HIGHLIGHT, r, 3, border_radius=6)
            if target:
                width = 5 if seat in (self.steal_target, self._focused()) else 2
                pygame.draw.rect(surface, HIGHLIGHT, plate.inflate(12, 12), width, border_radius=18)

    def _draw_bottom_hand(self, surface: pygame.Surface, seat: int, hand: list[Card]) -> None:
        ra = royals_art(self.app)
        face_up = self.reveal_all or self.face_up_seat() == seat
        me = self.my_turn()
        phase = self.state.phase
        if face_up and me == seat and phase is Phase.KEEP:
            dealt = list(self.state.observation(seat).dealt)
            self.drawn_face_up.add(seat)
            rects = self._keep_rects(dealt)
            for i, (card, r) in enumerate(zip(dealt, rects)):
                surface.blit(ra.face(card), r)
                if card in self.selected:
                    pygame.draw.rect(surface, HIGHLIGHT, r, 3, border_radius=8)
                if i == self.focus % len(dealt):
                    pygame.draw.rect(surface, TEAL, r.inflate(6, 6), 2, border_radius=10)
            count = self.app.art.text(_("Keep {k} of {n} · {s} chosen").format(
                k=self.state.hand_size(), n=len(dealt), s=len(self.selected)), 24, GOLD, shadow=True)
            surface.blit(count, count.get_rect(midbottom=(HAND_LEFT + HAND_ROOM // 2, HAND_Y - 34)))
            return
        rects = self.hand_rects(len(hand))
        if not face_up:
            for r in rects:
                surface.blit(ra.back, r)
            return
        self.drawn_face_up.add(seat)
        legal = set()
        if me == seat and phase is Phase.PLAY:
            legal = {a.card for a in self.state.legal_actions()}
        hover = self.card_at(self.mouse) if me == seat else None
        focus_card = hand[self.focus % len(hand)] if hand and me == seat and phase is Phase.PLAY else None
        tip = ""
        for card, r in zip(hand, rects):
            playable = card in legal
            lifted = playable and (card == hover or card == focus_card)
            rr = r.move(0, -LIFT) if lifted else r
            if me == seat and phase is Phase.PLAY and not playable:
                surface.blit(ra.dimmed(card), rr)
            else:
                surface.blit(ra.face(card), rr)
            if card == focus_card:
                pygame.draw.rect(surface, TEAL, rr.inflate(6, 6), 2, border_radius=10)
            if card == hover:
                tip = card_name(card)
                if me == seat and phase is Phase.PLAY and not playable:
                    tip = self.explain(self.state.illegal_reason(Action.play(seat, card)) or "")
        if tip:
            t = self.app.art.text(tip, 22, CREAM, shadow=True)
            surface.blit(t, t.get_rect(midbottom=(HAND_LEFT + HAND_ROOM // 2, HAND_Y - 30)))

    def _trick_rect(self, seat: int) -> pygame.Rect:
        w, h = int(CARD_W * TRICK_SCALE), int(CARD_H * TRICK_SCALE)
        return pygame.Rect(0, 0, w, h).move(self.trick_pos(seat)[0] - w // 2, self.trick_pos(seat)[1] - h // 2)

    def _draw_trick(self, surface: pygame.Surface) -> None:
        ra = royals_art(self.app)
        a = self.anim
        sliding = a is not None and a.beat.kind in ("trick", "void") and a.progress > TRICK_HOLD / (
            DURATIONS["trick"] or 1)
        choosing = self.state.phase is Phase.EXECUTE and self.my_turn()
        for seat, card in self.view.trick:
            r = self._trick_rect(seat)
            img = ra.face(card, TRICK_SCALE)
            if sliding and a is not None:
                p = (a.progress - TRICK_HOLD / DURATIONS["trick"]) / (1 - TRICK_HOLD / DURATIONS["trick"])
                dest = self.loot_pos(a.beat.seat) if a.beat.kind == "trick" else (CANVAS[0] // 2 - 40, TRICK_Y)
                c = _lerp(r.center, dest, max(0.0, min(1.0, p)))
                img = ra.face(card, round(TRICK_SCALE * (1 - 0.55 * p) * 20) / 20)  # a few cached sizes
                if a.beat.kind == "void":
                    img = img.copy()
                    img.set_alpha(int(255 * (1 - p)))
                surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))
                continue
            if self.view.burning == card and a is not None:
                p = a.progress
                img = img.copy()
                img.fill((255, int(200 - 150 * p), int(120 - 100 * p), 255), special_flags=pygame.BLEND_RGBA_MULT)
                img.set_alpha(int(255 * (1 - p)))
                surface.blit(img, r.move(0, int(-20 * p)))
                for k in range(6):  # embers
                    ex = r.x + (k * 17 + int(self.clock * 90)) % r.w
                    ey = r.bottom - int((p * 140 + k * 23) % r.h)
                    pygame.draw.circle(surface, (255, 140 + k * 15, 40), (ex, ey), 3)
                continue
            surface.blit(img, r)
            if self.view.winner == seat:
                pygame.draw.rect(surface, HIGHLIGHT, r.inflate(8, 8), 4, border_radius=10)
            if choosing and card.name != "EXECUTIONER" and (r.collidepoint(self.mouse) or card == self._focused()):
                pygame.draw.rect(surface, (230, 80, 60), r.inflate(8, 8), 4, border_radius=10)
        if self.view.winner and a is not None and a.beat.kind == "trick":
            text = _("Trick to {name}: {why}").format(name=self.match.name(self.view.winner),
                                                            why=_(REASONS.get(self.view.reason, "highest")))
            self.banner(surface, text)
        elif a is not None and a.beat.kind == "void":
            self.banner(surface, _("Only rankless cards: nobody wins, they leave the game."))
        if self.state.phase is Phase.PLAY and self.view.trick and self.state.led >= 0 and self.idle():
            from game.royals.engine import Rank
            t = self.app.art.text(_("Led: {rank}").format(rank=rank_name(Rank(self.state.led))), 22, CREAM,
                                  shadow=True)
            surface.blit(t, t.get_rect(center=(CANVAS[0] // 2 - 40, TRICK_Y)))

    def banner(self, surface: pygame.Surface, text: str) -> None:
        """A message across the middle of the trick."""
        t = self.app.art.text(text, 26, HIGHLIGHT, shadow=True)
        r = t.get_rect(center=(CANVAS[0] // 2 - 40, TRICK_Y + 176))
        surface.blit(panel((r.w + 40, r.h + 24), 220), r.inflate(40, 24))
        surface.blit(t, r)

    def _draw_flying(self, surface: pygame.Surface) -> None:
        a = self.anim
        if a is None:
            return
        ra = royals_art(self.app)
        b = a.beat
        p = a.progress
        if b.kind == "play" and b.card is not None:
            src = a.data.get("src", self.seat_anchor(b.seat))
            dst = self.trick_pos(b.seat)
            c = _lerp(src, dst, p)
            img = ra.face(b.card, TRICK_SCALE)
            surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))
        elif b.kind == "draw":
            c = _lerp(self.pile_pos(b.seat), self.seat_anchor(b.seat), p)
            img = ra.back_img(SMALL)
            surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))
        elif b.kind == "steal" and b.card is not None:
            src = a.data.get("src", self.seat_anchor(b.target))
            c = _lerp(src, self.loot_pos(b.seat), p)
            img = ra.face(b.card, 0.7) if p > 0.35 else ra.back_img(0.7)
            surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))
            back = a.data.get("back")
            if back is not None:
                c2 = _lerp(self.trick_pos(b.target), self.seat_anchor(b.target), p)
                img2 = ra.face(back, 0.6)
                surface.blit(img2, img2.get_rect(center=(int(c2[0]), int(c2[1]))))
            self.banner(surface, _("{thief} steals from {victim}").format(
                thief=self.match.name(b.seat), victim=self.match.name(b.target)))
        elif b.kind == "deal":  # a stream of cards to every seat, one after another
            img = ra.back_img(SMALL)
            for k in range(5):
                pk = max(0.0, min(1.0, (p - k * 0.12) / 0.52))
                if pk <= 0.0 or pk >= 1.0:
                    continue
                for s in range(1, self.n + 1):
                    c = _lerp((CANVAS[0] // 2 - 40, TRICK_Y), self.seat_anchor(s), pk)
                    surface.blit(img, img.get_rect(center=(int(c[0]), int(c[1]))))

    def prompt_text(self) -> str:
        """What the table asks now: the person's decision (with the hint, if one was asked), or
        which computer is thinking; "" for nothing."""
        seat = self.my_turn()
        text = ""
        if seat:
            text = self.decision_prompt(seat, self.state.phase)
        elif self.idle() and not self.passing and not self.modal:
            c = self.match.computer_to_act()
            if c:
                text = _("{name} is thinking…").format(name=self.match.name(c))
        if seat and self.hint_text:
            text = f"{text}  {self.hint_text}"
        return text

    def decision_prompt(self, seat: int, phase: Phase) -> str:
        """The line asking ``seat`` for its decision in ``phase`` (rules: the phases of a trick)."""
        if phase is Phase.KEEP:
            return _("{name}: choose the {n} cards to keep in hand; the rest become your pile.").format(
                name=self.match.name(seat), n=self.state.hand_size())
        if phase is Phase.PLAY:
            return _("{name}: play a card.").format(name=self.match.name(seat))
        if phase is Phase.STEAL and self.steal_target:
            return _("Thief: take one of {name}'s cards (you cannot see which).").format(
                name=self.match.name(self.steal_target))
        if phase is Phase.STEAL:
            return _("Thief: pick a player to rob (click their cards), or don't steal.")
        if phase is Phase.EXECUTE:
            return _("Executioner: pick a card in the trick to take out of the game.")
        if phase is Phase.START:
            return _("Your team starts: click who leads the first trick.")
        return ""

    def prompt_layout(self, text: str) -> tuple[pygame.Surface, pygame.Rect]:
        """``text`` as the prompt shows it and where (canvas px): wrapped to :data:`PROMPT_W`, at 24 px
        or as large as keeps it within :data:`PROMPT_H` (long names and a hint), in the band between
        the top seat's plate and the trick, or at the top when nobody sits there."""
        for size in range(24, 15, -1):
            t = self.app.art.text(text, size, CREAM, shadow=True, wrap=PROMPT_W)
            if t.get_height() <= PROMPT_H:
                break
        if self.rel_has_top():
            return t, t.get_rect(midtop=(CANVAS[0] // 2 - 40, PROMPT_TOP))
        return t, t.get_rect(midtop=(CANVAS[0] // 2 - 40, 24))

    def _draw_prompt(self, surface: pygame.Surface) -> None:
        text = self.prompt_text()
        if text:
            surface.blit(*self.prompt_layout(text))

    def rel_has_top(self) -> bool:
        return self.n in (2, 4)

    def _draw_last_trick(self, surface: pygame.Surface) -> None:
        lt = self.match.last_trick
        if lt is None:
            return
        art = self.app.art
        ra = royals_art(self.app)
        dim(surface)
        r = pygame.Rect(0, 0, 760, 400)
        r.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        surface.blit(panel(r.size), r)
        surface.blit(art.text(_("The last trick"), 34, GOLD, shadow=True), (r.x + 30, r.y + 24))
        kept = {c for _, c in lt.kept}
        for i, (seat, card) in enumerate(lt.plays):
            x = r.x + 40 + i * 170
            img = ra.face(card) if card in kept else ra.dimmed(card)
            surface.blit(img, (x, r.y + 80))
            surface.blit(art.text(elide(art.font(20), self.match.name(seat), 160), 20, CREAM), (x, r.y + 224))
            if seat == lt.winner and card in kept:
                pygame.draw.rect(surface, HIGHLIGHT, (x - 4, r.y + 76, CARD_W + 8, CARD_H + 8), 4, border_radius=10)
        if lt.winner:
            why = _("Won by {name}: {why}").format(name=self.match.name(lt.winner), why=_(REASONS[lt.reason]))
        else:
            why = _("Nobody won it: only rankless cards were left.")
        lines = [why]
        if lt.stolen is not None:
            lines.append(_("The Thief took {card}.").format(card=card_name(lt.stolen)))
        if lt.executed is not None:
            lines.append(_("The Executioner removed {card}.").format(card=card_name(lt.executed)))
        for k, line in enumerate(lines):
            surface.blit(art.text(line, 24, CREAM, shadow=True, wrap=r.w - 60), (r.x + 30, r.y + 262 + 32 * k))
        hint = art.text(_("Click or press a key to go on."), 20, (200, 190, 160))
        surface.blit(hint, hint.get_rect(midbottom=(r.centerx, r.bottom - 14)))

    def _draw_pass(self, surface: pygame.Surface) -> None:
        art = self.app.art
        surface.blit(art.table, (0, 0))  # nothing of the table shows: every hand stays hidden
        dim(surface, 120)
        fan = getattr(self, "_fan", None)
        if fan is None:
            back = royals_art(self.app).back
            fan = self._fan = [pygame.transform.rotozoom(back, (2 - k) * 9, 1.0) for k in range(5)]
        for k, img in enumerate(fan):
            surface.blit(img, img.get_rect(center=(CANVAS[0] // 2 + (k - 2) * 46, CANVAS[1] // 2 - 190 + abs(k - 2) * 8)))
        name = self.match.name(self.passing)
        t = art.text(_("Pass to {name}").format(name=name), 64, GOLD, shadow=True)
        surface.blit(t, t.get_rect(center=(CANVAS[0] // 2, CANVAS[1] // 2 - 40)))
        s = art.text(_("{name}: click or press Enter to see your cards.").format(name=name), 28, CREAM, shadow=True)
        surface.blit(s, s.get_rect(center=(CANVAS[0] // 2, CANVAS[1] // 2 + 30)))

    def _draw_modal(self, surface: pygame.Surface) -> None:
        dim(surface)
        r, items = self.modal_layout()
        surface.blit(panel(r.size, 245), r)
        for _text, surf, rect in items:
            surface.blit(surf, rect)
        for b in self.modal_buttons:
            b.draw(surface, self.app.art)

    def close(self) -> None:
        self.thinker.close()
        if self.hinter is not None:
            self.hinter.close()
        if self.saver is not None:
            self.saver(None)  # write what is pending and stop the autosave thread


TEAL = (64, 200, 150)
