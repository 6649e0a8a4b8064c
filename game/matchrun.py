"""What every game's ``rose-king match`` runner shares: games in parallel processes, and the
Wilson interval of a win rate. Pure Python (no pygame)."""

from __future__ import annotations

import math
import multiprocessing
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_parallel(fn: Callable[[T], R], tasks: Iterable[T], jobs: int = 1) -> Iterator[R]:
    """``fn(task)`` for each task, yielded in task order; in ``jobs`` spawned processes if
    ``jobs`` > 1 (``fn`` must then be a module-level function and the tasks picklable)."""
    if jobs <= 1:
        for t in tasks:
            yield fn(t)
        return
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap(fn, list(tasks), chunksize=1)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval (default 95%) of a proportion ``wins / n``, as (low, high) in 0..1;
    (0, 1) when ``n`` is 0.

    >>> [round(x, 3) for x in wilson(190, 200)]
    [0.91, 0.973]
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
