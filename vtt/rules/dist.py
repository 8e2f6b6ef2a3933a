"""Building blocks for exact distributions: lists of probabilities indexed by
value (index 0 = value 0 unless an offset is noted). Computed by convolution,
never by enumerating face combinations or sampling."""

from functools import lru_cache
from math import comb

CUTOFF = 1e-12  # explosion chains are cut once what is left out falls below this


@lru_cache(maxsize=512)
def binomial(n: int, p: float) -> tuple:
    """P(k successes) for n dice that each succeed with probability p."""
    q = 1.0 - p
    return tuple(comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


def convolve(a, b) -> list:
    """Distribution of the sum of two independent values."""
    out = [0.0] * (len(a) + len(b) - 1)
    for i, pa in enumerate(a):
        if pa:
            for j, pb in enumerate(b):
                out[i + j] += pa * pb
    return out


@lru_cache(maxsize=128)
def sum_of_dice(n: int) -> tuple:
    """P(total) of n plain d6, index = total (0..6n)."""
    dist = [1.0]
    die = [0.0] + [1 / 6] * 6
    for _ in range(n):
        dist = convolve(dist, die)
    return tuple(dist)


def exploding_total(cutoff: float = CUTOFF) -> tuple[dict, float]:
    """An open-ended d6: a 6 adds and is thrown again while 6s come.
    Returns ({total: probability}, left-out mass)."""
    dist: dict[int, float] = {}
    reach, base = 1.0, 0  # probability of reaching this throw, sum so far
    while reach > cutoff:
        for face in range(1, 6):
            dist[base + face] = reach / 6
        reach /= 6
        base += 6
    return dist, reach


def margin(a, b) -> dict:
    """{a - b: probability} for independent a and b (lists indexed by value)."""
    out: dict[int, float] = {}
    for i, pa in enumerate(a):
        if pa:
            for j, pb in enumerate(b):
                if pb:
                    out[i - j] = out.get(i - j, 0.0) + pa * pb
    return out
