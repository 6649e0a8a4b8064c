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
from enum import Enum
from itertools import combinations
from typing import Iterable, Sequence

from game.rng import Rng

from .actions import (DEAL, EXECUTE, KEEP, PILE, PLAY, START, STEAL, Action, IllegalMoveError,
                      InvalidMoveError)
from .cards import (ALL_CARDS_MASK, CARDS, EXECUTIONER, GUILDMASTER, POINTS, PRINCES,
                    RANK_MASK, RANK_OF, RANKLESS_MASK, REBELS, THIEF, Card, Rank, cards_of, iter_bits)

#: Players -> (cards dealt to each seat, cards kept in hand, cards set aside) (ruling 4).
SETUP: dict[int, tuple[int, int, int]] = {2: (14, 7, 8), 3: (12, 6, 0), 4: (9, 5, 0)}
ROUNDS = 3  # ruling 10


class Phase(str, Enum):
    """What the match waits for. Chance phases: START (round 1 only), DEAL, PILE, STOLEN."""

    START = "start"      # who leads the round: chance in round 1, the starting team's choice later (ruling 9, A1)
    DEAL = "deal"        # chance: the shuffle (ruling 4)
    KEEP = "keep"        # decision: a seat chooses its hand from its dealt cards (ruling 4)
    PILE = "pile"        # chance: the order of a seat's draw pile (ruling 4)
    PLAY = "play"        # decision: a seat plays a card into the trick (rulings 5, 6)
    STEAL = "steal"      # decision: the Thief picks a seat to rob, or none (ruling 7)
    STOLEN = "stolen"    # chance: which card of the robbed hand the Thief takes (ruling 7)
    EXECUTE = "execute"  # decision: the Executioner picks a card of the trick (ruling 7)
    OVER = "over"        # the match is over (ruling 10)

    def __str__(self) -> str:
        return self.value


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

    def result(self) -> dict:
        """The record's ``result`` object (docs/royals-record-format.md)."""
        d: dict = {"scores": list(self.scores), "winners": list(self.winners)}
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
        :meth:`State.legal_actions`, computed from what the seat knows); else empty."""
        if self.to_act != self.seat:
            return []
        s, p = self.seat, self.phase
        if p is Phase.PLAY:
            hand = self.hand
            if self.trick_plays and self.led is not None:
                follow = [c for c in hand if c.rank == self.led]
                if follow:
                    return [Action(PLAY, s, card=c) for c in hand if c.rank == self.led or c.is_rankless]
            return [Action(PLAY, s, card=c) for c in hand]
        if p is Phase.STEAL:
            return [Action(STEAL, s)] + [Action(STEAL, s, target=t) for t in range(1, self.players + 1)
                                         if t != s and self.hand_sizes[t - 1]]
        if p is Phase.EXECUTE:
            return [Action(EXECUTE, s, card=c) for _, c in self.trick if c.index != EXECUTIONER]
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
        self._undo: list[tuple] = []
        self.track = True
        self._new_round(0)

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
        hand_masks, pile_lists, loot_masks = [0] * players, [[] for _ in range(players)], [0] * players
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
        return s

    # ------------------------------------------------------------------ copying
    def _snapshot(self) -> tuple:
        return (self.round, self.phase, self.to_act, self.starter, self.leader, self.trick_no, self.dealt[:],
                self.aside, self.kept[:], self.hands[:], [p[:] for p in self.piles], self.loot[:], self.removed,
                self.trick[:], self.trick_plays[:], self.led, self.revolution, self.pending, self.known[:],
                self.voids[:], self.round_scores[:])

    def _restore(self, snap: tuple) -> None:
        (self.round, self.phase, self.to_act, self.starter, self.leader, self.trick_no, self.dealt, self.aside,
         self.kept, self.hands, self.piles, self.loot, self.removed, self.trick, self.trick_plays, self.led,
         self.revolution, self.pending, self.known, self.voids, self.round_scores) = snap

    def copy(self, stack: bool = True) -> "State":
        """An independent copy. ``stack=False`` (for search) drops the history and the undo
        stack and stops recording them: the copy can push but not pop."""
        s = State.__new__(State)
        s.players = self.players
        s.teams = self.teams
        s._restore(self._snapshot())
        s.history = self.history[:] if stack else []
        s._undo = self._undo[:] if stack else []
        s.track = self.track if stack else False
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.players, self.teams, self._snapshot(), self.history) == \
            (other.players, other.teams, other._snapshot(), other.history)

    __hash__ = None  # type: ignore[assignment]

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
        h = self.hands[self.to_act - 1]
        if self.led >= 0 and self.trick_plays:
            follow = h & RANK_MASK[self.led]
            if follow:
                return follow | (h & RANKLESS_MASK)
        return h

    def legal_actions(self) -> list[Action]:
        """Every legal decision of ``to_act`` (empty at chance events and at the end).

        STEAL decisions come without their card (the chance outcome that follows).
        KEEP lists every hand choice (up to 3432 with 2 players).
        """
        p = self.phase
        s = self.to_act
        if p is Phase.PLAY:
            return [Action(PLAY, s, card=CARDS[i]) for i in iter_bits(self.legal_plays())]
        if p is Phase.STEAL:
            return [Action(STEAL, s)] + [Action(STEAL, s, target=t) for t in range(1, self.players + 1)
                                         if t != s and self.hands[t - 1]]
        if p is Phase.EXECUTE:
            return [Action(EXECUTE, s, card=CARDS[c]) for _, c in self.trick if c != EXECUTIONER]
        if p is Phase.KEEP:
            dealt = cards_of(self.dealt[s - 1])
            return [Action(KEEP, s, cards=combo) for combo in combinations(dealt, self.hand_size())]
        if p is Phase.START and s:
            return [Action(START, m) for m in self.starting_team_members()]
        return []

    # ------------------------------------------------------------------ checking
    def illegal_reason(self, a: Action) -> str | None:
        """Why action ``a`` is not allowed now, or None if it is (each reason names its rule)."""
        p = self.phase
        k = a.kind
        n = self.players
        if p is Phase.OVER:
            return "match already over"
        if not 0 <= a.seat <= n or (a.seat == 0 and k is not DEAL):
            return "unknown seat"
        if k is STEAL and a.target is not None and not 1 <= a.target <= n:
            return "unknown seat"
        if p is Phase.STEAL or p is Phase.STOLEN:
            if k is not STEAL:
                return "the Thief must choose first"
        elif p is Phase.EXECUTE:
            if k is not EXECUTE:
                return "the Executioner must choose first"
        elif p is Phase.PLAY:
            if k is STEAL:
                return "no Thief in this trick"
            if k is EXECUTE:
                return "no Executioner in this trick"
            if k is not PLAY:
                return f"a {k.value} action during the play"
        elif p is Phase.START:
            if k is not START:
                return "the round's starter comes first"
            if self.to_act and a.seat not in self.starting_team_members():
                return f"wrong starter: the team of seat {self.to_act} starts (ruling 9, A1)"
            return None
        elif p is Phase.DEAL:
            if k is not DEAL:
                return "the deal comes first"
            return self._deal_reason(a)
        elif p is Phase.KEEP:
            if k is not KEEP:
                return "hand choices come first"
        elif p is Phase.PILE:
            if k is not PILE:
                return "draw piles come first"
        if a.seat != self.to_act and not (p is Phase.PILE and a.seat == self.pending):
            who = self.pending if p is Phase.PILE else self.to_act
            return f"wrong seat: seat {who} is to {'act' if p is not Phase.PLAY else 'play'}"
        if k is PLAY:
            c = a.card.index  # type: ignore[union-attr]
            h = self.hands[a.seat - 1]
            if not (h >> c) & 1:
                return "not in hand"
            if self.trick_plays and self.led >= 0 and RANK_OF[c] != self.led and c < THIEF \
                    and h & RANK_MASK[self.led]:
                return f"must follow {Rank(self.led).title}"
            return None
        if k is STEAL:
            t = a.target
            if t is None:
                return None if p is Phase.STEAL else "the Thief has already chosen"
            if p is Phase.STOLEN and t != self.pending:
                return f"the Thief chose seat {self.pending}"
            if t == a.seat:
                return "cannot steal from yourself"
            if not self.hands[t - 1]:
                return "target has no cards"
            if a.card is not None and not (self.hands[t - 1] >> a.card.index) & 1:
                return "card not in that hand"
            return None
        if k is EXECUTE:
            c = a.card.index  # type: ignore[union-attr]
            if c == EXECUTIONER:
                return "cannot execute itself"
            if all(tc != c for _, tc in self.trick):
                return "card not in the trick"
            return None
        if k is KEEP:
            dealt = self.dealt[a.seat - 1]
            m = 0
            for c in a.cards:
                m |= 1 << c.index
            if m & ~dealt:
                return "hand is not a subset of the deal"
            if len(a.cards) != self.hand_size() or m.bit_count() != len(a.cards):
                return f"wrong hand size: a hand holds {self.hand_size()} different cards"
            return None
        if k is PILE:
            want = self.dealt[a.seat - 1] & ~self.kept[a.seat - 1]
            m = 0
            for c in a.cards:
                m |= 1 << c.index
            if m != want or len(a.cards) != want.bit_count():
                return "bad pile: it must hold exactly the dealt cards not kept in hand"
            return None
        return f"unexpected {k.value} action"

    def _deal_reason(self, a: Action) -> str | None:
        n = self.players
        dealt, _, aside = SETUP[n]
        if len(a.groups) != n + 1:
            return f"bad deal: {n} seats and the aside"
        for s, g in enumerate(a.groups[:n], 1):
            if len(g) != dealt:
                return f"bad deal: seat {s} must be dealt {dealt} cards, not {len(g)}"
        if len(a.groups[n]) != aside:
            return f"bad deal: {aside} cards are set aside with {n} players, not {len(a.groups[n])}"
        seen = 0
        for g in a.groups:
            for c in g:
                if (seen >> c.index) & 1:
                    return f"bad deal: {c} is dealt twice"
                seen |= 1 << c.index
        return None

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
        """Take the last action back. Raises IndexError if there is none (or after copy(stack=False))."""
        if not self._undo:
            raise IndexError("no action to take back")
        self._restore(self._undo.pop())
        return self.history.pop()

    def push(self, a: Action) -> None:
        """Apply ``a`` WITHOUT checking it (the fast entry point; see :meth:`push_checked`)."""
        if self.track:
            self._undo.append(self._snapshot())
            self.history.append(a)
        k = a.kind
        if k is PLAY:
            self._play(a.seat, a.card.index)  # type: ignore[union-attr]
        elif k is STEAL:
            if a.target is None:
                self._after_thief()
            elif a.card is None:
                self.phase = Phase.STOLEN
                self.pending = a.target
            else:
                self._steal(a.seat, a.target, a.card.index)
        elif k is EXECUTE:
            self._execute(a.card.index)  # type: ignore[union-attr]
        elif k is KEEP:
            self._keep(a.seat, sum(1 << c.index for c in a.cards))
        elif k is PILE:
            self._pile(a.seat, [c.index for c in a.cards])
        elif k is DEAL:
            self._deal([sum(1 << c.index for c in g) for g in a.groups])
        elif k is START:
            self.starter = self.leader = a.seat
            self.phase = Phase.DEAL
            self.to_act = 0

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

    def _play(self, seat: int, c: int) -> None:
        i = seat - 1
        bit = 1 << c
        self.hands[i] &= ~bit
        self.known[i] &= ~bit
        if not self.trick_plays:
            self.led = RANK_OF[c]
        elif self.led >= 0 and c < THIEF and RANK_OF[c] != self.led:
            self.voids.append((seat, self.led, self.trick_no, len(self.piles[i])))
        self.trick.append((seat, c))
        self.trick_plays.append((seat, c))
        pile = self.piles[i]
        if pile:
            self.hands[i] |= 1 << pile.pop()
        if len(self.trick_plays) < self.players:
            self.to_act = seat % self.players + 1
            return
        # Resolution (ruling 7): (1) Thief.
        for s, tc in self.trick:
            if tc == THIEF:
                if any(h for j, h in enumerate(self.hands) if j != s - 1):
                    self.phase = Phase.STEAL
                    self.to_act = s
                    return
                break
        self._after_thief()

    def _steal(self, seat: int, target: int, c: int) -> None:
        t = target - 1
        self.hands[t] &= ~(1 << c)
        self.known[t] &= ~(1 << c)
        self.loot[seat - 1] |= 1 << c
        for j, (s, tc) in enumerate(self.trick):
            if s == target:
                del self.trick[j]
                self.hands[t] |= 1 << tc
                self.known[t] |= 1 << tc
                break
        self.pending = 0
        self._after_thief()

    def _after_thief(self) -> None:
        # (2) Executioner: compulsory when another card is in the trick.
        if len(self.trick) > 1:
            for s, tc in self.trick:
                if tc == EXECUTIONER:
                    self.phase = Phase.EXECUTE
                    self.to_act = s
                    return
        self._finish_trick()

    def _execute(self, c: int) -> None:
        for j, (_, tc) in enumerate(self.trick):
            if tc == c:
                del self.trick[j]
                break
        self.removed |= 1 << c
        self._finish_trick()

    def _finish_trick(self) -> None:
        cards = 0
        for _, c in self.trick:
            cards |= 1 << c
        # (3) Rebels, (4) Prince (ruling 7).
        if (cards >> REBELS) & 1:
            self.revolution = True
        if self.revolution and ((cards >> PRINCES[0]) & 1 or (cards >> PRINCES[1]) & 1):
            self.revolution = False
        winner = _trick_winner(self.trick, self.led, self.revolution)
        if winner:
            self.loot[winner - 1] |= cards
            self.leader = winner
        else:
            self.removed |= cards
        self.trick = []
        self.trick_plays = []
        self.led = -1
        self.pending = 0
        if any(self.hands):
            self.trick_no += 1
            self.phase = Phase.PLAY
            self.to_act = self.leader
            return
        self._end_round()

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


def _points(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += POINTS[low.bit_length() - 1]
        mask ^= low
    return total


def _trick_winner(trick: Sequence[tuple[int, int]], led: int, revolution: bool) -> int:
    """The seat that wins the cards still in ``trick`` (ruling 7's last steps), or 0 if
    only rankless cards remain. ``led``: the led rank or -1."""
    cards = [(s, c) for s, c in trick if c < THIEF]
    if not cards:
        return 0
    if led >= 0:
        gm = GUILDMASTER[led]
        if gm >= 0 and any(c == gm for _, c in cards):
            cards = [(s, c) for s, c in cards if RANK_OF[c] == led]
    # normal order: lower index is stronger; revolution: higher index is stronger.
    best = max(cards, key=lambda sc: sc[1]) if revolution else min(cards, key=lambda sc: sc[1])
    return best[0]


def trick_winner(trick: Iterable[tuple[int, Card]], led: Rank | None, revolution: bool) -> int | None:
    """Public form of the winner rule: ``trick`` is ``(seat, card)`` pairs still in the trick
    after the Thief and Executioner, ``led`` the led rank (None after a rankless lead),
    ``revolution`` the order in force *after* the Rebels and Prince steps. Returns the seat,
    or None if only rankless cards remain (ruling 7)."""
    w = _trick_winner([(s, c.index) for s, c in trick], -1 if led is None else int(led), revolution)
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


def setup_sizes(players: int) -> tuple[int, int, int]:
    """(dealt per seat, kept in hand, set aside) for ``players`` (ruling 4). Raises KeyError."""
    return SETUP[players]


__all__ = ["SETUP", "ROUNDS", "Phase", "ChanceEvent", "Outcome", "Observation", "State", "team_of",
           "trick_winner", "setup_sizes", "IllegalMoveError", "InvalidMoveError"]
