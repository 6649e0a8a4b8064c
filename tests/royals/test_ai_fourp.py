"""The search with 3 and 4 players (``hard`` got no stronger with more time in 4
players): its determinizations are uniform among the deals that keep every void shown, not
only with one other seat."""

import random

import pytest

from game.royals.ai.ismcts import _Rand
from game.royals.ai.determinize import Determinizer
from game.royals.engine import Phase
from game.royals.engine.cards import RANK_OF

from .helpers import random_match


def voided_positions(players: int, count: int):
    """Observations (seat to play) of seeded random matches where another seat has shown a void."""
    out = []
    for seed in range(400):
        s = random_match(seed, players, upto=40 + seed % 50)
        if s.phase is not Phase.PLAY:
            continue
        o = s.observation(s.to_act)
        draw = Determinizer(o)
        if any(draw.caps[i] for i in draw.order):
            out.append((seed, o))
            if len(out) == count:
                break
    return out


def breaks_a_void(draw: Determinizer, hands: list[int]) -> bool:
    """Whether an unseen card in a hand of ``hands`` (masks) is of a rank its seat's void rules out."""
    for i in draw.order:
        unseen = hands[i] & ~draw.known[i]
        for r, cap in draw.caps[i].items():
            if sum(1 for c in range(36) if (unseen >> c) & 1 and RANK_OF[c] == r) > cap:
                return True
    return False


def exact_hands(draw: Determinizer, n: int, rnd: random.Random) -> list[dict[int, set[int]]]:
    """``n`` deals of the unseen cards to the other hands, uniform among those that keep every
    void (the slow definition: a uniform deal, drawn again until it keeps them)."""
    out = []
    while len(out) < n:
        pool = draw.pool[:]
        rnd.shuffle(pool)
        hands, k = {}, 0
        for i in draw.order:
            hands[i] = set(pool[k:k + draw.need[i]])
            k += draw.need[i]
        if not breaks_a_void(draw, [sum(1 << c for c in hands.get(i, ())) for i in range(draw.n)]):
            out.append(hands)
    return out


@pytest.mark.parametrize("players", [3, 4])
def test_hards_determinizations_keep_every_void(players):
    # A seat drawn early used to take the cards a later seat needed; the later seat then held a
    # card of a rank it had shown it did not hold (seed 3 of 4 players: 17 % of the draws).
    broken = 0
    for _seed, o in voided_positions(players, 12):
        exact_hands(Determinizer(o), 1, random.Random(0))  # a deal keeping every void exists
        for bias in (0.0, 1.5):
            draw = Determinizer(o, bias, exact=True)
            rand = _Rand(7)
            for _ in range(100):
                d = draw(rand, True)
                assert d.observation(o.seat) == o
                broken += breaks_a_void(draw, d.hands)
            assert draw.fallbacks == 0
    assert broken == 0


def test_hards_determinizations_are_uniform_among_the_deals_that_keep_the_voids():
    # Every unseen card lies in each other hand as often as in the slow definition's deals
    # (before: 0.16 to 0.18 off at the worst card of each of these positions).
    checked = 0
    for seed, o in voided_positions(4, 4):
        draw = Determinizer(o, exact=True)
        n = 2000
        rand = _Rand(seed)
        ours = [draw(rand, True).hands for _ in range(n)]
        want = exact_hands(draw, n, random.Random(seed))
        for c in draw.pool:
            for i in draw.order:
                p = sum(1 for h in want if c in h[i]) / n
                q = sum((h[i] >> c) & 1 for h in ours) / n
                sigma = (2 * max(p * (1 - p), 1 / n) / n) ** 0.5
                assert abs(p - q) < 4.5 * sigma, (seed, c, i + 1, p, q)
                checked += 1
    assert checked > 50


def test_hard_2025_keeps_its_determinizations():
    # The baseline of the figures is not changed: without ``exact`` the draws are today's.
    _seed, o = voided_positions(4, 1)[0]
    plain, exact = Determinizer(o), Determinizer(o, exact=True)
    assert plain.tries == 1 and exact.tries > 1
    r1, r2 = _Rand(1), _Rand(1)
    assert [plain(r1, True).hands for _ in range(20)] == [Determinizer(o)(r2, True).hands for _ in range(20)]
