"""Durable file writes shared by saved games and settings, and the words for their failures.

:func:`atomic_write_text` replaces a file so that a kill or power cut at any moment
leaves either the old contents or the new ones, never a mix (saves,
settings). :func:`os_error_text` says why a write failed in the player's language.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

from game.i18n import N_, _

#: The usual reasons a file cannot be written, by errno, as a phrase that fits after a colon
#: ("The game could not be saved: the disk is full"). Translated when shown.
OS_ERROR_PHRASES: dict[int, str] = {
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("your disk quota is used up"),
    errno.EACCES: N_("you have no permission for this file or folder"),
    errno.EPERM: N_("you have no permission for this file or folder"),
    errno.EROFS: N_("the disk is read-only"),
    errno.ENOENT: N_("the file or its folder does not exist"),
    errno.EISDIR: N_("that is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENAMETOOLONG: N_("the file name is too long"),
    errno.EIO: N_("the disk reported an input/output error"),
}


def os_error_text(error: OSError | str) -> str:
    """Why a file operation failed, in the current language: for the errnos of
    :data:`OS_ERROR_PHRASES` (disk full, quota, permission, read-only, missing, folder, name too
    long, I/O error) a translated phrase, else the operating system's own text (``strerror``,
    else ``str(error)``), which no catalogue knows.

    ``error``: the OSError raised, or the text a background writer kept of it
    (``net.session.WriteFailed.reason`` is ``strerror``): a text equal to this machine's
    ``os.strerror`` of a listed errno gets that errno's phrase; any other text comes back as it is.
    """
    if isinstance(error, OSError):
        code = error.errno
        if code is None or code not in OS_ERROR_PHRASES:
            return error.strerror or str(error)
        return _(OS_ERROR_PHRASES[code])
    for code, phrase in OS_ERROR_PHRASES.items():
        if error == os.strerror(code):
            return _(phrase)
    return error


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
