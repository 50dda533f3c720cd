"""A seeded random generator whose whole state is one 64-bit integer.

The game's randomness (shuffles, random first player, random hand draws) must live in the
game state so that a snapshot restores it exactly. :class:`random.Random` carries a
625-word Mersenne Twister state; SplitMix64 (Steele, Lea & Flood 2014, the seeder of
java.util.SplittableRandom and xoshiro) needs one integer, passes BigCrush, and is a few
lines of stdlib Python. See docs/decisions.md.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def next_u64(state: int) -> tuple[int, int]:
    """Advance ``state``; return ``(new_state, 64-bit output)``."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return ``(new_state, r)`` with r uniform in ``range(n)`` (rejection sampling)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list[T]) -> int:
    """Fisher–Yates shuffle of ``items`` in place; return the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    """Turn a user seed (any int) into a generator state."""
    state, _ = next_u64(seed & MASK64)
    return state
