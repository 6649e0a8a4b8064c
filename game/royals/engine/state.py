"""The Royals & Riots match state: phases, legal actions, push/pop, observations.

``State`` follows python-chess and OpenSpiel (see the package docstring for a tour):
:meth:`State.push` is the fast unchecked entry point (for search), :meth:`State.push_checked`
and :meth:`State.push_str` raise :class:`IllegalMoveError` saying which rule an action
breaks, :meth:`State.pop` takes an action back, and :attr:`State.history` is the match's
action list, chance outcomes included.

Chance is explicit: the state never draws a random number. :meth:`State.chance` names the
pending chance event (the round-1 starter, the deal, a draw pile's order, the card a
Thief takes unseen) and the caller supplies the outcome (a seeded :class:`~game.rng.Rng`,
later the network's joint coin, or a record).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from itertools import combinations
from operator import or_
from typing import Any, Iterable, Sequence

import game.royals.engine.kernel as K
from game.errors import Reason
from game.rng import Rng

from game.errors import IllegalMoveError, InvalidMoveError

from .actions import DEAL, EXECUTE, KEEP, PILE, PLAY, START, STEAL, Action
from .cards import ALL_CARDS_MASK, CARDS, EXECUTIONER, Card, Rank, bits_of, cards_of, iter_bits
from .kernel import Phase, reason

#: Players -> (cards dealt to each seat, cards kept in hand, cards set aside) (ruling 4).
SETUP: dict[int, tuple[int, int, int]] = {2: (14, 7, 8), 3: (12, 6, 0), 4: (9, 5, 0)}
ROUNDS = 3  # ruling 10


CHANCE_PHASES = frozenset({Phase.DEAL, Phase.PILE, Phase.STOLEN})


@dataclass(frozen=True)
class ChanceEvent:
    """A pending chance event. Every outcome is equally likely.

    - ``kind``: START (round 1's starter), DEAL, PILE (the order of ``seat``'s pile) or
      STOLEN (the card the Thief of ``seat`` takes from ``target``'s hand).
    - ``cards``: what chance arranges or picks from (DEAL: all 36; PILE: the pile's cards;
      STOLEN: the robbed hand), canonical order.
    """

    kind: Phase
    players: int
    seat: int = 0
    target: int = 0
    cards: tuple[Card, ...] = ()

    def outcomes(self) -> list[Action] | None:
        """Every outcome, for the small events (START: each seat; STOLEN: each card of the
        hand); None for DEAL and PILE (too many: sample them, or take them from a record)."""
        if self.kind is Phase.START:
            return [Action.start(s) for s in range(1, self.players + 1)]
        if self.kind is Phase.STOLEN:
            return [Action.steal(self.seat, self.target, c) for c in self.cards]
        return None

    def sample(self, rng: Rng) -> Action:
        """One outcome drawn uniformly with ``rng`` (shuffles use :meth:`Rng.shuffle`)."""
        outs = self.outcomes()
        if outs is not None:
            return outs[rng.randbelow(len(outs))]
        cards = list(self.cards)
        rng.shuffle(cards)
        if self.kind is Phase.PILE:
            return Action.pile(self.seat, cards)
        dealt, _, aside = SETUP[self.players]
        groups = [cards[i * dealt:(i + 1) * dealt] for i in range(self.players)]
        groups.append(cards[self.players * dealt:self.players * dealt + aside])
        return Action.deal(groups)


@dataclass(frozen=True)
class Outcome:
    """The result of a finished match (ruling 10).

    ``scores``: total points per seat (index 0 = seat 1); ``rounds``: the round scores;
    ``team_scores``: (seats 1+3, seats 2+4) or None; ``winners``: the winning seats
    (several on equal totals; with teams, the seats of the winning team, all four on a tie).
    """

    scores: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...]
    team_scores: tuple[int, int] | None
    winners: tuple[int, ...]

    def result(self) -> dict[str, Any]:
        """The record's ``result`` object (docs/royals-record-format.md)."""
        d: dict[str, Any] = {"scores": list(self.scores), "winners": list(self.winners)}
        if self.team_scores is not None:
            d["teams"] = list(self.team_scores)
        return d


@dataclass(frozen=True)
class Observation:
    """Exactly what ``seat`` knows (its information state); never another hand, pile or pile order.

    Sequences per seat have index 0 = seat 1. Cards are in canonical order unless said.

    - ``dealt``: the cards this seat was dealt this round; ``hand``; ``pile``: its own pile's
      contents (never the order).
    - ``hand_sizes``, ``pile_sizes``: everyone's counts; ``aside``: how many cards lie aside unseen.
    - ``known``: per seat, cards everyone knows are in that hand (a card the Thief's victim took back).
    - ``trick``: ``(seat, card)`` still in the trick, in play order; ``trick_plays``: every card
      played into this trick, in order (cards taken back included); ``led``: the led rank.
    - ``loot``: per seat, the cards of its loot (every one was seen going there);
      ``removed``: cards that left the game this round.
    - ``voids``: ``(seat, rank, trick, pile)``: that seat showed it held no card of ``rank`` when
      it did not follow in trick ``trick`` of this round, with ``pile`` cards left in its pile
      then (so it has drawn ``pile - pile_sizes[seat - 1]`` cards since).
    - ``round_scores``: finished rounds; ``scores``: totals so far (A3).
    - ``steal_target``: the robbed seat while chance picks the Thief's card, else 0.
    """

    seat: int
    players: int
    teams: bool
    round: int
    phase: Phase
    to_act: int
    starter: int
    leader: int
    trick_no: int
    revolution: bool
    dealt: tuple[Card, ...]
    hand: tuple[Card, ...]
    pile: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    aside: int
    known: tuple[tuple[Card, ...], ...]
    trick: tuple[tuple[int, Card], ...]
    trick_plays: tuple[tuple[int, Card], ...]
    led: Rank | None
    loot: tuple[tuple[Card, ...], ...]
    removed: tuple[Card, ...]
    voids: tuple[tuple[int, Rank, int, int], ...]
    round_scores: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    steal_target: int

    def legal_actions(self) -> list[Action]:
        """The decisions open to ``seat`` when it is ``to_act`` (the same list as
        :meth:`State.legal_actions`, by the same rules of :mod:`.kernel`, from what the seat
        knows); else empty."""
        if self.to_act != self.seat:
            return []
        s, p = self.seat, self.phase
        if p is Phase.PLAY:
            hand = 0
            for c in self.hand:
                hand |= 1 << c.index
            led = -1 if self.led is None else int(self.led)
            return [Action(PLAY, s, card=CARDS[c]) for c in iter_bits(K.playable(hand, led, bool(self.trick_plays)))]
        if p is Phase.STEAL:
            return [Action(STEAL, s)] + [Action(STEAL, s, target=t) for t in K.steal_targets(s, self.hand_sizes)]
        if p is Phase.EXECUTE:
            return [Action(EXECUTE, s, card=CARDS[c]) for c in K.victims([(x, c.index) for x, c in self.trick])]
        if p is Phase.KEEP:
            return [Action(KEEP, s, cards=combo) for combo in combinations(self.dealt, SETUP[self.players][1])]
        if p is Phase.START:
            return [Action(START, m) for m in range(1, 5) if team_of(m) == team_of(s)]
        return []


def team_of(seat: int) -> int:
    """0 for seats 1 and 3, 1 for seats 2 and 4 (ruling 10)."""
    return (seat - 1) % 2


_FIELDS = ("players", "teams", "round", "phase", "to_act", "starter", "leader", "trick_no", "dealt", "aside",
           "kept", "hands", "piles", "loot", "removed", "trick", "trick_plays", "led", "revolution", "pending",
           "known", "voids", "round_scores", "history")


class State:
    """A Royals & Riots match: 2-4 seats, 3 rounds, with its action history.

    Public attributes (read them; change them only through push/pop). Per-seat lists have
    index 0 = seat 1; cards are indices 0..35 and card sets 36-bit masks (see
    :mod:`.cards`):

    - ``players`` (2-4), ``teams`` (seats 1+3 against 2+4), ``round`` (1-3), ``phase``
    - ``to_act``: the seat whose decision is awaited, 0 at chance events and at the end
    - ``starter``: who leads the round's first trick; ``leader``: who leads the current trick
    - ``trick_no``: the current trick of the round, from 1
    - ``dealt``/``kept``: per seat, the dealt cards and the chosen hand (masks); ``aside``: mask
    - ``hands``: masks; ``piles``: lists of card indices, the *top last*; ``loot``: masks
    - ``removed``: cards out of the game this round (executed, all-rankless tricks)
    - ``trick``: ``[(seat, card), ...]`` still in the trick; ``trick_plays``: all played into it
    - ``led``: the led rank or -1; ``revolution``: the order is reversed (ruling 7)
    - ``pending``: the seat whose pile is awaited (PILE), the robbed seat (STOLEN), else 0
    - ``known``: per seat, cards known to all to be in that hand (taken back after a theft)
    - ``voids``: ``[(seat, rank, trick_no, pile left), ...]`` this round (not following shows a void)
    - ``round_scores``: one tuple per finished round
    - ``history``: the actions pushed so far
    """

    __slots__ = _FIELDS + ("_undo", "track")

    def __init__(self, players: int = 3, teams: bool = False) -> None:
        """A new match before round 1's chance events. Raises ValueError for a bad seat count
        or teams without 4 players (ruling 10)."""
        if players not in SETUP:
            raise ValueError(f"Royals & Riots takes 2 to 4 players, not {players!r}")
        if teams and players != 4:
            raise ValueError("teams need 4 players")
        self.players = players
        self.teams = bool(teams)
        self.round = 1
        self.round_scores: list[tuple[int, ...]] = []
        self.history: list[Action] = []
        self.track = True
        self._new_round(0)
        self._undo: list[tuple[int, tuple[Any, ...]]] = [(0, self._snapshot())]

    def _new_round(self, starter: int) -> None:
        n = self.players
        self.phase = Phase.START if starter == 0 else Phase.DEAL
        self.to_act = 0
        self.starter = starter
        self.leader = starter
        self.trick_no = 1
        self.dealt = [0] * n
        self.aside = 0
        self.kept = [0] * n
        self.hands = [0] * n
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.loot = [0] * n
        self.removed = 0
        self.trick: list[tuple[int, int]] = []
        self.trick_plays: list[tuple[int, int]] = []
        self.led = -1
        self.revolution = False
        self.pending = 0
        self.known = [0] * n
        self.voids: list[tuple[int, int, int, int]] = []

    @classmethod
    def from_position(cls, players: int, hands: dict[int, Iterable[str]], piles: dict[int, Iterable[str]] | None = None,
                      *, leader: int = 1, revolution: bool = False, teams: bool = False, round: int = 1,
                      round_scores: Sequence[Sequence[int]] = (), loot: dict[int, Iterable[str]] | None = None
                      ) -> "State":
        """A custom position at the start of a trick (for tests, puzzles and tutorials); no history.

        ``hands``/``piles``/``loot``: seat -> card names (piles top first); cards placed nowhere
        count as set aside. Raises ValueError for a card listed twice, unequal hand or pile
        sizes (ruling 5 keeps them equal), empty hands, or a bad seat.
        """
        s = cls(players, teams)
        piles = piles or {}
        loot = loot or {}
        seen = 0
        pile_lists: list[list[int]] = [[] for _ in range(players)]
        hand_masks, loot_masks = [0] * players, [0] * players
        for what, src in (("hand", hands), ("pile", piles), ("loot", loot)):
            for seat, names in src.items():
                if not 1 <= seat <= players:
                    raise ValueError(f"unknown seat {seat}")
                for name in names:
                    c = Card.from_name(name).index
                    if (seen >> c) & 1:
                        raise ValueError(f"{name} is listed twice")
                    seen |= 1 << c
                    if what == "hand":
                        hand_masks[seat - 1] |= 1 << c
                    elif what == "pile":
                        pile_lists[seat - 1].insert(0, c)
                    else:
                        loot_masks[seat - 1] |= 1 << c
        if len({h.bit_count() for h in hand_masks}) != 1 or not hand_masks[0]:
            raise ValueError("every seat must hold the same number of cards, at least one")
        if len({len(p) for p in pile_lists}) != 1:
            raise ValueError("every draw pile must hold the same number of cards")
        s.round = round
        s.round_scores = [tuple(r) for r in round_scores]
        s.phase = Phase.PLAY
        s.starter = s.leader = s.to_act = leader
        s.hands = hand_masks
        s.kept = hand_masks[:]
        s.piles = pile_lists
        s.dealt = [h | sum(1 << c for c in p) for h, p in zip(hand_masks, pile_lists)]
        s.loot = loot_masks
        s.aside = ALL_CARDS_MASK & ~seen
        s.revolution = revolution
        s._undo = [(0, s._snapshot())]
        return s

    # ------------------------------------------------------------------ copying
    def _snapshot(self) -> tuple[Any, ...]:
        return (self.round, self.phase, self.to_act, self.starter, self.leader, self.trick_no, self.dealt[:],
                self.aside, self.kept[:], self.hands[:], [p[:] for p in self.piles], self.loot[:], self.removed,
                self.trick[:], self.trick_plays[:], self.led, self.revolution, self.pending, self.known[:],
                self.voids[:], self.round_scores[:])

    def _restore(self, snap: tuple[Any, ...], fresh: bool = False) -> None:
        """Set every field from a snapshot; its lists are copied unless ``fresh`` (owned by nobody else)."""
        if not fresh:
            snap = (*snap[:6], snap[6][:], snap[7], snap[8][:], snap[9][:], [p[:] for p in snap[10]], snap[11][:],
                    snap[12], snap[13][:], snap[14][:], *snap[15:18], snap[18][:], snap[19][:], snap[20][:])
        (self.round, self.phase, self.to_act, self.starter, self.leader, self.trick_no, self.dealt, self.aside,
         self.kept, self.hands, self.piles, self.loot, self.removed, self.trick, self.trick_plays, self.led,
         self.revolution, self.pending, self.known, self.voids, self.round_scores) = snap

    def copy(self, stack: bool = True) -> "State":
        """An independent copy. ``stack=False`` (for search) drops the history and the round
        checkpoints and stops recording them: the copy can push but not pop."""
        s = State.__new__(State)
        s.players = self.players
        s.teams = self.teams
        s._restore(self._snapshot(), fresh=True)
        s.history = self.history[:] if stack else []
        s._undo = self._undo[:] if stack else []
        s.track = self.track if stack else False
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.players, self.teams, self._snapshot(), self.history) == \
            (other.players, other.teams, other._snapshot(), other.history)

    # unhashable (mutable): a class that defines __eq__ and no __hash__ gets __hash__ = None

    # ------------------------------------------------------------------ queries
    @property
    def ply(self) -> int:
        """Actions pushed so far (chance outcomes included)."""
        return len(self.history)

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def is_chance(self) -> bool:
        """True when the next action is a chance outcome (see :meth:`chance`)."""
        return self.phase in CHANCE_PHASES or (self.phase is Phase.START and not self.to_act)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self.hands[seat - 1])

    def pile(self, seat: int) -> tuple[Card, ...]:
        """Seat's draw pile, top first (hidden information: the state knows the order, no seat does)."""
        return tuple(CARDS[i] for i in reversed(self.piles[seat - 1]))

    def hand_size(self) -> int:
        """Cards a seat keeps in hand at set-up (7, 6 or 5; ruling 4)."""
        return SETUP[self.players][1]

    def round_points(self) -> tuple[int, ...]:
        """Points in each loot of the current round (ruling 8)."""
        return tuple(_points(m) for m in self.loot)

    def scores(self) -> tuple[int, ...]:
        """Match totals per seat: finished rounds plus the open round's loots (A3)."""
        tot = [0] * self.players
        for rs in self.round_scores:
            for i, v in enumerate(rs):
                tot[i] += v
        if self.phase is not Phase.OVER and self.phase not in (Phase.START, Phase.DEAL):
            for i, v in enumerate(self.round_points()):
                tot[i] += v
        return tuple(tot)

    def team_scores(self) -> tuple[int, int] | None:
        if not self.teams:
            return None
        s = self.scores()
        return (s[0] + s[2], s[1] + s[3])

    def outcome(self) -> Outcome | None:
        """The match result once it is over (ruling 10), else None."""
        if self.phase is not Phase.OVER:
            return None
        scores = self.scores()
        teams = self.team_scores()
        if teams is not None:
            best = max(teams)
            winners = tuple(s for s in range(1, 5) if teams[team_of(s)] == best)
        else:
            best = max(scores)
            winners = tuple(s for s in range(1, self.players + 1) if scores[s - 1] == best)
        return Outcome(scores, tuple(self.round_scores), teams, winners)

    def chance(self) -> ChanceEvent | None:
        """The pending chance event, or None when a seat is to decide (or the match is over)."""
        p = self.phase
        if p is Phase.START and not self.to_act:
            return ChanceEvent(Phase.START, self.players)
        if p is Phase.DEAL:
            return ChanceEvent(Phase.DEAL, self.players, cards=CARDS)
        if p is Phase.PILE:
            s = self.pending
            return ChanceEvent(Phase.PILE, self.players, seat=s,
                               cards=cards_of(self.dealt[s - 1] & ~self.kept[s - 1]))
        if p is Phase.STOLEN:
            return ChanceEvent(Phase.STOLEN, self.players, seat=self.to_act, target=self.pending,
                               cards=cards_of(self.hands[self.pending - 1]))
        return None

    def starting_team_members(self) -> tuple[int, ...]:
        """In a team round's START decision, the seats the starting team may choose from."""
        if self.phase is not Phase.START or not self.to_act:
            return ()
        return tuple(s for s in range(1, 5) if team_of(s) == team_of(self.to_act))

    def legal_plays(self) -> int:
        """Mask of the cards the seat to play may play (rulings 5, 6); 0 outside PLAY."""
        if self.phase is not Phase.PLAY:
            return 0
        return K.playable(self.hands[self.to_act - 1], self.led, bool(self.trick_plays))

    def legal_actions(self) -> list[Action]:
        """Every legal decision of ``to_act`` (empty at chance events and at the end).

        STEAL decisions come without their card (the chance outcome that follows).
        KEEP lists every hand choice (up to 3432 with 2 players).
        """
        p = self.phase
        s = self.to_act
        if p is Phase.PLAY or p is Phase.STEAL or p is Phase.EXECUTE:
            return [key_action(s, k) for k in K.decision_keys(self)]
        if p is Phase.KEEP:
            dealt = cards_of(self.dealt[s - 1])
            return [Action(KEEP, s, cards=combo) for combo in combinations(dealt, self.hand_size())]
        if p is Phase.START and s:
            return [Action(START, m) for m in self.starting_team_members()]
        return []

    # ------------------------------------------------------------------ checking
    def illegal_reason(self, a: Action) -> Reason | None:
        """Why action ``a`` is not allowed now, or None if it is: a :class:`game.errors.Reason`
        (the English text, with ``code`` and ``params``; the codes are in :data:`.kernel.TEXTS`)."""
        p = self.phase
        k = a.kind
        n = self.players
        if p is Phase.OVER:
            return reason("over")
        if not 0 <= a.seat <= n or (a.seat == 0 and k is not DEAL):
            return reason("unknown_seat")
        if k is STEAL and a.target is not None and not 1 <= a.target <= n:
            return reason("unknown_seat")
        if p is Phase.STEAL or p is Phase.STOLEN:
            if k is not STEAL:
                return reason("thief_first")
        elif p is Phase.EXECUTE:
            if k is not EXECUTE:
                return reason("executioner_first")
        elif p is Phase.PLAY:
            if k is STEAL:
                return reason("no_thief")
            if k is EXECUTE:
                return reason("no_executioner")
            if k is not PLAY:
                return reason("setup_in_play", kind=k.value)
        elif p is Phase.START:
            if k is not START:
                return reason("starter_first")
            if self.to_act and a.seat not in self.starting_team_members():
                return reason("wrong_starter", seat=self.to_act)
            return None
        elif p is Phase.DEAL:
            if k is not DEAL:
                return reason("deal_first")
            return self._deal_reason(a)
        elif p is Phase.KEEP:
            if k is not KEEP:
                return reason("keep_first")
        elif p is Phase.PILE:
            if k is not PILE:
                return reason("piles_first")
        if a.seat != self.to_act and not (p is Phase.PILE and a.seat == self.pending):
            if p is Phase.PILE:
                return reason("wrong_seat", seat=self.pending)
            return reason("wrong_seat_play" if p is Phase.PLAY else "wrong_seat", seat=self.to_act)
        if k is PLAY:
            card = a.card
            assert card is not None  # (a play names its card)
            return K.play_refusal(self.hands[a.seat - 1], self.led, bool(self.trick_plays), card.index)
        if k is STEAL:
            t = a.target
            if t is None:
                return None if p is Phase.STEAL else reason("thief_chose")
            if p is Phase.STOLEN and t != self.pending:
                return reason("thief_chose_seat", seat=self.pending)
            if t == a.seat:
                return reason("steal_self")
            if t not in K.steal_targets(a.seat, self.hands):
                return reason("target_empty")
            if a.card is not None and not (self.hands[t - 1] >> a.card.index) & 1:
                return reason("not_in_that_hand")
            return None
        if k is EXECUTE:
            card = a.card
            assert card is not None  # (an execution names its victim)
            c = card.index
            if c == EXECUTIONER:
                return reason("execute_itself")
            if c not in K.victims(self.trick):
                return reason("not_in_trick")
            return None
        if k is KEEP:
            return keep_refusal(self.dealt[a.seat - 1], bits_of(a.cards), len(a.cards), self.hand_size())
        if k is PILE:
            return pile_refusal(self.dealt[a.seat - 1] & ~self.kept[a.seat - 1], bits_of(a.cards), len(a.cards))
        return reason("unexpected", kind=k.value)

    def _deal_reason(self, a: Action) -> Reason | None:
        return deal_refusal(self.players, [[c.index for c in g] for g in a.groups])

    def is_legal(self, a: Action) -> bool:
        return self.illegal_reason(a) is None

    # ------------------------------------------------------------------ pushing
    def push_checked(self, a: Action) -> None:
        """Push ``a`` after checking it. Raises :class:`IllegalMoveError` with the reason."""
        reason = self.illegal_reason(a)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.push(a)

    def push_str(self, text: str) -> Action:
        """Parse and push checked. Raises InvalidMoveError or IllegalMoveError."""
        a = Action.from_str(text)
        self.push_checked(a)
        return a

    def pop(self) -> Action:
        """Take the last action back: the position is rebuilt from the round's checkpoint by
        replaying the action log (pushes record nothing else). Raises IndexError if there is
        no action to take back (or after copy(stack=False))."""
        if not self.history or not self.track:
            raise IndexError("no action to take back")
        last = self.history.pop()
        n = len(self.history)
        while len(self._undo) > 1 and self._undo[-1][0] > n:
            self._undo.pop()
        ply, snap = self._undo[-1]
        self._restore(snap)
        self.track = False
        try:
            for a in self.history[ply:]:
                self.push(a)
        finally:
            self.track = True
        return last

    def push(self, a: Action) -> None:
        """Apply ``a`` WITHOUT checking it (the fast entry point; see :meth:`push_checked`)."""
        k = a.kind
        if k is PLAY:
            card = a.card
            assert card is not None  # (a play names its card)
            K.play(self, a.seat, card.index)
        elif k is STEAL:
            if a.target is None:
                K.after_thief(self)
            elif a.card is None:
                K.choose_target(self, a.target)
            else:
                K.steal(self, a.seat, a.target, a.card.index)
        elif k is EXECUTE:
            card = a.card
            assert card is not None  # (an execution names its victim)
            K.execute(self, card.index)
        elif k is KEEP:
            self._keep(a.seat, bits_of(a.cards))
        elif k is PILE:
            self._pile(a.seat, [c.index for c in a.cards])
        elif k is DEAL:
            self._deal([bits_of(g) for g in a.groups])
        elif k is START:
            self.starter = self.leader = a.seat
            self.phase = Phase.DEAL
            self.to_act = 0
        if self.track:
            self.history.append(a)
            if self.trick_no == 1 and (self.phase is Phase.START or (self.phase is Phase.DEAL and k is not START)):
                self._undo.append((len(self.history), self._snapshot()))  # a new round: its checkpoint

    def _logged(self, plays: Sequence[Action]) -> None:
        """Record ``plays``, already applied by the kernel (``kernel.replay_plays``), in the
        history as :meth:`push` would (a round they ended gets its checkpoint)."""
        if self.track and plays:
            self.history += plays
            if self.trick_no == 1 and (self.phase is Phase.START or self.phase is Phase.DEAL):
                self._undo.append((len(self.history), self._snapshot()))

    # The fast internal steps (cards and seats as ints); search may call them directly.
    def _deal(self, groups: Sequence[int]) -> None:
        n = self.players
        self.dealt = list(groups[:n])
        self.aside = groups[n] if len(groups) > n else 0
        self.phase = Phase.KEEP
        self.to_act = 1

    def _keep(self, seat: int, mask: int) -> None:
        self.kept[seat - 1] = mask
        self.hands[seat - 1] = mask
        if seat < self.players:
            self.to_act = seat + 1
        else:
            self.phase = Phase.PILE
            self.to_act = 0
            self.pending = 1

    def _pile(self, seat: int, order_top_first: list[int]) -> None:
        self.piles[seat - 1] = order_top_first[::-1]
        if seat < self.players:
            self.pending = seat + 1
        else:
            self.pending = 0
            self.phase = Phase.PLAY
            self.leader = self.starter
            self.to_act = self.starter

    # The rules of the trick live in :mod:`.kernel`; these names stay for callers of the old steps.
    def _play(self, seat: int, c: int) -> None:
        K.play(self, seat, c)

    def _steal(self, seat: int, target: int, c: int) -> None:
        K.steal(self, seat, target, c)

    def _after_thief(self) -> None:
        K.after_thief(self)

    def _execute(self, c: int) -> None:
        K.execute(self, c)

    def _end_round(self) -> None:
        scores = self.round_points()
        self.round_scores.append(scores)
        if self.round >= ROUNDS:
            self.phase = Phase.OVER
            self.to_act = 0
            self.trick_no = 1
            return
        prev = self.starter
        self.round += 1
        if self.teams:
            team = _starting_team(scores, prev)
            self._new_round(0)
            self.to_act = _team_pick(scores, prev, team)  # the team decides; to_act is a computer's pick
        else:
            self._new_round(_lowest_scorer(scores, prev))

    def next_starter(self) -> int:
        """Who leads the next round's first trick (for a team: the member a computer team
        picks), by ruling 9 and A1; 0 in round 1 before its starter is drawn."""
        if self.phase is Phase.START:
            return self.to_act
        return self.starter

    # ------------------------------------------------------------------ observation
    def observation(self, seat: int) -> Observation:
        """What ``seat`` (1..players) knows; see :class:`Observation`. Raises ValueError for a bad seat."""
        if not 1 <= seat <= self.players:
            raise ValueError(f"unknown seat {seat}")
        i = seat - 1
        if self.phase is Phase.KEEP or self.phase is Phase.PILE:
            own_pile = self.dealt[i] & ~self.kept[i] if self.kept[i] else 0
        else:
            own_pile = 0
            for c in self.piles[i]:
                own_pile |= 1 << c
        pile_sizes = tuple(len(p) for p in self.piles)
        hand_sizes = tuple(h.bit_count() for h in self.hands)
        return Observation(
            seat=seat, players=self.players, teams=self.teams, round=self.round, phase=self.phase,
            to_act=self.to_act, starter=self.starter, leader=self.leader, trick_no=self.trick_no,
            revolution=self.revolution, dealt=cards_of(self.dealt[i]), hand=cards_of(self.hands[i]),
            pile=cards_of(own_pile), hand_sizes=hand_sizes, pile_sizes=pile_sizes,
            aside=self.aside.bit_count(), known=tuple(cards_of(k) for k in self.known),
            trick=tuple((s, CARDS[c]) for s, c in self.trick),
            trick_plays=tuple((s, CARDS[c]) for s, c in self.trick_plays),
            led=None if self.led < 0 or not self.trick_plays else Rank(self.led),
            loot=tuple(cards_of(m) for m in self.loot), removed=cards_of(self.removed),
            voids=tuple((s, Rank(r), t, p) for s, r, t, p in self.voids),
            round_scores=tuple(self.round_scores), scores=self.scores(),
            steal_target=self.pending if self.phase is Phase.STOLEN else 0)

    def __repr__(self) -> str:
        return (f"<State players={self.players} round={self.round} trick={self.trick_no} phase={self.phase} "
                f"to_act={self.to_act} scores={self.scores()}>")


_points = K.points
_trick_winner = K.trick_winner


def key_action(seat: int, key: int) -> Action:
    """The :class:`Action` of a decision key of :mod:`.kernel` (a steal without its card)."""
    if key < 36:
        return _PLAYS[seat][key]
    if key == K.STEAL_NONE:
        return Action(STEAL, seat)
    if key < K.EXECUTE:
        return Action(STEAL, seat, target=key - K.STEAL)
    return Action(EXECUTE, seat, card=CARDS[key - K.EXECUTE])


_PLAYS: list[list[Action]] = [[]] + [[Action(PLAY, s, card=c) for c in CARDS] for s in range(1, 5)]


def trick_winner(trick: Iterable[tuple[int, Card]], led: Rank | None, revolution: bool) -> int | None:
    """Public form of the winner rule: ``trick`` is ``(seat, card)`` pairs still in the trick
    after the Thief and Executioner, ``led`` the led rank (None after a rankless lead),
    ``revolution`` the order in force *after* the Rebels and Prince steps. Returns the seat,
    or None if only rankless cards remain (ruling 7)."""
    w = K.trick_winner([(s, c.index) for s, c in trick], -1 if led is None else int(led), revolution)
    return w or None


def _lowest_scorer(scores: Sequence[int], prev_starter: int) -> int:
    """Ruling 9: the lowest round scorer; ties go to the first in seat order from ``prev_starter``."""
    n = len(scores)
    low = min(scores)
    for k in range(n):
        s = (prev_starter - 1 + k) % n + 1
        if scores[s - 1] == low:
            return s
    raise AssertionError


def _starting_team(scores: Sequence[int], prev_starter: int) -> int:
    """Ruling 9 + A1: the team (0 = seats 1+3) with fewer round points; a tie: the starter's team."""
    a, b = scores[0] + scores[2], scores[1] + scores[3]
    if a != b:
        return 0 if a < b else 1
    return team_of(prev_starter)


def _team_pick(scores: Sequence[int], prev_starter: int, team: int) -> int:
    """A1: a computer team's starter: its member with fewer round points; a tie: the first in
    seat order from the previous starter."""
    members = [s for s in range(1, 5) if team_of(s) == team]
    low = min(scores[s - 1] for s in members)
    for k in range(4):
        s = (prev_starter - 1 + k) % 4 + 1
        if s in members and scores[s - 1] == low:
            return s
    raise AssertionError


def card_mask(cards: Iterable[int]) -> int:
    """The card set of card indices as a mask (a card listed twice counts once)."""
    return reduce(or_, map(_BIT_OF, cards), 0)


def group_masks(groups: Sequence[Sequence[int]]) -> list[int]:
    """:func:`card_mask` of each group of card indices."""
    return [card_mask(g) for g in groups]


_BIT_OF = tuple(1 << c for c in range(len(CARDS))).__getitem__


def deal_refusal(players: int, groups: Sequence[Sequence[int]], masks: Sequence[int] | None = None) -> Reason | None:
    """Why a deal is refused (ruling 4), or None: ``groups`` holds each seat's dealt cards then
    the aside, as card indices; each seat gets its share, the aside its size, no card twice.
    ``masks``: :func:`group_masks` of ``groups`` if the caller has them."""
    n = players
    dealt, _, aside = SETUP[n]
    if len(groups) != n + 1:
        return reason("deal_groups", players=n)
    for s, g in enumerate(groups[:n], 1):
        if len(g) != dealt:
            return reason("deal_seat_size", seat=s, want=dealt, got=len(g))
    if len(groups[n]) != aside:
        return reason("deal_aside_size", want=aside, players=n, got=len(groups[n]))
    if reduce(or_, group_masks(groups) if masks is None else masks, 0).bit_count() == n * dealt + aside:
        return None  # as many different cards as listed: none twice
    seen = 0
    for g in groups:
        for c in g:
            if (seen >> c) & 1:
                return reason("deal_twice", card=CARDS[c].name)
            seen |= 1 << c
    return None


def keep_refusal(dealt: int, hand: int, count: int, size: int) -> Reason | None:
    """Why a hand choice is refused (ruling 4), or None: ``hand`` (a mask of ``count`` listed
    cards) must be ``size`` different cards of the ``dealt`` mask."""
    if hand & ~dealt:
        return reason("keep_not_dealt")
    if count != size or hand.bit_count() != count:
        return reason("keep_size", size=size)
    return None


def pile_refusal(want: int, pile: int, count: int) -> Reason | None:
    """Why a draw pile is refused (ruling 4), or None: ``pile`` (a mask of ``count`` listed
    cards) must be exactly the dealt cards not kept, the mask ``want``."""
    if pile != want or count != want.bit_count():
        return reason("bad_pile")
    return None


def setup_sizes(players: int) -> tuple[int, int, int]:
    """(dealt per seat, kept in hand, set aside) for ``players`` (ruling 4). Raises KeyError."""
    return SETUP[players]


__all__ = ["SETUP", "ROUNDS", "Phase", "ChanceEvent", "Outcome", "Observation", "State", "team_of",
           "trick_winner", "setup_sizes", "IllegalMoveError", "InvalidMoveError"]
