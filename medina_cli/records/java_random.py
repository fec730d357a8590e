"""A port of `java.util.Random` (the 48-bit linear congruential generator of the Java API docs).

boardspace.net derives the second edition's well and start merchant from a record's random key
with this generator, so replaying its records needs the exact same numbers.
"""

from __future__ import annotations

MULTIPLIER = 0x5DEECE66D
ADDEND = 0xB
MASK = (1 << 48) - 1


def _signed(value: int, width: int) -> int:
    """The two's-complement reading of the low `width` bits of `value`."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


class JavaRandom:
    """`new java.util.Random(seed)`: same seed, same sequence as Java."""

    def __init__(self, seed: int):
        self.seed = (seed ^ MULTIPLIER) & MASK

    def next(self, bits: int) -> int:
        """Java's protected `next(bits)`: the top `bits` bits of the new state, as a signed int."""
        self.seed = (self.seed * MULTIPLIER + ADDEND) & MASK
        return _signed(self.seed >> (48 - bits), 32)

    def next_int(self, bound: int | None = None) -> int:
        """`nextInt()` without a bound; `nextInt(bound)`, uniform in 0..bound-1, with a bound."""
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & -bound == bound:  # a power of two: take the high bits
            return (bound * self.next(31)) >> 31
        while True:
            bits = self.next(31)
            value = bits % bound
            if bits - value + bound - 1 < 1 << 31:  # Java rejects when this sum overflows an int
                return value

    def next_long(self) -> int:
        return _signed((self.next(32) << 32) + self.next(32), 64)
