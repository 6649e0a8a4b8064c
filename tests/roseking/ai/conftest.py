"""Positions built explicitly for the AI tests (forced hero action, a pass); the bench scripts they test."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from game.roseking.engine import CARDS, Card, State
from game.roseking.engine.cards import ALL_CARDS_MASK, mask_of, parse_square


def build(red_hand: str, white_hand: str, crown: str, red: str = "", white: str = "",
          turn: int = 0, heroes: tuple[int, int] = (4, 4)) -> State:
    """A position with the given hands (card names), crown square and stones (square names).

    Every card not in a hand is in the draw pile. Only for tests: it sets the
    fields that ``push``/``pop`` normally maintain.
    """
    rh = [Card.from_name(n) for n in red_hand.split()]
    wh = [Card.from_name(n) for n in white_hand.split()]
    deal_r = (rh + [c for c in CARDS if c not in rh and c not in wh])[:5]
    deal_w = (wh + [c for c in CARDS if c not in rh and c not in wh and c not in deal_r])[:5]
    s = State(deal_r, deal_w)
    s.hands = [mask_of(rh), mask_of(wh)]
    s.draw_pile = ALL_CARDS_MASK & ~(s.hands[0] | s.hands[1])
    s.crown = parse_square(crown)
    s.stones = [sum(1 << parse_square(q) for q in red.split()), sum(1 << parse_square(q) for q in white.split())]
    s.heroes = list(heroes)
    s.turn = s.turn.__class__(turn)
    return s


@pytest.fixture
def forced_hero() -> State:
    """Red to move with a full hand whose only legal action is ``red hero N1`` (flips e6)."""
    s = build("N1 E1 S1 W1 NE1", "N2 E2 S2 W2 NE2", "e5", red="f5 e4 d5 f6", white="e6")
    assert [str(m) for m in s.legal_moves()] == ["red hero N1"]
    return s


@pytest.fixture
def after_pass() -> State:
    """Red moved, White (full hand, every card off the board from a2) had to pass: Red moves again."""
    s = build("N1 E3 NE3", "W1 W2 SW1 S2 S3", "a1")
    s.push_str("red play N1")
    assert s.passed() and str(s.turn) == "red"
    assert not s.has_legal_move(s.turn.other)
    return s


BENCH = Path(__file__).resolve().parents[3] / "bench"


def load_bench(name: str):
    """The script ``bench/NAME.py`` as a module (the bench folder is not a package)."""
    spec = importlib.util.spec_from_file_location(f"{name}_bench", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def strength():
    """``bench/ai_strength.py``."""
    return load_bench("ai_strength")


@pytest.fixture(scope="module")
def agree():
    """``bench/ai_agree.py``."""
    return load_bench("ai_agree")
