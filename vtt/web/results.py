"""A room result (what undo would reverse) in a few words for the GM
console: "Tenrec's attack on Zombie (#12)"."""


def describe_result(event) -> str:
    data = event.data or {}
    kind = event.kind
    if kind == "token.moved":
        token = data.get("token") or {}
        words = f"{token.get('name', 'a token')}'s move to column {token.get('x')}, row {token.get('y')}"
    elif kind == "combat.attack":
        attack = data.get("attack") or {}
        attacker = (attack.get("attacker") or {}).get("name", "someone")
        target = (attack.get("target") or {}).get("name", "someone")
        words = f"{attacker}'s attack on {target}"
    elif kind == "combat.damage":
        target = ((data.get("attack") or {}).get("target") or {}).get("name", "someone")
        words = f"the damage applied to {target}"
    elif kind == "character.updated":
        words = f"a change to {(data.get('character') or {}).get('name', 'a character')}"
    else:
        words = kind.replace(".", " ").replace("_", " ")
    return f"{words} (#{event.seq})"
