"""Input to Rose King's game view: clicks and keys on the board, hands and draw pile.

:class:`BoardInput` is the input half of :class:`~game.client.roseking.game_scene.GameScene`
(a mixin). Mouse play: clicking a card selects it, clicking it again or its lit target
plays it; clicking any square one of the mover's cards reaches plays that card; a target holding
an opponent's stone is a hero move that asks for one confirming click; clicking the draw pile
draws. A click that cannot be done says why (:meth:`BoardInput.why_not`). A move goes to the
match (``self.match.submit``); the scene shows it when the match reports it back.
"""

from __future__ import annotations

from typing import Callable

import pygame

from game.roseking.engine import DRAW, HERO, Card, Move, square_name
from game.i18n import _

from .board_draw import color_name
from .layout import DRAW_PILE_RECT, square_at
from ..widgets import handle_buttons


class BoardInput:
    """The input half of :class:`~game.client.roseking.game_scene.GameScene` (a mixin: it reads
    what is shown and hit-tests with the drawing half's :meth:`card_at`; moves go to the match)."""

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

