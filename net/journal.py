"""Where a peer's private journal lives (docs/protocol.md, "The LAN layer: session", "Journal").

The journal itself (the lobby's seat memo and the game's match payload: its secrets, its
commitments, its own decisions, written before each promise is sent) is written and read by
:mod:`net.session`; each game owns its payload. It is private (it holds secrets): never sent
as a whole, different on each peer; the game record is what the peers share.
"""

from __future__ import annotations

import os
from pathlib import Path


def seat_path(record: str | os.PathLike[str]) -> Path:
    """Where the private journal of the game recorded in ``record`` lives: ``<record>.journal``
    (every game's)."""
    record = Path(record)
    return record.with_name(record.name + ".journal")
