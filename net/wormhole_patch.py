"""The two changes this program makes to magic-wormhole's Dilation (pinned: :data:`PINNED`),
and the one internal it calls, kept here and nowhere else (docs/protocol.md, "Over the internet").

1. ``TCP_NODELAY`` on every Dilation connection (direct or to a relay). Upstream sets it on
   none, and a game sends small frames: with Nagle's algorithm and delayed ACKs a move's round
   trip on loopback was 88 ms; with it, under a millisecond.
2. Listening only on 127.0.0.1 while ``ROSE_KING_LAN_LOOPBACK=1`` (the tests, a sandbox):
   upstream offers the peer a direct connection to every non-loopback address of the machine,
   so a test would reach past loopback.

3. (Called, not changed.) Dilation's own ping, for the round trip a seat connected by code
   shows (:func:`ping`): the library measures it (its manager's ``send_ping``, answered by the
   other side's ``handle_ping``) but offers no public call for it.

:func:`apply` wraps the two upstream methods once per process. :data:`UPSTREAM` holds a digest
of each method's source as pinned; ``tests/net/test_internet_patch.py`` fails when the installed
library's differ, so a new version is read before the pin moves.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from typing import Any, Callable

#: The magic-wormhole version these wrappers were written against (``pyproject.toml`` pins it).
PINNED = "0.24.0"

#: ``"module:Class.method"`` -> SHA-256 of the method's source in :data:`PINNED`.
UPSTREAM = {
    "wormhole._dilation.connection:DilatedConnectionProtocol.connectionMade":
        "2c5976301e8f9b29a32d2004d468ba6151b0bdcf848b169f6ef1e68ce3531dee",
    "wormhole._dilation.connector:Connector._get_listener_addresses":
        "0d5af5a24fe83175bbea69a757e3a156ed7c1cf51ab07c80b60d169e4b7939db",
    "wormhole._dilation.manager:Manager.send_ping":
        "2cb0c1b7aab3dcee4a31793e2023393e38903f679012923be7b98e3d40e91862",
    "wormhole._dilation.manager:Manager.handle_pong":
        "572e2c53d86f73c6b4a13290b568899480baab7635d59fe20c646de2665d3c53",
}

LOOPBACK_ENV = "ROSE_KING_LAN_LOOPBACK"  # (net.discovery's: one switch for the whole layer)

_applied = False


def _target(name: str) -> tuple[type, str]:
    import importlib
    mod, attr = name.split(":")
    cls, meth = attr.split(".")
    return getattr(importlib.import_module(mod), cls), meth


def source_digest(name: str) -> str:
    """SHA-256 (hex) of the upstream source of ``name`` (a key of :data:`UPSTREAM`), as installed
    (before :func:`apply`, or read through the wrapper's ``__wrapped__``)."""
    cls, meth = _target(name)
    fn = getattr(cls, meth)
    fn = getattr(fn, "__wrapped__", fn)
    return hashlib.sha256(inspect.getsource(fn).encode()).hexdigest()


def loopback_only() -> bool:
    """True while ``ROSE_KING_LAN_LOOPBACK=1``: nothing leaves this machine."""
    return os.environ.get(LOOPBACK_ENV) == "1"


def apply() -> None:
    """Wrap the two methods (idempotent)."""
    global _applied
    if _applied:
        return
    import functools

    from wormhole._dilation.connection import DilatedConnectionProtocol
    from wormhole._dilation.connector import Connector

    made = DilatedConnectionProtocol.connectionMade

    @functools.wraps(made)
    def connection_made(self: Any) -> Any:
        set_nodelay = getattr(self.transport, "setTcpNoDelay", None)
        if set_nodelay is not None:
            try:
                set_nodelay(True)
            except OSError:
                pass
        return made(self)

    addresses = Connector._get_listener_addresses

    @functools.wraps(addresses)
    def listener_addresses(self: Any) -> Any:
        return ["127.0.0.1"] if loopback_only() else addresses(self)

    DilatedConnectionProtocol.connectionMade = connection_made
    Connector._get_listener_addresses = listener_addresses
    _applied = True


def ping(dilated: Any, on_rtt: Callable[[float], None]) -> bool:
    """(Reactor thread.) Send one Dilation ping on ``dilated`` (the library's ``DilatedWormhole``,
    connected: a ping sent while it reconnects is dropped and never answered); ``on_rtt(s)``
    gets the round trip in seconds (the reactor's clock) when the pong comes, on the reactor
    thread. Returns False where the pinned internals are missing (nothing is sent)."""
    send = getattr(getattr(dilated, "_manager", None), "send_ping", None)
    if send is None:
        return False
    send(os.urandom(4), on_rtt)
    return True
