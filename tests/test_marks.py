"""game.marks: the labels both analyses give by cost, and their worker processes' body."""

from __future__ import annotations

import multiprocessing

from game.marks import mark, serve


def test_the_highest_threshold_reached_names_the_mark():
    assert [mark(x, (5.0, 10.0, 20.0)) for x in (0, 4.99, 5, 10, 19.9, 20, 1e9)] == \
        ["", "", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_a_failing_worker_says_why_and_a_closed_pipe_is_quiet():
    parent, child = multiprocessing.Pipe(duplex=False)

    def fails() -> None:
        raise ValueError("no such record")
    serve(child, 0, fails)
    assert parent.recv() == ("error", "ValueError: no such record")

    def cancelled() -> None:
        raise BrokenPipeError
    serve(child, 0, cancelled)  # the window cancelled: nothing is sent, nothing raised
    assert not parent.poll()
