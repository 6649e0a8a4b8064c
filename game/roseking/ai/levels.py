"""Rose King's computer players by name: the levels (:data:`~game.roseking.ai.players.LEVELS`)
and the baselines (:data:`~game.roseking.ai.baselines.BASELINES`), each with an optional budget
suffix ``@SECONDS`` (``hard@0.25`` thinks 0.25 s per move whatever budget the match gives)."""

from __future__ import annotations

from .baselines import BASELINES
from .players import DEFAULT_SECONDS, LEVELS, Player


def parse_level(spec: object) -> tuple[str, dict[str, int], float | None]:
    """Split a level name into ``(level, parameters, seconds)``.

    ``spec``: a key of :data:`LEVELS` or :data:`BASELINES`; ``alphabeta`` takes its depth
    as ``alphabeta7`` or ``alphabeta:7`` (parameters ``{"depth": 7}``); any name takes a
    budget suffix ``@SECONDS`` (``hard@0.25``; seconds None without one). Raises
    ValueError naming the levels for anything else.
    """
    if not isinstance(spec, str):
        raise ValueError(f"unknown computer level {spec!r}")
    name, seconds = spec, None
    if "@" in spec:
        name, _, text = spec.partition("@")
        try:
            seconds = float(text)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds < 3600:
            raise ValueError(f"bad budget in computer level {spec!r}: expected @SECONDS, e.g. hard@0.25")
    if name in LEVELS or name in BASELINES:
        return name, {}, seconds
    if name.startswith("alphabeta"):
        digits = name[len("alphabeta"):].lstrip(":")
        if digits.isdigit() and 1 <= int(digits) <= 20:
            return "alphabeta", {"depth": int(digits)}, seconds
    raise ValueError(f"unknown computer level {spec!r} (choose from {', '.join(LEVELS)}; "
                     f"baselines {', '.join(BASELINES)}, alphabeta:DEPTH; any with @SECONDS)")


def is_level(spec: object) -> bool:
    """Whether :func:`make_player` accepts ``spec`` (see :func:`parse_level`)."""
    try:
        parse_level(spec)
    except ValueError:
        return False
    return True


class LevelNames(tuple[str, ...]):
    """The level names a match accepts: iterates over :data:`LEVELS` and :data:`BASELINES`,
    and ``in`` also accepts parametrised names (``alphabeta:7``, ``hard@0.25``)."""

    def __contains__(self, spec: object) -> bool:
        return is_level(spec)


#: What ``rose-king match`` accepts (``levels`` of the game's registry entry).
LEVEL_NAMES = LevelNames((*LEVELS, *BASELINES))


def make_player(level: str, seed: int | None = None, *, seconds: float | None = DEFAULT_SECONDS,
                iterations: int | None = None) -> Player:
    """A player of level ``level`` (see :func:`parse_level`). Raises ValueError for an unknown level.

    ``seconds`` (per move) and ``iterations`` set the budget of the search levels (a
    ``@SECONDS`` suffix of ``level`` overrides ``seconds``); the others ignore them.
    """
    name, params, own_seconds = parse_level(level)
    factory = LEVELS.get(name) or BASELINES[name]
    if own_seconds is not None:
        seconds = own_seconds
    return factory(seed, seconds=seconds, iterations=iterations, **params)
