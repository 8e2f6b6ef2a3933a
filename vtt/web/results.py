"""A room result (what undo would reverse) in a few words for the GM
console: "Tenrec's attack on Zombie (#12)"."""

from vtt.tabletop import event_kinds as kinds
from vtt.tabletop.selectors import token_name


def describe_result(event) -> str:
    data = event.data  # the shape its kind declares (vtt.tabletop.event_kinds)
    kind = event.kind
    if kind == kinds.TOKEN_MOVED:
        token = data["token"]
        words = f"{token_name(token)}'s move to column {token['x']}, row {token['y']}"
    elif kind == kinds.COMBAT_ATTACK:
        attack = data["attack"]
        words = f"{attack['attacker']['name']}'s attack on {attack['target']['name']}"
    elif kind == kinds.COMBAT_DAMAGE:
        words = f"the damage applied to {data['attack']['target']['name']}"
    elif kind == kinds.CHARACTER_UPDATED:
        words = f"a change to {data['character']['name']}"
    else:
        words = kind.replace(".", " ").replace("_", " ")
    return f"{words} (#{event.seq})"
