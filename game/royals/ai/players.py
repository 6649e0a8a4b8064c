"""The computer players' interface and the rule-based levels (``random``, ``greedy``, ``easy``).

A player sees only its seat's :class:`~game.royals.engine.Observation` (never the state):
``choose(obs) -> Action`` returns one of ``obs.legal_actions()``. A steal comes back
without its card (``"1 steal 2"``); whoever runs the match supplies the card as a chance
outcome. In team games a player plays for its team's score (ruling 10).

- ``random``: a uniformly random legal action (a random hand at set-up).
- ``greedy``: rule-based: keeps strong and special cards in hand, wins cheap tricks with
  the cheapest card that wins, dumps the Beggar on opponents, keeps Princes for a
  revolution, robs the seat whose card is winning the trick, executes the card that
  hurts its team most; its team picks its lower scorer to start (ruling 9).
- ``easy``: the greedy values with noise: a casual player who sometimes misjudges.
"""

from __future__ import annotations

import math
from typing import Protocol

from game.rng import Rng

from ..engine import kernel as K
from ..engine.actions import EXECUTE, PLAY, STEAL, Action
from ..engine.cards import (BEGGAR, EXECUTIONER, GUILDMASTER, POINTS, PRINCES, RANK_OF, REBELS, THIEF, Card,
                            NUM_CARDS)
from ..engine.state import Observation, Phase, team_of

#: Mean points of a card nobody has seen (40 points over 36 cards): the Thief's expected take.
MEAN_POINTS = 40 / 36


#: Default thinking time of the search levels, seconds per decision (at most 1 s).
DEFAULT_SECONDS = 1.0


class Player(Protocol):
    """Anything with ``choose(obs) -> Action`` returning one of ``obs.legal_actions()``."""

    name: str

    def choose(self, obs: Observation) -> Action: ...


class RandomPlayer:
    """A uniformly random legal action; at set-up a uniformly random hand."""

    name = "random"

    def __init__(self, seed: int | None = None, **_budget: object) -> None:
        self.rng = Rng(seed)

    def choose(self, obs: Observation) -> Action:
        if obs.phase is Phase.KEEP:
            cards = list(obs.dealt)
            self.rng.shuffle(cards)
            return Action.keep(obs.seat, cards[:len(obs.dealt) - _pile_size(obs)])
        return self.rng.choice(obs.legal_actions())


def _pile_size(obs: Observation) -> int:
    from ..engine.state import SETUP
    dealt, kept, _ = SETUP[obs.players]
    return dealt - kept


# ---------------------------------------------------------------------- trick evaluation
def resolve(trick: list[tuple[int, int]], led: int, revolution: bool) -> tuple[int, bool]:
    """(winner seat or 0, revolution after) for the cards ``trick`` (seat, card index) if
    the trick ended now without Thief or Executioner (ruling 7 steps 3-5)."""
    cards = 0
    for _, c in trick:
        cards |= 1 << c
    rev = K.revolution_after(cards, revolution)
    return K.trick_winner(trick, led, rev), rev


def power(c: int, revolution: bool) -> float:
    """0 (weakest) .. 1 (strongest) in the order in force; rankless 0."""
    if c >= THIEF:
        return 0.0
    return (c if revolution else 32 - c) / 32


class Evaluator:
    """The greedy's judgement of one decision from one seat's observation."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.me = obs.seat
        self.n = obs.players
        seen = set()
        for c in obs.hand + obs.pile + obs.removed:
            seen.add(c.index)
        for loot in obs.loot:
            seen.update(c.index for c in loot)
        for _, c in obs.trick_plays:
            seen.add(c.index)
        for k in obs.known:
            seen.update(c.index for c in k)
        self.unseen = [c for c in range(NUM_CARDS) if c not in seen]
        self.opp_weight = 1.0 if (self.n == 2 or obs.teams) else 0.6
        self.led = -1 if obs.led is None else int(obs.led)
        self.trick = [(s, c.index) for s, c in obs.trick]

    def friend(self, seat: int) -> bool:
        return seat == self.me or (self.obs.teams and team_of(seat) == team_of(self.me))

    def still_to_play(self) -> int:
        return self.n - len(self.obs.trick_plays) - 1

    def outcome_value(self, trick: list[tuple[int, int]], led: int, hold: float = 1.0) -> float:
        """Value for my team of the trick ``trick`` ending now; ``hold`` is the chance the
        current winner keeps it against the cards still to come."""
        w, _ = resolve(trick, led, self.obs.revolution)
        pts = sum(POINTS[c] for _, c in trick)
        if w == 0:
            return 0.0
        if self.friend(w):
            later = -(pts + MEAN_POINTS) * self.opp_weight
            return hold * pts + (1 - hold) * later
        return -pts * self.opp_weight

    def hold_chance(self, trick: list[tuple[int, int]], led: int, remaining: int) -> float:
        """Rough chance that none of ``remaining`` later seats takes the trick from its winner."""
        if remaining <= 0 or not self.unseen:
            return 1.0
        w, _ = resolve(trick, led, self.obs.revolution)
        beat = 0
        for x in self.unseen:
            w2, _ = resolve(trick + [(0, x)], led, self.obs.revolution)
            if w2 == 0 and w != 0:
                beat += 1
        frac = beat / len(self.unseen)
        return float((1 - frac) ** (remaining * 1.5))

    def card_cost(self, c: int) -> float:
        """What playing ``c`` spends: strong cards, and Princes outside a revolution."""
        rev = self.obs.revolution
        cost = 0.8 * power(c, rev) ** 2
        if c in PRINCES and not rev:
            cost += 0.6
        if c == REBELS and not rev:
            cost += 0.3
        if c == THIEF:
            cost += 0.6
        if c == EXECUTIONER:
            cost += 0.6
        return cost

    def revolution_taste(self) -> float:
        """> 0 when my hand and pile are stronger in the reversed order."""
        cards = [c.index for c in self.obs.hand + self.obs.pile if c.index < THIEF]
        if not cards:
            return 0.0
        return sum(power(c, True) - power(c, False) for c in cards) / len(cards)

    def play_value(self, c: int) -> float:
        trick = self.trick + [(self.me, c)]
        led = RANK_OF[c] if not self.trick else self.led
        remaining = self.still_to_play()
        rev = self.obs.revolution
        value = -self.card_cost(c)
        if c == THIEF:
            if sum(self.obs.hand_sizes) - 1 > 0:  # not the last trick
                value += MEAN_POINTS + 0.5
                opp = [(s, x) for s, x in self.trick if not self.friend(s)]
                if opp:  # robbing a seat takes its card out of this trick
                    best = max(self.outcome_value([p for p in trick if p[0] != s], led) for s, _ in opp)
                    return value + best
        if c == EXECUTIONER and self.trick:
            best = max(self.outcome_value([p for p in trick if p[1] != x], led) for _, x in self.trick)
            return value + best + 0.3
        if c == EXECUTIONER:
            return value + 0.5
        if c == BEGGAR and not self.trick:
            return value + 3 * self.opp_weight * 0.8
        hold = self.hold_chance(trick, led, remaining)
        value += self.outcome_value(trick, led, hold)
        if c == REBELS:
            value += 4 * self.revolution_taste()
        if c in PRINCES and rev:
            value -= 4 * self.revolution_taste()
        return value

    def steal_value(self, target: int | None) -> float:
        led = self.led
        if target is None:
            return self.outcome_value(self.trick, led)
        rest = [(s, c) for s, c in self.trick if s != target]
        value = self.outcome_value(rest, led) + MEAN_POINTS
        if self.friend(target):
            value -= 2 * MEAN_POINTS  # it only moves points inside the team, and costs the partner a card
        return value

    def execute_value(self, c: int) -> float:
        rest = [(s, x) for s, x in self.trick if x != c]
        return self.outcome_value(rest, self.led)


def keep_score(c: Card) -> float:
    """How much a card is worth having in hand from the first trick (the rest comes one per trick)."""
    i = c.index
    special = {THIEF: 3.0, EXECUTIONER: 2.5, BEGGAR: 2.2, 0: 3.0, 1: 2.8}
    if i in special:
        return special[i]
    score = 2.0 * power(i, False)
    if i in GUILDMASTER:
        score += 0.5
    if i == REBELS:
        score += 0.8
    return score


def decide_keep(obs: Observation) -> Action:
    """The greedy's hand choice: the best-scoring dealt cards (:func:`keep_score`)."""
    ranked = sorted(obs.dealt, key=lambda c: (-keep_score(c), c.index))
    return Action.keep(obs.seat, ranked[:len(obs.dealt) - _pile_size(obs)])


def decide_start(obs: Observation) -> Action:
    """A computer team's starter: its member with fewer points last round (A1) = ``to_act``."""
    return Action.start(obs.to_act)


def action_values(obs: Observation) -> list[tuple[float, Action]]:
    """The greedy's value of each legal action (PLAY, STEAL, EXECUTE), in legal order."""
    ev = Evaluator(obs)
    out = []
    for a in obs.legal_actions():
        if a.kind is PLAY and a.card is not None:
            v = ev.play_value(a.card.index)
        elif a.kind is STEAL:
            v = ev.steal_value(a.target)
        elif a.kind is EXECUTE and a.card is not None:
            v = ev.execute_value(a.card.index)
        else:
            v = 0.0
        out.append((v, a))
    return out


class GreedyPlayer:
    """Rule-based (see the module docstring); ties broken by its own seeded Rng."""

    name = "greedy"

    def __init__(self, seed: int | None = None, **_budget: object) -> None:
        self.rng = Rng(seed)

    def choose(self, obs: Observation) -> Action:
        if obs.phase is Phase.KEEP:
            return decide_keep(obs)
        if obs.phase is Phase.START:
            return decide_start(obs)
        values = action_values(obs)
        best = max(v for v, _ in values)
        top = [a for v, a in values if v >= best - 1e-9]
        return top[self.rng.randbelow(len(top))]


class EasyPlayer(GreedyPlayer):
    """The greedy's values with a softmax (temperature 1 point): a casual player."""

    name = "easy"

    def __init__(self, seed: int | None = None, temperature: float = 1.0, **_budget: object) -> None:
        super().__init__(seed)
        self.temperature = temperature

    def choose(self, obs: Observation) -> Action:
        if obs.phase is Phase.KEEP or obs.phase is Phase.START:
            if self.rng.random() < 0.5:
                return RandomPlayer(self.rng.next_u32()).choose(obs)
            return super().choose(obs)
        values = action_values(obs)
        best = max(v for v, _ in values)
        weights = [math.exp((v - best) / self.temperature) for v, _ in values]
        x = self.rng.random() * sum(weights)
        for w, (_, a) in zip(weights, values):
            x -= w
            if x <= 0:
                return a
        return values[-1][1]


__all__ = ["Player", "RandomPlayer", "GreedyPlayer", "EasyPlayer", "action_values", "decide_keep",
           "decide_start", "keep_score", "resolve"]
