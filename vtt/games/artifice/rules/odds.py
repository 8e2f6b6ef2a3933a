"""Exact Artifice odds by a small dynamic programme over one pool.

What decides a pool's count is: how many dice show 4-6, what the Wild Die
shows (1, 6 or other) and, for a pip modifier, whether some die can take it.
A +N modifier gains a success when some failing die shows 4-N or more (the
highest failing die takes it, whichever die that is); a -N modifier loses one
when some succeeding die shows under 4+N. So each regular die is one of four
kinds (success or failure, "reached by the modifier" or not), and the regular
dice are counted in closed form by the binomial theorem; the Wild Die is
added face by face.

Distributions are returned as {"value": probability} with string keys in
ascending order, leaving out impossible values."""

from functools import lru_cache
from math import comb
from operator import add, mul


@lru_cache(maxsize=2048)
def pool_by_wild(dice: int, modifier: int) -> tuple[tuple, tuple, tuple]:
    """P(successes = s, Wild Die natural 1), (... natural 6), (... any other
    face) for a pool of `dice` >= 1 dice, indexed by s. Successes include the
    +1 of a natural 6 and the pip modifier."""
    regular = dice - 1
    reach = min(abs(modifier), 3)  # faces a modifier reaches: 3-a+1..3 or 4..3+a
    quiet = (3 - reach) / 6  # a failing (for +) or succeeding (for -) die it cannot reach
    plain = []  # P(k regular successes and no regular die the modifier reaches)
    reached = []  # P(k regular successes and some regular die it reaches)
    for k in range(regular + 1):
        ways = comb(regular, k)
        every = ways * 0.5**regular
        if modifier > 0:
            none = ways * 0.5**k * quiet ** (regular - k)
        elif modifier < 0:
            none = ways * quiet**k * 0.5 ** (regular - k)
        else:
            none = every
        plain.append(none)
        reached.append(every - none)
    plain = [p / 6 for p in plain]  # each Wild Die face has a sixth of the chance
    reached = [p / 6 for p in reached]
    both = list(map(add, plain, reached))
    step = 1 if modifier > 0 else -1
    size = dice + 2
    ones, sixes, other = [0.0] * size, [0.0] * size, [0.0] * size
    for face in range(1, 7):
        base = (face >= 4) + (face == 6)
        if modifier > 0:
            wild_reached = 4 - reach <= face <= 3
        else:
            wild_reached = modifier < 0 and 4 <= face <= 3 + reach
        into = ones if face == 1 else sixes if face == 6 else other
        if wild_reached:
            _add_at(into, base + step, both)
        else:
            _add_at(into, base, plain)
            if modifier:
                _add_at(into, base + step, reached)
    return tuple(ones), tuple(sixes), tuple(other)


def _add_at(into: list, at: int, values: list) -> None:
    """into[at + i] += values[i]; values before index 0 are zero and dropped."""
    if at < 0:
        values, at = values[-at:], 0
    end = at + len(values)
    into[at:end] = map(add, into[at:end], values)


@lru_cache(maxsize=2048)
def successes(dice: int, modifier: int) -> tuple:
    """P(successes = s) of one pool."""
    return tuple(a + b + c for a, b, c in zip(*pool_by_wild(dice, modifier), strict=True))


@lru_cache(maxsize=2048)
def critical_failure(dice: int, modifier: int) -> float:
    """P(Wild Die natural 1, or 4+ dice and no success)."""
    ones, _, other = pool_by_wild(dice, modifier)
    return sum(ones) + (other[0] if dice >= 4 else 0.0)


@lru_cache(maxsize=2048)
def contest_side(dice: int, modifier: int) -> tuple[tuple, tuple, tuple]:
    """One side of a Test as X = own successes - (1 if own Wild Die shows 1):
    the margin is X(actor) - X(opponent), since each side's natural 1 gives
    the other side a success. Returns (P(X), P(X and a natural 6), P(X >= x)),
    indexed by X + 1."""
    ones, sixes, other = pool_by_wild(dice, modifier)
    x = [0.0] * (len(ones) + 1)
    six = [0.0] * len(x)
    for s, p in enumerate(ones):
        x[s] += p
    for s in range(len(sixes)):
        x[s + 1] += sixes[s] + other[s]
        six[s + 1] = sixes[s]
    tail = [0.0] * (len(x) + 1)
    for i in range(len(x) - 1, -1, -1):
        tail[i] = tail[i + 1] + x[i]
    return tuple(x), tuple(six), tuple(tail)


def margin_dist(actor: tuple, opponent: tuple) -> tuple[list, int]:
    """P(actor X - opponent X) as a list, with the index of margin 0."""
    shift = len(opponent) - 1
    out = [sum(map(mul, actor, opponent[m:])) for m in range(shift, 0, -1)]
    out.extend(sum(map(mul, actor[m:], opponent)) for m in range(len(actor)))
    return out, shift


def as_dist(probs, offset: int = 0) -> dict:
    """{"value": p} for index - offset, impossible values left out."""
    return {str(i - offset): p for i, p in enumerate(probs) if p}


def check_odds(pool: int, modifier: int, difficulty: int, automatic: bool) -> dict:
    if automatic:
        s = pool // 2
        return {
            "outcomes": {"success" if s >= difficulty else "failure": 1.0},
            "successes": {str(s): 1.0},
            "margin": {str(s - difficulty): 1.0},
            "critical_success": 0.0,
            "critical_failure": 0.0,
            "expected_successes": float(s),
        }
    dice = max(pool, 1)
    dist = successes(dice, modifier)
    _, sixes, _ = pool_by_wild(dice, modifier)
    win = sum(dist[difficulty:])
    crit = sum(dist[difficulty + 4 :]) + sum(sixes[: difficulty + 4])
    return {
        "outcomes": {"success": win, "failure": 1.0 - win},
        "successes": as_dist(dist),
        "margin": as_dist(dist, difficulty),
        "critical_success": crit,
        "critical_failure": critical_failure(dice, modifier),
        "expected_successes": sum(s * p for s, p in enumerate(dist)),
    }


def _with_foes_one(dist: tuple) -> dict:
    """A side's final count: its own successes plus 1 when the other side's
    Wild Die shows a natural 1 (always 1 in 6)."""
    out = [0.0] * (len(dist) + 1)
    for s, p in enumerate(dist):
        out[s] += p * 5 / 6
        out[s + 1] += p / 6
    return as_dist(out)


def test_odds(actor: tuple, opponent: tuple, wound: bool) -> dict:
    """actor, opponent: (dice >= 1, modifier)."""
    xa, six_a, tail_a = contest_side(*actor)
    xo, six_o, tail_o = contest_side(*opponent)
    margins, zero = margin_dist(xa, xo)
    win = sum(margins[zero + 1 :] if wound else margins[zero:])
    # A natural 6 is critical whatever the margin; otherwise beating by 4+.
    crit_a = sum(margins[zero + 4 :]) + sum(
        p * tail_o[max(0, i - 3)] for i, p in enumerate(six_a) if p and i - 3 < len(xo)
    )
    crit_o = sum(margins[: max(0, zero - 3)]) + sum(
        p * tail_a[max(0, j - 3)] for j, p in enumerate(six_o) if p and j - 3 < len(xa)
    )
    return {
        "outcomes": {"actor": win, "opponent": 1.0 - win},
        "margin": as_dist(margins, zero),
        "actor_successes": _with_foes_one(successes(*actor)),
        "opponent_successes": _with_foes_one(successes(*opponent)),
        "actor_critical_success": crit_a,
        "actor_critical_failure": critical_failure(*actor),
        "opponent_critical_success": crit_o,
        "opponent_critical_failure": critical_failure(*opponent),
        "expected_margin": sum((i - zero) * p for i, p in enumerate(margins)),
    }


def attack_odds(combat_a, combat_d, wound_base, wound_mod, wound_d, track, before) -> dict:
    """combat_a, combat_d, wound_d: (dice >= 1, modifier) pools; the attacker's
    Wound Test pool is wound_base dice plus the cascade (at least 1)."""
    xa, _, _ = contest_side(*combat_a)
    xo, _, _ = contest_side(*combat_d)
    margins, zero = margin_dist(xa, xo)
    miss = sum(margins[:zero])
    # The Wound Test margin depends on the cascade only through the attacker's
    # pool, so mix the attacker's side over every cascade and compare once.
    mix: list = []
    for cascade, p in enumerate(margins[zero:]):
        if p:
            side = contest_side(max(1, wound_base + cascade), wound_mod)[0]
            if len(side) > len(mix):
                mix.extend([0.0] * (len(side) - len(mix)))
            for i, q in enumerate(side):
                mix[i] += p * q
    defender = contest_side(*wound_d)[0]
    steps = [0.0] + [sum(map(mul, mix[k:], defender)) for k in range(1, len(mix))]
    steps[0] = max(0.0, 1.0 - sum(steps))  # misses, and hits the defender shrugs off
    while len(steps) > 1 and not steps[-1]:
        steps.pop()
    start, last = track.index(before), len(track) - 1
    hit_after = [0.0] * len(track)  # where a hit leaves the defender
    hit_after[start] = steps[0] - miss
    for k in range(1, len(steps)):
        hit_after[min(start + k, last)] += steps[k]
    after = list(hit_after)
    after[start] += miss
    return {
        "outcomes": {
            "miss": miss,
            "hit": sum(hit_after[: last - 1]),
            "incapacitated": hit_after[last - 1],
            "dead": hit_after[last],
        },
        "combat_margin": as_dist(margins, zero),
        "condition_steps": as_dist(steps),
        "condition_after": dict(zip(track, after, strict=True)),
        "expected_condition_steps": sum(k * p for k, p in enumerate(steps)),
    }
