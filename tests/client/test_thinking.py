"""BackgroundThinker (worker start-up off the frame loop) and the computer controller after a take-back."""

from __future__ import annotations

import threading

import pytest

from game.roseking.ai import Thinker
from game.roseking.match import ComputerController, HumanController, local_match
from game.client.roseking.thinking import BackgroundThinker, computer_thinker
from game.roseking.engine import PLAY, Rng, State


class FakeThinker:
    """Answers the first legal move of the last position it was started on; records calls."""

    def __init__(self):
        self.started: list[State] = []
        self.cancels = 0
        self.closed = False
        self.answer_ready = False

    def start(self, state):
        self.started.append(state.copy(stack=False))
        self.answer_ready = True

    def poll(self):
        if self.answer_ready:
            self.answer_ready = False
            return self.started[-1].legal_moves()[0]
        return None

    def cancel(self):
        self.cancels += 1
        self.answer_ready = False

    def close(self):
        self.closed = True


def gated(fake: FakeThinker, fail: bool = False):
    """A factory that waits for ``gate`` before it returns ``fake`` (or raises), and says when it began."""
    gate, began = threading.Event(), threading.Event()

    def factory():
        began.set()
        assert gate.wait(10), "test gate never opened"
        if fail:
            raise OSError("no more processes")
        return fake
    return factory, gate, began


def wait_ready(bt: BackgroundThinker) -> None:
    bt._thread.join(10)
    assert bt.ready


def test_a_start_before_the_worker_is_up_is_handed_over_once_it_is():
    fake = FakeThinker()
    factory, gate, began = gated(fake)
    bt = BackgroundThinker(factory)
    assert began.wait(10)
    s1, s2 = State.random(Rng(1)), State.random(Rng(2))
    bt.start(s1)
    bt.start(s2)  # the later request replaces the earlier one
    assert bt.poll() is None and not bt.ready  # never blocks while the worker starts
    gate.set()
    wait_ready(bt)
    assert bt.poll() is None  # this poll hands the request over
    assert [s.state_hash() for s in fake.started] == [s2.state_hash()]
    assert bt.poll() == s2.legal_moves()[0]
    bt.close()
    assert fake.closed


def test_cancel_before_the_worker_is_up_drops_the_request():
    fake = FakeThinker()
    factory, gate, _began = gated(fake)
    bt = BackgroundThinker(factory)
    bt.start(State.random(Rng(1)))
    bt.cancel()
    gate.set()
    wait_ready(bt)
    assert bt.poll() is None and fake.started == []
    bt.close()


def test_closing_while_the_worker_is_built_closes_it_when_built():
    fake = FakeThinker()
    factory, gate, began = gated(fake)
    bt = BackgroundThinker(factory)
    assert began.wait(10)
    threading.Timer(0.05, gate.set).start()  # the build finishes while close() waits for it
    bt.close()
    assert fake.closed and not bt.ready
    assert bt.poll() is None
    with pytest.raises(RuntimeError, match="closed"):
        bt.start(State.random(Rng(1)))
    bt.close()  # twice is fine


def test_a_failed_start_is_reported_by_poll():
    factory, gate, _began = gated(FakeThinker(), fail=True)
    bt = BackgroundThinker(factory)
    bt.start(State.random(Rng(1)))
    gate.set()
    bt._thread.join(10)
    with pytest.raises(RuntimeError, match="could not start: no more processes"):
        bt.poll()
    bt.close()


def test_a_failed_start_falls_back_and_the_request_is_not_lost():
    factory, gate, _began = gated(FakeThinker(), fail=True)
    spare = FakeThinker()
    bt = BackgroundThinker(factory, fallback=lambda: spare)
    s = State.random(Rng(1))
    bt.start(s)
    gate.set()
    bt._thread.join(10)
    assert bt.poll() is None  # swapped in, and handed the request
    assert "no more processes" in bt.fell_back
    assert [x.state_hash() for x in spare.started] == [s.state_hash()]
    assert bt.poll() == s.legal_moves()[0]
    bt.close()
    assert spare.closed


class Dying(FakeThinker):
    def poll(self):
        raise RuntimeError("computer player process died")


def test_a_worker_that_dies_is_replaced_by_the_fallback():
    dying, spare = Dying(), FakeThinker()
    factory, gate, _began = gated(dying)
    gate.set()
    bt = BackgroundThinker(factory, fallback=lambda: spare)
    wait_ready(bt)
    s = State.random(Rng(2))
    bt.start(s)
    assert bt.poll() is None and dying.closed and bt.fell_back == "computer player process died"
    assert bt.poll() == s.legal_moves()[0]  # the spare thought about the same position
    bt.close()


def test_search_levels_get_a_process_started_in_the_background_instant_levels_a_thread():
    assert isinstance(computer_thinker("greedy", seed=1), Thinker)
    with pytest.raises(ValueError, match="unknown computer level"):
        computer_thinker("grandmaster")
    t = computer_thinker("medium", seed=1, iterations=10, seconds=None)
    try:
        assert isinstance(t, BackgroundThinker)
    finally:
        t.close()


def test_computer_rethinks_when_its_position_is_taken_back():
    """After an undo the computer must not hand over the move it found for the old position."""
    fake = FakeThinker()
    cpu = ComputerController(None, "cpu", min_delay=0, thinker=fake)  # type: ignore[arg-type]
    old, new = State.random(Rng(1)), State.random(Rng(2))
    stale = old.legal_moves()[0]
    assert stale not in new.legal_moves()  # so handing it over would be caught
    cpu.begin_turn(old)  # its answer for ``old`` is ready ...
    move = cpu.poll(new, 1 / 60)  # ... but the position was taken back to ``new``
    assert fake.started[-1].state_hash() == new.state_hash()
    assert move in new.legal_moves()
    assert cpu.poll(new, 1 / 60) is None and len(fake.started) == 2  # no restart while the position stays


def test_computer_in_a_match_moves_from_the_position_after_a_take_back():
    fake = FakeThinker()
    cpu = ComputerController(None, "cpu", min_delay=0, thinker=fake)  # type: ignore[arg-type]
    match = local_match(cpu, HumanController("me"), seed=4)
    match.update(1 / 60)  # Red (the computer) moves
    assert match.submit(next(m for m in match.state.legal_moves() if m.kind is PLAY)) is None
    fake.answer_ready = False  # it is thinking about its second move ...
    match.state.pop()  # ... when an undo takes both moves back
    match.state.pop()
    fake.answer_ready = True
    taken_back = match.state.state_hash()
    match.update(1 / 60)
    assert fake.started[-1].state_hash() == taken_back  # it thought again, about the position now on the board
    assert match.state.ply == 1
