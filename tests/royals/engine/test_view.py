"""game.royals.engine.view.SeatView: one seat's view fed only what the LAN tells that seat
(tests/royals/helpers.py, messages_for) must give that seat's exact Observation at every ply, and a full
State that agrees with every fact the seat saw (cards played were in hand, voids held)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.royals.engine import (CARDS, PLAY, Action, Card, InvalidMoveError, Phase, Rng, SeatView, State,
                                ViewError)

from ..helpers import messages_for, random_action


def drive(players: int, teams: bool, seed: int, reset_each_round: bool, upto: int | None = None):
    """Play a random match; after every action feed each seat's view its messages and
    compare. Yields nothing; asserts."""
    s, rng = State(players, teams), Rng(seed)
    views = {k: SeatView(k, players, teams) for k in range(1, players + 1)}
    checked = 0
    while not s.is_over() and (upto is None or s.ply < upto):
        before = s.copy()
        a = random_action(s, rng)
        s.push_checked(a)
        for k, v in views.items():
            for m in messages_for(before, a, s, k):
                v.hear(m)
            assert v.ply == s.ply
            assert v.observation() == s.observation(k), (k, s.ply, str(a))
            assert v.consistent(), (k, s.ply, str(a))
            vs = v.state
            # the placeholder never moves what the seat knows: its own hand and pile, the public places
            assert vs.hands[k - 1] == s.hands[k - 1] and sorted(vs.piles[k - 1]) == sorted(s.piles[k - 1])
            assert vs.loot == s.loot and vs.trick == s.trick and vs.removed == s.removed
            assert [len(p) for p in vs.piles] == [len(p) for p in s.piles]
            checked += 1
            if reset_each_round and s.round != before.round:
                v.reset(s)
    return views, s, checked


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([(2, False), (3, False), (4, False), (4, True)]),
       reset=st.booleans())
def test_a_seat_view_fed_its_messages_knows_exactly_its_observation(seed, seats, reset):
    players, teams = seats
    views, s, checked = drive(players, teams, seed, reset)
    assert s.is_over() and checked > 60 * players
    for k, v in views.items():
        assert v.observation() == s.observation(k)
        assert v.state.outcome() == s.outcome()  # scores are public: every view ends with the true result


def test_the_placeholder_is_deterministic_and_repaired_when_a_card_shows():
    """Two views of the same seat agree; another seat's played card is in its placeholder hand."""
    s, rng = State(3), Rng(7)
    a_view, b_view = SeatView(2, 3), SeatView(2, 3)
    repaired = 0
    while s.round == 1:
        before = s.copy()
        a = random_action(s, rng)
        s.push_checked(a)
        if a.kind is PLAY and a.seat != 2 and not (a_view.state.hands[a.seat - 1] >> a.card.index) & 1:
            repaired += 1  # the placeholder had put it elsewhere: the view must swap it in
        for v in (a_view, b_view):
            for m in messages_for(before, a, s, 2):
                v.hear(m)
        assert a_view.state == b_view.state
    assert repaired > 3


def mid_round(players=3, seat=2, seed=5):
    s, rng = State(players), Rng(seed)
    v = SeatView(seat, players)
    while not (s.phase is Phase.PLAY and s.trick_no == 3 and s.to_act != seat and not s.trick_plays):
        before = s.copy()
        a = random_action(s, rng)
        s.push_checked(a)
        for m in messages_for(before, a, s, seat):
            v.hear(m)
    return s, v


def test_a_seat_playing_a_card_we_hold_is_refused_and_the_view_is_unchanged():
    s, v = mid_round()
    mine = v.observation().hand[0]
    bad = Action(PLAY, s.to_act, card=mine)
    assert v.check(bad) == "not in hand"
    before = v.state.copy()
    with pytest.raises(ViewError, match=f"{mine}: not in hand"):
        v.hear({"t": "act", "ply": s.ply, "a": str(bad)})
    assert v.state == before and v.ply == s.ply


def test_a_card_already_played_cannot_be_played_again():
    s, v = mid_round()
    gone = next(c for _, c in v.observation().trick_plays) if v.observation().trick_plays else \
        next(iter(v.observation().loot[0] + v.observation().loot[1] + v.observation().loot[2] + v.observation().removed))
    with pytest.raises(ViewError):
        v.public(Action(PLAY, s.to_act, card=gone))


def test_out_of_turn_wrong_ply_and_undue_messages_are_refused():
    s, v = mid_round()
    other = next(k for k in range(1, 4) if k not in (s.to_act, 2))
    with pytest.raises(ViewError, match="wrong seat"):
        v.public(Action(PLAY, other, card=Card.from_name("P1")))
    with pytest.raises(ViewError, match="we are at ply"):
        v.hear({"t": "act", "ply": s.ply + 1, "a": f"{s.to_act} play P1"})
    with pytest.raises(ViewError, match="no hidden action"):
        v.hear({"t": "hidden", "ply": s.ply, "seat": s.to_act})
    with pytest.raises(ViewError, match="phase play"):
        v.hear({"t": "you", "ply": s.ply, "cards": "P1"})
    with pytest.raises(InvalidMoveError):
        v.hear({"t": "act", "ply": s.ply, "a": f"{s.to_act} play JOKER"})
    assert v.ply == s.ply and v.observation() == s.observation(2)


def test_our_own_play_is_checked_in_full_and_a_false_draw_is_refused():
    s, rng = State(3), Rng(11)
    v = SeatView(1, 3)
    while not (s.phase is Phase.PLAY and s.to_act == 1 and s.trick_plays and s.legal_plays() != s.hands[0]
               and s.piles[0]):
        before = s.copy()
        a = random_action(s, rng)
        s.push_checked(a)
        for m in messages_for(before, a, s, 1):
            v.hear(m)
    bad = next(c for c in s.hand(1) if not (s.legal_plays() >> c.index) & 1)
    assert v.check(Action(PLAY, 1, card=bad)).startswith("must follow")
    assert sorted(map(str, v.legal_actions())) == sorted(map(str, s.legal_actions()))
    good = Action(PLAY, 1, card=next(c for c in s.hand(1) if (s.legal_plays() >> c.index) & 1))
    before = s.copy()
    s.push_checked(good)
    msgs = messages_for(before, good, s, 1)
    v.hear(msgs[0])
    assert len(msgs) == 2  # we drew: a card not in our pile is refused
    outside = next(c for c in CARDS if c.index not in before.piles[0])
    with pytest.raises(ViewError, match="not in the rest of our pile"):
        v.hear({**msgs[1], "cards": outside.name})
    v.hear(msgs[1])
    assert v.observation() == s.observation(1)


def test_bad_arguments():
    with pytest.raises(ValueError):
        SeatView(4, 3)
    with pytest.raises(ValueError):
        SeatView(1, 3, base=State(4))


@pytest.mark.parametrize("players,teams,seed", [(2, False, 2), (3, False, 0), (4, False, 0), (4, True, 0)])
def test_matches_that_need_the_exact_re_solve(players, teams, seed, monkeypatch):
    """Matches where no single exchange of two cards keeps every fact (a void shown earlier
    forces a revealed card deeper into a pile, a theft of such a card): the bipartite
    re-solve is used and every fact holds at every ply."""
    import game.royals.engine.view as view_mod
    calls = []
    orig = view_mod.SeatView._resolve
    monkeypatch.setattr(view_mod.SeatView, "_resolve", lambda self: calls.append(1) or orig(self))
    drive(players, teams, seed, reset_each_round=False)
    assert calls


def test_a_play_the_seat_cannot_hold_by_its_voids_is_refused_at_once():
    """A seat that showed it lacked a rank with its pile already empty can never hold that
    rank again: a relayed play of such a card (which no single card of ours contradicts) is
    refused, naming the seat, and the view is unchanged."""
    from game.royals.engine.cards import RANK_OF
    tried = 0
    for seed in range(40):
        s, rng = State(3), Rng(seed)
        v = SeatView(1, 3)
        while not s.is_over() and s.round == 1:
            if s.phase is Phase.PLAY and s.to_act != 1:
                seat = s.to_act
                dead = {r for (vs, r, _t, pile) in s.voids if vs == seat and pile == 0}
                mine = set(v.observation().hand) | set(v.observation().pile)
                seen = {c for _, c in s.observation(1).trick_plays} | set(s.observation(1).removed)
                for lt in s.observation(1).loot:
                    seen |= set(lt)
                lead_ok = not s.trick_plays or s.led < 0
                cands = [c for c in CARDS if RANK_OF[c.index] in dead and c not in mine and c not in seen
                         and c.index < 33] if lead_ok else []
                if cands:
                    before = v.state.copy()
                    with pytest.raises(ViewError, match=f"seat {seat} cannot hold {cands[0]}"):
                        v.public(Action(PLAY, seat, card=cands[0]))
                    assert v.state == before and v.observation() == s.observation(1)
                    tried += 1
                    break
            prev = s.copy()
            a = random_action(s, rng)
            s.push_checked(a)
            for m in messages_for(prev, a, s, 1):
                v.hear(m)
    assert tried >= 5
