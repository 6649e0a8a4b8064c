"""Input to Rose King's game view: clicks and keys on the board, hands and draw pile.

:class:`BoardInput` is an object the game scene holds (``scene.input``): it reads and sets what
:class:`BoardHost` offers of the scene and hit-tests hand cards with the scene's drawing
(:meth:`~game.client.roseking.board_draw.BoardDrawing.card_at`). Mouse play: clicking a card
selects it, clicking it again or its lit target plays it; clicking any square one of the mover's
cards reaches plays that card; a target holding an opponent's stone is a hero move that asks for
one confirming click; clicking the draw pile draws. A click that cannot be done says why
(:meth:`BoardInput.why_not`). A move goes to the match (``scene.match.submit``); the scene shows
it when the match reports it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

import pygame

from game.roseking.engine import DRAW, HERO, Card, Move, State, square_name
from game.i18n import Text, _

from .board_draw import BoardDrawing, color_name
from .layout import DRAW_PILE_RECT, square_at
from ..widgets import Button, handle_buttons

if TYPE_CHECKING:
    from game.roseking.match import Match
    from .movelog import MoveLog


class BoardHost(Protocol):
    """What :class:`BoardInput` uses of its scene: :class:`~game.client.roseking.game_scene.GameScene`
    is the one implementation. The selection and the mouse's place are the scene's, set here."""

    selected: Card | None
    armed: Card | None  # a hero card waiting for its confirming click
    hover_pos: tuple[int, int]

    @property
    def match(self) -> "Match": ...
    @property
    def shown(self) -> State: ...
    @property
    def peek(self) -> int | None:
        """The ply the move log shows instead of the live game, or None."""
    @property
    def movelog(self) -> "MoveLog | None": ...
    @property
    def buttons(self) -> list[Button]: ...
    def busy(self) -> bool:
        """Whether moves are still being animated."""
    def skip(self) -> None:
        """Finish every running and queued animation."""
    def pause(self) -> None: ...
    def back_to_game(self) -> None:
        """Show the live game again (not the move log's position)."""
    def show_ply(self, ply: int) -> None: ...
    def say(self, text: Text, ok: bool = False) -> None:
        """Show a short reason (a toast)."""


class BoardInput:
    """Turns the events of a :class:`BoardHost` (``scene``) into selections and moves, hit-testing
    the hands as ``drawing`` draws them."""

    def __init__(self, scene: BoardHost, drawing: BoardDrawing) -> None:
        self.scene = scene
        self.drawing = drawing

    def handle_event(self, event: pygame.event.Event) -> None:
        scene = self.scene
        if scene.peek is not None and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            scene.back_to_game()
            return
        log = scene.movelog
        if log is not None and event.type == pygame.MOUSEWHEEL and log.rect.collidepoint(scene.hover_pos):
            log.scroll(-event.y)
            return
        if log is not None and event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and log.rect.collidepoint(event.pos):
            ply = log.ply_at(event.pos)
            if ply is not None:
                scene.show_ply(ply)
            return
        if scene.peek is not None and event.type == pygame.MOUSEBUTTONDOWN:
            scene.back_to_game()  # a click elsewhere: the live game again, and the click acts on it
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if scene.selected is not None:
                scene.selected = scene.armed = None
            else:
                scene.pause()
            return
        if handle_buttons(scene.buttons, event):
            return
        if event.type == pygame.MOUSEMOTION:
            scene.hover_pos = event.pos
            return
        if event.type == pygame.KEYDOWN:
            if scene.busy() and event.key in (pygame.K_SPACE, pygame.K_RETURN):
                scene.skip()
            elif event.key == pygame.K_d:
                self.click_draw_pile()
            return
        if event.type != pygame.MOUSEBUTTONDOWN:
            return
        scene.hover_pos = event.pos
        if event.button == 3:
            scene.selected = scene.armed = None
            return
        if event.button != 1:
            return
        if scene.busy():
            scene.skip()  # a click during an animation finishes it, then acts on what is now shown
        self.click(event.pos)

    def click(self, pos: tuple[int, int]) -> None:
        """A left click at canvas point ``pos`` while no animation runs."""
        scene = self.scene
        state = scene.shown
        if state.is_game_over():
            return
        card, color = self.drawing.card_at(pos)
        sq = square_at(pos)
        on_pile = DRAW_PILE_RECT.collidepoint(pos)
        if card is None and sq is None and not on_pile:
            scene.selected = scene.armed = None
            return
        if not scene.match.human_to_move():
            if card is not None or sq is not None or on_pile:
                turn = state.turn
                scene.say(lambda: _("Wait: {colour} is thinking.").format(colour=color_name(turn)))
            return
        mover = state.turn
        if card is not None:
            if color != mover:
                owner = mover.other  # (a card under the mouse has an owner: the one not to move)
                scene.say(lambda: _("Those are {colour}'s cards; {mover} is to move.").format(
                    colour=color_name(owner), mover=color_name(mover)))
                return
            self.click_card(card)
        elif sq is not None:
            self.click_square(sq)
        else:
            self.click_draw_pile()

    def _kind(self, card: Card) -> Move | None:
        for move in self.scene.shown.legal_moves():
            if move.card == card:
                return move
        return None

    def why_not(self, card: Card) -> Callable[[], str]:
        """A short reason, in the player's words, why ``card`` cannot be played now: a function
        that words it in the current language (the position is read now, at the click)."""
        state = self.scene.shown
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

    def submit(self, move: Move) -> None:
        """Hand ``move`` to the match (a refusal is said) and clear the selection."""
        scene = self.scene
        reason = scene.match.submit(move)
        if reason is not None:
            scene.say(reason)
        scene.selected = scene.armed = None

    def click_card(self, card: Card) -> None:
        scene = self.scene
        move = self._kind(card)
        if move is None:
            scene.selected = scene.armed = None
            scene.say(self.why_not(card))
        elif move.kind is HERO:
            if scene.armed == card:
                self.submit(move)
            else:
                scene.selected = scene.armed = card
        elif scene.selected == card:
            self.submit(move)
        else:
            scene.selected, scene.armed = card, None

    def click_square(self, sq: int) -> None:
        scene = self.scene
        state = scene.shown
        card = next((c for c in state.hand(state.turn) if state.target(c) == sq), None)
        if card is None:
            scene.selected = scene.armed = None
            square = square_name(sq)
            scene.say(lambda: _("None of your cards moves the crown to {square}.").format(square=square))
            return
        move = self._kind(card)
        if move is None:
            scene.selected = scene.armed = None
            scene.say(self.why_not(card))
        elif move.kind is HERO and scene.armed != card:
            scene.selected = scene.armed = card
        else:
            self.submit(move)

    def click_draw_pile(self) -> None:
        scene = self.scene
        if scene.busy() or scene.shown.is_game_over() or not scene.match.human_to_move():
            return
        move = Move(scene.shown.turn, DRAW, None)
        if move in scene.shown.legal_moves():
            self.submit(move)
        else:
            scene.say(lambda: _("Your hand is full: you may draw only with fewer than 5 cards."))
