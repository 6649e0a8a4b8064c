"""Saves of Royals & Riots matches (placeholder until the saves land)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

from game.i18n import _

if TYPE_CHECKING:
    from ..app import App


def resume(app: "App", path: str | os.PathLike[str]) -> None:
    raise ValueError(_("Royals & Riots saves cannot be resumed yet"))


def open_replay(app: "App", path: str | os.PathLike[str], on_back: Callable[[], None] | None = None) -> str | None:
    return _("Royals & Riots records cannot be replayed yet")
