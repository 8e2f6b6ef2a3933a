"""What combat's intents do in the live room: a thin call into combat's
services each (their fields are in vtt.combat.protocol). The live room's
handlers take these in (vtt.live.intents.HANDLERS). Every object an intent
names must belong to the room the socket is in."""

from vtt.areas.models import AreaTemplate
from vtt.tabletop.models import Campaign, Character, Scene, Token
from vtt.tabletop.serialize import character_public_data, token_data
from vtt.tabletop.services.access import no_active_scene
from vtt.tabletop.services.errors import NotFound

from .models import Attack, Encounter
from .serialize import attack_data
from .services import area_attacks, attacks, decisions, encounters, reactions, reveal, trails, undo


def _in_room(model, pk: int, room: int, field: str, path: str = "campaign_id") -> None:
    if not model.objects.filter(pk=pk, **{path: room}).exists():
        raise NotFound(f"no such {field}", field)


def _scene(asker, scene_id) -> int:
    if scene_id is None:
        scene_id = Campaign.objects.values_list("active_scene_id", flat=True).get(pk=asker.room)
        if scene_id is None:
            raise no_active_scene()
    _in_room(Scene, scene_id, asker.room, "scene")
    return scene_id


def _encounter(asker, encounter_id) -> int:
    """The encounter named, or the one running on the room's active scene."""
    if encounter_id is not None:
        _in_room(Encounter, encounter_id, asker.room, "encounter")
        return encounter_id
    scene_id = _scene(asker, None)
    found = Encounter.objects.filter(scene_id=scene_id, ended_at__isnull=True).first()
    if found is None:
        raise NotFound("no encounter is running on the active scene", "encounter")
    return found.pk


def _attack_tokens(asker, fields) -> None:
    _in_room(Token, fields["attacker_token"], asker.room, "attacker_token", "scene__campaign_id")
    _in_room(Token, fields["target_token"], asker.room, "target_token", "scene__campaign_id")


def attack(asker, fields: dict) -> dict:
    _attack_tokens(asker, fields)
    made = attacks.attack_make(
        by=asker.user,
        attacker_token_id=fields["attacker_token"],
        target_token_id=fields["target_token"],
        weapon=fields["weapon"],
        visibility=fields["visibility"],
        faces=fields["faces"],
        overrides=fields["overrides"],
        options=fields["options"],
        nonce=fields.get("nonce"),
    )
    return {"attack": attack_data(made)}


def area_attack(asker, fields: dict) -> dict:
    _in_room(Token, fields["attacker_token"], asker.room, "attacker_token", "scene__campaign_id")
    _in_room(AreaTemplate, fields["template"], asker.room, "template", "scene__campaign_id")
    made = area_attacks.area_attack(
        by=asker.user,
        attacker_token_id=fields["attacker_token"],
        template_id=fields["template"],
        weapon=fields["weapon"],
        visibility=fields["visibility"],
        options=fields["options"],
    )
    return {
        "attacks": [attack_data(a) for a in made.attacks],
        "passed_over": made.passed_over,
    }


def preview(asker, fields: dict) -> dict:
    _attack_tokens(asker, fields)
    return {
        "preview": attacks.attack_preview(
            by=asker.user,
            attacker_token_id=fields["attacker_token"],
            target_token_id=fields["target_token"],
            weapon=fields["weapon"],
            overrides=fields["overrides"],
            options=fields["options"],
        )
    }


def damage(asker, fields: dict) -> dict:
    _in_room(Attack, fields["attack"], asker.room, "attack")
    made = attacks.attack_apply_damage(
        attack_id=fields["attack"], by=asker.user, amount=fields["amount"]
    )
    return {"attack": attack_data(made)}


def decline(asker, fields: dict) -> dict:
    _in_room(Attack, fields["attack"], asker.room, "attack")
    made = attacks.attack_decline(attack_id=fields["attack"], by=asker.user)
    return {"attack": attack_data(made)}


def pending(asker, fields: dict) -> dict:
    """The decisions waiting for the asker now (the queue's refresh)."""
    return {"decisions": decisions.decisions(campaign_id=asker.room, by=asker.user)}


def repair(asker, fields: dict) -> dict:
    _in_room(Character, fields["character"], asker.room, "character")
    attacks.weapon_repair(character_id=fields["character"], by=asker.user, weapon=fields["weapon"])
    return {}


def react(asker, fields: dict) -> dict:
    """A reaction the game declares, on an attack or a character of the room."""
    if fields["attack"] is not None:
        _in_room(Attack, fields["attack"], asker.room, "attack")
    elif fields["character"] is not None:
        _in_room(Character, fields["character"], asker.room, "character")
    done = reactions.react(
        reaction=fields["reaction"],
        by=asker.user,
        attack_id=fields["attack"],
        character_id=fields["character"],
        values=fields["values"],
    )
    if isinstance(done, Attack):
        return {"attack": attack_data(done)}
    return {"character": character_public_data(done)}


def undo_last(asker, fields: dict) -> dict:
    event = undo.undo_last(campaign_id=asker.room, by=asker.user, seq=fields["seq"])
    return {"seq": event.seq, "undo_of": event.payload.undo_of}


def reveal_entry(asker, fields: dict) -> dict:
    event = reveal.event_reveal(campaign_id=asker.room, by=asker.user, seq=fields["seq"])
    return {"seq": event.seq}


def reset(asker, fields: dict) -> dict:
    _in_room(Token, fields["token"], asker.room, "token", "scene__campaign_id")
    return {"token": token_data(trails.token_reset(token_id=fields["token"], by=asker.user))}


def clear(asker, fields: dict) -> dict:
    trails.trails_clear(scene_id=_scene(asker, fields["scene"]), by=asker.user)
    return {}


def _encounter_ack(asker, encounter) -> dict:
    viewer = encounters.viewer_of(encounter, asker.user)
    return {"encounter": encounters.encounter_view(encounter, viewer)}


def start(asker, fields: dict) -> dict:
    made = encounters.encounter_start(
        scene_id=_scene(asker, fields["scene"]), by=asker.user, tokens=fields["tokens"]
    )
    return _encounter_ack(asker, made)


def initiative(asker, fields: dict) -> dict:
    made = encounters.encounter_roll_initiative(
        encounter_id=_encounter(asker, fields["encounter"]),
        by=asker.user,
        combatants=fields["combatants"],
        faces=fields["faces"],
        nonce=fields.get("nonce"),
    )
    return _encounter_ack(asker, made)


def set_initiative(asker, fields: dict) -> dict:
    made = encounters.encounter_set_initiative(
        encounter_id=_encounter(asker, fields["encounter"]),
        by=asker.user,
        combatant_id=fields["combatant"],
        initiative=fields["initiative"],
    )
    return _encounter_ack(asker, made)


def add(asker, fields: dict) -> dict:
    made = encounters.encounter_add(
        encounter_id=_encounter(asker, fields["encounter"]), by=asker.user, token_id=fields["token"]
    )
    return _encounter_ack(asker, made)


def remove(asker, fields: dict) -> dict:
    made = encounters.encounter_remove(
        encounter_id=_encounter(asker, fields["encounter"]),
        by=asker.user,
        combatant_id=fields["combatant"],
    )
    return _encounter_ack(asker, made)


def next_turn(asker, fields: dict) -> dict:
    made = encounters.encounter_next(
        encounter_id=_encounter(asker, fields["encounter"]), by=asker.user
    )
    return _encounter_ack(asker, made)


def end(asker, fields: dict) -> dict:
    made = encounters.encounter_end(
        encounter_id=_encounter(asker, fields["encounter"]), by=asker.user
    )
    return _encounter_ack(asker, made)


HANDLERS = {
    "attack": attack,
    "attack.preview": preview,
    "attack.area": area_attack,
    "attack.damage": damage,
    "attack.decline": decline,
    "decisions": pending,
    "weapon.repair": repair,
    "reaction": react,
    "undo": undo_last,
    "reveal": reveal_entry,
    "token.reset": reset,
    "trails.clear": clear,
    "encounter.start": start,
    "encounter.initiative": initiative,
    "encounter.set": set_initiative,
    "encounter.add": add,
    "encounter.remove": remove,
    "encounter.next": next_turn,
    "encounter.end": end,
}
