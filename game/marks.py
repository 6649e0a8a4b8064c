"""The marks both games' post-game analyses give a move or decision by what it cost (issue 15,
issue 35): "inaccuracy", "mistake", "blunder", as chess sites mark them. Pure Python."""

from __future__ import annotations

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


__all__ = ["LABELS", "mark"]
