"""Easing curves and small helpers for animations driven by the fixed-step clock.

Pure arithmetic (no pygame): every function maps ``t`` in 0..1 to 0..1 unless said.
"""

from __future__ import annotations

import math


def clamp01(t: float) -> float:
    return 0.0 if t < 0 else 1.0 if t > 1 else t


def ease_out_cubic(t: float) -> float:
    t = clamp01(t)
    return 1 - (1 - t) ** 3


def ease_in_out(t: float) -> float:
    t = clamp01(t)
    return t * t * (3 - 2 * t)


def ease_out_back(t: float, s: float = 1.6) -> float:
    """Overshoots a little past 1 before settling (a landing bounce)."""
    t = clamp01(t) - 1
    return t * t * ((s + 1) * t + s) + 1


def bounce_out(t: float) -> float:
    """A ball dropping onto a table (Penner's bounce)."""
    t = clamp01(t)
    n, d = 7.5625, 2.75
    if t < 1 / d:
        return n * t * t
    if t < 2 / d:
        t -= 1.5 / d
        return n * t * t + 0.75
    if t < 2.5 / d:
        t -= 2.25 / d
        return n * t * t + 0.9375
    t -= 2.625 / d
    return n * t * t + 0.984375


def lerp2(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def arc(a: tuple[float, float], b: tuple[float, float], t: float, height: float) -> tuple[float, float]:
    """Point at ``t`` on a path from ``a`` to ``b`` lifted by a sine arch of ``height`` px (upwards)."""
    x, y = lerp2(a, b, t)
    return x, y - math.sin(math.pi * clamp01(t)) * height


def window(t: float, start: float, end: float) -> float:
    """Local progress 0..1 of a sub-phase running from ``start`` to ``end`` (seconds or fractions)."""
    if end <= start:
        return 1.0 if t >= end else 0.0
    return clamp01((t - start) / (end - start))
