"""Undo: the last applied result in a room (a move, a spent or gained point,
an attack's wound, applied damage) is reversed by a compensating event that
every client applies, newest first, one at a time.

- A move is undone by a token.moved event back to where the token was,
  with "undo_of" naming the undone entry (so every client simply moves it).
- Anything else by an "undo" event: {"undo_of", "undone", "changes"} whose
  changes carry each field's value before and after, as the attack's did.
- A marker put on a token by a marker.removed taking it off again, with
  "undo_of" (vtt.markers.services.marker_undo).

A GM undoes any result; a player only their own last move, and only while
it is the room's last result."""

from django.db import transaction
from django.db.models import Exists, OuterRef

from vtt.core import shapes
from vtt.markers.services import marker_undo
from vtt.tabletop import event_kinds as kinds
from vtt.tabletop import policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import (
    UNDOABLE_KINDS,
    Campaign,
    Character,
    Marker,
    RoomEvent,
    Token,
    Visibility,
)
from vtt.tabletop.selectors import token_name
from vtt.tabletop.services.access import actor, require_gm, require_participant
from vtt.tabletop.services.errors import NotAllowed, ServiceError
from vtt.tabletop.services.tokens import footprint_fits, token_place
from vtt.tabletop.visibility import Viewer

from ..models import Attack, BrokenWeapon, ResourceState, Undo
from .apply import apply_changes, lock_characters, remember, reverse_changes

UNDOABLE = UNDOABLE_KINDS
BATCH = 20


def _states(character_id: int, seq: int):
    """(resources after entry `seq`, resources before it), None where unknown."""
    after = ResourceState.objects.filter(character_id=character_id, seq=seq).first()
    before = (
        ResourceState.objects.filter(character_id=character_id, seq__lt=seq)
        .order_by("-seq")
        .first()
    )
    return (after.resources if after else None), (before.resources if before else None)


def _on_track(character_id: int, condition) -> bool:
    """Whether a Condition could be put back (a renamed track may have lost it)."""
    campaign = Campaign.objects.filter(characters__pk=character_id).first()
    track = campaign.settings.get("condition_track") if campaign else None
    return not track or condition is None or condition in track


def _changes_undoable(changes: list[dict]) -> bool:
    ids = {c["character_id"] for c in changes}
    if Character.objects.filter(pk__in=ids).count() != len(ids):
        return False
    return all(
        _on_track(c["character_id"], c["before"]) for c in changes if c["field"] == "condition"
    )


def _is_result(event: RoomEvent) -> bool:
    """Whether an entry changed something undo can still put back. An undo
    itself, a missed attack and a sheet edit changed nothing to put back; a
    move of a token since removed, or back to a square no longer on the map,
    and a change whose "before" is not on record or no longer allowed, can
    no longer be put back: all of these are passed over."""
    data = event.data  # the shape its kind declares (vtt.tabletop.event_kinds)
    if event.kind == kinds.MARKER_ADDED:
        return Marker.objects.filter(pk=data["marker"]["id"]).exists()
    if event.kind == kinds.TOKEN_MOVED:
        if "undo_of" in data:
            return False
        token = Token.objects.select_related("scene").filter(pk=data["token"]["id"]).first()
        if token is None:
            return False
        x, y = data["from"]
        return footprint_fits(token.scene, x, y, token.size)
    if event.kind == kinds.CHARACTER_UPDATED:
        character_id = data["character"]["id"]
        after, before = _states(character_id, event.seq)
        if after is None or before is None or after == before:
            return False
        return Character.objects.filter(pk=character_id).exists() and _on_track(
            character_id, before.get("condition")
        )
    attack = data["attack"]
    if not Attack.objects.filter(pk=attack["id"]).exists():
        return False
    if event.kind == kinds.COMBAT_ATTACK:
        if not attack["changes"] and not attack["status"].startswith("awaiting"):
            return False
        return _changes_undoable(attack["changes"])
    return _changes_undoable(data["changes"])


def last_result(campaign_id: int) -> RoomEvent | None:
    """The newest entry undo can put back. Read newest first a few at a time
    on the index of undoable entries (RoomEvent's "undoable_by_room"), each
    batch a LIMIT: the usual answer is the first row, whatever the room's
    length; entries undone or passed over are stepped past."""
    undone = Undo.objects.filter(event=OuterRef("pk"))
    candidates = (
        RoomEvent.objects.filter(campaign_id=campaign_id, kind__in=UNDOABLE)
        .exclude(Exists(undone))
        .order_by("-seq")
    )
    before = None
    while True:
        batch = list((candidates if before is None else candidates.filter(seq__lt=before))[:BATCH])
        for event in batch:
            if _is_result(event):
                return event
        if len(batch) < BATCH:
            return None
        before = batch[-1].seq


def _whose(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def describe(event: RoomEvent) -> str:
    """An undoable result in words, for the GM's "Undo last" to name it."""
    data = event.data
    if event.kind == kinds.MARKER_ADDED:
        return f"the marker {data['marker']['label']} on {data['token']['name']}"
    if event.kind == kinds.TOKEN_MOVED:
        x, y = data["from"]
        return f"{_whose(token_name(data['token']))} move (back to column {x + 1}, row {y + 1})"
    if event.kind == kinds.CHARACTER_UPDATED:
        return f"the change to {_whose(data['character']['name'])} points"
    attack = data["attack"]
    names = [side["name"] for side in (attack["attacker"], attack["target"]) if side["name"]]
    what = "attack" if event.kind == kinds.COMBAT_ATTACK else "damage from the attack"
    if len(names) == 2:
        return f"{_whose(names[0])} {what} on {names[1]}"
    return f"the {what}"


def next_undo(*, campaign_id: int, by) -> dict:
    """What "Undo last" would put back now (the GM's question before asking
    for it): {"seq", "kind", "summary"}, or nulls when nothing is left."""
    require_gm(campaign_id, by, doing="undo")
    last = last_result(campaign_id)
    if last is None:
        return {"seq": None, "kind": None, "summary": None}
    return {"seq": last.seq, "kind": last.kind, "summary": describe(last)}


def _cannot(message: str) -> ServiceError:
    return ServiceError("cannot_undo", message, "seq")


def _undo_move(event: RoomEvent, by) -> RoomEvent:
    token_id = event.payload.token["id"]
    token = (
        Token.objects.select_for_update(of=("self",))
        .select_related("scene__campaign")
        .filter(pk=token_id)
        .first()
    )
    if token is None:
        raise _cannot("the token has been removed since")
    x, y = event.payload.from_
    if not footprint_fits(token.scene, x, y, token.size):
        raise _cannot("the token's old square is no longer on the map")
    return token_place(token, x, y, by, undo_of=event.seq)


def _announce(event: RoomEvent, by, changes, touched, visibility, **extra) -> RoomEvent:
    undo = append_event(
        campaign=event.campaign,
        kind=kinds.UNDO,
        data={"undo_of": event.seq, "undone": event.kind, "changes": changes, **extra},
        actor=actor(by),
        visibility=visibility,
    )
    remember(touched, undo.seq)
    return undo


def _undo_resources(event: RoomEvent, by) -> RoomEvent:
    character_id = event.payload.character["id"]
    characters = lock_characters(Character(pk=character_id))
    character = characters.get(character_id)
    if character is None:
        raise _cannot("the character has been removed since")
    _, before = _states(character_id, event.seq)
    if before is None:
        raise _cannot("what the character had before this is not on record")
    track = character.campaign.settings.get("condition_track")
    if track and before.get("condition", track[0]) not in track:
        raise _cannot("the condition it had is no longer on the campaign's track")
    keys = sorted(set(character.resources) | set(before))
    changes, touched = apply_changes(
        [(character, key, before.get(key), character.name) for key in keys]
    )
    npc = character.kind == Character.Kind.NPC
    return _announce(event, by, changes, touched, Visibility.GM if npc else event.visibility)


def _attack_of(event: RoomEvent) -> Attack:
    attack = Attack.objects.select_for_update().filter(pk=event.payload.attack["id"]).first()
    if attack is None:
        raise _cannot("the attack has been removed since")
    return attack


def _reverse(changes: list[dict]):
    ids = {c["character_id"] for c in changes}
    characters = lock_characters(*(Character(pk=i) for i in ids))
    for change in changes:
        character = characters.get(change["character_id"])
        track = character.campaign.settings.get("condition_track") if character else None
        if change["field"] == "condition" and track and change["before"] not in track:
            raise _cannot("the condition it had is no longer on the campaign's track")
    return reverse_changes(changes, characters)


def _undo_attack(event: RoomEvent, by) -> RoomEvent:
    attack = _attack_of(event)
    changes, touched = _reverse(event.payload.attack["changes"])
    mended = list(BrokenWeapon.objects.filter(attack=attack).values_list("weapon", flat=True))
    BrokenWeapon.objects.filter(attack=attack).delete()
    attack.status = Attack.Status.UNDONE
    attack.save(update_fields=["status"])
    return _announce(
        event,
        by,
        changes,
        touched,
        attack.visibility,
        attack_id=attack.pk,
        status=attack.status,
        mended=mended,
    )


def _undo_damage(event: RoomEvent, by) -> RoomEvent:
    attack = _attack_of(event)
    applied = event.payload.changes
    changes, touched = _reverse(applied)
    attack.status = event.payload.status_before
    attack.damage = event.payload.damage_before
    attack.changes = attack.changes[: len(attack.changes) - len(applied)]
    if attack.steps and attack.steps[-1]["step"] == "reduce":
        attack.steps = attack.steps[:-1]
    attack.save(update_fields=["status", "damage", "changes", "steps"])
    return _announce(
        event, by, changes, touched, attack.visibility, attack_id=attack.pk, status=attack.status
    )


RESTORE = {
    kinds.TOKEN_MOVED: _undo_move,
    kinds.CHARACTER_UPDATED: _undo_resources,
    kinds.COMBAT_ATTACK: _undo_attack,
    kinds.COMBAT_DAMAGE: _undo_damage,
    kinds.MARKER_ADDED: marker_undo,
}


def undo_last(*, campaign_id: int, by, seq: int | None = None) -> RoomEvent:
    """Undo the room's last applied result. `seq`, when given, must name it
    (so nobody undoes a result that arrived after the one they meant).
    Returns the compensating event."""
    member = require_participant(campaign_id, by, doing="undo")
    if seq is not None:
        seq = shapes.whole(seq, "seq", 1, 2**63 - 1)
    with transaction.atomic():
        # One undo at a time per room: the second waits and then sees the first.
        Campaign.objects.select_for_update().filter(pk=campaign_id).first()
        last = last_result(campaign_id)
        if last is None:
            raise ServiceError("nothing_to_undo", "there is nothing left to undo", "seq")
        if seq is not None and seq != last.seq:
            raise ServiceError("not_last", f"the last result is #{last.seq}, not #{seq}", "seq")
        if not policy.runs_table(member):
            if last.actor_id != by.pk:
                raise NotAllowed("only a GM may undo another's result")
            if last.kind != kinds.TOKEN_MOVED:
                raise NotAllowed("a player may undo only their own moves")
            token = Token.objects.filter(pk=last.payload.token["id"]).first()
            if token is None or not policy.controls_token(Viewer(by.pk, member.role), token):
                raise NotAllowed("you no longer control that token")
        compensation = RESTORE[last.kind](last, by)
        Undo.objects.create(campaign_id=campaign_id, event=last, undone_by=compensation)
    return compensation
