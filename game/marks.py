"""What both games' post-game analyses share: the marks a move or decision
gets by what it cost ("inaccuracy", "mistake", "blunder", as chess sites mark them) and the body
of their worker processes. Pure Python."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

LABELS = ("inaccuracy", "mistake", "blunder")


def mark(cost: float, thresholds: tuple[float, float, float]) -> str:
    """The label of a move that cost ``cost`` (the game's unit, >= 0) with ``thresholds`` =
    (inaccuracy, mistake, blunder), rising: the highest reached, or "" below the first.

    >>> [mark(x, (1.0, 2.5, 5.0)) for x in (0.5, 1.0, 3, 9)]
    ['', 'inaccuracy', 'mistake', 'blunder']
    """
    out = ""
    for label, threshold in zip(LABELS, thresholds):
        if cost >= threshold:
            out = label
    return out




def serve(conn: Connection, nice: int, work: Callable[[], object]) -> None:
    """Run ``work()`` as an analysis worker process's body: first lower the process's priority
    by ``nice`` (the window's frame loop comes first); a closed pipe ends it quietly (the window
    cancelled); any other error is sent down ``conn`` as ``("error", "Type: text")`` for the
    window to say."""
    import os
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:
            pass
    try:
        work()
    except (BrokenPipeError, EOFError, OSError):
        return
    except Exception as e:  # noqa: BLE001  (reported to the window, which says so)
        try:
            conn.send(("error", f"{type(e).__name__}: {e}"))
        except OSError:
            pass


__all__ = ["LABELS", "mark", "serve"]
