"""A tiny seeded generator whose whole state is one integer (splitmix64).

The state lives inside the game state, so replaying a log reproduces every
shuffle, and the JSON snapshot stays small.
"""

MASK = (1 << 64) - 1


def step(x: int) -> tuple[int, int]:
    """Advance the generator: returns (new state, 64 random bits)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def below(x: int, n: int) -> tuple[int, int]:
    """A number in range(n); the modulo bias (n <= 100) is below 1e-17."""
    x, r = step(x)
    return x, r % n


def shuffle(x: int, items: list) -> int:
    """Fisher-Yates shuffle in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        x, j = below(x, i + 1)
        items[i], items[j] = items[j], items[i]
    return x
