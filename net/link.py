"""One TCP connection's framing, limits and heartbeat, shared by the multi-peer transports
(docs/protocol.md, "Frames", "Limits" and "The LAN layer").

A :class:`Link` is pure (no socket, thread or clock): bytes in -> checked messages out,
messages in -> bytes out, and :meth:`Link.tick` the only way time enters — every game's
connection skeleton, no game in it. The transport owns the socket and
feeds it; the game layer above reads the messages.

- :meth:`feed` decodes frames (:class:`~net.framing.FrameDecoder` with the given schemas),
  applies the per-type rate limits (:class:`~net.limits.RateLimiter`), swallows ``ping``,
  and turns the peer's ``error`` (or end of stream) into :attr:`closed`.
- :meth:`tick`: a link not :attr:`settled` :data:`~net.limits.HANDSHAKE_TIMEOUT` seconds after
  it opened is closed (``timeout``, "no handshake"); nothing whole heard for ``silence``
  seconds closes it (``timeout``); after ``heartbeat`` idle seconds a ``ping`` is queued.
- :meth:`close` queues ``error{code, reason}`` (unless told not to) and marks it closed.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

from .framing import FrameDecoder, FrameError, encode_frame
from .limits import HANDSHAKE_TIMEOUT, RATES, RateLimiter

HEARTBEAT = 2.0  #: seconds of sending nothing before a ping
SILENCE = 6.0  #: seconds without a whole message before the link counts as dropped


@dataclass(frozen=True)
class LinkClosed:
    """Why a link ended: ``code`` (docs/protocol.md, "Errors"), ``reason`` for people,
    ``by_peer`` True when the peer sent the ``error`` (or closed the stream)."""

    code: str
    reason: str
    by_peer: bool


class Link:
    """The frame layer of one connection (see the module docstring).

    ``schemas``: message type -> key checks (:func:`net.framing.check_message`); ``rates``:
    per-type token buckets (burst, refill per second; ``"*"`` for the rest); ``now``: the
    caller's clock (seconds, monotonic); ``heartbeat``/``silence``/``handshake``: seconds.
    """

    def __init__(self, schemas: dict[str, Any], *, rates: dict[str, Any] = RATES, now: float = 0.0, heartbeat: float = HEARTBEAT,
                 silence: float = SILENCE, handshake: float = HANDSHAKE_TIMEOUT) -> None:
        self.schemas = schemas
        self._decoder = FrameDecoder(schemas)
        self._limiter = RateLimiter(rates, now)
        self._out = bytearray()
        self.heartbeat, self.silence, self.handshake = heartbeat, silence, handshake
        self.opened = self._last_sent = self._last_recv = self._now = now
        #: set by the layer above once the peer's seat is settled (hello and proof, or a lobby seat)
        self.settled = False
        self.closed: LinkClosed | None = None
        self.received = 0  #: bytes fed so far

    # ------------------------------------------------------------------ output
    def send(self, msg: dict[str, Any]) -> None:
        """Queue one message (checked against the schemas: a bad message raises FrameError,
        a bug on our side, never sent). Ignored once closed."""
        if self.closed is not None:
            return
        self._out += encode_frame(msg, self.schemas)
        self._last_sent = self._now

    def send_frame(self, frame: bytes) -> None:
        """Queue one already encoded frame (the same frame relayed to several links)."""
        if self.closed is None:
            self._out += frame
            self._last_sent = self._now

    def data_to_send(self) -> bytes:
        """The queued bytes, emptied by this call."""
        data = bytes(self._out)
        self._out.clear()
        return data

    # ------------------------------------------------------------------ input
    def feed(self, data: bytes, now: float) -> list[dict[str, Any]]:
        """Bytes from the peer (``b""``: end of stream) -> the whole messages they complete,
        ``ping`` and ``error`` removed. A bad frame, a schema error or a flood closes the link
        (an ``error`` is queued) and the messages after it are dropped; check :attr:`closed`."""
        self._now = now
        if self.closed is not None:
            return []
        self.received += len(data)
        if not data:
            self.closed = LinkClosed("eof", "the connection closed in the middle of a frame"
                                     if self._decoder.pending else "the peer closed the connection", True)
            return []
        try:
            messages = self._decoder.feed(data)
        except FrameError as e:
            self.close(e.code, str(e))
            return []
        out = []
        for msg in messages:
            self._last_recv = now
            t = msg["t"]
            if not self._limiter.allow(t, now):
                self.close("flood", f"too many {t!r} messages (rate limit)")
                break
            if t == "ping":
                continue
            if t == "error":
                self.closed = LinkClosed(msg["code"][:32], msg["reason"], True)
                break
            out.append(msg)
        return out

    def tick(self, now: float) -> None:
        """Advance the clock: the handshake deadline, the silence deadline, the heartbeat."""
        self._now = now
        if self.closed is not None:
            return
        if not self.settled and now - self.opened >= self.handshake:
            self.close("timeout", f"no handshake within {self.handshake:g} seconds")
        elif now - self._last_recv >= self.silence:
            self.close("timeout", f"no word from the peer for {self.silence:g} seconds", send=False)
        elif now - self._last_sent >= self.heartbeat:
            self.send({"t": "ping"})

    def close(self, code: str, reason: str, *, send: bool = True) -> None:
        """Close for ``code``/``reason``: the ``error`` is queued first (flush it, then drop the socket)."""
        if self.closed is not None:
            return
        if send:
            self._out += encode_frame({"t": "error", "code": code[:32], "reason": reason[:500]}, self.schemas)
        self.closed = LinkClosed(code, reason, False)
