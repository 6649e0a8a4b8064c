"""Undo sequences: back to the human's turn against the computer, one action between two
humans, and draws that cannot be fished (same card after undo, redo, other moves, resume)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.roseking.engine import DRAW, IllegalMoveError, Move, Rng, State
from game.roseking.engine.moves import RED, WHITE
from game.roseking.saves import GameMeta, load_game
from game.saves import SaveStore
from game.roseking.undo import DeckChance, UndoHistory


def _draw(history: UndoHistory) -> Move:
    return history.push(Move(history.state.turn, DRAW, None))


def _play_until(history: UndoHistory, rng: Rng, stop) -> None:
    while not history.state.is_game_over() and not stop(history.state):
        history.push(rng.choice(history.state.legal_moves()))


def test_against_the_computer_undo_goes_back_to_the_humans_previous_turn():
    state = State.random(Rng(9))
    h = UndoHistory(state, humans=[RED], chance=DeckChance(1))
    rng = Rng(10)
    _play_until(h, rng, lambda s: s.ply >= 20)
    hashes = {}
    s = State(*state.deal)
    for i, m in enumerate(state.move_stack):
        hashes[i] = (s.state_hash(), s.turn)
        s.push(m)
    red_turns = [i for i, m in enumerate(state.move_stack) if m.player == RED]
    for expected_ply in reversed(red_turns):  # any number of times, one human turn each
        assert h.can_undo()
        popped = h.undo()
        assert state.ply == expected_ply and state.turn == RED
        assert popped[-1].player == RED and all(m.player == WHITE for m in popped[:-1])
        assert state.state_hash() == hashes[expected_ply][0]
    assert not h.can_undo() and h.undo() == [] and state.ply == 0


def test_when_the_computer_moved_first_there_is_nothing_to_undo_before_the_humans_move():
    state = State.random(Rng(9))
    h = UndoHistory(state, humans=[WHITE], chance=DeckChance(1))
    h.push(state.legal_moves()[0])  # the computer (red) opens
    assert not h.can_undo()
    h.push(state.legal_moves()[0])  # the human replies
    h.push(state.legal_moves()[0])  # the computer again
    assert [m.player for m in h.undo()] == [RED, WHITE]
    assert state.ply == 1 and state.turn == WHITE and not h.can_undo()


def test_undo_while_the_computer_is_to_move_takes_back_the_humans_move():
    state = State.random(Rng(9))
    h = UndoHistory(state, humans=[RED])
    move = h.push(state.legal_moves()[0])
    assert h.undo() == [move] and state.ply == 0 and state.turn == RED


def _find_pass_game():
    """A seeded game where someone passes (the same colour moves twice in a row)."""
    rng = Rng(27)
    s = State.random(rng)
    while not s.is_game_over():
        m = rng.choice(s.legal_moves())
        s.push(m if m.card is not None else m.with_outcome(rng.choice(s.chance_outcomes())))
        if s.passed():
            return s
    raise AssertionError("seed 27 has passes")


def test_undo_over_a_pass():
    """The opponent of the mover passed: one undo in human-vs-human still takes back one
    action; against the computer the run of the computer's moves goes with it."""
    game = _find_pass_game()
    mover = game.move_stack[-1].player  # moved, and moves again (the other passed)
    two = UndoHistory(game.copy(), humans=[RED, WHITE])
    assert len(two.undo()) == 1 and two.state.turn == mover
    # the computer is the mover: the human passed, the undo goes back before the human's last move
    vs = UndoHistory(game.copy(), humans=[mover.other])
    popped = vs.undo()
    assert popped[-1].player == mover.other and vs.state.turn == mover.other
    # the human is the mover: the computer passed, the undo takes back only the human's move
    vs = UndoHistory(game.copy(), humans=[mover])
    assert [m.player for m in vs.undo()] == [mover] and vs.state.turn == mover


def test_two_humans_undo_one_action_at_a_time():
    state = State.random(Rng(3))
    h = UndoHistory(state, humans=[RED, WHITE])
    _play_until(h, Rng(4), lambda s: s.ply >= 6)
    moves = list(state.move_stack)
    for n in range(5, -1, -1):
        assert h.undo() == [moves[n]] and state.move_stack == moves[:n]
    assert not h.can_undo()


def _until_a_draw_is_legal(h: UndoHistory, rng: Rng) -> None:
    _play_until(h, rng, lambda s: any(m.kind is DRAW for m in s.legal_moves()))


def test_an_undone_and_redone_draw_brings_the_same_card():
    state = State.random(Rng(5))
    h = UndoHistory(state, humans=[RED, WHITE], chance=DeckChance(77))
    _until_a_draw_is_legal(h, Rng(6))
    first = _draw(h)
    assert first.card is not None
    for _ in range(5):  # fishing: undo and draw again, over and over
        h.undo()
        assert _draw(h) == first


def test_undo_a_draw_play_something_else_then_draw_later_still_brings_the_same_card():
    """The hidden pile order: the card on top stays on top until someone draws it."""
    state = State.random(Rng(5))
    h = UndoHistory(state, humans=[RED, WHITE], chance=DeckChance(77))
    rng = Rng(6)
    _until_a_draw_is_legal(h, rng)
    drawn = _draw(h).card
    h.undo()
    plays = [m for m in state.legal_moves() if m.kind is not DRAW]
    assert plays, "this seed offers a play instead of the draw"
    h.push(plays[0])
    while not state.is_game_over():  # whoever draws next gets the card that was on top
        move = rng.choice(state.legal_moves())
        if move.kind is DRAW:
            assert h.push(move).card == drawn
            break
        h.push(move)
    else:
        pytest.fail("nobody drew")


def test_redo_reapplies_the_undone_moves_and_a_new_move_clears_it():
    state = State.random(Rng(12))
    h = UndoHistory(state, humans=[RED], chance=DeckChance(3))
    _play_until(h, Rng(13), lambda s: s.ply >= 8 and s.move_stack[-1].player == WHITE)
    full = state.copy()
    h.undo()
    h.undo()
    assert h.can_redo()
    h.redo()
    h.redo()
    assert state == full and not h.can_redo() and h.redo() == []
    popped = h.undo()
    # repeating the undone human move keeps the rest of the redo group
    h.push(popped[-1])
    assert h.can_redo()
    h.redo()
    assert state == full
    h.undo()
    other = [m for m in state.legal_moves() if m.kind is not DRAW and m != popped[-1]]
    assert other, "this seed offers the human another move"
    h.push(other[0])  # a different move: the undone future is gone
    assert not h.can_redo()


def test_a_redo_list_draw_keeps_its_card_even_with_a_random_chance_source():
    """Belt and braces: with a chance source that would give another card, the redo list wins."""
    state = State.random(Rng(5))
    rng = Rng(99)

    class RandomChance:  # like the client's LocalChance: a fresh random card each time
        def outcome(self, s):
            return rng.choice(s.chance_outcomes())

    h = UndoHistory(state, humans=[RED, WHITE], chance=RandomChance())
    _until_a_draw_is_legal(h, Rng(6))
    first = _draw(h)
    for _ in range(10):
        h.undo()
        assert _draw(h) == first


def test_an_illegal_move_changes_nothing():
    state = State.random(Rng(5))
    h = UndoHistory(state, humans=[RED, WHITE])
    h.push(state.legal_moves()[0])
    h.undo()
    before = state.copy()
    with pytest.raises(IllegalMoveError):
        h.push(Move(WHITE, state.legal_moves()[0].kind, state.legal_moves()[0].card))
    assert state == before and h.can_redo()


def test_quitting_after_an_undo_and_resuming_does_not_reroll_the_draw():
    store = SaveStore()
    meta = GameMeta.new("computer", computer_level="random", computer_color=WHITE)
    state = State.random(Rng(5))
    h = UndoHistory(state, humans=[RED], chance=DeckChance(meta.chance_seed))
    _until_a_draw_is_legal(h, Rng(6))
    store.autosave(state, meta)
    drawn = _draw(h).card
    h.undo()
    store.autosave(state, meta)
    resumed, meta2 = load_game(store.path_for(meta.game_id))  # a new process would do exactly this
    h2 = UndoHistory(resumed, humans=[RED], chance=DeckChance(meta2.chance_seed))
    assert _draw(h2).card == drawn


def test_deck_chance_follows_reshuffles_and_always_gives_a_legal_outcome():
    state = State.random(Rng(8))
    chance = DeckChance(123)
    h = UndoHistory(state, humans=[RED, WHITE], chance=chance)
    rng = Rng(9)
    draws = 0
    while not state.is_game_over():
        move = rng.choice(state.legal_moves())
        if move.kind is DRAW:
            expected = chance(state)
            assert expected in state.chance_outcomes()
            assert expected == next(c for c in chance.pile_order(state) if c in state.chance_outcomes())
            draws += 1
        h.push(move)
    assert draws > 14  # the first pile of 14 ran out: at least one reshuffle was used
    with pytest.raises(ValueError, match="full move stack"):
        chance.pile_order(state.copy(stack=False))


def test_deck_chance_is_fair_across_seeds():
    """Over many seeds the first card drawn is spread evenly over the 14 left after the deal."""
    state = State.random(Rng(1))
    outcomes = state.chance_outcomes()
    counts = {c: 0 for c in outcomes}
    n = 2800
    for seed in range(n):
        counts[DeckChance(seed)(state)] += 1
    expected = n / len(outcomes)
    chi2 = sum((k - expected) ** 2 / expected for k in counts.values())
    assert chi2 < 40  # 13 degrees of freedom: p < 0.0003 for a fair source to exceed it


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(RED,), (WHITE,), (RED, WHITE)]),
       st.lists(st.sampled_from(["move", "move", "move", "undo", "redo"]), max_size=120))
def test_random_sequences_keep_the_state_consistent(seed, humans, actions):
    state = State.random(Rng(seed))
    chance = DeckChance(seed)
    h = UndoHistory(state, humans=humans, chance=chance)
    rng = Rng(seed + 1)
    for action in actions:
        if action == "move" and not state.is_game_over():
            decision = rng.choice(state.legal_moves())
            expected = chance(state) if decision.kind is DRAW else decision.card
            assert h.push(decision).card == expected
        elif action == "undo":
            popped = h.undo()
            if len(humans) == 1 and popped:
                assert state.turn == humans[0] and popped[-1].player == humans[0]
        elif action == "redo":
            h.redo()
        replayed = State(*state.deal)
        for m in state.move_stack:
            replayed.push_checked(m)
        assert replayed == state


def test_a_match_that_pushes_itself_uses_the_history_as_its_chance_and_hook():
    """The client's Match pushes moves itself, asks ``chance.outcome(state)`` for a draw's
    card and calls its ``on_move`` hooks; the history plugs into both."""
    state = State.random(Rng(5))
    h = UndoHistory(state, humans=[RED, WHITE], chance=DeckChance(4))
    rng = Rng(6)

    def match_take(decision: Move) -> Move:  # what Match._take does
        move = decision.with_outcome(h.outcome(state)) if decision.card is None else decision
        state.push_checked(move)
        h.on_move(move, state)
        return move

    while not any(m.kind is DRAW for m in state.legal_moves()):
        match_take(rng.choice(state.legal_moves()))
    drawn = match_take(Move(state.turn, DRAW, None))
    h.undo()
    assert h.can_redo()
    assert match_take(Move(state.turn, DRAW, None)) == drawn and not h.can_redo()
    with pytest.raises(ValueError, match="not this history's state"):
        h.outcome(state.copy())
