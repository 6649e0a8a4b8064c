"""The game view's match driver: Rose King's :class:`GameScene`.

The scene shows a *shown* copy of the match's state. Every move the match
applies (a click here, the computer, later a network peer or a replay) arrives
through the match's ``on_move`` hook, is queued, animated from the shown state,
and then pushed onto it. Input waits while an animation runs; a click or a key
skips the running animations instead.

The scene is split by concern, into objects it holds: fixed geometry in :mod:`.layout`, clicks
and keys in :mod:`.board_input` (:attr:`GameScene.input`, a :class:`BoardInput`), drawing in
:mod:`.board_draw` (:attr:`GameScene.drawing`, a :class:`BoardDrawing`); each reads the scene
through a small protocol of its own (:class:`~.board_input.BoardHost`, :class:`~.board_draw.BoardView`).
Here is the driver: the queue of moves to animate, the clocks, toasts and banners, the move
log's peeking, and handing the match its time.
"""

from __future__ import annotations

import math
from collections import deque
from typing import TYPE_CHECKING, Callable

import pygame

from game.roseking import phrases
from game.roseking.engine import DRAW, HERO, Card, Color, Move, State
from game.i18n import N_, Text, _, text_of

from .anims import Anim, DrawAnim, PlayAnim
from .board_draw import BANNER_SECONDS, BoardDrawing, color_name
from .board_input import BoardInput
from ..dialogs import PauseMenu
from .layout import BOARD_RECT, DISCARD_RECT, DRAW_PILE_RECT, MOVELOG_RECT
from game.roseking.match import Match
from .movelog import MoveLog, state_at
from .result import ResultPanel
from ..scene import Scene
from ..widgets import Button

if TYPE_CHECKING:
    from game.roseking.replay import PlyInfo

    from ..app import App
    from ..prefs import Prefs
    from .hint import Hint

TOAST_SECONDS = 2.6
#: Seconds the glows (player to move, draw pile, selected card's target) pulse after the last
#: change before they settle: then nothing moves and the window stops drawing until an event.
SETTLE_SECONDS = 3.0

#: Rose King's sound effects (``assets/sounds/<name>.wav``, made by ``assets/make_sounds.py``), its
#: client's ``sounds``; the first is the one its settings screen plays at a new volume.
SOUNDS = ("stone_placed", "card_played", "hero_flip", "card_drawn", "pass", "game_end")

__all__ = ["BOARD_RECT", "GameScene", "color_name", "player_name"]  # lan.py and replay_view.py take these from here


def player_name(prefs: "Prefs", color: Color) -> str:
    """The name Rose King's settings give ``color`` (``prefs``: the app's
    :class:`~game.client.prefs.Prefs`), else "Red"/"White" in the current language."""
    s = prefs.game_settings("rose-king")
    return phrases.player_names(s.red_name, s.white_name)[color]


class GameScene(Scene):
    """Plays one :class:`Match` on screen. ``on_new_game`` / ``on_main_menu`` are what the
    result panel and the pause menu do (the caller decides, so this scene knows no other screen).
    :attr:`drawing` draws it, :attr:`input` takes its clicks and keys."""

    app: "App"
    #: Whose hand runs along the bottom edge (the viewer's colour; a network game sets its own)
    bottom: Color = Color.RED

    def __init__(self, app: "App", match: Match, on_new_game: Callable[[], object],
                 on_main_menu: Callable[[], object], hint: "Hint | None" = None) -> None:
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
        self.result_shown = False
        self.movelog: MoveLog | None = MoveLog(MOVELOG_RECT)
        self.peek: int | None = None  # the ply shown from the move log instead of the live game
        self.peek_state: State | None = None
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
        self.drawing = self._drawing()
        self.input = BoardInput(self, self.drawing)

    def _drawing(self) -> BoardDrawing:
        """The scene's drawing, made once (the replay viewer's draws its move list in the status box)."""
        return BoardDrawing(self)

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
        self.anim = (DrawAnim if move.kind is DRAW else PlayAnim)(self.shown, move, self.bottom)
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
        return (not self.busy() and self._toast is None and self._banner is None and not self.drawing.sliding
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
        """The effect of a move that just landed: stone placed or hero flip, a pass, the end."""
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
            if move.kind is DRAW and move.card is not None and self.shown.draw_pile == 1 << move.card.index:
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
    def finished(self, state: State | None = None) -> bool:
        """Whether the game shown (``state``: the position drawn, default the live one) has ended
        (the status then says so, never "... to move")."""
        return (self.shown if state is None else state).is_game_over()

    def waiting_line(self, mover: Color) -> str:
        """The status line while ``mover`` (not a local person) is to move; a LAN view says whom it waits for."""
        return _("{colour} is thinking…").format(colour=color_name(mover))

    # ------------------------------------------------------------------ events and drawing
    def handle_event(self, event: pygame.event.Event) -> None:
        self.changed_at = self.clock  # the glows pulse again for a while
        self.input.handle_event(event)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        self.drawing.draw(surface, alpha)

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

    def back_to_game(self) -> None:
        self.peek = self.peek_state = None

    def player_names(self) -> tuple[str, str]:
        """The names shown for (red, white): a network game's names (the same on both screens and in
        the record), else the settings' names of local people, else the colours."""
        names = getattr(self.match, "names", None)
        if names:
            return names[Color.RED], names[Color.WHITE]
        prefs = self.app.prefs
        red, white = (player_name(prefs, c) if self.match.controllers[c].local_human else color_name(c)
                      for c in (Color.RED, Color.WHITE))
        return red, white

    def last_info(self, state: State) -> PlyInfo | None:
        """The :class:`PlyInfo` of ``state``'s last move (to mark it on the board), or None."""
        if self.movelog is None or state.ply == 0:
            return None
        self.movelog.refresh(self.shown)
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
        self.drawing.card_x.clear()
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
        self.drawing.slide_hands(dt, speed)
