"""The hint: the hard AI's suggested move for the person to move, shown on the board.

In a local game the game screen offers a "Hint" button and the H key. Asking
starts the ``hard`` search on the current position in a worker process
(:func:`~game.client.roseking.thinking.computer_thinker`: the worker is started on first
use, on a background thread), so the window never waits; while it searches the
screen says "thinking…"; once it answers, the suggested card and its target
square (or the draw pile) glow and a line names the move. Any change of the
position (a move by anyone, an undo) or the turn passing to a non-local player
cancels the search or takes the suggestion down.

The GameScene drives it: :meth:`Hint.request` on the key/button,
:meth:`Hint.update` every fixed step, :meth:`Hint.cancel` from its ``on_move``
hook, :meth:`Hint.draw` when a person is to move, :meth:`Hint.close` when the
scene closes (stops the worker process).
"""

from __future__ import annotations

import math
from typing import Callable

import pygame

from game.roseking.ai import DEFAULT_SECONDS
from game.roseking.engine import DRAW, HERO, Card, Color, Move, State, square_name
from game.i18n import _
from game.roseking.phrases import card_label

from .art import CREAM, Art
from game.roseking.match import Match, ThinkerLike, position_key

from .layout import DISCARD_RECT, DRAW_PILE_RECT, SQUARE, square_rect
from .thinking import computer_thinker
from ..widgets import panel

#: The glow of a suggestion: a cool blue no other highlight on the board uses.
HINT_COLOR = (110, 200, 255)
#: The hint button (right column, under "Menu") and the line under it.
BUTTON_RECT = pygame.Rect(DRAW_PILE_RECT.x - 10, 672, DISCARD_RECT.right - DRAW_PILE_RECT.x + 20, 46)
LABEL_RECT = pygame.Rect(BUTTON_RECT.x - 30, BUTTON_RECT.bottom + 10, BUTTON_RECT.w + 60, 60)


def hint_text(move: Move, state: State) -> str:
    """The suggestion as one line for the person to move (``state``: the position it is for)."""
    if move.kind is DRAW or move.card is None:
        return _("Suggestion: draw a card.")
    target = state.target(move.card)
    fields = dict(card=card_label(move.card), square=square_name(target) if target is not None else "?")
    if move.kind is HERO:
        return _("Suggestion: hero card with {card}, flip {square}.").format(**fields)
    return _("Suggestion: play {card} to {square}.").format(**fields)


#: Seconds a glow pulses before it settles (a still window uses no CPU).
SETTLE_SECONDS = 3.0


class Hint:
    """Asks a computer level (``hard`` by default) for the move it would make for the person to move.

    ``seconds``/``iterations``: the search budget (see :func:`game.roseking.ai.make_player`);
    ``seed``: None for a different search each time. The worker is built on the
    first :meth:`request` and kept for the rest of the game.

    Attributes read by the view: ``move`` (the suggestion, or None), ``thinking``
    (a search is running for the current position), ``failed`` (the worker
    could not start or died: hints are off for this game).
    """

    def __init__(self, level: str = "hard", seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, seed: int | None = None) -> None:
        self.level = level
        self.seconds = seconds
        self.iterations = iterations
        self.seed = seed
        self.move: Move | None = None
        self.thinking = False
        self.failed = False
        self.requests = 0
        self._thinker: ThinkerLike | None = None
        self._position: tuple | None = None
        self._clock = 0.0
        self._tile = pygame.Surface((SQUARE - 10, SQUARE - 10), pygame.SRCALPHA)
        pygame.draw.rect(self._tile, (*HINT_COLOR, 255), self._tile.get_rect(), border_radius=8)

    def request(self, match: Match) -> str | None:
        """Start the search for the person to move in ``match``. Returns why it cannot (then
        nothing starts), or None. Asking again for the same position keeps the running search."""
        state = match.state
        if self.failed:
            return _("Hints are not available in this game.")
        if state.is_game_over():
            return _("The game is over.")
        if not match.human_to_move():
            return _("A hint is for your own turn.")
        key = position_key(state)
        if key == self._position and (self.thinking or self.move is not None):
            return None
        if self._thinker is None:
            self._thinker = computer_thinker(self.level, self.seed, self.seconds, self.iterations)
        self._thinker.start(state)
        self.requests += 1
        self.thinking, self.move, self._position, self._clock = True, None, key, 0.0
        return None

    def update(self, match: Match, dt: float) -> str | None:
        """Poll the search (never blocks); drop the hint if the position changed. Returns a message
        for the player if the worker failed, else None."""
        self._clock += dt
        if self._position is None:
            return None
        if position_key(match.state) != self._position or not match.human_to_move():
            self.cancel()
            return None
        if self.thinking and self._thinker is not None:
            try:
                move = self._thinker.poll()
            except RuntimeError:
                self.cancel()
                self.failed = True
                return _("Hints are not available in this game.")
            if move is not None:
                self.move, self.thinking = move, False
        return None

    def at_rest(self) -> bool:
        """Nothing moves: no search running and the suggestion's glow has settled."""
        return not self.thinking and (self.move is None or self._clock >= SETTLE_SECONDS)

    def cancel(self) -> None:
        """Forget the suggestion and stop a running search (a move was made, or taken back)."""
        if self.thinking and self._thinker is not None:
            self._thinker.cancel()
        self.move, self.thinking, self._position = None, False, None

    def close(self) -> None:
        """Stop the worker process (the scene is closing)."""
        self.cancel()
        if self._thinker is not None:
            self._thinker.close()
            self._thinker = None

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, art: Art, state: State,
             card_rect: Callable[[Color, Card], pygame.Rect | None]) -> None:
        """The suggestion's glow (card and target square, or the draw pile) and its line, or
        "thinking…" while the search runs, over ``state`` as drawn (``card_rect``: where a hand card
        is drawn, None if it is not). Call only while a person is to move and nothing animates."""
        if not (self.thinking or self.move is not None):
            return
        pulse = 0.5 + 0.5 * math.sin(self._clock * 6) if self._clock < SETTLE_SECONDS else 1.0
        width = 3 + round(2 * pulse)
        if self.move is not None:
            card = self.move.card
            if self.move.kind is DRAW or card is None:
                pygame.draw.rect(surface, HINT_COLOR, DRAW_PILE_RECT.inflate(16, 16), width, border_radius=12)
            else:
                rect = card_rect(state.turn, card)
                if rect is not None:
                    pygame.draw.rect(surface, HINT_COLOR, rect.inflate(12, 12), width, border_radius=12)
                target = state.target(card)
                if target is not None:
                    r = square_rect(target).inflate(-4, -4)
                    self._tile.set_alpha(int(60 + 70 * pulse))
                    surface.blit(self._tile, r.inflate(-2, -2))
                    pygame.draw.rect(surface, HINT_COLOR, r, width, border_radius=10)
            text = hint_text(self.move, state)
        else:
            text = _("Hint: thinking…")
        label = art.text(text, 20, CREAM, shadow=True, wrap=LABEL_RECT.w - 20)
        box = LABEL_RECT.copy()
        box.h = label.get_height() + 14
        surface.blit(panel(box.size, 235, 8), box)
        pygame.draw.rect(surface, HINT_COLOR, box, 2, border_radius=8)
        surface.blit(label, label.get_rect(center=box.center))
        if self.move is None:  # a small turning dot: the search is running, the window is not stuck
            angle = self._clock * 5
            c = (box.right - 14 + 6 * math.cos(angle), box.centery + 6 * math.sin(angle))
            pygame.draw.circle(surface, HINT_COLOR, c, 3)


__all__ = ["BUTTON_RECT", "HINT_COLOR", "Hint", "hint_text"]
