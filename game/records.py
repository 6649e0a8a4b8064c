"""Reading game record files, for every game: bounded, and with one set of reasons.

A record file is UTF-8 JSON whose top-level object names its game in ``"format"``
(``docs/record-format.md``, ``docs/royals-record-format.md``). This module reads such
a file safely (size bounded before parsing, no tracebacks for any content) and leaves
the game-specific checking to the game found in :mod:`game.registry`.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

MAX_FILE_BYTES = 1 << 20  # a 10 000-move record is ~200 kB; anything past 1 MiB is not ours


class RecordError(ValueError):
    """A file that is not a valid record, or whose actions break the rules.

    ``reason`` is one line of English. ``where`` (optional) locates the fault in the
    record's own terms, e.g. ``move 37 "white play N3"`` or ``round 2 action 17 "3 play K2"``;
    ``str(e)`` is ``where: reason`` or just the reason. Each game subclasses it.
    """

    def __init__(self, reason: str, where: str | None = None) -> None:
        self.reason = reason
        self.where = where
        super().__init__(f"{where}: {reason}" if where else reason)

    def check_line(self) -> str:
        """The text after ``PATH: `` in ``rose-king check``: ``error WHERE: REASON`` or ``error: REASON``."""
        return f"error {self.where}: {self.reason}" if self.where else f"error: {self.reason}"


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises :class:`RecordError` (never OSError) if the path cannot be opened, is not a
    regular file (a FIFO or device named ``*.json`` is refused without blocking on it),
    or holds more than ``limit`` bytes (reading stops at ``limit + 1``).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise RecordError(f"cannot read the file: {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RecordError("not a record: not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise RecordError(f"cannot read the file: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise RecordError(f"not a record: the file is too large (more than {limit // 1024} KiB)")
    return b"".join(chunks)


def parse_json(data: bytes) -> dict[str, Any]:
    """Parse record bytes into the top-level JSON object.

    Raises :class:`RecordError` for empty, binary, non-UTF-8, truncated or invalid
    JSON, absurd numbers (an integer of thousands of digits), deep nesting, or a top
    level that is not an object.
    """
    if not data.strip():
        raise RecordError("the file is empty")
    if b"\x00" in data:
        raise RecordError("not a record: binary data")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("not a record: the file is not UTF-8 text") from None
    try:
        obj = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as e:
        if not text[e.pos:].strip() or (e.msg.startswith("Unterminated string") and '"' not in text[e.pos + 1:]):
            raise RecordError("the file is cut short (truncated): it ends in the middle of the record") from None
        raise RecordError(f"not a record: invalid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None
    except ValueError as e:  # _parse_int's refusal
        raise RecordError(f"not a record: {e}") from None
    if not isinstance(obj, dict):
        raise RecordError("not a record of this app: a JSON file of another kind (its top level is not an object)")
    return obj


MAX_INT_DIGITS = 20  #: a JSON integer longer than this is refused before Python converts it
MAX_NAME_CHARS = 100  #: player names in a record (the window and the LAN allow 32)


def parse_int(text: str) -> int:
    """``json.loads``'s ``parse_int``: refuses an integer of more than :data:`MAX_INT_DIGITS`
    digits (ValueError) instead of spending quadratic time on thousands of them."""
    if len(text) > MAX_INT_DIGITS:
        raise ValueError("a number with too many digits")
    return int(text)


_parse_int = parse_int


def display_path(path: str | os.PathLike[str], limit: int = 120) -> str:
    """``path`` for a one-line message: at most ``limit`` characters (a 500 000-character
    name is cut in the middle with an ellipsis), control characters shown as ``?``."""
    text = "".join(ch if ch.isprintable() else "?" for ch in os.fspath(path))
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return f"{text[:half]}…{text[-half:]}"


def read_json(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """:func:`read_bytes` then :func:`parse_json`. Raises :class:`RecordError`."""
    return parse_json(read_bytes(path, limit))
