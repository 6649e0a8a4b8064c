"""Who moves and where chance comes from: the *match*, separate from any view.

A :class:`Match` owns the engine :class:`~game.roseking.engine.State`, one controller per
colour (a local human, a computer through :class:`~game.roseking.ai.Thinker`; later a
network peer) and a chance source that supplies a draw's card (a local
:class:`~game.roseking.engine.Rng`; later the network's joint coin or a record). Every
move applied, whoever made it, is announced to the ``on_move`` hooks with the
completed move (a draw carries its card) and the state after it: the game view
animates from that, an autosave can write from it.

No pygame in here: the match runs the same in tests, in a replay or over a LAN.
"""

from __future__ import annotations

from typing import Callable, Protocol

from game.roseking.ai import Player, Thinker
from game.roseking.engine import DRAW, Card, Move, Rng, State

MoveHook = Callable[[Move, State], None]


class ThinkerLike(Protocol):
    """What a computer controller thinks with: :class:`game.roseking.ai.Thinker` (a thread),
    :class:`game.roseking.ai.ProcessThinker` (a worker process) or the window's background
    starter of either. ``start(state)`` begins a search, ``poll()`` returns its move once found
    (else None), ``cancel()`` drops it, ``close()`` frees the worker."""

    def start(self, state: State) -> None: ...

    def poll(self) -> Move | None: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class Controller(Protocol):
    """Supplies the moves of one colour.

    ``local_human`` tells the view whether clicks may move for this colour.
    ``begin_turn(state)`` is called once each time this colour comes to move
    (after a pass too); ``poll(state, dt)`` returns a move from
    ``state.legal_moves()`` once it is ready, else None; ``dt`` is seconds since
    the last poll.
    """

    local_human: bool
    label: str

    def begin_turn(self, state: State) -> None: ...

    def poll(self, state: State, dt: float) -> Move | None: ...

    def close(self) -> None: ...


def position_key(state: State) -> tuple[object, ...]:
    """A cheap key that tells two positions apart (ply, side to move, crown, stones, hands, piles, heroes)."""
    return (state.ply, int(state.turn), state.crown, *state.stones, *state.hands, state.draw_pile, *state.heroes)


class HumanController:
    """A person at this machine: moves arrive through :meth:`Match.submit`."""

    local_human = True

    def __init__(self, label: str = "") -> None:
        self.label = label

    def begin_turn(self, state: State) -> None:
        pass

    def poll(self, state: State, dt: float) -> Move | None:
        return None

    def close(self) -> None:
        pass


class ComputerController:
    """A computer player run off the frame loop by a :class:`~game.roseking.ai.Thinker`.

    ``min_delay`` (seconds) is the least time between the turn starting to be
    polled and the move being handed over, so a person can follow the game; 0 in
    tests. ``thinker`` may be any object with the Thinker interface (the AI issue
    adds a process-based one).
    """

    local_human = False

    def __init__(self, player: Player, label: str = "", min_delay: float = 0.35,
                 thinker: "ThinkerLike | None" = None) -> None:
        self.player = player
        self.label = label
        #: The computer level's key, if known (the view then names the level in the current language).
        self.level: str | None = None
        self.min_delay = min_delay
        self.thinker: ThinkerLike = thinker if thinker is not None else Thinker(player)
        self._waited = 0.0
        self._ready: Move | None = None
        self._position: tuple[object, ...] | None = None

    def begin_turn(self, state: State) -> None:
        self._waited = 0.0
        self._ready = None
        self._position = position_key(state)
        self.thinker.start(state)

    def poll(self, state: State, dt: float) -> Move | None:
        if position_key(state) != self._position:  # taken back (undo) or changed: think about this one
            self.begin_turn(state)
        self._waited += dt
        if self._ready is None:
            self._ready = self.thinker.poll()
        if self._ready is not None and self._waited >= self.min_delay:
            move, self._ready = self._ready, None
            return move
        return None

    def cancel(self) -> None:
        """Forget the move being thought about (the position changed under it, e.g. an undo)."""
        self.thinker.cancel()
        self._ready = None

    def close(self) -> None:
        self.thinker.close()


class ChanceSource(Protocol):
    """Supplies a draw's card: ``outcome(state)`` returns one of ``state.chance_outcomes()``,
    or None while it is not known yet (e.g. the network coin is still being tossed)."""

    def outcome(self, state: State) -> Card | None: ...


class LocalChance:
    """Draws with the project's seeded :class:`Rng` (ruling 5: every card in the pile equally likely)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def outcome(self, state: State) -> Card | None:
        return self.rng.choice(state.chance_outcomes())


class Match:
    """One game in progress: state + controllers + chance source + hooks.

    ``controllers`` is indexed by colour (``controllers[Color.RED]``). The match
    applies moves only through :meth:`submit` (a local person's move, checked) and
    :meth:`update` (polls the controller to move). Raises ValueError from
    :meth:`update` if a non-human controller hands over an illegal move.
    """

    def __init__(self, state: State, controllers: tuple[Controller, Controller], chance: ChanceSource) -> None:
        self.state = state
        self.controllers = controllers
        self.chance = chance
        self.on_move: list[MoveHook] = []
        self._pending_draw: Move | None = None
        self._turn_begun_at = -1
        self._begin_turn()

    # ------------------------------------------------------------------ queries
    @property
    def to_move(self) -> Controller | None:
        """Controller of the colour to move, or None once the game is over."""
        return None if self.state.is_game_over() else self.controllers[self.state.turn]

    def human_to_move(self) -> bool:
        """Whether a local person may move now (their turn, no draw waiting for chance)."""
        ctl = self.to_move
        return ctl is not None and ctl.local_human and self._pending_draw is None

    def reason(self, move: Move) -> str | None:
        """Why ``move`` cannot be made now (engine wording), or None if it can.

        A draw may come without its card: chance supplies it.
        """
        if move.kind is DRAW and move.card is None:
            if move in self.state.legal_moves():
                return None
            if self.state.is_game_over():
                return "game already over"
            if move.player != self.state.turn:
                return f"wrong player to move: it is {self.state.turn}'s turn"
            return "hand full: a player may draw only with fewer than 5 cards"
        return self.state.illegal_reason(move)

    # ------------------------------------------------------------------ moving
    def submit(self, move: Move) -> str | None:
        """A local person's move. Returns the reason it is refused (nothing changes), or None once taken."""
        ctl = self.to_move
        if ctl is None:
            return "game already over"
        if not ctl.local_human or move.player != self.state.turn:
            return f"wrong player to move: it is {self.state.turn}'s turn"
        if self._pending_draw is not None:
            return "a draw is waiting for its card"
        reason = self.reason(move)
        if reason is None:
            self._take(move)
        return reason

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds: resolve a waiting draw, poll the controller to move."""
        if self.state.is_game_over():
            return
        if self._pending_draw is not None:
            self._take(self._pending_draw)
            return
        ctl = self.controllers[self.state.turn]
        move = ctl.poll(self.state, dt)
        if move is None:
            return
        reason = self.reason(move)
        if reason is not None:
            raise ValueError(f"{ctl.label or 'controller'} made an illegal move {move}: {reason}")
        self._take(move)

    def _take(self, move: Move) -> None:
        if move.kind is DRAW and move.card is None:
            card = self.chance.outcome(self.state)
            if card is None:
                self._pending_draw = move
                return
            move = move.with_outcome(card)
        self._pending_draw = None
        self.state.push_checked(move)
        for hook in list(self.on_move):
            hook(move, self.state)
        self._begin_turn()

    def _begin_turn(self) -> None:
        if self.state.is_game_over() or self._turn_begun_at == self.state.ply:
            return
        self._turn_begun_at = self.state.ply
        self.controllers[self.state.turn].begin_turn(self.state)

    def restart_turn(self) -> None:
        """Begin the turn of the player to move again after :attr:`state` changed under the
        match (an undo popped moves): forgets a waiting draw, cancels every controller's
        thinking (those with a ``cancel()``), then calls ``begin_turn`` of the one to move."""
        for ctl in self.controllers:
            cancel = getattr(ctl, "cancel", None)
            if cancel is not None:
                cancel()
        self._pending_draw = None
        self._turn_begun_at = -1
        self._begin_turn()

    def close(self) -> None:
        """Stop every controller (cancels computer thinking)."""
        for ctl in self.controllers:
            ctl.close()


def local_match(red: Controller, white: Controller, seed: int | None = None) -> Match:
    """A new game dealt and drawn with one :class:`Rng` seeded ``seed`` (None: random)."""
    rng = Rng(seed)
    return Match(State.random(rng), (red, white), LocalChance(rng))


__all__ = ["ChanceSource", "ComputerController", "Controller", "HumanController", "LocalChance", "Match",
           "MoveHook", "local_match", "position_key"]
