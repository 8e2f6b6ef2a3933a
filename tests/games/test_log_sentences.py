"""The roll log's sentences: every action of every game, adjudicated from a
fixed dice tape, is said in the game's words with the numbers and outcome
its result holds, and no raw ids."""

import importlib
import re

import pytest

from vtt.games.artifice.sheet import DIFFICULTIES
from vtt.games.rd6.kit import DIFFICULTY_HINT
from vtt.rules import RulesError, adjudicate
from vtt.rules.systems import SYSTEMS

RAW = re.compile(r"_|\bactor\b|\bopponent\b|\broller\b", re.IGNORECASE)
WHO = "Tenrec"


def log(game: str):
    return importlib.import_module(f"vtt.games.{game}.log")


def successes(n: int) -> str:
    return f"{n} success" if n == 1 else f"{n} successes"


def words(value: str) -> list[str]:
    """An id's words, each of which the sentence must say."""
    return value.split("_")


def winner(outcome: str) -> str:
    return {"actor": f"{WHO} wins", "opponent": f"{WHO} loses", "draw": "a draw"}[outcome]


# What each result must show, derived from the request and the result ----


def artifice_check(req, res):
    said = [successes(res["successes"]), res["outcome"]]
    names = {n: name for name, n in DIFFICULTIES.items()}
    said.append(f"{names[req['difficulty']]} ({req['difficulty']})")
    if res["margin"]:
        said.append(f"by {abs(res['margin'])}")
    said += ["Critical Success"] * res["critical_success"]
    said += ["Critical Failure"] * res["critical_failure"]
    return said + (["no roll"] if res["automatic"] else [f"{max(req['pool'], 1)}D"])


def artifice_criticals(test):
    return [
        f"{who}'s Critical {kind}"
        for side, who in (("actor", WHO), ("opponent", "the other side"))
        for kind in ("Success", "Failure")
        if test[f"{side}_critical_{kind.lower()}"]
    ]


def artifice_test(req, res):
    said = [f"{res['actor_pool']}D", f"against {res['opponent_pool']}D", winner(res["outcome"])]
    said += [successes(res["actor_successes"]), f"to {res['opponent_successes']}"]
    said.append(f"by {abs(res['margin'])}" if res["margin"] else "on a tie")
    said += ["Wound Test"] if res["kind"] == "wound" else []
    return said + artifice_criticals(res)


def artifice_passive(req, res):
    return [f"{req['ability']}D", successes(res["successes"])]


def artifice_attack(req, res):
    combat, wound = res["combat"], res["wound"]
    said = [f"Combat Test {combat['actor_pool']}D", f"vs {combat['opponent_pool']}D"]
    said.append("hit" if combat["outcome"] == "actor" else "miss")
    if combat["margin"]:
        said.append(f"by {abs(combat['margin'])}")
    if wound is None:
        return said + ["miss"]
    said += [f"Wound Test {wound['actor_pool']}D", f"vs {wound['opponent_pool']}D"]
    said.append(res["condition_after"])
    if res["condition_steps"]:
        said += [f"{res['condition_before']} to ", f"({res['condition_steps']} step"]
    else:
        said.append("no harm")
    return said


def artifice_range(req, res):
    category = {"out_of_range": "Out of Range"}.get(res["category"], res["category"].title())
    sight = "in line of sight" if res["line_of_sight"] else "line of sight blocked"
    return [f"{res['distance_ft']} ft", category, sight]


def fgr_roll(req, res):
    said = [successes(res["successes"]), res["outcome"], f"({req['difficulty']})"]
    said.append("Luck Roll" if res["luck"] else f"Skill {req['skill']}")
    said += ["critical failure"] * res["critical_failure"]
    help_dice = req.get("modifier_dice", 0)
    if help_dice:
        said.append(f"{help_dice:+d} {'help' if help_dice > 0 else 'hindrance'}")
    if req.get("action_points"):
        said.append(f"{req['action_points']} Action Point")
    return said


def fgr_numeric(req, res):
    return [f"{req['dice']} di", f": {res['total']}."]


def fgr_reduce_damage(req, res):
    left = f"{res['damage']} damage" if res["damage"] else "no damage"
    return [f"{req['damage']} damage", f"{req['action_points']} Action Point", left]


def xerosum_band(res):
    said = [str(res["total"]), res["outcome"].replace("_", " ")]
    if res["moment_of_insight"]:
        said.append(f"Moment of {res['moment_of_insight'].title()} Insight")
    if res["insight_gained"]:
        said.append("Insight Die gained")
    if "consequence" in res:
        said += words(res["consequence"])
    if res.get("future_cmod"):
        said.append(f"CMod {res['future_cmod']:+d} to future interactions")
    if res.get("negotiation_over"):
        said.append("negotiation over")
    return said


def xerosum_modifiers(fields):
    said = ["3d6" if fields.get("insight_extra_die") else "2d6"]
    said += [f"{name} {fields[key]}" for key, name in MODS if fields.get(key)]
    return said + (["Insight CMod 3"] if fields.get("insight_cmod") else [])


MODS = (("amod", "AMod"), ("smod", "SMod"), ("cmod", "CMod"))


def xerosum_single(req, res):
    said = xerosum_band(res) + xerosum_modifiers(req)
    if res["action"] == "gambit" and res["rebuttal_cmod"] is not None:
        said.append(f"Rebuttal takes CMod {res['rebuttal_cmod']:+d}")
    if res["action"] == "rebuttal" and req.get("rebuttal_cmod"):
        said.append(f"Gambit CMod {req['rebuttal_cmod']}")
    if res["action"] != "check":
        said.append(res["action"].replace("_", " ").title())
    return said


def xerosum_reroll(req, res):
    said = xerosum_band(res) + [res["rerolled"].replace("_", " ").title()]
    said.append(" + ".join(map(str, res["counted_faces"])))
    which = {(0,): "first die", (1,): "second die", (0, 1): "both dice"}
    said.append(which[tuple(res["replaced"])])
    spent = res["insight_spent"]
    return said + ["an Insight Die" if spent == 1 else f"{spent} Insight Dice"]


def xerosum_opposed(req, res):
    said = [f"{res['actor']['total']} to {res['opponent']['total']}", winner(res["outcome"])]
    said += xerosum_modifiers(req["actor"]) + xerosum_modifiers(req["opponent"])
    if res["margin"]:
        said.append(f"by {abs(res['margin'])}")
    return said


def xerosum_group(req, res):
    said = xerosum_band(res) + [f"Group check of {len(req['participants'])}"]
    said.append(f"participant {res['roller'] + 1}")
    if res["modifier"]:
        said.append(f"2d6 + {res['modifier']}")
    return said + (["by each participant"] if res["insight_gained_by"] else [])


def rd6_side(side, request_side):
    said = [f"{side['pool']}D", str(side["total"]), successes(side["successes"])]
    check = side["critical_failure_check"]
    if check:
        said.append("Wild Die 1")
        said.append({"normal": "resolved as normal"}.get(check, check.replace("_", " ").title()))
    if check == "complication" and request_side.get("complication") != "narrate":
        said.append("Wild Die and highest die cancelled")
    said += ["Catastrophic Failure"] * side["catastrophic"]
    if request_side.get("fate_point"):
        said.append("Fate Point")
    if request_side.get("character_points"):
        said.append(f"{request_side['character_points']} Character Point")
    return said + (["Rolling Up"] if request_side.get("rolling_up") else [])


def rd6_level(res):
    if res["result_level"] is None:
        return []
    points = res["result_points"]
    return [res["result_level"]] + ([f"({points} result point"] if points else [])


def rd6_roll(req, res):
    said = rd6_side(res, req) + [res["outcome"], f"({successes(res['needed'])})"]
    said += ["Second Chance"] if req.get("retry") else []
    return said + rd6_level(res)


def rd6_opposed(req, res):
    said = rd6_side(res["actor"], req["actor"]) + rd6_side(res["opponent"], req["opponent"])
    said += [winner(res["outcome"])] + rd6_level(res)
    if res["margin"]:
        said.append(f"by {successes(abs(res['margin']))}")
    return said


def apocalyptia_roll(req, res):
    said = [res["outcome"], f"against Difficulty {req['difficulty']}"]
    if res["automatic"]:
        return said[1:] + ["succeeds automatically", str(res["total"]), "no roll"]
    said.append(f"d6 + {req['bonus']} = {res['total']}" if req["bonus"] >= 0 else str(res["total"]))
    return said + ["Botch"] * res["botch"] + ["Critical"] * res["critical"]


def apocalyptia_marks(res, prefix, whose):
    said = [f"{whose} Botch"] * res[f"{prefix}_botch"]
    return said + [f"{whose} Critical"] * res[f"{prefix}_critical"]


def apocalyptia_opposed(req, res):
    said = [f"= {res['actor_total']}", f"= {res['opponent_total']}", winner(res["outcome"])]
    said.append(f"by {abs(res['margin'])}")
    if res["rounds"] > 1:
        said.append(f"after {res['rounds'] - 1} tied round")
    said += apocalyptia_marks(res, "actor", f"{WHO}'s")
    return said + apocalyptia_marks(res, "opponent", "the other side's")


def apocalyptia_attack(req, res):
    said = [f"ATK d6 + {req['atk_bonus']} = {res['atk_total']}", res["outcome"]]
    said.append(f"DEF ({req.get('defense', 'dodge').title()}) d6 + {req['def_bonus']}")
    said.append(f"= {res['def_total']}")
    if res["outcome"] == "hit":
        said += [f"by {res['margin']}", f"{res['damage']} damage"]
    said += apocalyptia_marks(res, "atk", "ATK") + apocalyptia_marks(res, "def", "DEF")
    broken = {"both": "both weapons break"}.get(res["weapon_broken"], f"{res['weapon_broken']}'s")
    return said + ([broken] if res["weapon_broken"] else [])


# Requests with their dice tapes, covering each action's outcomes ---------

A_ATTACK = {"attacker": {"finesse": 3, "might": 4, "lethality": 1}}
CASES = {
    ("artifice", "check"): [
        {"pool": 3, "modifier": 1, "difficulty": 2, "faces": [2, 2, 3]},
        {"pool": 3, "modifier": 1, "difficulty": 2, "faces": [5, 2, 6]},
        {"pool": 4, "difficulty": 1, "faces": [1, 2, 3, 1]},
        {"pool": 0, "modifier": -1, "difficulty": 5, "faces": [4]},
        {"pool": 4, "difficulty": 3, "automatic": True},
        {"pool": 9, "difficulty": 0, "faces": [4, 5, 6, 4, 5, 6, 4, 1, 6]},
    ],
    ("artifice", "test"): [
        {"actor": {"pool": 4}, "opponent": {"pool": 2}, "faces": [1, 2, 3, 1, 5, 6]},
        {"actor": {"pool": 2, "modifier": 1}, "opponent": {"pool": 2}, "faces": [4, 2, 5, 2]},
        {"actor": {"pool": 2}, "opponent": {"pool": 2}, "kind": "wound", "faces": [4, 2, 5, 2]},
        {"actor": {"pool": 3}, "opponent": {"pool": 1}, "faces": [4, 5, 6, 3]},
    ],
    ("artifice", "passive"): [{"ability": 5}, {"ability": 1}],
    ("artifice", "attack"): [
        # The seed's zombie: 3 vs 1 hits, 6 dice against 3 give 4 to 1.
        {
            "attacker": {"finesse": 3, "might": 4},
            "defender": {"agility": 1, "toughness": 3},
            "faces": [5, 5, 4, 2, 4, 5, 6, 4, 1, 2, 3, 2, 4, 3],
        },
        {
            **A_ATTACK,
            "defender": {"agility": 1, "toughness": 3, "condition": "Hurt"},
            "advantage": "defender",
            "faces": [5, 5, 4, 2, 2, 4, 5, 6, 4, 4, 5, 1, 2, 2, 4, 3],
        },
        {
            "attacker": {"finesse": 1, "might": 1},
            "defender": {"agility": 1, "toughness": 3},
            "faces": [4, 5, 2, 4, 4, 4],
        },
        {
            "attacker": {"finesse": 1, "might": 4},
            "defender": {"agility": 1, "toughness": 3},
            "range": "far",
            "faces": [2, 5],
        },
    ],
    ("artifice", "range"): [
        {"from": [0, 0], "to": [3, 4], "range_ft": 30},
        {"from": [0, 0], "to": [1, 1]},
        {"from": [0, 0], "to": [30, 4]},
        {"from": [0, 0], "to": [4, 0], "range_ft": "line_of_sight", "walls": [[2, -5, 2, 5]]},
    ],
    ("fgr", "roll"): [
        {"skill": 3, "modifier_dice": 1, "difficulty": 2, "faces": [3, 4, 1, 6]},
        {"skill": 3, "modifier_dice": -1, "difficulty": 5, "action_points": 2, "faces": [3, 1]},
        {"skill": 0, "difficulty": 1, "action_points": 1, "faces": [1]},
        {"skill": 1, "modifier_dice": -2, "difficulty": 1, "faces": [6]},
        {"skill": 2, "difficulty": 3, "faces": [1, 2]},
    ],
    ("fgr", "numeric"): [{"dice": 4, "faces": [2, 3, 4, 4]}, {"dice": 1, "faces": [5]}],
    ("fgr", "reduce_damage"): [
        {"damage": 3, "action_points": 1},
        {"damage": 3, "action_points": 4},
    ],
    ("xerosum", "check"): [
        {"amod": 1, "smod": 2, "faces": [4, 4]},
        {"amod": -2, "cmod": -5, "insight_extra_die": True, "faces": [6, 6, 1]},
        {"amod": 4, "smod": 4, "insight_cmod": True, "faces": [1, 1]},
        {"faces": [1, 2]},
    ],
    ("xerosum", "first_impression"): [
        {"amod": 1, "smod": 2, "faces": [1, 1]},
        {"amod": 1, "smod": 2, "faces": [3, 4]},
        {"amod": 1, "faces": [2, 3]},
        {"amod": 1, "faces": [6, 6]},
    ],
    ("xerosum", "gut_instinct"): [
        {"amod": 1, "faces": [2, 3]},
        {"amod": 1, "faces": [5, 6]},
        {"amod": 1, "faces": [1, 1]},
        {"amod": 4, "smod": 4, "faces": [5, 6]},
    ],
    ("xerosum", "gambit"): [
        {"amod": 1, "faces": [1, 3]},
        {"amod": 1, "faces": [1, 1]},
        {"amod": 1, "faces": [4, 5]},
        {"amod": 1, "faces": [6, 6]},
    ],
    ("xerosum", "rebuttal"): [
        {"amod": 1, "rebuttal_cmod": -1, "insight_cmod": True, "insight_extra_die": True},
        {"amod": 1, "rebuttal_cmod": 1, "faces": [3, 3]},
        {"amod": 1, "faces": [1, 1]},
        {"amod": 3, "smod": 3, "rebuttal_cmod": 1, "faces": [5, 5]},
    ],
    ("xerosum", "reroll"): [
        {"check": {"action": "gambit", "amod": 1, "faces": [1, 3]}, "replace": [0], "faces": [6]},
        {
            "check": {"action": "check", "smod": 2, "faces": [1, 1]},
            "replace": [1, 0],
            "faces": [6, 6],
        },
        {"check": {"action": "rebuttal", "rebuttal_cmod": -3, "faces": [5, 5]}, "replace": [1]},
    ],
    ("xerosum", "opposed"): [
        {"actor": {"amod": 1}, "opponent": {"smod": 2}, "faces": [3, 3, 4, 2]},
        {"actor": {"amod": 1}, "opponent": {"smod": 1}, "faces": [1, 1, 4, 2]},
        {"actor": {"amod": 1}, "opponent": {"amod": 1}, "faces": [3, 4, 5, 2]},
        {"actor": {"amod": 2}, "opponent": {}, "faces": [6, 6, 3, 2]},
    ],
    ("xerosum", "group"): [
        {"participants": [{"amod": 1, "smod": 1}, {"amod": 2, "cmod": 1}], "faces": [5, 3]},
        {"participants": [{"amod": 1, "smod": 1}, {"amod": 2, "cmod": -3}], "faces": [6, 6]},
        {"participants": [{}, {"smod": 2}, {"amod": -1}], "faces": [1, 1]},
    ],
    ("rd6", "roll"): [
        {"dice": 3, "pips": 1, "difficulty": 2, "faces": [5, 4, 6, 3]},
        {"dice": 3, "pips": 1, "difficulty": 2, "faces": [5, 4, 6, 6, 3]},
        {"dice": 3, "pips": 1, "difficulty": 2, "faces": [5, 4, 1, 3]},
        {"dice": 3, "difficulty": 2, "complication": "narrate", "faces": [5, 4, 1, 3]},
        {"dice": 3, "pips": 1, "difficulty": 2, "faces": [5, 4, 1, 1]},
        {"dice": 3, "catastrophic_failure": True, "difficulty": 2, "faces": [1, 1, 1, 1]},
        {"dice": 3, "pips": 1, "difficulty": 2, "faces": [5, 4, 1, 6]},
        {"dice": 4, "pips": 2, "fate_point": True, "difficulty": 7, "difficulty_modifier": -1},
        {"dice": 2, "character_points": 2, "retry": True, "difficulty": 1},
        {"dice": 3, "rolling_up": True, "faces": [5, 4, 3]},
        {"dice": 1, "faces": [3]},
    ],
    ("rd6", "opposed"): [
        {"actor": {"dice": 3}, "opponent": {"dice": 2, "pips": 2}, "faces": [5, 4, 3, 2, 2]},
        {"actor": {"dice": 3}, "opponent": {"dice": 2, "pips": 2}, "faces": [5, 4, 6, 2, 2, 1, 1]},
        {"actor": {"dice": 1}, "opponent": {"dice": 1}, "faces": [3, 3]},
        {"actor": {"dice": 1}, "opponent": {"dice": 1}, "faces": [4, 3]},
        {
            "actor": {"dice": 2, "fate_point": True},
            "opponent": {"dice": 4},
            "faces": [1, 2, 3, 4] * 2,
        },
    ],
    ("apocalyptia", "roll"): [
        {"bonus": 3, "difficulty": 6, "kind": "skill", "faces": [5]},
        {"bonus": 3, "difficulty": 6, "kind": "skill", "faces": [3]},
        {"bonus": -2, "difficulty": 0, "kind": "other", "faces": [3]},
        {"bonus": 9, "difficulty": 6, "kind": "trait", "faces": [1, 1]},
        {"bonus": 3, "difficulty": 6, "kind": "skill", "faces": [1, 4]},
        {"bonus": 3, "difficulty": 6, "kind": "loot", "faces": [6, 2]},
        {"bonus": 8, "difficulty": 6, "kind": "trait", "stressful": False},
    ],
    ("apocalyptia", "opposed"): [
        {"actor": {"bonus": 2}, "opponent": {"bonus": 3}, "faces": [4, 3, 5, 2]},
        {"actor": {"bonus": 2}, "opponent": {"bonus": 3}, "faces": [1, 1, 6, 2]},
        {"actor": {"bonus": 0}, "opponent": {"bonus": 0}, "faces": [2, 5]},
    ],
    ("apocalyptia", "attack"): [
        {"atk_bonus": 6, "def_bonus": 2, "weapon_dmg": 3, "defense": "block", "faces": [4, 1, 1]},
        {"atk_bonus": 4, "def_bonus": 5, "weapon_dmg": 0, "faces": [6, 1, 5]},
        {"atk_bonus": 1, "def_bonus": 5, "weapon_dmg": 2, "faces": [1, 1, 3]},
        {"atk_bonus": 6, "def_bonus": 5, "weapon_dmg": 2, "faces": [4, 5]},
        {
            "atk_bonus": 3,
            "def_bonus": 2,
            "weapon_dmg": 1,
            "defense": "block",
            "faces": [1, 1, 1, 1],
        },
    ],
}
EXPECT = {
    "artifice": {
        "check": artifice_check,
        "test": artifice_test,
        "passive": artifice_passive,
        "attack": artifice_attack,
        "range": artifice_range,
    },
    "fgr": {"roll": fgr_roll, "numeric": fgr_numeric, "reduce_damage": fgr_reduce_damage},
    "xerosum": {
        "check": xerosum_single,
        "first_impression": xerosum_single,
        "gut_instinct": xerosum_single,
        "gambit": xerosum_single,
        "rebuttal": xerosum_single,
        "reroll": xerosum_reroll,
        "opposed": xerosum_opposed,
        "group": xerosum_group,
    },
    "rd6": {"roll": rd6_roll, "opposed": rd6_opposed},
    "apocalyptia": {
        "roll": apocalyptia_roll,
        "opposed": apocalyptia_opposed,
        "attack": apocalyptia_attack,
    },
}
EVERY_ACTION = [(game, action) for game, system in SYSTEMS.items() for action in system.actions]


def request_for(game: str, action: str, fields: dict) -> dict:
    """The request as the room sends it. A reroll's earlier check is
    adjudicated first, as it was at the table; a tape left out is the dice
    landing on fixed faces, so every run says the same."""
    request = {"system": game, "action": action, **fields}
    if action == "reroll":
        request["check"] = adjudicate({"system": game, **fields["check"]})
        request.setdefault("faces", [4] * len(fields["replace"]))
    return request


def adjudicated(game: str, action: str, fields: dict) -> tuple[dict, dict]:
    request = request_for(game, action, fields)
    if "faces" not in request:
        request["faces"] = dry_tape(request)
    return request, adjudicate(request)


def dry_tape(request: dict) -> list:
    """As many 3s as the request throws (3 neither explodes nor botches)."""
    for n in range(0, 40):
        try:
            adjudicate({**request, "faces": [3] * n})
        except RulesError:
            continue
        return [3] * n
    raise AssertionError("no tape of 3s fits the request")


CASE_IDS = [
    pytest.param(game, action, fields, id=f"{game}-{action}-{i}")
    for (game, action), cases in CASES.items()
    for i, fields in enumerate(cases)
]


@pytest.mark.parametrize(("game", "action"), EVERY_ACTION)
def test_every_action_of_every_game_has_a_sentence_and_cases(game, action):
    assert action in log(game).SENTENCES, f"{game} {action} has no log sentence"
    assert CASES.get((game, action)), f"{game} {action} has no case here"
    assert action in EXPECT[game], f"{game} {action} has no expectations here"


@pytest.mark.parametrize(("game", "action", "fields"), CASE_IDS)
def test_the_sentence_says_what_the_result_holds(game, action, fields):
    request, result = adjudicated(game, action, fields)
    text = log(game).sentence(request, result, who=WHO)
    assert text.endswith(".") and "\n" not in text, text
    assert not RAW.search(text), text
    assert text.startswith(WHO), text
    for expected in EXPECT[game][action](request, result):
        assert expected in text, (expected, text)


@pytest.mark.parametrize(("game", "action"), EVERY_ACTION)
def test_an_empty_result_gives_a_plain_sentence(game, action):
    sentence = log(game).sentence
    for request, result in (
        ({"system": game, "action": action}, {}),
        ({}, {}),
        ({}, {"system": game, "action": action}),
        (
            {"system": game, "action": action},
            {"outcome": SYSTEMS[game].actions[action].outcomes[0]},
        ),
        (None, None),
    ):
        text = sentence(request, result, who=WHO)
        assert isinstance(text, str) and text.strip(), (request, result)
        assert not RAW.search(text), text
        assert WHO in text, text


@pytest.mark.parametrize(("game", "action"), EVERY_ACTION)
def test_the_plain_sentence_still_names_the_outcome(game, action):
    outcomes = SYSTEMS[game].actions[action].outcomes
    for outcome in outcomes if len(outcomes) > 1 else ():
        text = log(game).sentence({"action": action}, {"action": action, "outcome": outcome}, WHO)
        assert not RAW.search(text), text
        if outcome in ("actor", "opponent", "draw"):
            assert winner(outcome) in text, text
        else:
            assert all(w.lower() in text.lower() for w in words(outcome)), text


@pytest.mark.parametrize(("game", "action", "fields"), CASE_IDS)
def test_an_older_result_missing_a_field_never_raises(game, action, fields):
    """A result stored before a field existed, or with another shape."""
    request, result = adjudicated(game, action, fields)
    sentence = log(game).sentence
    for key in result:
        for changed in (
            {k: v for k, v in result.items() if k != key},
            {**result, key: None},
            {**result, key: "odd"},
            {**result, key: {}},
        ):
            text = sentence(request, changed, who=WHO)
            assert isinstance(text, str) and text.strip(), (key, changed)
            assert not RAW.search(text), text
    for key in request:
        text = sentence({k: v for k, v in request.items() if k != key}, result, who=WHO)
        assert text.strip() and not RAW.search(text), (key, text)


def test_the_difficulty_names_are_the_kits():
    for name in log("rd6").DIFFICULTY_NAMES + ("Legendary",):
        assert name in DIFFICULTY_HINT


@pytest.mark.parametrize(
    ("game", "action", "fields", "expected"),
    [
        (
            "artifice",
            "check",
            {"pool": 3, "modifier": 1, "difficulty": 2, "faces": [2, 2, 3]},
            "Tenrec rolls 3D+1 against Difficulty Moderate (2): 1 success, failure by 1.",
        ),
        (
            "artifice",
            "attack",
            CASES[("artifice", "attack")][0],
            "Tenrec attacks. Combat Test 3D vs 1D: hit by 3;"
            " Wound Test 7D vs 3D: Healthy to Wounded (3 steps).",
        ),
        ("fgr", "numeric", {"dice": 4, "faces": [2, 3, 4, 4]}, "Tenrec rolls 4 dice: 13."),
        (
            "xerosum",
            "gut_instinct",
            {"amod": 1, "faces": [2, 3]},
            "Tenrec follows a Gut Instinct, 2d6 + AMod 1 (Difficulty 9, wild success on 14):"
            " 6, failure; gets no read.",
        ),
        (
            "rd6",
            "roll",
            {"dice": 3, "pips": 1, "difficulty": 2, "faces": [5, 4, 1, 1]},
            "Tenrec rolls 3D+1 against Difficulty Moderate (2 successes): 11, 1 success,"
            " failure; "
            "Wild Die 1: True Critical Failure.",
        ),
        (
            "apocalyptia",
            "roll",
            {"bonus": 3, "difficulty": 6, "kind": "skill", "faces": [5]},
            "Tenrec rolls d6 + 3 = 8 against Difficulty 6: success.",
        ),
    ],
)
def test_sentences_read_as_a_play_report(game, action, fields, expected):
    request, result = adjudicated(game, action, fields)
    assert log(game).sentence(request, result, who=WHO) == expected


# A check is read against a Difficulty; the log always says which.
CHECKS = {
    "artifice": ("check",),
    "fgr": ("roll",),
    "rd6": ("roll",),
    "apocalyptia": ("roll",),
    "xerosum": ("check", "first_impression", "gut_instinct", "gambit", "rebuttal", "reroll"),
}
CHECK_CASES = [
    pytest.param(game, action, fields, id=f"{game}-{action}-{i}")
    for game, actions in CHECKS.items()
    for action in actions
    for i, fields in enumerate(CASES[(game, action)])
]


@pytest.mark.parametrize(("game", "action", "fields"), CHECK_CASES)
def test_every_check_states_its_difficulty(game, action, fields):
    request, result = adjudicated(game, action, fields)
    text = log(game).sentence(request, result, who=WHO)
    assert "Difficulty" in text, text


@pytest.mark.parametrize(("game", "action", "fields"), CASE_IDS)
def test_a_name_is_said_as_given(game, action, fields):
    """A name is text, never a template: braces and markup are kept as they
    are (the browser escapes them)."""
    request, result = adjudicated(game, action, fields)
    name = "{who} <b>Ren</b> {0}"
    assert log(game).sentence(request, result, who=name).startswith(name)


def test_a_name_keeps_its_case_and_the_stand_in_starts_with_a_capital():
    request, result = adjudicated("artifice", "check", CASES[("artifice", "check")][0])
    assert log("artifice").sentence(request, result, who="gm").startswith("gm rolls 3D+1")
    assert log("artifice").sentence(request, result).startswith("The roller rolls 3D+1")
