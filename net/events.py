"""What a LAN session tells its caller (docs/protocol.md, "The LAN layer: session"): events
with codes and plain data, never words (the window translates), and the two errors of
joining. Read by :class:`net.session.Session`'s caller through :meth:`~net.mailbox.Mailbox.poll`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .match import Verdict


@dataclass(frozen=True)
class Status:
    """The session's state changed: ``code`` one of ``listening``, ``connecting``, ``lobby``,
    ``playing``, ``interrupted``, ``over``, ``failed``, ``closed``."""

    code: str


@dataclass(frozen=True)
class LobbySeats:
    """The lobby's rows changed: ``rows``, per seat ``(kind, name, connected)`` as
    :meth:`net.lobby.HostLobby.table_rows` gives them."""

    rows: tuple[Any, ...]


@dataclass(frozen=True)
class Started:
    """The match began (``resumed``: False) or was taken up again after a reconnection or a
    restart (True): ``table`` the :class:`net.match.Table`, ``seat`` ours (0: the host)."""

    table: Any
    seat: int
    resumed: bool


@dataclass(frozen=True)
class Noticed:
    """The match machine's :class:`net.match.Notice` (``code``, plain ``data``)."""

    code: str
    data: Any


@dataclass(frozen=True)
class Ended:
    """The match is over with this :class:`net.match.Verdict`."""

    verdict: Verdict


@dataclass(frozen=True)
class Dropped:
    """A connection closed: its closing ``code``, ``reason`` (English, for logs), whether the
    peer closed it (``by_peer``), whether a joiner stops reconnecting (``fatal``), the seat it
    held (-1: none)."""

    code: str
    reason: str
    by_peer: bool
    fatal: bool
    seat: int = -1


@dataclass(frozen=True)
class Refused:
    """Host: a connection that never held a seat was turned away (``code``, ``reason``)."""

    code: str
    reason: str


@dataclass(frozen=True)
class WriteFailed:
    """The journal or the record at ``path`` could not be written (``reason``, the OS's)."""

    path: str
    reason: str


class JoinError(ValueError):
    """Why a table cannot be joined (or resumed), as a code the window words
    (:func:`game.lan.join_error_text`); ``str(error)`` is the English detail for logs.

    Codes: ``version`` (the two programs speak different LAN versions), ``no-hello`` (the
    host closed without its hello), ``protocol`` (not this program's frames or messages),
    ``not-host`` (a hello, but not a host's), ``name`` (our player name cannot be sent),
    ``journal`` (the seat's journal cannot be read)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


class HostBusy(ConnectionError):
    """The host refused the connection with ``error{busy}`` (too many connections were settling
    at once, docs/protocol.md "Errors"): an OSError, so a caller waits and tries again as it
    does when nobody answers."""
