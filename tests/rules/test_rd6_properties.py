"""Rd6 invariants over generated requests: replay identity, the bookkeeping
of every die, monotonic outcomes, and well-formed exact odds."""

from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.games.rd6.rules.fields import COMPLICATIONS, RESULT_DICE
from vtt.rules import adjudicate
from vtt.rules.odds import odds

from .pinned import replayed

POOL = {
    "pips": st.integers(-20, 20),
    "modifier_dice": st.integers(-10, 10),
    "equipment_dice": st.integers(0, 10),
    "equipment_pips": st.integers(-20, 20),
    "character_points": st.integers(0, 10),
    "fate_point": st.booleans(),
    "rolling_up": st.booleans(),
    "complication": st.sampled_from(COMPLICATIONS),
    "catastrophic_failure": st.booleans(),
}
ROLL = {
    **POOL,
    "difficulty": st.integers(0, 60),
    "difficulty_modifier": st.integers(-10, 10),
    "retry": st.booleans(),
    "previous_true_critical_failure": st.just(False),
    "result_dice": st.sampled_from(RESULT_DICE),
}


def _spends_both(fields: dict) -> bool:
    return bool(fields.get("fate_point") and fields.get("character_points"))


def pools(max_dice: int = 30):
    return st.fixed_dictionaries({"dice": st.integers(1, max_dice)}, optional=POOL).filter(
        lambda f: not _spends_both(f)
    )


def rolls(max_dice: int = 30):
    return st.fixed_dictionaries({"dice": st.integers(1, max_dice)}, optional=ROLL).filter(
        lambda f: not _spends_both(f)
    )


def roll_request(fields: dict) -> dict:
    return {"system": "rd6", "action": "roll", **fields}


def opposed_request(actor: dict, opponent: dict) -> dict:
    return {"system": "rd6", "action": "opposed", "actor": actor, "opponent": opponent}


def check_side(side: dict, fields: dict, dice: list) -> None:
    """The bookkeeping of one side's dice against its fields."""
    roles = [d["role"] for d in dice]
    wilds_in_pool = 2 if fields.get("rolling_up") and side["pool"] >= 2 else 1
    assert roles.count("regular") == side["pool"] - wilds_in_pool
    assert roles.count("wild") == 1
    assert roles.count("cp_wild") == fields.get("character_points", 0)
    assert roles.count("rollup_wild") == int(fields.get("rolling_up", False))
    wild = roles.index("wild")
    assert roles.count("crit_check") == int(dice[wild]["face"] == 1)
    for before, die in zip(dice, dice[1:], strict=False):
        assert (die["role"] == "explosion") == (
            before["face"] == 6
            and before["role"] in ("wild", "cp_wild", "rollup_wild", "explosion")
        )
    assert all(1 <= d["face"] <= 6 and d["success"] is None for d in dice)
    assert side["total"] == side["pips"] + sum(d["value"] for d in dice)
    assert side["successes"] == max(0, side["total"]) // 6
    assert (
        side["catastrophic"] is False or side["critical_failure_check"] == "true_critical_failure"
    )
    assert 1 <= side["pool"] <= 80


@settings(max_examples=300, deadline=None)
@given(fields=rolls())
def test_roll_replays_and_keeps_its_books(fields):
    request = roll_request(fields)
    result = adjudicate(request)
    assert replayed(request, result) == result
    check_side(result, fields, result["dice"])
    success = result["outcome"] == "success"
    assert success == (
        result["critical_failure_check"] != "true_critical_failure"
        and result["successes"] >= result["needed"]
    )
    assert result["result_points"] >= 0
    assert (result["result_level"] is None) == (not success)
    if not success or fields.get("retry"):
        assert result["result_points"] == 0
    assert (
        result["damage_dice"] * (3 if fields.get("result_dice") == "every_three" else 1)
        + result["damage_pips"]
        == result["result_points"]
    )


@settings(max_examples=150, deadline=None)
@given(actor=pools(12), opponent=pools(12))
def test_opposed_replays_and_keeps_its_books(actor, opponent):
    request = opposed_request(actor, opponent)
    result = adjudicate(request)
    assert replayed(request, result) == result
    sides = {"actor": actor, "opponent": opponent}
    for name, fields in sides.items():
        dice = [d for d in result["dice"] if d["pool"] == name]
        check_side(result[name], fields, dice)
    pools_in_order = [d["pool"] for d in result["dice"]]
    assert pools_in_order == sorted(pools_in_order)  # every actor die before the opponent's
    assert result["margin"] == result["actor"]["successes"] - result["opponent"]["successes"]


@settings(max_examples=150, deadline=None)
@given(fields=rolls(), data=st.data())
def test_more_pips_never_hurt_and_more_difficulty_never_helps(fields, data):
    request = roll_request(fields)
    result = adjudicate(request)
    faces = [d["face"] for d in result["dice"]]
    bonus = fields.get("equipment_pips", 0)
    if bonus < 20:
        better = adjudicate({**request, "equipment_pips": bonus + 1, "faces": faces})
        assert better["successes"] >= result["successes"]
        assert better["outcome"] == "success" or result["outcome"] == "failure"
    difficulty = fields.get("difficulty", 0)
    if difficulty < 60:
        harder = adjudicate({**request, "difficulty": difficulty + 1, "faces": faces})
        assert harder["outcome"] == "failure" or result["outcome"] == "success"


def check_odds(result: dict) -> None:
    outcomes = result["outcomes"]
    assert abs(sum(outcomes.values()) - 1) < 1e-9
    assert 0 <= result["truncated_mass"] <= 1e-12
    assert all(p >= 0 for p in outcomes.values())


@settings(max_examples=60, deadline=None)
@given(fields=rolls(12))
def test_roll_odds_are_well_formed_and_monotonic(fields):
    request = roll_request(fields)
    result = odds(request)
    check_odds(result)
    for name in ("total", "successes", "result_points"):
        assert abs(sum(result[name].values()) - 1) < 1e-9
        assert all(p >= 0 for p in result[name].values())
    assert abs(sum(result["result_level"].values()) - result["outcomes"]["success"]) < 1e-9
    assert abs(sum(result["critical_failure_check"].values()) - 1) < 1e-12
    success = result["outcomes"]["success"]
    difficulty = fields.get("difficulty", 0)
    if difficulty < 60:
        harder = odds({**request, "difficulty": difficulty + 1})
        assert harder["outcomes"]["success"] <= success + 1e-12
    bonus = fields.get("equipment_pips", 0)
    if bonus < 20:
        better = odds({**request, "equipment_pips": bonus + 1})
        assert better["outcomes"]["success"] >= success - 1e-12


@settings(max_examples=40, deadline=None)
@given(actor=pools(8), opponent=pools(8))
def test_opposed_odds_are_well_formed_and_symmetric(actor, opponent):
    forward = odds(opposed_request(actor, opponent))
    check_odds(forward)
    backward = odds(opposed_request(opponent, actor))
    assert abs(forward["outcomes"]["actor"] - backward["outcomes"]["opponent"]) < 1e-12
    assert abs(forward["outcomes"]["draw"] - backward["outcomes"]["draw"]) < 1e-12
    assert abs(sum(forward["margin"].values()) - 1) < 1e-9


def test_largest_requests_stay_exact():
    biggest = {
        "dice": 30,
        "pips": 20,
        "modifier_dice": 10,
        "equipment_dice": 10,
        "rolling_up": True,
        "character_points": 10,
    }
    result = odds(roll_request({**biggest, "difficulty": 60}))
    check_odds(result)
    assert result["pool"] == 50
    fated = {**biggest, "character_points": 0, "fate_point": True}
    result = odds(opposed_request(fated, biggest))
    check_odds(result)
