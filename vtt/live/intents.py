"""What each intent does: a thin call into the tabletop's services. Each
handler is synchronous (the consumer runs it on the database thread), takes
who is asking and the intent's clean fields, and returns what the `ack`
carries. Refusals are the services' own ServiceError, or the rules' RulesError.
`once` makes an intent into what runs it once per id (vtt.live.receipts)."""

from dataclasses import dataclass

from vtt.areas.services import template_data, template_place, template_remove
from vtt.combat.intents import HANDLERS as COMBAT_HANDLERS
from vtt.core import shapes
from vtt.dice.rolls import roll_adjudicate
from vtt.dice.sessions import session_end, session_start
from vtt.drawings.serialize import drawing_data
from vtt.drawings.services import drawing_add, drawing_clear, drawing_move, drawing_remove
from vtt.fog.services import fog_edit
from vtt.maps.light_edits import CHANGEABLE, light_place, light_remove, light_update
from vtt.maps.wall_edits import wall_add, wall_change, wall_delete
from vtt.markers.services import marker_add, marker_remove
from vtt.tabletop.models import Campaign, Scene, Token
from vtt.tabletop.serialize import light_data, marker_data, token_data
from vtt.tabletop.services.access import no_active_scene, require_member
from vtt.tabletop.services.errors import NotFound
from vtt.tabletop.services.scenes import scene_activate, scene_set_door
from vtt.tabletop.services.tokens import (
    token_create,
    token_delete,
    token_move,
    token_set_hidden,
    token_update,
)

from . import chat_commands
from .protocol import Intent
from .receipts import Once, carry_out_once


@dataclass(frozen=True)
class Asker:
    user: object
    room: int
    # Token ids the socket already knows to be in this room (its snapshot and
    # the room's own events): no need to ask the database again.
    known_tokens: frozenset = frozenset()


def _token_in_room(asker: Asker, token_id: int) -> None:
    if token_id in asker.known_tokens:
        return
    if not Token.objects.filter(pk=token_id, scene__campaign_id=asker.room).exists():
        raise NotFound("no such token", "token")


def _scene_in_room(asker: Asker, scene_id: int) -> None:
    if not Scene.objects.filter(pk=scene_id, campaign_id=asker.room).exists():
        raise NotFound("no such scene", "scene")


def roll(asker: Asker, fields: dict) -> dict:
    made = roll_adjudicate(
        campaign_id=asker.room,
        by=asker.user,
        request=fields["request"],
        visibility=fields["visibility"],
        character_id=fields["character"],
        fill=fields.get("fill"),
        nonce=fields.get("nonce"),
    )
    return {"roll_id": made.pk}


def move(asker: Asker, fields: dict) -> dict:
    _token_in_room(asker, fields["token"])
    token = token_move(
        token_id=fields["token"],
        by=asker.user,
        x=fields["x"],
        y=fields["y"],
        version=fields["version"],
    )
    return {"token": token_data(token)}


def create(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields.pop("scene"))
    token = token_create(scene_id=scene_id, by=asker.user, **fields)
    return {"token": token_data(token)}


def update(asker: Asker, fields: dict) -> dict:
    _token_in_room(asker, fields["token"])
    token = token_update(token_id=fields["token"], by=asker.user, **fields["changes"])
    return {"token": token_data(token)}


def hide(asker: Asker, fields: dict) -> dict:
    _token_in_room(asker, fields["token"])
    token = token_set_hidden(token_id=fields["token"], by=asker.user, hidden=fields["hidden"])
    return {"token": token_data(token)}


def delete(asker: Asker, fields: dict) -> dict:
    _token_in_room(asker, fields["token"])
    token_delete(token_id=fields["token"], by=asker.user)
    return {"token_id": fields["token"]}


def add_marker(asker: Asker, fields: dict) -> dict:
    marker = marker_add(
        campaign_id=asker.room, token_id=fields.pop("token"), by=asker.user, **fields
    )
    return {"marker": marker_data(marker)}


def remove_marker(asker: Asker, fields: dict) -> dict:
    marker_remove(marker_id=fields["marker"], by=asker.user)
    return {"marker_id": fields["marker"]}


def place_template(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields.pop("scene"))
    template = template_place(scene_id=scene_id, by=asker.user, **fields)
    return {"template": template_data(template)}


def remove_template(asker: Asker, fields: dict) -> dict:
    template_remove(template_id=fields["template"], by=asker.user)
    return {"template_id": fields["template"]}


def add_drawing(asker: Asker, fields: dict) -> dict:
    # The room's scene is checked (or found) in the add's own read: an add
    # comes every few strokes from every member drawing.
    drawing = drawing_add(scene_id=fields.pop("scene"), room=asker.room, by=asker.user, **fields)
    # Not "id": an ack's own `id` is the intent's.
    return {"drawing_id": drawing.pk, "drawing": drawing_data(drawing)}


def move_drawing(asker: Asker, fields: dict) -> dict:
    drawing = drawing_move(
        drawing_id=fields["drawing"], by=asker.user, dx=fields["dx"], dy=fields["dy"]
    )
    return {"drawing_id": drawing.pk, "drawing": drawing_data(drawing)}


def remove_drawing(asker: Asker, fields: dict) -> dict:
    drawing_remove(drawing_id=fields["drawing"], by=asker.user)
    return {"drawing_id": fields["drawing"]}


def clear_drawings(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields["scene"])
    ids = drawing_clear(scene_id=scene_id, by=asker.user, layer=fields["layer"])
    return {"scene_id": scene_id, "ids": ids}


def _room_scene(asker: Asker, scene_id: int | None) -> int:
    """The scene an intent names, else the one the room is on."""
    if scene_id is not None:
        _scene_in_room(asker, scene_id)
        return scene_id
    require_member(asker.room, asker.user)
    scene_id = Campaign.objects.values_list("active_scene_id", flat=True).get(pk=asker.room)
    if scene_id is None:
        raise no_active_scene()
    return scene_id


def door(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields["scene"])
    scene_set_door(scene_id=scene_id, by=asker.user, wall=fields["wall"], state=fields["state"])
    return {"scene_id": scene_id, "wall": fields["wall"], "state": fields["state"]}


def add_wall(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields["scene"])
    scene = wall_add(scene_id=scene_id, by=asker.user, wall=fields["wall"])
    return {"scene_id": scene_id, "walls": scene.walls}


def change_wall(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields["scene"])
    scene = wall_change(
        scene_id=scene_id,
        by=asker.user,
        index=fields["index"],
        was=fields["was"],
        wall=fields["wall"],
    )
    return {"scene_id": scene_id, "walls": scene.walls}


def delete_wall(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields["scene"])
    scene = wall_delete(scene_id=scene_id, by=asker.user, index=fields["index"], was=fields["was"])
    return {"scene_id": scene_id, "walls": scene.walls}


def fog(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields["scene"])
    fog_edit(
        scene_id=scene_id,
        by=asker.user,
        action=fields["action"],
        rect=fields["rect"],
        group=fields["group"],
    )
    return {"scene_id": scene_id}


def place_light(asker: Asker, fields: dict) -> dict:
    scene_id = _room_scene(asker, fields["scene"])
    given = shapes.obj(fields["light"], "light", CHANGEABLE)
    light = light_place(scene_id=scene_id, by=asker.user, token_id=fields["token"], **given)
    return {"light": light_data(light)}


def update_light(asker: Asker, fields: dict) -> dict:
    changes = shapes.obj(fields["changes"], "changes", CHANGEABLE)
    light = light_update(light_id=fields["light"], by=asker.user, **changes)
    return {"light": light_data(light)}


def remove_light(asker: Asker, fields: dict) -> dict:
    light_remove(light_id=fields["light"], by=asker.user)
    return {"light_id": fields["light"]}


def activate(asker: Asker, fields: dict) -> dict:
    _scene_in_room(asker, fields["scene"])
    scene = scene_activate(scene_id=fields["scene"], by=asker.user)
    return {"scene_id": scene.pk}


def start_session(asker: Asker, fields: dict) -> dict:
    session = session_start(campaign_id=asker.room, by=asker.user)
    return {"session": session.number, "digest": session.digest}


def end_session(asker: Asker, fields: dict) -> dict:
    session = session_end(campaign_id=asker.room, by=asker.user)
    return {"session": session.number, "seed": bytes(session.seed).hex()}


def chat(asker: Asker, fields: dict) -> dict:
    """A line, or a command ("/r 3D diff 2", "/w gm ..."): vtt.live.chat_commands."""
    return chat_commands.run(
        asker, fields["text"], fields.get("nonce"), current=fields.get("character")
    )


HANDLERS = {
    "roll": roll,
    "token.move": move,
    "token.create": create,
    "token.update": update,
    "token.hide": hide,
    "token.delete": delete,
    "scene.activate": activate,
    "marker.add": add_marker,
    "marker.remove": remove_marker,
    "template.place": place_template,
    "template.remove": remove_template,
    "door.set": door,
    "wall.add": add_wall,
    "wall.change": change_wall,
    "wall.delete": delete_wall,
    "fog.edit": fog,
    "light.place": place_light,
    "light.update": update_light,
    "light.remove": remove_light,
    "drawing.add": add_drawing,
    "drawing.move": move_drawing,
    "drawing.remove": remove_drawing,
    "drawing.clear": clear_drawings,
    "session.start": start_session,
    "session.end": end_session,
    "chat": chat,
}
HANDLERS.update(COMBAT_HANDLERS)


def once(asker: Asker, intent: Intent) -> Once:
    """The intent, to be carried out once per id (vtt.live.receipts): what
    a room's writer runs (vtt.live.group_commit)."""
    handler = HANDLERS[intent.type]
    fields = dict(intent.fields)
    return Once(
        room=asker.room,
        user_id=asker.user.pk,
        intent_id=intent.id,
        intent=intent.type,
        act=lambda: handler(asker, fields),
    )


def carry_out(asker: Asker, intent: Intent) -> tuple[dict, bool]:
    """What the ack carries, and whether it is the answer of an earlier
    sending of the same id rather than of this one: the intent carried out
    in a transaction of its own."""
    return carry_out_once(once(asker, intent))
