"""Xero Sum invariants over every valid request: replay identity, counts in
their bounds, outcomes that follow the rules, monotonic modifiers."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules.engine import adjudicate
from vtt.rules.odds import odds

from .pinned import replayed

RANK = {"dire_failure": 0, "failure": 1, "success": 2, "wild_success": 3}
CHECK_ACTIONS = ("check", "first_impression", "gut_instinct", "gambit", "rebuttal")

mods = st.fixed_dictionaries(
    {"amod": st.integers(-2, 4), "smod": st.integers(-3, 4), "cmod": st.integers(-5, 5)}
)
spends = st.fixed_dictionaries(
    {}, optional={"insight_extra_die": st.booleans(), "insight_cmod": st.booleans()}
)
sides = st.builds(lambda m, s: {**m, **s}, mods, spends)


@st.composite
def check_requests(draw):
    action = draw(st.sampled_from(CHECK_ACTIONS))
    fields = draw(sides)
    if action == "rebuttal" and draw(st.booleans()):
        fields["rebuttal_cmod"] = draw(st.sampled_from([-3, -1, 0, 1]))
    return {"system": "xerosum", "action": action, **fields}


opposed_requests = st.builds(
    lambda a, o: {"system": "xerosum", "action": "opposed", "actor": a, "opponent": o},
    sides,
    sides,
)
group_requests = st.builds(
    lambda ps: {"system": "xerosum", "action": "group", "participants": ps},
    st.lists(mods, min_size=2, max_size=12),
)


@st.composite
def reroll_requests(draw):
    earlier = adjudicate(draw(check_requests()))
    replace = draw(st.sampled_from([[0], [1], [0, 1], [1, 0]]))
    return {"system": "xerosum", "action": "reroll", "check": earlier, "replace": replace}


any_request = st.one_of(check_requests(), opposed_requests, group_requests, reroll_requests())


def reading(faces, modifier):
    if faces.count(1) >= 2:
        return "dire_failure"
    if faces.count(6) >= 2:
        return "wild_success"
    total = sum(faces) + modifier
    return (
        "dire_failure"
        if total <= 3
        else "failure"
        if total <= 8
        else ("success" if total <= 13 else "wild_success")
    )


@settings(max_examples=300, deadline=None)
@given(any_request)
def test_every_valid_request_rolls_and_replays_identically(request):
    result = adjudicate(request)  # the secure source: must never raise
    assert replayed(request, result) == result
    assert json.loads(json.dumps(result)) == result
    assert all(1 <= d["face"] <= 6 and d["value"] == d["face"] for d in result["dice"])


@settings(max_examples=200, deadline=None)
@given(check_requests())
def test_check_counts_stay_in_bounds_and_follow_the_rules(request):
    result = adjudicate(request)
    faces = [d["face"] for d in result["dice"]]
    extra, bonus = request.get("insight_extra_die", False), request.get("insight_cmod", False)
    assert len(faces) == 2 + extra
    assert result["dice_total"] == sum(faces)
    assert result["total"] == result["dice_total"] + result["modifier"]
    assert -11 <= result["total"] <= 35
    assert result["insight_spent"] == extra + bonus
    assert result["insight_gained"] == (result["moment_of_insight"] is not None)
    assert result["outcome"] == reading(faces, result["modifier"])


@settings(max_examples=150, deadline=None)
@given(group_requests)
def test_group_gives_every_participant_the_same_die(request):
    result = adjudicate(request)
    n = len(request["participants"])
    assert 0 <= result["roller"] < n
    assert len(result["dice"]) == 2
    assert result["insight_spent"] == 0
    assert result["insight_gained_by"] == (list(range(n)) if result["insight_gained"] else [])
    roller = request["participants"][result["roller"]]
    best = max(p["amod"] + p["smod"] for p in request["participants"])
    assert roller["amod"] + roller["smod"] == best


@settings(max_examples=150, deadline=None)
@given(reroll_requests())
def test_reroll_keeps_what_it_does_not_replace(request):
    result = adjudicate(request)
    before = [d["face"] for d in request["check"]["dice"]]
    replaced = set(request["replace"])
    assert len(result["dice"]) == len(replaced) == result["insight_spent"]
    kept = [f for i, f in enumerate(result["counted_faces"]) if i not in replaced]
    assert kept == [f for i, f in enumerate(before) if i not in replaced]
    assert result["outcome"] == reading(result["counted_faces"], request["check"]["modifier"])
    assert result["insight_gained"] <= 1 - request["check"]["insight_gained"]


@settings(max_examples=200, deadline=None)
@given(check_requests(), st.sampled_from(["amod", "smod", "cmod"]), st.data())
def test_a_higher_modifier_never_worsens_the_same_dice(request, key, data):
    result = adjudicate(request)
    top = {"amod": 4, "smod": 4, "cmod": 5}[key]
    raised = data.draw(st.integers(request[key], top))
    better = replayed({**request, key: raised}, result)
    assert RANK[better["outcome"]] >= RANK[result["outcome"]]


@settings(max_examples=150, deadline=None)
@given(opposed_requests, st.integers(0, 10))
def test_a_higher_actor_cmod_never_turns_a_win_into_a_loss(request, step):
    result = adjudicate(request)
    actor = {**request["actor"], "cmod": min(5, request["actor"]["cmod"] + step)}
    better = replayed({**request, "actor": actor}, result)
    assert better["margin"] >= result["margin"]
    order = {"opponent": 0, "draw": 1, "actor": 2}
    assert order[better["outcome"]] >= order[result["outcome"]]


@settings(max_examples=150, deadline=None)
@given(st.one_of(check_requests(), opposed_requests, group_requests, reroll_requests()))
def test_odds_tables_sum_to_one(request):
    computed = odds(request)
    assert sum(computed["outcomes"].values()) == pytest.approx(1.0, abs=1e-9)
    assert all(0.0 <= p <= 1.0 + 1e-12 for p in computed["outcomes"].values())
    assert computed["truncated_mass"] == 0.0
    json.dumps(computed)


@settings(max_examples=100, deadline=None)
@given(check_requests(), st.sampled_from(["amod", "smod", "cmod"]))
def test_odds_of_success_rise_with_the_modifier(request, key):
    low = {**request, key: {"amod": -2, "smod": -3, "cmod": -5}[key]}
    high = {**request, key: {"amod": 4, "smod": 4, "cmod": 5}[key]}
    lo, hi = odds(low)["outcomes"], odds(high)["outcomes"]
    assert hi["success"] + hi["wild_success"] >= lo["success"] + lo["wild_success"] - 1e-12
    assert hi["wild_success"] >= lo["wild_success"] - 1e-12
    assert hi["dire_failure"] <= lo["dire_failure"] + 1e-12
