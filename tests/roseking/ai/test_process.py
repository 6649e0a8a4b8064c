"""The process thinker: same interface as Thinker, answers off the caller's process, cancels."""

from __future__ import annotations

import time

import pytest

from game.roseking.ai import Thinker
from game.roseking.ai.process import ProcessThinker, make_thinker
from game.roseking.engine import Rng, State


def _wait(thinker, limit: float = 20.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        move = thinker.poll()
        if move is not None:
            return move
        time.sleep(0.005)
    raise AssertionError("no answer in time")


def test_process_thinker_answers_cancels_and_closes(forced_hero):
    s = State.random(Rng(6))
    with make_thinker("hard", seed=3, iterations=30, seconds=None) as thinker:
        assert isinstance(thinker, ProcessThinker)
        assert thinker.poll() is None  # never blocks
        thinker.start(s)
        assert _wait(thinker) in s.legal_moves()
        # a cancelled request never answers; the next one does, with its own position
        thinker.start(s)
        thinker.cancel()
        thinker.start(forced_hero)
        assert str(_wait(thinker)) == "red hero N1"
        assert thinker.poll() is None
    with pytest.raises(RuntimeError, match="closed"):
        thinker.start(s)


def test_cancel_stops_a_long_search_quickly():
    s = State.random(Rng(7))
    thinker = ProcessThinker("hard", seed=1, seconds=30.0)
    thinker.start(s)
    time.sleep(0.3)
    t0 = time.monotonic()
    thinker.cancel()
    assert thinker.poll() is None
    thinker.close(timeout=5.0)  # the worker must finish the (cancelled) search before it reads "stop"
    assert time.monotonic() - t0 < 1.0
    assert thinker.worker.exitcode == 0  # it stopped by itself, it was not terminated


def test_same_seed_same_choice_across_processes():
    s = State.random(Rng(9))
    moves = []
    for _ in range(2):
        with make_thinker("hard", seed=42, iterations=40, seconds=None) as thinker:
            thinker.start(s)
            moves.append(_wait(thinker))
    assert moves[0] == moves[1]


def test_instant_levels_use_a_thread_thinker():
    thinker = make_thinker("greedy", seed=1)
    assert isinstance(thinker, Thinker)
    s = State.random(Rng(1))
    thinker.start(s)
    assert _wait(thinker) in s.legal_moves()
    thinker.close()
    with pytest.raises(ValueError, match="unknown computer level"):
        make_thinker("grandmaster")


def test_expert_thinks_in_a_worker_process():
    s = State.random(Rng(10))
    with make_thinker("expert", seed=4, iterations=200, seconds=None) as thinker:
        assert isinstance(thinker, ProcessThinker)
        thinker.start(s)
        assert _wait(thinker) in s.legal_moves()
