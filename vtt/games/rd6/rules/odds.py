"""Exact Rd6 odds, by convolution over dice.

A side's distributions are lists of probabilities indexed by the dice part of
its total (pips are added last), all cut at one common length. Every entry
inside that length is exact: it only leaves out explosion chains long enough
to carry the dice past the end, and the chance of those is the tail of the
number of sixes the open-ended dice show between them (a negative binomial),
which is what we report as `truncated_mass`."""

from functools import lru_cache
from math import comb

from vtt.rules.dist import CUTOFF

from .arithmetic import (
    CHECK_ODDS,
    RESULT_LEVELS,
    needed,
    refuse_after_true_critical_failure,
    result_level,
    shape_pool,
    successes,
)

SIXTH = 1 / 6


# --- building blocks -------------------------------------------------------


def _sixes_tail(exploding: int, k: int) -> float:
    """P(`exploding` open-ended dice show k or more sixes between them):
    the sixes before the last of them stops, a negative binomial."""
    term = comb(k + exploding - 1, k) * SIXTH**k * (5 * SIXTH) ** exploding
    tail, j = 0.0, k
    while term > tail * 1e-17:
        tail += term
        j += 1
        term *= (j + exploding - 1) / j * SIXTH
    return tail


@lru_cache(maxsize=64)
def _sixes_budget(exploding: int, cutoff: float) -> tuple[int, float]:
    """The fewest sixes k whose tail is within `cutoff`, and that tail."""
    k = 1
    while (tail := _sixes_tail(exploding, k)) > cutoff:
        k += 1
    return k, tail


@lru_cache(maxsize=512)
def _capped_ways(dice: int, cap: int) -> tuple:
    """Ways (exact integers) for `dice` dice each showing 1..cap to make
    each sum, index = sum; one die more slides a window of `cap` sums."""
    ways = [1]
    for _ in range(dice):
        prefix = [0]
        for w in ways:
            prefix.append(prefix[-1] + w)
        top = len(ways) - 1 + cap
        ways = [prefix[min(len(ways), s)] - prefix[max(0, s - cap)] for s in range(top + 1)]
    return tuple(ways)


@lru_cache(maxsize=128)
def _regular_sum(dice: int) -> tuple:
    """P(sum of the regular dice), index = sum."""
    outcomes = 6**dice
    return tuple(w / outcomes for w in _capped_ways(dice, 6))


@lru_cache(maxsize=128)
def _regular_less_highest(dice: int) -> tuple:
    """P(sum of the regular dice less their highest die), index = that sum.
    Ways with highest die exactly m are the ways capped at m less those
    capped at m - 1, all in exact integers."""
    if dice == 0:
        return (1.0,)
    counts = [0] * (6 * dice + 1)
    below: tuple = ()
    for cap in range(1, 7):
        capped = _capped_ways(dice, cap)
        for s, w in enumerate(capped):
            exact = w - (below[s] if s < len(below) else 0)
            if exact:
                counts[s - cap] += exact
        below = capped
    outcomes = 6**dice
    return tuple(c / outcomes for c in counts)


def _fit(dist, length: int) -> list:
    dist = list(dist[:length])
    return dist + [0.0] * (length - len(dist))


def _add_open_ended(dist: list, times: int = 1) -> list:
    """Add `times` dice that explode on 6 (a 1 just counts 1). With E the
    die's value, E = (1..5) or 6 + E again, so the sum G = dist + E obeys
    G[t] = (dist[t-1] + ... + dist[t-5] + G[t-6]) / 6, exact at every index."""
    for _ in range(times):
        pad = [0.0] * 6 + dist
        out = [0.0] * len(pad)
        for i in range(6, len(pad)):
            out[i] = (
                pad[i - 1] + pad[i - 2] + pad[i - 3] + pad[i - 4] + pad[i - 5] + out[i - 6]
            ) * SIXTH
        dist = out[6:]
    return dist


def _cumulative(dist: list) -> list:
    out, acc = [], 0.0
    for p in dist:
        acc += p
        out.append(acc)
    return out


def _mix(*parts: tuple[float, list]) -> list:
    return [sum(w * d[t] for w, d in parts) for t in range(len(parts[0][1]))]


# --- one side --------------------------------------------------------------


def _wild_pool(length: int, regular: int, extra: int, complication: str) -> tuple[list, list]:
    """Regular dice, one Wild Die and `extra` exploding dice."""
    base = _add_open_ended(_fit(_regular_sum(regular), length), extra)
    with_wild = _add_open_ended(base)
    # The Wild Die's first throw is 2-5, or 6 and it goes on like any open die.
    pad = [0.0] * 6 + base
    wild_fine = [0.0] * length
    for t in range(length):
        i = t + 6
        earlier = with_wild[t - 6] if t >= 6 else 0.0
        wild_fine[t] = (pad[i - 2] + pad[i - 3] + pad[i - 4] + pad[i - 5] + earlier) * SIXTH
    # Its first throw is 1: it counts 1 unless a complication cancels it.
    wild_one = [0.0] + base[:-1]
    crit = CHECK_ODDS["true_critical_failure"]
    if complication == "narrate":
        fine = _mix((1.0, wild_fine), (1 / 6 - crit, wild_one))
    else:
        less_highest = _add_open_ended(_fit(_regular_less_highest(regular), length), extra)
        fine = _mix(
            (1.0, wild_fine),
            (CHECK_ODDS["normal"], wild_one),
            (CHECK_ODDS["complication"], less_highest),
        )
    return fine, [crit * p for p in wild_one]


def _rolled_up_single(length: int, character_points: int) -> tuple[list, list]:
    """1D rolled up: the higher of the Wild Die and an added open die, plus
    Character Point dice. When the Wild Die's first throw is 1 the added die
    is what counts, whatever the check says (complication or not)."""
    die = _add_open_ended(_fit([1.0], length))
    wild_fine = list(die)
    wild_fine[1] = 0.0  # the first throw's 1 is the check's business
    die_upto, wild_below = _cumulative(die), [0.0] + _cumulative(wild_fine)[:-1]
    higher = [wild_fine[t] * die_upto[t] + wild_below[t] * die[t] for t in range(length)]
    fine = _add_open_ended(higher, character_points)
    added = _add_open_ended(_fit([1.0], length), character_points + 1)
    crit = CHECK_ODDS["true_critical_failure"]
    fine = _mix((1.0, fine), (1 / 6 - crit, added))
    return fine, [crit * p for p in added]


@lru_cache(maxsize=256)
def _side(
    regular: int,
    character_points: int,
    rollup: bool,
    keep_higher: bool,
    complication: str,
    cutoff: float,
) -> tuple[tuple, tuple, float]:
    """(fine, true_critical, truncated): the dice-part distribution of the
    rolls that are not a True Critical Failure, of those that are, and the
    probability left out."""
    exploding = 1 + character_points + int(rollup)
    k, truncated = _sixes_budget(exploding, cutoff)
    length = 6 * regular + 5 * exploding + 6 * (k - 1) + 1
    if keep_higher:
        fine, crit = _rolled_up_single(length, character_points)
    else:
        extra = character_points + int(rollup)
        fine, crit = _wild_pool(length, regular, extra, complication)
    return tuple(fine), tuple(crit), truncated


def _side_of(pool, cutoff: float) -> tuple[tuple, tuple, float]:
    return _side(
        pool.regular,
        pool.character_points,
        pool.rollup,
        pool.keep_higher,
        pool.complication,
        cutoff,
    )


def _keyed(dist: dict) -> dict:
    return {str(k): p for k, p in sorted(dist.items()) if p > 0}


def _add(dist: dict, key, p: float) -> None:
    dist[key] = dist.get(key, 0.0) + p


def _expected(dist: dict) -> float:
    return sum(k * p for k, p in dist.items())


def _check_branches() -> dict:
    return {"none": 5 / 6, **CHECK_ODDS}


def _catastrophic(pool) -> float:
    if not pool.catastrophic_failure:
        return 0.0
    return CHECK_ODDS["true_critical_failure"] * SIXTH**pool.regular


def _totals(pool, fine, crit) -> tuple[dict, dict]:
    totals: dict[int, float] = {}
    for part in (fine, crit):
        for t, p in enumerate(part):
            if p:
                _add(totals, t + pool.pips, p)
    counts: dict[int, float] = {}
    for total, p in totals.items():
        _add(counts, successes(total), p)
    return totals, counts


# --- actions ---------------------------------------------------------------


def roll_odds(fields: dict) -> dict:
    refuse_after_true_critical_failure(fields)
    pool = shape_pool(fields)
    fine, crit, truncated = _side_of(pool, CUTOFF)
    need, retry = needed(fields), fields["retry"]
    success, failure = 0.0, sum(crit)
    points: dict[int, float] = {0: failure}
    levels = dict.fromkeys(RESULT_LEVELS, 0.0)
    for t, p in enumerate(fine):
        if not p:
            continue
        got = successes(t + pool.pips)
        if got >= need:
            success += p
            earned = 0 if retry else got - need
            _add(points, earned, p)
            levels[result_level(earned)] += p
        else:
            failure += p
            points[0] += p
    totals, counts = _totals(pool, fine, crit)
    return {
        "outcomes": {"success": success, "failure": failure},
        "truncated_mass": truncated,
        "pool": pool.size,
        "pips": pool.pips,
        "needed": need,
        "total": _keyed(totals),
        "successes": _keyed(counts),
        "result_points": _keyed(points),
        "result_level": levels,
        "critical_failure_check": _check_branches(),
        "catastrophic": _catastrophic(pool),
        "expected_total": _expected(totals),
        "expected_successes": _expected(counts),
        "expected_result_points": _expected(points),
    }


def _suffix(dist: list) -> list:
    """suffix[i] = P(index >= i), summed from the top so tails stay exact."""
    out, acc = [0.0] * (len(dist) + 1), 0.0
    for i in range(len(dist) - 1, -1, -1):
        acc += dist[i]
        out[i] = acc
    return out


def _compare(actor: list, opponent: list, shift: int) -> tuple[float, float, float]:
    """P(a > o), P(a = o), P(a < o) for a drawn from `actor` and o from
    `opponent` moved up by `shift` (the opponent's pips less the actor's)."""
    below = [0.0] + _cumulative(opponent)  # below[i] = P(index < i)
    above = _suffix(opponent)  # above[i] = P(index >= i)
    top = len(opponent)
    win = tie = lose = 0.0
    for t, p in enumerate(actor):
        if not p:
            continue
        o = t - shift  # the opponent's dice part that ties
        win += p * below[min(max(o, 0), top)]
        lose += p * above[min(max(o + 1, 0), top)]
        if 0 <= o < top:
            tie += p * opponent[o]
    return win, tie, lose


def opposed_odds(fields: dict) -> dict:
    actor_pool = shape_pool(fields["actor"], "actor.")
    opponent_pool = shape_pool(fields["opponent"], "opponent.")
    # Each side may leave out half of what the contract allows.
    a_fine, a_crit, a_cut = _side_of(actor_pool, CUTOFF / 2)
    o_fine, o_crit, o_cut = _side_of(opponent_pool, CUTOFF / 2)
    # Successes rise with the total, so "more successes, then the higher
    # total" is simply the higher total.
    win, tie, lose = _compare(list(a_fine), list(o_fine), opponent_pool.pips - actor_pool.pips)
    a_fails, o_fails = sum(a_crit), sum(o_crit)
    a_stands, o_stands = sum(a_fine), sum(o_fine)
    _, a_counts = _totals(actor_pool, a_fine, a_crit)
    _, o_counts = _totals(opponent_pool, o_fine, o_crit)
    margin: dict[int, float] = {}
    for a, pa in a_counts.items():
        for o, po in o_counts.items():
            _add(margin, a - o, pa * po)
    return {
        "outcomes": {
            "actor": win + a_stands * o_fails,
            "opponent": lose + o_stands * a_fails,
            "draw": tie + a_fails * o_fails,
        },
        "truncated_mass": a_cut + o_cut,
        "actor_successes": _keyed(a_counts),
        "opponent_successes": _keyed(o_counts),
        "margin": _keyed(margin),
        "expected_margin": _expected(margin),
    }
