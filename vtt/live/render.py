"""Each log entry is encoded once per *visibility class*, not once per
recipient: what a member may see of an event depends only on their role and
on whether they are its actor, or for an addressed event (a whisper) its
recipient (vtt.tabletop.policy). The broadcast carries the few distinct
frame texts and which class gets which; every connection then forwards a
ready text."""

from vtt.tabletop import event_kinds as kinds
from vtt.tabletop.models import Role
from vtt.tabletop.policy import addressee, event_view, token_event_hidden
from vtt.tabletop.visibility import Viewer

from .protocol import event_frame_text

ROLES = tuple(Role.values)
NOBODY = 0  # a user id no real user has: the "not the actor" viewer


def class_key(role: str, is_actor: bool, is_addressee: bool = False) -> str:
    if is_actor:
        return f"{role}.actor"
    return f"{role}.to" if is_addressee else role


def viewer_class(role: str, user_id: int, actor_id: int | None, to_id: int | None = None) -> str:
    is_actor = actor_id is not None and actor_id == user_id
    return class_key(role, is_actor, to_id is not None and to_id == user_id)


def render_event(event) -> dict:
    """The channel-layer message announcing `event` (a RoomEvent) to its room."""
    texts: list[str] = []
    index: dict[str, int] = {}
    pick: dict[str, int] = {}
    to_id = addressee(event)
    for role in ROLES:
        viewers = [(class_key(role, False), Viewer(NOBODY, role))]
        if event.actor_id is not None:
            viewers.append((class_key(role, True), Viewer(event.actor_id, role)))
        if to_id is not None and to_id != event.actor_id:
            viewers.append((class_key(role, False, True), Viewer(to_id, role)))
        for key, viewer in viewers:
            text = event_frame_text(event_view(event, viewer))
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
    declared = kinds.KINDS[event.kind]
    if declared.sight == kinds.Sight.TOKEN:
        token = event.data["token"]
        # Kept on the server side of the socket: lets a connection check drags.
        message["token"] = {
            "id": token["id"],
            "controllers": token["controllers"],
            # Whether players see it (policy): hidden, or on another scene.
            "hidden": token_event_hidden(event),
            "version": token["version"],
            "gone": event.kind == kinds.TOKEN_DELETED,
        }
    if event.kind == kinds.SCENE_ACTIVATED:
        # The new map's tokens (all of them: each connection keeps in its own
        # table those its member may see, to check drag previews against).
        message["scene"] = {
            "id": event.data["scene"]["id"],
            "tokens": [
                {key: token[key] for key in ("id", "controllers", "hidden", "version")}
                for token in event.data["tokens"]
            ],
        }
    if event.kind in (kinds.MEMBER_UPDATED, kinds.MEMBER_REMOVED):
        role = event.data["role"] if event.kind == kinds.MEMBER_UPDATED else None
        message["member"] = {"user_id": event.data["user"]["id"], "role": role}
    return message


def text_for(message: dict, role: str, user_id: int) -> str:
    """The frame text of a rendered event for one recipient."""
    key = viewer_class(role, user_id, message.get("actor"), message.get("to"))
    return message["texts"][message["pick"][key]]
