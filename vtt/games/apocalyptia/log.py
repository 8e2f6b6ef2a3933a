"""Apocalyptia rolls as the roll log says them: "d6 + 3 = 8 against 6:
success." Built from the request and its result only; a result stored before
a field existed gets a plainer sentence, never an error."""

from ..log import CONTEST, contest, obj, say, whole

ACTIONS = {"roll": "Roll", "opposed": "Opposed roll", "attack": "Attack"}
OUTCOMES = {}
BROKEN = {
    "attacker": "the attacker's weapon breaks",
    "defender": "the defender's weapon breaks",
    "both": "both weapons break",
}


def _die(bonus, total) -> str:
    """ "d6 + 3 = 8", "d6 - 2 = 1", or what is known of it."""
    if bonus is None:
        return "" if total is None else str(total)
    roll = f"d6 {'-' if bonus < 0 else '+'} {abs(bonus)}" if bonus else "d6"
    return roll if total is None else f"{roll} = {total}"


def _marks(botch, critical) -> list[str]:
    return (["Botch"] if botch is True else []) + (["Critical"] if critical is True else [])


def _roll(request: dict, result: dict, who: str) -> str | None:
    outcome, total = result.get("outcome"), whole(result, "total")
    if outcome not in ("success", "failure"):
        return None
    difficulty = whole(request, "difficulty")
    against = f" against Difficulty {difficulty}" if difficulty is not None else ""
    if result.get("automatic") is True:
        shown = f"bonus {total}" if total is not None else "the bonus"
        return f"{who} succeeds automatically: {shown}{against}, no roll."
    bonus = whole(request, "bonus")
    head = (
        _die(bonus, total) if bonus is not None else f"Total {total}" if total is not None else ""
    )
    head = f"{who} rolls {head}".rstrip()
    if result.get("botch") is True:
        # The seed's words: a Botch fails whatever the total.
        said = f"{outcome}, Botch (something very bad happens)"
    else:
        said = ", ".join([*_marks(False, result.get("critical")), outcome])
    return f"{head}{against}: {said}."


def _opposed(request: dict, result: dict, who: str) -> str | None:
    outcome = result.get("outcome")
    if outcome not in CONTEST:
        return None
    mine, theirs = whole(result, "actor_total"), whole(result, "opponent_total")
    bonus_mine = whole(obj(request, "actor"), "bonus")
    bonus_theirs = whole(obj(request, "opponent"), "bonus")
    head = f"{who} makes an Opposed roll"
    if bonus_mine is not None and bonus_theirs is not None:
        head += f", {_die(bonus_mine, mine)} against {_die(bonus_theirs, theirs)}"
    elif mine is not None and theirs is not None:
        head += f", {mine} against {theirs}"
    said = contest(outcome, who)
    margin = whole(result, "margin")
    if margin:
        said += f" by {abs(margin)}"
    rounds = whole(result, "rounds")
    if rounds and rounds > 1:
        said += f" after {rounds - 1} tied {'round' if rounds == 2 else 'rounds'}"
    notes = [
        f"{whose} {mark}"
        for whose, side in ((f"{who}'s", "actor"), ("the other side's", "opponent"))
        for mark in _marks(result.get(f"{side}_botch"), result.get(f"{side}_critical"))
    ]
    return f"{head}: {said}" + (f" ({', '.join(notes)})." if notes else ".")


def _attack(request: dict, result: dict, who: str) -> str | None:
    outcome = result.get("outcome")
    if outcome not in ("hit", "miss"):
        return None
    atk, defence = whole(result, "atk_total"), whole(result, "def_total")
    kind = "Block" if request.get("defense") == "block" else "Dodge"
    head = f"{who} attacks, ATK {_die(whole(request, 'atk_bonus'), atk)}".strip()
    head += f" vs DEF ({kind}) {_die(whole(request, 'def_bonus'), defence)}".rstrip()
    said = outcome
    margin, damage = whole(result, "margin"), whole(result, "damage")
    if outcome == "hit" and margin is not None:
        said += f" by {margin}"
    if outcome == "hit" and damage is not None:
        weapon = whole(request, "weapon_dmg")
        said += f", {damage} damage" + (f" ({margin} + weapon {weapon})" if weapon else "")
    notes = _marks(result.get("atk_botch"), result.get("atk_critical"))
    notes = [f"ATK {mark}" for mark in notes]
    notes += [f"DEF {mark}" for mark in _marks(result.get("def_botch"), result.get("def_critical"))]
    if result.get("weapon_broken") in BROKEN:
        notes.append(BROKEN[result["weapon_broken"]])
    return f"{head}: {said}" + (f"; {', '.join(notes)}." if notes else ".")


SENTENCES = {"roll": _roll, "opposed": _opposed, "attack": _attack}


def sentence(request: dict, result: dict, who: str | None = None) -> str:
    return say(SENTENCES, ACTIONS, OUTCOMES, request, result, who=who)


def attack_detail(request: dict, result: dict) -> str:
    """The attack's dice for the log's attack sentence: "ATK 10 against DEF
    (Block) 3, by 7"."""
    atk, defence = whole(result, "atk_total"), whole(result, "def_total")
    if atk is None or defence is None:
        return ""
    kind = "Block" if request.get("defense") == "block" else "Dodge"
    said = f"ATK {atk} against DEF ({kind}) {defence}"
    margin = whole(result, "margin")
    if result.get("outcome") == "hit" and margin:
        said += f", by {margin}"
    if result.get("weapon_broken") in BROKEN:
        said += f", {BROKEN[result['weapon_broken']]}"
    return said
