"""The engine against the plain reference engine (tests/royals/reference.py), action by action:
the same legal decisions, the same verdict on every probe action, the same
position (hands, piles, loots, trick, phase, seat to act, scores) after each action, the
same result; and the same verdict on records, corrupted ones included."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.royals.engine import CARDS, Action, Phase, Record, RecordError, Rng, State, status_line

from . import reference as R
from .helpers import corrupt, random_action

CONFIGS = [(2, False), (3, False), (4, False), (4, True)]
matches = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(CONFIGS))


def position(s: State) -> tuple:
    """The engine's position in the reference's terms (names, top-first piles)."""
    names = lambda m: sorted((c.name for c in CARDS if (m >> c.index) & 1), key=R.ALL_CARDS.index)  # noqa: E731
    phase = s.phase.value
    return (phase, s.to_act if phase != "pile" else s.pending, s.round,
            [names(h) for h in s.hands], [[CARDS[c].name for c in reversed(p)] for p in s.piles],
            [names(lt) for lt in s.loot], names(s.removed), [(seat, CARDS[c].name) for seat, c in s.trick],
            s.revolution, list(s.scores()), s.leader if phase in ("play", "steal", "stolen", "execute") else 0)


def ref_position(m: R.RefMatch) -> tuple:
    phase = m.phase
    return (phase, m.to_act if phase != "pile" else m.pile_seat, m.round,
            [sorted(h, key=R.ALL_CARDS.index) for h in m.hands], [list(p) for p in m.piles],
            [sorted(lt, key=R.ALL_CARDS.index) for lt in m.loot], sorted(m.removed, key=R.ALL_CARDS.index),
            list(m.trick), m.revolution, m.scores(), m.leader if phase in ("play", "steal", "stolen", "execute") else 0)


def probe_texts(players: int) -> list[str]:
    out = ["start 1", "start 2", "start 3", "start 4"]
    for seat in range(1, players + 1):
        out.append(f"{seat} steal none")
        for c in CARDS:
            out += [f"{seat} play {c.name}", f"{seat} execute {c.name}"]
        for t in range(1, players + 1):
            out.append(f"{seat} steal {t}")
            out += [f"{seat} steal {t} {c.name}" for c in CARDS[::3]]
    return out


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_the_engine_agrees_with_the_reference_action_by_action(match):
    seed, (players, teams) = match
    rng = Rng(seed)
    s, m = State(players, teams), R.RefMatch(players, teams)
    probes = probe_texts(players)
    while not s.is_over():
        assert position(s) == ref_position(m)
        if s.phase is not Phase.KEEP and not s.is_chance():
            assert sorted(str(a) for a in s.legal_actions()) == sorted(m.legal_texts())
        for text in probes:
            assert (s.illegal_reason(Action.from_str(text)) is None) == m.is_legal(text), (text, position(s))
        a = random_action(s, rng)
        assert m.is_legal(str(a)), str(a)
        wrong = Action.keep(a.seat, list(a.cards[1:]) + [c for c in CARDS if c not in a.cards][:1]) \
            if a.kind.value == "keep" else None
        if wrong is not None:
            assert (s.illegal_reason(wrong) is None) == m.is_legal(str(wrong))
        s.push_checked(a)
        m.apply(str(a))
    assert m.is_over() and position(s) == ref_position(m)
    assert list(s.outcome().winners) == m.winners()


def finished_record(seed: int, players: int, teams: bool) -> dict:
    rng, s = Rng(seed), State(players, teams)
    while not s.is_over():
        s.push_checked(random_action(s, rng))
    return Record.from_state(s).to_dict()


def engine_verdict(d: dict) -> str:
    try:
        return status_line(Record.from_dict(d).replay())
    except RecordError as e:
        return "error " + str(e)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_records_get_the_same_verdict_from_both_engines(match):
    """Valid records give the same status line; records with an action replaced, dropped or
    doubled, cut short or with a hand swapped for a pile are refused by both or by neither."""
    seed, (players, teams) = match
    d = finished_record(seed, players, teams)
    assert R.validate(d) == engine_verdict(d)
    rng = Rng(seed ^ 77)
    for k in range(16):
        c = json.loads(json.dumps(d))
        corrupt(c, rng, k % 5)
        mine, ref = engine_verdict(c), R.validate(c)
        assert mine.startswith("error") == ref.startswith("error"), (mine, ref)
        if not ref.startswith("error"):
            assert mine == ref


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 35), min_size=0, max_size=4, unique=True), st.integers(-1, 5), st.booleans(),
       st.integers(0, 2**36 - 1))
def test_takers_is_the_winner_rule_card_by_card(played, led, revolution, cards):
    """kernel.takers (the playouts' one-pass form) agrees with trick_winner for every card."""
    from game.royals.engine import kernel as K
    trick = [(k + 1, c) for k, c in enumerate(played)]
    cards &= ~sum(1 << c for c in played)
    want = sum(1 << c for c in range(36) if (cards >> c) & 1 and K.trick_winner(trick + [(9, c)], led, revolution) == 9)
    assert K.takers(trick, led, revolution, cards) == want
