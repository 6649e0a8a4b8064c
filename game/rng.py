"""The project's own seeded random generator (PCG32, XSH-RR variant).

Two machines (or two Python versions) that start from the same seed produce the
same numbers, which ``random.shuffle``/``randrange`` do not promise. Everything
is plain integer arithmetic. Reference: M. E. O'Neill, "PCG: A Family of Simple
Fast Space-Efficient Statistically Good Algorithms for Random Number Generation"
(2014), the ``pcg32`` generator with the default increment.
"""

from __future__ import annotations

import secrets
from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MULT = 6364136223846793005
_MASK64 = (1 << 64) - 1
_INC = 1442695040888963407  # odd


class Rng:
    """A deterministic 32-bit PCG generator.

    >>> Rng(42).next_u32() == Rng(42).next_u32()
    True
    >>> r = Rng(7); [r.randbelow(10) for _ in range(5)]
    [7, 2, 2, 2, 2]
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int | None = None) -> None:
        """``seed``: any int (taken modulo 2**64); None draws one from ``secrets``."""
        if seed is None:
            seed = secrets.randbits(64)
        self._state = 0
        self.next_u32()
        self._state = (self._state + (seed & _MASK64)) & _MASK64
        self.next_u32()

    def getstate(self) -> int:
        """The whole generator state, a 64-bit int (for saving and copying)."""
        return self._state

    def setstate(self, state: int) -> None:
        self._state = state & _MASK64

    def next_u32(self) -> int:
        """Next uniformly distributed integer in 0 .. 2**32 - 1."""
        old = self._state
        self._state = (old * _MULT + _INC) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def randbelow(self, n: int) -> int:
        """Uniform integer in 0 .. n-1 for 1 <= n <= 2**32 (unbiased, by rejection).

        Raises ValueError if n is out of range.
        """
        if not 0 < n <= 1 << 32:
            raise ValueError(f"randbelow needs 1 <= n <= 2**32, got {n}")
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            x = self.next_u32()
            if x < limit:
                return x % n

    def random(self) -> float:
        """Uniform float in [0, 1) with 32 bits of resolution."""
        return self.next_u32() / 4294967296.0

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element. Raises IndexError on an empty sequence."""
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]
