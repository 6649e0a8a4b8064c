"""Durable file writes shared by saved games and settings.

:func:`atomic_write_text` replaces a file so that a kill or power cut at any moment
leaves either the old contents or the new ones, never a mix (issue 5: saves; issue 6:
settings).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def atomic_write_text(path: str | os.PathLike[str], text: str, mode: int = 0o666) -> None:
    """Replace ``path``'s contents with ``text`` (UTF-8) atomically and durably; a new file
    gets ``mode`` minus the umask (0o600 for a file holding secrets).

    Steps: a temporary file in the same folder, write, flush, fsync, ``os.replace``
    onto ``path``, then fsync the folder (POSIX) so the rename itself survives a
    power cut. If any step fails the temporary file is removed, ``path`` keeps its
    old contents, and the OSError is raised.
    """
    path = Path(path)
    folder = path.parent
    fd, tmp = _create_temp(path, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(folder)


def _create_temp(path: Path, mode: int = 0o666) -> tuple[int, str]:
    """A new temporary file ``.<name>.<random>.tmp`` next to ``path``, opened for writing.

    Unlike ``tempfile.mkstemp`` (always 0600) it gets the permissions a plain new
    file would (0666 minus the umask), so a "Save as…" file is as readable as any other.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _attempt in range(100):
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot create a temporary file next to {path}")  # pragma: no cover


def fsync_dir(folder: Path) -> None:
    """Make a rename inside ``folder`` durable (POSIX: fsync the folder; elsewhere nothing)."""
    if os.name != "posix":  # Windows cannot open a directory; its rename is durable enough
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
