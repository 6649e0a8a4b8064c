"""Fixtures of the LAN tests."""

import pytest

from net.loopback import Pair


@pytest.fixture
def pair():
    """A host and a joiner in memory, handshake and set-up coin done."""
    p = Pair()
    p.pump()
    return p


@pytest.fixture
def procs():
    """``make(*args)``: start ``python -m game.cli *args`` as a :class:`tests.net.test_cli.Proc`;
    every process still running at the end of the test is killed."""
    from tests.net.test_cli import Proc
    made = []

    def make(*args: str):
        p = Proc(*args)
        made.append(p)
        return p
    yield make
    for p in made:
        p.kill()
