"""What Royals & Riots' version-2 session (:mod:`net.royals_session`) still shares from the old
Rose King transport: the events :class:`Refused` and :class:`WriteFailed`, and ``seat_path``
(the private journal beside a record). Rose King plays on the one LAN layer
(:mod:`net.session`); this module goes with :mod:`net.royals_session` once Royals & Riots is on
the layer too (issue 33).
"""

from __future__ import annotations

from dataclasses import dataclass

from .journal import seat_path

__all__ = ["Refused", "WriteFailed", "seat_path"]


@dataclass(frozen=True)
class Refused:
    """A local action could not be carried out (``reason`` says why, in English, for logs);
    nothing was sent. ``action`` is the command (``"play"``, ``"resign"``, ``"rematch"``, ...),
    or ``"connect"`` for a connection turned away before it took a seat, with ``code`` the
    closing code it was sent (docs/protocol.md, "Closing codes"; ``""`` otherwise). Screens word
    it from ``action``, the reason's family and ``code`` (``game.roseking.phrases.refused_text``,
    ``game.royals.phrases.refused_text``), never showing ``reason``."""

    action: str
    reason: str
    code: str = ""


@dataclass(frozen=True)
class WriteFailed:
    """Writing the record or the journal failed (``path``, ``reason``): the game goes on in
    memory, but a restart could not resume it. Reported once per path and reason."""

    path: str
    reason: str
