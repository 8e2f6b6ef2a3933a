"""Xero Sum checks as the roll log says them: "2d6 + AMod 1 + SMod 2: 11,
success." Built from the request and its result only; a result stored before
a field existed gets a plainer sentence, never an error."""

from ..log import contest, obj, say, whole, words

ACTIONS = {
    "check": "Check",
    "first_impression": "First Impression",
    "gut_instinct": "Gut Instinct",
    "gambit": "Gambit",
    "rebuttal": "Rebuttal",
    "reroll": "Reroll",
    "opposed": "Opposed check",
    "group": "Group check",
}
BANDS = {
    "dire_failure": "dire failure",
    "failure": "failure",
    "success": "success",
    "wild_success": "wild success",
}
# The bands every single check is read against: its Difficulty.
DIFFICULTY = "Difficulty 9, wild success on 14"
# How a check is made, after the name: "Tenrec makes a First Impression".
LEADS = {
    "check": "rolls",
    "first_impression": "makes a First Impression,",
    "gut_instinct": "follows a Gut Instinct,",
    "gambit": "tries a Gambit,",
    "rebuttal": "makes a Rebuttal,",
}
MOMENTS = {"low": "Moment of Low Insight", "high": "Moment of High Insight"}
CONSEQUENCES = {
    "favorable": "a favorable impression",
    "no_strong_feeling": "no strong feeling either way",
    "terrible": "a terrible impression",
    "threatening": "comes across as threatening",
    "understands_motivations": "understands their motivations",
    "gets_a_read": "gets a read on them",
    "no_read": "gets no read",
    "takes_at_face_value": "takes everything at face value",
    "overwhelming": "overwhelming",
    "intrigued": "the other side is intrigued",
    "falls_short": "falls short",
    "rejected": "rejected",
    "very_likely_to_consider": "very likely to consider the offer",
    "may_consider": "may consider the offer",
    "poorly_received": "poorly received",
    "turns_hostile": "the scene turns hostile",
}
WHICH_DICE = {(0,): "first die", (1,): "second die", (0, 1): "both dice"}


def _formula(fields: dict, action=None, dice: str | None = None) -> str:
    """The dice and every modifier a player names: "2d6 + AMod 1 + CMod -2"."""
    if dice is None:
        dice = "3d6" if fields.get("insight_extra_die") is True else "2d6"
    parts = [dice]
    for key, name in (("amod", "AMod"), ("smod", "SMod"), ("cmod", "CMod")):
        if whole(fields, key):
            parts.append(f"{name} {fields[key]}")
    if fields.get("insight_cmod") is True:
        parts.append("Insight CMod 3")
    # Only a Rebuttal rolls with the Gambit's CMod; a Gambit's own is its consequence.
    if action == "rebuttal" and whole(fields, "rebuttal_cmod"):
        parts.append(f"Gambit CMod {fields['rebuttal_cmod']}")
    return " + ".join(parts)


def _band(result: dict) -> str | None:
    """ "11, success" or "2, Moment of Low Insight, dire failure, 1 Insight Die gained"."""
    total, outcome = whole(result, "total"), result.get("outcome")
    if outcome not in BANDS:
        return None
    said = [BANDS[outcome]]
    if result.get("moment_of_insight") in MOMENTS:
        said.insert(0, MOMENTS[result["moment_of_insight"]])
    gained = whole(result, "insight_gained")
    if gained:
        said.append(f"{gained} Insight {'Die' if gained == 1 else 'Dice'} gained")
    if total is not None:
        said.insert(0, str(total))
    return ", ".join(said)


def _consequence(result: dict, action) -> str:
    """The social check's consequence, "" when the result holds none."""
    said = []
    if isinstance(result.get("consequence"), str):
        said.append(CONSEQUENCES.get(result["consequence"], words(result["consequence"])))
    if whole(result, "future_cmod"):
        said.append(f"CMod {result['future_cmod']:+d} to future interactions")
    if action == "gambit" and whole(result, "rebuttal_cmod") is not None:
        said.append(f"the Rebuttal takes CMod {result['rebuttal_cmod']:+d}")
    if result.get("negotiation_over") is True:
        said.append("negotiation over")
    return "; " + ", ".join(said) if said else ""


def _single(request: dict, result: dict, who: str) -> str | None:
    band = _band(result)
    if band is None:
        return None
    action = result.get("action", request.get("action"))
    # A check echoes its request fields; what the request holds comes first.
    fields = {**result, **request}
    head = f"{who} {LEADS.get(action, 'rolls')} {_formula(fields, action)} ({DIFFICULTY})"
    return f"{head}: {band}{_consequence(result, action)}."


def _reroll(request: dict, result: dict, who: str) -> str | None:
    band = _band(result)
    if band is None:
        return None
    check = obj(request, "check")
    action = result.get("rerolled", check.get("action"))
    label = ACTIONS.get(action, "Check")
    replaced = result.get("replaced", request.get("replace"))
    which = WHICH_DICE.get(tuple(sorted(replaced)) if isinstance(replaced, list) else None)
    spent = whole(result, "insight_spent")
    head = f"{who} rerolls the {which or 'dice'} of a {label}"
    if spent:
        head += f" with {'an Insight Die' if spent == 1 else f'{spent} Insight Dice'}"
    faces = result.get("counted_faces")
    if isinstance(faces, list) and all(type(f) is int for f in faces):
        head = f"{head}, {_formula(check, action, ' + '.join(map(str, faces)))}"
    head += f" ({DIFFICULTY})"
    return f"{head}: {band}{_consequence(result, action)}."


def _opposed(request: dict, result: dict, who: str) -> str | None:
    outcome = result.get("outcome")
    if outcome not in ("actor", "opponent", "draw"):
        return None
    mine, theirs = obj(result, "actor"), obj(result, "opponent")
    head = f"{who} makes an Opposed check"
    if isinstance(request.get("actor"), dict) and isinstance(request.get("opponent"), dict):
        head += f", {_formula(request['actor'])} against {_formula(request['opponent'])}"
    said = contest(outcome, who)
    margin = whole(result, "margin")
    if margin:
        said += f" by {abs(margin)}"
    if whole(mine, "total") is not None and whole(theirs, "total") is not None:
        said = f"{mine['total']} to {theirs['total']}, {said}"
    notes = []
    for whose, side in ((f"{who}'s", mine), ("the other side's", theirs)):
        if side.get("moment_of_insight") in MOMENTS:
            notes.append(f"{whose} {MOMENTS[side['moment_of_insight']]}")
    return f"{head}: {said}" + (f" ({', '.join(notes)})." if notes else ".")


def _group(request: dict, result: dict, who: str) -> str | None:
    band = _band(result)
    if band is None:
        return None
    people = request.get("participants")
    size = f" of {len(people)}" if isinstance(people, list) else ""
    head = f"{who} leads a Group check{size}"
    roller = whole(result, "roller")
    if roller is not None:
        head += f", participant {roller + 1} rolling"
    modifier = whole(result, "modifier")
    if modifier is not None:
        head += f", 2d6 {'+' if modifier >= 0 else '-'} {abs(modifier)}" if modifier else ", 2d6"
    head += f" ({DIFFICULTY})"
    gained_by = result.get("insight_gained_by")
    if isinstance(gained_by, list) and gained_by and whole(result, "insight_gained"):
        # Every participant gains the die, so say it once for all of them.
        band = band.replace(" gained", " gained by each participant")
    return f"{head}: {band}."


SENTENCES = {
    "check": _single,
    "first_impression": _single,
    "gut_instinct": _single,
    "gambit": _single,
    "rebuttal": _single,
    "reroll": _reroll,
    "opposed": _opposed,
    "group": _group,
}


def sentence(request: dict, result: dict, who: str | None = None) -> str:
    return say(SENTENCES, ACTIONS, BANDS, request, result, default="Check", who=who)


def attack_detail(request: dict, result: dict) -> str:
    """The attack's check for the log's attack sentence: "11 against
    Difficulty 9, success"."""
    total, outcome = whole(result, "total"), result.get("outcome")
    if total is None or outcome not in BANDS:
        return ""
    return f"{total} against {DIFFICULTY}, {BANDS[outcome]}"
