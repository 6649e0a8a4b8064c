"""Every Royals & Riots hint gives its reason, and each reason it gives is true of the position
(game/royals/explain.py), checked against the full state over random matches: a lead "no card
still out beats it" is beaten by no card in another hand or pile; "your weakest card" is the
weakest; a Thief's or an Executioner's "the trick goes to X" is who takes it."""

from __future__ import annotations

import pytest

import game.royals.engine.kernel as K
from game import i18n
from game.royals.engine import CARDS, Card, Rng, State
from game.royals.engine.cards import RANKED_MASK, strength
from game.royals.explain import (hint_keep_text, hint_play_text, hint_reason, hint_steal_text, lead_reason,
                                 play_reason)


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def positions(matches: int = 30):
    """(state, observation of the seat to act) at every decision of random matches."""
    for seed in range(matches):
        rng = Rng(seed)
        s = State(2 + seed % 3, teams=seed % 6 == 5)
        while not s.is_over():
            event = s.chance()
            if event is not None:
                s.push(event.sample(rng))
                continue
            if s.to_act and s.phase.value in ("play", "steal"):
                yield s, s.observation(s.to_act)
            acts = s.legal_actions()
            s.push(acts[rng.randbelow(len(acts))])  # a Thief's target: chance picks the card next


def others_cards(s: State, seat: int) -> int:
    """Every card in another seat's hand or pile (the ground truth the seat cannot see)."""
    m = 0
    for t in range(1, s.players + 1):
        if t != seat:
            m |= s.hands[t - 1]
            for c in s.piles[t - 1]:
                m |= 1 << c
    return m


def test_every_play_hint_has_a_reason_and_the_lead_reasons_are_true():
    said = {"beats": 0, "weakest": 0, "most": 0}
    for s, obs in positions():
        if obs.phase.value != "play":
            continue
        for a in obs.legal_actions():
            card = a.card
            text = hint_play_text(obs, card)
            assert text.startswith("Hint: play ") and ", because " in text and text.endswith(".")
            assert text.count(":") == 1, text  # "Hint:" only
            if obs.trick_plays or play_reason(obs, card) is not None:
                continue
            why = lead_reason(obs, card)
            if why == "no card still out beats it":
                said["beats"] += 1
                beaters = K.takers([(obs.seat, card.index)], int(card.rank), obs.revolution,
                                   others_cards(s, obs.seat) & RANKED_MASK)
                assert not beaters, (card, obs)
            elif why == "it is your weakest card; the strong ones wait":
                said["weakest"] += 1
                ranked = [c for c in obs.hand if not c.is_rankless]
                assert strength(card.index, obs.revolution) == min(strength(c.index, obs.revolution) for c in ranked)
            elif why == "you hold the most cards of its rank":
                said["most"] += 1
                ranks = {c.rank for c in obs.hand if not c.is_rankless}
                counts = [sum(1 for c in obs.hand if c.rank is r) for r in ranks]
                assert sum(1 for c in obs.hand if c.rank is card.rank) == max(counts)
            assert hint_reason(obs, card)
    assert all(v > 0 for v in said.values()), said


def test_the_thiefs_hints_say_who_takes_the_trick():
    names = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}.get
    checked = 0
    for s, obs in positions():
        if obs.phase.value != "steal":
            continue
        for a in obs.legal_actions():
            text = hint_steal_text(obs, a.target, names)
            assert text.startswith("Hint: ") and ("goes to" in text or "stays with" in text or "nobody" in text)
            if a.target is not None:
                # the robbed seat's card goes back to its hand; an Executioner may still act after
                kept = [(seat, c) for seat, c in s.trick if seat != a.target]
                if all(c != 34 for _, c in kept):
                    w = K.settle(kept, s.led, s.revolution)[2]
                    assert (f"goes to {names(w)}" in text) if w else ("nobody" in text), (text, kept)
            checked += 1
    assert checked


def test_the_hand_choice_hint_says_why_and_mentions_a_kept_beggar():
    beggar = Card.from_name("BEGGAR")
    strong = [c for c in CARDS if c.name in ("KING", "QUEEN", "R1")]
    assert hint_keep_text(strong).startswith("Hint: keep the marked cards, the strongest")
    assert "Beggar" in hint_keep_text(strong + [beggar]) and "Beggar" not in hint_keep_text(strong)
