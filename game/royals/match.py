"""A Royals & Riots match at this machine, without pygame: who sits where, the state, chance,
and what each action did (:class:`Beat`) for the table to animate.

:class:`TableMatch` owns the :class:`~game.royals.engine.State` and a seeded
:class:`~game.rng.Rng` for the chance events (the deal, each pile's order, the card a
Thief takes unseen); :meth:`TableMatch.apply` pushes a decision checked, plays the chance
events that follow, and returns the :class:`Beat` list of everything that happened, in
order: cards played and drawn, a theft, an execution, a revolution starting or ending, the
trick going to its winner (and why), the round's scores, the end of the match.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.rng import Rng
from game.royals.explain import resolve
from game.royals.engine import (CARDS, DEAL, EXECUTE, KEEP, PLAY, START, STEAL, Action, Card, Phase, Rank,
                                State)

if TYPE_CHECKING:
    from game.royals.ai.players import Player
    from game.royals.engine.state import ChanceEvent

#: The levels a computer seat may have, weakest first (the engine's computer players).
LEVELS = ("random", "greedy", "easy", "medium", "hard")
#: Levels that think for a while (their search runs in a worker process).
SEARCH_LEVELS = ("medium", "hard")


@dataclass(frozen=True)
class Seat:
    """One seat: ``name`` (shown as typed), ``level`` None for a person at this machine."""

    name: str
    level: str | None = None

    @property
    def human(self) -> bool:
        return self.level is None


@dataclass
class TableConfig:
    """A new match's set-up: 2-4 seats in clockwise order, ``teams`` (4 seats: 1+3 against
    2+4), ``starter`` of round 1 (0: drawn at random), ``seed`` (None: a random deal),
    ``seconds`` the search levels' time per decision."""

    seats: list[Seat]
    teams: bool = False
    starter: int = 0
    seed: int | None = None
    seconds: float = 1.0

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats, 1) if s.human]


@dataclass
class Beat:
    """Something that happened at the table, for the scene to show.

    ``kind``: ``deal``, ``keep``, ``start``, ``play`` (``seat`` plays ``card``), ``draw``
    (``seat`` draws ``card`` from its pile), ``steal`` (``seat``'s Thief takes ``card`` from
    ``target``, who takes back ``back``), ``nosteal``, ``execute`` (``seat``'s Executioner
    removes ``card``), ``revolution`` / ``restore`` (the order turns / returns: ``seat`` played
    ``card``, the Rebels / the Prince), ``trick`` (``seat`` wins ``cards`` for ``reason``, a key
    of :data:`game.royals.explain.REASONS`),
    ``void`` (only rankless cards: ``cards`` leave the game), ``round`` (``scores`` of the
    round), ``over``.
    """

    kind: str
    seat: int = 0
    card: Card | None = None
    target: int = 0
    back: Card | None = None
    cards: tuple[tuple[int, Card], ...] = ()
    reason: str = ""
    scores: tuple[int, ...] = ()


@dataclass
class LastTrick:
    """The last finished trick, to view again: every card played (in order), the cards
    that counted, the winner (0: nobody) and why; the card the Thief's player (``thief``) took
    from ``robbed``'s hand, and the card the Executioner removed."""

    plays: tuple[tuple[int, Card], ...]
    kept: tuple[tuple[int, Card], ...]
    winner: int
    reason: str
    stolen: Card | None = None
    executed: Card | None = None
    thief: int = 0
    robbed: int = 0


@dataclass
class TableMatch:
    """The match, its seats and its chance. ``state`` is never pushed to from outside."""

    config: TableConfig
    state: State = field(init=False)
    rng: Rng = field(init=False)
    last_trick: LastTrick | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.state = State(len(self.config.seats), self.config.teams)
        self.rng = Rng(self.config.seed)
        #: Every chance outcome comes from this seed and the position (round, trick, seats), so an
        #: undone deal or theft brings the same cards again: undo cannot fish for hidden cards.
        self.chance_seed = self.config.seed if self.config.seed is not None else secrets.randbits(62)
        self._trick_notes: dict[str, Any] = {}
        self.beats_pending: list[Beat] = []
        #: How many actions of the history had happened when the person against the computers
        #: was last shown a card hidden from them before: another seat's card played, their own
        #: draw, a card the Thief took (:meth:`_shows_hidden`). An undo to before it is marked.
        self.shown_at = 0
        #: The match was played with an undo that crossed shown cards: it no longer counts in
        #: the statistics (kept in the save as ``undo_marked``).
        self.undo_marked = False

    @classmethod
    def resume(cls, config: TableConfig, state: State) -> "TableMatch":
        """The match of ``config`` at ``state`` (a save played on): the last trick is rebuilt
        from the history, so its review works at once."""
        m = cls(config)
        m.state = state
        m.last_trick = m.rebuild_last_trick()
        return m

    def rebuild_last_trick(self) -> "LastTrick | None":
        """The last finished trick of the state's history (None before the round's first trick
        ends): the history replayed on a fresh state, as :meth:`_beats` saw it then (a few
        hundred pushes, about a millisecond). Sets :attr:`shown_at` from the same replay."""
        again = TableMatch(self.config)
        again.state = State(self.state.players, self.state.teams)
        for a in self.state.history:
            again._push(a)
        self.shown_at = again.shown_at
        return again.last_trick

    @property
    def players(self) -> int:
        return self.state.players

    def name(self, seat: int) -> str:
        return self.config.seats[seat - 1].name

    def is_human(self, seat: int) -> bool:
        return self.config.seats[seat - 1].human

    # ---------------------------------------------------------------- whose decision
    def decider(self) -> int:
        """The seat whose decision is awaited (0 at chance and at the end). A team's choice of
        starter is made by a person of that team if it has one."""
        s = self.state
        if s.phase is Phase.START and s.to_act:
            members = s.starting_team_members()
            people = [m for m in members if self.is_human(m)]
            if s.to_act in people or not people:
                return s.to_act
            return people[0]
        if s.is_chance() or s.is_over():
            return 0
        return s.to_act

    def human_to_act(self) -> int:
        """The person whose decision is awaited, or 0."""
        d = self.decider()
        return d if d and self.is_human(d) else 0

    def computer_to_act(self) -> int:
        d = self.decider()
        return d if d and not self.is_human(d) else 0

    # ---------------------------------------------------------------- acting
    def advance(self) -> list[Beat]:
        """Play the chance events that are due (deal, piles, round 1's starter). Returns the beats."""
        beats: list[Beat] = []
        s = self.state
        while s.is_chance() and not s.is_over():
            event = s.chance()
            if event is None:
                break
            if event.kind is Phase.START and self.config.starter and s.round == 1:
                a = Action.start(self.config.starter)
            else:
                a = event.sample(self._chance_rng(event))
            beats += self._push(a)
        return beats

    def apply(self, action: Action) -> list[Beat]:
        """Push a decision (checked: raises IllegalMoveError), then the chance events it calls for."""
        reason = self.state.illegal_reason(action)
        if reason is not None:
            from game.royals.engine import IllegalMoveError
            raise IllegalMoveError(reason)
        beats = self._push(action)
        return beats + self.advance()

    def _chance_rng(self, event: "ChanceEvent") -> Rng:
        s = self.state
        key = (self.chance_seed, s.round, s.trick_no, event.kind.value, event.seat, event.target)
        text = ":".join(str(k) for k in key)
        seed = 0
        for ch in text.encode():
            seed = (seed * 1_000_003 + ch) % (1 << 63)
        return Rng(seed)

    # ---------------------------------------------------------------- undo (against computers)
    def undo_seat(self) -> int:
        """The one person of a match against computers (undo is offered then), else 0."""
        people = self.config.humans()
        return people[0] if len(people) == 1 else 0

    def can_undo(self) -> bool:
        """Whether the person has a decision to take back in this round: undo never crosses a
        deal (the new round's cards have been seen; taking back into the last round would show
        them and let a person replay the old round knowing them)."""
        h = self.undo_seat()
        if not h or self.state.is_over():
            return False
        history = self.state.history
        return any(_is_decision(a, h) for a in history[_last_deal(history) + 1:])

    def undo_shows(self) -> bool:
        """Whether the next undo goes back past a card shown to the person since their last
        decision (another seat's card, their own draw, the Thief's catch): they would replay
        it knowing that card, and the same cards come again (chance is seeded by the position).
        Such an undo marks the match (:attr:`undo_marked`); see :meth:`undo`."""
        h = self.undo_seat()
        if not self.can_undo():
            return False
        history = self.state.history
        last = max(i for i in range(len(history)) if _is_decision(history[i], h))
        return last < self.shown_at

    def undo(self) -> int:
        """Take back the person's last decision of this round and everything after it (never
        past the round's deal). Returns the number of actions taken back (0: nothing to undo).
        An undo past a card shown since that decision (:meth:`undo_shows`) marks the match as
        played with undo (:attr:`undo_marked`): it then no longer counts in the statistics."""
        h = self.undo_seat()
        if not self.can_undo():
            return 0
        if self.undo_shows():
            self.undo_marked = True
        n = 0
        while self.state.history:
            a = self.state.pop()
            n += 1
            if _is_decision(a, h):
                break
        self.last_trick = self.rebuild_last_trick()
        return n

    def _push(self, a: Action) -> list[Beat]:
        s = self.state
        pre = s.copy(stack=False)
        s.push(a)
        if self._shows_hidden(pre, a):
            self.shown_at = len(s.history)
        return self._beats(pre, a, s)

    def _shows_hidden(self, pre: State, a: Action) -> bool:
        """Whether action ``a`` at position ``pre`` shows the one person against the computers a
        card hidden from them until then: another seat plays a card from its hand, the person
        draws the top of their own pile, or the Thief's catch (chance) from another hand is shown."""
        h = self.undo_seat()
        if not h:
            return False
        if a.kind is PLAY:
            return a.seat != h or bool(pre.piles[h - 1])
        return a.kind is STEAL and a.card is not None and a.target != h

    def _beats(self, pre: State, a: Action, post: State) -> list[Beat]:
        k = a.kind
        out: list[Beat] = []
        trick = list(pre.trick)
        if k is DEAL:
            out.append(Beat("deal"))
            self.last_trick = None
        elif k is KEEP:
            out.append(Beat("keep", a.seat))
        elif k is START:
            out.append(Beat("start", a.seat))
        elif k is PLAY:
            assert a.card is not None
            out.append(Beat("play", a.seat, a.card))
            trick.append((a.seat, a.card.index))
            if len(post.piles[a.seat - 1]) < len(pre.piles[a.seat - 1]):
                drawn = pre.piles[a.seat - 1][-1]
                out.append(Beat("draw", a.seat, CARDS[drawn]))
            self._trick_notes = {} if not pre.trick_plays else self._trick_notes
        elif k is STEAL:
            if a.target is None:
                out.append(Beat("nosteal", a.seat))
            elif a.card is not None:
                back = next((c for s_, c in trick if s_ == a.target), None)
                trick = [(s_, c) for s_, c in trick if s_ != a.target]
                out.append(Beat("steal", a.seat, a.card, a.target, None if back is None else CARDS[back]))
                self._trick_notes["stolen"] = a.card
                self._trick_notes["robbery"] = (a.seat, a.target)
        elif k is EXECUTE:
            assert a.card is not None
            trick = [(s_, c) for s_, c in trick if c != a.card.index]
            out.append(Beat("execute", a.seat, a.card))
            self._trick_notes["executed"] = a.card
        finished = bool(pre.trick_plays or k is PLAY) and (not post.trick_plays) and k in (PLAY, STEAL, EXECUTE) \
            and post.phase is not Phase.STOLEN
        if finished:
            played = [(a.seat, a.card.index)] if k is PLAY and a.card is not None else []
            plays = tuple((s_, CARDS[c]) for s_, c in list(pre.trick_plays) + played)
            kept = tuple((s_, CARDS[c]) for s_, c in trick)
            led = None if pre.led < 0 else Rank(pre.led)
            res = resolve(kept, led, pre.revolution)
            if res.revolution != pre.revolution:  # who played the Rebels / the Prince that did it
                turn = next(((s_, c) for s_, c in kept if (c.is_rebels if res.revolution else c.is_prince)), (0, None))
                out.append(Beat("revolution" if res.revolution else "restore", turn[0], turn[1]))
            winner, reason = res.winner, res.reason
            out.append(Beat("trick" if winner else "void", winner, cards=kept, reason=reason))
            thief, robbed = self._trick_notes.get("robbery", (0, 0))
            self.last_trick = LastTrick(plays, kept, winner, reason, self._trick_notes.get("stolen"),
                                        self._trick_notes.get("executed"), thief, robbed)
            self._trick_notes = {}
            if post.round != pre.round or post.is_over():
                out.append(Beat("round", scores=post.round_scores[-1]))
            if post.is_over():
                out.append(Beat("over"))
        return out

    # ---------------------------------------------------------------- helpers for people
    def follow(self, new: State, limit: int) -> list[Beat]:
        """Make ``new``, a later state of the same match (say, a view that came from elsewhere),
        :attr:`state`. Returns the beats of the actions between the two, rebuilt by taking
        ``new``'s actions back; none when ``new`` is not ahead, is more than ``limit`` actions
        ahead, or has no history to take back (the table then shows it at once)."""
        old, gap = self.state, new.ply - self.state.ply
        states, cur = [new], new.copy()
        try:
            for _i in range(gap if 0 < gap <= limit else 0):
                cur.pop()
                states.append(cur.copy())
        except IndexError:
            states = [new]
        self.state = new
        if len(states) != gap + 1:
            return []
        states.reverse()
        return [b for i in range(gap) for b in self._beats(states[i], new.history[old.ply + i], states[i + 1])]

    def suggested_hand(self, seat: int) -> tuple[Card, ...]:
        """A sensible hand to keep from ``seat``'s dealt cards (the computer players' choice)."""
        from game.royals.ai.players import decide_keep
        return decide_keep(self.state.observation(seat)).cards


def _last_deal(history: list[Action]) -> int:
    """The index of the last deal in ``history`` (-1: none yet)."""
    for i in range(len(history) - 1, -1, -1):
        if history[i].kind is DEAL:
            return i
    return -1


def _is_decision(a: Action, seat: int) -> bool:
    if a.seat != seat:
        return False
    if a.kind is STEAL:
        return a.card is None
    return a.kind in (KEEP, PLAY, EXECUTE)


def computer_player(level: str, seed: int | None = None, seconds: float | None = 1.0) -> "Player":
    """The engine's computer player of ``level`` (``player.choose(observation) -> Action``)."""
    from game.royals.ai.levels import make_player
    return make_player(level, seed, seconds=seconds)


def choose_for(state: State, seat: int, player: "Player") -> Action:
    """``player``'s decision for ``seat`` now (from the seat's observation only)."""
    return player.choose(state.observation(seat))
