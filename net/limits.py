"""Limits shared by every LAN protocol: per-message-type rate limits, the handshake
deadline and the rules for names (docs/protocol.md, "Limits").
"""

from __future__ import annotations

import unicodedata

HANDSHAKE_TIMEOUT = 5.0  #: seconds from connecting until the seat must be settled (hello, proof)

#: The layer's own message types: (burst, refill per second). A type not listed is limited
#: by ``"*"``. The lobby adds its own (:data:`net.lobby.LOBBY_RATES`) and each game its match
#: messages' (:attr:`net.match.LanPart.rates`), merged by :func:`net.lobby.rates_for`.
RATES: dict[str, tuple[float, float]] = {
    "ping": (30, 30),
    "error": (2, 0),
    "*": (10, 5),
}

class RateLimiter:
    """Token buckets, one per message type. ``allow(type, now)`` takes one token and says
    whether one was there. Pure: time comes in as ``now`` (seconds)."""

    def __init__(self, rates: dict[str, tuple[float, float]] = RATES, now: float = 0.0) -> None:
        self.rates = rates
        self._tokens: dict[str, float] = {}
        self._when: dict[str, float] = {}
        self._start = now

    def allow(self, kind: str, now: float) -> bool:
        burst, rate = self.rates.get(kind) or self.rates["*"]
        tokens = self._tokens.get(kind, burst)
        tokens = min(burst, tokens + (now - self._when.get(kind, self._start)) * rate)
        self._when[kind] = now
        if tokens < 1:
            self._tokens[kind] = tokens
            return False
        self._tokens[kind] = tokens - 1
        return True


#: Characters refused in names beyond the control characters: bidi embeddings, overrides and
#: isolates, and zero-width or invisible formatting characters (Unicode category Cf).
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def name_problem(name: object, limit: int = 32) -> str | None:
    """What is wrong with a player name, or None: 1..``limit`` characters, no control
    characters (Cc), no format characters (Cf: bidi overrides, zero-width joiners and
    spaces, BOM...), no line or paragraph separators, not only spaces."""
    if type(name) is not str:
        return "must be a string"
    if not 1 <= len(name) <= limit:
        return f"must have 1..{limit} characters"
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Zl", "Zp") or ch in BIDI:
            return "must not contain control characters"
        if cat == "Cf":
            return "must not contain invisible or direction-changing characters"
    if not name.strip():
        return "must not be blank"
    return None


def clean_name(text: str, limit: int = 32, fallback: str = "Player") -> str:
    """``text`` with refused characters removed and cut to ``limit`` (for names from the
    system, e.g. the login name); ``fallback`` if nothing is left."""
    kept = "".join(ch for ch in text if name_problem(ch, 1) is None or ch == " ")[:limit].strip()
    return kept or fallback
