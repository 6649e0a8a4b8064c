"""The game view: board, hands, piles, scores, mouse play and move animations.

The scene shows a *shown* copy of the match's state. Every move the match
applies (a click here, the computer, later a network peer or a replay) arrives
through the match's ``on_move`` hook, is queued, animated from the shown state,
and then pushed onto it. Input waits while an animation runs; a click or a key
skips the running animations instead.

Mouse play (issue 3): hovering a card previews where the crown would land;
clicking a card selects it, clicking it again or its lit target plays it;
clicking any square one of the mover's cards reaches plays that card; a target
holding an opponent's stone is a hero move that asks for one confirming click;
clicking the draw pile draws. A click that cannot be done says why.
"""

from __future__ import annotations

import math
from collections import deque
from typing import TYPE_CHECKING, Callable

import pygame

from game.roseking.engine import CARDS, DRAW, HERO, SIZE, Card, Color, Move, State, TOTAL_STONES, square_name, territories
from game.roseking.engine.cards import iter_bits
from game.i18n import N_, Text, _, text_of

from .anims import CROWN_LIFT, CROWN_SCALE, Anim, DrawAnim, PlayAnim, blit_center, pile_offsets
from .art import Art, COLOR_UI, CREAM, GOLD, GOLD_DARK, HERO_UI, INK, TEAL, art_of
from ..dialogs import PauseMenu
from .layout import (BOARD_RECT, CARD_H, CARD_W, DISCARD_RECT, DRAW_PILE_RECT, HAND_SLOTS, LIFT, PANEL_RECT,
                     SIDE_LEFT, SQUARE, hand_slot_rect, hero_rect, square_at, square_center, square_rect)
from .match import Match
from .movelog import MoveLog, state_at
from .result import ResultPanel
from ..scene import Scene
from ..widgets import Button, handle_buttons, panel, wrapped_to_fit

if TYPE_CHECKING:
    from ..app import App
    from .hint import Hint

TOAST_SECONDS = 2.6
STATUS_RECT = pygame.Rect(SIDE_LEFT.x, SIDE_LEFT.y + 40, SIDE_LEFT.w, 250)
#: The widest a toast's text wraps to: the status box less the toast's margins (a toast lies over
#: the status box, whose guidance it amends, and covers no square, hand, pile or move log).
TOAST_WRAP = STATUS_RECT.w - 16 - 40
#: The toast's text sizes, largest first: a text too tall for the status box takes the next one.
TOAST_SIZES = (23, 20, 18)
TERRITORY_LINE = {Color.RED: (150, 20, 24), Color.WHITE: (250, 250, 240)}
BANNER_SECONDS = 2.4
#: The live move log: the left column between the status box and Red's name panel.
MOVELOG_RECT = pygame.Rect(SIDE_LEFT.x, STATUS_RECT.bottom + 10, SIDE_LEFT.w,
                           PANEL_RECT[Color.RED].top - 30 - (STATUS_RECT.bottom + 10))  # clear of "Heroes: n"
#: Seconds the glows (player to move, draw pile, selected card's target) pulse after the last
#: change before they settle: then nothing moves and the window stops drawing until an event.
SETTLE_SECONDS = 3.0


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


class GameScene(Scene):
    """Plays one :class:`Match` on screen. ``on_new_game`` / ``on_main_menu`` are what the
    result panel and the pause menu do (the caller decides, so this scene knows no other screen)."""

    def __init__(self, app: "App", match: Match, on_new_game: Callable[[], None],
                 on_main_menu: Callable[[], None], hint: "Hint | None" = None) -> None:
        super().__init__(app)
        self.match = match
        self.hint = hint  # the hard AI's suggestion (H key, button) in local games; None: no hints
        self.on_new_game = on_new_game
        self.on_main_menu = on_main_menu
        self.shown = match.state.copy()
        self.queue: deque[Move] = deque()
        self.anim: Anim | None = None
        self.selected: Card | None = None
        self.armed: Card | None = None  # hero move waiting for its confirming click
        self.hover_pos: tuple[int, int] = (-1, -1)
        self._toast: tuple[Text, float] | None = None
        self.toast_ok = False
        self._banner: tuple[Text, float] | None = None
        self.clock = 0.0
        self.changed_at = 0.0  # self.clock at the last input or move (glows pulse for a while after it)
        self.sliding = False  # hand cards are gliding
        self.card_x: dict[tuple[Color, int], float] = {}  # drawn x of each hand card while it glides
        self.result_shown = False
        self.movelog: MoveLog | None = MoveLog(MOVELOG_RECT)
        self.peek: int | None = None  # the ply shown from the move log instead of the live game
        self.peek_state: State | None = None
        self._peeking = False  # drawing the peeked position now
        self._live = self.shown
        match.on_move.append(self._on_move)
        opts = app.options
        x, w = DRAW_PILE_RECT.x - 10, DISCARD_RECT.right - DRAW_PILE_RECT.x + 20
        self.buttons = [
            Button((x, 560, w, 46), lambda: _("Targets: on") if opts.show_targets else _("Targets: off"),
                   self.toggle_targets, key=pygame.K_t, size=26, selected=lambda: opts.show_targets),
            Button((x, 616, w, 46), N_("Menu"), self.pause, size=26),
        ]
        if hint is not None:
            from .hint import BUTTON_RECT
            self.buttons.append(Button(BUTTON_RECT, lambda: _("Hint (H)"), self.ask_hint, key=pygame.K_h, size=26,
                                       enabled=lambda: not self.busy() and self.match.human_to_move()))
        self.tiles = {
            # shapes as well as colours (issue 6): a play target is a dot on an empty square, a hero
            # target a ring with four notches round the opponent's stone, a selected card's target a square
            "play": _dot(TEAL, 12), "play_ring": _dot((20, 90, 64), 12, border=3),
            "hero": _ring(HERO_UI, 6), "hero_ring": _ring((236, 200, 255), 3, notches=True),
            "pick": _tile((255, 170, 40), 150), "pick_ring": _tile((255, 250, 220), 255, border=4),
            "red_land": _tile((200, 40, 40), 90, 2, size=SQUARE - 2),
            "white_land": _tile((255, 255, 255), 120, 2, size=SQUARE - 2),
        }
        self.card_dim = pygame.Surface((CARD_W, CARD_H), pygame.SRCALPHA)
        pygame.draw.rect(self.card_dim, (20, 12, 6, 130), self.card_dim.get_rect(), border_radius=8)
        self.backdrop = self._backdrop(art_of(app))
        self.ghost_crown = art_of(app).scaled(art_of(app).crown, CROWN_SCALE, "crown").copy()
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

    # ------------------------------------------------------------------ match -> view
    def _on_move(self, move: Move, state: State) -> None:
        self.back_to_game()  # a new move: the live game again
        self.queue.append(move)
        self.selected = self.armed = None
        if self.hint is not None:
            self.hint.cancel()

    def ask_hint(self) -> None:
        """The H key / Hint button: start the suggestion search (a reason shows if it cannot)."""
        if self.hint is not None and not self.busy():
            reason = self.hint.request(self.match)
            if reason is not None:
                self.say(reason)

    def busy(self) -> bool:
        """Whether moves are still being animated (input then skips instead of playing)."""
        return self.anim is not None or bool(self.queue)

    def _start_next(self) -> None:
        move = self.queue.popleft()
        self.anim = DrawAnim(self.shown, move) if move.kind is DRAW else PlayAnim(self.shown, move)
        self.app.prefs.play("card_drawn" if move.kind is DRAW else "card_played")
        if isinstance(self.anim, DrawAnim) and self.anim.reshuffle:
            self.show_banner(lambda: _("Last card drawn: the discard pile is shuffled into a new draw pile"))

    def pulse(self, speed: float) -> float:
        """0..1, pulsing at ``speed`` for a while after the last change, then 1 (settled)."""
        if self.clock - self.changed_at >= SETTLE_SECONDS:
            return 1.0
        return 0.5 + 0.5 * math.sin(self.clock * speed)

    def at_rest(self) -> bool:
        """Nothing moves: no animation, toast or banner, the hands still, the glows settled."""
        return (not self.busy() and self._toast is None and self._banner is None and not self.sliding
                and self.clock - self.changed_at >= SETTLE_SECONDS
                and (self.hint is None or self.hint.at_rest()))

    def _commit(self, move: Move) -> None:
        self.shown.push(move)
        self.anim = None
        self.changed_at = self.clock
        self._sound_after(move)
        if self.shown.passed() and not self.shown.is_game_over():
            mover = self.shown.turn
            self.show_banner(lambda: _("{passer} cannot move and must pass. {mover} moves again.").format(
                passer=color_name(mover.other), mover=color_name(mover)))

    def _sound_after(self, move: Move) -> None:
        """The effect of a move that just landed (issue 6): stone placed or hero flip, a pass, the end."""
        prefs = self.app.prefs
        if move.kind is not DRAW:
            prefs.play("hero_flip" if move.kind is HERO else "stone_placed")
        if self.shown.is_game_over():
            prefs.play("game_end")
        elif self.shown.passed():
            prefs.play("pass")

    def skip(self) -> None:
        """Finish every running and queued animation at once."""
        if self.anim is not None:
            self._commit(self.anim.move)
        while self.queue:
            move = self.queue.popleft()
            if move.kind is DRAW and self.shown.draw_pile == 1 << move.card.index:  # type: ignore[union-attr]
                self.show_banner(lambda: _("Last card drawn: the discard pile is shuffled into a new draw pile"))
            self._commit(move)

    # ------------------------------------------------------------------ messages
    def say(self, text: Text, ok: bool = False) -> None:
        """Show a short visible reason (a toast) for a click that cannot be done; ``ok``: good news
        (e.g. "Saved to ..."), framed in gold instead of the error red. ``text``: a function that
        words it (worded at every draw, so a language change shows at once) or a fixed string."""
        self._toast = (text, TOAST_SECONDS)
        self.toast_ok = ok

    def show_banner(self, text: Text) -> None:
        """Slide in a banner over the board for :data:`BANNER_SECONDS` (``text`` as for :meth:`say`)."""
        self._banner = (text, BANNER_SECONDS)

    @property
    def toast(self) -> tuple[str, float] | None:
        """The toast showing: (its words in the current language, seconds left), or None."""
        t = self._toast
        return None if t is None else (text_of(t[0]), t[1])

    @toast.setter
    def toast(self, value: tuple[Text, float] | None) -> None:
        self._toast = value

    @property
    def banner(self) -> tuple[str, float] | None:
        """The banner showing: (its words in the current language, seconds left), or None."""
        b = self._banner
        return None if b is None else (text_of(b[0]), b[1])

    @banner.setter
    def banner(self, value: tuple[Text, float] | None) -> None:
        self._banner = value

    # ------------------------------------------------------------------ scene
    def finished(self) -> bool:
        """Whether the game shown has ended (the status then says so, never "... to move")."""
        return self.shown.is_game_over()

    def unsaved_game(self) -> bool:
        return self.match.state.ply > 0 and not self.match.state.is_game_over()

    def close(self) -> None:
        if self._on_move in self.match.on_move:
            self.match.on_move.remove(self._on_move)
        self.match.close()
        if self.hint is not None:
            self.hint.close()

    def toggle_targets(self) -> None:
        self.app.options.show_targets = not self.app.options.show_targets
        self.app.prefs.remember_options()

    def pause(self) -> None:
        self.app.push(PauseMenu(self.app, self.on_main_menu, self.unsaved_game))

    def tick(self, dt: float) -> None:
        """Advance the clocks of pulses, the toast and the banner (also while an overlay is on top)."""
        self.clock += dt
        if self._toast:
            self._toast = (self._toast[0], self._toast[1] - dt) if self._toast[1] > dt else None
        if self._banner:
            self._banner = (self._banner[0], self._banner[1] - dt) if self._banner[1] > dt else None

    def _slide_hands(self, dt: float) -> None:
        """Cards glide to their slots when the hand closes a gap or makes room (about 0.15 s)."""
        speed = self.app.options.anim_speed
        k = 1.0 if speed <= 0 else min(1.0, dt * speed * 16)
        seen = set()
        self.sliding = False
        for color in (Color.RED, Color.WHITE):
            for card, slot in self.hand_layout(color):
                key = (color, card.index)
                seen.add(key)
                target = hand_slot_rect(color, slot).x
                x = self.card_x.get(key, target)
                x += (target - x) * k
                self.card_x[key] = target if abs(target - x) < 0.5 else x
                self.sliding = self.sliding or self.card_x[key] != target
        for key in [key for key in self.card_x if key not in seen]:
            del self.card_x[key]

    # ------------------------------------------------------------------ the move log
    def show_ply(self, ply: int) -> None:
        """Show the position after move ``ply`` (from the log), like the replay viewer; the
        newest ply is the live game again."""
        if self.busy():
            self.skip()
        if ply >= self.shown.ply:
            self.back_to_game()
            return
        self.peek = max(0, ply)
        self.peek_state = state_at(self.shown, self.peek)
        if self.movelog is not None:
            self.movelog.show(self.peek)
        self.selected = self.armed = None

    def live_state(self) -> State:
        """The game as shown live (also while the log shows an earlier position)."""
        return self._live if self._peeking else self.shown

    def back_to_game(self) -> None:
        self.peek = self.peek_state = None

    def player_names(self) -> tuple[str, str]:
        """The names shown for (red, white): a network game's names (the same on both screens and in
        the record), else the settings' names of local people, else the colours."""
        names = getattr(self.match, "names", None)
        if names:
            return names[Color.RED], names[Color.WHITE]
        prefs = self.app.prefs
        return tuple(prefs.player_name(c) if self.match.controllers[c].local_human else color_name(c)  # type: ignore[return-value]
                     for c in (Color.RED, Color.WHITE))

    def last_info(self, state: State):
        """The :class:`PlyInfo` of ``state``'s last move (to mark it on the board), or None."""
        if self.movelog is None or state.ply == 0:
            return None
        self.movelog.refresh(self.live_state())
        infos = self.movelog.infos
        return infos[state.ply - 1] if state.ply <= len(infos) else None

    def resync(self) -> None:
        """Show the match's state as it is now, without animating: drops running and queued
        animations and the selection (after an undo, or a jump in a replay)."""
        self.queue.clear()
        self.anim = None
        self.back_to_game()
        self.shown = self.match.state.copy()
        self.selected = self.armed = None
        self.card_x.clear()
        if self.hint is not None:
            self.hint.cancel()  # a suggestion for the old position must not show
        if not self.shown.is_game_over():
            self.result_shown = False

    def update(self, dt: float) -> None:
        self.animate(dt)
        if self.hint is not None:
            message = self.hint.update(self.match, dt)
            if message:
                self.say(message)
        if not self.busy():
            self.match.update(dt)
            if self.match.state.is_game_over() and not self.busy() and not self.result_shown:
                self.result_shown = True
                self.banner = None  # a pass banner must not fade over the result
                self.app.push(ResultPanel(self.app, self))

    def animate(self, dt: float) -> None:
        """Advance clocks, the running animation (starting queued ones) and the hand glide by ``dt`` seconds."""
        self.tick(dt)
        speed = self.app.options.anim_speed
        if self.anim is None and self.queue:
            self._start_next()
        if self.anim is not None:
            if speed <= 0:
                self.skip()
            else:
                self.anim.advance(dt * speed)
                if self.anim.done:
                    self._commit(self.anim.move)
                    if self.queue:
                        self._start_next()
        self._slide_hands(dt)

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        self.changed_at = self.clock
        if self.peek is not None and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back_to_game()
            return
        log = self.movelog
        if log is not None and event.type == pygame.MOUSEWHEEL and log.rect.collidepoint(self.hover_pos):
            log.scroll(-event.y)
            return
        if log is not None and event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and log.rect.collidepoint(event.pos):
            ply = log.ply_at(event.pos)
            if ply is not None:
                self.show_ply(ply)
            return
        if self.peek is not None and event.type == pygame.MOUSEBUTTONDOWN:
            self.back_to_game()  # a click elsewhere: the live game again, and the click acts on it
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.selected is not None:
                self.selected = self.armed = None
            else:
                self.pause()
            return
        if handle_buttons(self.buttons, event):
            return
        if event.type == pygame.MOUSEMOTION:
            self.hover_pos = event.pos
            return
        if event.type == pygame.KEYDOWN:
            if self.busy() and event.key in (pygame.K_SPACE, pygame.K_RETURN):
                self.skip()
            elif event.key == pygame.K_d:
                self.click_draw_pile()
            return
        if event.type != pygame.MOUSEBUTTONDOWN:
            return
        self.hover_pos = event.pos
        if event.button == 3:
            self.selected = self.armed = None
            return
        if event.button != 1:
            return
        if self.busy():
            self.skip()  # a click during an animation finishes it, then acts on what is now shown
        self.click(event.pos)

    def click(self, pos: tuple[int, int]) -> None:
        """A left click at canvas point ``pos`` while no animation runs."""
        state = self.shown
        if state.is_game_over():
            return
        card, color = self.card_at(pos)
        sq = square_at(pos)
        on_pile = DRAW_PILE_RECT.collidepoint(pos)
        if card is None and sq is None and not on_pile:
            self.selected = self.armed = None
            return
        if not self.match.human_to_move():
            if card is not None or sq is not None or on_pile:
                turn = state.turn
                self.say(lambda: _("Wait: {colour} is thinking.").format(colour=color_name(turn)))
            return
        mover = state.turn
        if card is not None:
            if color != mover:
                self.say(lambda: _("Those are {colour}'s cards; {mover} is to move.").format(
                    colour=color_name(color), mover=color_name(mover)))
                return
            self.click_card(card)
        elif sq is not None:
            self.click_square(sq)
        else:
            self.click_draw_pile()

    def _kind(self, card: Card) -> Move | None:
        for move in self.shown.legal_moves():
            if move.card == card:
                return move
        return None

    def why_not(self, card: Card) -> Callable[[], str]:
        """A short reason, in the player's words, why ``card`` cannot be played now: a function
        that words it in the current language (the position is read now, at the click)."""
        state = self.shown
        t = state.target(card)
        if t is None:
            return lambda: _("The crown would leave the board.")
        owner, square = state.owner(t), square_name(t)
        if owner == state.turn:
            return lambda: _("{square} already holds your stone.").format(square=square)
        if owner is not None and state.heroes[state.turn] == 0:
            return lambda: _("{square} holds an opponent's stone and you have no hero cards left.").format(
                square=square)
        return lambda: _("This card cannot be played now.")

    def _submit(self, move: Move) -> None:
        reason = self.match.submit(move)
        if reason is not None:
            self.say(reason)
        self.selected = self.armed = None

    def click_card(self, card: Card) -> None:
        move = self._kind(card)
        if move is None:
            self.selected = self.armed = None
            self.say(self.why_not(card))
        elif move.kind is HERO:
            if self.armed == card:
                self._submit(move)
            else:
                self.selected = self.armed = card
        elif self.selected == card:
            self._submit(move)
        else:
            self.selected, self.armed = card, None

    def click_square(self, sq: int) -> None:
        state = self.shown
        card = next((c for c in state.hand(state.turn) if state.target(c) == sq), None)
        if card is None:
            self.selected = self.armed = None
            square = square_name(sq)
            self.say(lambda: _("None of your cards moves the crown to {square}.").format(square=square))
            return
        move = self._kind(card)
        if move is None:
            self.selected = self.armed = None
            self.say(self.why_not(card))
        elif move.kind is HERO and self.armed != card:
            self.selected = self.armed = card
        else:
            self._submit(move)

    def click_draw_pile(self) -> None:
        if self.busy() or self.shown.is_game_over() or not self.match.human_to_move():
            return
        move = Move(self.shown.turn, DRAW, None)
        if move in self.shown.legal_moves():
            self._submit(move)
        else:
            self.say(lambda: _("Your hand is full: you may draw only with fewer than 5 cards."))

    # ------------------------------------------------------------------ geometry of what is shown
    def hand_layout(self, color: Color) -> list[tuple[Card, int]]:
        if self.anim is not None:
            layout = self.anim.hand(color)
            if layout is not None:
                return layout
        return [(c, i) for i, c in enumerate(self.shown.hand(color))]

    def card_rect(self, color: Color, card: Card, slot: int) -> pygame.Rect:
        """Where ``card`` is drawn: its slot, or on its way there after the hand closed a gap."""
        r = hand_slot_rect(color, slot)
        x = None if self._peeking else self.card_x.get((color, card.index))
        if x is not None:
            r.x = round(x)
        if card == self.selected and color == self.shown.turn:
            return r.move(0, LIFT[color])
        return r

    def card_at(self, pos: tuple[int, int]) -> tuple[Card | None, Color | None]:
        """The hand card under ``pos`` and its owner, or (None, None)."""
        for color in (Color.RED, Color.WHITE):
            for card, slot in self.hand_layout(color):
                if self.card_rect(color, card, slot).collidepoint(pos):
                    return card, color
        return None, None

    def card_center(self, color: Color, card: Card) -> tuple[int, int]:
        """Centre of ``card`` in ``color``'s hand as drawn now (tests click here). Raises ValueError if absent."""
        for c, slot in self.hand_layout(color):
            if c == card:
                return self.card_rect(color, c, slot).center
        raise ValueError(f"{card} is not in {color}'s hand")

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        if self.peek_state is None:
            self._draw(surface, alpha)
            return
        live, anim, selected = self.shown, self.anim, self.selected
        self.shown, self.anim, self._peeking, self._live = self.peek_state, None, True, live
        try:
            self._draw(surface, alpha)
        finally:
            self.shown, self.anim, self.selected, self._peeking = live, anim, selected, False
        pygame.draw.rect(surface, GOLD, BOARD_RECT.inflate(6, 6), 3, border_radius=6)  # not the live board

    def _draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = art_of(self.app)
        state = self.shown
        anim = self.anim
        t = anim.time(alpha) if anim is not None else 0.0
        surface.blit(self.backdrop, (0, 0))
        idle_human = (not self._peeking and not self.busy() and self.match.human_to_move()
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
        if anim is None and not self.queue:
            self._draw_last_action(surface, art, state)
        if self.movelog is not None:
            self.movelog.refresh(self.live_state())
            self.movelog.draw(surface, art, self.player_names(), self.peek if self._peeking else None)
        self._draw_status(surface, art, state, idle_human)
        for b in self.buttons:
            b.draw(surface, art)
        if anim is not None:
            anim.draw(surface, art, t)
        if idle_human and self.hint is not None:
            self.hint.draw(surface, self)
        if idle_human and self.armed is not None:
            self._draw_hero_tag(surface, art, state)
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
        if not self.toast:
            return
        text, left = self.toast
        s = self.toast_text(art, text)
        tb = self.toast_rect(art, text)
        fade = min(1.0, left / 0.4)
        bg = panel(tb.size, 255, 10)  # opaque: the status text under it must not show through
        bg.set_alpha(int(255 * fade))
        surface.blit(bg, tb)
        pygame.draw.rect(surface, GOLD if self.toast_ok else (210, 70, 60), tb, 3, border_radius=10)
        s2 = s.copy()
        s2.set_alpha(int(255 * fade))
        surface.blit(s2, s2.get_rect(midtop=(tb.centerx, tb.y + 14)))
        bg.set_alpha(255)

    def _draw_last_action(self, surface: pygame.Surface, art: Art, state: State) -> None:
        """The last move stays marked until the next one: the crown's from-square (a dashed ring),
        the new or flipped stone (a frame), the card played (on the discard pile) or drawn (in the hand)."""
        info = self.last_info(state)
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
                    surface.blit(tag, tag.get_rect(midtop=(r.centerx, r.bottom + 1)) if info.player is Color.WHITE
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

    def _draw_targets(self, surface: pygame.Surface, state: State) -> None:
        pulse = self.pulse(5)
        moves = [m for m in state.legal_moves() if m.card is not None]
        for m in moves:
            sq = state.target(m.card)  # type: ignore[arg-type]
            r = square_rect(sq).inflate(-6, -6)  # type: ignore[arg-type]
            hero = m.kind is HERO
            if m.card == self.selected:
                tile, ring = ("hero", "hero_ring") if hero else ("pick", "pick_ring")
                self.tiles[tile].set_alpha(int(150 + 90 * pulse))
                surface.blit(self.tiles[tile], r)
                surface.blit(self.tiles[ring], r)
            elif self.app.options.show_targets:
                tile = self.tiles["hero" if hero else "play"]
                tile.set_alpha(255)
                surface.blit(tile, r)
                if not hero:
                    surface.blit(self.tiles["play_ring"], r)

    def _draw_hero_rings(self, surface: pygame.Surface, state: State) -> None:
        """A ring over each stone a hero move could flip (all if targets are shown, else the selected one)."""
        for m in state.legal_moves():
            if m.kind is HERO and (m.card == self.selected or self.app.options.show_targets):
                surface.blit(self.tiles["hero_ring"], square_rect(state.target(m.card)).inflate(-6, -6))  # type: ignore[arg-type]

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

    def _draw_hover_territory(self, surface: pygame.Surface, art: Art, state: State) -> None:
        sq = square_at(self.hover_pos)
        if sq is None or self.busy() or self.armed is not None:
            return
        group = territory_of(state, sq)
        if not group:
            return
        owner = state.owner(sq)
        outline(surface, group, GOLD, 4)
        n = group.bit_count()
        if n == 1:
            label = _("{colour} territory: a single stone, worth 1 point").format(colour=color_name(owner))  # type: ignore[arg-type]
        else:
            label = _("{colour} territory: {n} stones, worth {n}² = {points} points").format(
                colour=color_name(owner), n=n, points=n * n)  # type: ignore[arg-type]
        text = art.text(label, 22, CREAM, shadow=True)
        box = text.get_rect(midbottom=(self.hover_pos[0], self.hover_pos[1] - 18)).inflate(18, 10)
        box.clamp_ip(surface.get_rect())
        surface.blit(panel(box.size, 235, 8), box)
        surface.blit(text, text.get_rect(center=box.center))

    def _draw_preview(self, surface: pygame.Surface, art: Art, state: State) -> None:
        """Dotted path and a ghost crown where the hovered (else the selected) card would go."""
        card, color = self.card_at(self.hover_pos)
        if card is None or color != state.turn:
            card = self.selected
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

    def _draw_hero_tag(self, surface: pygame.Surface, art: Art, state: State) -> None:
        sq = state.target(self.armed)  # type: ignore[arg-type]
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
        heroes = state.heroes[color]
        if anim is not None and anim.heroes(color) is not None:
            heroes = anim.heroes(color)  # type: ignore[assignment]
        for i in range(heroes):
            surface.blit(art.heroes[color], hero_rect(color, i))
        label = art.text(_("Heroes: {n}").format(n=heroes), 20, CREAM, shadow=True)
        hr = hero_rect(color, 0)
        ly = hr.bottom + 2 if color is Color.WHITE else hr.top - label.get_height() - 2
        surface.blit(label, (hr.x, ly))
        legal = {m.card for m in state.legal_moves()} if idle_human and color == state.turn else None
        hover, hover_color = self.card_at(self.hover_pos)
        for card, slot in self.hand_layout(color):
            r = self.card_rect(color, card, slot)
            if card == hover and hover_color == color and card != self.selected and idle_human:
                r = r.move(0, LIFT[color] // 2)
            surface.blit(art.card(card), r)
            if legal is not None and card not in legal:
                surface.blit(self.card_dim, r)
            elif color != state.turn and not state.is_game_over():
                surface.blit(self.card_dim, r)
            if card == self.selected and color == state.turn:
                ring = HERO_UI if self.armed == card else GOLD
                pygame.draw.rect(surface, ring, r.inflate(6, 6), 4, border_radius=10)
            if legal is not None and card in legal and state.target(card) is not None and state.owner(state.target(card)) is not None:
                badge = art.scaled(art.heroes[color], 0.3, ("hero", int(color)))
                surface.blit(badge, badge.get_rect(topright=(r.right + 6, r.top - 6)))

    def _draw_player_panel(self, surface: pygame.Surface, art: Art, state: State, color: Color) -> None:
        r = PANEL_RECT[color]
        to_move = state.turn == color and not self.finished()
        if to_move:
            glow = self.pulse(4)
            pygame.draw.rect(surface, (255, int(200 + 50 * glow), 120), r.inflate(6, 6), 3, border_radius=16)
        stone = art.scaled(art.stones[color], 0.8, ("stone", int(color)))
        surface.blit(stone, (r.x + 12, r.y + 12))
        controller = self.match.controllers[color]
        shown_name = self.player_names()[color]
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
        if anim is not None and anim.draw_count(t) is not None:
            count = anim.draw_count(t)  # type: ignore[assignment]
        base = DRAW_PILE_RECT
        for dx, dy in pile_offsets(count):
            surface.blit(art.card_back, base.move(dx, dy))
        can_draw = (not self._peeking and not self.busy() and self.match.human_to_move() and not state.is_game_over()
                    and state.hands[state.turn].bit_count() < HAND_SLOTS)
        if can_draw:
            glow = self.pulse(5)
            pygame.draw.rect(surface, (255, int(210 + 40 * glow), 120), base.inflate(10, 10), 3, border_radius=10)
        top, discards = state.discard_top, state.discard_pile.bit_count()
        if anim is not None and anim.discard_top(t) is not None:
            top = anim.discard_top(t)  # type: ignore[assignment]
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

    def _draw_status(self, surface: pygame.Surface, art: Art, state: State, idle_human: bool) -> None:
        box = STATUS_RECT
        title = art.text(_("Rose King"), 40, GOLD, shadow=True)
        surface.blit(title, title.get_rect(midtop=(box.centerx, box.y + 16)))
        y = box.y + 70
        if self._peeking:  # the move log shows an earlier position
            lines = [(_("Move {ply} of {total}").format(ply=self.peek, total=self._live.ply), 30, GOLD),
                     (_("Click the board or press Esc to return to the game."), 22, CREAM)]
        elif self.finished():
            lines = [(_("Game over"), 30, GOLD)]
        else:
            mover = state.turn
            lines = [(_("{colour} to move").format(colour=color_name(mover)), 30, COLOR_UI[mover])]
            if self.busy():
                pass
            elif idle_human:
                hint = (_("Confirm the hero move, or pick another card.") if self.armed is not None else
                        _("Click a lit square or a card twice to play it.") if self.selected is not None else
                        _("Pick a card, click a square it reaches, or draw."))
                lines.append((hint, 22, CREAM))
            else:
                lines.append((self.waiting_line(mover), 22, CREAM))
        for text, size, col in lines:
            s = art.text(text, size, col, shadow=True, wrap=box.w - 36)
            surface.blit(s, (box.x + 18, y))
            y += s.get_height() + 10
        keys = art.text(_("T: targets   D: draw   Esc: menu"), 18, (200, 180, 140))
        surface.blit(keys, keys.get_rect(midbottom=(box.centerx, box.bottom - 14)))

    def waiting_line(self, mover: Color) -> str:
        """The status line while ``mover`` (not a local person) is to move; a LAN view says whom it waits for."""
        return _("{colour} is thinking…").format(colour=color_name(mover))

    def _draw_banner(self, surface: pygame.Surface, art: Art) -> None:
        if not self.banner:
            return
        text, left = self.banner
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
