"""Rd6 rolls as the roll log says them: "3D+1 against Moderate (2 successes):
13, 2 successes, success, Solid." Built from the request and its result
only; a result stored before a field existed gets a plainer sentence, never
an error."""

from ..log import CONTEST, contest, count, obj, say, whole

# The names of DIFFICULTY_HINT in this game's kit; 6 and up are Legendary.
DIFFICULTY_NAMES = ("Very Easy", "Easy", "Moderate", "Difficult", "Very Difficult", "Heroic")
ACTIONS = {"roll": "Roll", "opposed": "Opposed roll"}
OUTCOMES = {}


def _code(fields: dict, side: dict) -> str:
    """The die code rolled (after a Fate Point and modifiers, as the result
    says), or the one asked for, and the extra wild dice: "6D+2 with a Fate
    Point"."""
    dice, pips = whole(side, "pool"), whole(side, "pips")
    if dice is None:
        dice, pips = whole(fields, "dice"), whole(fields, "pips")
    if dice is None:
        return ""
    code = f"{dice}D{pips:+d}" if pips else f"{dice}D"
    extras = []
    if fields.get("fate_point") is True:
        extras.append("a Fate Point")
    points = whole(fields, "character_points")
    if points:
        extras.append(count(points, "Character Point", "Character Points"))
    if fields.get("rolling_up") is True:
        extras.append("Rolling Up")
    return f"{code} with {' and '.join(extras)}" if extras else code


def _difficulty(request: dict, result: dict) -> str:
    difficulty, shift = whole(request, "difficulty"), whole(request, "difficulty_modifier")
    needed = whole(result, "needed")
    if difficulty is None and not shift and request.get("retry") is not True:
        # Nothing but the difficulty adds to what is needed: name that.
        difficulty = needed
    name = ""
    if difficulty is not None and difficulty >= 0:
        name = DIFFICULTY_NAMES[difficulty] if difficulty < 6 else "Legendary"
        name += f" {shift:+d}" if shift else ""
    if needed is None:
        return name
    needed = count(needed, "success", "successes")
    return f"Difficulty {name} ({needed})" if name else f"a Difficulty of {needed}"


def _wild_die(fields: dict, side: dict, dice: list, pool: str) -> str:
    """What the Wild Die did, in the game's words, or "" when nothing to say."""
    check = side.get("critical_failure_check")
    if check == "true_critical_failure":
        also = ", Catastrophic Failure" if side.get("catastrophic") is True else ""
        return f"Wild Die 1: True Critical Failure{also}"
    if check == "complication":
        if fields.get("complication") == "narrate":
            return "Wild Die 1: a Complication to narrate"
        return "Wild Die 1: a Complication, Wild Die and highest die cancelled"
    if check == "normal":
        return "Wild Die 1: resolved as normal"
    dice = dice if isinstance(dice, list) else []
    roles = [d.get("role") for d in dice if isinstance(d, dict) and d.get("pool") == pool]
    if "wild" in roles:
        after = roles[roles.index("wild") + 1 :]
        blasts = next((i for i, role in enumerate(after) if role != "explosion"), len(after))
        if blasts:
            times = {1: "", 2: " twice"}.get(blasts, f" {blasts} times")
            return f"Wild Die explodes{times}"
    return ""


def _tally(side: dict, opposed: bool = False) -> str:
    """ "13, 2 successes" for a roll, "13 (2 successes)" for a side of an
    opposed roll, "" when the result does not say."""
    total, successes = whole(side, "total"), whole(side, "successes")
    if total is None or successes is None:
        return ""
    counted = count(successes, "success", "successes")
    return f"{total} ({counted})" if opposed else f"{total}, {counted}"


def _level(result: dict) -> str:
    level, points = result.get("result_level"), whole(result, "result_points")
    if not isinstance(level, str):
        return ""
    return f"{level} ({count(points, 'result point', 'result points')})" if points else level


def _roll(request: dict, result: dict, who: str) -> str | None:
    outcome = result.get("outcome")
    if outcome not in ("success", "failure"):
        return None
    head = _code(request, result)
    against = _difficulty(request, result)
    if against:
        head = f"{head} against {against}".strip()
    head = f"{who} rolls {head}" if head else f"{who} rolls"
    if request.get("retry") is True:
        head = f"{who} takes a Second Chance, {head.removeprefix(f'{who} rolls ')}"
    said = [_tally(result), outcome, _level(result)]
    said = ", ".join(part for part in said if part)
    wild = _wild_die(request, result, result.get("dice"), "actor")
    said += f"; {wild}" if wild else ""
    return f"{head}: {said}."


def _opposed(request: dict, result: dict, who: str) -> str | None:
    outcome = result.get("outcome")
    if outcome not in CONTEST:
        return None
    mine, theirs = obj(result, "actor"), obj(result, "opponent")
    asked_mine, asked_theirs = obj(request, "actor"), obj(request, "opponent")
    head = f"{who} makes an Opposed roll"
    codes = _code(asked_mine, mine), _code(asked_theirs, theirs)
    if all(codes):
        head += f", {codes[0]} against {codes[1]}"
    said = contest(outcome, who)
    margin = whole(result, "margin")
    if margin:
        said += f" by {count(abs(margin), 'success', 'successes')}"
    elif margin == 0 and outcome != "draw":
        said += " on the total"
    tallies = _tally(mine, opposed=True), _tally(theirs, opposed=True)
    if all(tallies):
        said = f"{tallies[0]} to {tallies[1]}, {said}"
    level = _level(result)
    said += f", {level}" if level else ""
    dice = result.get("dice")
    for whose, asked, side, pool in (
        (f"{who}'s", asked_mine, mine, "actor"),
        ("the other side's", asked_theirs, theirs, "opponent"),
    ):
        wild = _wild_die(asked, side, dice, pool)
        said += f"; {whose} {wild}" if wild else ""
    return f"{head}: {said}."


SENTENCES = {"roll": _roll, "opposed": _opposed}


def sentence(request: dict, result: dict, who: str | None = None) -> str:
    return say(SENTENCES, ACTIONS, OUTCOMES, request, result, who=who)


def attack_detail(request: dict, result: dict) -> str:
    """The attack's opposed roll for the log's attack sentence: "13 (2
    successes) to 9 (1 success)"."""
    tallies = (
        _tally(obj(result, "actor"), opposed=True),
        _tally(obj(result, "opponent"), opposed=True),
    )
    return f"{tallies[0]} to {tallies[1]}" if all(tallies) else ""
