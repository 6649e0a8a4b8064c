"""Fixtures of the LAN tests."""

import pytest

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
