"""Exact odds for Apocalyptia. Distributions are {"value": p} dicts with
string keys, ready to draw; Critical chains are cut once what is left out
falls below a quarter of the contract's bound, so two dice stay inside it."""

from functools import lru_cache

from vtt.rules.dist import CUTOFF, exploding_total

from .die import BOTCH_FACE, beats, explodes, is_automatic

DIE_CUTOFF = CUTOFF / 4
P_BOTCH = 1 / 36  # a natural 1, then a 1 on the check die
P_CRITICAL = 1 / 6
# Mean of one die: 3.5 plain; with the chain E = 3.5 + E / 6, so 4.2.
MEAN_PLAIN, MEAN_EXPLODING = 3.5, 4.2


@lru_cache(maxsize=2)
def die_values(exploding: bool) -> tuple[tuple, float]:
    """(P(die value) indexed by value, mass cut off). The botch check never
    changes the value: a natural 1 counts 1 either way."""
    if not exploding:
        return (0.0,) + (1 / 6,) * 6, 0.0
    dist, cut = exploding_total(DIE_CUTOFF)
    values = [0.0] * (max(dist) + 1)
    for value, p in dist.items():
        values[value] = p
    return tuple(values), cut


@lru_cache(maxsize=1)
def die_margin() -> tuple[tuple, float]:
    """P(first die - second die) for two exploding dice, sorted by margin,
    and the mass cut off from the pair.

    A die shows 6k + r (k sixes, then r in 1..5) with chance 6^-(k+1), so
    the margin is 6(k1 - k2) + (r1 - r2): sum the chains' weights by their
    difference d, then spread each over the 9 differences of r (5 - |j| ways
    each), instead of convolving two long value lists."""
    values, cut = die_values(True)
    chains = len(values) // 6  # k runs over 0..chains-1, as exploding_total cut it
    by_difference: dict[int, float] = {}
    for k1 in range(chains):
        for k2 in range(chains):
            d = k1 - k2
            by_difference[d] = by_difference.get(d, 0.0) + 6.0 ** -(k1 + k2 + 2)
    margins: dict[int, float] = {}
    for d, weight in by_difference.items():
        for j in range(-4, 5):
            m = 6 * d + j
            margins[m] = margins.get(m, 0.0) + weight * (5 - abs(j))
    return tuple(sorted(margins.items())), 2 * cut - cut * cut


def _keyed(pairs) -> dict:
    return {str(value): p for value, p in pairs}


def roll_odds(req: dict) -> dict:
    bonus, difficulty = req["bonus"], req["difficulty"]
    if is_automatic(bonus, difficulty, req["stressful"]):
        return {
            "outcomes": {"success": 1.0},
            "automatic": True,
            "total": {str(bonus): 1.0},
            "expected_total": float(bonus),
            "botch": 0.0,
            "critical": 0.0,
        }
    exploding = explodes(req["kind"])
    values, cut = die_values(exploding)
    totals = [(value + bonus, p) for value, p in enumerate(values) if p]
    success = sum(p for total, p in totals if beats(total, difficulty))
    failure = sum(p for total, p in totals if not beats(total, difficulty))
    if beats(1 + bonus, difficulty):
        # A die that counts 1 would succeed, but a Botch among them fails.
        success, failure = success - P_BOTCH, failure + P_BOTCH
    return {
        "outcomes": {"success": success, "failure": failure},
        "truncated_mass": cut,
        "automatic": False,
        "total": _keyed(totals),
        "expected_total": (MEAN_EXPLODING if exploding else MEAN_PLAIN) + bonus,
        "botch": P_BOTCH,
        "critical": P_CRITICAL if exploding else 0.0,
    }


def _value_probability(value: int) -> float:
    values, _ = die_values(True)
    return values[value] if 0 <= value < len(values) else 0.0


def opposed_odds(req: dict) -> dict:
    shift = req["actor"]["bonus"] - req["opponent"]["bonus"]
    pairs, cut = die_margin()
    margins = [(m + shift, p) for m, p in pairs]
    actor = sum(p for m, p in margins if m > 0)
    opponent = sum(p for m, p in margins if m < 0)
    tie = sum(p for m, p in margins if m == 0)
    # Ties are re-rolled until someone wins: summing the geometric series,
    # each side's chance is its share of the rounds that are decided.
    decided = actor + opponent
    # A botch survives to the result only when its round is not a tie.
    actor_botch = P_BOTCH * (1 - _value_probability(BOTCH_FACE + shift)) / decided
    opponent_botch = P_BOTCH * (1 - _value_probability(BOTCH_FACE - shift)) / decided
    return {
        "outcomes": {"actor": actor / decided, "opponent": opponent / decided},
        "truncated_mass": cut / decided,
        "tie_per_round": tie,
        "expected_rounds": 1 / (1 - tie),
        "margin": _keyed((m, p / decided) for m, p in margins if m),
        "actor_botch": actor_botch,
        "opponent_botch": opponent_botch,
    }


def attack_odds(req: dict) -> dict:
    shift = req["atk_bonus"] - req["def_bonus"]
    weapon = req["weapon_dmg"]
    pairs, cut = die_margin()
    margins = [(m + shift, p) for m, p in pairs]
    hits = [(m, p) for m, p in margins if beats(m, 0)]
    hit = sum(p for _, p in hits)
    miss = sum(p for m, p in margins if not beats(m, 0))
    if req["defense"] == "block":
        weapon_broken = 1 - (1 - P_BOTCH) ** 2
    else:
        weapon_broken = P_BOTCH
    return {
        "outcomes": {"hit": hit, "miss": miss},
        "truncated_mass": cut,
        "margin": _keyed(margins),
        "damage": {"0": miss, **_keyed((m + weapon, p) for m, p in hits)},
        "expected_damage": sum((m + weapon) * p for m, p in hits),
        "atk_botch": P_BOTCH,
        "def_botch": P_BOTCH,
        "weapon_broken": weapon_broken,
    }
