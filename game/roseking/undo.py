"""Undo for local games, and a chance source that undo cannot fish with.

Two pieces the game screen calls (no pygame here):

- :class:`DeckChance` supplies draws' cards (chance outcomes) for local games from
  a *hidden pile order*, as a physical draw pile has one: the pile is shuffled once
  from a seed (and again at each reshuffle, ruling 5), and a draw always brings the
  first card of that order still in the pile. A draw that is undone puts its card
  back on top, so drawing again - now, after other moves, or after quitting and
  resuming (the seed is saved with the game) - brings the same card. Undo therefore
  cannot be used to fish for cards.
- :class:`UndoHistory` applies moves and takes them back following the house
  policy: against the computer an undo goes back to the human's previous
  turn; between two humans on one machine it takes back one action. Undone moves
  are kept on a redo list; a redone draw keeps its card.

Both work on the engine's :class:`~game.roseking.engine.State` and its move stack.
"""

from __future__ import annotations

import secrets
from typing import Iterable, Protocol

from game.roseking.engine import CARDS, DRAW, Card, Color, Move, Rng, State
from game.roseking.engine.cards import ALL_CARDS_MASK

_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


class DeckChance:
    """Chance outcomes from a hidden, seeded order of the draw pile.

    ``seed``: any int (kept as :attr:`seed` so a save can store it; None draws one
    at random). Call ``chance(state)`` or ``chance.outcome(state)`` when the player
    to move in ``state`` has decided to draw; it returns the card the draw brings,
    one of ``state.chance_outcomes()``.

    Every card is equally likely to be the next one for anyone who does not know
    the seed, exactly like a shuffled pile. The order of the first pile is a
    shuffle of the cards left after the deal; after the *k*-th reshuffle the new
    pile (the old discard pile, ruling 5) is shuffled with a generator derived
    from ``seed`` and *k*.

    ``state`` must carry its full move stack from the deal (a live game or a
    replayed record does; ``State.copy(stack=False)`` does not). Raises
    ValueError if the move stack does not explain the draw pile, or the pile is
    empty.

    >>> from game.roseking.engine import Rng, State
    >>> s = State.random(Rng(5))
    >>> chance = DeckChance(seed=99)
    >>> card = chance(s)
    >>> card in s.chance_outcomes() and chance(s) is card
    True
    """

    __slots__ = ("seed",)

    def __init__(self, seed: int | None = None) -> None:
        self.seed = secrets.randbits(63) if seed is None else int(seed)

    def pile_order(self, state: State) -> list[Card]:
        """The hidden order of the current pile generation (cards already drawn included)."""
        red, white = state.deal
        dealt = 0
        for c in (*red, *white):
            dealt |= 1 << c.index
        start = pile = ALL_CARDS_MASK & ~dealt
        discard = 0
        generation = 0
        for move in state.move_stack:
            card = move.card
            assert card is not None  # (every move of the stack has its card)
            bit = 1 << card.index
            if move.kind is DRAW:
                pile &= ~bit
                if not pile:  # ruling 5: the eager reshuffle
                    start = pile = discard
                    discard = 0
                    generation += 1
            else:
                discard |= bit
        if pile != state.draw_pile:
            raise ValueError("DeckChance needs the state's full move stack from the deal")
        order = [CARDS[i] for i in range(len(CARDS)) if (start >> i) & 1]
        Rng((self.seed + generation * _GOLDEN) & _MASK64).shuffle(order)
        return order

    def outcome(self, state: State) -> Card:
        """The card a draw brings in ``state``: the first of the hidden order still in the pile."""
        pile = state.draw_pile
        if not pile:
            raise ValueError("the draw pile is empty: there is nothing to draw")
        for card in self.pile_order(state):
            if (pile >> card.index) & 1:
                return card
        raise AssertionError("unreachable: the pile order covers the pile")  # pragma: no cover

    __call__ = outcome


class ChanceSource(Protocol):
    """Supplies a draw's card: ``outcome(state)`` returns one of ``state.chance_outcomes()``
    (the client's ``Match`` uses the same protocol)."""

    def outcome(self, state: State) -> Card | None: ...


class UndoHistory:
    """Moves of a local game, with the undo policy above and a redo list.

    ``state``: the live game (changed in place by :meth:`push`, :meth:`undo`,
    :meth:`redo`). ``humans``: the colours played by people on this machine; with
    exactly one, an undo goes back to that player's previous turn (any number of
    times), otherwise it takes back one action. ``chance``: the source of draws'
    cards (default: a new :class:`DeckChance`).

    Moves go in either through :meth:`push`, or - when something else pushes
    them, like the client's ``Match`` - by using the history as that pusher's
    chance source and calling :meth:`on_move` after each move::

        history = UndoHistory(match.state, humans=[RED], chance=DeckChance(meta.chance_seed))
        match.chance = history                 # redo-aware draws
        match.on_move.append(history.on_move)  # keeps the redo list right

    After an undo while the computer is thinking, the caller cancels its
    ``Thinker`` and starts the turn again: the state has moved under it.

    >>> from game.roseking.engine import Rng, State, Color
    >>> h = UndoHistory(State.random(Rng(1)), humans=[Color.RED], chance=DeckChance(7))
    >>> first = h.push(h.state.legal_moves()[0])
    >>> reply = h.push(h.state.legal_moves()[-1])   # the computer draws
    >>> [str(m) for m in h.undo()] == [str(reply), str(first)]
    True
    >>> h.state.ply, h.can_undo(), h.can_redo()
    (0, False, True)
    """

    def __init__(self, state: State, humans: Iterable[Color], chance: ChanceSource | None = None) -> None:
        self.state = state
        self.humans = frozenset(Color(c) for c in humans)
        self.chance: ChanceSource = DeckChance() if chance is None else chance
        #: Groups of undone moves, the last group undone last; each group in push order.
        self._redo: list[list[Move]] = []

    # ------------------------------------------------------------------ moving
    def outcome(self, state: State | None = None) -> Card | None:
        """The card a draw by the player to move brings now (a chance source itself).

        The next move of the redo list, if it is a draw by that player, gives its
        card; otherwise the chance source decides. ``state`` must be :attr:`state`
        (accepted for the ChanceSource protocol).
        """
        if state is not None and state is not self.state:
            raise ValueError("UndoHistory.outcome: not this history's state")
        nxt = self._next_redo()
        if nxt is not None and nxt.kind is DRAW and nxt.player == self.state.turn:
            return nxt.card
        return self.chance.outcome(self.state)

    def complete(self, move: Move) -> Move:
        """``move`` with a draw's card filled in by :meth:`outcome` (other moves are returned unchanged).

        Raises ValueError if the chance source has no card for it yet.
        """
        if move.kind is not DRAW or move.card is not None:
            return move
        card = self.outcome()
        if card is None:
            raise ValueError("the chance source has no card for this draw yet")
        return move.with_outcome(card)

    def push(self, move: Move) -> Move:
        """Complete and apply ``move`` (checked); returns the move as pushed.

        Raises IllegalMoveError (a ValueError) saying why, and changes nothing then.
        Pushing the next move of the redo list keeps the rest of it; any other move
        clears it.
        """
        move = self.complete(move)
        self.state.push_checked(move)
        self.on_move(move, self.state)
        return move

    def on_move(self, move: Move, state: State | None = None) -> None:
        """Bookkeeping after ``move`` was applied to :attr:`state` (by :meth:`push` or by
        a ``Match``; the signature fits ``Match.on_move`` hooks)."""
        nxt = self._next_redo()
        if nxt is not None and nxt == move:
            group = self._redo[-1]
            group.pop(0)
            if not group:
                self._redo.pop()
        else:
            self._redo.clear()

    # ------------------------------------------------------------------ undo
    def _undo_count(self) -> int:
        """How many moves one undo takes back now (0: nothing to undo)."""
        stack = self.state.move_stack
        if len(self.humans) != 1:
            return 1 if stack else 0
        (human,) = self.humans
        for n, move in enumerate(reversed(stack), 1):
            if move.player == human:
                return n
        return 0

    def can_undo(self) -> bool:
        return self._undo_count() > 0

    def undo(self) -> list[Move]:
        """Take back one step of the policy; returns the moves taken back, newest first.

        Returns [] when there is nothing to undo (with one human: before their first move).
        """
        n = self._undo_count()
        popped = [self.state.pop() for _ in range(n)]
        if popped:
            self._redo.append(popped[::-1])
        return popped

    def can_redo(self) -> bool:
        return bool(self._redo)

    def redo(self) -> list[Move]:
        """Re-apply the moves of the last undo (checked); returns them in push order."""
        if not self._redo:
            return []
        group = self._redo.pop()
        for move in group:
            self.state.push_checked(move)
        return group

    def _next_redo(self) -> Move | None:
        return self._redo[-1][0] if self._redo else None
