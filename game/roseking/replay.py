"""The replay model: a checked record, seekable to any ply, and a playback clock.

No pygame here: the replay viewer draws :attr:`Replay.state` and animates the
move of each :class:`PlyInfo` it is handed, the same way it animates live play.

As in boardgame.io's rewind, a position is the deal plus the move log replayed
up to it. To seek in constant time whatever the game's length, :class:`Replay`
keeps a snapshot of the state every ``snapshot_every`` plies and pushes the few
moves from the nearest one (unchecked: every move was checked once on load).
``bench/replay.py`` prints the seek times.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.roseking.engine import HERO, Color, Move, Outcome, Record, State, square_name
from game.i18n import _

#: Playback speeds offered by the viewer (0.5× to 4×).
SPEEDS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
MIN_SPEED, MAX_SPEED = SPEEDS[0], SPEEDS[-1]


@dataclass(frozen=True, slots=True)
class PlyInfo:
    """One move of the replay, for the move list and the animation.

    ``number``: the ply counted from 1 (the position after it is ply ``number``).
    ``crown_from``/``crown_to``: squares 0..80 (equal for a draw). ``flipped``: a
    hero card turned a stone. ``passed``: the colour that had to pass right after
    this move (ruling 6), else None. ``scores``: (red, white) after the move.
    ``stones_left``: stones in the supply after the move.
    """

    number: int
    move: Move
    crown_from: int
    crown_to: int
    passed: Color | None
    scores: tuple[int, int]
    stones_left: int

    @property
    def player(self) -> Color:
        return self.move.player

    @property
    def text(self) -> str:
        """Record notation: ``red play NE2``."""
        return str(self.move)

    @property
    def flipped(self) -> bool:
        return self.move.kind is HERO

    def notation(self) -> str:
        """Short move-list text: ``NE2 e5-g7``, ``hero W1 d4-c4``, ``draw S3`` (untranslated notation)."""
        card = str(self.move.card)
        if self.move.kind.value == "draw":
            return f"draw {card}"
        squares = f"{square_name(self.crown_from)}-{square_name(self.crown_to)}"
        return f"hero {card} {squares}" if self.flipped else f"{card} {squares}"

    def describe(self) -> str:
        """A player-readable sentence (translated), e.g. ``Red plays NE2 to g7.``"""
        who = _("Red") if self.player is Color.RED else _("White")
        card = str(self.move.card)
        to = square_name(self.crown_to)
        kind = self.move.kind.value
        if kind == "play":
            text = _("{player} plays {card} to {square}.").format(player=who, card=card, square=to)
        elif kind == "hero":
            text = _("{player} plays a hero card with {card}, turning the stone on {square}.").format(
                player=who, card=card, square=to)
        else:
            text = _("{player} draws {card}.").format(player=who, card=card)
        if self.passed is not None:
            text += " " + _("{player} has to pass.").format(
                player=_("Red") if self.passed is Color.RED else _("White"))
        return text


class Replay:
    """A record's game, checked once, with a cursor that seeks to any ply.

    ``record``: a :class:`~game.roseking.engine.Record`. Raises
    :class:`~game.roseking.engine.RecordError` (naming the bad move) if the record does not
    replay. ``snapshot_every``: plies between cached snapshots (>= 1).

    Attributes: ``moves`` (list of :class:`PlyInfo`, index ``i`` is ply ``i + 1``),
    ``scores`` (list of (red, white) for plies 0..``length``, for the chart),
    ``outcome`` (the final :class:`~game.roseking.engine.Outcome` or None for an
    unfinished game), ``ply`` and ``state`` (the cursor; read the state, do not
    push to it).

    >>> from game.roseking.engine import Record, Rng, State
    >>> s = State.random(Rng(2))
    >>> for text in ["red play N1", "white play E2", "red draw E1", "white draw N2"]: _m = s.push_str(text)
    >>> r = Replay(Record.from_state(s), snapshot_every=2)
    >>> r.length, r.seek(3).ply, r.step_back().number, r.ply
    (4, 3, 3, 2)
    """

    def __init__(self, record: Record, snapshot_every: int = 16) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be >= 1")
        self.record = record
        final = record.replay()  # checks every move and the result; raises RecordError
        self.final_state = final
        self.outcome: Outcome | None = final.outcome()
        self.snapshot_every = snapshot_every
        state = record.new_state()
        self._snapshots: list[State] = [state.copy()]
        self.scores: list[tuple[int, int]] = [state.scores()]
        self.moves: list[PlyInfo] = []
        for n, move in enumerate(final.move_stack, 1):
            before = state.crown
            state.push(move)
            sc = state.scores()
            self.scores.append(sc)
            self.moves.append(PlyInfo(n, move, before, state.crown,
                                      Color(state.turn).other if state.passed() else None,
                                      sc, state.stones_left))
            if n % snapshot_every == 0:
                self._snapshots.append(state.copy())
        self.ply = 0
        self.state: State = self._snapshots[0].copy()

    @classmethod
    def from_json(cls, text: str | bytes, snapshot_every: int = 16) -> "Replay":
        """Build from record JSON. Raises RecordError."""
        return cls(Record.from_json(text), snapshot_every)

    @property
    def length(self) -> int:
        """Number of plies (moves) in the record."""
        return len(self.moves)

    def at_start(self) -> bool:
        return self.ply == 0

    def at_end(self) -> bool:
        return self.ply == self.length

    # ------------------------------------------------------------------ seeking
    def state_at(self, ply: int) -> State:
        """A fresh copy of the position after ``ply`` moves (0..length), with its
        move stack. Raises IndexError out of range. The cursor does not move."""
        if not 0 <= ply <= self.length:
            raise IndexError(f"ply {ply} out of range 0..{self.length}")
        k = ply // self.snapshot_every
        state = self._snapshots[k].copy()
        for info in self.moves[k * self.snapshot_every:ply]:
            state.push(info.move)
        return state

    def seek(self, ply: int) -> State:
        """Move the cursor to ``ply`` (clamped to 0..length); returns :attr:`state`.

        Costs at most ``snapshot_every`` pushes or pops plus one snapshot copy.
        """
        ply = max(0, min(self.length, ply))
        delta = ply - self.ply
        if 0 <= delta < self.snapshot_every:
            for info in self.moves[self.ply:ply]:
                self.state.push(info.move)
        elif -self.snapshot_every < delta < 0:
            for _i in range(-delta):
                self.state.pop()
        else:
            self.state = self.state_at(ply)
        self.ply = ply
        return self.state

    def step_forward(self) -> PlyInfo | None:
        """Play the next move; returns its info (to animate), or None at the end."""
        if self.at_end():
            return None
        info = self.moves[self.ply]
        self.state.push(info.move)
        self.ply += 1
        return info

    def step_back(self) -> PlyInfo | None:
        """Take back the last move; returns the info of the move taken back, or None at the start."""
        if self.at_start():
            return None
        info = self.moves[self.ply - 1]
        self.seek(self.ply - 1)
        return info

    def to_start(self) -> State:
        return self.seek(0)

    def to_end(self) -> State:
        return self.seek(self.length)

    def current(self) -> PlyInfo | None:
        """The move that led to the cursor's position (the move list's highlight), or None at ply 0."""
        return self.moves[self.ply - 1] if self.ply else None

    def passes(self) -> list[PlyInfo]:
        """The moves after which the opponent had to pass (for marks on the timeline)."""
        return [m for m in self.moves if m.passed is not None]


class Playback:
    """Play/pause and speed for a :class:`Replay`, advanced by the frame loop.

    ``seconds_per_ply``: time one move takes at 1× (the viewer's animation
    length plus a pause). ``update(dt)`` (``dt`` in seconds) returns the plies
    stepped forward this frame, in order, for the viewer to animate; playback
    pauses by itself at the end. Speeds are clamped to 0.5×..4×.

    >>> from game.roseking.engine import Record, Rng, State
    >>> s = State.random(Rng(2)); s.push(s.legal_moves()[0]); s.push(s.legal_moves()[0])
    >>> p = Playback(Replay(Record.from_state(s)), seconds_per_ply=1.0)
    >>> p.play(); speed = p.set_speed(2.0); [i.number for i in p.update(0.5)], [i.number for i in p.update(0.6)]
    ([1], [2])
    >>> p.playing
    False
    """

    def __init__(self, replay: Replay, seconds_per_ply: float = 0.8) -> None:
        if seconds_per_ply <= 0:
            raise ValueError("seconds_per_ply must be > 0")
        self.replay = replay
        self.seconds_per_ply = seconds_per_ply
        self.playing = False
        self.speed = 1.0
        self._clock = 0.0

    def play(self) -> None:
        """Start playing (from the start again if the cursor is at the end)."""
        if self.replay.at_end():
            self.replay.to_start()
        self.playing = True
        self._clock = 0.0

    def pause(self) -> None:
        self.playing = False

    def toggle(self) -> None:
        """Space bar: play or pause."""
        if self.playing:
            self.pause()
        else:
            self.play()

    def set_speed(self, speed: float) -> float:
        """Set the speed factor, clamped to 0.5..4; returns the speed set."""
        self.speed = max(MIN_SPEED, min(MAX_SPEED, float(speed)))
        return self.speed

    def faster(self) -> float:
        """The next speed of :data:`SPEEDS` above the current one (stays at 4×)."""
        return self.set_speed(next((s for s in SPEEDS if s > self.speed), MAX_SPEED))

    def slower(self) -> float:
        """The next speed of :data:`SPEEDS` below the current one (stays at 0.5×)."""
        return self.set_speed(next((s for s in reversed(SPEEDS) if s < self.speed), MIN_SPEED))

    def seek(self, ply: int) -> State:
        """Jump (timeline drag, move-list click, Home/End); the clock restarts for the next move."""
        self._clock = 0.0
        return self.replay.seek(ply)

    def update(self, dt: float) -> list[PlyInfo]:
        """Advance the clock by ``dt`` seconds; returns the plies stepped (usually 0 or 1)."""
        if not self.playing:
            return []
        self._clock += dt * self.speed
        stepped = []
        while self._clock >= self.seconds_per_ply:
            self._clock -= self.seconds_per_ply
            info = self.replay.step_forward()
            if info is None:
                break
            stepped.append(info)
        if self.replay.at_end():
            self.playing = False
            self._clock = 0.0
        return stepped
