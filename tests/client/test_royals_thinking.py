"""Royals & Riots' computer decisions off the window's loop (:class:`RoyalsThinker`): the search
levels in the app's one worker process (:class:`game.worker.Worker`), the quick ones on a thread."""

from __future__ import annotations

import os
import signal
import time

import pytest

from game.client.royals.thinking import RoyalsThinker
from game.rng import Rng
from game.royals.engine import State

LIMIT = 30.0


def a_decision(seed: int = 3) -> State:
    """A 3-player match at its first decision after the deal (a seat to act)."""
    rng = Rng(seed)
    s = State(3)
    while s.to_act == 0 or s.is_chance():
        event = s.chance()
        assert event is not None
        s.push(event.sample(rng))
    return s


def wait(thinker: RoyalsThinker):
    end = time.monotonic() + LIMIT
    while time.monotonic() < end:
        a = thinker.poll()
        if a is not None:
            return a
        time.sleep(0.01)
    raise AssertionError("no decision")


def test_a_search_level_decides_in_the_worker_and_a_quick_one_on_a_thread():
    s = a_decision()
    thinker = RoyalsThinker(seconds=0.05, seed=1)
    try:
        thinker.start(s, s.to_act, "hard")
        assert thinker.worker is not None and thinker.worker.alive  # the worker took it
        a = wait(thinker)
        assert a in s.legal_actions()
        thinker.start(s, s.to_act, "random")
        assert a in s.legal_actions() and wait(thinker) in s.legal_actions()
    finally:
        thinker.close()
    assert thinker.worker is None


def test_a_cancelled_decision_is_never_answered():
    s = a_decision()
    thinker = RoyalsThinker(seconds=0.5, seed=1)
    try:
        thinker.start(s, s.to_act, "hard")
        thinker.cancel()
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            assert thinker.poll() is None
            time.sleep(0.02)
    finally:
        thinker.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_worker_that_dies_is_said_and_the_next_decision_starts_a_new_one():
    s = a_decision()
    thinker = RoyalsThinker(seconds=5.0, seed=1)
    try:
        thinker.start(s, s.to_act, "hard")
        worker = thinker.worker
        assert worker is not None and worker.pid is not None
        os.kill(worker.pid, signal.SIGKILL)
        end = time.monotonic() + LIMIT
        with pytest.raises(RuntimeError, match="died"):
            while time.monotonic() < end:
                thinker.poll()
                time.sleep(0.01)
        thinker.seconds = 0.05
        thinker.start(s, s.to_act, "hard")   # a fresh worker
        assert thinker.worker is not None and thinker.worker is not worker
        assert wait(thinker) in s.legal_actions()
    finally:
        thinker.close()
