"""Artifice invariants over many requests: replay identity, counts within
their bounds, no valid request ever raising, and odds that move the way the
rules say they must."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.games.artifice.rules import SYSTEM
from vtt.games.artifice.rules.fields import STANDARD_TRACK
from vtt.rules import adjudicate, odds

pools = st.integers(0, 60)
modifiers = st.integers(-20, 20)
abilities = st.integers(0, 30)

checks = st.fixed_dictionaries(
    {"pool": pools, "difficulty": st.integers(0, 60)},
    optional={"modifier": modifiers, "automatic": st.booleans(), "cascade": st.booleans()},
).map(lambda f: {"system": "artifice", "action": "check", **f})

sides = st.fixed_dictionaries({"pool": pools}, optional={"modifier": modifiers})
tests = st.fixed_dictionaries(
    {"actor": sides, "opponent": sides},
    optional={"kind": st.sampled_from(["standard", "wound"]), "cascade": st.booleans()},
).map(lambda f: {"system": "artifice", "action": "test", **f})

tracks = st.lists(
    st.text(alphabet="abcdefghij", min_size=1, max_size=6), min_size=3, max_size=12, unique=True
)


@st.composite
def attacks(draw):
    track = draw(st.one_of(st.none(), tracks))
    names = track or list(STANDARD_TRACK)
    req = {
        "system": "artifice",
        "action": "attack",
        "attacker": draw(
            st.fixed_dictionaries(
                {"finesse": abilities, "might": abilities},
                optional={
                    "lethality": st.integers(0, 20),
                    "modifier": modifiers,
                    "wound_modifier": modifiers,
                },
            )
        ),
        "defender": draw(
            st.fixed_dictionaries(
                {"agility": abilities, "toughness": abilities},
                optional={
                    "condition": st.sampled_from(names),
                    "modifier": modifiers,
                    "wound_modifier": modifiers,
                },
            )
        ),
        "advantage": draw(st.sampled_from([None, "attacker", "defender"])),
        "range": draw(st.sampled_from([None, "adjacent", "near", "far"])),
    }
    if track is not None:
        req["condition_track"] = track
    return req


passives = st.builds(
    lambda a: {"system": "artifice", "action": "passive", "ability": a}, st.integers(0, 60)
)
coords = st.integers(-50, 50)
ranges = st.fixed_dictionaries(
    {
        "from": st.lists(coords, min_size=2, max_size=2),
        "to": st.lists(coords, min_size=2, max_size=2),
    },
    optional={
        "range_ft": st.one_of(st.none(), st.integers(0, 500), st.just("line_of_sight")),
        "walls": st.lists(st.lists(st.integers(-50, 50), min_size=4, max_size=4), max_size=5),
        "diagonal": st.sampled_from(["uniform", "alternating"]),
    },
).map(lambda f: {"system": "artifice", "action": "range", **f})

anything = st.one_of(checks, tests, attacks(), passives, ranges)


@settings(max_examples=300)
@given(anything)
def test_replaying_the_faces_gives_the_same_result(req):
    result = adjudicate(req)
    assert adjudicate({**req, "faces": [d["face"] for d in result["dice"]]}) == result


@settings(max_examples=300)
@given(anything)
def test_results_are_plain_json_with_a_known_outcome(req):
    result = adjudicate(req)
    assert json.loads(json.dumps(result)) == result
    assert result["outcome"] in SYSTEM.actions[req["action"]].outcomes
    assert list(result)[:2] == ["system", "action"] and list(result)[-1] == "dice"


def pool_dice(result, pool):
    return [d for d in result["dice"] if d["pool"] == pool]


def check_pool(dice, rolled, successes):
    assert len(dice) == rolled
    assert [d["role"] for d in dice] == ["regular"] * (rolled - 1) + ["wild"]
    assert all(d["success"] == (d["value"] >= 4) for d in dice)
    assert sum(d["value"] != d["face"] for d in dice) <= 1
    own = sum(d["success"] for d in dice) + (dice[-1]["face"] == 6)
    assert 0 <= own <= rolled + 1
    assert successes == own


@settings(max_examples=300)
@given(checks)
def test_check_counts_stay_in_bounds(req):
    r = adjudicate(req)
    if r["automatic"]:
        assert r["dice"] == [] and r["successes"] == req["pool"] // 2
    else:
        check_pool(r["dice"], max(1, req["pool"]), r["successes"])
        assert r["critical_failure"] == (
            r["dice"][-1]["face"] == 1 or (len(r["dice"]) >= 4 and r["successes"] == 0)
        )
    assert r["margin"] == r["successes"] - req["difficulty"]
    assert r["outcome"] == ("success" if r["margin"] >= 0 else "failure")
    assert 0 <= r["cascade"] <= max(0, r["margin"])


def check_test(r, dice, actor, opponent, names=("actor", "opponent")):
    """r: a test result; dice: the result holding its dice."""
    a_dice, o_dice = pool_dice(dice, names[0]), pool_dice(dice, names[1])
    a_one, o_one = a_dice[-1]["face"] == 1, o_dice[-1]["face"] == 1
    check_pool(a_dice, max(1, actor), r["actor_successes"] - o_one)
    check_pool(o_dice, max(1, opponent), r["opponent_successes"] - a_one)
    assert r["margin"] == r["actor_successes"] - r["opponent_successes"]
    assert r["actor_critical_failure"] >= a_one
    assert r["opponent_critical_failure"] >= o_one
    assert r["cascade"] in (0, abs(r["margin"]))


@settings(max_examples=300)
@given(tests)
def test_test_counts_stay_in_bounds(req):
    r = adjudicate(req)
    check_test(r, r, req["actor"]["pool"], req["opponent"]["pool"])
    ties_to_actor = req.get("kind", "standard") == "standard"
    won = r["margin"] > 0 or (r["margin"] == 0 and ties_to_actor)
    assert r["outcome"] == ("actor" if won else "opponent")


@settings(max_examples=300)
@given(attacks())
def test_attack_chain_stays_in_bounds(req):
    r = adjudicate(req)
    track = req.get("condition_track", list(STANDARD_TRACK))
    atk, dfn = req["attacker"], req["defender"]
    adv = req["advantage"]
    combat = r["combat"]
    finesse = atk["finesse"] + (adv == "attacker")
    agility = dfn["agility"] + (adv == "defender")
    check_test(combat, r, finesse, agility, ("combat_attacker", "combat_defender"))
    assert (combat["actor_pool"], combat["opponent_pool"]) == (max(1, finesse), max(1, agility))
    before = track.index(r["condition_before"])
    after = track.index(r["condition_after"])
    if r["outcome"] == "miss":
        assert combat["margin"] < 0 and r["wound"] is None and after == before
        return
    wound = r["wound"]
    assert combat["margin"] >= 0
    might = atk["might"] + atk.get("lethality", 0) + combat["margin"]
    check_test(wound, r, might, dfn["toughness"], ("wound_attacker", "wound_defender"))
    assert wound["actor_pool"] == max(1, might)
    assert r["condition_steps"] == max(0, wound["margin"])
    assert after == min(before + r["condition_steps"], len(track) - 1)
    expected = {len(track) - 1: "dead", len(track) - 2: "incapacitated"}.get(after, "hit")
    assert r["outcome"] == expected


@settings(max_examples=150, deadline=None)
@given(st.one_of(checks, tests, attacks(), passives, ranges))
def test_odds_of_any_valid_request_are_a_distribution(req):
    result = odds(req)
    assert abs(sum(result["outcomes"].values()) - 1.0) <= 1e-9
    assert all(-1e-15 <= p <= 1 + 1e-12 for p in result["outcomes"].values())
    assert json.loads(json.dumps(result)) == result


# monotonic odds ------------------------------------------------------------------


def p_check(pool, modifier, difficulty):
    req = {"system": "artifice", "action": "check", "pool": pool, "modifier": modifier}
    return odds({**req, "difficulty": difficulty})["outcomes"]["success"]


@settings(max_examples=150)
@given(st.integers(0, 59), st.integers(-20, 19), st.integers(0, 59))
def test_more_dice_and_pips_never_hurt_a_check_and_difficulty_never_helps(pool, mod, diff):
    p = p_check(pool, mod, diff)
    assert p_check(pool + 1, mod, diff) >= p - 1e-12
    assert p_check(pool, mod + 1, diff) >= p - 1e-12
    assert p_check(pool, mod, diff + 1) <= p + 1e-12


def p_actor(a, am, o, om, kind):
    return odds(
        {
            "system": "artifice",
            "action": "test",
            "actor": {"pool": a, "modifier": am},
            "opponent": {"pool": o, "modifier": om},
            "kind": kind,
        }
    )["outcomes"]["actor"]


@settings(max_examples=100)
@given(
    st.integers(0, 29),
    st.integers(-20, 19),
    st.integers(0, 29),
    st.integers(-20, 19),
    st.sampled_from(["standard", "wound"]),
)
def test_more_dice_help_the_side_that_has_them(a, am, o, om, kind):
    p = p_actor(a, am, o, om, kind)
    assert p_actor(a + 1, am, o, om, kind) >= p - 1e-12
    assert p_actor(a, am + 1, o, om, kind) >= p - 1e-12
    assert p_actor(a, am, o + 1, om, kind) <= p + 1e-12
    assert p_actor(a, am, o, om + 1, kind) <= p + 1e-12
    assert p_actor(a, am, o, om, "wound") <= p_actor(a, am, o, om, "standard") + 1e-12


def attack_odds(finesse, might, agility, toughness):
    return odds(
        {
            "system": "artifice",
            "action": "attack",
            "attacker": {"finesse": finesse, "might": might},
            "defender": {"agility": agility, "toughness": toughness},
        }
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 11), st.integers(0, 11), st.integers(0, 11), st.integers(0, 11))
def test_attack_odds_move_with_the_abilities(finesse, might, agility, toughness):
    base = attack_odds(finesse, might, agility, toughness)
    miss = base["outcomes"]["miss"]
    steps = base["expected_condition_steps"]
    assert attack_odds(finesse + 1, might, agility, toughness)["outcomes"]["miss"] <= miss + 1e-12
    assert attack_odds(finesse, might, agility + 1, toughness)["outcomes"]["miss"] >= miss - 1e-12
    assert (
        attack_odds(finesse, might + 1, agility, toughness)["expected_condition_steps"]
        >= steps - 1e-12
    )
    assert (
        attack_odds(finesse, might, agility, toughness + 1)["expected_condition_steps"]
        <= steps + 1e-12
    )


# monotonic rolls ------------------------------------------------------------------


@settings(max_examples=200)
@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=12),
    st.integers(-20, 19),
)
def test_a_bigger_pip_modifier_never_lowers_the_same_roll(faces, modifier):
    req = {"system": "artifice", "action": "check", "pool": len(faces), "difficulty": 0}
    low = adjudicate({**req, "modifier": modifier, "faces": faces})
    high = adjudicate({**req, "modifier": modifier + 1, "faces": faces})
    assert high["successes"] >= low["successes"]
    assert high["successes"] - low["successes"] <= 1
    # Criticals from the Wild Die follow its natural face, whatever the pips.
    assert (high["dice"][-1]["face"] == 6) <= high["critical_success"]
    assert (low["dice"][-1]["face"] == 1) <= low["critical_failure"]
