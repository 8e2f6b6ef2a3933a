"""What every game's log sentences share (vtt/games/<id>/log.py): reading a
stored request or result that may be older or smaller than today's, and the
plain sentence said when a result cannot say more."""


def whole(d, key):
    """A whole number from a stored dict, or None (booleans are not numbers)."""
    value = d.get(key) if isinstance(d, dict) else None
    return value if type(value) is int else None


def obj(d, key) -> dict:
    value = d.get(key) if isinstance(d, dict) else None
    return value if isinstance(value, dict) else {}


def count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def words(value) -> str:
    return str(value).replace("_", " ")


# Who rolled, when the log does not know: a sentence always has a subject.
SOMEONE = "the roller"
# How a contest ends for the one who rolled it (the other side is rarely
# named in a request: "Tenrec loses" says it without guessing a name).
CONTEST = {"actor": "{who} wins", "opponent": "{who} loses", "draw": "a draw"}


def contest(outcome, who: str) -> str:
    return CONTEST[outcome].format(who=who)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def say(
    sentences: dict, actions: dict, outcomes: dict, request, result, default="Roll", who=None
) -> str:
    """The sentence of `sentences` for the result's action, said of `who`
    (a character's or a person's name), or "Tenrec's Check: success." when
    it cannot be said (an unknown action, an older shape)."""
    request = request if isinstance(request, dict) else {}
    result = result if isinstance(result, dict) else {}
    who = who if isinstance(who, str) and who.strip() else SOMEONE
    asked = (result.get("action"), request.get("action"))
    action = next((a for a in asked if isinstance(a, str) and a in sentences), None)
    speak = sentences.get(action)
    try:
        said = speak(request, result, who) if speak else None
    except (TypeError, ValueError, KeyError, AttributeError):
        # Results stored by older versions may hold other shapes: say less.
        said = None
    if said:
        # A name is said as written; only the stand-in starts with a capital.
        return capital(said) if who == SOMEONE else said
    label = actions.get(action, default)
    outcome = result.get("outcome")
    told = ""
    if isinstance(outcome, str):
        told = (
            contest(outcome, who) if outcome in CONTEST else outcomes.get(outcome, words(outcome))
        )
    head = f"{who}'s {label}"
    said = f"{head}: {told}." if told else f"{head}."
    return capital(said) if who == SOMEONE else said


def _taken(attack: dict, reaction) -> tuple[int | None, int | None]:
    """The damage the target took and what the defender spent against it
    first (the game's reaction on an attack, vtt.games.reactions)."""
    for step in attack.get("steps") or []:
        if isinstance(step, dict) and step.get("step") == "reduce" and reaction is not None:
            return whole(obj(step, "result"), "damage"), whole(
                obj(step, "request"), reaction.resource
            )
    return whole(attack, "damage"), None


def attack_sentence(attack: dict, detail: str, state: str | None, reaction=None) -> str:
    """An attack as the log says it: "Tenrec hits the Zombie with the Sword:
    3 successes to 0, cascade 3. The Zombie is Injured." `detail` is the
    game's own account of the dice, `state` the target's wound state after
    the attack (None when the game has no track or nothing was applied),
    `reaction` the game's reaction on an attack, whose words say what the
    defender may spend or spent."""
    attacker = obj(attack, "attacker").get("name") or "Someone"
    named = obj(attack, "target").get("name")
    target, subject = (named, named) if named else ("the target", "The target")
    status = attack.get("status")
    # A game may name a hit by what it did (Artifice: incapacitated, dead).
    hit = attack.get("outcome") != "miss"
    verb = "hits" if hit else "misses"
    weapon = obj(attack, "weapon").get("name")
    armed = f" with the {weapon}" if isinstance(weapon, str) and weapon != "Unarmed" else ""
    said = [f"{attacker} {verb} {target}{armed}" + (f": {detail}." if detail else ".")]
    damage, spent = _taken(attack, reaction)
    if status == "awaiting_damage" and damage is not None:
        said.append(f"The GM applies the damage: {damage} suggested.")
    elif status == "awaiting_defender" and damage is not None:
        less = f", less any {reaction.label} spent" if reaction is not None else ""
        said.append(f"{subject} takes {damage} damage{less}.")
    elif status in ("applied", "undone") and hit and damage is not None:
        words = (reaction.one, reaction.label) if reaction is not None else ("", "")
        less = f" after spending {count(spent, *words)}" if spent else ""
        said.append(f"{subject} takes {damage} damage{less}.")
    if state and hit and status in ("applied", "undone"):
        said.append(f"{subject} is {state}.")
    return " ".join(said)
