"""Fixtures of the LAN tests."""

import pytest

from net.loopback import Pair


@pytest.fixture
def pair():
    """A host and a joiner in memory, handshake and set-up coin done."""
    p = Pair()
    p.pump()
    return p
