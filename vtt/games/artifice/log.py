"""Artifice rolls as the roll log says them: "3D+1 against Moderate (2):
2 successes, success." Built from the request and its result only; a result
stored before a field existed gets a plainer sentence, never an error."""

from ..log import obj, say, whole
from .sheet import DIFFICULTIES

DIFFICULTY_NAMES = {n: name for name, n in DIFFICULTIES.items()}
ACTIONS = {
    "check": "Check",
    "test": "Test",
    "passive": "Passive value",
    "attack": "Attack",
    "range": "Range",
}
FALLEN = {"incapacitated": "Incapacitated", "dead": "Dead"}
CATEGORIES = {"adjacent": "Adjacent", "near": "Near", "far": "Far", "out_of_range": "Out of Range"}
OUTCOMES = {
    "passive": "",  # the only outcome a passive value has: nothing to say
    **FALLEN,
    **CATEGORIES,
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}es" if word.endswith("s") else f"{n} {word}s"


def _code(dice, pips) -> str:
    """A pool as players write it: 3D, 3D+1, 2D-1."""
    if dice is None:
        return ""
    return f"{dice}D{pips:+d}" if pips else f"{dice}D"


def _difficulty(n) -> str:
    name = DIFFICULTY_NAMES.get(n)
    return f"Difficulty {name} ({n})" if name else f"Difficulty {n}"


def _by(word: str, margin) -> str:
    return f"{word} by {abs(margin)}" if margin else word


def _criticals(result: dict, prefix: str = "") -> list[str]:
    names = []
    if result.get(f"{prefix}critical_success") is True:
        names.append("Critical Success")
    if result.get(f"{prefix}critical_failure") is True:
        names.append("Critical Failure")
    return names


def _check(request: dict, result: dict, who: str) -> str | None:
    successes = whole(result, "successes")
    outcome = result.get("outcome")
    if successes is None or outcome not in ("success", "failure"):
        return None
    pool, difficulty = whole(request, "pool"), whole(request, "difficulty")
    automatic = result.get("automatic") is True
    # A rolled pool is never below one die, the Wild Die.
    dice = None if pool is None else pool if automatic else max(pool, 1)
    head = _code(dice, 0 if automatic else whole(request, "modifier") or 0)
    if difficulty is not None:
        head = f"{head} against {_difficulty(difficulty)}".strip()
    count = _plural(successes, "success")
    if automatic:
        head = f"{who} needs no roll for {head}" if head else f"{who} needs no roll"
        count = f"{count} taken automatically"
    else:
        head = f"{who} rolls {head}" if head else f"{who}'s Check"
    said = f"{count}, {_by(outcome, whole(result, 'margin'))}"
    extras = _criticals(result)
    return f"{head}: {said}" + (f" ({', '.join(extras)})." if extras else ".")


def _side_code(request_side: dict, result: dict, side: str, pips_key: str = "modifier") -> str:
    dice = whole(result, f"{side}_pool")
    if dice is None:
        dice = whole(request_side, "pool")
    return _code(dice, whole(request_side, pips_key) or 0)


def _contest(result: dict, winner_words: dict, who: str, counts: bool = True) -> str | None:
    """Who won, after the successes unless told not to: "3 successes to 1,
    Tenrec wins by 2"."""
    mine, theirs = whole(result, "actor_successes"), whole(result, "opponent_successes")
    outcome, margin = result.get("outcome"), whole(result, "margin")
    if outcome not in winner_words:
        return None
    said = winner_words[outcome].format(who=who)
    said = f"{said} on a tie" if margin == 0 else _by(said, margin)
    if counts and mine is not None and theirs is not None:
        said = f"{_plural(mine, 'success')} to {theirs}, {said}"
    extras = [f"{who}'s {c}" for c in _criticals(result, "actor_")]
    extras += [f"the other side's {c}" for c in _criticals(result, "opponent_")]
    return said + (f" ({', '.join(extras)})" if extras else "")


def _test(request: dict, result: dict, who: str) -> str | None:
    said = _contest(result, {"actor": "{who} wins", "opponent": "{who} loses"}, who)
    if said is None:
        return None
    kind = result.get("kind", request.get("kind"))
    label = f"{who} makes a {'Wound Test' if kind == 'wound' else 'Test'}"
    mine = _side_code(obj(request, "actor"), result, "actor")
    theirs = _side_code(obj(request, "opponent"), result, "opponent")
    if mine and theirs:
        label = f"{label}, {mine} against {theirs}"
    return f"{label}: {said}."


def _passive(request: dict, result: dict, who: str) -> str | None:
    successes = whole(result, "successes")
    if successes is None:
        return None
    ability = whole(request, "ability")
    label = f"{who}'s Passive {ability}D" if ability is not None else f"{who}'s Passive value"
    return f"{label}: {_plural(successes, 'success')} to beat."


def _harm(result: dict) -> str:
    """What the Wound Test did to the defender's Condition."""
    before, after = result.get("condition_before"), result.get("condition_after")
    steps = whole(result, "condition_steps")
    harm = []
    if isinstance(before, str) and isinstance(after, str):
        harm.append(f"{before} to {after}" if steps else f"no harm, still {after}")
    elif steps == 0:
        harm.append("no harm")
    if steps:
        harm.append(f"({_plural(steps, 'step')})" if harm else _plural(steps, "step"))
    # A renamed track may not say it; the outcome always does.
    state = FALLEN.get(result.get("outcome"))
    said = " ".join(harm)
    if state and (not isinstance(after, str) or state.lower() != after.lower()):
        said = f"{said}, {state}" if said else state
    return said


def _attack(request: dict, result: dict, who: str) -> str | None:
    combat, wound = obj(result, "combat"), obj(result, "wound")
    attacker = obj(request, "attacker")
    # The attack says the margins only, as a play report would.
    said = _contest(combat, {"actor": "hit", "opponent": "miss"}, who, counts=False)
    if said is None:
        return None
    parts = [f"{_label('Combat Test', combat, attacker, 'modifier')}: {said}"]
    if wound:
        label, harm = _label("Wound Test", wound, attacker, "wound_modifier"), _harm(result)
        parts.append(f"{label}: {harm}" if harm else label)
    return f"{who} attacks. " + "; ".join(parts) + "."


def _label(name: str, test: dict, attacker: dict, pips_key: str) -> str:
    """ "Combat Test 3D+1 vs 2D": the attacker's pool (with its pips) against
    the defender's, as rolled."""
    mine, theirs = whole(test, "actor_pool"), whole(test, "opponent_pool")
    if mine is None or theirs is None:
        return name
    return f"{name} {_code(mine, whole(attacker, pips_key) or 0)} vs {_code(theirs, 0)}"


def _range(request: dict, result: dict, who: str) -> str | None:
    category = CATEGORIES.get(result.get("category", result.get("outcome")))
    if category is None:
        return None
    feet = whole(result, "distance_ft")
    head = f"{who} measures the range, {feet} ft" if feet is not None else f"{who}'s range"
    sight = result.get("line_of_sight")
    seen = {True: ", in line of sight", False: ", line of sight blocked"}.get(sight, "")
    return f"{head}: {category}{seen}."


SENTENCES = {
    "check": _check,
    "test": _test,
    "passive": _passive,
    "attack": _attack,
    "range": _range,
}


def sentence(request: dict, result: dict, who: str | None = None) -> str:
    return say(SENTENCES, ACTIONS, OUTCOMES, request, result, who=who)


def attack_detail(request: dict, result: dict) -> str:
    """The attack's dice for the log's attack sentence: "3 successes to 0,
    cascade 3" (the Combat Test's margin, carried into the Wound Test)."""
    combat = obj(result, "combat")
    mine, theirs = whole(combat, "actor_successes"), whole(combat, "opponent_successes")
    if mine is None or theirs is None:
        return ""
    said = f"{_plural(mine, 'success')} to {theirs}"
    margin = whole(combat, "margin")
    if combat.get("outcome") == "actor" and margin:
        said += f", cascade {margin}"
    return said
