"""Plain-dict forms of combat's objects for the room events and the REST
reads (JSON types only: they go into the event log as they are)."""

from vtt.tabletop import policy
from vtt.tabletop.serialize import user_data

ROUND_SECONDS = 20  # Artifice: a Round is nominally 20 seconds...
TURN_SECONDS = 10  # ...and a Turn 10


def attack_data(attack) -> dict:
    return {
        "id": attack.pk,
        "campaign_id": attack.campaign_id,
        "scene_id": attack.scene_id,
        "by": user_data(attack.by),
        "attacker": {
            "token_id": attack.attacker_token_id,
            "character_id": attack.attacker_id,
            "name": attack.attacker_name,
        },
        "target": {
            "token_id": attack.target_token_id,
            "character_id": attack.target_id,
            "name": attack.target_name,
        },
        "system": attack.system,
        "weapon": attack.weapon,
        "measure": attack.measure,
        "sources": attack.sources,
        "steps": attack.steps,
        "outcome": attack.outcome,
        "status": attack.status,
        "damage": attack.damage,
        "changes": attack.changes,
        "visibility": attack.visibility,
        "physical": attack.physical,
        "draw": attack.draw,
        "seq": attack.event.seq if attack.event_id else None,
    }


def combatant_data(combatant) -> dict:
    return {
        "id": combatant.pk,
        "token_id": combatant.token_id,
        "name": combatant.name,
        "initiative": combatant.initiative,
    }


def encounter_data(encounter, order, hidden_tokens=frozenset()) -> dict:
    """The encounter with its turn order. Combatants whose token is in
    `hidden_tokens` are left out (what a player sees: policy.order_without)."""
    current = encounter.current_id
    ids = [c.pk for c in order]
    whole = {
        "id": encounter.pk,
        "scene_id": encounter.scene_id,
        "round": encounter.round,
        "turns": encounter.turns,
        "current": current if current in ids else None,
        "turn": ids.index(current) if current in ids else None,
        "unseen_turn": False,
        "order": [combatant_data(c) for c in order],
        "ended": encounter.ended_at is not None,
        "game_time": {
            "seconds": (encounter.round - 1) * ROUND_SECONDS,
            "round_seconds": ROUND_SECONDS,
            "turn_seconds": TURN_SECONDS,
        },
    }
    return policy.order_without(whole, hidden_tokens) if hidden_tokens else whole
