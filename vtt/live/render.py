"""Each log entry is encoded once per *visibility class*, not once per
recipient: what a member may see of an event depends only on their role, on
whether they are its actor, or for an addressed event (a whisper) its
recipient, and on a fog scene on the sight group they see through
(vtt.tabletop.policy). The broadcast carries the few distinct frame texts
and which class gets which; every connection then forwards a ready text."""

import json

from vtt.fog import vision
from vtt.tabletop import event_kinds as kinds
from vtt.tabletop.models import Role, Visibility
from vtt.tabletop.policy import addressee, event_view, players_see, render_group, sight_key
from vtt.tabletop.visibility import Viewer

from .protocol import PROTOCOL_VERSION, dumps, event_for, event_frame_text

ROLES = tuple(Role.values)
NOBODY = 0  # a user id no real user has: the "not the actor" viewer
NO_GROUP = "-"  # a group the event's annotation does not name: it saw nothing


def class_key(role: str, is_actor: bool, is_addressee: bool = False, group: str = "") -> str:
    role = f"{role}@{group}" if group else role
    if is_actor:
        return f"{role}.actor"
    return f"{role}.to" if is_addressee else role


def viewer_class(
    role: str,
    user_id: int,
    actor_id: int | None,
    to_id: int | None = None,
    group: str = "",
) -> str:
    is_actor = actor_id is not None and actor_id == user_id
    return class_key(role, is_actor, to_id is not None and to_id == user_id, group)


def _groups_by_role(event) -> dict[str, list[str]]:
    """The sight groups each role is rendered for: on a fog scene every
    group of the annotation (and one it does not name) for players, the
    party for observers; elsewhere the group makes no difference."""
    annotation = event.data.get(kinds.SIGHT)
    if annotation is None:
        return {}
    return {
        Role.PLAYER: [*annotation["groups"], NO_GROUP],
        Role.OBSERVER: [vision.PARTY],
    }


def render_event(event) -> dict:
    """The channel-layer message announcing `event` (a RoomEvent) to its room."""
    texts: list[str] = []
    index: dict[str, int] = {}
    pick: dict[str, int] = {}
    to_id = addressee(event)
    grouped = _groups_by_role(event)
    drawn: dict = {}
    views: list = []
    for role in ROLES:
        viewers = []
        for group in grouped.get(role, [""]):
            as_group = {"group": group} if group else {}
            viewers.append((class_key(role, False, group=group), Viewer(NOBODY, role, **as_group)))
            if event.actor_id is not None:
                viewers.append(
                    (class_key(role, True, group=group), Viewer(event.actor_id, role, **as_group))
                )
            if to_id is not None and to_id != event.actor_id:
                viewers.append(
                    (class_key(role, False, True, group), Viewer(to_id, role, **as_group))
                )
        for key, viewer in viewers:
            text = _text(event, viewer, drawn, views)
            if text not in index:
                index[text] = len(texts)
                texts.append(text)
            pick[key] = index[text]
    message = {
        "type": "room.event",
        "room": event.campaign_id,
        "seq": event.seq,
        "kind": event.kind,
        "actor": event.actor_id,
        "texts": texts,
        "pick": pick,
    }
    if to_id is not None:
        message["to"] = to_id
    if grouped:
        message["groups"] = grouped[Role.PLAYER][:-1]
        _add_sight(message, event)
    # What the kind's connections keep besides the text (its declaration).
    declared = kinds.KINDS[event.kind]
    payload = declared.read(event.data)
    message.update(declared.broadcast(payload, event, players_see(event)))
    return message


def _text(event, viewer: Viewer, drawn: dict, views: list) -> str:
    """The viewer's frame text. A public event whose players get the same
    view (a scene change, a turn order) is the same for its actor as for the
    others and for an observer as for a player of the same sight group:
    each distinct view is encoded once (`drawn`), not once per class. Any
    other kind's view is encoded once per distinct view too (`views`): a
    public drawing's points are the same for all six classes, and encoding
    them was most of what rendering it cost."""
    declared = kinds.KINDS[event.kind]
    if declared.sight == kinds.Sight.PLAYERS_VIEW and event.visibility == Visibility.PUBLIC:
        key = sight_key(viewer)
        if key not in drawn:
            drawn[key] = event_frame_text(event_view(event, viewer))
        return drawn[key]
    view = event_view(event, viewer)
    for seen, text in views:
        if seen == view:
            return text
    text = event_frame_text(view)
    views.append((view, text))
    return text


def _add_sight(message: dict, event) -> None:
    """What a connection keeps of a fog scene's event besides its text: for
    each group, the tokens that came into and left its view (its table of
    tokens, for checking drags), which groups see the event's token and
    which it sees for; and the groups' fresh vision frames."""
    annotation = event.data[kinds.SIGHT]
    if kinds.KINDS[event.kind].players != kinds.Copy.MAP:  # its `scene` says what each sees
        metas = {t["id"]: _meta(t) for t in annotation["tokens"]}
        message["sight"] = {
            group: {"enter": [metas[i] for i in mine["enter"]], "leave": mine["leave"]}
            for group, mine in annotation["groups"].items()
        }
    message["seen_by"] = sorted(g for g, mine in annotation["groups"].items() if mine["sees"])
    eyes = annotation.get("eyes") or {}
    if "token" in event.data:
        message["eyes"] = eyes.get(str(event.data["token"]["id"]), [])
    groups = annotation.get("views") or []
    if groups:
        message["vision"] = {
            group: dumps({"type": "vision", **frame})
            for group, frame in vision.visions_of(annotation["scene"], groups).items()
        }


def _meta(token: dict) -> dict:
    return {
        "id": token["id"],
        "controllers": token["controllers"],
        "hidden": token["hidden"],
        "version": token["version"],
        "gone": False,
    }


def text_for(
    message: dict, role: str, user_id: int, group: str = "", version: int = PROTOCOL_VERSION
) -> str:
    """The frame text of a rendered event for one recipient (whose client
    speaks protocol `version`)."""
    text = _class_text(message, role, user_id, group)
    if version >= PROTOCOL_VERSION or message["kind"] != kinds.SCENE_ACTIVATED:
        return text
    # An older page: a scene change's tokens as a list, made once per text
    # (kept on the message, which every socket of this process shares).
    older = message.setdefault("older", {})
    if text not in older:
        view = json.loads(text)["event"]
        older[text] = event_frame_text(event_for(view, version))
    return older[text]


def _class_text(message: dict, role: str, user_id: int, group: str) -> str:
    group = render_group(role, group, message.get("groups"), NO_GROUP)
    key = viewer_class(role, user_id, message.get("actor"), message.get("to"), group)
    return message["texts"][message["pick"][key]]
