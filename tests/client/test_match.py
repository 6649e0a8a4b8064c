"""The match (who moves, where chance comes from) without any window."""

from __future__ import annotations

import pytest

from game.roseking.ai import GreedyPlayer
from game.roseking.match import ComputerController, HumanController, LocalChance, Match, local_match
from game.roseking.engine import DRAW, PLAY, Card, Color, Move, Rng, State


class Scripted:
    """A chance source that answers only when told to (like a network coin in flight)."""

    def __init__(self):
        self.card: Card | None = None

    def outcome(self, state):
        return self.card


class Fixed:
    """A controller that hands over one prepared move."""

    local_human = False
    label = "fixed"

    def __init__(self, move):
        self.move = move
        self.turns = 0

    def begin_turn(self, state):
        self.turns += 1

    def poll(self, state, dt):
        return self.move

    def close(self):
        pass


def opening_with_draw() -> State:
    s = State.random(Rng(4))
    s.push(next(m for m in s.legal_moves() if m.kind is PLAY))
    s.push(next(m for m in s.legal_moves() if m.kind is PLAY))
    return s  # red has 4 cards and may draw


def test_submit_checks_and_hooks_see_the_completed_move():
    m = local_match(HumanController(), HumanController(), seed=4)
    seen = []
    m.on_move.append(lambda move, state: seen.append((move, state.ply)))
    before = m.state.state_hash()
    assert "hand full" in m.submit(Move(Color.RED, DRAW, None))
    assert "wrong player" in m.submit(Move(Color.WHITE, PLAY, m.state.hand(Color.WHITE)[0]))
    assert m.state.state_hash() == before and seen == []
    play = next(mv for mv in m.state.legal_moves() if mv.kind is PLAY)
    assert m.submit(play) is None
    assert seen == [(play, 1)]


def test_draw_waits_for_chance_and_is_completed_by_it():
    chance = Scripted()
    m = Match(opening_with_draw(), (HumanController(), HumanController()), chance)
    seen = []
    m.on_move.append(lambda move, state: seen.append(move))
    assert m.submit(Move(Color.RED, DRAW, None)) is None
    assert seen == [] and not m.human_to_move()
    assert "waiting" in m.submit(Move(Color.RED, DRAW, None))
    m.update(0.1)
    assert seen == []
    chance.card = m.state.chance_outcomes()[0]
    m.update(0.1)
    assert seen == [Move(Color.RED, DRAW, chance.card)] and m.state.move_stack[-1] == seen[0]


def test_local_chance_is_reproducible():
    a = Match(opening_with_draw(), (HumanController(), HumanController()), LocalChance(Rng(9)))
    b = Match(opening_with_draw(), (HumanController(), HumanController()), LocalChance(Rng(9)))
    for m in (a, b):
        m.submit(Move(Color.RED, DRAW, None))
    assert a.state.move_stack[-1] == b.state.move_stack[-1]


def test_illegal_move_from_a_controller_is_an_error_and_changes_nothing():
    s = State.random(Rng(2))
    bad = Move(Color.RED, PLAY, s.hand(Color.WHITE)[0])
    m = Match(s, (Fixed(bad), HumanController()), LocalChance(Rng(1)))
    h = s.state_hash()
    with pytest.raises(ValueError, match="illegal move"):
        m.update(0.1)
    assert s.state_hash() == h


def test_computer_controller_moves_through_the_thinker_after_its_delay():
    cpu = ComputerController(GreedyPlayer(1), "cpu", min_delay=0.5)
    m = local_match(cpu, HumanController(), seed=3)
    for _i in range(2000):
        m.update(0.01)
        if m.state.ply:
            break
    assert m.state.ply == 1 and m.state.move_stack[0].player is Color.RED
    assert m.human_to_move()
    m.close()


def test_begin_turn_once_per_turn_including_after_a_pass():
    s = State.random(Rng(2))
    red = Fixed(None)
    Match(s, (red, HumanController()), LocalChance(Rng(1)))
    assert red.turns == 1
