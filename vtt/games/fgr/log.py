"""Fantasy Ground Rules rolls as the roll log says them: "Skill 3 (+1 help)
against Moderate (2): 3 successes, success." Built from the request and its
result only; a result stored before a field existed gets a plainer
sentence, never an error."""

from ..log import count, say, whole

# The seed's Difficulties; 4 and up are all Legendary.
DIFFICULTY_NAMES = {1: "Easy", 2: "Moderate", 3: "Difficult"}
ACTIONS = {"roll": "Skill roll", "numeric": "Numeric roll", "reduce_damage": "Damage reduced"}
# A numeric roll's only outcome says nothing a player would write.
OUTCOMES = {"rolled": "", "damaged": "still damaged", "unharmed": "unharmed"}


def _difficulty(n: int) -> str:
    name = "Legendary" if n >= 4 else DIFFICULTY_NAMES.get(n)
    return f"Difficulty {name} ({n})" if name else f"Difficulty {n}"


def _roll(request: dict, result: dict, who: str) -> str | None:
    successes, outcome = whole(result, "successes"), result.get("outcome")
    if successes is None or outcome not in ("success", "failure"):
        return None
    skill, help_dice = whole(request, "skill"), whole(request, "modifier_dice") or 0
    points, difficulty = whole(request, "action_points") or 0, whole(request, "difficulty")
    notes = []
    if help_dice:
        notes.append(f"{help_dice:+d} {'help' if help_dice > 0 else 'hindrance'}")
    if points:
        notes.append(count(points, "Action Point", "Action Points"))
    if result.get("luck") is True:
        head = f"{who} makes a Luck Roll"
        if skill is not None:
            notes.insert(0, f"Skill {skill}")
    else:
        head = f"{who} rolls Skill {skill}" if skill is not None else f"{who}'s Skill roll"
    if notes:
        head = f"{head} ({', '.join(notes)})"
    if difficulty is not None:
        head = f"{head} against {_difficulty(difficulty)}"
    if result.get("critical_failure") is True:
        outcome = f"critical failure{'' if outcome == 'failure' else ', ' + outcome}"
    return f"{head}: {count(successes, 'success', 'successes')}, {outcome}."


def _numeric(request: dict, result: dict, who: str) -> str | None:
    total = whole(result, "total")
    if total is None:
        return None
    dice = whole(request, "dice")
    if dice is None:
        return f"{who}'s Numeric roll: {total}."
    return f"{who} rolls {count(dice, 'die', 'dice')}: {total}."


def _reduce_damage(request: dict, result: dict, who: str) -> str | None:
    left = whole(result, "damage")
    if left is None:
        return None
    damage, points = whole(request, "damage"), whole(request, "action_points")
    head = f"{who} reduces the damage"
    if damage is not None:
        head = f"{who} faces {damage} damage"
    if points is not None:
        head = f"{head} less {count(points, 'Action Point', 'Action Points')}"
    taken = f"{left} damage taken" if left else "no damage, unharmed"
    return f"{head}: {taken}."


SENTENCES = {"roll": _roll, "numeric": _numeric, "reduce_damage": _reduce_damage}


def sentence(request: dict, result: dict, who: str | None = None) -> str:
    return say(SENTENCES, ACTIONS, OUTCOMES, request, result, who=who)


def attack_detail(request: dict, result: dict) -> str:
    """The attack's skill roll for the log's attack sentence: "2 successes
    against Difficulty Moderate (2)"."""
    successes, difficulty = whole(result, "successes"), whole(request, "difficulty")
    if successes is None:
        return ""
    said = count(successes, "success", "successes")
    return f"{said} against {_difficulty(difficulty)}" if difficulty is not None else said
